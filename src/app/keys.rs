//! The page's keys: one listener on the window reads what a key was pressed on and does what
//! [`crate::keys::meaning`] says it means (the decisions, with their native tests, are there): P
//! turns the projector view on and off, a digit gives a bid, Enter sends a seat's answer, Escape
//! closes the drawer or leaves the projector view, and in the projector view → steps, ← steps a
//! replay back and Space plays or pauses. The listener goes with the workspace.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::stage::Layout;
use super::Controller;
use crate::keys::{meaning, Meaning, Press, State, Target};
use crate::model::Purpose;
use crate::seat::{Answer, Form};
use crate::ui::form::EditorState;

/// Listens for the page's keys while the workspace is up.
pub fn listen(controller: Controller, editor: EditorState, layout: Layout) {
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.default_prevented() {
            return;
        }
        let key = ev.key();
        let element = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
        let target = element.as_ref().map_or(Target::Other, target_of);
        let in_seat = element.as_ref().is_some_and(|e| e.closest(".seat").ok().flatten().is_some());
        let press = Press {
            key: &key,
            command: ev.ctrl_key() || ev.alt_key() || ev.meta_key(),
            shift: ev.shift_key(),
            target,
            in_seat,
            untouched: in_seat && target == Target::TextBox && controller.desk.by_itself.get_untracked(),
            composing: composing(&ev),
        };
        let meant = untrack(|| {
            let run = super::workspace::run_state(controller, editor);
            let controls = crate::controls::controls(&run);
            let (bid_asked, sendable) = controller.desk.question.with(|q| {
                q.as_ref().map_or((false, false), |q| {
                    (q.purpose == Purpose::Bid, crate::seat::form::sendable(&q.form))
                })
            });
            let ended = run.mode == super::Mode::Finished || run.finished.is_some();
            meaning(
                &press,
                &State {
                    stage: layout.stage.get(),
                    projector: controller.projector.get(),
                    drawer: layout.tab.get().is_some(),
                    bid_asked,
                    sendable,
                    controls: &controls,
                    ended,
                },
            )
        });
        let Some(meant) = meant else { return };
        ev.prevent_default();
        act(meant, controller, editor, layout);
    });
    on_cleanup(move || handle.remove());
}

/// What kind of element a key was pressed on.
fn target_of(element: &web_sys::Element) -> Target {
    match element.tag_name().as_str() {
        "TEXTAREA" => Target::TextBox,
        "SELECT" => Target::Field,
        // A box to tick or a file to pick takes no typing, and Space does the page's work there.
        "INPUT" => {
            let kind = element.get_attribute("type").unwrap_or_default().to_ascii_lowercase();
            if matches!(kind.as_str(), "checkbox" | "radio" | "button" | "file") {
                Target::Other
            } else {
                Target::Field
            }
        }
        "BUTTON" | "A" | "SUMMARY" => Target::Control,
        _ => Target::Other,
    }
}

/// Does what a key means.
fn act(meant: Meaning, controller: Controller, editor: EditorState, layout: Layout) {
    let said = |done: Result<(), String>| {
        if let Err(e) = done {
            controller.notice.set(e);
        }
    };
    match meant {
        Meaning::Projector => controller.projector.update(|on| *on = !*on),
        Meaning::Bid(n) => {
            // A digit the bid's scale has (0 for 10), as its button would give it.
            let on_scale = controller.desk.question.with_untracked(|q| {
                q.as_ref()
                    .is_some_and(|q| matches!(q.form, Form::Number { lo, hi } if (lo..=hi).contains(&n)))
            });
            if on_scale {
                controller.desk.send(None, Answer::Number(n), String::new());
            }
        }
        Meaning::Send => controller.desk.send_asked.update(|n| *n += 1),
        Meaning::CloseDrawer => layout.tab.set(None),
        Meaning::Step => said(controller.step(&editor.scenario.get_untracked())),
        Meaning::StepBack => controller.replay_back(),
        Meaning::Pause => controller.pause(),
        Meaning::Play => said(controller.play(&editor.scenario.get_untracked())),
    }
}

/// Whether an input method is composing as `ev` comes: browsers say so with `isComposing`, and
/// some only with the key code 229 on the keydown that ends the composition.
pub(super) fn composing(ev: &web_sys::KeyboardEvent) -> bool {
    #[allow(deprecated)]
    let code = ev.key_code();
    ev.is_composing() || code == 229
}
