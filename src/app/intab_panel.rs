//! The in-tab model's settings in the editor: which model, its download (asked first, with
//! progress and Cancel), what is kept in this browser, and where the engine runs. What each state
//! offers is the core's ([`crate::intab::panel`]); the engine and the kept files stay in their
//! JavaScript module (`public/intab/`), called here by its exports. The panel's state lives as
//! long as the page, so a download goes on (and shows) when the editor is drawn again.

use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

use super::intab::{call_in, Loaded, ENGINE_MODULE};
use crate::intab::panel::{engine_line, megabytes, offer, offers_reload, size, EngineLoad, Offer, Stage};
use crate::intab::{label, source, CONTEXT_TOKENS, MODELS};

/// What this browser offers the engine (the module's `environment()`).
#[derive(Clone, Debug, Default, PartialEq)]
struct Environment {
    supported: bool,
    missing: String,
    storage: bool,
    isolated: bool,
    threads: u32,
}

/// The panel's state, one for the page.
#[derive(Clone, Copy)]
struct PanelState {
    stage: RwSignal<Stage>,
    /// Bytes downloaded, and of how many (0: unknown).
    progress: RwSignal<(f64, f64)>,
    error: RwSignal<String>,
    /// The bytes of the scenario's model kept in this browser, and of every model kept.
    cached: RwSignal<f64>,
    used: RwSignal<f64>,
    loaded: RwSignal<Option<EngineLoad>>,
    env: RwSignal<Option<Environment>>,
    /// What `boot/offline.js` saw of the page's isolation (it may learn it after the panel shows).
    offline_why: RwSignal<String>,
    device: RwSignal<Device>,
    abort: StoredValue<Option<web_sys::AbortController>, LocalStorage>,
}

/// Where the engine runs: the faster of GPU and CPU, or the CPU only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Device {
    Auto,
    Cpu,
}

const DEVICE_KEY: &str = "agora.intab.device";

impl Device {
    fn kept() -> Device {
        let kept = super::storage::storage().and_then(|s| s.get_item(DEVICE_KEY).ok().flatten());
        if kept.as_deref() == Some("cpu") {
            Device::Cpu
        } else {
            Device::Auto
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Device::Auto => "auto",
            Device::Cpu => "cpu",
        }
    }
}

impl PanelState {
    fn new() -> Self {
        Self {
            stage: RwSignal::new(Stage::Idle),
            progress: RwSignal::new((0.0, 0.0)),
            error: RwSignal::new(String::new()),
            cached: RwSignal::new(0.0),
            used: RwSignal::new(0.0),
            loaded: RwSignal::new(None),
            env: RwSignal::new(None),
            offline_why: RwSignal::new(offline_why()),
            device: RwSignal::new(Device::kept()),
            abort: StoredValue::new_local(None),
        }
    }
}

impl PanelState {
    /// The page's one panel state, made the first time the settings show, under an owner of its
    /// own (so a download goes on, and shows, when the editor is drawn again), in this chunk.
    fn page() -> PanelState {
        thread_local! {
            static PAGE: std::cell::OnceCell<(Owner, PanelState)> = const { std::cell::OnceCell::new() };
        }
        PAGE.with(|p| {
            p.get_or_init(|| {
                // A new root becomes the current owner: the component's is put back after it.
                let parent = Owner::current();
                let owner = Owner::new_root(None);
                let state = owner.with(PanelState::new);
                if let Some(parent) = parent {
                    parent.set();
                }
                (owner, state)
            })
            .1
        })
    }
}

/// `window.agoraOffline.why`, set by `boot/offline.js`.
fn offline_why() -> String {
    web_sys::window()
        .and_then(|w| js_sys::Reflect::get(&w, &"agoraOffline".into()).ok())
        .filter(|o| o.is_object())
        .and_then(|o| js_sys::Reflect::get(&o, &"why".into()).ok())
        .and_then(|w| w.as_string())
        .unwrap_or_default()
}

