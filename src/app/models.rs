//! Model settings: the offline demo model or a real provider (preset, base URL, model name,
//! streaming, calls in flight, retries, prices) and the user's key.
//!
//! The key lives here only: in memory by default, in local storage when the user ticks
//! "remember on this device", gone on "forget". It is bound to the origin it was entered for;
//! sending it anywhere else (say, to an address a shared link put in the scenario) needs the
//! user's say-so first. It is never part of a scenario, a link, an export or the event log.

use super::storage::storage;
use leptos::prelude::*;

use super::Controller;
use crate::app::intab::EngineSettings;
use crate::i18n::{say, t, tf};
use crate::provider::{preset, ProviderPreset, PROVIDERS};
use crate::ui::form::{number_field, EditorState, FieldMessage};

const KEY_STORAGE: &str = "agora.key";

/// The user's key and where it may be sent.
#[derive(Clone, Copy)]
pub struct KeyStore {
    pub key: RwSignal<String>,
    /// The origin (scheme, host and port) the key was entered or confirmed for.
    pub origin: RwSignal<String>,
    pub remember: RwSignal<bool>,
}

/// `https://host:port` of a URL, lower-cased; empty when it has none.
pub fn origin_of(url: &str) -> String {
    let url = url.trim();
    let Some((scheme, rest)) = url.split_once("://") else { return String::new() };
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    format!("{}://{}", scheme.to_ascii_lowercase(), host.to_ascii_lowercase())
}

impl KeyStore {
    /// The key remembered on this device, if any.
    pub fn load() -> Self {
        let saved = storage()
            .and_then(|s| s.get_item(KEY_STORAGE).ok().flatten())
            .and_then(|t| crate::json::read::<(String, String)>(&t).ok());
        let remember = saved.is_some();
        let (key, origin) = saved.unwrap_or_default();
        Self { key: RwSignal::new(key), origin: RwSignal::new(origin), remember: RwSignal::new(remember) }
    }

    fn persist(&self) {
        let Some(store) = storage() else { return };
        if self.remember.get_untracked() && !self.key.get_untracked().is_empty() {
            let saved = (self.key.get_untracked(), self.origin.get_untracked());
            let _ = store.set_item(KEY_STORAGE, &serde_json::to_string(&saved).unwrap_or_default());
        } else {
            let _ = store.remove_item(KEY_STORAGE);
        }
    }

    /// Every key the app holds: the one in memory and the one remembered on this device (they
    /// differ while a new key is being typed over a remembered one). Provider output is
    /// scrubbed of all of them.
    pub fn all_keys(&self) -> Vec<String> {
        let remembered = storage()
            .and_then(|s| s.get_item(KEY_STORAGE).ok().flatten())
            .and_then(|t| crate::json::read::<(String, String)>(&t).ok())
            .map(|(key, _)| key);
        std::iter::once(self.key.get_untracked()).chain(remembered).collect()
    }

    pub fn set_key(&self, key: String, origin: String) {
        self.key.set(key);
        self.origin.set(origin);
        self.persist();
    }

    pub fn forget(&self) {
        self.key.set(String::new());
        self.origin.set(String::new());
        self.remember.set(false);
        self.persist();
    }

    /// The key for a call to `base_url`: `Ok(None)` without a key; an error when the user did not
    /// agree to send it to a new origin.
    pub fn key_for(&self, base_url: &str) -> Result<Option<String>, String> {
        let key = self.key.get_untracked();
        if key.trim().is_empty() {
            return Ok(None);
        }
        let target = origin_of(base_url);
        let bound = self.origin.get_untracked();
        if !bound.is_empty() && bound != target {
            let question = tf(say::KeyOtherOrigin, &[("target", &target), ("bound", &bound)]);
            let yes = web_sys::window().and_then(|w| w.confirm_with_message(&question).ok()).unwrap_or(false);
            if !yes {
                return Err(tf(say::KeyNotSent, &[("target", &target), ("bound", &bound)]));
            }
        }
        if bound != target {
            self.origin.set(target);
            self.persist();
        }
        Ok(Some(key))
    }
}

