//! Random: each turn's draw (who could be drawn, who was) and the one setting.

use crate::i18n::{say, t, tf};
use std::sync::Arc;

use leptos::prelude::*;

use crate::ui::form::check_field;
use crate::ui::kit::{update_method, with_method};
use crate::ui::rows::chunked;
use crate::view::RunView;

/// The draws, newest first.
fn draws(view: RwSignal<RunView>) -> impl IntoView {
    let count = Memo::new(move |_| view.with(|v| v.picks().len()));
    view! {
        <div class="panel" data-testid="random-panel">
            <h2>{t(say::MethodRandom)}</h2>
            <p class="gist" data-testid="panel-gist">{t(say::RandomGist)}</p>
            <p class="muted">{t(say::RandomExplain)}</p>
            <ol class="selections">
                {chunked(
                    count,
                    Arc::new(move |a, b| {
                        view.with(|v| v.picks().iter().skip(a).take(b - a).map(|p| p.turn as u64).collect())
                    }),
                    Arc::new(move |i| {
                        let pick = view.with_untracked(|v| v.picks().get(i).cloned())?;
                        let among = if pick.tie {
                            crate::events::draw_note(&pick.tied)
                        } else {
                            t(say::RandomOnlyOne).to_string()
                        };
                        Some(
                            view! {
                                <li class="selection" data-testid="draw" data-agent=pick.agent.clone()>
                                    <span class="muted">{tf(say::TurnDot, &[("turn", &pick.turn)])}</span>
                                    <strong>{pick.agent.clone()}</strong>
                                    <div class="muted candidates" data-testid="draw-candidates">{among}</div>
                                </li>
                            }
                            .into_any(),
                        )
                    }),
                    true,
                )}
            </ol>
        </div>
    }
}

pub fn panel(view: RwSignal<RunView>) -> AnyView {
    untrack(move || draws(view).into_any())
}

pub fn settings() -> AnyView {
    view! {
        <div class="row">
            {check_field(
                t(say::SetDrawnAgain),
                "field-method.allow_repeats",
                |s| with_method!(s, Random, |m| m.allow_repeats, false),
                |s, on| update_method!(s, Random, |m| m.allow_repeats = on),
            )}
        </div>
    }
    .into_any()
}
