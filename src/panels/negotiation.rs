//! The trading game: inventories, the pending proposal, every action, scores, the optimizer;
//! and the game's settings.

use crate::i18n::{say, t, tf};
use std::sync::Arc;

use leptos::prelude::*;

use crate::methods::negotiation::view::{ActionRow, NegotiationView};
use crate::text::fixed;
use crate::ui::form::{number_field, text_field, EditorState, FieldMessage};
use crate::ui::kit::{update_method, with_method};
use crate::ui::rows::chunked;
use crate::view::RunView;

/// The trading game: inventories, the pending proposal, every action, scores, the optimizer.
fn negotiation_panel(view: RwSignal<RunView>) -> impl IntoView {
    let count = Memo::new(move |_| view.with(|v| v.negotiation().map_or(0, |g| g.actions.len())));
    view! {
        <div class="panel" data-testid="negotiation-panel">
            <h2>{t(say::TradingGame)}</h2>
            <p class="gist" data-testid="panel-gist">{t(say::TradingGist)}</p>
            <div>{move || view.with(|v| v.negotiation().map(game_state))}</div>
            <div>{move || view.with(|v| v.negotiation().and_then(|g| optimizer_chart(&g.optimizer, g.optimum)))}</div>
            // The rules and the goal until the first move, under the game (whose inventories a seat
            // asked to trade must see first); then the game has the room.
            {move || (count.get() == 0).then(|| view! {
                <p class="muted" data-testid="negotiation-rules">{t(say::TradingRules)}</p>
            })}
            <h3>{t(say::TradingActions)}</h3>
            <ol class="actions">
                {chunked(
                    count,
                    Arc::new(move |a, b| {
                        view.with(|v| {
                            let actions = v.negotiation().map(|g| g.actions.as_slice()).unwrap_or_default();
                            actions.iter().skip(a).take(b - a).map(|x| x.turn as u64).collect()
                        })
                    }),
                    Arc::new(move |i| {
                        let action = view
                            .with_untracked(|v| v.negotiation().and_then(|g| g.actions.get(i).cloned()))?;
                        Some(view! { <ActionEntry action=action /> }.into_any())
                    }),
                    true,
                )}
            </ol>
        </div>
    }
}

/// The game on screen: the inventories, the overall score against the optimum, the proposal
/// pending and the games played.
fn game_state(game: &NegotiationView) -> impl IntoView + use<> {
    let overall = game.overall();
    let pct = if game.optimum > 0 { (overall * 100 / game.optimum).clamp(0, 100) } else { 0 };
    let heads = game.resources.iter().map(|r| view! { <th scope="col">{r.clone()}</th> }).collect_view();
    let rows = game
        .inventories
        .iter()
        .map(|(player, inv)| {
            let value = game.values.get(player).copied().unwrap_or(0);
            let cells = inv.iter().map(|q| view! { <td>{*q}</td> }).collect_view();
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
        (Some(p), _) => {
            crate::methods::negotiation::words::pending(&p.by, p.quantity, &p.sell_resource, &p.buy_resource)
        }
        (None, Some(who)) => tf(say::TradeEndAsked, &[("player", who)]),
        (None, None) => t(say::TradeNonePending).to_string(),
    };
    let results = game
        .games
        .iter()
        .map(|r| {
            let scores: Vec<String> = r.scores.iter().map(|(p, s)| format!("{p} {s}")).collect();
            let line = tf(
                say::GameResultLine,
                &[
                    ("n", &r.iteration),
                    ("scores", &scores.join(t(say::ListComma))),
                    ("overall", &r.overall),
                    ("optimum", &r.optimum),
                    ("why", &crate::methods::negotiation::words::game_end(&r.reason)),
                ],
            );
            view! { <li data-testid="game-result" data-iteration=r.iteration data-overall=r.overall>{line}</li> }
        })
        .collect_view();
    let optimum = game.optimum;
    view! {
        <p class="muted">{tf(say::GameN, &[("n", &game.iteration)])}</p>
        <table class="inventories">
            <thead>
                <tr>
                    <th></th>
                    {heads}
                    <th scope="col">{t(say::TradingValue)}</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
        <div class="score" data-testid="overall" data-overall=overall data-optimum=optimum>
            <span>{tf(say::TradingOverall, &[("overall", &overall), ("optimum", &optimum)])}</span>
            <span class="meter">
                <span class="fill" style=format!("width:{pct}%")></span>
            </span>
        </div>
        <p class="pending" data-testid="pending">{pending}</p>
        <ol class="results">{results}</ol>
    }
}

#[component]
fn ActionEntry(action: Arc<ActionRow>) -> impl IntoView {
    // The move in the words the transcript uses, with what the player sent one click away.
    let line = crate::methods::negotiation::words::move_line(
        &action.player,
        action.action.as_ref(),
        action.valid,
        &action.reason,
    );
    let sent = action.action.as_ref().map_or_else(|| action.raw.clone(), |a| a.to_json());
    view! {
        <li class="action" class:invalid=!action.valid data-testid="action" data-player=action.player.clone() data-valid=action.valid.to_string()>
            <span class="muted">{tf(say::TurnDot, &[("turn", &action.turn)])}</span>
            <span data-testid="action-line">{line}</span>
            <details class="raw">
                <summary>{t(say::TradingSent)}</summary>
                <code>{sent}</code>
            </details>
        </li>
    }
}

/// The overall score per game, against the optimum, with each game's prompts; `None` before
/// the first game ends.
fn optimizer_chart(
    rows: &[crate::methods::negotiation::view::OptimizerRow],
    optimum: i64,
) -> Option<impl IntoView + use<>> {
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
                    <text x=fixed(i as f64 * bw + bw / 2.0, 1) y=fixed(h - bh - 3.0, 1) text-anchor="middle">{r.overall}</text>
                    <text class="tick" data-testid="optimizer-game" x=fixed(i as f64 * bw + bw / 2.0, 1) y=fixed(h + 10.0, 1) text-anchor="middle">{r.iteration}</text>
                </g>
            }
        })
        .collect_view();
    let oy = fixed(h - (h - 16.0) * optimum as f64 / top, 1);
    let games = rows
        .iter()
        .map(|r| {
            // A strategy is what the player's model reads: its words as written.
            let prompts = r
                .prompts
                .iter()
                .map(|(p, text)| view! { <li>{format!("{p}: ")}<span class="prompt-text">{text.clone()}</span></li> })
                .collect_view();
            let note = r.note.as_deref().map(|n| view! { <p class="muted">{crate::methods::negotiation::words::optimizer_note(n)}</p> });
            view! {
                <details class="iteration" data-testid="optimizer-iteration">
                    <summary>{tf(say::OptimizerGame, &[("n", &r.iteration), ("overall", &r.overall)])}</summary>
                    <ul>{prompts}</ul>
                    {note}
                </details>
            }
        })
        .collect_view();
    Some(view! {
        <h3>{t(say::OptimizerHeading)}</h3>
        <figure class="chart" data-testid="optimizer-chart">
            <svg viewBox=format!("0 0 {} {}", fixed(w, 0), fixed(h + 13.0, 0)) role="img" aria-label=t(say::OptimizerChartLabel)>
                {bars}
                <line x1="0" x2=fixed(w, 0) y1=fixed(h, 0) y2=fixed(h, 0) stroke="#888"></line>
                <line x1="0" x2=fixed(w, 0) y1=oy.clone() y2=oy stroke="#b3261e" stroke-dasharray="4 3"></line>
            </svg>
            <figcaption class="muted">{tf(say::OptimizerDashed, &[("optimum", &optimum)])}</figcaption>
        </figure>
        {games}
    })
}

