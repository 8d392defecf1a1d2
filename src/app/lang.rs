//! The page's language on the page: which one a visit speaks (kept on the device, else the
//! browser's), its words fetched before anything is drawn, `<html lang>`, and the header's switch.
//! The words themselves are the core's ([`crate::i18n`]); Chinese is a chunk of its own.

use leptos::prelude::*;

use crate::i18n::{say, t, Lang, Table};

/// Where the device keeps the language a visitor chose.
const KEPT: &str = "agora.lang";

/// The language the page speaks this visit, as boot/start.js chose it before the wasm arrived
/// (the one kept on this device, else the first of the browser's languages the page speaks) and
/// set as `<html lang>`: one choice, made where the static shell can follow it.
pub fn of_page() -> Lang {
    let root = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element());
    root.and_then(|r| r.get_attribute("lang")).as_deref().and_then(Lang::from_code).unwrap_or(Lang::En)
}

/// The language a student's phone speaks: the one chosen on this device, else the first of the
/// browser's languages the page speaks (its start script chooses none).
pub fn chosen() -> Lang {
    let kept = super::storage::storage().and_then(|s| s.get_item(KEPT).ok().flatten());
    if let Some(lang) = kept.as_deref().and_then(Lang::from_code) {
        return lang;
    }
    let tags: Vec<String> = web_sys::window()
        .map(|w| w.navigator().languages().iter().filter_map(|v| v.as_string()).collect())
        .unwrap_or_default();
    Lang::from_browser(&tags)
}

/// The Chinese table's chunk.
#[leptos::wasm_split::wasm_split(zh, wasm_split_path = ::leptos::wasm_split, fallible)]
fn chinese() -> Result<Table, super::Unfetched> {
    Ok(crate::i18n::zh::TABLE)
}

/// Speaks `lang` from now on: its words fetched (English has its own), and the page's `lang`.
/// A table that cannot be fetched leaves the page in English, which it then says it is in.
pub async fn install(lang: Lang) {
    let table = match lang {
        Lang::En => None,
        Lang::ZhHans => chinese().await.ok(),
    };
    crate::i18n::speak(table);
    if let Some(document) = web_sys::window().and_then(|w| w.document()) {
        if let Some(root) = document.document_element() {
            let _ = root.set_attribute("lang", crate::i18n::lang().code());
        }
        // The browser's tab and its history name the page in its language.
        document.set_title(crate::i18n::t(crate::i18n::say::PageTitle));
    }
}

/// The header's language switch. A choice is kept on the device and the page loads again in it
/// (the workspace keeps the run on screen as it does for any reload).
#[component]
pub fn LanguageSwitch() -> impl IntoView {
    let now = crate::i18n::lang();
    let choose = move |ev: leptos::ev::Event| {
        let Some(lang) = Lang::from_code(&event_target_value(&ev)) else { return };
        if lang == now {
            return;
        }
        if let Some(s) = super::storage::storage() {
            let _ = s.set_item(KEPT, lang.code());
        }
        if let Some(w) = web_sys::window() {
            let _ = w.location().reload();
        }
    };
    view! {
        <label class="language" title=t(say::LanguageSwitchTitle)>
            <span class="visually-hidden">{t(say::LanguageSwitch)}</span>
            <select data-testid="language" on:change=choose>
                {Lang::ALL
                    .into_iter()
                    .map(|l| view! { <option value=l.code() lang=l.code() selected=l == now>{l.name()}</option> })
                    .collect_view()}
            </select>
        </label>
    }
}