/// The field `name` of what the engine's module answered.
fn field(v: &JsValue, name: &str) -> JsValue {
    js_sys::Reflect::get(v, &name.into()).unwrap_or(JsValue::UNDEFINED)
}

fn number(v: &JsValue, name: &str) -> f64 {
    field(v, name).as_f64().unwrap_or(0.0)
}

fn flag(v: &JsValue, name: &str) -> bool {
    field(v, name).as_bool().unwrap_or(false)
}

fn text(v: &JsValue, name: &str) -> String {
    field(v, name).as_string().unwrap_or_default()
}

/// The model the scenario names: its address and label (none: not one the tab can fetch).
fn wanted(name: &str) -> Option<(String, String)> {
    source(name).map(|url| {
        let label = label(&url);
        (url, label)
    })
}

/// Runs one of the panel's steps (all one boxed type, so the page carries one spawn of them).
fn spawn(step: futures::future::LocalBoxFuture<'static, ()>) {
    leptos::task::spawn_local(step);
}

impl PanelState {
    /// Reads again what is kept in this browser.
    async fn refresh(self, url: Option<String>) {
        let kept = call_in(ENGINE_MODULE, "stored", &[]).await.unwrap_or(JsValue::UNDEFINED);
        let used =
            kept.dyn_ref::<js_sys::Array>().map_or(0.0, |all| all.iter().map(|k| number(&k, "bytes")).sum());
        let cached = match url {
            Some(url) => call_in(ENGINE_MODULE, "cached", &[&url.into()]).await.ok().and_then(|v| v.as_f64()),
            None => None,
        };
        self.used.set(used);
        self.cached.set(cached.unwrap_or(0.0));
    }

    /// Loads `source` (an address or a picked file) into the engine, telling the app what it holds.
    async fn load(
        self,
        tab: super::intab::InTab,
        source: JsValue,
        label: String,
        picked: bool,
        url: Option<String>,
    ) {
        self.stage.set(Stage::Loading);
        self.error.set(String::new());
        self.loaded.set(None);
        tab.loaded.set(None);
        let device = JsValue::from(self.device.get_untracked().as_str());
        match call_in(ENGINE_MODULE, "load", &[&source, &CONTEXT_TOKENS.into(), &device]).await {
            Ok(info) => {
                let load = EngineLoad {
                    source: label.clone(),
                    picked,
                    threads: number(&info, "threads") as u32,
                    multithread: flag(&info, "multithread"),
                    repacked: number(&info, "repacked") as u32,
                    gpu: flag(&info, "gpu"),
                    why: text(&info, "why"),
                    prompt_per_s: number(&info, "prompt_per_s"),
                    tokens_per_s: number(&info, "tokens_per_s"),
                };
                super::storage::keep_intab_pace(&label, load.prompt_per_s, load.tokens_per_s);
                tab.loaded.set(Some(Loaded {
                    source: label,
                    picked,
                    prompt_per_s: load.prompt_per_s,
                    tokens_per_s: load.tokens_per_s,
                    gpu: load.gpu,
                }));
                self.loaded.set(Some(load));
                self.stage.set(Stage::Idle);
            }
            Err(e) => {
                self.error.set(e);
                self.stage.set(Stage::Failed);
            }
        }
        if !picked {
            self.refresh(url).await;
        }
    }

