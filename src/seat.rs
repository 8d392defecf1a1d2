//! Seats: a person answering the calls made for an agent (or the director, or the selector)
//! instead of a model. The run asks the seat exactly what it would ask a model; the person sees
//! that prompt and answers through a form that fits the call, and the form writes the reply the
//! way the method asks a model to write it (a bid as `<7>`, a handoff as its tool call). So the
//! method reads a person's answer like any reply, the log records it as one (`human` on its
//! `model_call`), and replay, links and statistics need no special case.
//!
//! Which form a call takes is each method's to say (`methods/<method>/seat.rs`, one registry
//! line); a call no method claims is free text, with its word limit when it has one.

pub use crate::form::{Form, HandoffReply};
use crate::i18n::{say, t, tf};
use std::cell::RefCell;
use std::rc::Rc;

use futures::future::{Either, FutureExt, LocalBoxFuture};
use serde_json::json;

use crate::clock::Clock;
use crate::events::MessageKind;
use crate::game::negotiation::Action;
use crate::model::{
    ChatModel, ChatRequest, ChatResponse, Cue, ModelError, Purpose, Refusal, RefusalKind, ToolCall,
};

/// What a person is asked: who for, why, the prompt a model would have read, and the form.
#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    pub agent: String,
    pub purpose: Purpose,
    /// The last message of the request: the question the method puts.
    pub prompt: String,
    pub form: Form,
}

/// A person's answer, before it is checked against the form.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    Text(String),
    Number(u32),
    /// An index into the form's options.
    Choice(usize),
    Handoff {
        speech: String,
        to: usize,
    },
    Trade(Action),
}

/// Asks a person, and hands back what they answered and, when the desk knows, who they were (a
/// student's name from their phone; empty otherwise). `problem` is why the last answer could not
/// be sent (shown with the question again), if it could not.
pub trait Desk {
    fn ask<'a>(
        &'a self,
        question: &'a Question,
        problem: Option<&'a str>,
    ) -> LocalBoxFuture<'a, Result<(Answer, String), ModelError>>;

    /// Takes `question` back: the seat's time ran out before an answer came.
    fn withdraw(&self, _question: &Question) {}

    /// Whether the run is held (paused while the question is open): a seat's time limit does not
    /// run meanwhile, so a class that pauses to talk it over does not lose the turn.
    fn held(&self) -> bool {
        false
    }
}

/// A seat's time limit: resolves once the desk has waited `ms` milliseconds while not held,
/// measured in slices of at most half a second.
async fn time_limit(clock: &dyn Clock, desk: &dyn Desk, ms: u64) {
    const SLICE_MS: u64 = 500;
    let mut left = ms;
    while left > 0 {
        let slice = left.min(SLICE_MS);
        clock.sleep(slice).await;
        if !desk.held() {
            left -= slice;
        }
    }
}

/// Asks each method's folder for the form of a call of its own.
macro_rules! method_forms {
    ($($kind:ident $module:ident $id:literal $label:literal,)*) => {
        fn method_form(request: &ChatRequest) -> Option<Form> {
            $(if let Some(form) = crate::methods::$module::seat::form(request) {
                return Some(form);
            })*
            None
        }
    };
}

crate::methods::registry::each_method!(method_forms);

impl Question {
    /// What a person in the seat is asked for `request`.
    pub fn of(request: &ChatRequest) -> Question {
        let word_limit = match &request.cue {
            Cue::Speak { word_limit, .. }
            | Cue::Director { word_limit, .. }
            | Cue::Describe { word_limit, .. }
            | Cue::Handoff { word_limit, .. } => Some(*word_limit),
            _ => None,
        };
        let form = method_form(request).unwrap_or(Form::Text { word_limit });
        Question {
            agent: request.agent.clone(),
            purpose: request.purpose,
            prompt: request.messages.last().map(|m| m.content.clone()).unwrap_or_default(),
            form,
        }
    }
}

/// Whether a message was said by a person in the speaker's seat (`seats` as the run's scenario
/// names them): what the transcript, the Markdown and the terminal mark "you".
pub fn said_by_person(seats: &[String], speaker: &str, kind: MessageKind) -> bool {
    kind == MessageKind::Agent && seats.iter().any(|s| s == speaker)
}

/// Words as counted against a word limit (a character in Chinese or Japanese: see
/// [`crate::text::limit_words`]).
pub fn words(text: &str) -> usize {
    crate::text::limit_words(text)
}

