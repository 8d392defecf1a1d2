//! What a screen reader hears of a run as it plays: each finished speech once, with its speaker,
//! and each turn's decision once (who takes the floor and with what bid, the director's choice and
//! stop draw, the selector's pick, a handoff, a trading move), worded as the terminal words them
//! ([`crate::decisions`]). Never a speech's words as they stream, and not each bid on its own: the
//! bid board shows those, and a turn of five agents would be five announcements before the one
//! that matters.

use crate::events::{Event, MessageKind};
use crate::i18n::{say, tf};

/// Hears a run's events in order; remembers the bids of the turn under way, for the selection
/// that follows them.
#[derive(Clone, Debug, Default)]
pub struct Announcer {
    bids: Vec<(u32, String, i64)>,
}

impl Announcer {
    /// What to announce of `event`, if anything.
    pub fn hear(&mut self, event: &Event) -> Option<String> {
        match event {
            Event::RunStarted { .. } => {
                self.bids.clear();
                None
            }
            Event::Bid { turn, agent, value, .. } => {
                self.bids.push((*turn, agent.clone(), *value));
                None
            }
            Event::SpeakerSelected { turn, agent, tie, tied } => {
                let bid = self.bids.iter().find(|(t, a, _)| t == turn && a == agent).map(|b| b.2);
                self.bids.retain(|(t, ..)| t > turn);
                let drawn = tie
                    .then(|| tf(say::HeardDrawn, &[("note", &crate::events::draw_note(tied))]))
                    .unwrap_or_default();
                let turn = turn.to_string();
                Some(match bid {
                    Some(bid) => tf(
                        say::HeardFloorBid,
                        &[("turn", &turn), ("agent", agent), ("bid", &bid.to_string()), ("drawn", &drawn)],
                    ),
                    None => tf(say::HeardFloor, &[("turn", &turn), ("agent", agent), ("drawn", &drawn)]),
                })
            }
            Event::Message { speaker, text, kind, .. } => Some(match kind {
                MessageKind::Incomplete => tf(say::HeardCutOff, &[("speaker", speaker), ("text", text)]),
                _ => tf(say::HeardSpeech, &[("speaker", speaker), ("text", text)]),
            }),
            // A student's vote decides nothing; the teacher's floor does, and is announced.
            Event::FloorVote { .. } | Event::ModelCall { .. } => None,
            _ => {
                crate::decisions::decision(event).map(|d| if d.ends_with('.') { d } else { format!("{d}.") })
            }
        }
    }
}

/// Everything a run's `events` announce, in order.
pub fn announcements(events: &[Event]) -> Vec<String> {
    let mut announcer = Announcer::default();
    events.iter().filter_map(|e| announcer.hear(e)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn demo_run(preset: &str, turns: u32) -> Vec<Event> {
        let mut scenario = crate::presets::find(preset).unwrap().scenario();
        scenario.max_turns = turns;
        let clock = std::rc::Rc::new(crate::clock::FrozenClock);
        let model = std::rc::Rc::new(crate::demo::DemoModel::new(&scenario, clock.clone()));
        let mut run = crate::engine::Run::new(scenario, model, clock).unwrap();
        futures::executor::block_on(run.run_to_end());
        run.events().to_vec()
    }

    #[test]
    fn each_speech_is_announced_once_with_its_speaker_and_each_turn_names_its_bid() {
        let events = demo_run("rail-debate", 4);
        let heard = announcements(&events);
        let speeches: Vec<String> = events
            .iter()
            .filter_map(|e| match e {
                Event::Message { speaker, text, .. } => Some(format!("{speaker}: {text}")),
                _ => None,
            })
            .collect();
        assert_eq!(speeches.len(), 5, "the opening and four speeches");
        for speech in &speeches {
            assert_eq!(heard.iter().filter(|h| *h == speech).count(), 1, "{speech}");
        }
        let floors: Vec<&String> = heard.iter().filter(|h| h.contains("takes the floor")).collect();
        assert_eq!(floors.len(), 4);
        for (turn, line) in floors.iter().enumerate() {
            let (agent, bid) = events
                .iter()
                .find_map(|e| match e {
                    Event::SpeakerSelected { turn: t, agent, .. } if *t == turn as u32 + 1 => {
                        Some(agent.clone())
                    }
                    _ => None,
                })
                .and_then(|agent| {
                    events.iter().find_map(|e| match e {
                        Event::Bid { turn: t, agent: a, value, .. }
                            if *t == turn as u32 + 1 && *a == agent =>
                        {
                            Some((agent.clone(), *value))
                        }
                        _ => None,
                    })
                })
                .unwrap();
            assert!(
                line.starts_with(&format!("Turn {}: {agent} takes the floor with a bid of {bid}", turn + 1)),
                "{line}"
            );
        }
        // No bid on its own, and nothing else.
        assert_eq!(heard.len(), speeches.len() + floors.len(), "{heard:#?}");
    }

    #[test]
    fn the_directors_choice_and_draw_and_a_handoff_are_announced_in_the_terminals_words() {
        let heard = announcements(&demo_run("daily-show-director", 6));
        assert!(heard.iter().any(|h| h.starts_with("Next speaker: ")), "{heard:#?}");
        assert!(heard.iter().any(|h| h.starts_with("Stop draw: ")), "{heard:#?}");
        assert!(heard.iter().all(|h| !h.ends_with("..")));
        let heard = announcements(&demo_run("ai-morality-handoff", 4));
        assert!(heard.iter().any(|h| h.starts_with("Handoff (")), "{heard:#?}");
    }
}
