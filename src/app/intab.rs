//! The in-tab model in the app: its engine (`public/intab/agora-intab.js` with wllama, fetched
//! the first time it is needed, so the first page carries none of it; its settings panel is the
//! app's, `app::intab_panel`), and the [`ChatModel`] a run asks.
//! Every call carries the [`Reply`](crate::reply::Reply) it asks for, the grammar and token
//! budget built from it (the core's code, in the page's `intab` chunk, fetched with the engine),
//! and a seed drawn from the run's seed and the call's place in the run.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use futures::future::LocalBoxFuture;
use leptos::prelude::*;
use serde_json::Value;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use crate::intab::EngineAnswer;
use crate::model::{ChatModel, ChatRequest, ChatResponse, ModelError};
use crate::provider::TextSink;
use crate::scenario::Scenario;

thread_local! {
    static ENGINE: RefCell<Vec<(&'static str, JsValue)>> = const { RefCell::new(Vec::new()) };
}

// The engine's module is imported by `agoraImport`, which the page's start files define
// (public/boot/start.js, phone.js): not a function built
// out of a string, so a page whose Content-Security-Policy forbids `eval` still loads it, and
// not a wasm-bindgen snippet, whose file every build of the crate writes at the same path while
// Trunk builds them side by side (a page once got another build's empty copy and never started).
#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = agoraImport)]
    pub(super) fn import_module(path: &str) -> js_sys::Promise;
}

/// Words for whatever JavaScript threw.
pub(super) fn words(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| js_sys::Reflect::get(e, &"message".into()).ok().and_then(|m| m.as_string()))
        .unwrap_or_else(|| "an unknown error".into())
}

/// The in-tab engine's module, and the built-in model's (`crate::app::builtin`).
pub const ENGINE_MODULE: &str = "intab/agora-intab.js";
pub const BUILTIN_MODULE: &str = "builtin/agora-builtin.js";

/// The module at `path` (one of the two above), fetched once.
async fn engine(path: &'static str) -> Result<JsValue, String> {
    if let Some(m) = ENGINE.with(|e| e.borrow().iter().find(|(p, _)| *p == path).map(|(_, m)| m.clone())) {
        return Ok(m);
    }
    let module = JsFuture::from(import_module(path)).await.map_err(|e| {
        let what = if path == ENGINE_MODULE { "the in-tab engine" } else { "the built-in model's module" };
        format!("{what} could not be fetched ({}); reload the page and try again", words(&e))
    })?;
    ENGINE.with(|e| e.borrow_mut().push((path, module.clone())));
    Ok(module)
}

/// Calls `name` of the module at `path` with `args`, awaiting it if it answers with a promise.
pub(super) async fn call_in(path: &'static str, name: &str, args: &[&JsValue]) -> Result<JsValue, String> {
    let module = engine(path).await?;
    let f: js_sys::Function = js_sys::Reflect::get(&module, &name.into())
        .map_err(|e| words(&e))?
        .dyn_into()
        .map_err(|e| words(&e))?;
    let list: js_sys::Array = args.iter().copied().collect();
    let out = f.apply(&module, &list).map_err(|e| words(&e))?;
    match out.dyn_into::<js_sys::Promise>() {
        Ok(p) => JsFuture::from(p).await.map_err(|e| words(&e)),
        Err(v) => Ok(v),
    }
}

/// A JavaScript value as JSON data.
fn data(v: &JsValue) -> Value {
    js_sys::JSON::stringify(v)
        .ok()
        .and_then(|s| s.as_string())
        .and_then(|s| serde_json::from_str(&s).ok())
        .unwrap_or(Value::Null)
}

/// The model in the engine, and how fast it ran the warm-up here.
#[derive(Clone, Debug, PartialEq)]
pub struct Loaded {
    /// The listed model's name or the address it came from, or the name of the file picked.
    pub source: String,
    pub picked: bool,
    pub prompt_per_s: f64,
    pub tokens_per_s: f64,
    /// It runs on the GPU, where a seed may not repeat a run exactly.
    pub gpu: bool,
}

