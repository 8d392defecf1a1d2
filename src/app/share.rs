//! Sharing and keeping runs: share links (copying them, and opening one when the page is loaded
//! with it or it is pasted into the address bar), and the list of past runs.
//!
//! A link is read once and then removed from the address bar, so a reload restores the user's
//! own work (saved as it changes) instead of applying the link over it again.

use crate::i18n::{say, t, tf};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::Controller;
use crate::events::FinishReason;
use crate::link::{self, Shared};
use crate::scenario::Scenario;
use crate::ui::form::EditorState;
use crate::ui::MarkupAttribute;

/// A message about a link that was opened, with the scenario it replaced, to put it back.
#[derive(Clone)]
pub struct LinkNotice {
    pub text: String,
    pub error: bool,
    pub replaced: Option<Scenario>,
}

fn location() -> Option<web_sys::Location> {
    web_sys::window().map(|w| w.location())
}

/// Reads the link the page was opened with, and every link pasted in later.
pub fn open_links(notice: RwSignal<Option<LinkNotice>>, had_own: bool) {
    let controller = expect_context::<Controller>();
    let editor = expect_context::<EditorState>();
    // A browser that had no scenario of its own has nothing to put back: the first preset it
    // showed was only the page's default.
    let own = StoredValue::new(had_own);
    let layout = expect_context::<super::stage::Layout>();
    let open = move || {
        let Some(hash) = location().and_then(|l| l.hash().ok()) else { return };
        let opened = link::decode(&hash);
        if matches!(opened, Ok(None)) {
            return;
        }
        // Out of the address bar, so a reload does not apply the link over later edits.
        if let (Some(history), Some(l)) = (web_sys::window().and_then(|w| w.history().ok()), location()) {
            let clean = format!("{}{}", l.pathname().unwrap_or_default(), l.search().unwrap_or_default());
            let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&clean));
        }
        let replaced = own.get_value().then(|| editor.scenario.get_untracked());
        let message = match opened {
            Ok(Some(Shared::Scenario(scenario))) => {
                let text = tf(say::LinkOpenedScenario, &[("title", &scenario.title)]);
                let replaced = replaced.filter(|r| !r.same_as(&scenario));
                controller.reset();
                editor.load(scenario);
                own.set_value(true);
                LinkNotice { text, error: false, replaced }
            }
            Ok(Some(Shared::Run(file))) => {
                let text = tf(say::LinkOpenedRun, &[("title", &file.scenario.title)]);
                editor.load(file.scenario);
                controller.load_replay(file.events);
                own.set_value(true);
                LinkNotice { text, error: false, replaced }
            }
            Ok(Some(Shared::Comparison(_))) => {
                controller.compare.open_fragment(hash.trim_start_matches('#'));
                let text = t(say::LinkOpenedComparison).into();
                LinkNotice { text, error: false, replaced: None }
            }
            Err(e) => LinkNotice { text: tf(say::LinkBroken, &[("why", &e)]), error: true, replaced: None },
            Ok(None) => return,
        };
        // A link that opened something shows it, from whichever screen it was pasted on.
        if !message.error {
            layout.show_stage();
        }
        notice.set(Some(message));
    };
    open();
    let listener = window_event_listener(leptos::ev::hashchange, move |_| open());
    on_cleanup(move || listener.remove());
}

/// What a link was opened with, and the way back.
#[component]
pub fn LinkMessage(notice: RwSignal<Option<LinkNotice>>) -> impl IntoView {
    let editor = expect_context::<EditorState>();
    move || {
        notice.get().map(|n| {
            let put_back = n.replaced.clone().map(|previous| {
                view! {
                    <button
                        data-testid="link-undo"
                        on:click=move |_| {
                            editor.load(previous.clone());
                            notice.set(None);
                        }
                    >
                        {t(say::LinkPutBack)}
                    </button>
                }
            });
            view! {
                <div class="notice link-notice" class:error=n.error data-testid="link-notice" role="status">
                    <span>{n.text}</span>
                    {put_back}
                    <button class="dismiss" aria-label=t(say::Dismiss) on:click=move |_| notice.set(None)>
                        "×"
                    </button>
                </div>
            }
        })
    }
}

