//! What the box that asks a person in a seat is made of, for every form: bid buttons, choices, a
//! text box with its words counted, lists to pick from, a trade's quantity and the player's
//! holdings ([`layout`]), and the answer those parts hold when Send is pressed ([`answer`]). The
//! page draws it as a Leptos view (`app::seat::SeatForm`) on the teacher's stage and on a
//! student's phone, which gets the question over the room's wire as JSON
//! ([`Question::to_json`]) and sends its answer back as a line ([`Answer::to_line`]).

use crate::i18n::{say, t, tf};
use serde_json::Value;

use super::{words, Answer, Form, HandoffReply, Question};
use crate::game::negotiation::{inventory_value, resource_value, Action, Game};
use crate::model::Purpose;

/// What the box shows for a form: every form is the same few parts, so one drawing serves them all.
#[derive(Debug, PartialEq)]
pub struct Layout {
    /// A text box, with the word limit it is counted against.
    pub text: Option<Option<u32>>,
    /// Buttons that each send an answer at once (a bid, a choice).
    pub buttons: Vec<(String, Answer)>,
    /// Labelled lists to pick from (the next speaker; the action, what to give and what for).
    pub picks: Vec<(&'static str, Vec<String>)>,
    /// A quantity to type (a trade).
    pub quantity: bool,
    /// Rows of (resource, held, worth) and the total worth (a trade).
    pub holdings: Vec<(String, i64, i64)>,
}

const ACTIONS: [&str; 4] = ["TRADE", "ACCEPT", "REJECT", "END"];

/// The parts of the box for `form`.
pub fn layout(form: &Form) -> Layout {
    let mut l =
        Layout { text: None, buttons: Vec::new(), picks: Vec::new(), quantity: false, holdings: Vec::new() };
    match form {
        Form::Text { word_limit } => l.text = Some(*word_limit),
        Form::Number { lo, hi } => {
            l.buttons = (*lo..=*hi).map(|n| (n.to_string(), Answer::Number(n))).collect()
        }
        Form::Choice { options, .. } => {
            l.buttons = options.iter().enumerate().map(|(i, o)| (o.clone(), Answer::Choice(i))).collect()
        }
        Form::Handoff { options, word_limit, .. } => {
            l.text = Some(Some(*word_limit));
            l.picks.push((t(say::SeatHandTo), options.clone()));
        }
        Form::Trade { game, seat, values } => {
            l.picks.push((t(say::SeatAction), ACTIONS.map(String::from).to_vec()));
            l.picks.push((t(say::SeatGive), game.resources.clone()));
            l.picks.push((t(say::SeatFor), game.resources.clone()));
            l.quantity = true;
            let held = &game.inventories[*seat];
            l.holdings = game
                .resources
                .iter()
                .zip(held)
                .map(|(r, n)| (r.clone(), *n, resource_value(*n, values)))
                .collect();
            l.holdings.push((t(say::SeatTotal).into(), held.iter().sum(), inventory_value(held, values)));
        }
    }
    l
}

/// The answer the form's parts hold when Send is pressed: the text, the index picked in each list
/// and the quantity typed.
pub fn answer(form: &Form, text: String, picks: &[usize], quantity: &str) -> Answer {
    let pick = |i: usize| picks.get(i).copied().unwrap_or(0);
    match form {
        Form::Handoff { .. } => Answer::Handoff { speech: text, to: pick(0) },
        Form::Trade { game, .. } => Answer::Trade(match ACTIONS.get(pick(0)).copied() {
            Some("ACCEPT") => Action::Accept,
            Some("REJECT") => Action::Reject,
            Some("END") => Action::End,
            _ => Action::Trade {
                sell_resource: game.resources.get(pick(1)).cloned().unwrap_or_default(),
                buy_resource: game.resources.get(pick(2)).cloned().unwrap_or_default(),
                quantity: quantity.trim().parse().unwrap_or(0),
            },
        }),
        _ => Answer::Text(text),
    }
}

/// What the word counter under the text box says.
pub fn word_note(text: &str, limit: Option<u32>) -> String {
    let n = words(text);
    match limit {
        Some(limit) if n > limit as usize => tf(say::WordsOver, &[("n", &n), ("limit", &limit)]),
        Some(limit) => tf(say::WordsOf, &[("n", &n), ("limit", &limit)]),
        None => tf(say::WordsN, &[("n", &n)]),
    }
}

impl Layout {
    /// Whether the box has a Send button: a text or a choice from lists to send, not buttons that
    /// answer by themselves.
    pub fn sends(&self) -> bool {
        self.text.is_some() || !self.picks.is_empty()
    }
}

/// Whether the box for `form` has a Send button (which Enter presses from the keys).
pub fn sendable(form: &Form) -> bool {
    layout(form).sends()
}

/// The index a list of the box starts on: a trade's third list ("For") starts on a different
/// resource from its second ("Give").
pub fn first_pick(list: usize) -> usize {
    usize::from(list == 2)
}

/// Which of a form's buttons was pressed (`seat-choice-N`), as the answer it sends.
pub fn button_answer(form: &Form, index: usize) -> Option<Answer> {
    layout(form).buttons.into_iter().nth(index).map(|(_, a)| a)
}

/// The word limit the form's text box is counted against, when it has a text box.
pub fn text_limit(form: &Form) -> Option<Option<u32>> {
    layout(form).text
}

impl Question {
    /// The question as a phone's box needs it, as JSON: who for, why, the prompt, and the form (a
    /// trade carries the player's resources, holdings and values, not the whole game).
    pub fn to_json(&self) -> String {
        let text = |t: &str| serde_json::to_string(t).unwrap_or_default();
        let texts =
            |list: &[String]| format!("[{}]", list.iter().map(|t| text(t)).collect::<Vec<_>>().join(","));
        let numbers =
            |list: &[i64]| format!("[{}]", list.iter().map(i64::to_string).collect::<Vec<_>>().join(","));
        let form = match &self.form {
            Form::Text { word_limit } => format!(
                "{{\"kind\":\"text\",\"word_limit\":{}}}",
                word_limit.map_or("null".to_string(), |n| n.to_string())
            ),
            Form::Number { lo, hi } => format!("{{\"kind\":\"number\",\"lo\":{lo},\"hi\":{hi}}}"),
            Form::Choice { options, by_index } => {
                format!("{{\"kind\":\"choice\",\"options\":{},\"by_index\":{by_index}}}", texts(options))
            }
            Form::Handoff { agent, options, word_limit, via } => {
                let via = match via {
                    HandoffReply::Text => "text".to_string(),
                    HandoffReply::Json => "json".to_string(),
                    HandoffReply::Tool(name) => format!("tool:{name}"),
                };
                format!(
                    "{{\"kind\":\"handoff\",\"agent\":{},\"options\":{},\"word_limit\":{word_limit},\"via\":{}}}",
                    text(agent),
                    texts(options),
                    text(&via)
                )
            }
            Form::Trade { game, seat, values } => format!(
                "{{\"kind\":\"trade\",\"resources\":{},\"held\":{},\"values\":{}}}",
                texts(&game.resources),
                numbers(game.inventories.get(*seat).map_or(&[][..], |h| h)),
                numbers(values)
            ),
        };
        format!(
            "{{\"agent\":{},\"purpose\":\"{}\",\"prompt\":{},\"form\":{form}}}",
            text(&self.agent),
            self.purpose.as_str(),
            text(&self.prompt)
        )
    }