pub fn panel(view: RwSignal<RunView>) -> AnyView {
    untrack(move || negotiation_panel(view).into_any())
}

pub fn settings() -> AnyView {
    let editor = expect_context::<EditorState>();
    let inventory = move |player: usize| {
        let field: &'static str = if player == 0 { "method.inventories[0]" } else { "method.inventories[1]" };
        let label: &'static str =
            if player == 0 { t(say::SetFirstInventory) } else { t(say::SetSecondInventory) };
        text_field(
            label,
            field,
            move |s| {
                with_method!(
                    s,
                    Negotiation,
                    |m| m
                        .inventories
                        .get(player)
                        .map(|inv| inv.iter().map(i64::to_string).collect::<Vec<_>>().join(", "))
                        .unwrap_or_default(),
                    String::new()
                )
            },
            move |s, text| {
                let parsed: Result<Vec<i64>, _> =
                    text.split(',').map(str::trim).filter(|t| !t.is_empty()).map(str::parse).collect();
                match parsed {
                    Ok(values) => {
                        editor.set_input_error(field, None);
                        update_method!(s, Negotiation, |m| {
                            if let Some(inv) = m.inventories.get_mut(player) {
                                *inv = values;
                            }
                        });
                    }
                    Err(_) => editor.set_input_error(field, Some(t(say::SetWholeNumbers).into())),
                }
            },
            false,
        )
    };
    view! {
        {text_field(
            t(say::SetResources),
            "method.resources",
            |s| with_method!(s, Negotiation, |m| m.resources.join(", "), String::new()),
            |s, v| {
                update_method!(s, Negotiation, |m| {
                    m.resources = v.split(',').map(|r| r.trim().to_ascii_uppercase()).filter(|r| !r.is_empty()).collect()
                })
            },
            false,
        )}
        <p class="muted">{t(say::SetQuantities)}</p>
        <div class="row">{inventory(0)} {inventory(1)}</div>
        <div class="row">
            {number_field(
                t(say::SetGames),
                "method.iterations",
                |s| with_method!(s, Negotiation, |m| m.iterations, 0),
                |s, v| update_method!(s, Negotiation, |m| m.iterations = v),
            )}
        </div>
        <p class="muted">{t(say::SetTurnLimitEach)}</p>
        <FieldMessage field="agents" />
        <FieldMessage field="method.value_scale" />
    }
    .into_any()
}