/// The engine as the app sees it (one per page: one engine answers one call at a time). Its
/// settings panel lives in the engine's module; the app hears from it what is loaded.
#[derive(Clone, Copy)]
pub struct InTab {
    pub loaded: RwSignal<Option<Loaded>>,
    /// The calls in flight, on the engine or the built-in model, which Stop aborts.
    calls: StoredValue<Vec<web_sys::AbortController>, LocalStorage>,
}

impl Default for InTab {
    fn default() -> Self {
        Self::new()
    }
}

impl InTab {
    pub fn new() -> Self {
        Self { loaded: RwSignal::new(None), calls: StoredValue::new_local(Vec::new()) }
    }

    /// Asks the module at `module` (see [`ask`]) with an abort that Stop reaches while the call
    /// is in flight.
    pub(super) async fn ask(
        &self,
        module: &'static str,
        request: &ChatRequest,
        seed: u32,
        sampling: Option<crate::model::Sampling>,
        on_text: TextSink,
    ) -> Result<ChatResponse, ModelError> {
        let abort = web_sys::AbortController::new().map_err(|e| ModelError::Unavailable(words(&e)))?;
        self.calls.update_value(|c| c.push(abort.clone()));
        let asked = ask(module, request, seed, sampling, Some(on_text), &abort).await;
        self.calls.update_value(|c| c.retain(|a| a != &abort));
        asked
    }

    /// Stops every call in flight.
    pub fn cancel_calls(&self) {
        self.calls.update_value(|calls| calls.drain(..).for_each(|c| c.abort()));
    }

    /// The model a run of a scenario naming `name` asks, if the engine holds it.
    pub fn model(&self, scenario: &Scenario, on_text: TextSink) -> Result<Rc<dyn ChatModel>, String> {
        let name = &scenario.model.name;
        let wanted = crate::intab::source(name)
            .ok_or_else(|| format!("\"{name}\" is not a model the tab can fetch"))?;
        match self.loaded.get_untracked() {
            Some(l) if l.picked || l.source == crate::intab::label(&wanted) => Ok(Rc::new(InTabModel {
                seed: scenario.seed,
                calls: Cell::new(0),
                on_text,
                state: *self,
                writing: scenario.model.writing.clone(),
                cast: scenario.agents.iter().map(|a| a.name.clone()).collect(),
            })),
            Some(l) => Err(format!(
                "the scenario names {} but the tab holds {}: load the scenario's model in Model settings",
                crate::intab::label(&wanted),
                l.source
            )),
            None => Err("the in-tab model is not loaded yet: download or load it in Model settings".into()),
        }
    }
}

/// The grammar and token budget of `request`'s call on the in-tab engine, as JSON (the core's
/// `intab::shape`): a split function of the page's `intab` chunk (what Leptos's `#[lazy]`
/// expands to, with `fallible`), so the grammar builder is fetched only with the engine.
#[leptos::wasm_split::wasm_split(intab, wasm_split_path = ::leptos::wasm_split, fallible)]
fn engine_shape(request: ChatRequest) -> Result<String, super::Unfetched> {
    Ok(crate::intab::shape_json(&request))
}

/// The in-tab model's settings ([`super::intab_panel::InTabPanel`]) under `owner`: in the `intab`
/// chunk, fetched (and cached) with the engine, which a first visit does not precache either.
#[leptos::wasm_split::wasm_split(intab, wasm_split_path = ::leptos::wasm_split, fallible)]
fn intab_settings(owner: Owner) -> Result<AnyView, super::Unfetched> {
    Ok(owner.with(|| view! { <super::intab_panel::InTabPanel /> }.into_any()))
}

/// What the page says when the `intab` chunk did not arrive for the settings.
const NO_SETTINGS_CHUNK: &str =
    "the in-tab model's settings could not be fetched: check the connection, then reload the page and try again";

/// What the page says when the `intab` chunk did not arrive.
const NO_INTAB_CHUNK: &str =
    "the in-tab engine could not be fetched (its grammar builder did not arrive); reload the page and try again";

