//! The scenario editor (the gallery of presets is the first page's, in `app`). Every edit updates
//! the scenario signal; the scenario's own validation (the same one files and links go through)
//! decides what is shown as an error next to each field, and any error blocks Run.

use leptos::prelude::*;

use super::{Controller, Mode};
use crate::i18n::{say, t, tf};
use crate::scenario::{AgentSpec, MethodKind, Scenario, Stance, TemplatePart, TopicFollow};
use crate::ui::form::{check_field, number_field, text_field, EditorState, FieldMessage};

/// What the demo model is, said where a teacher types a topic, and the ways to real speech on
/// it: each a button that picks that model (a provider's key: one with a free tier, in the
/// page's language's region), its settings below then saying what this device allows.
#[component]
fn DemoSays() -> impl IntoView {
    let editor = expect_context::<EditorState>();
    let pick = move |id: &'static str| {
        move |_| {
            editor.scenario.update(|s| super::models::pick_provider(s, id));
            // The provider's list takes the focus: its settings are under it.
            if let Some(list) = document().get_element_by_id(super::models::PROVIDER_LIST_ID) {
                list.scroll_into_view();
                if let Ok(list) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(list) {
                    let _ = list.focus();
                }
            }
        }
    };
    let free = if crate::i18n::lang() == crate::i18n::Lang::ZhHans { "zhipu" } else { "gemini" };
    // The model in the tab's pace on this device: this scenario's turns at the speeds its
    // warm-up ran here, this session's or the last kept.
    let controller = expect_context::<Controller>();
    // A closure, not a memo: it is read in one place, and a memo is code of its own.
    let pace = move || {
        let (model, read, write) = controller
            .intab
            .loaded
            .with(|l| l.as_ref().map(|l| (l.source.clone(), l.prompt_per_s, l.tokens_per_s)))
            .or_else(super::storage::intab_pace)?;
        if !controller.demo_ready.get() {
            return None;
        }
        let per_turn = editor.scenario.with(|s| {
            let mut on_tab = s.clone();
            super::models::pick_provider(&mut on_tab, crate::intab::PROVIDER);
            super::demo::estimate(&on_tab)?.duration(read, write).map(|(_, turn)| turn)
        })?;
        Some(tf(say::EdInTabPace, &[("s", &crate::text::fixed(per_turn.max(1.0), 0)), ("model", &model)]))
    };
    // The built-in model is offered only where the browser says it has one or can fetch one.
    let builtin = RwSignal::new(None::<bool>);
    leptos::task::spawn_local(async move {
        use crate::intab::builtin::State;
        if let Ok(v) = super::intab::call_in(super::intab::BUILTIN_MODULE, "availability", &[]).await {
            let word = js_sys::Reflect::get(&v, &"state".into())
                .ok()
                .and_then(|w| w.as_string())
                .unwrap_or_default();
            let offered = matches!(
                State::from_word(&word),
                State::Available | State::Downloadable | State::Downloading
            );
            let _ = builtin.try_set(Some(offered));
        }
    });
    view! {
        <div class="notice demo-says" data-testid="demo-says">
            <p>{t(say::EdDemoSays)}</p>
            <ul>
                {move || match builtin.get() {
                    Some(true) => Some(view! {
                        <li><button type="button" class="link" data-testid="real-builtin" on:click=pick(crate::catalog::BUILTIN)>{t(say::EdRealBuiltin)}</button></li>
                    }.into_any()),
                    _ => None,
                }}
                <li>
                    <button type="button" class="link" data-testid="real-intab" on:click=pick(crate::intab::PROVIDER)>{t(say::EdRealInTab)}</button>
                    <span class="muted pace" data-testid="real-intab-pace">
                        {move || pace().unwrap_or_else(|| t(say::EdInTabPaceUnknown).to_string())}
                    </span>
                </li>
                <li><button type="button" class="link" data-testid="real-key" on:click=pick(free)>{t(say::EdRealKey)}</button></li>
            </ul>
            // Said apart from the list, so it does not read as one of the ways.
            {move || (builtin.get() == Some(false)).then(|| view! {
                <p class="muted" data-testid="real-builtin-none">{t(say::EdRealNoBuiltin)}</p>
            })}
        </div>
    }
}

