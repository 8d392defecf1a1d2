//! Handoff: each handoff with its method, reply and fallback, a graph of who handed to whom;
//! and the handoff settings.

use std::sync::Arc;

use leptos::prelude::*;

use crate::app::form::{choice_field, number_field};
use crate::app::methods::{agent_select, color, update_method, why, with_method};
use crate::app::rows::chunked;
use crate::app::Controller;
use crate::scenario::{HandoffVia, Method};
use crate::text::fixed;
use crate::view::HandoffRow;

/// Handoffs, with a graph of who handed to whom.
#[component]
fn HandoffPanel() -> impl IntoView {
    let controller = expect_context::<Controller>();
    let count = Memo::new(move |_| controller.view.with(|v| v.handoffs.len()));
    view! {
        <div class="panel" data-testid="handoff-panel">
            <h2>"Handoffs"</h2>
            <HandoffGraph />
            <ol class="handoffs">
                {chunked(
                    count,
                    Arc::new(move |a, b| {
                        controller.view.with(|v| v.handoffs.iter().skip(a).take(b - a).map(|h| h.turn as u64).collect())
                    }),
                    Arc::new(move |i| {
                        let row = controller.view.with_untracked(|v| v.handoffs.get(i).cloned())?;
                        Some(view! { <HandoffEntry row=row /> }.into_any())
                    }),
                    true,
                )}
            </ol>
        </div>
    }
}

#[component]
fn HandoffEntry(row: Arc<HandoffRow>) -> impl IntoView {
    view! {
        <li class="handoff" data-testid="handoff" data-from=row.from.clone() data-to=row.to.clone() data-fallback=row.fallback.to_string()>
            <span class="muted">{format!("Turn {} · {} · ", row.turn, row.method)}</span>
            <strong>{row.from.clone()}</strong>
            " → "
            <strong>{row.to.clone()}</strong>
            {row
                .fallback
                .then(|| {
                    view! {
                        <span class="fallback">
                            {format!(" · {}", super::words::fallback_note(row.reason.as_deref()))}
                        </span>
                    }
                })}
            <details class="raw">
                <summary>"reply"</summary>
                <code>{row.raw.clone()}</code>
            </details>
            {why(&row.why)}
        </li>
    }
}

#[component]
fn HandoffGraph() -> impl IntoView {
    let controller = expect_context::<Controller>();
    move || {
        let (agents, counts) = controller.view.with(|v| (v.agents(), v.handoff_counts.clone()));
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
                let (a, b) = (pos(index(from)?), pos(index(to)?));
                // Bend each edge to one side so a→b and b→a stay apart.
                let (mx, my) = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
                let (dx, dy) = (b.0 - a.0, b.1 - a.1);
                let len = (dx * dx + dy * dy).sqrt().max(1.0);
                let (qx, qy) = (mx - dy / len * 18.0, my + dx / len * 18.0);
                Some(view! {
                    <g class="edge" data-testid="handoff-edge" data-from=from.clone() data-to=to.clone() data-count=*count>
                        <path
                            d=format!("M{},{} Q{},{} {},{}", fixed(a.0, 1), fixed(a.1, 1), fixed(qx, 1), fixed(qy, 1), fixed(b.0, 1), fixed(b.1, 1))
                            fill="none"
                            stroke="#6b6b70"
                            stroke-width=(1 + *count).min(6).to_string()
                            marker-end="url(#arrow)"
                        ></path>
                        <text x=fixed(qx, 1) y=fixed(qy, 1) class="edge-count">
                            {count.to_string()}
                        </text>
                    </g>
                })
            })
            .collect_view();
        let nodes = agents
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let (x, y) = pos(i);
                view! {
                    <g class="node">
                        <circle cx=fixed(x, 1) cy=fixed(y, 1) r="6" fill=color(i)></circle>
                        <text x=fixed(x, 1) y=fixed(y - 10.0, 1) text-anchor="middle">
                            {a.clone()}
                        </text>
                    </g>
                }
            })
            .collect_view();
        Some(view! {
            <figure class="chart graph" data-testid="handoff-graph">
                <svg viewBox="0 0 300 190" role="img" aria-label="Who handed off to whom, with counts">
                    <defs>
                        <marker id="arrow" viewBox="0 0 10 10" refX="14" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
                            <path d="M 0 0 L 10 5 L 0 10 z" fill="#6b6b70"></path>
                        </marker>
                    </defs>
                    {edges}
                    {nodes}
                </svg>
            </figure>
        })
    }
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

pub fn panel() -> AnyView {
    HandoffPanel().into_any()
}

pub fn settings() -> AnyView {
    view! {
        <div class="row">
            {choice_field(
                "Handoff read from",
                "method.via",
                &[
                    ("text", "text: \"Transition to X\"", HandoffVia::Text),
                    ("tool", "a handoff tool call", HandoffVia::Tool),
                    ("json", "structured JSON", HandoffVia::Json),
                ],
                |s| with_method!(s, Handoff, |m| m.via, HandoffVia::Text),
                |s, v| update_method!(s, Handoff, |m| m.via = v),
            )}
            {agent_select(
                "First speaker",
                "method.first_speaker",
                |s| with_method!(s, Handoff, |m| m.first_speaker.clone(), String::new()),
                |s, v| update_method!(s, Handoff, |m| m.first_speaker = v),
            )}
            {number_field(
                "Attempts per turn",
                "method.attempts",
                |s| with_method!(s, Handoff, |m| m.attempts, 0),
                |s, v| update_method!(s, Handoff, |m| m.attempts = v),
            )}
        </div>
    }
    .into_any()
}