/// What a preset's provider asks of a web page (CORS, headers), in the page's language.
fn preset_note(p: &ProviderPreset) -> &'static str {
    match p.id {
        "anthropic" => t(say::NoteAnthropic),
        "gemini" => t(say::NoteGemini),
        "qwen" | "qwen-cn" => t(say::NoteQwen),
        "moonshot" | "moonshot-cn" => t(say::NoteKimi),
        "zai" | "zhipu" => t(say::NoteGlm),
        "siliconflow" | "siliconflow-cn" => t(say::NoteSiliconFlow),
        "ollama" => t(say::NoteOllama),
        "lmstudio" => t(say::NoteLmStudio),
        "custom" => t(say::NoteCustom),
        _ => p.browser_note,
    }
}

/// The model part of the editor.
/// The id of the provider's list, for a control elsewhere that leads to it.
pub const PROVIDER_LIST_ID: &str = "model-provider";

/// Makes `id` the scenario's provider, with a model name that fits it.
pub fn pick_provider(s: &mut crate::scenario::Scenario, id: &str) {
    // A provider's model name means nothing to the tab (and back): start from its default.
    if (id == crate::intab::PROVIDER) != s.model.is_in_tab() {
        s.model.name.clear();
    }
    // No name yet, or the last provider's usual one: this provider's usual cheapest.
    let usual = crate::catalog::usual_models(&s.model.provider);
    if s.model.name.is_empty() || usual.contains(&s.model.name.as_str()) {
        s.model.name = crate::catalog::usual_models(id).first().map(|m| m.to_string()).unwrap_or_default();
    }
    s.model.provider = id.to_string();
    s.model.base_url.clear();
}

