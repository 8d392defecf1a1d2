//! The model built into the browser (the Prompt API's `LanguageModel`) in the app: its module
//! (`public/builtin/agora-builtin.js`, fetched the first time it is needed, so the first page
//! carries none of it) asks the browser and answers a run's calls; here are the [`ChatModel`] a
//! run asks and the model's settings ([`Settings`]). Calls go as the in-tab engine's do
//! (`crate::intab::call_body`, answered as an `EngineAnswer`), so both share their reading.

use std::rc::Rc;

use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsValue;

use super::intab::{call_in, InTab, BUILTIN_MODULE};
use crate::model::{ChatModel, ChatRequest, ChatResponse, ModelError};
use crate::provider::TextSink;
use futures::future::LocalBoxFuture;

/// The model a run on the browser's own model asks.
pub fn model(state: InTab, on_text: TextSink) -> Rc<dyn ChatModel> {
    Rc::new(Builtin { state, on_text })
}

struct Builtin {
    /// Where its calls in flight are kept for Stop (shared with the in-tab engine's).
    state: InTab,
    on_text: TextSink,
}

impl ChatModel for Builtin {
    fn complete<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, ModelError>> {
        Box::pin(self.state.ask(BUILTIN_MODULE, request, 0, None, self.on_text.clone()))
    }
}

/// The built-in model's settings: what the browser says of its model, its download (started by
/// a click, as the browser asks) with its progress, and its context window once known. The
/// module is fetched when they first show; what each state offers is `intab::builtin`'s.
#[component]
pub fn Settings() -> impl IntoView {
    use crate::intab::builtin::{context_line, offer, Download, Offer, State};

    let seen = RwSignal::new(None::<(State, String)>);
    let download = RwSignal::new(Download::default());
    let context = RwSignal::new(0u32);
    let failed = RwSignal::new(None::<String>);
    // Asks the browser again (after a download, or once a session told the context window).
    let look = move || {
        leptos::task::spawn_local(async move {
            match call_in(BUILTIN_MODULE, "availability", &[]).await {
                Ok(v) => {
                    let field = |k: &str| {
                        js_sys::Reflect::get(&v, &k.into())
                            .ok()
                            .and_then(|x| x.as_string())
                            .unwrap_or_default()
                    };
                    let _ = seen.try_set(Some((State::from_word(&field("state")), field("words"))));
                }
                Err(e) => drop(failed.try_set(Some(e))),
            }
        });
    };
    look();
    let told = Closure::<dyn Fn(f64, bool, f64)>::new(move |loaded: f64, active: bool, window: f64| {
        let _ = download.try_set(Download { loaded, active });
        let window = window.max(0.0) as u32;
        if context.try_get_untracked().is_some_and(|c| c != window) {
            context.set(window);
            look();
        }
    })
    .into_js_value();
    let watching = RwSignal::new(None::<f64>);
    leptos::task::spawn_local(async move {
        if let Ok(id) = call_in(BUILTIN_MODULE, "watch", &[&told]).await {
            let _ = watching.try_set(id.as_f64());
        }
    });
    on_cleanup(move || {
        if let Some(id) = watching.try_get_untracked().flatten() {
            leptos::task::spawn_local(async move {
                let _ = call_in(BUILTIN_MODULE, "unwatch", &[&JsValue::from(id)]).await;
            });
        }
    });
    let start = move |_| {
        download.set(Download { loaded: 0.0, active: true });
        leptos::task::spawn_local(async move {
            let why =
                call_in(BUILTIN_MODULE, "fetchModel", &[]).await.map(|v| v.as_string().unwrap_or_default());
            match why {
                Ok(why) if why.is_empty() => look(),
                Ok(why) | Err(why) => {
                    let _ = seen.try_update(|s| {
                        if let Some((_, words)) = s {
                            *words = why;
                        }
                    });
                }
            }
        });
    };
    let state = move || seen.with(|s| s.as_ref().map(|(state, _)| *state));
    view! {
        <div class="intab" data-testid="builtin-settings">
            {move || seen.get().map(|(state, words)| view! {
                <p class="builtin-state" data-testid="builtin-state" data-state=format!("{state:?}").to_lowercase() role="status">{words}</p>
            })}
            {move || match offer(state().unwrap_or(State::Unavailable), download.get()) {
                Offer::Progress(pct) => Some(view! {
                    <p data-testid="builtin-progress"><progress max="100" value=pct></progress>{format!(" {pct} % downloaded")}</p>
                }.into_any()),
                Offer::Download => Some(view! {
                    <button type="button" data-testid="builtin-download" on:click=start>"Download the built-in model"</button>
                }.into_any()),
                Offer::Nothing => None,
            }}
            {move || context_line(context.get()).map(|line| view! { <p class="muted" data-testid="builtin-context">{line}</p> })}
            <p class="muted">
                "Nothing leaves this computer and no key is needed. Each agent keeps one session with its instructions; bids and choices are held to their form by the browser."
            </p>
        </div>
        {move || failed.get().map(|e| view! { <p class="notice error" role="alert" data-testid="intab-failed">{e}</p> })}
    }
}