/// "Copy link" for the scenario being edited, or for the run on screen with its event log.
#[component]
pub fn ShareLinks() -> impl IntoView {
    let controller = expect_context::<Controller>();
    let editor = expect_context::<EditorState>();
    let url = RwSignal::new(String::new());
    let message = RwSignal::new(String::new());
    let links_at = RwSignal::new(super::storage::links_at());
    let share = move |with_run: bool| {
        let fragment = if with_run {
            let Some(scenario) =
                controller.view.with_untracked(|v| v.scenario.as_ref().map(|s| (**s).clone()))
            else {
                return;
            };
            controller.with_events(|events| link::run_fragment(&scenario, events))
        } else {
            Ok(link::scenario_fragment(&editor.scenario.get_untracked()))
        };
        let fragment = match fragment {
            Ok(f) => f,
            Err(e) => {
                url.set(String::new());
                message.set(tf(say::LinkNone, &[("why", &e)]));
                return;
            }
        };
        let (base, _) = super::browser::link_base(&links_at.get_untracked());
        let full = format!("{base}#{fragment}");
        url.set(full.clone());
        message.set(tf(say::LinkReady, &[("n", &full.len())]) + t(say::LinkCopying));
        let clipboard = web_sys::window().map(|w| w.navigator().clipboard());
        leptos::task::spawn_local(async move {
            let copied = match clipboard {
                Some(c) => wasm_bindgen_futures::JsFuture::from(c.write_text(&full)).await.is_ok(),
                None => false,
            };
            message.update(|m| {
                *m = m.replace(
                    t(say::LinkCopying),
                    if copied { t(say::LinkCopied) } else { t(say::LinkCopyFromBox) },
                )
            });
        });
    };
    let has_run = move || controller.view.with(|v| v.scenario.is_some());
    // A link belongs to what was on screen when it was made: another scenario in the editor,
    // another run (a new one, a replay, Reset) takes it away.
    let run = Memo::new(move |_| {
        controller.view.with(|v| v.scenario.as_ref().map_or(0, |s| std::sync::Arc::as_ptr(s) as usize))
    });
    Effect::new(move |made: Option<()>| {
        editor.scenario.track();
        // Read, not only tracked: a memo nobody has read does not pass its changes on.
        run.get();
        if made.is_some() {
            url.set(String::new());
            message.set(String::new());
        }
    });
    view! {
        <div class="share" data-testid="share">
            <button
                data-testid="share-scenario"
                disabled=move || editor.has_errors()
                title=t(say::LinkScenarioTitle)
                on:click=move |_| share(false)
            >
                {t(say::LinkScenario)}
            </button>
            <button
                data-testid="share-run"
                disabled=move || !has_run()
                title=t(say::LinkRunTitle)
                on:click=move |_| share(true)
            >
                {t(say::LinkRun)}
            </button>
            {move || (!message.get().is_empty()).then(|| view! {
                <p class="muted share-message" data-testid="share-message" role="status">
                    {move || message.get()}
                </p>
            })}
            {move || (!url.get().is_empty()).then(|| view! {
                <input
                    class="share-url"
                    readonly
                    aria-label=t(say::LinkBox)
                    data-testid="share-url"
                    prop:value=move || url.get()
                    on:focus=|ev| {
                        if let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                            input.select();
                        }
                    }
                />
            })}
            <LinksAt links_at />
        </div>
    }
}

fn ended_label(ended: Option<FinishReason>) -> &'static str {
    ended.map_or(t(say::PastUnfinished), FinishReason::words)
}

/// A past run's method (kept as its English name) in the language spoken.
fn method_words(kept: &str) -> &str {
    match crate::scenario::MethodKind::ALL.iter().find(|k| k.label() == kept) {
        Some(kind) => kind.words(),
        None => kept,
    }
}

