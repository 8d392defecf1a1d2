//! The box that asks a person in a seat, as HTML: the prompt a model would read, and the form's
//! controls (bid buttons, choices, a text box with its words counted, lists to pick from, a
//! trade's quantity and the player's holdings). The page's tools module draws it and reads the
//! answer back from its controls (`src/bin/agora-tools.rs`), from the question as JSON
//! ([`Question::to_json`]), so none of this is on the first page; the page checks the answer
//! against the form and sends it.

use serde_json::Value;

use super::{words, Answer, Form, HandoffReply, Question};
use crate::game::negotiation::{inventory_value, resource_value, Action, Game};
use crate::markup;
use crate::markup::Markup;
use crate::model::Purpose;

/// What the box shows for a form: every form is the same few parts, so one drawing serves them
/// all (a Leptos view per form cost about 13 KB gzipped on the first page).
struct Layout {
    /// A text box, with the word limit it is counted against.
    text: Option<Option<u32>>,
    /// Buttons that each send an answer at once (a bid, a choice).
    buttons: Vec<(String, Answer)>,
    /// Labelled lists to pick from (the next speaker; the action, what to give and what for).
    picks: Vec<(&'static str, Vec<String>)>,
    /// A quantity to type (a trade).
    quantity: bool,
    /// Rows of (resource, held, worth) and the total worth (a trade).
    holdings: Vec<(String, i64, i64)>,
}

const ACTIONS: [&str; 4] = ["TRADE", "ACCEPT", "REJECT", "END"];

fn layout(form: &Form) -> Layout {
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
            l.picks.push(("Hand the floor to", options.clone()));
        }
        Form::Trade { game, seat, values } => {
            l.picks.push(("Action", ACTIONS.map(String::from).to_vec()));
            l.picks.push(("Give (TRADE)", game.resources.clone()));
            l.picks.push(("For (TRADE)", game.resources.clone()));
            l.quantity = true;
            let held = &game.inventories[*seat];
            l.holdings = game
                .resources
                .iter()
                .zip(held)
                .map(|(r, n)| (r.clone(), *n, resource_value(*n, values)))
                .collect();
            l.holdings.push(("Total".into(), held.iter().sum(), inventory_value(held, values)));
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
        Some(limit) if n > limit as usize => format!("{n} / {limit} words: over the limit"),
        Some(limit) => format!("{n} / {limit} words"),
        None => format!("{n} words"),
    }
}

/// The box's contents for a question, as markup (test ids name each control; the answer is read
/// back from them).
pub fn draw(q: &Question) -> Markup {
    let l = layout(&q.form);
    let mut h = markup!(
        "<h2>Your turn: {} ({})</h2><details class=\"seat-prompt\"><summary>The prompt a model would read</summary><pre data-testid=\"seat-prompt\">{}</pre></details>",
        q.agent,
        q.purpose.label(),
        q.prompt
    );
    if !l.holdings.is_empty() {
        h.push_static("<table class=\"seat-inventory\" data-testid=\"seat-inventory\"><tr><th>Resource</th><th>You hold</th><th>Worth</th></tr>");
        for (r, n, w) in &l.holdings {
            h.push(markup!("<tr><td>{}</td><td>{}</td><td>{}</td></tr>", r, n, w));
        }
        h.push_static("</table>");
    }
    h.push_static("<div class=\"seat-choices\" role=\"group\" aria-label=\"Answers\">");
    for (i, (label, _)) in l.buttons.iter().enumerate() {
        h.push(markup!("<button data-testid=\"seat-choice-{}\">{}</button>", i, label));
    }
    h.push_static("</div>");
    if let Some(limit) = l.text {
        h.push(markup!(
            "<textarea data-testid=\"seat-text\" aria-label=\"Your words\" rows=\"4\"></textarea><p class=\"hint\" data-testid=\"seat-words\">{}</p>",
            word_note("", limit)
        ));
    }
    h.push_static("<div class=\"row\">");
    for (i, (label, options)) in l.picks.iter().enumerate() {
        h.push(markup!(
            "<label class=\"field\"><span>{}</span><select data-testid=\"seat-pick-{}\">",
            label,
            i
        ));
        for (j, o) in options.iter().enumerate() {
            // A trade's second list starts on a different resource from the first.
            let selected = if i == 2 && j == 1 { Markup::from_static(" selected") } else { Markup::new() };
            h.push(markup!("<option value=\"{}\"{}>{}</option>", j, selected, o));
        }
        h.push_static("</select></label>");
    }
    if l.quantity {
        h.push_static("<label class=\"field\"><span>Quantity (TRADE)</span><input data-testid=\"seat-quantity\" inputmode=\"numeric\" value=\"1\"></label>");
    }
    h.push_static("</div>");
    if sends(&l) {
        h.push_static("<button class=\"primary\" data-testid=\"seat-send\">Send</button>");
    }
    h
}

/// Whether the box has a Send button: a text or a choice from lists to send, not buttons that
/// answer by themselves.
fn sends(l: &Layout) -> bool {
    l.text.is_some() || !l.picks.is_empty()
}

/// Whether the box for `form` has a Send button (which Enter presses from the keys).
pub fn sendable(form: &Form) -> bool {
    sends(&layout(form))
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
    /// The question as the box needs it, as JSON: who for, why, the prompt, and the form (a
    /// trade carries the player's resources, holdings and values, not the whole game). Written as
    /// text: serde's value serializer would put one more JSON writer on the first page.
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
