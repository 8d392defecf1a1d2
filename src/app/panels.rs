//! The decision panels: the bid board, the director's choices and stop draws, the handoffs with
//! their graph, and the trading game with its optimizer. Each renders rows of the run's view.

use std::sync::Arc;

use leptos::prelude::*;

use super::rows::{chunked, key};
use super::Controller;
use crate::events::SelectorMatch;
use crate::text::fixed;
use crate::view::{ActionRow, BidTurn, DirectorTurn, HandoffRow, NegotiationView, SelectorRow};

const PALETTE: [&str; 8] =
    ["#0b5cad", "#b3261e", "#2e7d32", "#8e24aa", "#ef6c00", "#00838f", "#5d4037", "#455a64"];

fn color(i: usize) -> &'static str {
    PALETTE[i % PALETTE.len()]
}

/// The model's reasoning behind a decision, one click away; nothing when it did not reason.
fn why(reasoning: &str) -> Option<AnyView> {
    (!reasoning.is_empty()).then(|| {
        view! {
            <details class="why" data-testid="why">
                <summary>"why"</summary>
                <p class="reasoning">{reasoning.to_string()}</p>
            </details>
        }
        .into_any()
    })
}

/// Bids per turn, newest first, with a small chart of every agent's bids across turns.
#[component]
pub fn BidBoard() -> impl IntoView {
    let controller = expect_context::<Controller>();
    let count = Memo::new(move |_| controller.view.with(|v| v.bid_turns.len()));
    let empty = move || count.get() == 0;
    view! {
        <div class="panel" data-testid="bid-board">
            <h2>"Bid board"</h2>
            <p class="muted">
                "Each agent rates how contradictory the last message is to its ideas (1 to 10); the highest bid speaks."
            </p>
            <BidChart />
            {move || empty().then(|| view! {
                <p class="muted empty">"Bids appear here each turn."</p>
            })}
            <ol class="boards">
                {chunked(
                    count,
                    // A turn changes as its bids come in and once more when its winner is known.
                    Arc::new(move |a, b| {
                        controller.view.with(|v| {
                            v.bid_turns
                                .iter()
                                .skip(a)
                                .take(b - a)
                                .map(|t| key(&[t.turn as u64, t.bids.len() as u64, t.winner.is_some() as u64]))
                                .collect()
                        })
                    }),
                    Arc::new(move |i| {
                        let board = controller.view.with_untracked(|v| v.bid_turns.get(i).cloned())?;
                        Some(view! { <Board board=board /> }.into_any())
                    }),
                    true,
                )}
            </ol>
        </div>
    }
}