/// The scenario editor.
#[component]
pub fn Editor() -> impl IntoView {
    let controller = expect_context::<Controller>();
    let editor = expect_context::<EditorState>();
    let s = editor.scenario;
    let locked = move || !matches!(controller.mode.get(), Mode::Idle | Mode::Finished);
    // What a new topic wrote afresh beside it, said under the topic while the editor is open.
    let follow = RwSignal::new(TopicFollow::default());
    view! {
        <details class="editor" data-testid="editor" open>
            <summary>
                <h2>{t(say::EdTitle)}</h2>
            </summary>
            <fieldset disabled=locked>
                <legend class="muted">
                    {move || if locked() { t(say::EdLocked) } else { "" }}
                </legend>
                {text_field(t(say::EdFieldTitle), "title", |s| s.title.clone(), |s, v| s.title = v, false)}
                {text_field(t(say::EdFieldTopic), "topic", |s| s.topic.clone(), move |s, v| {
                    let preset = crate::presets::is_title(&s.title);
                    // A preset's title as the page says it: on a Chinese page the new title
                    // reads "《每日秀》：…", not the English show's name before a Chinese topic.
                    if preset {
                        s.title = crate::presets::title_words(&s.title).to_string();
                    }
                    let changed = s.set_topic(v, preset);
                    if changed != TopicFollow::default() {
                        follow.update(|f| *f = f.and(changed));
                    }
                }, true)}
                <Show when=move || s.with(|s| !s.method.kind().reads_topic())>
                    <p class="notice" data-testid="topic-unread">{t(say::EdTopicUnread)}</p>
                </Show>
                <Show when=move || s.with(|s| s.model.is_demo() && s.method.kind().reads_topic())>
                    <DemoSays />
                </Show>
                {move || {
                    crate::controls::topic_follow_words(follow.get())
                        .map(|words| {
                            view! {
                                <p class="notice" role="status" data-testid="topic-follow">
                                    {words}
                                </p>
                            }
                        })
                }}
                {text_field(
                    t(say::EdFieldLanguage),
                    "language",
                    |s| s.language.clone(),
                    |s, v| s.language = v,
                    false,
                )}
                <div class="row">
                    {number_field(t(say::EdWordLimit), "word_limit", |s| s.word_limit, |s, v| s.word_limit = v)}
                    {number_field(t(say::EdTurnLimit), "max_turns", |s| s.max_turns, |s, v| s.max_turns = v)}
                    {number_field(t(say::EdSeed), "seed", |s| s.seed, |s, v| s.seed = v)}
                </div>
                {move || {
                    let gpu = controller.intab.loaded.with(|l| l.as_ref().is_some_and(|l| l.gpu));
                    (gpu && s.with(|s| s.model.is_in_tab()))
                        .then_some(
                            view! {
                                <p class="muted" data-testid="seed-gpu">
                                    {t(say::EdSeedGpu)}
                                </p>
                            },
                        )
                }}
                <Show when=move || {
                    s.with(|s| s.method.kind().injects_opening())
                }>
                    <div class="row">
                        {text_field(
                            t(say::EdOpeningBy),
                            "opening.speaker",
                            |s| s.opening.speaker.clone(),
                            |s, v| s.opening.speaker = v,
                            false,
                        )}
                    </div>
                    {text_field(
                        t(say::EdOpeningText),
                        "opening.text",
                        |s| s.opening.text.clone(),
                        |s, v| s.opening.text = v,
                        true,
                    )}
                </Show>
                <OpeningSteps />
                <MethodSettings />
                <Templates
                    part=TemplatePart::Method
                    when=|_| true
                    title=t(say::EdTemplates)
                    hint=t(say::EdTemplatesHint)
                />
                <Templates
                    part=TemplatePart::Judge
                    when=|_| true
                    title=t(say::EdJudge)
                    hint=t(say::EdJudgeHint)
                />
                <Agents />
                <super::models::ModelSettings />
            </fieldset>
        </details>
    }
}

