//! What the methods' decision panels and settings share, below both the app and the methods'
//! folders: reading and changing a method's settings, the agents' colours, the reasoning behind a
//! decision one click away, and a choice of agent.

use leptos::prelude::*;

use super::form::{EditorState, FieldMessage};
use crate::scenario::Scenario;

/// Reads a field of the scenario's method settings, or `$default` under another method.
macro_rules! with_method {
    ($s:expr, $variant:ident, |$m:ident| $body:expr, $default:expr) => {
        if let $crate::scenario::Method::$variant($m) = &$s.method {
            $body
        } else {
            $default
        }
    };
}

/// Changes a field of the scenario's method settings, if the scenario uses that method.
macro_rules! update_method {
    ($s:expr, $variant:ident, |$m:ident| $body:expr) => {
        if let $crate::scenario::Method::$variant($m) = &mut $s.method {
            $body;
        }
    };
}

pub(crate) use {update_method, with_method};

const PALETTE: [&str; 8] =
    ["#0b5cad", "#b3261e", "#2e7d32", "#8e24aa", "#ef6c00", "#00838f", "#5d4037", "#455a64"];

pub(crate) fn color(i: usize) -> &'static str {
    PALETTE[i % PALETTE.len()]
}

/// The model's reasoning behind a decision, one click away; nothing when it did not reason.
pub(crate) fn why(reasoning: &str) -> Option<impl IntoView + use<>> {
    (!reasoning.is_empty()).then(|| {
        let reasoning = reasoning.to_string();
        view! {
            <details class="why" data-testid="why">
                <summary>{crate::i18n::t(crate::i18n::say::Why)}</summary>
                <p class="reasoning">{reasoning}</p>
            </details>
        }
    })
}

/// A reply as the model wrote it, one click away.
pub(crate) fn raw_reply(raw: &str) -> impl IntoView + use<> {
    let raw = raw.to_string();
    view! {
        <details class="raw">
            <summary>{crate::i18n::t(crate::i18n::say::Reply)}</summary>
            <code>{raw}</code>
        </details>
    }
}

pub(crate) fn agent_select(
    label: &'static str,
    field: &'static str,
    get: impl Fn(&Scenario) -> String + Send + Sync + Copy + 'static,
    set: impl Fn(&mut Scenario, String) + Send + Sync + Copy + 'static,
) -> impl IntoView {
    let editor = expect_context::<EditorState>();
    let s = editor.scenario;
    view! {
        <label class="field">
            <span>{label}</span>
            <select data-testid=format!("field-{field}") on:change=move |ev| s.update(|s| set(s, event_target_value(&ev)))>
                <option value="" selected=move || s.with(|s| get(s).is_empty())>
                    {crate::i18n::t(crate::i18n::say::FirstAgent)}
                </option>
                {move || {
                    s.with(|sc| {
                        sc.agents
                            .iter()
                            .map(|a| {
                                let name = a.name.clone();
                                let chosen = get(sc) == name;
                                view! {
                                    <option value=name.clone() selected=chosen>
                                        {name.clone()}
                                    </option>
                                }
                            })
                            .collect_view()
                    })
                }}
            </select>
            <FieldMessage field=field />
        </label>
    }
}
