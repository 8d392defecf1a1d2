//! Round robin's panel: there is no decision to show, and nothing to set.

use crate::i18n::{say, t};
use leptos::prelude::*;

pub fn panel(_view: RwSignal<crate::view::RunView>) -> AnyView {
    view! {
        <div class="panel" data-testid="round-robin-panel">
            <h2>{t(say::MethodRoundRobin)}</h2>
            <p class="gist" data-testid="panel-gist">{t(say::RoundRobinGist)}</p>
            <p class="muted">{t(say::RoundRobinExplain)}</p>
        </div>
    }
    .into_any()
}

pub fn settings() -> AnyView {
    ().into_any()
}