impl Form {
    /// The reply the method reads, written from `answer`; or, when the answer does not fit the
    /// form or breaks the game's rules, why (nothing is sent then).
    pub fn reply(&self, answer: &Answer) -> Result<ChatResponse, String> {
        let response = match (self, answer) {
            (Form::Text { .. }, Answer::Text(text)) => {
                let text = text.trim();
                if text.is_empty() {
                    return Err(t(say::SeatEmpty).into());
                }
                ChatResponse::text(text)
            }
            (Form::Number { lo, hi }, Answer::Number(n)) => {
                if n < lo || n > hi {
                    return Err(tf(
                        say::SeatNumberRange,
                        &[("lo", &lo.to_string()), ("hi", &hi.to_string())],
                    ));
                }
                ChatResponse::text(format!("<{n}>"))
            }
            (Form::Choice { options, by_index }, Answer::Choice(i)) => {
                let name = options.get(*i).ok_or_else(|| choose_from(options))?;
                ChatResponse::text(if *by_index { format!("<{i}>") } else { name.clone() })
            }
            (Form::Handoff { agent, options, via, .. }, Answer::Handoff { speech, to }) => {
                let speech = speech.trim();
                if speech.is_empty() {
                    return Err(t(say::SeatSpeechEmpty).into());
                }
                let next = options.get(*to).ok_or_else(|| choose_from(options))?;
                let arguments = json!({"response": speech, "next_agent_name": next}).to_string();
                match via {
                    HandoffReply::Text => {
                        ChatResponse::text(format!("{agent}: {speech} Transition to {next}."))
                    }
                    HandoffReply::Json => ChatResponse::text(arguments),
                    HandoffReply::Tool(name) => ChatResponse {
                        tool_calls: vec![ToolCall { name: name.clone(), arguments }],
                        ..ChatResponse::default()
                    },
                }
            }
            (Form::Trade { game, seat, .. }, Answer::Trade(action)) => {
                // The rules are the game's own: a copy plays the action, and its refusal is the
                // explanation.
                game.clone().apply(*seat, action).map_err(|why| tf(say::SeatNotAllowed, &[("why", &why)]))?;
                ChatResponse::text(action.to_json())
            }
            _ => return Err(t(say::SeatDoesNotFit).into()),
        };
        Ok(ChatResponse { human: true, ..response })
    }
}

fn choose_from(options: &[String]) -> String {
    tf(say::SeatChooseOneOf, &[("options", &options.join(t(say::ListComma)))])
}

/// A model whose calls for the seated names go to a person at a [`Desk`]; every other call goes
/// to the model underneath.
pub struct Seated {
    inner: Rc<dyn ChatModel>,
    seats: Vec<String>,
    desk: Rc<dyn Desk>,
    clock: Rc<dyn Clock>,
    /// The scenario's `seat_timeout_s`; 0 waits for ever.
    timeout_s: u32,
    /// The question a person last left unanswered: the method's retry of it (the same
    /// question again) is answered at once the same way, so a person who has stepped away
    /// costs one wait, and the method goes on to its fallback as for a model's unreadable reply.
    unanswered: RefCell<Option<Question>>,
}

impl Seated {
    /// `scenario` names the seats and how long a seat waits; `clock` times the wait.
    pub fn new(
        inner: Rc<dyn ChatModel>,
        scenario: &crate::scenario::Scenario,
        desk: Rc<dyn Desk>,
        clock: Rc<dyn Clock>,
    ) -> Self {
        let (seats, timeout_s) = (scenario.seats.clone(), scenario.seat_timeout_s);
        Self { inner, seats, desk, clock, timeout_s, unanswered: RefCell::new(None) }
    }

    /// Whether a person answers the calls made for `agent`.
    pub fn seats(&self, agent: &str) -> bool {
        self.seats.iter().any(|s| s.eq_ignore_ascii_case(agent))
    }
}

/// The reply of a seat whose person did not answer in time: nothing, marked so.
fn unanswered() -> ChatResponse {
    ChatResponse {
        human: true,
        refusal: Some(Refusal::new(RefusalKind::Unanswered, "")),
        ..ChatResponse::default()
    }
}

impl ChatModel for Seated {
    fn complete<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, ModelError>> {
        if !self.seats(&request.agent) {
            return self.inner.complete(request);
        }
        Box::pin(async move {
            let question = Question::of(request);
            if self.unanswered.borrow().as_ref() == Some(&question) {
                return Ok(unanswered());
            }
            // One wait for the question, however many answers the form turns back.
            let mut deadline = match self.timeout_s {
                0 => futures::future::pending().boxed_local(),
                s => time_limit(&*self.clock, &*self.desk, u64::from(s) * 1000).boxed_local(),
            };
            let mut problem: Option<String> = None;
            loop {
                let ask = self.desk.ask(&question, problem.as_deref());
                let (answer, by) = match futures::future::select(ask, &mut deadline).await {
                    Either::Left((answer, _)) => answer?,
                    Either::Right(_) => {
                        self.desk.withdraw(&question);
                        *self.unanswered.borrow_mut() = Some(question.clone());
                        return Ok(unanswered());
                    }
                };
                match question.form.reply(&answer) {
                    Ok(response) => return Ok(ChatResponse { by, ..response }),
                    Err(why) => problem = Some(why),
                }
            }
        })
    }
}

/// The seat names as the scenario spells them, or which one it does not have.
pub fn check_seats(scenario: &crate::scenario::Scenario, wanted: &[String]) -> Result<Vec<String>, String> {
    let names = scenario.seat_names();
    wanted
        .iter()
        .map(|w| {
            names.iter().find(|n| n.eq_ignore_ascii_case(w.trim())).cloned().ok_or_else(|| {
                format!("no seat \"{w}\" in this scenario; the seats are {}", names.join(", "))
            })
        })
        .collect()
}

pub mod form;

#[cfg(test)]
mod tests;
