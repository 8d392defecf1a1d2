//! The page's two screens and what sits beside the stage.
//!
//! Opening Agora shows the start screen (the gallery, a saved run to open, the past runs);
//! opening a scenario shows its stage: one row of run controls, then the conversation and the
//! method's decisions filling the window. Everything else (the editor, sharing and files, the
//! statistics, the judge, batches, comparisons, the call inspector, the class's room) is a tab of
//! the drawer beside the stage, one click away, so nothing is ever stacked under the stage.

use crate::i18n::say;
use leptos::prelude::*;

/// Which screen is shown and which drawer tab is open. `Copy`, so any component can take it.
#[derive(Clone, Copy)]
pub struct Layout {
    /// The stage (true) or the start screen (false).
    pub stage: RwSignal<bool>,
    /// The drawer tab open beside the stage (none: the drawer is closed).
    pub tab: RwSignal<Option<Tab>>,
}

/// The widest window laid out as a phone's (style/app.css's `max-width: 899px`), where an open
/// tab takes the stage's place under the run's controls.
const PHONE_MAX_WIDTH: f64 = 899.0;

/// A tab of the drawer beside the stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Scenario,
    Class,
    Files,
    Stats,
    Judge,
    Batch,
    Compare,
    Inspector,
}

impl Tab {
    /// Every tab, in the order of the tab bar.
    pub const ALL: [Tab; 8] = [
        Tab::Scenario,
        Tab::Class,
        Tab::Files,
        Tab::Stats,
        Tab::Judge,
        Tab::Batch,
        Tab::Compare,
        Tab::Inspector,
    ];

    /// Its name on the page (`data-tab`, `data-testid="tab-<id>"`, the pane's `pane-<id>`).
    pub fn id(self) -> &'static str {
        match self {
            Tab::Scenario => "scenario",
            Tab::Class => "class",
            Tab::Files => "files",
            Tab::Stats => "stats",
            Tab::Judge => "judge",
            Tab::Batch => "batch",
            Tab::Compare => "compare",
            Tab::Inspector => "inspector",
        }
    }

    /// The words on its button, and the drawer's title while it is open.
    pub fn label(self) -> &'static str {
        match self {
            Tab::Scenario => crate::i18n::t(say::TabScenario),
            Tab::Class => crate::i18n::t(say::TabClass),
            Tab::Files => crate::i18n::t(say::TabFiles),
            Tab::Stats => crate::i18n::t(say::TabStats),
            Tab::Judge => crate::i18n::t(say::TabJudge),
            Tab::Batch => crate::i18n::t(say::TabBatch),
            Tab::Compare => crate::i18n::t(say::TabCompare),
            Tab::Inspector => crate::i18n::t(say::TabInspector),
        }
    }
}

/// The name the page carries for the open tab (`data-tab`; empty: none is open).
pub fn tab_id(tab: Option<Tab>) -> &'static str {
    tab.map_or("", Tab::id)
}

impl Layout {
    pub fn new() -> Self {
        Self { stage: RwSignal::new(false), tab: RwSignal::new(None) }
    }

    /// Shows the stage, with the drawer as it was (the stage already shown is left alone, so
    /// nothing on it is drawn again).
    pub fn show_stage(&self) {
        if !self.stage.get_untracked() {
            self.stage.set(true);
        }
    }

    /// Closes the drawer where it hides the stage (a phone), so a run just started, with its
    /// speeches and a seat's questions, is in sight.
    pub fn uncover_stage(&self) {
        let width = web_sys::window().and_then(|w| w.inner_width().ok()).and_then(|w| w.as_f64());
        if width.is_some_and(|w| w <= PHONE_MAX_WIDTH) {
            self.tab.set(None);
        }
    }

    /// Opens `tab` in the drawer, or closes it when it is the one open.
    pub fn toggle(&self, tab: Tab) {
        self.tab.update(|t| *t = if *t == Some(tab) { None } else { Some(tab) });
    }
}

/// The row of tab buttons that open the drawer; the open tab is marked by the stylesheet from
/// the bar's `data-tab`, and for assistive technology by `aria-expanded`.
#[component]
pub fn TabBar() -> impl IntoView {
    let layout = expect_context::<Layout>();
    let batch = expect_context::<super::Controller>().batch.open;
    let buttons = Tab::ALL
        .into_iter()
        .map(|tab| {
            let open = move |_| {
                layout.toggle(tab);
                // The batch's tab holds nothing else: its panel opens with it.
                if tab == Tab::Batch {
                    batch.set(true);
                }
            };
            view! {
                <button
                    class="tab"
                    data-tab=tab.id()
                    data-testid=format!("tab-{}", tab.id())
                    aria-controls="drawer"
                    aria-expanded=move || (layout.tab.get() == Some(tab)).to_string()
                    on:click=open
                >
                    {tab.label()}
                </button>
            }
        })
        .collect_view();
    view! { <nav class="tabs" aria-label=crate::i18n::t(say::TabsLabel)>{buttons}</nav> }
}

/// One tab's content in the drawer: drawn once and kept (a batch or a room goes on while another
/// tab is shown), hidden while another tab is open.
pub fn pane(tab: Tab, content: impl IntoView + 'static) -> impl IntoView {
    let layout = expect_context::<Layout>();
    view! {
        <section class="pane" data-testid=format!("pane-{}", tab.id()) hidden=move || layout.tab.get() != Some(tab)>
            {content}
        </section>
    }
}

/// The drawer's frame: its title, the close button, and the panes.
#[component]
pub fn Drawer(children: Children) -> impl IntoView {
    let layout = expect_context::<Layout>();
    let title = move || layout.tab.get().map_or("", Tab::label);
    view! {
        <aside id="drawer" class="drawer" data-testid="drawer" tabindex="0" aria-label=title hidden=move || layout.tab.get().is_none()>
            <div class="drawer-head">
                <h2>{title}</h2>
                <button class="dismiss" data-testid="drawer-close" aria-label=crate::i18n::t(say::ClosePanel) on:click=move |_| layout.tab.set(None)>
                    "×"
                </button>
            </div>
            {children()}
        </aside>
    }
}
