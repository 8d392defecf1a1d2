//! `agora run --seat NAME`: the person at the terminal answers the seat's calls. Each question
//! prints the prompt a model would read, then asks for the answer line by line in the form the
//! method wants (a bid, a speech, a choice, a trading action); an answer that does not fit is
//! explained and asked again. Input can be piped.

use std::io::BufRead;
use std::time::Instant;

use futures::channel::mpsc::{channel, Receiver};
use futures::future::LocalBoxFuture;
use futures::lock::Mutex;
use futures::{SinkExt, StreamExt};

use super::say;
use crate::game::negotiation::{inventory_value, Action};
use crate::model::ModelError;
use crate::seat::{words, Answer, Desk, Form, Question};

/// Lines as typed, read on a thread of their own so that a seat's time limit can run out while
/// the terminal waits; the lock asks one question at a time when two seats are asked at once.
pub struct TerminalDesk {
    lines: Mutex<Lines>,
    /// When a question was last taken back (its time ran out), until the next one is asked.
    withdrawn: std::sync::Mutex<Option<Instant>>,
}

/// What the reader thread hands over, in the order typed.
enum Typed {
    Line(Instant, String),
    /// A line that is not UTF-8 text.
    NotText,
    /// The terminal cannot be read any more; the thread has stopped.
    Failed(String),
}

/// The lines typed; after a question was taken back, a line read before the next question was
/// asked was meant for the one that is gone.
struct Lines {
    typed: Receiver<Typed>,
    late_before: Option<Instant>,
}

/// Lines read ahead of the questions: a few, so piped input waits in the pipe rather than in
/// memory.
const READ_AHEAD: usize = 16;

impl TerminalDesk {
    pub fn new(mut input: Box<dyn BufRead + Send>) -> Self {
        let (mut tx, rx) = channel(READ_AHEAD);
        std::thread::spawn(move || loop {
            let mut line = String::new();
            let typed = match input.read_line(&mut line) {
                Ok(0) => return,
                Ok(_) => Typed::Line(Instant::now(), line.trim_end_matches(['\r', '\n']).to_string()),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) if e.kind() == std::io::ErrorKind::InvalidData => Typed::NotText,
                // Any other error would come back at every read: say it once and stop.
                Err(e) => Typed::Failed(format!("cannot read the terminal: {e}")),
            };
            let failed = matches!(typed, Typed::Failed(_));
            if futures::executor::block_on(tx.send(typed)).is_err() || failed {
                return;
            }
        });
        Self {
            lines: Mutex::new(Lines { typed: rx, late_before: None }),
            withdrawn: std::sync::Mutex::new(None),
        }
    }
}

fn prompt(ask: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = write!(out, "{ask} ");
    let _ = out.flush();
}

/// The next line typed for this question, without its line ending; a line meant for a question
/// that was taken back is said to be too late and not used. The input's end is an error naming
/// whose answer was missing.
async fn line(lines: &mut Lines, question: &Question, ask: &str) -> Result<String, ModelError> {
    prompt(ask);
    loop {
        match lines.typed.next().await {
            Some(Typed::Line(at, line)) => {
                if lines.late_before.is_some_and(|asked| at < asked) {
                    say(format_args!("(\"{line}\": that answer came too late and was not used.)"));
                    prompt(ask);
                    continue;
                }
                // Piped answers are not echoed by a terminal: show them, so the output reads as
                // the conversation it was.
                if !std::io::IsTerminal::is_terminal(&std::io::stdin()) {
                    say(&line);
                }
                return Ok(line);
            }
            Some(Typed::NotText) => {
                say("That line is not text this terminal could read: type it again.");
                prompt(ask);
            }
            Some(Typed::Failed(e)) => return Err(ModelError::Unavailable(e)),
            None => {
                return Err(ModelError::Unavailable(format!(
                    "the terminal's input ended before {}'s {} was answered",
                    question.agent,
                    question.purpose.label()
                )))
            }
        }
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
    ) -> LocalBoxFuture<'a, Result<(Answer, String), ModelError>> {
        Box::pin(async move {
            let mut lines = self.lines.lock().await;
            if self.withdrawn.lock().map(|mut w| w.take()).unwrap_or_default().is_some() {
                lines.late_before = Some(Instant::now());
            }
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
            answer(&mut lines, question).await.map(|a| (a, String::new()))
        })
    }

    fn withdraw(&self, _question: &Question) {
        say("\n(No answer in time: the seat's turn passes, as for a reply that cannot be read.)");
        if let Ok(mut withdrawn) = self.withdrawn.lock() {
            *withdrawn = Some(Instant::now());
        }
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
    use crate::model::Purpose;
    use std::io::Write;

    fn bid_question() -> Question {
        let form = Form::Number { lo: 1, hi: 10 };
        Question { agent: "Donald Trump".into(), purpose: Purpose::Bid, prompt: "Your bid?".into(), form }
    }

    /// Gives the reader thread time to read what was written: a thread blocked on a pipe wakes
    /// at once, so half a second is far more than it takes.
    fn settle() {
        std::thread::sleep(std::time::Duration::from_millis(500));
    }

    #[test]
    fn a_line_typed_after_a_question_was_taken_back_does_not_answer_the_next() {
        let (reader, mut writer) = std::io::pipe().unwrap();
        let desk = TerminalDesk::new(Box::new(std::io::BufReader::new(reader)));
        let question = bid_question();
        // The first question is asked, its time runs out, and the person types 7 too late.
        let mut asked = desk.ask(&question, None);
        assert!(futures::FutureExt::now_or_never(&mut asked).is_none());
        drop(asked);
        desk.withdraw(&question);
        writeln!(writer, "7").unwrap();
        settle();
        // The next question gets the next line, not the late one.
        let next = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(20));
            writeln!(writer, "3").unwrap();
            writer
        });
        let answer = futures::executor::block_on(desk.ask(&question, None));
        assert_eq!(answer.unwrap().0, Answer::Number(3));
        drop(next.join().unwrap());
    }

    #[test]
    fn piped_lines_answer_questions_in_order_and_the_end_names_the_missing_answer() {
        let desk = TerminalDesk::new(Box::new(std::io::Cursor::new(b"5\nnot a number\n9\n".to_vec())));
        let question = bid_question();
        assert_eq!(futures::executor::block_on(desk.ask(&question, None)).unwrap().0, Answer::Number(5));
        assert_eq!(futures::executor::block_on(desk.ask(&question, None)).unwrap().0, Answer::Number(9));
        let end = futures::executor::block_on(desk.ask(&question, None)).unwrap_err();
        assert!(format!("{end:?}").contains("ended before Donald Trump's"), "{end:?}");
    }

    /// A reader that fails at every read, as a closed terminal can.
    struct Broken(std::sync::Arc<std::sync::atomic::AtomicUsize>);

    impl std::io::Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            Err(std::io::Error::other("device gone"))
        }
    }

    #[test]
    fn a_terminal_that_cannot_be_read_is_said_once_and_not_read_again() {
        let reads = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let desk = TerminalDesk::new(Box::new(std::io::BufReader::new(Broken(reads.clone()))));
        let error = futures::executor::block_on(desk.ask(&bid_question(), None)).unwrap_err();
        assert!(format!("{error:?}").contains("cannot read the terminal: device gone"));
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert_eq!(reads.load(std::sync::atomic::Ordering::SeqCst), 1, "the reader stopped after the error");
        let after = futures::executor::block_on(desk.ask(&bid_question(), None)).unwrap_err();
        assert!(format!("{after:?}").contains("input ended"), "{after:?}");
    }

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
