//! One turn of the method: the stop draw, the reflection, the choice of the next speaker and the prompt to them, or the closing summary.

use rand::Rng;
use regex_lite::Regex;

use crate::events::{Event, FinishReason};
use crate::floor::Floor;
use crate::methods::selection::SpeakerSelection;
use crate::model::{ChatMessage, ChatRequest, Cue, ModelError, Purpose};
use crate::parse;
use crate::prompts::fill;
use crate::scenario::{ChoiceFallback, DirectorSettings};

pub struct Director {
    settings: DirectorSettings,
    pattern: Regex,
    director: usize,
    /// Everyone but the director, in scenario order: the director's choice indexes this list.
    speakers: Vec<usize>,
    turns_taken: Vec<u32>,
    chosen: Option<usize>,
}

/// Reads the director's choice: an index into `count` speakers.
pub fn read_choice(reply: &str, pattern: &Regex, count: usize) -> Result<usize, String> {
    let n = parse::integer(reply, pattern, false)?;
    if n < 0 || n as usize >= count {
        return Err(format!("index {n} is out of range (0 to {})", count - 1));
    }
    Ok(n as usize)
}

impl Director {
    pub fn new(floor: &Floor, settings: &DirectorSettings) -> Self {
        let director = floor.scenario().agent_index(&settings.director).unwrap_or(0);
        let speakers: Vec<usize> = (0..floor.cast.len()).filter(|&i| i != director).collect();
        Self {
            settings: settings.clone(),
            pattern: parse::compile(&settings.pattern),
            director,
            turns_taken: vec![0; speakers.len()],
            speakers,
            chosen: None,
        }
    }

    fn request(&self, floor: &Floor, purpose: Purpose, prompt: String, next: Option<usize>) -> ChatRequest {
        let persona = &floor.cast[self.director];
        let mut req = ChatRequest::new(
            persona.name.clone(),
            purpose,
            vec![ChatMessage::system(&persona.system), ChatMessage::user(prompt)],
        )
        .with_cue(Cue::Director {
            topic: floor.topic.clone(),
            word_limit: floor.scenario().word_limit,
            speakers: self.speakers.iter().map(|&i| floor.cast[i].name.clone()).collect(),
            turns_taken: self.turns_taken.clone(),
            last_speaker: floor.transcript.last().map(|l| l.speaker.clone()),
            last_text: floor.transcript.last().map(|l| l.text.clone()).unwrap_or_default(),
            next_speaker: next.map(|i| floor.cast[i].name.clone()),
        })
        .in_language(floor.language.as_deref());
        req.temperature = floor.scenario().model.temperature;
        req
    }

