//! `agora run --seat NAME`: the person at the terminal answers the seat's calls. Each question
//! prints the prompt a model would read, then asks for the answer line by line in the form the
//! method wants (a bid, a speech, a choice, a trading action); an answer that does not fit is
//! explained and asked again. Input can be piped.

use std::io::BufRead;

use futures::channel::mpsc::{unbounded, UnboundedReceiver};
use futures::future::LocalBoxFuture;
use futures::lock::Mutex;
use futures::StreamExt;

use super::say;
use crate::game::negotiation::{inventory_value, Action};
use crate::model::ModelError;
use crate::seat::{words, Answer, Desk, Form, Question};

/// Lines as typed, read on a thread of their own so that a seat's time limit can run out while
/// the terminal waits; the lock asks one question at a time when two seats are asked at once.
pub struct TerminalDesk {
    lines: Mutex<Lines>,
}

/// Each line typed, or why the terminal could not be read.
type Lines = UnboundedReceiver<Result<String, String>>;

impl TerminalDesk {
    pub fn new(mut input: Box<dyn BufRead + Send>) -> Self {
        let (tx, rx) = unbounded();
        std::thread::spawn(move || loop {
            let mut line = String::new();
            let read = match input.read_line(&mut line) {
                Ok(0) => return,
                Ok(_) => Ok(line.trim_end_matches(['\r', '\n']).to_string()),
                Err(e) => Err(format!("cannot read the terminal: {e}")),
            };
            if tx.unbounded_send(read).is_err() {
                return;
            }
        });
        Self { lines: Mutex::new(rx) }
    }
}

/// The next line typed, without its line ending; the input's end is an error naming whose
/// answer was missing.
async fn line(lines: &mut Lines, question: &Question, ask: &str) -> Result<String, ModelError> {
    {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        let _ = write!(out, "{ask} ");
        let _ = out.flush();
    }
    match lines.next().await {
        Some(Ok(line)) => {
            // Piped answers are not echoed by a terminal: show them, so the output reads as
            // the conversation it was.
            if !std::io::IsTerminal::is_terminal(&std::io::stdin()) {
                say(&line);
            }
            Ok(line)
        }
        None => Err(ModelError::Unavailable(format!(
            "the terminal's input ended before {}'s {} was answered",
            question.agent,
            question.purpose.label()
        ))),
        Some(Err(e)) => Err(ModelError::Unavailable(e)),
    }
}

/// A speech line, with its words counted against the limit.
async fn speech(
    lines: &mut Lines,
    question: &Question,
    word_limit: Option<u32>,
) -> Result<String, ModelError> {
    let ask = match word_limit {
        Some(limit) => format!("Your words (at most {limit}):"),
        None => "Your answer:".to_string(),
    };
    let text = line(lines, question, &ask).await?;
    if let Some(limit) = word_limit {
        let n = words(&text);
        if n > limit as usize {
            say(format_args!("({n} words, over the limit of {limit}: sent as written)"));
        }
    }
    Ok(text)
}

/// One of `options`, by its number in the list or its name.
async fn choice(
    lines: &mut Lines,
    question: &Question,
    ask: &str,
    options: &[String],
) -> Result<usize, ModelError> {
    for (i, o) in options.iter().enumerate() {
        say(format_args!("  {}. {o}", i + 1));
    }
    loop {
        let typed = line(lines, question, ask).await?;
        let typed = typed.trim();
        let by_number =
            typed.parse::<usize>().ok().filter(|n| (1..=options.len()).contains(n)).map(|n| n - 1);
        if let Some(i) = by_number.or_else(|| options.iter().position(|o| o.eq_ignore_ascii_case(typed))) {
            return Ok(i);
        }
        say(format_args!("Type a number from 1 to {} or a name from the list.", options.len()));
    }
}

