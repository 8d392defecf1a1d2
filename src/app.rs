//! The browser app shell. This scope is a shell that mounts and lists the presets; the
//! full live view arrives with the browser-app work.

use leptos::prelude::*;

use crate::presets::PRESETS;

/// Mounts the app into the page body.
pub fn start() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
}

#[component]
pub fn App() -> impl IntoView {
    let presets: Vec<(String, String, String)> = PRESETS
        .iter()
        .map(|p| {
            let s = p.scenario();
            (p.id.to_string(), s.title, s.summary)
        })
        .collect();
    view! {
        <header class="top">
            <h1>"Agora"</h1>
            <p class="tagline">"Multi-agent dialogue simulations, every decision visible."</p>
        </header>
        <main>
            <h2>"Scenarios"</h2>
            <ul class="presets" data-testid="preset-list">
                {presets
                    .into_iter()
                    .map(|(id, title, summary)| {
                        view! {
                            <li class="preset" data-testid=format!("preset-{id}")>
                                <h3>{title}</h3>
                                <p>{summary}</p>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </main>
    }
}
