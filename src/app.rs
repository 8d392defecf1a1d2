//! The browser app: pick or write a scenario, run it on the demo model, and watch every decision.
//!
//! One program split where it is used (docs/architecture.md). This file is the first page: the
//! start screen's header and gallery, which a visitor can click before anything else arrives.
//! Everything else (the stage, the controller that runs the engine, the editor, every drawer tab)
//! is the workspace ([`workspace`]), a chunk fetched as soon as the start screen is up and drawn
//! into the [`Slots`] the start screen leaves for it. Components only render the run's
//! [`RunView`](crate::view::RunView) (the event log folded) and send commands to the
//! [`Controller`]; nothing shown is computed a second time here.

mod batch;
pub mod browser;
pub mod builtin;
pub mod compare;
pub mod comparison;
pub mod demo;
mod driver;
mod editor;
pub mod fetch;
mod inspector;
pub mod intab;
mod intab_panel;
mod judge;
mod keys;
mod lang;
mod leaderboard;
pub(crate) mod methods;
mod models;
mod projector;
mod room;
pub mod room_live;
mod seat;
mod share;
mod stage;
mod storage;
mod templates;
mod tools;
mod transcript;
mod workspace;

use leptos::prelude::*;

use crate::i18n::{say, t};

pub use driver::{Controller, Mode};
pub use methods::method_label;
pub(crate) use workspace::MethodPanel;

/// Starts the page the program was loaded by: a student's phone in a class's room (phone.html,
/// whose body is a `phone-page`), else the app, mounted into the page body.
pub fn start() {
    console_error_panic_hook::set_once();
    let body = web_sys::window().and_then(|w| w.document()).and_then(|d| d.body());
    if body.is_some_and(|b| b.class_list().contains("phone-page")) {
        return phone();
    }
    // A visit in Chinese fetches its words before drawing anything (a start screen drawn in
    // English and redrawn would flash); the static shell stays until then, its words hidden
    // (boot/start.js chose the language and leaves a shell that waits for the words).
    match lang::of_page() {
        crate::i18n::Lang::En => leptos::mount::mount_to_body(App),
        other => {
            let shell =
                web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("shell"));
            if let Some(shell) = &shell {
                let _ = shell.set_attribute("data-wait", "words");
            }
            wasm_bindgen_futures::spawn_local(async move {
                lang::install(other).await;
                leptos::mount::mount_to_body(App);
                if let Some(shell) = shell {
                    shell.remove();
                }
            });
        }
    }
}

/// A student's phone: the room's screen, drawn by the tools' chunk from the join link; what
/// stops it said in its place.
fn phone() {
    // Mounting a view is what starts Leptos's executor, which the tools' futures run on; the
    // phone's screen is the tools chunk's, so nothing is drawn here until something stops it.
    leptos::mount::mount_to_body(|| ());
    leptos::task::spawn_local(async {
        let Err(why) = tools::answer_later(tools::phone_start()).await else { return };
        let document = web_sys::window().and_then(|w| w.document());
        let Some(main) = document.and_then(|d| d.query_selector("main").ok().flatten()) else { return };
        main.set_text_content(None);
        let main: web_sys::HtmlElement = wasm_bindgen::JsCast::unchecked_into(main);
        leptos::mount::mount_to(main, move || {
            view! {
                <p class="notice error" role="alert" data-testid="phone-error">
                    {t(say::PhoneRoomFailed)}{why}{t(say::PhoneRoomFailedEnd)}
                </p>
            }
        })
        .forget();
    });
}

/// Where the workspace draws its parts of the start screen and the stage, and what the start
/// screen asks of it: the places are empty until the workspace has arrived.
#[derive(Clone, Copy)]
pub struct Slots {
    /// Notices above everything (a saved scenario that could not be read, a link's message).
    pub notices: Slot,
    /// The model the scenario runs on, in the start screen's header.
    pub badge: Slot,
    /// Beside the gallery's heading: open the scenario on screen, open a saved run.
    pub head: Slot,
    /// Under the gallery's heading: what opening a file had to say.
    pub message: Slot,
    /// Beside the gallery: the past runs.
    pub past: Slot,
    /// The run screen.
    pub stage: Slot,
    /// The title of the scenario on screen, once the workspace holds one (its card is marked).
    pub title: RwSignal<Option<Signal<String>>>,
    /// A card clicked: the preset the workspace opens, as soon as it can.
    pub open: RwSignal<Option<&'static str>>,
    /// Why the workspace could not be fetched (then a card or "Try again" fetches it again).
    pub failed: RwSignal<Option<String>>,
}

/// A place in the page that a chunk fills with a view, once.
pub type Slot = RwSignal<Option<AnyView>, LocalStorage>;

