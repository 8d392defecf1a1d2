//! The scenario editor (the gallery of presets is the first page's, in `app`). Every edit updates
//! the scenario signal; the scenario's own validation (the same one files and links go through)
//! decides what is shown as an error next to each field, and any error blocks Run.

use leptos::prelude::*;

use super::{Controller, Mode};
use crate::markup::Markup;
use crate::scenario::{AgentSpec, MethodKind, Scenario, Stance};
use crate::ui::form::{check_field, number_field, text_field, EditorState, FieldMessage};
use crate::ui::MarkupAttribute;

/// The scenario editor.
#[component]
pub fn Editor() -> impl IntoView {
    let controller = expect_context::<Controller>();
    let editor = expect_context::<EditorState>();
    let s = editor.scenario;
    let locked = move || !matches!(controller.mode.get(), Mode::Idle | Mode::Finished);
    view! {
        <details class="editor" data-testid="editor" open>
            <summary>
                <h2>"Edit the scenario"</h2>
            </summary>
            <fieldset disabled=locked>
                <legend class="muted">
                    {move || if locked() { "Reset the run to edit." } else { "" }}
                </legend>
                {text_field("Title", "title", |s| s.title.clone(), |s, v| s.title = v, false)}
                {text_field("Topic", "topic", |s| s.topic.clone(), |s, v| {
                    let preset = crate::presets::is_title(&s.title);
                    s.set_topic(v, preset)
                }, true)}
                <div class="row">
                    {number_field("Word limit", "word_limit", |s| s.word_limit, |s, v| s.word_limit = v)}
                    {number_field("Turn limit", "max_turns", |s| s.max_turns, |s, v| s.max_turns = v)}
                    {number_field("Seed", "seed", |s| s.seed, |s, v| s.seed = v)}
                </div>
                {move || {
                    let gpu = controller.intab.loaded.with(|l| l.as_ref().is_some_and(|l| l.gpu));
                    (gpu && s.with(|s| s.model.is_in_tab()))
                        .then_some(
                            view! {
                                <p class="muted" data-testid="seed-gpu">
                                    "The model in the tab runs on the GPU, where the same seed may not repeat a run exactly: choose \"The CPU only\" in its settings for that."
                                </p>
                            },
                        )
                }}
                <Show when=move || {
                    s.with(|s| s.method.kind().injects_opening())
                }>
                    <div class="row">
                        {text_field(
                            "Opening by",
                            "opening.speaker",
                            |s| s.opening.speaker.clone(),
                            |s, v| s.opening.speaker = v,
                            false,
                        )}
                    </div>
                    {text_field(
                        "Opening message (empty: the topic)",
                        "opening.text",
                        |s| s.opening.text.clone(),
                        |s, v| s.opening.text = v,
                        true,
                    )}
                </Show>
                <OpeningSteps />
                <MethodSettings />
                <Templates
                    part="method"
                    when=|_| true
                    title="Prompt templates (advanced)"
                    hint="The texts the models read, with the default wording until you change it; {name} and the like are filled in for each call."
                />
                <Templates
                    part="judge"
                    when=|_| true
                    title="The judge (advanced)"
                    hint="Who judges a finished run (empty: the run's own model, or the demo judge on the demo model), and what it scores: each dimension a whole number from its least to its most, with the words the judge reads."
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
            <legend>"Opening steps (before the first turn; within the word limit above)"</legend>
            {check_field(
                "A model makes the topic more specific first",
                "field-opening.specify_topic",
                |s| s.opening.specify_topic,
                |s, v| s.opening.specify_topic = v,
            )}
            <Templates part="specifier" title="Its prompts" when=|s| s.opening.specify_topic />
            {check_field(
                "A model writes each agent's description first",
                "field-opening.describe_characters",
                |s| s.opening.describe_characters,
                |s, v| s.opening.describe_characters = v,
            )}
            <Templates part="describer" title="Its prompts" when=|s| s.opening.describe_characters />
        </fieldset>
    }
}

