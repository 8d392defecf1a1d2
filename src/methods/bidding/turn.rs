//! One turn of the method: asks every agent for a bid at once, reads and retries them, picks the winner and has it speak.

use rand::seq::IndexedRandom;
use regex_lite::Regex;

use crate::events::{Event, FinishReason};
use crate::floor::Floor;
use crate::methods::selection::SpeakerSelection;
use crate::model::{ChatMessage, ChatRequest, Cue, HistorySpan, ModelError, Purpose};
use crate::parse;
use crate::scenario::BiddingSettings;

pub struct Bidding {
    settings: BiddingSettings,
    pattern: Regex,
    /// The turn each agent last spoke, kept here so no turn scans the whole transcript.
    last_spoke: Vec<Option<u32>>,
}

/// One agent's bid for a turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bid {
    pub agent: usize,
    pub value: i64,
    pub raw: String,
    pub attempts: u32,
    pub defaulted: bool,
}

/// The winner of a bid board: the highest bid, and every agent that tied with it.
pub fn highest(bids: &[Bid]) -> (i64, Vec<usize>) {
    let max = bids.iter().map(|b| b.value).max().unwrap_or(0);
    (max, bids.iter().filter(|b| b.value == max).map(|b| b.agent).collect())
}

impl Bidding {
    pub fn new(settings: &BiddingSettings) -> Self {
        Self {
            settings: settings.clone(),
            pattern: parse::compile(&settings.pattern),
            last_spoke: Vec::new(),
        }
    }

    fn bid_request(&self, floor: &mut Floor, agent: usize) -> ChatRequest {
        let name = floor.cast[agent].name.clone();
        let draft = floor.draft(&name, Purpose::Bid, 0);
        let persona = &floor.cast[agent];
        let vars = [
            ("header", persona.header.as_str()),
            ("message_history", floor.transcript.joined()),
            ("recent_message", floor.transcript.recent()),
            ("format_instructions", &self.settings.format_instructions),
        ];
        let (prompt, history) = draft.fill(&self.settings.template, &vars, "message_history");
        let last = floor.transcript.last();
        let mut req = ChatRequest::new(persona.name.clone(), Purpose::Bid, vec![ChatMessage::system(prompt)])
            .with_cue(Cue::Bid {
                last_speaker: last.map(|l| l.speaker.clone()),
                last_text: last.map(|l| l.text.clone()).unwrap_or_default(),
                turns_since_spoke: self.last_spoke.get(agent).copied().flatten().map(|t| floor.turn - t),
                turn: floor.turn,
            })
            .in_language(floor.language.as_deref());
        req.temperature = floor.scenario().model.temperature;
        req.history = history.map(|start| HistorySpan { message: 0, start, len: floor.transcript.joined().len() });
        req
    }
}

impl SpeakerSelection for Bidding {
    type Settings = BiddingSettings;

    fn start(_floor: &Floor, settings: &BiddingSettings) -> Self {
        Self::new(settings)
    }

    async fn turn(&mut self, floor: &mut Floor) -> Result<Option<FinishReason>, ModelError> {
        let agents = floor.cast.len();
        let requests: Vec<ChatRequest> = (0..agents).map(|a| self.bid_request(floor, a)).collect();
        let whole = self.settings.whole_reply_fallback;
        let pattern = &self.pattern;
        let read = |r: &crate::model::ChatResponse| parse::integer(&r.content, pattern, whole);
        let answers = {
            let shared = &*floor;
            futures::future::join_all(
                requests.iter().map(|req| shared.ask_until(req, self.settings.attempts, read)),
            )
            .await
        };
        let mut bids = Vec::with_capacity(answers.len());
        for (agent, (req, asked)) in requests.into_iter().zip(answers).enumerate() {
            let asked = asked?;
            floor.record_asked_owned(req, &asked);
            let bid = Bid {
                agent,
                value: asked.value.unwrap_or(self.settings.default_bid),
                raw: asked.last_raw(),
                attempts: asked.attempts.len() as u32,
                defaulted: asked.value.is_none(),
            };
            floor.push(Event::Bid {
                turn: floor.turn,
                agent: floor.cast[agent].name.clone(),
                raw: bid.raw.clone(),
                value: bid.value,
                attempts: bid.attempts,
                defaulted: bid.defaulted,
            });
            bids.push(bid);
        }
        let (_, tied) = highest(&bids);
        let winner = *tied.choose(&mut floor.rng).expect("at least two agents bid");
        floor.push(Event::SpeakerSelected {
            turn: floor.turn,
            agent: floor.cast[winner].name.clone(),
            tie: tied.len() > 1,
            tied: if tied.len() > 1 {
                tied.iter().map(|&a| floor.cast[a].name.clone()).collect()
            } else {
                Vec::new()
            },
        });
        let speaker = floor.floor_for(winner);
        floor.speak(speaker).await?;
        self.last_spoke.resize(floor.cast.len(), None);
        self.last_spoke[speaker] = Some(floor.turn);
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bid(agent: usize, value: i64) -> Bid {
        Bid { agent, value, raw: String::new(), attempts: 1, defaulted: false }
    }

    #[test]
    fn the_highest_bid_wins_and_ties_are_all_listed() {
        assert_eq!(highest(&[bid(0, 2), bid(1, 8), bid(2, 8)]), (8, vec![1, 2]));
        assert_eq!(highest(&[bid(0, 7), bid(1, 1), bid(2, 1)]), (7, vec![0]));
        assert_eq!(highest(&[bid(0, -3), bid(1, 0)]), (0, vec![1]));
    }
}