#[component]
fn Board(board: Arc<BidTurn>) -> impl IntoView {
    let winner = board.winner.clone();
    let tie_note = board
        .tie
        .then(|| format!("Tie between {} broken by the run's seeded draw", board.tied.join(" and ")));
    view! {
        <li class="board" data-testid="bid-turn" data-turn=board.turn data-winner=winner.clone().unwrap_or_default()>
            <h3>
                {format!("Turn {}", board.turn)}
                {winner.clone().map(|w| view! { <span class="winner-name">{format!(" · {w} speaks")}</span> })}
            </h3>
            <ul class="bids">
                {board
                    .bids
                    .iter()
                    .enumerate()
                    .map(|(i, b)| {
                        let won = winner.as_deref() == Some(b.agent.as_str());
                        let width = format!("{}%", (b.value.clamp(0, 10) * 10).max(2));
                        let note = match (b.defaulted, b.attempts) {
                            (true, n) => format!("no valid bid after {n} attempts: defaulted to {}", b.value),
                            (false, n) if n > 1 => format!("read on attempt {n}"),
                            _ => String::new(),
                        };
                        view! {
                            <li
                                class="bid"
                                class:winner=won
                                class:defaulted=b.defaulted
                                data-testid="bid"
                                data-agent=b.agent.clone()
                                data-value=b.value
                                title=format!("Raw reply: {}", b.raw)
                            >
                                <span class="agent">{b.agent.clone()}</span>
                                <span class="bar-track">
                                    <span class="bar" style:width=width style:background=color(i)></span>
                                </span>
                                <span class="value" data-testid="bid-value">{b.value}</span>
                                <details class="raw">
                                    <summary>"reply"</summary>
                                    <code>{if b.raw.is_empty() { "(empty)".to_string() } else { b.raw.clone() }}</code>
                                </details>
                                {why(&b.why)}
                                {(!note.is_empty()).then(|| view! { <span class="note" data-testid="bid-note">{note}</span> })}
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
            {tie_note.map(|t| view! { <p class="tie" data-testid="tie-note">{t}</p> })}
        </li>
    }
}

/// How many recent turns the bid chart shows.
const CHART_TURNS: usize = 60;

/// A line per agent of its bids across the recent turns.
#[component]
fn BidChart() -> impl IntoView {
    let controller = expect_context::<Controller>();
    let history = move || controller.view.with(|v| v.bid_history(CHART_TURNS));
    move || {
        let history = history();
        let turns = history.first().map_or(0, |(_, v)| v.len());
        if turns < 2 {
            return None;
        }
        let (w, h) = (300.0, 90.0);
        let x = move |t: usize| 4.0 + (w - 8.0) * t as f64 / (turns - 1) as f64;
        let y = move |v: i64| h - 4.0 - (h - 8.0) * v.clamp(0, 10) as f64 / 10.0;
        let lines = history
            .iter()
            .enumerate()
            .map(|(i, (agent, values))| {
                let points: Vec<String> = values
                    .iter()
                    .enumerate()
                    .map(|(t, v)| format!("{},{}", fixed(x(t), 1), fixed(y(*v), 1)))
                    .collect();
                view! {
                    <polyline points=points.join(" ") fill="none" stroke=color(i) stroke-width="2">
                        <title>{agent.clone()}</title>
                    </polyline>
                }
            })
            .collect_view();
        let legend = history
            .iter()
            .enumerate()
            .map(|(i, (agent, _))| view! { <span class="key" style:border-color=color(i)>{agent.clone()}</span> })
            .collect_view();
        Some(view! {
            <figure class="chart" data-testid="bid-chart">
                <svg viewBox=format!("0 0 {} {}", fixed(w, 0), fixed(h, 0)) role="img" aria-label="Bids per agent across the recent turns">
                    {lines}
                </svg>
                <figcaption class="legend">{legend}</figcaption>
            </figure>
        })
    }
}

/// The director's turns: the stop draw against the probability, the reflection, the index chosen.
#[component]
pub fn DirectorPanel() -> impl IntoView {
    let controller = expect_context::<Controller>();
    let count = Memo::new(move |_| controller.view.with(|v| v.director.len()));
    view! {
        <div class="panel" data-testid="director-panel">
            <h2>"Director"</h2>
            <p class="muted">
                "Each of the director's turns starts with a stop draw; below the stop probability, the show ends with a summary."
            </p>
            <ol class="director-turns">
                {chunked(
                    count,
                    Arc::new(move |a, b| {
                        controller.view.with(|v| {
                            v.director
                                .iter()
                                .skip(a)
                                .take(b - a)
                                .map(|d| key(&[d.turn as u64, d.reflection.is_some() as u64, d.choice.is_some() as u64]))
                                .collect()
                        })
                    }),
                    Arc::new(move |i| {
                        let turn = controller.view.with_untracked(|v| v.director.get(i).cloned())?;
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
    let sample_pct = format!("{}%", fixed(turn.sample * 100.0, 1));
    let threshold_pct = format!("{}%", fixed(turn.probability * 100.0, 1));
    view! {
        <li class="director-turn" data-testid="director-turn" data-turn=turn.turn>
            <h3>{format!("Turn {}", turn.turn)}</h3>
            <div class="draw" data-testid="stop-draw" data-stop=turn.stop.to_string()>
                <span class="draw-track" title=format!("stop if the draw is below {}", fixed(turn.probability, 2))>
                    <span class="threshold" style:width=threshold_pct></span>
                    <span class="sample" style:left=sample_pct></span>
                </span>
                <span>
                    {format!("drew {} against {}: ", fixed(turn.sample, 3), fixed(turn.probability, 2))}
                    <strong>{if turn.stop { "stop" } else { "go on" }}</strong>
                </span>
            </div>
            {turn.reflection.clone().map(|r| view! { <p class="reflection">{r}</p> })}
            {turn
                .choice
                .clone()
                .map(|c| {
                    let index = c.index.map_or("none".to_string(), |i| i.to_string());
                    view! {
                        <p class="choice" data-testid="director-choice" data-agent=c.agent.clone() data-fallback=c.fallback.to_string()>
                            {format!("Chose index {index} ({}) → ", c.raw.trim())}
                            <strong>{c.agent.clone()}</strong>
                            {(c.attempts > 1).then(|| format!(" after {} attempts", c.attempts))}
                            {c.fallback.then(|| view! { <span class="fallback">" · fallback: no valid index"</span> })}
                            {why(&c.why)}
                        </p>
                    }
                })}
        </li>
    }
}

/// The selector's choices: who could be named, who was, and how the reply was read.
#[component]
pub fn SelectorPanel() -> impl IntoView {
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

/// Handoffs, with a graph of who handed to whom.
#[component]
pub fn HandoffPanel() -> impl IntoView {
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
                            {format!(" · fallback to a random agent: {}", row.reason.clone().unwrap_or_default())}
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

/// The trading game: inventories, the pending proposal, every action, scores, the optimizer.
#[component]
pub fn NegotiationPanel() -> impl IntoView {
    let controller = expect_context::<Controller>();
    let game = move || controller.view.with(|v| v.negotiation.clone());
    let count =
        Memo::new(move |_| controller.view.with(|v| v.negotiation.as_ref().map_or(0, |g| g.actions.len())));
    view! {
        <div class="panel" data-testid="negotiation-panel">
            <h2>"Trading game"</h2>
            {move || game().map(|g| view! { <GameState game=g /> })}
            <OptimizerChart />
            <h3>"Actions"</h3>
            <ol class="actions">
                {chunked(
                    count,
                    Arc::new(move |a, b| {
                        controller.view.with(|v| {
                            let actions = v.negotiation.as_ref().map(|g| g.actions.as_slice()).unwrap_or_default();
                            actions.iter().skip(a).take(b - a).map(|x| x.turn as u64).collect()
                        })
                    }),
                    Arc::new(move |i| {
                        let action = controller
                            .view
                            .with_untracked(|v| v.negotiation.as_ref().and_then(|g| g.actions.get(i).cloned()))?;
                        Some(view! { <ActionEntry action=action /> }.into_any())
                    }),
                    true,
                )}
            </ol>
        </div>
    }
}

#[component]
fn GameState(game: NegotiationView) -> impl IntoView {
    let overall = game.overall();
    let pct = if game.optimum > 0 { (overall * 100 / game.optimum).clamp(0, 100) } else { 0 };
    let header = game.resources.iter().map(|r| view! { <th scope="col">{r.clone()}</th> }).collect_view();
    let rows = game
        .inventories
        .iter()
        .map(|(player, inv)| {
            let cells = inv.iter().map(|q| view! { <td>{*q}</td> }).collect_view();
            let value = game.values.get(player).copied().unwrap_or(0);
            view! {
                <tr data-testid="inventory" data-player=player.clone() data-quantities=format!("{inv:?}") data-value=value>
                    <th scope="row">{player.clone()}</th>
                    {cells}
                    <td class="value">{value}</td>
                </tr>
            }
        })
        .collect_view();
    let pending = match (&game.pending, &game.end_requested_by) {
        (Some(p), _) => format!(
            "{} offers {} {} for {} {}, waiting for an answer",
            p.by, p.quantity, p.sell_resource, p.quantity, p.buy_resource
        ),
        (None, Some(who)) => {
            format!("{who} asked to end the game; the game ends when the other player ends too")
        }
        (None, None) => "No proposal pending".to_string(),
    };
    let results = game
        .games
        .iter()
        .map(|r| {
            let scores: Vec<String> = r.scores.iter().map(|(p, s)| format!("{p} {s}")).collect();
            view! {
                <li data-testid="game-result" data-iteration=r.iteration data-overall=r.overall>
                    {format!("Game {}: {} · overall {} of {} ({})", r.iteration, scores.join(", "), r.overall, r.optimum, r.reason.replace('_', " "))}
                </li>
            }
        })
        .collect_view();
    view! {
        <p class="muted">{format!("Game {}", game.iteration)}</p>
        <table class="inventories">
            <thead>
                <tr>
                    <th></th>
                    {header}
                    <th scope="col">"value"</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
        <div class="score" data-testid="overall" data-overall=overall data-optimum=game.optimum>
            <span>{format!("Overall {overall} of the optimum {}", game.optimum)}</span>
            <span class="meter">
                <span class="fill" style:width=format!("{pct}%")></span>
            </span>
        </div>
        <p class="pending" data-testid="pending">{pending}</p>
        <ol class="results">{results}</ol>
    }
}

#[component]
fn ActionEntry(action: Arc<ActionRow>) -> impl IntoView {
    let parsed = action.action.as_ref().map(|a| a.to_json());
    view! {
        <li class="action" class:invalid=!action.valid data-testid="action" data-player=action.player.clone() data-valid=action.valid.to_string()>
            <span class="muted">{format!("Turn {} · ", action.turn)}</span>
            <strong>{action.player.clone()}</strong>
            ": "
            <code>{parsed.unwrap_or_else(|| action.raw.clone())}</code>
            <span class="reason">
                {if action.valid { format!(" · {}", action.reason) } else { format!(" · invalid: {}", action.reason) }}
            </span>
        </li>
    }
}

/// The overall score per game, against the optimum, with each game's prompts.
#[component]
fn OptimizerChart() -> impl IntoView {
    let controller = expect_context::<Controller>();
    move || {
        let rows =
            controller.view.with(|v| v.negotiation.as_ref().map(|g| (g.optimizer.clone(), g.optimum)))?;
        let (rows, optimum) = rows;
        if rows.is_empty() {
            return None;
        }
        let top = rows.iter().map(|r| r.overall).max().unwrap_or(0).max(optimum).max(1) as f64;
        let (w, h) = (300.0, 100.0);
        let bw = w / rows.len() as f64;
        let bars = rows
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let bh = (h - 16.0) * r.overall as f64 / top;
                view! {
                    <g data-testid="optimizer-bar" data-iteration=r.iteration data-overall=r.overall>
                        <rect x=fixed(i as f64 * bw + 4.0, 1) y=fixed(h - bh, 1) width=fixed(bw - 8.0, 1) height=fixed(bh, 1) fill="#0b5cad"></rect>
                        <text x=fixed(i as f64 * bw + bw / 2.0, 1) y=fixed(h - bh - 3.0, 1) text-anchor="middle">
                            {r.overall.to_string()}
                        </text>
                    </g>
                }
            })
            .collect_view();
        let oy = h - (h - 16.0) * optimum as f64 / top;
        let prompts = rows
            .iter()
            .map(|r| {
                let lines = r
                    .prompts
                    .iter()
                    .map(|(p, text)| view! { <li>{format!("{p}: {text}")}</li> })
                    .collect_view();
                view! {
                    <details class="iteration" data-testid="optimizer-iteration">
                        <summary>{format!("Game {} · overall {}", r.iteration, r.overall)}</summary>
                        <ul>{lines}</ul>
                        {r.note.clone().map(|n| view! { <p class="muted">{n}</p> })}
                    </details>
                }
            })
            .collect_view();
        Some(view! {
            <h3>"Prompt optimization"</h3>
            <figure class="chart" data-testid="optimizer-chart">
                <svg viewBox=format!("0 0 {} {}", fixed(w, 0), fixed(h, 0)) role="img" aria-label="Overall score per game against the optimum">
                    {bars}
                    <line x1="0" x2=fixed(w, 0) y1=fixed(oy, 1) y2=fixed(oy, 1) stroke="#b3261e" stroke-dasharray="4 3"></line>
                </svg>
                <figcaption class="muted">{format!("Dashed line: the optimum, {optimum}")}</figcaption>
            </figure>
            {prompts}
        })
    }
}
