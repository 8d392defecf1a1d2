//! The page's two screens and what sits beside the stage.
//!
//! Opening Agora shows the start screen (the gallery, a saved run to open, the past runs);
//! opening a scenario shows its stage: one row of run controls, then the conversation and the
//! method's decisions filling the window. Everything else (the editor, sharing and files, the
//! statistics, the judge, batches, comparisons, the call inspector, the class's room) is a tab of
//! the drawer beside the stage, one click away, so nothing is ever stacked under the stage.

use leptos::prelude::*;

/// Which screen is shown and which drawer tab is open. `Copy`, so any component can take it.
#[derive(Clone, Copy)]
pub struct Layout {
    /// The stage (true) or the start screen (false).
    pub stage: RwSignal<bool>,
    /// The drawer tab open beside the stage (`""`: the drawer is closed).
    pub tab: RwSignal<&'static str>,
}

impl Layout {
    pub fn new() -> Self {
        Self { stage: RwSignal::new(false), tab: RwSignal::new("") }
    }

    /// Shows the stage, with the drawer as it was (the stage already shown is left alone, so
    /// nothing on it is drawn again).
    pub fn show_stage(&self) {
        if !self.stage.get_untracked() {
            self.stage.set(true);
        }
    }

    /// Opens `tab` in the drawer, or closes it when it is the one open.
    pub fn toggle(&self, tab: &'static str) {
        self.tab.update(|t| *t = if *t == tab { "" } else { tab });
    }
}

/// The drawer's tabs: the id (`data-testid="tab-<id>"`, the pane's `pane-<id>`) and the words
/// on its button.
pub const TABS: [(&str, &str); 8] = [
    ("scenario", "Scenario"),
    ("class", "Class"),
    ("files", "Share & files"),
    ("stats", "Statistics"),
    ("judge", "Judge"),
    ("batch", "Batch"),
    ("compare", "Compare"),
    ("inspector", "Inspector"),
];

/// The row of tab buttons that open the drawer; the open tab is marked by the stylesheet from
/// the bar's `data-tab`, and for assistive technology by `aria-expanded`.
#[component]
pub fn TabBar() -> impl IntoView {
    let layout = expect_context::<Layout>();
    let batch = expect_context::<super::Controller>().batch.open;
    let buttons = TABS
        .into_iter()
        .map(|(id, label)| {
            let open = move |_| {
                layout.toggle(id);
                // The batch's tab holds nothing else: its panel opens with it.
                if id == "batch" {
                    batch.set(true);
                }
            };
            view! {
                <button
                    class="tab"
                    data-tab=id
                    data-testid=format!("tab-{id}")
                    aria-controls="drawer"
                    aria-expanded=move || (layout.tab.get() == id).to_string()
                    on:click=open
                >
                    {label}
                </button>
            }
        })
        .collect_view();
    view! { <nav class="tabs" aria-label="Panels beside the stage">{buttons}</nav> }
}

/// One tab's content in the drawer: drawn once and kept (a batch or a room goes on while another
/// tab is shown), hidden while another tab is open.
pub fn pane(id: &'static str, content: impl IntoView + 'static) -> impl IntoView {
    let layout = expect_context::<Layout>();
    view! {
        <section class="pane" data-testid=format!("pane-{id}") hidden=move || layout.tab.get() != id>
            {content}
        </section>
    }
}

/// The drawer's frame: its title, the close button, and the panes.
#[component]
pub fn Drawer(children: Children) -> impl IntoView {
    let layout = expect_context::<Layout>();
    let title = move || TABS.iter().find(|(id, _)| *id == layout.tab.get()).map_or("", |(_, l)| *l);
    view! {
        <aside id="drawer" class="drawer" data-testid="drawer" aria-label=title hidden=move || layout.tab.get().is_empty()>
            <div class="drawer-head">
                <h2>{title}</h2>
                <button class="dismiss" data-testid="drawer-close" aria-label="Close the panel" on:click=move |_| layout.tab.set("")>
                    "×"
                </button>
            </div>
            {children()}
        </aside>
    }
}