    /// The question [`Question::to_json`] wrote (a trade's game holds the player's holdings only:
    /// the box draws and answers with it, and the page checks the answer against the real game).
    pub fn from_json(text: &str) -> Result<Question, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| format!("not a question: {e}"))?;
        let f = &v["form"];
        let strings = |key: &str| -> Vec<String> {
            f[key]
                .as_array()
                .map(|a| a.iter().filter_map(|s| s.as_str().map(String::from)).collect())
                .unwrap_or_default()
        };
        let numbers = |key: &str| -> Vec<i64> {
            f[key].as_array().map(|a| a.iter().filter_map(Value::as_i64).collect()).unwrap_or_default()
        };
        let u32_of = |key: &str| f[key].as_u64().map(|n| n as u32);
        let form = match f["kind"].as_str().unwrap_or_default() {
            "text" => Form::Text { word_limit: u32_of("word_limit") },
            "number" => Form::Number { lo: u32_of("lo").unwrap_or(1), hi: u32_of("hi").unwrap_or(10) },
            "choice" => Form::Choice {
                options: strings("options"),
                by_index: f["by_index"].as_bool().unwrap_or(false),
            },
            "handoff" => Form::Handoff {
                agent: f["agent"].as_str().unwrap_or_default().to_string(),
                options: strings("options"),
                word_limit: u32_of("word_limit").unwrap_or(0),
                via: match f["via"].as_str().unwrap_or_default() {
                    "json" => HandoffReply::Json,
                    via => {
                        via.strip_prefix("tool:").map_or(HandoffReply::Text, |t| HandoffReply::Tool(t.into()))
                    }
                },
            },
            "trade" => {
                let held = numbers("held");
                Form::Trade {
                    game: Game::new(strings("resources"), [held.clone(), held]),
                    seat: 0,
                    values: numbers("values"),
                }
            }
            other => return Err(format!("not a question: no form \"{other}\"")),
        };
        let purpose: Purpose =
            serde_json::from_value(v["purpose"].clone()).map_err(|e| format!("not a question: {e}"))?;
        Ok(Question {
            agent: v["agent"].as_str().unwrap_or_default().to_string(),
            purpose,
            prompt: v["prompt"].as_str().unwrap_or_default().to_string(),
            form,
        })
    }
}

impl Answer {
    /// The answer as one line of text, as the box hands it to the page: a kind letter, then its
    /// parts (a trade's action as its JSON).
    pub fn to_line(&self) -> String {
        match self {
            Answer::Text(text) => format!("t {text}"),
            Answer::Number(n) => format!("n {n}"),
            Answer::Choice(i) => format!("c {i}"),
            Answer::Handoff { speech, to } => format!("h {to} {speech}"),
            Answer::Trade(action) => format!("a {}", action.to_json()),
        }
    }

    /// The answer [`Answer::to_line`] wrote, if it is one.
    pub fn from_line(line: &str) -> Option<Answer> {
        let (kind, rest) = line.split_at_checked(2)?;
        Some(match kind {
            "t " => Answer::Text(rest.to_string()),
            "n " => Answer::Number(rest.parse().ok()?),
            "c " => Answer::Choice(rest.parse().ok()?),
            "h " => {
                let (to, speech) = rest.split_once(' ')?;
                Answer::Handoff { speech: speech.to_string(), to: to.parse().ok()? }
            }
            "a " => Answer::Trade(serde_json::from_str::<Action>(rest).ok()?),
            _ => return None,
        })
    }
}
