//! What a key means on the page, in each state: P turns the projector view on and off; a digit
//! gives a bid while one is asked (0 for 10); Enter sends a seat's speech from its box; Escape
//! closes the drawer, or leaves the projector view; in the projector view → steps, ← takes a
//! replay back a step, Space plays or pauses and Enter sends a seat's answer. A key typed into a
//! field is the field's (but for Enter in the seat's box), and Space or Enter on a focused button,
//! link or summary presses it, as everywhere else. Plain data in, plain data out: the page acts
//! on what this decides, and native tests pin each meaning down.

use crate::controls::Controls;

/// What a key was pressed on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// A text field or a list: typing goes there.
    Field,
    /// A text box (a speech is written there).
    TextBox,
    /// A button, a link or a summary, which Space and Enter press.
    Control,
    /// Anything else (a box to tick among them).
    Other,
}

/// A key pressed: its name (`KeyboardEvent.key`), whether Ctrl, Alt or Meta was held, whether
/// Shift was, what it was pressed on, whether that is inside the seat's box (whose own keys
/// answer there), and whether it is a box that took the focus by itself when it opened, with
/// nothing typed or clicked there since.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Press<'a> {
    pub key: &'a str,
    pub command: bool,
    pub shift: bool,
    pub target: Target,
    pub in_seat: bool,
    pub untouched: bool,
    /// An input method is still composing the text (Chinese typed as pinyin, for one): its Enter
    /// chooses the characters, and means nothing to the page.
    pub composing: bool,
}

/// What the page holds when the key comes.
#[derive(Clone, Debug, PartialEq)]
pub struct State<'a> {
    /// The stage is shown (not the start screen).
    pub stage: bool,
    /// The projector view is on.
    pub projector: bool,
    /// A tab is open in the drawer.
    pub drawer: bool,
    /// A seat's question is shown, and it asks for a bid.
    pub bid_asked: bool,
    /// A seat's question is shown, with a Send button.
    pub sendable: bool,
    /// The run's controls as they stand.
    pub controls: &'a Controls,
    /// The run on screen has ended (finished or stopped).
    pub ended: bool,
}

/// What a key does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Meaning {
    /// Turn the projector view on or off.
    Projector,
    /// Give this bid to the seat that is asked.
    Bid(u32),
    /// Send the seat's answer (its speech, or what its form holds).
    Send,
    CloseDrawer,
    Step,
    StepBack,
    Pause,
    Play,
}

/// What `press` means in `state`; none: the key is the browser's or the element's.
pub fn meaning(press: &Press, state: &State) -> Option<Meaning> {
    let Press { key, command, shift, target, in_seat, untouched, composing } = *press;
    if command || composing || !state.stage {
        return None;
    }
    // A box that took the focus by itself is not being typed in yet: the page's keys still work
    // there (P is not typed into it), but for a capital letter, which starts a sentence.
    let typing = matches!(target, Target::Field | Target::TextBox) && (shift || !untouched);
    let c = state.controls;
    match key {
        "p" | "P" if !typing => return Some(Meaning::Projector),
        // While a bid is asked, a digit typed anywhere but a field gives it (the seat's box
        // answers its own digits).
        d if state.bid_asked && !typing && !in_seat && is_digit(d) => {
            return d.parse::<u32>().ok().map(|n| Meaning::Bid(if n == 0 { 10 } else { n }));
        }
        // Enter sends a seat's speech from its box (Shift+Enter is a new line), in every view.
        "Enter" if !shift && target == Target::TextBox && in_seat => {
            return state.sendable.then_some(Meaning::Send)
        }
        _ => {}
    }
    if !state.projector {
        return (key == "Escape" && !typing && state.drawer).then_some(Meaning::CloseDrawer);
    }
    if key == "Escape" {
        return Some(Meaning::Projector);
    }
    // In the projector view Enter in any of the seat's fields sends its answer.
    if (typing && !(key == "Enter" && in_seat)) || (matches!(key, " " | "Enter") && target == Target::Control)
    {
        return None;
    }
    match key {
        "ArrowRight" => c.step.then_some(Meaning::Step),
        "ArrowLeft" => (c.step_back == Some(true)).then_some(Meaning::StepBack),
        // Space pauses and resumes; over an ended run it starts nothing (Run does, on purpose).
        " " if c.pause => Some(Meaning::Pause),
        " " => (c.run && !state.ended).then_some(Meaning::Play),
        "Enter" if !shift => state.sendable.then_some(Meaning::Send),
        _ => None,
    }
}

