//! Director: each stop draw against the probability, the reflection, the index chosen and
//! who that is; and the director's settings.

use crate::i18n::{say, t, tf};
use std::sync::Arc;

use leptos::prelude::*;

use crate::methods::director::view::DirectorTurn;
use crate::scenario::ChoiceFallback;
use crate::text::fixed;
use crate::ui::form::{choice_field, number_field};
use crate::ui::kit::{agent_select, update_method, why, with_method};
use crate::ui::rows::{chunked, key};
use crate::view::RunView;

/// The director's turns: the stop draw against the probability, the reflection, the index chosen.
fn director_panel(view: RwSignal<RunView>) -> impl IntoView {
    let count = Memo::new(move |_| view.with(|v| v.director().len()));
    view! {
        <div class="panel" data-testid="director-panel">
            <h2>{t(say::DirectorPanel)}</h2>
            <p class="gist" data-testid="panel-gist">{t(say::DirectorGist)}</p>
            <p class="muted">{t(say::DirectorExplain)}</p>
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

/// A director's turn: the stop draw against the probability, the reflection, and the index
/// chosen with who that is.
#[component]
fn DirectorEntry(turn: Arc<DirectorTurn>) -> impl IntoView {
    let draw = crate::methods::director::words::draw_sentence(
        turn.sample,
        turn.probability,
        turn.stop,
        turn.ended_by_class,
    );
    let reflection = turn.reflection.clone().map(|r| view! { <p class="reflection">{r}</p> });
    let choice = turn.choice.as_ref().map(|c| {
        let attempts = crate::methods::director::words::attempts_note(c.attempts).map(|n| format!(" {n}")).unwrap_or_default();
        let raw = c.raw.trim();
        let reply = match c.index {
            Some(index) => tf(say::DirectorItsReply, &[("raw", &raw), ("index", &index), ("attempts", &attempts)]),
            None => tf(say::DirectorNoIndex, &[("raw", &raw), ("attempts", &attempts)]),
        };
        let fallback = c.fallback.then(|| view! { <span class="fallback">{format!(" · {}", crate::methods::director::words::fallback())}</span> });
        view! {
            // A block, not a paragraph: the reasoning's <details> cannot sit in a <p>.
            <div class="choice" data-testid="director-choice" data-agent=c.agent.clone() data-fallback=c.fallback.to_string()>
                <strong>{crate::methods::director::words::choice_sentence(&c.director, &c.agent, c.fallback)}</strong>
                " "
                <span class="muted">{reply}</span>
                {fallback}
                {why(&c.why)}
            </div>
        }
    });
    view! {
        <li class="director-turn" data-testid="director-turn" data-turn=turn.turn>
            <h3>{tf(say::TurnTitle, &[("turn", &turn.turn)])}</h3>
            <div class="draw" data-testid="stop-draw" data-stop=turn.stop.to_string()>
                <span class="draw-track" title=tf(say::DirectorStopIfBelow, &[("p", &fixed(turn.probability, 2))])>
                    <span class="threshold" style=format!("width:{}%", fixed(turn.probability * 100.0, 1))></span>
                    <span class="sample" style=format!("left:{}%", fixed(turn.sample * 100.0, 1))></span>
                </span>
                <span>{draw}</span>
            </div>
            {reflection}
            {choice}
        </li>
    }
}

pub fn panel(view: RwSignal<RunView>) -> AnyView {
    untrack(move || director_panel(view).into_any())
}

pub fn settings() -> AnyView {
    view! {
        <div class="row">
            {agent_select(
                t(say::SetDirector),
                "method.director",
                |s| with_method!(s, Director, |m| m.director.clone(), String::new()),
                |s, v| update_method!(s, Director, |m| m.director = v),
            )}
            {number_field(
                t(say::SetStopProbability),
                "method.stop_probability",
                |s| with_method!(s, Director, |m| m.stop_probability, 0.0),
                |s, v| update_method!(s, Director, |m| m.stop_probability = v),
            )}
            {number_field(
                t(say::SetAttemptsPerChoice),
                "method.attempts",
                |s| with_method!(s, Director, |m| m.attempts, 0),
                |s, v| update_method!(s, Director, |m| m.attempts = v),
            )}
            {choice_field(
                t(say::SetNoValidIndex),
                "method.fallback",
                &[("first", t(say::SetFirstSpeakerFallback), ChoiceFallback::First), ("random", t(say::SetRandomSpeaker), ChoiceFallback::Random)],
                |s| with_method!(s, Director, |m| m.fallback, ChoiceFallback::First),
                |s, v| update_method!(s, Director, |m| m.fallback = v),
            )}
        </div>
    }
    .into_any()
}
