//! Keeps the scenario being edited in the browser's local storage, so a reload or a closed tab
//! loses nothing. Saved data that cannot be read is kept aside, never overwritten with defaults;
//! when storage is full or disabled the app says so and works in memory.

use leptos::prelude::*;

use crate::scenario::Scenario;

const KEY: &str = "agora.scenario";
const ASIDE_KEY: &str = "agora.scenario.unreadable";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

/// The saved scenario, if any, and a message for the user when something was wrong.
pub fn restore() -> (Option<Scenario>, Option<String>) {
    let Some(store) = storage() else {
        return (
            None,
            Some("This browser does not allow saving here: your work is kept in memory only.".into()),
        );
    };
    match store.get_item(KEY) {
        Ok(Some(text)) => match Scenario::parse(&text) {
            Ok(scenario) => (Some(scenario), None),
            Err(e) => {
                let kept = store.set_item(ASIDE_KEY, &text).is_ok();
                let where_ = if kept {
                    format!("it is kept aside in local storage under \"{ASIDE_KEY}\"")
                } else {
                    "it could not be kept aside".to_string()
                };
                (None, Some(format!("Your saved scenario could not be read ({e}); {where_}.")))
            }
        },
        Ok(None) => (None, None),
        Err(_) => (None, Some("Saved data could not be read: your work is kept in memory only.".into())),
    }
}

/// Saves `scenario` whenever it changes; `notice` tells the user if saving stops working.
pub fn keep_saved(scenario: RwSignal<Scenario>, notice: RwSignal<Option<String>>) {
    Effect::new(move |_| {
        let text = scenario.with(|s| serde_json::to_string(s).unwrap_or_default());
        let saved = storage().is_some_and(|store| store.set_item(KEY, &text).is_ok());
        if !saved && notice.get_untracked().is_none() {
            notice.set(Some("Your scenario could not be saved in this browser (storage full or disabled): it is kept in memory only.".into()));
        }
    });
}
