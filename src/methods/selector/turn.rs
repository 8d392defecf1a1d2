//! One turn of the method: the selector call that names the next speaker, its retries with feedback and its fallback.

use rand::Rng;

use crate::events::{Event, FinishReason, ParseOutcome, SelectorMatch};
use crate::floor::Floor;
use crate::methods::selection::SpeakerSelection;
use crate::model::{ChatMessage, ChatRequest, Cue, ModelError, Purpose};
use crate::prompts::fill;
use crate::scenario::{PromptRole, SelectorFallback, SelectorSettings};

use super::settings::SELECTOR;

pub struct Selector {
    settings: SelectorSettings,
    previous: Option<usize>,
}

/// What one reply names.
#[derive(Debug, PartialEq, Eq)]
pub enum Reading {
    Named(usize, SelectorMatch),
    Nobody,
    Several(Vec<usize>),
}

/// Reads a selector reply against every agent's name (not only the candidates, so a reply naming
/// the last speaker can be told apart from one naming nobody).
pub fn read_reply(reply: &str, names: &[String]) -> Reading {
    let bare = reply.trim().trim_matches(|c: char| !(c.is_alphanumeric() || c == '_'));
    if let Some(i) = names.iter().position(|n| n == reply.trim() || n == bare) {
        return Reading::Named(i, SelectorMatch::Exact);
    }
    let loose = |s: &str| -> String {
        s.chars().filter(|c| !(c.is_whitespace() || *c == '_')).map(|c| c.to_ascii_lowercase()).collect()
    };
    let wanted = loose(bare);
    if !wanted.is_empty() {
        if let Some(i) = names.iter().position(|n| loose(n) == wanted) {
            return Reading::Named(i, SelectorMatch::Loose);
        }
    }
    let mentioned: Vec<usize> = (0..names.len()).filter(|&i| mentions(reply, &names[i])).collect();
    match mentioned.as_slice() {
        [] => Reading::Nobody,
        [one] => Reading::Named(*one, SelectorMatch::Mention),
        _ => Reading::Several(mentioned),
    }
}

/// Whether `text` mentions `name` as a whole word, written as it is or with its underscores as
/// spaces or escaped (`Story_writer`, `Story writer`, `Story\_writer`), as SelectorGroupChat
/// counts mentions.
fn mentions(text: &str, name: &str) -> bool {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let variants = [name.to_string(), name.replace('_', " "), name.replace('_', "\\_")];
    variants.iter().filter(|v| !v.is_empty()).any(|v| {
        text.match_indices(v.as_str()).any(|(at, _)| {
            !word(text[..at].chars().next_back()) && !word(text[at + v.len()..].chars().next())
        })
    })
}

/// A list of names as Python writes a list of strings (`['A', 'B']`): SelectorGroupChat puts
/// `str(participants)` into its prompt.
pub fn python_list(names: &[&str]) -> String {
    let items: Vec<String> = names
        .iter()
        .map(|n| {
            if n.contains('\'') && !n.contains('"') {
                format!("\"{n}\"")
            } else {
                format!("'{}'", n.replace('\\', "\\\\").replace('\'', "\\'"))
            }
        })
        .collect();
    format!("[{}]", items.join(", "))
}

impl Selector {
    pub fn new(settings: &SelectorSettings) -> Self {
        Self { settings: settings.clone(), previous: None }
    }

    /// SelectorGroupChat's history: each message as `name: text`, trimmed at the end, followed by
    /// a blank line, the messages joined by newlines.
    fn history(floor: &Floor) -> String {
        let parts: Vec<String> = floor
            .transcript
            .lines()
            .iter()
            .map(|l| format!("{}: {}", l.speaker, l.text).trim_end().to_string() + "\n\n")
            .collect();
        parts.join("\n")
    }

    /// One `name: description` line per agent, runs of white space made one space.
    fn roles(floor: &Floor) -> String {
        let lines: Vec<String> = floor
            .cast
            .iter()
            .map(|p| {
                let line = format!("{}: {}", p.name, p.description);
                line.split_whitespace().collect::<Vec<_>>().join(" ")
            })
            .collect();
        lines.join("\n")
    }