impl Slots {
    fn new() -> Self {
        let slot = || RwSignal::new_local(None);
        Self {
            notices: slot(),
            badge: slot(),
            head: slot(),
            message: slot(),
            past: slot(),
            stage: slot(),
            title: RwSignal::new(None),
            open: RwSignal::new(None),
            failed: RwSignal::new(None),
        }
    }
}

/// Draws what a chunk put in `slot` (it is taken out: a view is mounted once).
fn place(slot: Slot) -> impl IntoView {
    move || {
        slot.track();
        slot.try_update_untracked(Option::take).flatten()
    }
}

/// A chunk of the page that could not be fetched (the network, or a server that lost it).
#[derive(Debug)]
pub struct Unfetched;

impl From<leptos::wasm_split::SplitLoaderError> for Unfetched {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> Self {
        Unfetched
    }
}

impl std::fmt::Display for Unfetched {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(crate::i18n::t(crate::i18n::say::Unfetched))
    }
}

/// Fetches the workspace (at most one fetch at a time; again after a failure) and lets it fill
/// the slots.
fn fetch_workspace(slots: Slots, owner: Owner) {
    thread_local! {
        static FETCHING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }
    if FETCHING.with(|f| f.replace(true)) {
        return;
    }
    slots.failed.set(None);
    leptos::task::spawn_local(async move {
        let done = workspace::mount(owner, slots).await;
        FETCHING.with(|f| f.set(false));
        if let Err(e) = done {
            slots.failed.set(Some(e.to_string()));
        }
    });
}

#[component]
pub fn App() -> impl IntoView {
    let layout = stage::Layout::new();
    provide_context(layout);
    let slots = Slots::new();
    provide_context(slots);
    if let Some(owner) = Owner::current() {
        fetch_workspace(slots, owner);
    }
    // The demo model is the first thing a visitor runs: its chunk comes beside the workspace's
    // (the workspace waits for it before the service worker may copy it).
    leptos::task::spawn_local(async {
        let _ = demo::load().await;
    });
    view! {
        {place(slots.notices)}
        <Start slots=slots />
        {place(slots.stage)}
    }
}

/// The start screen: the gallery, and (from the workspace) a saved run to open and the past runs.
#[component]
fn Start(slots: Slots) -> impl IntoView {
    let layout = expect_context::<stage::Layout>();
    let owner = Owner::current();
    let retry = move |_| {
        if let Some(owner) = owner.clone() {
            fetch_workspace(slots, owner);
        }
    };
    view! {
        <header class="top">
            <div>
                <h1>"Agora"</h1>
                <p class="tagline">{t(say::Tagline)}</p>
            </div>
            {place(slots.badge)}
        </header>
        <main class="start" data-testid="start" hidden=move || layout.stage.get()>
            <section class="gallery" aria-label=t(say::Scenarios)>
                <div class="gallery-head">
                    <h2>{t(say::PickScenario)}</h2>
                    {place(slots.head)}
                </div>
                {place(slots.message)}
                {move || slots.failed.get().map(|why| view! {
                    <p class="notice error" data-testid="workspace-failed" role="alert">
                        {why} " "
                        <button data-testid="workspace-retry" on:click=retry.clone()>{t(say::TryAgain)}</button>
                    </p>
                })}
                <Gallery slots=slots />
            </section>
            {place(slots.past)}
        </main>
    }
}

/// The presets' cards. A click asks the workspace to open the preset; until it has arrived the
/// card says it is opening, and the stage opens as soon as the workspace can show it.
#[component]
fn Gallery(slots: Slots) -> impl IntoView {
    let owner = Owner::current();
    view! {
        <ul class="presets" data-testid="preset-list">
            {crate::presets::CARDS
                .iter()
                .map(|card| {
                    let current = move || {
                        slots.title.with(|t| t.is_some_and(|t| t.with(|t| t == card.title)))
                    };
                    let opening = move || slots.open.get() == Some(card.id);
                    let owner = owner.clone();
                    let words = crate::i18n::card(card.id, card.title, card.summary);
                    view! {
                        <li class="preset" class:current=current data-testid=format!("preset-{}", card.id)>
                            <button
                                class="preset-open"
                                data-testid=format!("open-{}", card.id)
                                aria-busy=move || opening().then_some("true")
                                on:click=move |_| {
                                    slots.open.set(Some(card.id));
                                    if slots.failed.get_untracked().is_some() {
                                        if let Some(owner) = owner.clone() {
                                            fetch_workspace(slots, owner);
                                        }
                                    }
                                }
                            >
                                <span class="method-tag">{card.kind.words()}</span>
                                <h3>{words.0}</h3>
                                <p>{words.1}</p>
                                {move || opening().then(|| view! { <span class="opening" role="status">{t(say::Opening)}</span> })}
                            </button>
                        </li>
                    }
                })
                .collect_view()}
        </ul>
    }
}
