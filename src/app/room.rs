//! The class's room on the teacher's page (`crate::room`): the button that opens it, the place
//! of the panel the tools chunk draws (`app::room_live`), and the page's half of the
//! conversation. The run's events and a seat's question go to the room as they come; what the
//! room asks of the run (a seat's answer with who gave it, an interjection accepted, a vote, the
//! floor given) comes back as a [`ForPage`] through the callback the panel was opened with. The
//! run itself, the key and the log never leave the page.

use std::cell::Cell;

use std::rc::Rc;

use leptos::prelude::*;

use crate::i18n::{say, t};

use crate::room::host::ForPage;

use crate::app::driver::Controller;

thread_local! {
    static OPEN: Cell<bool> = const { Cell::new(false) };
}

/// Tells the open room what `tell` gives (nothing when no room is open).
fn tell(tell: impl FnOnce() -> Told + 'static) {
    if OPEN.get() {
        leptos::task::spawn_local(async move {
            let _ = tell().await;
        });
    }
}

/// What telling the room comes to: done, once the tools are there.
type Told = futures::future::LocalBoxFuture<'static, Result<(), crate::app::Unfetched>>;

/// The run's events from the `from`th on, for the phones.
pub fn events(from: usize, events: &[crate::events::Event]) {
    if OPEN.get() {
        let lines = crate::events::to_json_lines(events);
        tell(move || Box::pin(crate::app::tools::room_events(from, lines)));
    }
}

/// The question seat `agent` is asked now (as JSON), for the phone that holds it; none: it is
/// closed.
pub fn ask(agent: String, question: Option<String>) {
    tell(move || Box::pin(crate::app::tools::room_ask(Some(agent), question)));
}

/// Carries out what the room asks of the run.
fn carry_out(c: Controller, what: ForPage) {
    let done = match what {
        ForPage::Answer { agent, answer, by } => {
            if let Some(answer) = crate::seat::Answer::from_line(&answer) {
                c.desk.send(Some(&agent), answer, by);
            }
            Ok(())
        }
        ForPage::Interject { by, text } => c.interject(&by, &text),
        ForPage::Vote { by, agent } => c.vote(&by, &agent),
        ForPage::Floor { agent } => c.give_floor(&agent),
    };
    if let Err(e) = done {
        c.notice.set(e);
    }
}

/// "Open a room for phones", then the room's panel, drawn by the tools chunk in its place.
#[component]
pub fn Room() -> impl IntoView {
    let c = expect_context::<Controller>();
    let scenario = expect_context::<crate::ui::form::EditorState>().scenario;
    let owner = StoredValue::new(Owner::current());
    let panel: super::Slot = RwSignal::new_local(None);
    let opened = RwSignal::new(false);
    on_cleanup(|| OPEN.set(false));
    let start = move |_| {
        let Some(owner) = owner.get_value() else { return };
        opened.set(true);
        OPEN.set(true);
        let seats = scenario.with_untracked(|s| s.seats.clone());
        let lines = c.with_events(crate::events::to_json_lines);
        // What the room asks of the run, for as long as the page's workspace is up.
        let page: Rc<dyn Fn(ForPage)> = Rc::new(move |what| {
            if OPEN.get() {
                carry_out(c, what)
            }
        });
        leptos::task::spawn_local(async move {
            match crate::app::tools::room_view(owner, seats, lines, page).await {
                Ok(view) => drop(panel.try_set(Some(view))),
                Err(e) => {
                    OPEN.set(false);
                    let _ = opened.try_set(false);
                    c.notice.set(String::from(e));
                }
            }
        });
    };
    view! {
        <div class="room" data-testid="room">
            <div data-testid="room-panel">
                {move || (!opened.get()).then(|| view! {
                    <button data-testid="room-open" title=t(say::RoomOpenTitle) on:click=start>
                        {t(say::RoomOpen)}
                    </button>
                })}
                {super::place(panel)}
            </div>
        </div>
    }
}