async fn answer(lines: &mut Lines, question: &Question) -> Result<Answer, ModelError> {
    match &question.form {
        Form::Text { word_limit } => Ok(Answer::Text(speech(lines, question, *word_limit).await?)),
        Form::Number { lo, hi } => loop {
            let typed = line(lines, question, &format!("Your bid ({lo} to {hi}):")).await?;
            match typed.trim().parse::<u32>() {
                Ok(n) => return Ok(Answer::Number(n)),
                Err(_) => say(format_args!("Type a whole number from {lo} to {hi}.")),
            }
        },
        Form::Choice { options, .. } => {
            Ok(Answer::Choice(choice(lines, question, "Who speaks next (number or name):", options).await?))
        }
        Form::Handoff { word_limit, options, .. } => {
            let speech = speech(lines, question, Some(*word_limit)).await?;
            let to = choice(lines, question, "Hand the floor to (number or name):", options).await?;
            Ok(Answer::Handoff { speech, to })
        }
        Form::Trade { game, seat, values } => {
            let held: Vec<String> = game
                .resources
                .iter()
                .zip(&game.inventories[*seat])
                .map(|(r, n)| format!("{n} {r}"))
                .collect();
            say(format_args!(
                "You hold {} (worth {} on the value scale {:?}).",
                held.join(", "),
                inventory_value(&game.inventories[*seat], values),
                values
            ));
            loop {
                let typed = line(
                    lines,
                    question,
                    "Your action (TRADE <sell> <buy> <quantity>, ACCEPT, REJECT or END):",
                )
                .await?;
                match read_action(&typed) {
                    Ok(action) => return Ok(Answer::Trade(action)),
                    Err(why) => say(why),
                }
            }
        }
    }
}

impl Desk for TerminalDesk {
    fn ask<'a>(
        &'a self,
        question: &'a Question,
        problem: Option<&'a str>,
    ) -> LocalBoxFuture<'a, Result<Answer, ModelError>> {
        Box::pin(async move {
            let mut lines = self.lines.lock().await;
            match problem {
                Some(why) => say(format_args!("That cannot be sent: {why}.")),
                None => {
                    say(format_args!(
                        "\n--- {} ({}): the prompt ---\n{}\n---",
                        question.agent,
                        question.purpose.label(),
                        question.prompt
                    ));
                }
            }
            answer(&mut lines, question).await
        })
    }

    fn withdraw(&self) {
        say("\n(No answer in time: the seat's turn passes, as for a reply that cannot be read.)");
    }
}

/// A trading action as typed: `TRADE WOOD GOLD 2`, `ACCEPT`, `REJECT` or `END`, in any case.
pub fn read_action(typed: &str) -> Result<Action, String> {
    let parts: Vec<&str> = typed.split_whitespace().collect();
    match parts.as_slice() {
        [one] if one.eq_ignore_ascii_case("accept") => Ok(Action::Accept),
        [one] if one.eq_ignore_ascii_case("reject") => Ok(Action::Reject),
        [one] if one.eq_ignore_ascii_case("end") => Ok(Action::End),
        [trade, sell, buy, quantity] if trade.eq_ignore_ascii_case("trade") => {
            match quantity.parse::<i64>() {
                Ok(quantity) => Ok(Action::Trade {
                    sell_resource: sell.to_string(),
                    buy_resource: buy.to_string(),
                    quantity,
                }),
                Err(_) => Err(format!("The quantity must be a whole number, not \"{quantity}\".")),
            }
        }
        _ => {
            Err("Type TRADE <sell> <buy> <quantity> (for example TRADE WOOD GOLD 1), ACCEPT, REJECT or END."
                .into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_actions_are_read_in_any_case() {
        assert_eq!(read_action("accept"), Ok(Action::Accept));
        assert_eq!(read_action(" END "), Ok(Action::End));
        assert_eq!(
            read_action("trade Wood Gold 2"),
            Ok(Action::Trade { sell_resource: "Wood".into(), buy_resource: "Gold".into(), quantity: 2 })
        );
        assert!(read_action("trade wood gold two").unwrap_err().contains("\"two\""));
        assert!(read_action("give me gold").unwrap_err().starts_with("Type TRADE"));
    }
}
