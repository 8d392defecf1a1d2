//! Round robin's panel: there is no decision to show, and nothing to set.

use leptos::prelude::*;

pub fn panel<V: crate::methods::shown::Shown>(_view: RwSignal<V>) -> AnyView {
    view! {
        <div class="panel" data-testid="round-robin-panel">
            <h2>"Round robin"</h2>
            <p class="gist" data-testid="panel-gist">"Agents speak in a fixed order"</p>
            <p class="muted">"Agents speak in a fixed order; there is no decision to show."</p>
        </div>
    }
    .into_any()
}

pub fn settings() -> AnyView {
    ().into_any()
}