/// The model settings of a scenario on the in-tab model (the app's [`super::intab_panel`], in
/// the `intab` chunk) or the browser's own ([`super::builtin::Settings`]).
#[component]
pub fn EngineSettings(module: &'static str) -> impl IntoView {
    if module == ENGINE_MODULE {
        let slot: super::Slot = RwSignal::new_local(None);
        let failed = RwSignal::new(None::<&'static str>);
        if let Some(owner) = Owner::current() {
            leptos::task::spawn_local(async move {
                match intab_settings(owner).await {
                    Ok(panel) => drop(slot.try_set(Some(panel))),
                    Err(_) => drop(failed.try_set(Some(NO_SETTINGS_CHUNK))),
                }
            });
        }
        return view! {
            {super::place(slot)}
            {move || failed.get().map(|e| view! { <p class="notice error" role="alert" data-testid="intab-failed">{e}</p> })}
        }
        .into_any();
    }
    view! {
        <super::builtin::Settings />
        <crate::ui::form::FieldMessage field="model.name" />
    }
    .into_any()
}

/// Answers a run's calls on the engine, one at a time (the engine queues them).
struct InTabModel {
    seed: u64,
    calls: Cell<u64>,
    on_text: TextSink,
    state: InTab,
    writing: crate::intab::Writing,
    /// The agents' names, whose lines a speech must not go on to write.
    cast: Vec<String>,
}

impl ChatModel for InTabModel {
    fn complete<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, ModelError>> {
        // Numbered in the order the engine asks, which the run fixes: the same run draws the
        // same seeds.
        let n = self.calls.get();
        self.calls.set(n + 1);
        Box::pin(async move {
            let sampling = self.writing.sampling(request, &self.cast);
            self.state
                .ask(ENGINE_MODULE, request, call_seed(self.seed, n), sampling, self.on_text.clone())
                .await
        })
    }
}

/// The engine's seed for call `n` of a run seeded `seed`.
fn call_seed(seed: u64, n: u64) -> u32 {
    (seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(n) >> 33) as u32
}

/// Asks the engine `request` with `seed` and `sampling`, streaming its text to `on_text`
/// (when given) and stopped by `abort`.
async fn ask(
    module: &'static str,
    request: &ChatRequest,
    seed: u32,
    sampling: Option<crate::model::Sampling>,
    on_text: Option<TextSink>,
    abort: &web_sys::AbortController,
) -> Result<ChatResponse, ModelError> {
    let shape = match module {
        ENGINE_MODULE => Some(
            engine_shape(request.clone())
                .await
                .map_err(|_| ModelError::Unavailable(NO_INTAB_CHUNK.into()))?,
        ),
        _ => None,
    };
    let body = crate::intab::call_body(request, seed, sampling.as_ref(), shape.as_deref());
    let agent = request.agent.clone();
    let streamed = Closure::<dyn Fn(JsValue)>::new(move |text: JsValue| {
        if let (Some(text), Some(on_text)) = (text.as_string(), &on_text) {
            on_text(&agent, &text);
        }
    });
    let result =
        call_in(module, "complete", &[&body.into(), streamed.as_ref(), &abort.signal().into()]).await;
    drop(streamed);
    let out = match result {
        Ok(v) => data(&v),
        Err(e) if e == "cancelled" => return Err(ModelError::Cancelled),
        Err(e) => return Err(ModelError::Unavailable(e)),
    };
    let answer = EngineAnswer::read(out).map_err(ModelError::Unavailable)?;
    Ok(answer.into_response(request, sampling))
}

/// The model in the tab as a judge: whatever the tab holds, asked outside any run (by the tools
/// module, which shares the page's engine), its calls seeded from `seed` in the order asked.
pub struct EngineJudge {
    seed: u64,
    calls: Cell<u64>,
    writing: crate::intab::Writing,
}

impl EngineJudge {
    pub fn new(seed: u64, writing: crate::intab::Writing) -> Self {
        EngineJudge { seed, calls: Cell::new(0), writing }
    }
}

impl ChatModel for EngineJudge {
    fn complete<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, ModelError>> {
        let n = self.calls.get();
        self.calls.set(n + 1);
        Box::pin(async move {
            let abort = web_sys::AbortController::new().map_err(|e| ModelError::Unavailable(words(&e)))?;
            let sampling = self.writing.sampling(request, &[]);
            ask(ENGINE_MODULE, request, call_seed(self.seed, n), sampling, None, &abort).await.map_err(|e| {
                match e {
                    ModelError::Unavailable(why) => ModelError::Unavailable(format!(
                        "{why}: the judge is the model in the tab, so load it in Model settings first"
                    )),
                    e => e,
                }
            })
        })
    }
}