/// The prompt templates of one part of the editor (see `Scenario::templates_html`), each with
/// "Back to the default text", in a closed `<details>` titled `title`. The rows are drawn and
/// edits applied by the tools module, fetched when a list is first opened: none of the
/// templates' code is on the first page.
#[component]
fn Templates(
    part: &'static str,
    title: &'static str,
    #[prop(optional)] hint: &'static str,
    /// Whether the list shows (an opening step's, while the step is on).
    when: fn(&Scenario) -> bool,
) -> impl IntoView {
    let s = expect_context::<EditorState>().scenario;
    let open = RwSignal::new(false);
    let html = RwSignal::new(String::new());
    // The scenario (as JSON) the rows were last drawn for or wrote themselves: the rows are drawn
    // again only when the scenario changes otherwise (a preset, the method, an opening step), so
    // the box being typed in keeps its caret.
    let drawn = StoredValue::new(String::new());
    let rows = move || {
        if open.get() {
            let json = s.with(|s| serde_json::to_string(s).unwrap_or_default());
            if drawn.with_value(|d| *d != json) {
                drawn.set_value(json.clone());
                let show = move |out: Result<String, String>| {
                    html.set(out.unwrap_or_else(|e| crate::text::alert_html(&e).into_string()))
                };
                super::tools::spawn(super::tools::templates(json, part.to_string()), show);
            }
        }
        Markup::from_tools_module(html.get())
    };
    // A box typed in or a seed button pressed: the module reads the row and sets the template
    // (in the order the edits were made: once loaded, a call is a step of the microtask queue).
    let edit = move |ev: leptos::ev::Event| {
        let apply = move |out: Result<String, String>| {
            // A row added or removed (the judge's rubric) asks for the rows to be drawn again.
            let out = out.unwrap_or_default();
            let (redraw, out) = out.strip_prefix("redraw\n").map_or((false, out.as_str()), |o| (true, o));
            if let Ok(scenario) = Scenario::parse(out) {
                drawn.set_value(if redraw {
                    String::new()
                } else {
                    serde_json::to_string(&scenario).unwrap_or_default()
                });
                s.set(scenario);
            }
        };
        let json = s.with_untracked(|s| serde_json::to_string(s).unwrap_or_default());
        super::tools::spawn(super::tools::template_edit(json, ev), apply);
    };
    view! {
        <details class="templates" data-testid=format!("templates-{part}") hidden=move || !s.with(when) on:toggle=move |ev| {
            let shown = ev.target().and_then(|t| js_sys::Reflect::get(&t, &"open".into()).ok());
            open.set(shown.is_some_and(|v| v.is_truthy()))
        }>
            <summary>{title}</summary>
            {(!hint.is_empty()).then(|| view! { <p class="hint">{hint}</p> })}
            <div markup=rows on:input=edit on:click=move |ev| edit(ev.into())></div>
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
            <legend>"Speaker selection"</legend>
            <label class="field">
                <span>"Method"</span>
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
                                    {k.label()}
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
            <legend>"Agents"</legend>
            <FieldMessage field="agents" />
            <ol class="agent-list">
                <For each=move || 0..count.get() key=|i| *i let:i>
                    <AgentRow index=i />
                </For>
            </ol>
            <button data-testid="add-agent" on:click=add>
                "Add agent"
            </button>
        </fieldset>
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
                    <span>"Name"</span>
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
                    <span>"Role"</span>
                    <input prop:value=get(|a| a.role.clone()) on:input=set(|a, v| a.role = v) />
                </label>
                <label class="field">
                    <span>"Location"</span>
                    <input prop:value=get(|a| a.location.clone()) on:input=set(|a, v| a.location = v) />
                </label>
                <label class="field">
                    <span>"Stance"</span>
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
                            "unstated"
                        </option>
                        <option value="for" selected=move || stance() == Some(Stance::For)>
                            "for"
                        </option>
                        <option value="against" selected=move || stance() == Some(Stance::Against)>
                            "against"
                        </option>
                        <option value="neutral" selected=move || stance() == Some(Stance::Neutral)>
                            "neutral"
                        </option>
                    </select>
                </label>
            </div>
            <label class="field">
                <span>"Description"</span>
                <textarea rows="2" prop:value=get(|a| a.description.clone()) on:input=set(|a, v| a.description = v)></textarea>
            </label>
            <label class="field">
                <span>"System prompt (empty: built from the templates)"</span>
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
                    <span>"Model for this agent (empty: the scenario's)"</span>
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
                <button on:click=move |_| move_by(-1) disabled=move || index == 0 aria-label="Move up">
                    "↑"
                </button>
                <button
                    on:click=move |_| move_by(1)
                    disabled=move || s.with(|s| index + 1 >= s.agents.len())
                    aria-label="Move down"
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
                    "Remove"
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
        <div class="row class-seats" role="group" aria-label="Played by you" data-testid="class-seats">
            <span>"Played by you (the class answers for them):"</span>
            <span class="row">{boxes}</span>
            {move || selector.get().then(|| {
                crate::ui::form::check_field(
                    "the selector",
                    "seat-selector",
                    |s| s.seats.iter().any(|n| n == crate::methods::selector::SELECTOR),
                    |s, on| s.take_seat(crate::methods::selector::SELECTOR.to_string(), on),
                )
            })}
            {move || seated.get().then(|| number_field(
                "A seat waits at most (seconds, 0: no limit)",
                "seat_timeout_s",
                |s| s.seat_timeout_s,
                |s, v| s.seat_timeout_s = v,
            ))}
        </div>
    }
}