    async fn direct(&mut self, floor: &mut Floor) -> Result<Option<FinishReason>, ModelError> {
        let name = floor.cast[self.director].name.clone();
        let prefix = format!("{name}: ");
        floor.push(Event::SpeakerSelected {
            turn: floor.turn,
            agent: name.clone(),
            tie: false,
            tied: Vec::new(),
        });

        let sample: f64 = floor.rng.random();
        let ended_by_class = std::mem::take(&mut floor.end_requested);
        let stop = ended_by_class || sample < self.settings.stop_probability;
        floor.push(Event::StopDraw {
            turn: floor.turn,
            sample,
            probability: self.settings.stop_probability,
            stop,
            ended_by_class,
        });

        if stop {
            let prompt = fill(
                &self.settings.summary,
                &[
                    ("message_history", floor.transcript.joined()),
                    ("topic", &floor.topic),
                    ("prefix", &prefix),
                ],
            );
            let req = self.request(floor, Purpose::DirectorSummary, prompt, None);
            let reply = floor.ask(&req).await?;
            floor.record_call(&req, 1, &reply, crate::events::ParseOutcome::of_speech(&reply.response));
            floor.add_said(&name, reply.response.said(), &[&reply.response]);
            return Ok(Some(FinishReason::DirectorStopped));
        }

        let prompt = fill(
            &self.settings.reflection,
            &[
                ("message_history", floor.transcript.joined()),
                ("clause", &self.settings.continuation),
                ("prefix", &prefix),
            ],
        );
        let req = self.request(floor, Purpose::DirectorReflection, prompt, None);
        let reflected = floor.ask(&req).await?;
        floor.record_call(&req, 1, &reflected, crate::events::ParseOutcome::of_speech(&reflected.response));
        let reflection = reflected.response.said().to_string();

        let speaker_names: Vec<String> =
            self.speakers.iter().enumerate().map(|(i, &s)| format!("{i}: {}", floor.cast[s].name)).collect();
        let history = format!("{}\n{prefix}\n{reflection}", floor.transcript.joined());
        let prompt = fill(
            &self.settings.choice,
            &[
                ("message_history", &history),
                ("speaker_names", &speaker_names.join("\n")),
                ("format_instructions", &self.settings.format_instructions),
            ],
        );
        let req = self.request(floor, Purpose::DirectorChoice, prompt, None);
        let count = self.speakers.len();
        let pattern = &self.pattern;
        let asked = floor
            .ask_until(&req, self.settings.attempts, |r| read_choice(&r.content, pattern, count))
            .await?;
        floor.record_asked(&req, &asked);
        let raw = asked.last_raw();
        let position = match asked.value {
            Some(p) => p,
            None => match self.settings.fallback {
                ChoiceFallback::First => 0,
                ChoiceFallback::Random => floor.rng.random_range(0..count),
            },
        };
        let chosen = self.speakers[position];
        floor.push(Event::DirectorChoice {
            turn: floor.turn,
            index: parse::integer(&raw, &self.pattern, false).ok(),
            raw,
            agent: floor.cast[chosen].name.clone(),
            fallback: asked.value.is_none(),
        });

        let prompt = fill(
            &self.settings.prompt,
            &[
                ("message_history", floor.transcript.joined()),
                ("next_speaker", &floor.cast[chosen].name),
                ("prefix", &prefix),
            ],
        );
        let req = self.request(floor, Purpose::DirectorPrompt, prompt, Some(chosen));
        let reply = floor.ask(&req).await?;
        floor.record_call(&req, 1, &reply, crate::events::ParseOutcome::of_speech(&reply.response));
        let question = reply.response.said();
        let message = match (reflection.is_empty(), question.is_empty()) {
            (true, _) => question.to_string(),
            (false, true) => reflection.clone(),
            // Joined by a space, as seed 004 joins them; not after a full stop of a script written
            // without spaces ("。"), where a space shows as a gap.
            (false, false) if reflection.ends_with(|c: char| ('\u{3000}'..='\u{303f}').contains(&c) || ('\u{ff00}'..='\u{ffef}').contains(&c)) => {
                format!("{reflection}{question}")
            }
            (false, false) => format!("{reflection} {question}"),
        };
        floor.add_said(&name, &message, &[&reflected.response, &reply.response]);
        self.chosen = Some(chosen);
        Ok(None)
    }
}

impl SpeakerSelection for Director {
    type Settings = DirectorSettings;

    fn start(floor: &Floor, settings: &DirectorSettings) -> Self {
        Self::new(floor, settings)
    }

    async fn turn(&mut self, floor: &mut Floor) -> Result<Option<FinishReason>, ModelError> {
        match self.chosen.take() {
            Some(speaker) => {
                floor.push(Event::SpeakerSelected {
                    turn: floor.turn,
                    agent: floor.cast[speaker].name.clone(),
                    tie: false,
                    tied: Vec::new(),
                });
                let speaker = floor.floor_for(speaker);
                if let Some(pos) = self.speakers.iter().position(|&s| s == speaker) {
                    self.turns_taken[pos] += 1;
                }
                floor.speak(speaker).await?;
                Ok(None)
            }
            None => self.direct(floor).await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_in_range_are_read_and_the_rest_refused() {
        let p = parse::compile(r"<(\d+)>");
        assert_eq!(read_choice("<2>", &p, 3), Ok(2));
        assert_eq!(read_choice("I pick <0>.", &p, 3), Ok(0));
        assert!(read_choice("<3>", &p, 3).unwrap_err().contains("out of range"));
        assert!(read_choice("<99999999999999999999999>", &p, 3).is_err());
        assert!(read_choice("2", &p, 3).is_err(), "seed 004 requires the brackets");
        assert!(read_choice("", &p, 3).is_err());
    }
}