fn is_digit(key: &str) -> bool {
    key.len() == 1 && key.as_bytes()[0].is_ascii_digit()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controls::{controls, RunState};
    use crate::session::Status;

    fn press(key: &str, target: Target) -> Press<'_> {
        Press {
            key,
            command: false,
            shift: false,
            target,
            in_seat: false,
            untouched: false,
            composing: false,
        }
    }

    fn in_seat(key: &str, target: Target) -> Press<'_> {
        Press { in_seat: true, ..press(key, target) }
    }

    fn state(controls: &Controls) -> State<'_> {
        State {
            stage: true,
            projector: false,
            drawer: true,
            bid_asked: false,
            sendable: false,
            controls,
            ended: false,
        }
    }

    #[test]
    fn p_toggles_the_projector_view_except_in_a_field_on_the_start_screen_or_with_ctrl() {
        let c = controls(&RunState::default());
        let s = state(&c);
        for target in [Target::Other, Target::Control] {
            assert_eq!(meaning(&press("p", target), &s), Some(Meaning::Projector));
            assert_eq!(meaning(&in_seat("P", target), &s), Some(Meaning::Projector));
        }
        assert_eq!(meaning(&press("p", Target::Field), &s), None);
        assert_eq!(meaning(&in_seat("p", Target::TextBox), &s), None);
        assert_eq!(meaning(&Press { command: true, ..press("p", Target::Other) }, &s), None);
        assert_eq!(meaning(&press("p", Target::Other), &State { stage: false, ..state(&c) }), None);
    }

    #[test]
    fn a_box_that_took_the_focus_by_itself_leaves_the_pages_keys_working_until_it_is_typed_in() {
        let running = controls(&RunState { mode: Status::Running, ..RunState::default() });
        let s = State { sendable: true, ..state(&running) };
        let by_itself = Press { untouched: true, ..in_seat("p", Target::TextBox) };
        assert_eq!(meaning(&by_itself, &s), Some(Meaning::Projector));
        assert_eq!(
            meaning(&Press { key: "P", shift: true, ..by_itself }, &s),
            None,
            "a capital starts a sentence"
        );
        assert_eq!(meaning(&in_seat("p", Target::TextBox), &s), None, "typed in, or clicked: the box's");
        let on = State { projector: true, ..s.clone() };
        assert_eq!(meaning(&Press { key: " ", ..by_itself }, &on), Some(Meaning::Pause));
        assert_eq!(meaning(&Press { key: " ", ..in_seat(" ", Target::TextBox) }, &on), None);
        assert_eq!(meaning(&Press { key: "Enter", ..by_itself }, &s), Some(Meaning::Send));
        assert_eq!(meaning(&Press { key: "Escape", ..by_itself }, &s), Some(Meaning::CloseDrawer));
    }

    #[test]
    fn a_digit_bids_only_while_a_bid_is_asked_and_not_in_a_field_or_the_seats_own_box() {
        let c = controls(&RunState { mode: Status::Running, ..RunState::default() });
        let asked = State { bid_asked: true, ..state(&c) };
        assert_eq!(meaning(&press("3", Target::Other), &asked), Some(Meaning::Bid(3)));
        assert_eq!(meaning(&press("0", Target::Control), &asked), Some(Meaning::Bid(10)));
        assert_eq!(meaning(&in_seat("3", Target::Control), &asked), None, "the box answers its own digits");
        assert_eq!(meaning(&press("3", Target::Field), &asked), None);
        assert_eq!(meaning(&press("3", Target::Other), &state(&c)), None, "no bid is asked");
        assert_eq!(meaning(&Press { command: true, ..press("1", Target::Other) }, &asked), None);
    }

    #[test]
    fn enter_sends_a_speech_from_its_box_in_every_view_and_shift_enter_is_a_new_line() {
        let c = controls(&RunState { mode: Status::Running, ..RunState::default() });
        for projector in [false, true] {
            let s = State { projector, sendable: true, ..state(&c) };
            assert_eq!(meaning(&in_seat("Enter", Target::TextBox), &s), Some(Meaning::Send));
            // Enter that picks an input method's characters sends nothing, nor does a key beside it.
            let composing = |key| Press { composing: true, ..in_seat(key, Target::TextBox) };
            assert_eq!(meaning(&composing("Enter"), &s), None);
            assert_eq!(meaning(&composing(" "), &s), None);
            assert_eq!(meaning(&Press { shift: true, ..in_seat("Enter", Target::TextBox) }, &s), None);
            assert_eq!(meaning(&press("Enter", Target::TextBox), &s), None, "a text box elsewhere");
            assert_eq!(meaning(&press("Enter", Target::Field), &s), None);
        }
        // The seat's other fields send with Enter only in the projector view.
        let s = State { sendable: true, ..state(&c) };
        assert_eq!(meaning(&in_seat("Enter", Target::Field), &s), None);
        assert_eq!(
            meaning(&in_seat("Enter", Target::Field), &State { projector: true, ..s }),
            Some(Meaning::Send)
        );
        for projector in [false, true] {
            let nothing = State { projector, sendable: false, ..state(&c) };
            assert_eq!(meaning(&in_seat("Enter", Target::TextBox), &nothing), None, "no Send button");
        }
    }

    #[test]
    fn escape_closes_the_drawer_or_leaves_the_projector_view() {
        let c = controls(&RunState::default());
        assert_eq!(meaning(&press("Escape", Target::Other), &state(&c)), Some(Meaning::CloseDrawer));
        assert_eq!(meaning(&press("Escape", Target::Other), &State { drawer: false, ..state(&c) }), None);
        assert_eq!(meaning(&press("Escape", Target::Field), &state(&c)), None);
        let on = State { projector: true, ..state(&c) };
        assert_eq!(meaning(&press("Escape", Target::Field), &on), Some(Meaning::Projector));
    }

    #[test]
    fn the_projector_views_keys_step_play_and_pause_as_the_buttons_allow() {
        let paused = controls(&RunState { mode: Status::Paused, ..RunState::default() });
        let on = |c| State { projector: true, ..state(c) };
        assert_eq!(meaning(&press("ArrowRight", Target::Other), &on(&paused)), Some(Meaning::Step));
        assert_eq!(meaning(&press(" ", Target::Other), &on(&paused)), Some(Meaning::Play));
        assert_eq!(meaning(&press("ArrowLeft", Target::Other), &on(&paused)), None, "not a replay");
        let running = controls(&RunState { mode: Status::Running, ..RunState::default() });
        assert_eq!(meaning(&press(" ", Target::Other), &on(&running)), Some(Meaning::Pause));
        assert_eq!(meaning(&press("ArrowRight", Target::Other), &on(&running)), None);
        let replay =
            controls(&RunState { mode: Status::Paused, replaying: true, applied: 2, ..RunState::default() });
        assert_eq!(meaning(&press("ArrowLeft", Target::Other), &on(&replay)), Some(Meaning::StepBack));
        // Outside the projector view the arrows and Space are the page's.
        assert_eq!(meaning(&press(" ", Target::Other), &state(&paused)), None);
        assert_eq!(meaning(&press("ArrowRight", Target::Other), &state(&paused)), None);
    }

    #[test]
    fn space_over_an_ended_run_starts_nothing_and_space_on_a_button_presses_it() {
        let finished = controls(&RunState { mode: Status::Finished, ..RunState::default() });
        let ended = State { projector: true, ended: true, ..state(&finished) };
        assert_eq!(meaning(&press(" ", Target::Other), &ended), None);
        let paused = controls(&RunState { mode: Status::Paused, ..RunState::default() });
        let on = State { projector: true, ..state(&paused) };
        assert_eq!(meaning(&press(" ", Target::Control), &on), None);
        assert_eq!(meaning(&press("Enter", Target::Control), &State { sendable: true, ..on.clone() }), None);
        assert_eq!(meaning(&press(" ", Target::Field), &on), None, "typed into a field");
        assert_eq!(
            meaning(&press("Enter", Target::Other), &State { sendable: true, ..on }),
            Some(Meaning::Send)
        );
    }
}
