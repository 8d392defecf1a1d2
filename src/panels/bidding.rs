//! Bidding: the bid board (each agent's bid per turn, retries, defaults, the tie-break, the
//! winner, a chart of bids across turns) and the bidding settings.

use crate::i18n::{say, t, tf};
use std::sync::Arc;

use leptos::prelude::*;

use crate::methods::bidding::view::BidTurn;
use crate::text::fixed;
use crate::ui::form::number_field;
use crate::ui::kit::{color, raw_reply, update_method, why, with_method};
use crate::ui::rows::{chunked, key};
use crate::view::RunView;

/// Bids per turn, newest first, with a small chart of every agent's bids across turns.
fn bid_board(view: RwSignal<RunView>) -> impl IntoView {
    let count = Memo::new(move |_| view.with(|v| v.bid_turns().len()));
    let empty = move || count.get() == 0;
    view! {
        <div class="panel" data-testid="bid-board">
            <h2>{t(say::BidBoard)}</h2>
            <p class="gist" data-testid="panel-gist">{t(say::BidGist)}</p>
            <p class="muted">{t(say::BidExplain)}</p>
            {bid_chart(view)}
            {move || empty().then(|| view! {
                <p class="muted empty">{t(say::BidsAppear)}</p>
            })}
            <ol class="boards">
                {chunked(
                    count,
                    // A turn changes as its bids come in and once more when its winner is known (or
                    // the run ends before there is one).
                    Arc::new(move |a, b| {
                        view.with(|v| {
                            v.bid_turns()
                                .iter()
                                .skip(a)
                                .take(b - a)
                                .map(|t| {
                                    let cut = t.cut_short(v.finished());
                                    let marks = t.winner.is_some() as u64 + 2 * t.given.is_some() as u64 + 4 * cut as u64;
                                    key(&[t.turn as u64, t.bids.len() as u64, marks])
                                })
                                .collect()
                        })
                    }),
                    Arc::new(move |i| {
                        let (board, ended) = view.with_untracked(|v| (v.bid_turns().get(i).cloned(), v.finished()));
                        let board = board?;
                        let cut = board.cut_short(ended);
                        Some(view! { <Board board=board cut=cut /> }.into_any())
                    }),
                    true,
                )}
            </ol>
        </div>
    }
}

/// A turn's bids: each bid's agent, bar, value, the raw reply one click away, the reasoning and
/// its note; then the tie-break and a floor given by the class.
#[component]
fn Board(board: Arc<BidTurn>, cut: bool) -> impl IntoView {
    let winner = board.winner.as_deref();
    // Who spoke: the class's choice where it gave the floor, else the highest bid.
    let speaker = board.given.as_ref().map(|(agent, _)| agent.as_str()).or(winner);
    let speaker =
        speaker.map(|w| view! { <span class="winner-name">{tf(say::BidSpeaks, &[("name", &w)])}</span> });
    let bids = board
        .bids
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let won = if winner == Some(b.agent.as_str()) { " winner" } else { "" };
            let defaulted = if b.defaulted { " defaulted" } else { "" };
            let note = crate::methods::bidding::words::bid_note(b.value, b.attempts, b.defaulted)
                .map(|n| view! { <span class="note" data-testid="bid-note">{n}</span> });
            let shown = if b.raw.is_empty() { t(say::EmptyReplyShown) } else { &b.raw };
            view! {
                <li class=format!("bid{won}{defaulted}") data-testid="bid" data-agent=b.agent.clone() data-value=b.value title=tf(say::RawReplyTitle, &[("raw", &b.raw)])>
                    <span class="agent">{b.agent.clone()}</span>
                    <span class="bar-track">
                        <span class="bar" style=format!("width:{}%;background:{}", (b.value.clamp(0, 10) * 10).max(2), color(i))></span>
                    </span>
                    <span class="value" data-testid="bid-value">{b.value}</span>
                    {raw_reply(shown)}
                    {why(&b.why)}
                    {note}
                </li>
            }
        })
        .collect_view();
    let tie = board
        .tie
        .then(|| view! { <p class="tie" data-testid="tie-note">{crate::events::draw_note(&board.tied)}</p> });
    let given = board
        .given
        .as_ref()
        .map(|(_, note)| view! { <p class="tie" data-testid="board-given">{note.clone()}</p> });
    view! {
        <li class="board" data-testid="bid-turn" data-turn=board.turn data-winner=board.winner.clone().unwrap_or_default()>
            <h3>{tf(say::TurnTitle, &[("turn", &board.turn)])} {speaker}</h3>
            <ul class="bids">{bids}</ul>
            {tie}
            {given}
            {cut.then(|| view! { <p class="tie" data-testid="board-cut">{t(say::BoardCut)}</p> })}
        </li>
    }
}

/// How many recent turns the bid chart shows.
const CHART_TURNS: usize = 60;

/// A line per agent of its bids across the recent turns.
fn bid_chart(view: RwSignal<RunView>) -> impl IntoView {
    let history = move || view.with(|v| v.bid_history(CHART_TURNS));
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
                <svg viewBox=format!("0 0 {} {}", fixed(w, 0), fixed(h, 0)) role="img" aria-label=t(say::BidChartLabel)>
                    {lines}
                </svg>
                <figcaption class="legend">{legend}</figcaption>
            </figure>
        })
    }
}

pub fn panel(view: RwSignal<RunView>) -> AnyView {
    untrack(move || bid_board(view).into_any())
}

pub fn settings() -> AnyView {
    view! {
        <div class="row">
            {number_field(
                t(say::SetAttemptsPerBid),
                "method.attempts",
                |s| with_method!(s, Bidding, |m| m.attempts, 0),
                |s, v| update_method!(s, Bidding, |m| m.attempts = v),
            )}
            {number_field(
                t(say::SetDefaultBid),
                "method.default_bid",
                |s| with_method!(s, Bidding, |m| m.default_bid, 0),
                |s, v| update_method!(s, Bidding, |m| m.default_bid = v),
            )}
        </div>
    }
    .into_any()
}