    /// Asks the selector until a reply names a candidate, then falls back.
    async fn select(
        &self,
        floor: &mut Floor,
        names: &[String],
        candidates: &[usize],
    ) -> Result<(usize, String, SelectorMatch, u32), ModelError> {
        let s = &self.settings;
        let participants = python_list(&candidates.iter().map(|&i| names[i].as_str()).collect::<Vec<_>>());
        let prompt = fill(
            &s.prompt,
            &[
                ("roles", &Self::roles(floor)),
                ("participants", &participants),
                ("history", &Self::history(floor)),
            ],
        );
        let mut messages = vec![match s.prompt_role {
            PromptRole::System => ChatMessage::system(prompt),
            PromptRole::User => ChatMessage::user(prompt),
        }];
        let last_speaker = self.previous.map(|i| names[i].clone());
        let lines = floor.transcript.lines();
        let waited: Vec<u32> = candidates
            .iter()
            .map(|&i| {
                let spoke = lines.iter().rposition(|l| l.speaker == names[i]);
                spoke.map_or(lines.len(), |at| lines.len() - 1 - at) as u32
            })
            .collect();
        let mut raw = String::new();
        for attempt in 1..=s.attempts.max(1) {
            let mut req =
                ChatRequest::new(SELECTOR, Purpose::Selector, messages.clone()).with_cue(Cue::Select {
                    candidates: candidates.iter().map(|&i| names[i].clone()).collect(),
                    last_speaker: last_speaker.clone(),
                    attempt,
                    waited: waited.clone(),
                })
                .in_language(floor.language.as_deref());
            req.temperature = s.temperature;
            req.max_tokens = s.max_tokens;
            let reply = floor.ask(&req).await?;
            raw = reply.response.said().to_string();
            // A refused or filtered reply names nobody, whatever text came with it.
            let feedback = match read_reply(reply.response.answer(), names) {
                Reading::Named(i, how) if candidates.contains(&i) => {
                    floor.record_call(&req, attempt, &reply, ParseOutcome::ok(serde_json::json!(names[i])));
                    return Ok((i, raw, how, attempt));
                }
                Reading::Named(..) => &s.repeated_feedback,
                Reading::Nobody => &s.no_name_feedback,
                Reading::Several(_) => &s.many_names_feedback,
            };
            let feedback = fill(feedback, &[("participants", &participants)]);
            let error = match reply.response.why_no_answer() {
                Some(why) => format!("{why} ({feedback})"),
                None => feedback.clone(),
            };
            floor.record_call(&req, attempt, &reply, ParseOutcome::failed(error));
            messages.push(ChatMessage::assistant(reply.response.answer()));
            messages.push(ChatMessage::user(feedback));
        }
        let chosen = match (s.fallback, self.previous) {
            (SelectorFallback::PreviousSpeaker, Some(previous)) => previous,
            (SelectorFallback::PreviousSpeaker | SelectorFallback::FirstCandidate, _) => candidates[0],
            (SelectorFallback::RandomCandidate, _) => candidates[floor.rng.random_range(0..candidates.len())],
        };
        Ok((chosen, raw, SelectorMatch::Fallback, s.attempts.max(1)))
    }
}

impl SpeakerSelection for Selector {
    type Settings = SelectorSettings;

    fn start(_floor: &Floor, settings: &SelectorSettings) -> Self {
        Self::new(settings)
    }

    async fn turn(&mut self, floor: &mut Floor) -> Result<Option<FinishReason>, ModelError> {
        let names: Vec<String> = floor.cast.iter().map(|p| p.name.clone()).collect();
        let candidates: Vec<usize> =
            (0..names.len()).filter(|&i| self.settings.allow_repeats || Some(i) != self.previous).collect();
        let candidate_names: Vec<&str> = candidates.iter().map(|&i| names[i].as_str()).collect();
        let (chosen, raw, matched, attempts) = if candidates.len() == 1 {
            (candidates[0], String::new(), SelectorMatch::OnlyCandidate, 0)
        } else {
            self.select(floor, &names, &candidates).await?
        };
        floor.push(Event::SelectorChoice {
            turn: floor.turn,
            candidates: candidate_names.iter().map(|n| n.to_string()).collect(),
            raw,
            agent: names[chosen].clone(),
            matched,
            attempts,
        });
        floor.push(Event::SpeakerSelected {
            turn: floor.turn,
            agent: names[chosen].clone(),
            tie: false,
            tied: Vec::new(),
        });
        let chosen = floor.floor_for(chosen);
        self.previous = Some(chosen);
        floor.speak(chosen).await?;
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Vec<String> {
        ["Planner", "Data_Analyst", "Critic"].map(String::from).to_vec()
    }

    #[test]
    fn a_name_is_read_exactly_then_loosely_then_as_the_only_mention() {
        let n = names();
        assert_eq!(read_reply("Critic", &n), Reading::Named(2, SelectorMatch::Exact));
        assert_eq!(read_reply("  Critic.\n", &n), Reading::Named(2, SelectorMatch::Exact));
        assert_eq!(read_reply("critic", &n), Reading::Named(2, SelectorMatch::Loose));
        assert_eq!(read_reply("**data analyst**", &n), Reading::Named(1, SelectorMatch::Loose));
        assert_eq!(
            read_reply("The next role should be Planner.", &n),
            Reading::Named(0, SelectorMatch::Mention)
        );
        assert_eq!(read_reply("Data Analyst should go next", &n), Reading::Named(1, SelectorMatch::Mention));
        assert_eq!(read_reply("Data\\_Analyst", &n), Reading::Named(1, SelectorMatch::Mention));
    }

    #[test]
    fn nobody_several_and_parts_of_words_are_told_apart() {
        let n = names();
        assert_eq!(read_reply("", &n), Reading::Nobody);
        assert_eq!(read_reply("Let's hear from someone new!", &n), Reading::Nobody);
        assert_eq!(read_reply("Critics agree", &n), Reading::Nobody, "a name inside a longer word");
        assert_eq!(read_reply("the planner", &n), Reading::Nobody, "mentions are case-sensitive");
        assert_eq!(read_reply("Planner or Critic", &n), Reading::Several(vec![0, 2]));
    }

    #[test]
    fn candidates_are_listed_as_python_prints_them() {
        assert_eq!(python_list(&["A", "B c"]), "['A', 'B c']");
        assert_eq!(python_list(&["O'Brien", "x"]), "[\"O'Brien\", 'x']");
        assert_eq!(python_list(&[]), "[]");
    }
}
