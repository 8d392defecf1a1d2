//! The class's room on the teacher's page (`crate::room`): the button that opens it and the
//! panel the tools module draws and keeps up to date (`app::room_live`), and the page's half of
//! the conversation. The run's events and a seat's question go to the room as they come; what
//! the room asks of the run (a seat's answer with who gave it, an interjection accepted, a vote,
//! the floor given) comes back as an `agora-room` event on the window. The run itself, the key
//! and the log never leave the page.

use std::cell::Cell;

use leptos::prelude::*;
use wasm_bindgen::JsValue;

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

/// What the room asks of the run, from the tools module: `{kind, what, by, agent}`.
fn carry_out(c: Controller, detail: &JsValue) {
    let field = |k: &str| {
        js_sys::Reflect::get(detail, &k.into()).ok().and_then(|v| v.as_string()).unwrap_or_default()
    };
    let (what, by) = (field("what"), field("by"));
    let done = match field("kind").as_str() {
        "answer" => {
            if let Some(answer) = crate::seat::Answer::from_line(&what) {
                c.desk.send(Some(&field("agent")), answer, by);
            }
            Ok(())
        }
        "interject" => c.interject(&by, &what),
        "vote" => c.vote(&by, &what),
        "floor" => c.give_floor(&what),
        _ => Ok(()),
    };
    if let Err(e) = done {
        c.notice.set(e);
    }
}

/// "Open a room for phones", in the room's panel, which the tools module draws over it once the
/// room is open.
#[component]
pub fn Room() -> impl IntoView {
    let c = expect_context::<Controller>();
    let scenario = expect_context::<crate::ui::form::EditorState>().scenario;
    let owner = Owner::current();
    let start = move |_| {
        if !OPEN.replace(true) {
            // What the room asks of the run, for as long as the page's workspace is up.
            let listener = window_event_listener_untyped("agora-room", move |ev: web_sys::Event| {
                carry_out(c, &js_sys::Reflect::get(&ev, &"detail".into()).unwrap_or_default());
            });
            if let Some(owner) = owner.as_ref() {
                owner.with(|| {
                    on_cleanup(move || {
                        listener.remove();
                        OPEN.set(false);
                    })
                });
            }
        }
        let seats = scenario.with_untracked(|s| serde_json::to_string(&s.seats).unwrap_or_default());
        let lines = c.with_events(crate::events::to_json_lines);
        let opened = move |r: Result<String, String>| {
            if let Err(e) = r {
                c.notice.set(e)
            }
        };
        crate::app::tools::spawn_later(crate::app::tools::room_open(seats, lines), opened);
    };
    view! {
        <div class="room" data-testid="room">
            <div id="room-panel" data-testid="room-panel">
                <button data-testid="room-open" title="Students join from their phones with a link or QR code and play seats, interject and vote" on:click=start>
                    "Open a room for phones"
                </button>
            </div>
        </div>
    }
}