/// The runs played here before, to open as replays or delete.
#[component]
pub fn PastRuns() -> impl IntoView {
    let controller = expect_context::<Controller>();
    let notice = controller.notice;
    let editor = expect_context::<EditorState>();
    match super::storage::history() {
        Ok(list) => controller.history.set(list),
        Err(e) => notice.set(tf(say::PastUnreadable, &[("why", &e)])),
    }
    // Drawn as text with one click handler reading which button of which run was pressed (a
    // typed view per run cost the first page more).
    let list = move || {
        controller.history.with(|list| {
            list.iter()
                .map(|past| {
                    let method = method_words(&past.method);
                    let what = if past.runs > 0 {
                        let n = past.runs.to_string();
                        tf(say::PastBatch, &[("method", &method), ("n", &n), ("saved", &past.saved)])
                    } else if past.columns > 0 {
                        let n = past.columns.to_string();
                        tf(say::PastComparison, &[("method", &method), ("n", &n), ("saved", &past.saved)])
                    } else {
                        let ended = ended_label(past.ended);
                        tf(say::PastRun, &[("method", &method), ("turns", &past.turns), ("ended", &ended), ("saved", &past.saved)])
                    };
                    crate::markup!(
                        "<li class=\"past-run\" data-testid=\"past-run\"><div><strong>{}</strong><span class=\"muted\">{}</span></div><button data-testid=\"past-open\" data-act=\"open\" data-id=\"{}\">{}</button><button data-testid=\"past-delete\" data-act=\"delete\" data-id=\"{}\" aria-label=\"{}\">{}</button></li>",
                        crate::presets::title_words(&past.title),
                        what,
                        past.id,
                        if past.runs + past.columns > 0 { t(say::PastOpen) } else { t(say::PastReplay) },
                        past.id,
                        tf(say::PastDeleteLabel, &[("title", &crate::presets::title_words(&past.title))]),
                        t(say::PastDelete)
                    )
                })
                .collect::<crate::markup::Markup>()
        })
    };
    let act = move |ev: leptos::ev::MouseEvent| {
        let Some(button) =
            super::browser::acted(&ev, "open").or_else(|| super::browser::acted(&ev, "delete"))
        else {
            return;
        };
        let id = button.get_attribute("data-id").unwrap_or_default();
        if button.get_attribute("data-act").as_deref() == Some("delete") {
            return controller.delete_past(&id);
        }
        let Some(past) = controller.history.with_untracked(|l| l.iter().find(|p| p.id == id).cloned()) else {
            return;
        };
        let opened = if past.runs > 0 {
            controller.open_past_batch(&id)
        } else if past.columns > 0 {
            controller.compare.open_past(&id);
            Ok(())
        } else {
            controller.open_past(&id).map(|scenario| editor.load(scenario))
        };
        if let Err(e) = opened {
            notice.set(tf(say::PastCouldNotOpen, &[("why", &e)]));
        }
    };
    view! {
        <section class="past-runs" aria-label=t(say::PastRuns) data-testid="past-runs">
            <h2>{t(say::PastRuns)}</h2>
            {move || controller.history.with(Vec::is_empty).then(|| view! {
                <p class="muted">
                    {tf(say::PastRunsEmpty, &[("n", &super::storage::HISTORY_LIMIT)])}
                </p>
            })}
            <ul on:click=act markup=list></ul>
        </section>
    }
}

/// The "links open at" setting: a teacher preparing on a copy of their own shares links that
/// open on the published page. Empty, links open at the address its placeholder shows.
#[component]
fn LinksAt(links_at: RwSignal<String>) -> impl IntoView {
    let passed_over = move || super::browser::link_base(&links_at.get()).1;
    view! {
        <label class="field links-at">
            <span>{t(say::LinksAt)}</span>
            <input
                type="url"
                data-testid="links-at-input"
                placeholder=super::browser::link_base("").0
                title=t(say::LinksAtTitle)
                class:error=passed_over
                prop:value=move || links_at.get()
                on:change=move |ev| {
                    let text = event_target_value(&ev);
                    super::storage::keep_links_at(&text);
                    links_at.set(text);
                }
            />
            <Show when=passed_over>
                <span class="error">{t(say::LinksAtBad)}</span>
            </Show>
        </label>
    }
}