/// Seed 000's opening steps, each with its prompts while it is on.
#[component]
fn OpeningSteps() -> impl IntoView {
    view! {
        <fieldset class="opening">
            <legend>{t(say::EdOpeningSteps)}</legend>
            {check_field(
                t(say::EdSpecify),
                "field-opening.specify_topic",
                |s| s.opening.specify_topic,
                |s, v| s.opening.specify_topic = v,
            )}
            <Templates part=TemplatePart::Specifier title=t(say::EdItsPrompts) when=|s| s.opening.specify_topic />
            {check_field(
                t(say::EdDescribe),
                "field-opening.describe_characters",
                |s| s.opening.describe_characters,
                |s, v| s.opening.describe_characters = v,
            )}
            <Templates part=TemplatePart::Describer title=t(say::EdItsPrompts) when=|s| s.opening.describe_characters />
        </fieldset>
    }
}

/// The prompt templates of one part of the editor (see `Scenario::template_rows`), each with
/// "Back to the default text", or the judge's settings, in a closed `<details>` titled `title`.
/// The rows are drawn by the tools chunk, fetched when a list is first opened: none of the
/// templates' code is on the first page.
#[component]
fn Templates(
    part: TemplatePart,
    title: &'static str,
    #[prop(optional)] hint: &'static str,
    /// Whether the list shows (an opening step's, while the step is on).
    when: fn(&Scenario) -> bool,
) -> impl IntoView {
    let s = expect_context::<EditorState>().scenario;
    let slot: super::Slot = RwSignal::new_local(None);
    let failed = RwSignal::new(None::<String>);
    let asked = StoredValue::new(false);
    let owner = Owner::current();
    let open = move |shown: bool| {
        let Some(owner) = owner.clone().filter(|_| shown && !asked.get_value()) else { return };
        asked.set_value(true);
        leptos::task::spawn_local(async move {
            // The editor may have closed meanwhile: then there is nowhere to draw them.
            match super::tools::template_view(owner, s, part).await {
                Ok(rows) => drop(slot.try_set(Some(rows))),
                Err(e) => {
                    asked.set_value(false);
                    drop(failed.try_set(Some(String::from(e))));
                }
            }
        });
    };
    view! {
        <details class="templates" data-testid=format!("templates-{}", part.name()) hidden=move || !s.with(when) on:toggle=move |ev| {
            use wasm_bindgen::JsCast;
            open(ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok()).is_some_and(|d| d.open()))
        }>
            <summary>{title}</summary>
            {(!hint.is_empty()).then(|| view! { <p class="hint">{hint}</p> })}
            <div>
                {super::place(slot)}
                {move || failed.get().map(|why| view! { <p class="notice error" role="alert">{tf(say::EdTemplatesFailed, &[("why", &why)])}</p> })}
            </div>
        </details>
    }
}