#[component]
pub fn ModelSettings() -> impl IntoView {
    let editor = expect_context::<EditorState>();
    let keys = expect_context::<KeyStore>();
    let s = editor.scenario;
    let provider = move || s.with(|s| s.model.provider.clone());
    let is_demo = move || s.with(|s| s.model.is_demo());
    // The module that draws the settings of a model that runs in the page, if the scenario's does.
    let engine = Memo::new(move |_| {
        s.with(|s| match () {
            _ if s.model.is_in_tab() => Some(crate::app::intab::ENGINE_MODULE),
            _ if s.model.is_builtin() => Some(crate::app::intab::BUILTIN_MODULE),
            _ => None,
        })
    });
    let note = move || preset(&provider()).map(preset_note).unwrap_or_default();
    let placeholder = move || preset(&provider()).map(|p| p.base_url).unwrap_or_default();
    let needs_key = move || preset(&provider()).is_some_and(|p| p.needs_key);
    let on_provider = move |ev: leptos::ev::Event| {
        let id = event_target_value(&ev);
        s.update(|s| pick_provider(s, &id));
    };
    // What looks wrong with the key, said as it is typed (before a call fails on it).
    let typed = RwSignal::new(String::new());
    let key_note = move || crate::catalog::key_problem(&provider(), &typed.get());
    let on_key = move |ev: leptos::ev::Event| {
        let key = event_target_value(&ev).trim().to_string();
        // Bound to the address of the moment it is typed; a later change event with the same key
        // (the field losing focus) must not move it to whatever address is set by then.
        if key != keys.key.get_untracked() {
            let origin = origin_of(&s.with_untracked(|s| s.model.effective_base_url()));
            keys.set_key(key, origin);
        }
    };
    view! {
        <fieldset class="model-settings" data-testid="model-settings">
            <legend>{t(say::MdModel)}</legend>
            <label class="field">
                <span>{t(say::MdProvider)}</span>
                <select id=PROVIDER_LIST_ID data-testid="field-model.provider" on:change=on_provider>
                    <option value="demo" selected=is_demo>
                        {t(say::MdDemo)}
                    </option>
                    {[
                        (crate::intab::PROVIDER, t(say::MdInTab)),
                        (crate::catalog::BUILTIN, t(say::MdBuiltin)),
                    ]
                        .into_iter()
                        .chain(PROVIDERS.iter().map(|p| (p.id, p.words())))
                        .map(|(id, label)| {
                            view! {
                                <option value=id selected=move || provider() == id>
                                    {label}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </label>
            // Memoized: the engine's panel mounts when the provider becomes the tab, not on every edit.
            {move || engine.get().map(|module| view! { <EngineSettings module /> })}
            <Show
                when=move || s.with(|s| s.model.is_hosted())
                fallback=move || {
                    is_demo().then(|| view! {
                        <p class="muted">
                            {t(say::MdDemoHint)}
                        </p>
                        {number_field(
                            t(say::MdMalformed),
                            "model.demo.malformed_rate",
                            |s| s.model.demo.malformed_rate,
                            |s, v| s.model.demo.malformed_rate = v,
                        )}
                    })
                }
            >
                <Show when=move || !note().is_empty()>
                    <p class="notice browser-note" data-testid="browser-note">
                        {note}
                    </p>
                </Show>
                {move || crate::catalog::key_page(&provider()).map(|page| {
                    // Shown as an address a teacher can read aloud or type on another device.
                    let shown = page.trim_start_matches("https://").trim_end_matches('/');
                    view! {
                        <p class="muted" data-testid="key-page">
                            {t(say::MdKeyPage)}
                            <a href=page target="_blank" rel="noopener">{shown.to_string()}</a>
                            {t(say::MdKeyPageEnd)}
                        </p>
                    }
                })}
                <label class="field">
                    <span>{t(say::MdBaseUrl)}</span>
                    <input
                        data-testid="field-model.base_url"
                        type="url"
                        placeholder=placeholder
                        prop:value=move || s.with(|s| s.model.base_url.clone())
                        on:input=move |ev| s.update(|s| s.model.base_url = event_target_value(&ev).trim().to_string())
                    />
                </label>
                <label class="field">
                    <span>{t(say::MdModelName)}</span>
                    <input
                        data-testid="field-model.name"
                        type="text"
                        list="model-list"
                        prop:value=move || s.with(|s| s.model.name.clone())
                        aria-invalid=move || editor.error_for("model.name").is_some().to_string()
                        on:input=move |ev| s.update(|s| s.model.name = event_target_value(&ev).trim().to_string())
                    />
                    <FieldMessage field="model.name" />
                </label>
                <ConnectionCheck />
                <label class="field">
                    <span>{move || if needs_key() { t(say::MdKey) } else { t(say::MdKeyOptional) }}</span>
                    <input
                        data-testid="api-key"
                        type="password"
                        autocomplete="off"
                        spellcheck="false"
                        prop:value=move || keys.key.get()
                        aria-invalid=move || key_note().is_some().to_string()
                        on:input=move |ev| typed.set(event_target_value(&ev))
                        on:change=on_key
                    />
                    {move || key_note().map(|n| view! { <span class="field-error" data-testid="key-problem" role="alert">{n}</span> })}
                </label>
                <div class="row key-actions">
                    <label class="check">
                        <input
                            type="checkbox"
                            data-testid="remember-key"
                            prop:checked=move || keys.remember.get()
                            on:change=move |ev| {
                                keys.remember.set(event_target_checked(&ev));
                                keys.persist();
                            }
                        />
                        {t(say::MdRemember)}
                    </label>
                    <button data-testid="forget-key" on:click=move |_| { keys.forget(); typed.set(String::new()); } disabled=move || keys.key.get().is_empty()>
                        {t(say::MdForget)}
                    </button>
                </div>
                <p class="muted">
                    {move || {
                        if keys.remember.get() {
                            t(say::MdKeyKept)
                        } else {
                            t(say::MdKeyMemory)
                        }
                    }}
                    {t(say::MdKeyNever)}
                </p>
                <div class="row">
                    {number_field(
                        t(say::MdConcurrency),
                        "model.network.concurrency",
                        |s| s.model.network.concurrency,
                        |s, v| s.model.network.concurrency = v,
                    )}
                    {number_field(
                        t(say::MdRetries),
                        "model.network.max_retries",
                        |s| s.model.network.max_retries,
                        |s, v| s.model.network.max_retries = v,
                    )}
                    {number_field(
                        t(say::MdFirstByte),
                        "model.network.first_byte_timeout_ms",
                        |s| s.model.network.first_byte_timeout_ms,
                        |s, v| s.model.network.first_byte_timeout_ms = v,
                    )}
                    {number_field(
                        t(say::MdSilence),
                        "model.network.idle_timeout_ms",
                        |s| s.model.network.idle_timeout_ms,
                        |s, v| s.model.network.idle_timeout_ms = v,
                    )}
                </div>
                <div class="row">
                    {number_field(
                        t(say::MdPriceIn),
                        "model.price.input_per_million",
                        |s| s.model.price.map_or(0.0, |p| p.input_per_million),
                        |s, v| s.model.price.get_or_insert_with(Default::default).input_per_million = v,
                    )}
                    {number_field(
                        t(say::MdPriceOut),
                        "model.price.output_per_million",
                        |s| s.model.price.map_or(0.0, |p| p.output_per_million),
                        |s, v| s.model.price.get_or_insert_with(Default::default).output_per_million = v,
                    )}
                </div>
                <label class="check">
                    <input
                        type="checkbox"
                        data-testid="field-model.network.stream"
                        prop:checked=move || s.with(|s| s.model.network.stream)
                        on:change=move |ev| s.update(|s| s.model.network.stream = event_target_checked(&ev))
                    />
                    {t(say::MdStream)}
                </label>
            </Show>
        </fieldset>
    }
}

/// "Check connection": asks the provider for its models, fills the model pickers (the scenario's
/// model and each agent's share one list) and says what it found or what is wrong.
#[component]
fn ConnectionCheck() -> impl IntoView {
    let editor = expect_context::<EditorState>();
    let controller = expect_context::<Controller>();
    let models = RwSignal::new(Vec::<String>::new());
    // (whether it connected, what to tell the user)
    let report = RwSignal::new((true, String::new()));
    let checking = RwSignal::new(false);
    let check = move |_| {
        checking.set(true);
        report.set((true, t(say::MdAsking).into()));
        let scenario = editor.scenario.get_untracked();
        leptos::task::spawn_local(async move {
            match controller.check_connection(scenario).await {
                Ok((names, text)) => {
                    models.set(names);
                    report.set((true, text));
                }
                Err(e) => report.set((false, e)),
            }
            checking.set(false);
        });
    };
    view! {
        <div class="row connection">
            <button data-testid="check-connection" on:click=check disabled=move || checking.get()>
                {t(say::MdCheck)}
            </button>
            {move || {
                let (ok, text) = report.get();
                (!text.is_empty()).then(|| view! {
                    <p class="notice" class:error=!ok data-testid="connection-report" role="status">{text}</p>
                })
            }}
            // The provider's own list once checked; until then the models it is usually asked for.
            <datalist id="model-list">
                {move || {
                    let listed = models.get();
                    let names = if listed.is_empty() {
                        let provider = editor.scenario.with(|s| s.model.provider.clone());
                        crate::catalog::usual_models(&provider).iter().map(|m| m.to_string()).collect()
                    } else {
                        listed
                    };
                    names.into_iter().map(|m| view! { <option value=m></option> }).collect_view()
                }}
            </datalist>
        </div>
    }
}

/// The spending cap, beside the run controls rather than in the editor: it stays editable while a
/// run is paused, since raising it is how a capped run goes on (read at Resume or Step).
#[component]
pub fn SpendingCapFields() -> impl IntoView {
    let editor = expect_context::<EditorState>();
    // Runs inside the tab cost nothing.
    let real = move || editor.scenario.with(|s| s.model.is_hosted());
    move || {
        real().then(|| {
            view! {
                <div class="row spending-cap" data-testid="spending-cap">
                    {number_field(
                        t(say::MdCapTokens),
                        "model.spending_cap.tokens",
                        |s| s.model.spending_cap.tokens,
                        |s, v| s.model.spending_cap.tokens = v,
                    )}
                    {number_field(
                        t(say::MdCapMoney),
                        "model.spending_cap.cost",
                        |s| s.model.spending_cap.cost,
                        |s, v| s.model.spending_cap.cost = v,
                    )}
                </div>
            }
        })
    }
}