    /// Downloads the scenario's model (the person said yes), then loads it.
    async fn download(self, tab: super::intab::InTab, url: String, label: String) {
        let Ok(abort) = web_sys::AbortController::new() else { return };
        self.abort.set_value(Some(abort.clone()));
        self.progress.set((0.0, 0.0));
        self.error.set(String::new());
        self.stage.set(Stage::Downloading);
        let progress = self.progress;
        let on_progress = Closure::<dyn Fn(f64, f64)>::new(move |done: f64, total: f64| {
            progress.try_set((done, total));
        });
        let asked = call_in(
            ENGINE_MODULE,
            "download",
            &[&url.clone().into(), on_progress.as_ref(), &abort.signal().into()],
        )
        .await;
        drop(on_progress);
        self.abort.set_value(None);
        match asked {
            Ok(_) => self.load(tab, url.clone().into(), label, false, Some(url)).await,
            Err(e) => {
                let cancelled = e == "cancelled";
                self.error.set(if cancelled { String::new() } else { e });
                self.stage.set(if cancelled { Stage::Idle } else { Stage::Failed });
                self.refresh(Some(url)).await;
            }
        }
    }

    /// Deletes the kept copy of the scenario's model, unloading it first if the engine holds it.
    async fn forget(self, tab: super::intab::InTab, url: String, label: String) {
        if self.loaded.with_untracked(|l| l.as_ref().is_some_and(|l| !l.picked && l.source == label)) {
            let _ = call_in(ENGINE_MODULE, "unload", &[]).await;
            self.loaded.set(None);
            tab.loaded.set(None);
        }
        if let Err(e) = call_in(ENGINE_MODULE, "remove", &[&url.clone().into()]).await {
            self.error.set(e);
            self.stage.set(Stage::Failed);
        }
        self.refresh(Some(url)).await;
    }
}

