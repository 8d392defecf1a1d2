//! Selector: who could be named each turn, who was and how the reply was read; and the
//! selector's settings.

use std::sync::Arc;

use leptos::prelude::*;

use super::why;
use crate::app::form::{number_field, text_field, EditorState};
use crate::app::rows::chunked;
use crate::app::Controller;
use crate::events::SelectorMatch;
use crate::scenario::{Method, PromptRole, SelectorFallback};
use crate::view::SelectorRow;

/// The selector's choices: who could be named, who was, and how the reply was read.
#[component]
fn SelectorPanel() -> impl IntoView {
    let controller = expect_context::<Controller>();
    let count = Memo::new(move |_| controller.view.with(|v| v.selections.len()));
    view! {
        <div class="panel" data-testid="selector-panel">
            <h2>"Selector"</h2>
            <p class="muted">"Each turn a selector call names the next speaker from the candidates."</p>
            <ol class="selections">
                {chunked(
                    count,
                    Arc::new(move |a, b| {
                        controller.view.with(|v| v.selections.iter().skip(a).take(b - a).map(|s| s.turn as u64).collect())
                    }),
                    Arc::new(move |i| {
                        let row = controller.view.with_untracked(|v| v.selections.get(i).cloned())?;
                        Some(view! { <SelectorEntry row=row /> }.into_any())
                    }),
                    true,
                )}
            </ol>
        </div>
    }
}

#[component]
fn SelectorEntry(row: Arc<SelectorRow>) -> impl IntoView {
    let how = match row.matched {
        SelectorMatch::Exact => "named exactly".to_string(),
        SelectorMatch::Loose => "named, case or spacing aside".to_string(),
        SelectorMatch::Mention => "the only name mentioned".to_string(),
        SelectorMatch::OnlyCandidate => "the only candidate: no call".to_string(),
        SelectorMatch::Fallback => format!("fallback: no candidate named in {} attempts", row.attempts),
    };
    let attempts = (row.attempts > 1 && row.matched != SelectorMatch::Fallback)
        .then(|| format!(" · attempt {}", row.attempts));
    let fallback = row.matched == SelectorMatch::Fallback;
    view! {
        <li class="selection" data-testid="selection" data-agent=row.agent.clone() data-fallback=fallback.to_string()>
            <span class="muted">{format!("Turn {} · ", row.turn)}</span>
            <strong>{row.agent.clone()}</strong>
            <span class=if fallback { "fallback" } else { "muted" }>{format!(" · {how}")}{attempts}</span>
            <div class="muted candidates" data-testid="selection-candidates">
                {format!("Candidates: {}", row.candidates.join(", "))}
            </div>
            {(!row.raw.is_empty())
                .then(|| {
                    view! {
                        <details class="raw">
                            <summary>"reply"</summary>
                            <code>{row.raw.clone()}</code>
                        </details>
                    }
                })}
            {why(&row.why)}
        </li>
    }
}

pub(super) fn panel() -> AnyView {
    SelectorPanel().into_any()
}

pub(super) fn settings() -> AnyView {
    let editor = expect_context::<EditorState>();
    let s = editor.scenario;
    let fallback =
        move || s.with(|s| with_method!(s, Selector, |m| m.fallback, SelectorFallback::PreviousSpeaker));
    let role = move || s.with(|s| with_method!(s, Selector, |m| m.prompt_role, PromptRole::System));
    view! {
        <div class="row">
            <label class="check">
                <input
                    type="checkbox"
                    data-testid="field-method.allow_repeats"
                    prop:checked=move || s.with(|s| with_method!(s, Selector, |m| m.allow_repeats, false))
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        s.update(|s| update_method!(s, Selector, |m| m.allow_repeats = on))
                    }
                />
                <span>"The last speaker may be named again"</span>
            </label>
            {number_field(
                "Attempts per turn",
                "method.attempts",
                |s| with_method!(s, Selector, |m| m.attempts, 0),
                |s, v| update_method!(s, Selector, |m| m.attempts = v),
            )}
            <label class="field">
                <span>"When no candidate is named"</span>
                <select
                    data-testid="field-method.fallback"
                    on:change=move |ev| {
                        let v = match event_target_value(&ev).as_str() {
                            "first_candidate" => SelectorFallback::FirstCandidate,
                            "random_candidate" => SelectorFallback::RandomCandidate,
                            _ => SelectorFallback::PreviousSpeaker,
                        };
                        s.update(|s| update_method!(s, Selector, |m| m.fallback = v))
                    }
                >
                    <option value="previous_speaker" selected=move || fallback() == SelectorFallback::PreviousSpeaker>
                        "the previous speaker (AutoGen)"
                    </option>
                    <option value="first_candidate" selected=move || fallback() == SelectorFallback::FirstCandidate>
                        "the first candidate"
                    </option>
                    <option value="random_candidate" selected=move || fallback() == SelectorFallback::RandomCandidate>
                        "a random candidate"
                    </option>
                </select>
            </label>
            <label class="field">
                <span>"Prompt sent as"</span>
                <select
                    data-testid="field-method.prompt_role"
                    on:change=move |ev| {
                        let v = if event_target_value(&ev) == "user" { PromptRole::User } else { PromptRole::System };
                        s.update(|s| update_method!(s, Selector, |m| m.prompt_role = v))
                    }
                >
                    <option value="system" selected=move || role() == PromptRole::System>
                        "a system message (AutoGen, OpenAI models)"
                    </option>
                    <option value="user" selected=move || role() == PromptRole::User>
                        "a user message (AutoGen, other models)"
                    </option>
                </select>
            </label>
        </div>
        {text_field(
            "Selector prompt ({roles}, {participants}, {history})",
            "method.prompt",
            |s| with_method!(s, Selector, |m| m.prompt.clone(), String::new()),
            |s, v| update_method!(s, Selector, |m| m.prompt = v),
            true,
        )}
    }
    .into_any()
}
