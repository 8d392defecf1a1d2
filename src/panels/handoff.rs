//! Handoff: each handoff with its method, reply and fallback, a graph of who handed to whom;
//! and the handoff settings.

use crate::i18n::{say, t, tf};
use std::collections::BTreeMap;
use std::sync::Arc;

use leptos::prelude::*;

use crate::methods::handoff::view::HandoffRow;
use crate::scenario::HandoffVia;
use crate::text::fixed;
use crate::ui::form::{choice_field, number_field};
use crate::ui::kit::{agent_select, color, raw_reply, update_method, why, with_method};
use crate::ui::rows::chunked;
use crate::view::RunView;

/// Handoffs, with a graph of who handed to whom.
fn handoff_panel(view: RwSignal<RunView>) -> impl IntoView {
    let count = Memo::new(move |_| view.with(|v| v.handoffs().len()));
    view! {
        <div class="panel" data-testid="handoff-panel">
            <h2>{t(say::HandoffPanel)}</h2>
            <p class="gist" data-testid="panel-gist">{t(say::HandoffGist)}</p>
            <p class="muted">{t(say::HandoffExplain)}</p>
            {handoff_graph(view)}
            <ol class="handoffs">
                {chunked(
                    count,
                    Arc::new(move |a, b| {
                        view.with(|v| v.handoffs().iter().skip(a).take(b - a).map(|h| h.turn as u64).collect())
                    }),
                    Arc::new(move |i| {
                        let row = view.with_untracked(|v| v.handoffs().get(i).cloned())?;
                        Some(view! { <HandoffEntry row=row /> }.into_any())
                    }),
                    true,
                )}
            </ol>
        </div>
    }
}

/// A handoff: who handed to whom and how it was read, any fallback, the reply and the reasoning
/// behind it.
#[component]
fn HandoffEntry(row: Arc<HandoffRow>) -> impl IntoView {
    let fallback = row.fallback.then(|| {
        view! { <span class="fallback">{format!(" · {}", crate::methods::handoff::words::fallback_reason(row.reason.as_deref()))}</span> }
    });
    view! {
        <li class="handoff" data-testid="handoff" data-from=row.from.clone() data-to=row.to.clone() data-fallback=row.fallback.to_string()>
            <span class="muted">{tf(say::TurnDot, &[("turn", &row.turn)])}</span>
            <strong>{crate::methods::handoff::words::handoff_sentence(&row.from, &row.to, &row.method, row.fallback)}</strong>
            {fallback}
            {raw_reply(&row.raw)}
            {why(&row.why)}
        </li>
    }
}

fn handoff_graph(view: RwSignal<RunView>) -> impl IntoView {
    move || {
        let (agents, counts) = view.with(|v| (v.agents(), v.handoff_counts().clone()));
        let graph = graph(&agents, &counts)?;
        Some(view! {
            <figure class="chart graph" data-testid="handoff-graph">
                {graph}
                <figcaption class="muted">{t(say::HandoffGraphCaption)}</figcaption>
            </figure>
        })
    }
}

/// Who handed to whom: the agents on a circle, an arrow for each pair with its count; `None`
/// before the first handoff.
fn graph(agents: &[String], counts: &BTreeMap<(String, String), u32>) -> Option<impl IntoView + use<>> {
    if agents.is_empty() || counts.is_empty() {
        return None;
    }
    let n = agents.len();
    let (cx, cy, r) = (150.0, 95.0, 70.0);
    let pos = |i: usize| {
        let (x, y) = circle_point(i, n);
        (cx + r * x, cy + r * y)
    };
    let index = |name: &str| agents.iter().position(|a| a == name);
    let edges = counts
        .iter()
        .filter_map(|((from, to), count)| {
            let (a, b) = (index(from).map(pos)?, index(to).map(pos)?);
            // Bend each edge to one side so a→b and b→a stay apart.
            let (mx, my) = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let len = (dx * dx + dy * dy).sqrt().max(1.0);
            let (qx, qy) = (fixed(mx - dy / len * 18.0, 1), fixed(my + dx / len * 18.0, 1));
            let path = format!("M{},{} Q{},{} {},{}", fixed(a.0, 1), fixed(a.1, 1), qx, qy, fixed(b.0, 1), fixed(b.1, 1));
            Some(view! {
                <g class="edge" data-testid="handoff-edge" data-from=from.clone() data-to=to.clone() data-count=*count>
                    <path d=path fill="none" stroke="#6b6b70" stroke-width=(1 + count).min(6) marker-end="url(#arrow)"></path>
                    <text x=qx.clone() y=qy class="edge-count">{*count}</text>
                </g>
            })
        })
        .collect_view();
    let nodes = agents
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let (x, y) = pos(i);
            let (x, text_y, y) = (fixed(x, 1), fixed(y - 10.0, 1), fixed(y, 1));
            view! {
                <g class="node">
                    <circle cx=x.clone() cy=y r="6" fill=color(i)></circle>
                    <text x=x y=text_y text-anchor="middle">{a.clone()}</text>
                </g>
            }
        })
        .collect_view();
    Some(view! {
        <svg viewBox="0 0 300 190" role="img" aria-label=t(say::HandoffGraphLabel)>
            <defs>
                <marker id="arrow" viewBox="0 0 10 10" refX="14" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
                    <path d="M 0 0 L 10 5 L 0 10 z" fill="#6b6b70"></path>
                </marker>
            </defs>
            {edges}
            {nodes}
        </svg>
    })
}

/// The point `i` of `n` spread evenly on the unit circle, the first at the top. Computed by series
/// so the browser build needs no trigonometry library.
fn circle_point(i: usize, n: usize) -> (f64, f64) {
    use std::f64::consts::PI;
    let mut a = 2.0 * PI * i as f64 / n.max(1) as f64 - PI / 2.0;
    if a > PI {
        a -= 2.0 * PI;
    }
    let (mut sin, mut cos) = (0.0, 0.0);
    let (mut term_s, mut term_c) = (a, 1.0);
    for k in 0..12 {
        sin += term_s;
        cos += term_c;
        let k = k as f64;
        term_s *= -a * a / ((2.0 * k + 2.0) * (2.0 * k + 3.0));
        term_c *= -a * a / ((2.0 * k + 1.0) * (2.0 * k + 2.0));
    }
    (cos, sin)
}

pub fn panel(view: RwSignal<RunView>) -> AnyView {
    untrack(move || handoff_panel(view).into_any())
}

pub fn settings() -> AnyView {
    view! {
        <div class="row">
            {choice_field(
                t(say::SetHandoffVia),
                "method.via",
                &[
                    ("text", t(say::SetViaText), HandoffVia::Text),
                    ("tool", t(say::SetViaTool), HandoffVia::Tool),
                    ("json", t(say::SetViaJson), HandoffVia::Json),
                ],
                |s| with_method!(s, Handoff, |m| m.via, HandoffVia::Text),
                |s, v| update_method!(s, Handoff, |m| m.via = v),
            )}
            {agent_select(
                t(say::SetFirstSpeaker),
                "method.first_speaker",
                |s| with_method!(s, Handoff, |m| m.first_speaker.clone(), String::new()),
                |s, v| update_method!(s, Handoff, |m| m.first_speaker = v),
            )}
            {number_field(
                t(say::SetAttemptsPerTurn),
                "method.attempts",
                |s| with_method!(s, Handoff, |m| m.attempts, 0),
                |s, v| update_method!(s, Handoff, |m| m.attempts = v),
            )}
        </div>
    }
    .into_any()
}