/// The in-tab model's settings for the scenario being edited.
#[component]
pub fn InTabPanel() -> impl IntoView {
    let s = expect_context::<crate::ui::form::EditorState>().scenario;
    let tab = expect_context::<crate::app::Controller>().intab;
    let p = PanelState::page();
    let name = Memo::new(move |_| s.with(|s| s.model.name.clone()));
    let model = Memo::new(move |_| wanted(&name.get()));
    let url = move || model.get().map(|(url, _)| url);
    // The engine's module, then what this browser offers and keeps, again for another model.
    let failed = RwSignal::new(String::new());
    Effect::new(move |before: Option<Option<String>>| {
        let now = url();
        if before.as_ref() != Some(&now) {
            if p.stage.get_untracked() == Stage::Failed {
                p.stage.set(Stage::Idle);
            }
            let now = now.clone();
            spawn(Box::pin(async move {
                if p.env.get_untracked().is_none() {
                    match call_in(ENGINE_MODULE, "environment", &[]).await {
                        Ok(env) => {
                            p.env.set(Some(Environment {
                                supported: flag(&env, "supported"),
                                missing: text(&env, "missing"),
                                storage: flag(&env, "storage"),
                                isolated: flag(&env, "isolated"),
                                threads: number(&env, "threads") as u32,
                            }));
                        }
                        Err(e) => return failed.set(e),
                    }
                }
                p.refresh(now).await;
            }));
        }
        now
    });
    // What `boot/offline.js` learns of isolation comes as its worker starts.
    let heard = window_event_listener_untyped("agora-offline", move |_| p.offline_why.set(offline_why()));
    on_cleanup(move || heard.remove());

    let here = move || {
        let label = model.get().map(|(_, l)| l);
        p.loaded.with(|l| l.as_ref().is_some_and(|l| l.picked || Some(&l.source) == label.as_ref()))
    };
    let listed = move || {
        let name = name.get();
        let url = url();
        MODELS.iter().find(|m| Some(m.url) == url.as_deref() && name != m.url).map(|m| m.id)
    };
    let radios = MODELS
        .iter()
        .map(|m| {
            let id = m.id;
            view! {
                <label class="check intab-model">
                    <input type="radio" name="intab-model" data-testid=format!("intab-model-{id}")
                        prop:checked=move || listed() == Some(id)
                        on:change=move |_| s.update(|s| s.model.name = id.to_string()) />
                    <span>
                        <strong>{m.label}</strong>
                        {format!(" · {} MB download · about {} MB of memory · ", m.download_mb, m.memory_mb)}
                        <a href=m.licence_url target="_blank" rel="noopener">{m.licence}</a>
                        <small class="intab-suits">{format!("Suits {}.", m.suits)}</small>
                    </span>
                </label>
            }
        })
        .collect_view();
    let address = view! {
        <label class="field">
            <span>"Or the address of a GGUF file"</span>
            <input type="url" placeholder="https://…/model.gguf" data-testid="field-model.name"
                prop:value=move || if listed().is_some() { String::new() } else { name.get() }
                on:change=move |ev| {
                    let typed = event_target_value(&ev).trim().to_string();
                    s.update(|s| s.model.name = typed);
                } />
        </label>
    };
    let state = move || {
        let (url, label) = model.get().unzip();
        let can = url.is_some() && p.env.with(|e| e.as_ref().is_some_and(|e| e.storage && e.supported));
        let size_of = || {
            MODELS
                .iter()
                .find(|m| Some(m.url) == url.as_deref())
                .map_or("the file".to_string(), |m| format!("{} MB", m.download_mb))
        };
        match offer(p.stage.get(), here(), p.cached.get() > 0.0, can) {
            Offer::Confirm => {
                // An address of its own names its host; a path is on the page's.
                let host = match url.as_deref().and_then(|u| u.split_once("://")) {
                    Some((_, rest)) => rest.split(['/', '?', '#']).next().map(str::to_string),
                    None => web_sys::window().and_then(|w| w.location().host().ok()),
                }
                .filter(|h| !h.is_empty())
                .unwrap_or_else(|| "its server".into());
                let (url, label) = (url.clone().unwrap_or_default(), label.clone().unwrap_or_default());
                view! {
                    <span data-testid="intab-confirm">{format!("Download {} from {host}? It is kept in this browser afterwards.", size_of())}</span>
                    <button data-testid="intab-download-confirm" on:click=move |_| {
                        let (url, label) = (url.clone(), label.clone());
                        spawn(Box::pin(p.download(tab, url, label)));
                    }>"Download"</button>
                    <button data-testid="intab-not-now" on:click=move |_| p.stage.set(Stage::Idle)>"Not now"</button>
                }
                .into_any()
            }
            Offer::Progress => {
                let (done, total) = p.progress.get();
                let said = if total > 0.0 {
                    format!("{} of {}", megabytes(done), megabytes(total))
                } else {
                    megabytes(done)
                };
                view! {
                    <progress data-testid="intab-progress" max=total.max(1.0) value=done></progress>
                    <span>{format!("Downloading: {said}")}</span>
                    <button data-testid="intab-cancel" on:click=move |_| p.abort.with_value(|a| if let Some(a) = a { a.abort() })>"Cancel"</button>
                }
                .into_any()
            }
            Offer::Loading => {
                view! { <span data-testid="intab-loading">"Loading the model into the engine…"</span> }
                    .into_any()
            }
            Offer::Ready => view! { <span data-testid="intab-ready">"Loaded and ready."</span> }.into_any(),
            Offer::Kept => {
                let (url, label) = (url.clone().unwrap_or_default(), label.clone().unwrap_or_default());
                view! {
                    <span>{format!("Kept in this browser ({}).", size(p.cached.get()))}</span>
                    <button data-testid="intab-load" on:click=move |_| {
                        let (url, label) = (url.clone(), label.clone());
                        spawn(Box::pin(p.load(tab, url.clone().into(), label, false, Some(url))));
                    }>"Load"</button>
                }
                .into_any()
            }
            Offer::Download { enabled } => view! {
                <button data-testid="intab-download" disabled=!enabled on:click=move |_| {
                    p.error.set(String::new());
                    p.stage.set(Stage::Asking);
                }>{format!("Download ({})", size_of())}</button>
            }
            .into_any(),
        }
    };
    let pick = move |ev: leptos::ev::Event| {
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else {
            return;
        };
        let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
        let name = file.name();
        spawn(Box::pin(p.load(tab, file.into(), name, true, None)));
    };
    let on_device = move |ev: leptos::ev::Event| {
        let device = if event_target_value(&ev) == "cpu" { Device::Cpu } else { Device::Auto };
        if let Some(store) = super::storage::storage() {
            let _ = store.set_item(DEVICE_KEY, device.as_str());
        }
        p.device.set(device);
        // The choice is made when a model loads: load the one in the engine again.
        if let Some((url, label)) = model.get_untracked() {
            if p.loaded.with_untracked(|l| l.as_ref().is_some_and(|l| !l.picked && l.source == label)) {
                spawn(Box::pin(p.load(tab, url.clone().into(), label, false, Some(url))));
            }
        }
    };
    let engine = move || {
        let (isolated, threads) = p.env.with(|e| e.as_ref().map_or((false, 1), |e| (e.isolated, e.threads)));
        let why = p.offline_why.get();
        p.loaded.with(|l| {
            (engine_line(l.as_ref(), isolated, threads, &why), offers_reload(l.as_ref(), isolated, &why))
        })
    };
    let forget = move |_| {
        if let Some((url, label)) = model.get_untracked() {
            spawn(Box::pin(p.forget(tab, url, label)));
        }
    };
    view! {
        <div class="intab" data-testid="intab-settings">
            <p class="muted">"A small language model runs inside this tab: no key, and nothing you type leaves this computer. It is downloaded once, after you say so, and kept in this browser for next time."</p>
            {move || p.env.with(|e| e.as_ref().filter(|e| !e.supported).map(|e| view! {
                <p class="notice error" data-testid="intab-unsupported">
                    {format!("This browser lacks {}, which the in-tab engine needs. Use a recent Chrome or Edge, or another provider.", e.missing)}
                </p>
            }))}
            <div class="intab-models" role="radiogroup" aria-label="Model">{radios}{address}</div>
            <div class="row intab-actions" role="status" data-testid="intab-state">{state}</div>
            {move || (p.stage.get() == Stage::Failed).then(|| view! {
                <p class="notice error" role="alert" data-testid="intab-error">{p.error.get()}</p>
            })}
            <label class="field">
                <span>"Or open a GGUF file from this computer"</span>
                <input type="file" accept=".gguf" data-testid="intab-file" on:change=pick />
            </label>
            <label class="field">
                <span>"Where the engine runs"</span>
                <select data-testid="intab-device" on:change=on_device>
                    <option value="auto" selected=move || p.device.get() == Device::Auto>"The faster of GPU and CPU, measured when the model loads"</option>
                    <option value="cpu" selected=move || p.device.get() == Device::Cpu>"The CPU only: a seed repeats a run exactly"</option>
                </select>
            </label>
            {move || {
                let (line, reload) = engine();
                view! {
                    <p class="muted" data-testid="intab-engine">{line}</p>
                    {reload.then(|| view! {
                        <p class="row" data-testid="intab-threads">
                            <span>"After a reload the engine runs on several threads, which is faster; the run on screen comes back paused where it was."</span>
                            <button data-testid="intab-reload" on:click=|_| { let _ = web_sys::window().map(|w| w.location().reload()); }>"Reload for threads"</button>
                        </p>
                    })}
                }
            }}
            <div class="row">
                <span class="muted" data-testid="intab-used">{move || format!("Models kept in this browser: {}.", size(p.used.get()))}</span>
                <button data-testid="intab-delete" disabled=move || p.cached.get() <= 0.0 on:click=forget>"Delete the kept copy"</button>
            </div>
        </div>
        <crate::ui::form::FieldMessage field="model.name" />
        {move || {
            let e = failed.get();
            (!e.is_empty()).then(|| view! { <p class="notice error" role="alert" data-testid="intab-failed">{e}</p> })
        }}
    }
}