/// An edit in the judge's settings (drawn by [`templates`] for the part `judge`): the
/// scenario with the settings read back from the rows, as JSON; after a dimension is added
/// or removed, prefixed `redraw` and a line end, so the page draws the rows again.
fn judge_edit(
    scenario: &str,
    event: &web_sys::Event,
    el: &web_sys::Element,
    block: &web_sys::Element,
) -> Result<String, String> {
    use wasm_bindgen::JsCast;
    let act = el.get_attribute("data-act").filter(|_| event.type_() == "click");
    if event.type_() != "input" && act.is_none() {
        return Ok(String::new());
    }
    let mut s = crate::scenario::Scenario::parse(scenario)?;
    let mut settings = s.judge.read()?;
    let value = |e: &web_sys::Element| -> String {
        if let Some(i) = e.dyn_ref::<web_sys::HtmlInputElement>() {
            i.value()
        } else if let Some(t) = e.dyn_ref::<web_sys::HtmlTextAreaElement>() {
            t.value()
        } else {
            String::new()
        }
    };
    let within = |root: &web_sys::Element, key: &str| {
        root.query_selector(&format!("[data-key={key}]"))
            .ok()
            .flatten()
            .map(|e| value(&e))
            .unwrap_or_default()
    };
    if let Some(live) = block
        .query_selector("[data-key=live]")
        .ok()
        .flatten()
        .and_then(|e| e.dyn_into::<web_sys::HtmlInputElement>().ok())
    {
        settings.live = live.checked();
    }
    let head = block.query_selector("p.row").ok().flatten();
    if let Some(head) = &head {
        (settings.provider, settings.model, settings.base_url) = (
            within(head, "provider").trim().into(),
            within(head, "model").trim().into(),
            within(head, "base_url").trim().into(),
        );
    }
    let removed =
        if act.as_deref() == Some("remove") { el.closest(".dimension").ok().flatten() } else { None };
    let (mut agent, mut conversation) = (Vec::new(), Vec::new());
    // The rows are the block's children that name their list.
    let mut next = block.first_element_child();
    while let Some(row) = next {
        next = row.next_element_sibling();
        // (The add buttons name their list too.)
        let Some(list) = row.get_attribute("data-list").filter(|_| row.tag_name() == "DIV") else {
            continue;
        };
        if removed.as_ref() == Some(&row) {
            continue;
        }
        let d = crate::judge::Dimension {
            name: within(&row, "name").trim().to_string(),
            min: within(&row, "min").trim().parse().unwrap_or(0),
            max: within(&row, "max").trim().parse().unwrap_or(0),
            description: within(&row, "description").trim().to_string(),
        };
        if list == "conversation_rubric" {
            conversation.push(d);
        } else {
            agent.push(d);
        }
    }
    if act.as_deref() == Some("add") {
        let list = if el.get_attribute("data-list").as_deref() == Some("conversation_rubric") {
            &mut conversation
        } else {
            &mut agent
        };
        let name = format!("dimension {}", list.len() + 1);
        list.push(crate::judge::Dimension { name, min: 1, max: 5, description: String::new() });
    }
    (settings.agent_rubric, settings.conversation_rubric) = (agent, conversation);
    s.judge = crate::judge::JudgeSpec::of(&settings);
    let json = serde_json::to_string(&s).map_err(|e| e.to_string())?;
    Ok(if act.is_some() { format!("redraw\n{json}") } else { json })
}

/// What an input or click in the editor's template rows (drawn by the tools' `templates`) does to
/// the scenario `scenario` holds as JSON: the scenario with that template set, as JSON (a seed
/// button also puts the seed's text in its box), or an empty text when the event edits nothing.
/// The row's seed button is disabled while its text is the seed's.
pub(crate) fn template_edit(scenario: &str, event: &web_sys::Event) -> Result<String, String> {
    use wasm_bindgen::JsCast;
    let Some(el) = event.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else {
        return Ok(String::new());
    };
    if let Some(block) = el.closest(".judge-settings").ok().flatten() {
        return judge_edit(scenario, event, &el, &block);
    }
    let row = el.closest(".template").ok().flatten();
    let find = |tag: &str| row.as_ref().and_then(|r| r.query_selector(tag).ok().flatten());
    let (Some(field), Some(button), Some(area)) =
        (el.get_attribute("data-field"), find("button"), find("textarea"))
    else {
        return Ok(String::new());
    };
    let (button, area): (web_sys::HtmlButtonElement, web_sys::HtmlTextAreaElement) =
        (button.unchecked_into(), area.unchecked_into());
    let seed = button.get_attribute("data-seed").unwrap_or_default();
    match event.type_().as_str() {
        "click" if el.tag_name() == "BUTTON" => area.set_value(&seed),
        "input" => {}
        _ => return Ok(String::new()),
    }
    let text = area.value();
    button.set_disabled(text == seed);
    let mut s = crate::scenario::Scenario::parse(scenario)?;
    s.set_template(&field, text);
    serde_json::to_string(&s).map_err(|e| e.to_string())
}