#[component]
fn MethodSettings() -> impl IntoView {
    let editor = expect_context::<EditorState>();
    let s = editor.scenario;
    let kind = Memo::new(move |_| s.with(|s| s.method.kind()));
    view! {
        <fieldset class="method">
            <legend>{t(say::EdSpeakerSelection)}</legend>
            <label class="field">
                <span>{t(say::EdMethod)}</span>
                <select
                    data-testid="field-method"
                    on:change=move |ev| {
                        // The options are the known kinds, so an unknown value cannot come.
                        if let Some(k) = MethodKind::from_id(&event_target_value(&ev)) {
                            s.update(|s| {
                                s.switch_method(k);
                                s.keep_seats();
                            });
                        }
                    }
                >
                    {MethodKind::ALL
                        .iter()
                        .map(|&k| {
                            view! {
                                <option value=k.id() selected=move || kind.get() == k>
                                    {k.words()}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </label>
            {move || super::methods::settings(kind.get())}
            <FieldMessage field="method.pattern" />
        </fieldset>
    }
}

/// The agents: add, remove, reorder, edit.
#[component]
fn Agents() -> impl IntoView {
    let editor = expect_context::<EditorState>();
    let s = editor.scenario;
    let count = Memo::new(move |_| s.with(|s| s.agents.len()));
    let add = move |_| {
        s.update(|s| {
            let n = s.agents.len() + 1;
            let mut name = format!("Agent {n}");
            let mut k = n;
            while s.agents.iter().any(|a| a.name == name) {
                k += 1;
                name = format!("Agent {k}");
            }
            s.agents.push(AgentSpec { name, role: "participant".into(), ..Default::default() });
        })
    };
    view! {
        <fieldset class="agents">
            <legend>{t(say::EdAgents)}</legend>
            <FieldMessage field="agents" />
            <CastDescriber />
            <ol class="agent-list">
                <For each=move || 0..count.get() key=|i| *i let:i>
                    <AgentRow index=i />
                </For>
            </ol>
            <button data-testid="add-agent" on:click=add>
                {t(say::EdAddAgent)}
            </button>
        </fieldset>
    }
}

/// Where the offer of descriptions written for the topic stands.
#[derive(Clone, Debug, PartialEq)]
enum Offer {
    Nothing,
    Asking,
    Written(Vec<(String, Result<String, String>)>),
    Used(usize),
    Failed(String),
}

/// Seed 000's description step on demand: the scenario's model writes each agent's description
/// for the topic, and the person chooses whether to use them.
#[component]
fn CastDescriber() -> impl IntoView {
    let controller = expect_context::<Controller>();
    let editor = expect_context::<EditorState>();
    let s = editor.scenario;
    let offer = RwSignal::new(Offer::Nothing);
    let ask = move |_| {
        offer.set(Offer::Asking);
        let scenario = s.get_untracked();
        leptos::task::spawn_local(async move {
            let written = controller.describe_cast(scenario).await;
            offer.try_set(match written {
                Ok(list) if list.iter().all(|(_, d)| d.is_err()) => Offer::Failed(
                    list.first()
                        .and_then(|(_, d)| d.clone().err())
                        .unwrap_or_else(|| "no agents to describe".into()),
                ),
                Ok(list) => Offer::Written(list),
                Err(e) => Offer::Failed(e),
            });
        });
    };
    let use_them = move |_| {
        let Offer::Written(list) = offer.get_untracked() else { return };
        let mut changed = 0;
        s.update(|s| changed = s.use_descriptions(&list));
        offer.set(Offer::Used(changed));
    };
    let asking = move || offer.with(|o| *o == Offer::Asking);
    view! {
        <div class="describe-cast">
            <button data-testid="describe-cast" disabled=asking on:click=ask>
                {t(say::EdWriteDescriptions)}
            </button>
            <span class="muted">
                {move || {
                    let step_on = s.with(|s| s.opening.describe_characters);
                    if step_on {
                        t(say::EdWriteDescriptionsStepOn)
                    } else {
                        t(say::EdWriteDescriptionsHint)
                    }
                }}
            </span>
            {move || match offer.get() {
                Offer::Nothing => None,
                Offer::Asking => Some(view! {
                    <p class="muted" role="status" data-testid="describe-status">
                        {t(say::EdWriting)}
                    </p>
                }.into_any()),
                Offer::Used(n) => Some(view! {
                    <p class="muted" role="status" data-testid="describe-status">
                        {match n {
                            0 => t(say::EdUsedNone).to_string(),
                            1 => t(say::EdUsedOne).to_string(),
                            n => tf(say::EdUsedMany, &[("n", &n)]),
                        }}
                    </p>
                }.into_any()),
                Offer::Failed(e) => Some(view! {
                    <p class="notice" role="alert" data-testid="describe-status">
                        {tf(say::EdDescribeFailed, &[("why", &e)])}
                    </p>
                }.into_any()),
                Offer::Written(list) => Some(view! {
                    <div class="described" data-testid="described">
                        <ul>
                            {list.into_iter().map(|(name, text)| view! {
                                <li data-testid="described-agent">
                                    <strong>{name}</strong>{t(say::EdNameColon)}
                                    {match text {
                                        Ok(text) => view! { <span>{text}</span> }.into_any(),
                                        Err(why) => view! { <span class="muted">{tf(say::EdDescribeNone, &[("why", &why)])}</span> }.into_any(),
                                    }}
                                </li>
                            }).collect_view()}
                        </ul>
                        <button data-testid="describe-use" on:click=use_them>{t(say::EdUseDescriptions)}</button>
                        " "
                        <button data-testid="describe-dismiss" on:click=move |_| offer.set(Offer::Nothing)>{t(say::Dismiss)}</button>
                    </div>
                }.into_any()),
            }}
        </div>
    }
}

#[component]
fn AgentRow(index: usize) -> impl IntoView {
    let editor = expect_context::<EditorState>();
    let s = editor.scenario;
    let field = move |name: &str| format!("agents[{index}].{name}");
    let get =
        move |f: fn(&AgentSpec) -> String| move || s.with(|s| s.agents.get(index).map(f).unwrap_or_default());
    let set = move |f: fn(&mut AgentSpec, String)| {
        move |ev: leptos::ev::Event| {
            let v = event_target_value(&ev);
            s.update(|s| {
                if let Some(a) = s.agents.get_mut(index) {
                    f(a, v)
                }
            })
        }
    };
    let name_field = field("name");
    let name_error = name_field.clone();
    let stance = move || s.with(|s| s.agents.get(index).and_then(|a| a.stance));
    let move_by = move |delta: isize| {
        s.update(|s| {
            let j = index as isize + delta;
            if j >= 0 && (j as usize) < s.agents.len() {
                s.agents.swap(index, j as usize);
            }
        })
    };
    view! {
        <li class="agent" data-testid=format!("agent-{index}")>
            <div class="row">
                <label class="field">
                    <span>{t(say::EdName)}</span>
                    <input
                        data-testid=format!("field-{name_field}")
                        prop:value=get(|a| a.name.clone())
                        aria-invalid=move || editor.error_for(&name_error).is_some().to_string()
                        on:input=move |ev| {
                            let v = event_target_value(&ev);
                            s.update(|s| s.rename_agent(index, v))
                        }
                    />
                    <FieldMessage field=name_field.clone() />
                </label>
                <label class="field">
                    <span>{t(say::EdRole)}</span>
                    <input prop:value=get(|a| a.role.clone()) on:input=set(|a, v| a.role = v) />
                </label>
                <label class="field">
                    <span>{t(say::EdLocation)}</span>
                    <input prop:value=get(|a| a.location.clone()) on:input=set(|a, v| a.location = v) />
                </label>
                <label class="field">
                    <span>{t(say::EdStance)}</span>
                    <select on:change=move |ev| {
                        let v = match event_target_value(&ev).as_str() {
                            "for" => Some(Stance::For),
                            "against" => Some(Stance::Against),
                            "neutral" => Some(Stance::Neutral),
                            _ => None,
                        };
                        s.update(|s| {
                            if let Some(a) = s.agents.get_mut(index) {
                                a.stance = v
                            }
                        })
                    }>
                        <option value="" selected=move || stance().is_none()>
                            {t(say::StanceUnstated)}
                        </option>
                        <option value="for" selected=move || stance() == Some(Stance::For)>
                            {t(say::StanceFor)}
                        </option>
                        <option value="against" selected=move || stance() == Some(Stance::Against)>
                            {t(say::StanceAgainst)}
                        </option>
                        <option value="neutral" selected=move || stance() == Some(Stance::Neutral)>
                            {t(say::StanceNeutral)}
                        </option>
                    </select>
                </label>
            </div>
            <label class="field">
                <span>{t(say::EdDescription)}</span>
                <textarea
                    rows="2"
                    data-testid=format!("field-agents[{index}].description")
                    prop:value=get(|a| a.description.clone())
                    on:input=set(|a, v| a.description = v)
                ></textarea>
            </label>
            <label class="field">
                <span>{t(say::EdSystemPrompt)}</span>
                <textarea
                    rows="2"
                    data-testid=format!("field-agents[{index}].system_prompt")
                    prop:value=get(|a| a.system_prompt.clone().unwrap_or_default())
                    on:input=set(|a, v| a.system_prompt = if v.trim().is_empty() { None } else { Some(v) })
                ></textarea>
            </label>
            // One engine holds one model, so agents in the tab share it.
            <Show when=move || s.with(|s| s.model.is_hosted())>
                <label class="field">
                    <span>{t(say::EdAgentModel)}</span>
                    <input
                        data-testid=format!("field-agents[{index}].model")
                        list="model-list"
                        prop:value=get(|a| a.model.clone().unwrap_or_default())
                        on:input=set(|a, v| a.model = if v.trim().is_empty() { None } else { Some(v.trim().to_string()) })
                    />
                </label>
            </Show>
            <FieldMessage field=format!("agents[{index}]") />
            <div class="agent-actions">
                <button on:click=move |_| move_by(-1) disabled=move || index == 0 aria-label=t(say::EdMoveUp)>
                    "↑"
                </button>
                <button
                    on:click=move |_| move_by(1)
                    disabled=move || s.with(|s| index + 1 >= s.agents.len())
                    aria-label=t(say::EdMoveDown)
                >
                    "↓"
                </button>
                <button
                    data-testid=format!("remove-agent-{index}")
                    on:click=move |_| {
                        s.update(|s| {
                            if index < s.agents.len() {
                                s.agents.remove(index);
                                s.keep_seats();
                            }
                        })
                    }
                >
                    {t(say::EdRemove)}
                </button>
            </div>
        </li>
    }
}

/// Who the class plays, where a teacher starts a run (under the run controls): a box per agent,
/// the selector in its method, and how long a seat waits once one is taken. Changes the scenario
/// in the editor, as its other fields do.
#[component]
pub fn ClassSeats() -> impl IntoView {
    let s = expect_context::<EditorState>().scenario;
    // Drawn again only when the cast changes; ticking a box changes the seats, which each box
    // reads for itself, so the box keeps the keyboard's focus. The time limit and the selector's
    // box sit behind memos too, so typing in the field does not draw it again.
    let names = Memo::new(move |_| s.with(|s| s.agents.iter().map(|a| a.name.clone()).collect::<Vec<_>>()));
    let boxes = move || {
        names
            .get()
            .into_iter()
            .enumerate()
            .map(|(i, name)| {
                let taken = {
                    let name = name.clone();
                    move || s.with(|s| s.seats.contains(&name))
                };
                let toggle = {
                    let name = name.clone();
                    move |ev: leptos::ev::Event| s.update(|s| s.take_seat(name.clone(), event_target_checked(&ev)))
                };
                view! {
                    <label class="check">
                        <input type="checkbox" data-testid=format!("seat-{i}") prop:checked=taken on:change=toggle />
                        " "
                        <span>{name}</span>
                    </label>
                }
            })
            .collect_view()
    };
    let seated = Memo::new(move |_| s.with(|s| !s.seats.is_empty()));
    let selector = Memo::new(move |_| s.with(|s| matches!(s.method, crate::scenario::Method::Selector(_))));
    view! {
        <div class="row class-seats" role="group" aria-label=t(say::SeatsLabel) data-testid="class-seats">
            <span>{t(say::SeatsIntro)}</span>
            <span class="row">{boxes}</span>
            {move || selector.get().then(|| {
                crate::ui::form::check_field(
                    t(say::SeatsSelector),
                    "seat-selector",
                    |s| s.seats.iter().any(|n| n == crate::methods::selector::SELECTOR),
                    |s, on| s.take_seat(crate::methods::selector::SELECTOR.to_string(), on),
                )
            })}
            {move || seated.get().then(|| number_field(
                t(say::SeatsTimeout),
                "seat_timeout_s",
                |s| s.seat_timeout_s,
                |s, v| s.seat_timeout_s = v,
            ))}
        </div>
    }
}
