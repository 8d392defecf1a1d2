//! A tournament's leaderboard on the stage, opened from the file `agora tournament` writes
//! ([`crate::tournament::Board`], read in the tools chunk): each rating with its interval on one
//! scale, how often the orders agreed, and each dimension's records.

use crate::i18n::{say, t, tf};
use leptos::prelude::*;

use crate::text::fixed;
use crate::tournament::Board;

/// The leaderboard's panel; `close` takes it off the stage.
pub fn panel(board: &Board, close: impl Fn() + Send + Sync + 'static) -> impl IntoView {
    let rows = board
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let (left, width, mark) = r.interval;
            let [won, tied, lost] = r.record;
            view! {
                <tr data-method=r.method.clone()>
                    <td>{i + 1}</td>
                    <th scope="row">{crate::scenario::MethodKind::id_words(&r.method).to_string()}</th>
                    <td>{r.rating.clone()}</td>
                    <td>
                        <span class="interval" aria-hidden="true">
                            <span style=format!("left:{}%;width:{}%", fixed(left, 1), fixed(width, 1))></span>
                            <i style=format!("left:{}%", fixed(mark, 1))></i>
                        </span>
                        {tf(say::BoardRange, &[("low", &r.low), ("high", &r.high)])}
                    </td>
                    <td>{won}</td>
                    <td>{tied}</td>
                    <td>{lost}</td>
                </tr>
            }
        })
        .collect_view();
    let dimensions = board.dimensions.as_ref().map(|all| {
        let tables = all
            .iter()
            .map(|(dimension, records)| {
                let rows = records
                    .iter()
                    .map(|(m, [w, d, l])| {
                        view! { <tr data-method=m.clone()><th scope="row">{crate::scenario::MethodKind::id_words(m).to_string()}</th><td>{*w}</td><td>{*d}</td><td>{*l}</td></tr> }
                    })
                    .collect_view();
                view! {
                    <table class="leaderboard" data-dimension=dimension.clone()>
                        <caption>{crate::judge::rubric::Dimension::shown(dimension).to_string()}</caption>
                        <thead><tr><th scope="col">{t(say::EdMethod)}</th><th scope="col">{t(say::BoardWon)}</th><th scope="col">{t(say::BoardTied)}</th><th scope="col">{t(say::BoardLost)}</th></tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                }
            })
            .collect_view();
        view! { <details data-testid="leaderboard-dimensions"><summary>{t(say::BoardEachDimension)}</summary>{tables}</details> }
    });
    view! {
        <section class="panel leaderboard" data-testid="leaderboard" aria-label=t(say::BoardLabel)>
            <h2>{t(say::BoardTitle)}</h2>
            <div class="scrolls">
                <p class="muted" data-testid="leaderboard-by">{board.by.clone()}</p>
                <table class="leaderboard" data-testid="leaderboard-table">
                    <thead>
                        <tr>
                            <th scope="col">"#"</th>
                            <th scope="col">{t(say::EdMethod)}</th>
                            <th scope="col">{t(say::BoardRating)}</th>
                            <th scope="col">{t(say::BoardInterval)}</th>
                            <th scope="col">{t(say::BoardWon)}</th>
                            <th scope="col">{t(say::BoardTied)}</th>
                            <th scope="col">{t(say::BoardLost)}</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
                <p data-testid="leaderboard-agreement">{board.agreement.clone()}</p>
                {dimensions}
            </div>
            <button data-testid="leaderboard-close" on:click=move |_| close()>{t(say::BoardClose)}</button>
        </section>
    }
}
