//! Director: each stop draw against the probability, the reflection, the index chosen and
//! who that is; and the director's settings.

use std::sync::Arc;

use leptos::prelude::*;

use crate::ui::form::{choice_field, number_field};
use crate::ui::kit::{agent_select, update_method, why_html, with_method};
use crate::ui::rows::{chunked, key};
use crate::methods::shown::Shown;
use crate::scenario::ChoiceFallback;
use crate::markup;
use crate::markup::Markup;
use crate::text::fixed;
use crate::ui::MarkupAttribute;
use super::view::DirectorTurn;

/// The director's turns: the stop draw against the probability, the reflection, the index chosen.
fn director_panel<V: Shown>(view: RwSignal<V>) -> impl IntoView {
    let count = Memo::new(move |_| view.with(|v| v.director().len()));
    view! {
        <div class="panel" data-testid="director-panel">
            <h2>"Director"</h2>
            <p class="muted">
                "Each turn the director first draws a number: below the stop probability, the show ends with a summary; otherwise the director picks who speaks next."
            </p>
            <ol class="director-turns">
                {chunked(
                    count,
                    Arc::new(move |a, b| {
                        view.with(|v| {
                            v.director()
                                .iter()
                                .skip(a)
                                .take(b - a)
                                .map(|d| key(&[d.turn as u64, d.reflection.is_some() as u64, d.choice.is_some() as u64]))
                                .collect()
                        })
                    }),
                    Arc::new(move |i| {
                        let turn = view.with_untracked(|v| v.director().get(i).cloned())?;
                        Some(view! { <DirectorEntry turn=turn /> }.into_any())
                    }),
                    true,
                )}
            </ol>
        </div>
    }
}

#[component]
fn DirectorEntry(turn: Arc<DirectorTurn>) -> impl IntoView {
    view! { <li class="director-turn" data-testid="director-turn" data-turn=turn.turn markup=entry_html(&turn)></li> }
}

/// A director's turn as HTML text (a typed view of it cost the first page more): the stop draw
/// against the probability, the reflection, and the index chosen with who that is.
fn entry_html(turn: &DirectorTurn) -> Markup {
    let mut out = markup!(
        "<h3>Turn {}</h3><div class=\"draw\" data-testid=\"stop-draw\" data-stop=\"{}\"><span class=\"draw-track\" title=\"stop if the draw is below {}\"><span class=\"threshold\" style=\"width:{}%\"></span><span class=\"sample\" style=\"left:{}%\"></span></span><span>{}</span></div>",
        turn.turn,
        turn.stop.to_string(),
        fixed(turn.probability, 2),
        fixed(turn.probability * 100.0, 1),
        fixed(turn.sample * 100.0, 1),
        super::words::draw_sentence(turn.sample, turn.probability, turn.stop, turn.ended_by_class),
    );
    if let Some(r) = &turn.reflection {
        out.push(markup!("<p class=\"reflection\">{}</p>", r));
    }
    if let Some(c) = &turn.choice {
        let index = c.index.map_or("none".to_string(), |i| i.to_string());
        let attempts = super::words::attempts_note(c.attempts).map(|n| format!(" {n}")).unwrap_or_default();
        let fallback = if c.fallback {
            markup!("<span class=\"fallback\"> · {}</span>", super::words::FALLBACK)
        } else {
            Markup::new()
        };
        out.push(markup!(
            // A block, not a paragraph: the reasoning's <details> cannot sit in a <p> as HTML.
            "<div class=\"choice\" data-testid=\"director-choice\" data-agent=\"{}\" data-fallback=\"{}\"><strong>{}</strong> <span class=\"muted\">(its reply “{}”: index {}){}</span>{}{}</div>",
            c.agent,
            c.fallback.to_string(),
            super::words::choice_sentence(&c.director, &c.agent, c.fallback),
            c.raw.trim(),
            index,
            attempts,
            fallback,
            why_html(&c.why),
        ));
    }
    out
}

pub fn panel<V: Shown>(view: RwSignal<V>) -> AnyView {
    untrack(move || director_panel(view).into_any())
}

pub fn settings() -> AnyView {
    view! {
        <div class="row">
            {agent_select(
                "Director",
                "method.director",
                |s| with_method!(s, Director, |m| m.director.clone(), String::new()),
                |s, v| update_method!(s, Director, |m| m.director = v),
            )}
            {number_field(
                "Stop probability",
                "method.stop_probability",
                |s| with_method!(s, Director, |m| m.stop_probability, 0.0),
                |s, v| update_method!(s, Director, |m| m.stop_probability = v),
            )}
            {number_field(
                "Attempts per choice",
                "method.attempts",
                |s| with_method!(s, Director, |m| m.attempts, 0),
                |s, v| update_method!(s, Director, |m| m.attempts = v),
            )}
            {choice_field(
                "When no valid index comes",
                "method.fallback",
                &[("first", "the first speaker", ChoiceFallback::First), ("random", "a random speaker", ChoiceFallback::Random)],
                |s| with_method!(s, Director, |m| m.fallback, ChoiceFallback::First),
                |s, v| update_method!(s, Director, |m| m.fallback = v),
            )}
        </div>
    }
    .into_any()
}
