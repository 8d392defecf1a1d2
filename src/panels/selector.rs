//! Selector: who could be named each turn, who was and how the reply was read; and the
//! selector's settings.

use crate::i18n::{say, t, tf};
use std::sync::Arc;

use leptos::prelude::*;

use crate::events::SelectorMatch;
use crate::methods::selector::view::SelectorRow;
use crate::scenario::{PromptRole, SelectorFallback};
use crate::ui::form::{check_field, choice_field, number_field};
use crate::ui::kit::{raw_reply, update_method, why, with_method};
use crate::ui::rows::chunked;
use crate::view::RunView;

/// The selector's choices: who could be named, who was, and how the reply was read.
fn selector_panel(view: RwSignal<RunView>) -> impl IntoView {
    let count = Memo::new(move |_| view.with(|v| v.selections().len()));
    view! {
        <div class="panel" data-testid="selector-panel">
            <h2>{t(say::MethodSelector)}</h2>
            <p class="gist" data-testid="panel-gist">{t(say::SelectorGist)}</p>
            <p class="muted">{t(say::SelectorExplain)}</p>
            <ol class="selections">
                {chunked(
                    count,
                    Arc::new(move |a, b| {
                        view.with(|v| v.selections().iter().skip(a).take(b - a).map(|s| s.turn as u64).collect())
                    }),
                    Arc::new(move |i| {
                        let row = view.with_untracked(|v| v.selections().get(i).cloned())?;
                        Some(view! { <SelectorEntry row=row /> }.into_any())
                    }),
                    true,
                )}
            </ol>
        </div>
    }
}

/// A selector's choice: who was named and how the reply was read, the candidates, the reply and
/// the reasoning behind it.
#[component]
fn SelectorEntry(row: Arc<SelectorRow>) -> impl IntoView {
    let fallback = row.matched == SelectorMatch::Fallback;
    let how = crate::methods::selector::words::how_named(row.matched, row.attempts);
    let attempts = crate::methods::selector::words::attempt_note(row.matched, row.attempts)
        .map(|n| format!(" · {n}"))
        .unwrap_or_default();
    view! {
        <li class="selection" data-testid="selection" data-agent=row.agent.clone() data-fallback=fallback.to_string()>
            <span class="muted">{tf(say::TurnDot, &[("turn", &row.turn)])}</span>
            <strong>{crate::methods::selector::words::selection_sentence(&row.agent, row.matched, row.attempts)}</strong>
            <span class=if fallback { "fallback" } else { "muted" }>{format!(" · {how}{attempts}")}</span>
            <div class="muted candidates" data-testid="selection-candidates">
                {tf(say::SelectorCandidates, &[("names", &row.candidates.join(t(say::ListComma)))])}
            </div>
            {(!row.raw.is_empty()).then(|| raw_reply(&row.raw))}
            {why(&row.why)}
        </li>
    }
}

pub fn panel(view: RwSignal<RunView>) -> AnyView {
    untrack(move || selector_panel(view).into_any())
}

pub fn settings() -> AnyView {
    view! {
        <div class="row">
            {check_field(
                t(say::SetNamedAgain),
                "field-method.allow_repeats",
                |s| with_method!(s, Selector, |m| m.allow_repeats, false),
                |s, on| update_method!(s, Selector, |m| m.allow_repeats = on),
            )}
            {number_field(
                t(say::SetAttemptsPerTurn),
                "method.attempts",
                |s| with_method!(s, Selector, |m| m.attempts, 0),
                |s, v| update_method!(s, Selector, |m| m.attempts = v),
            )}
            {choice_field(
                t(say::SetNoCandidate),
                "method.fallback",
                &[
                    ("previous_speaker", t(say::SetPreviousSpeaker), SelectorFallback::PreviousSpeaker),
                    ("first_candidate", t(say::SetFirstCandidate), SelectorFallback::FirstCandidate),
                    ("random_candidate", t(say::SetRandomCandidate), SelectorFallback::RandomCandidate),
                ],
                |s| with_method!(s, Selector, |m| m.fallback, SelectorFallback::PreviousSpeaker),
                |s, v| update_method!(s, Selector, |m| m.fallback = v),
            )}
            {choice_field(
                t(say::SetPromptRole),
                "method.prompt_role",
                &[
                    ("system", t(say::SetRoleSystem), PromptRole::System),
                    ("user", t(say::SetRoleUser), PromptRole::User),
                ],
                |s| with_method!(s, Selector, |m| m.prompt_role, PromptRole::System),
                |s, v| update_method!(s, Selector, |m| m.prompt_role = v),
            )}
        </div>
    }
    .into_any()
}
