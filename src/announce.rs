//! What a screen reader hears of a run as it plays: each finished speech once, with its speaker,
//! and each turn's decision once (who takes the floor and with what bid, the director's choice and
//! stop draw, the selector's pick, a handoff, a trading move), in the sentence the stage's panels
//! show it in, in the page's language. Never a speech's words as they stream, and not each bid on
//! its own: the bid board shows those, and a turn of five agents would be five announcements
//! before the one that matters.

use crate::events::{Event, MessageKind};
use crate::i18n::{say, t, tf};

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
            _ => decision(event).map(|line| {
                if line.ends_with(['.', '。', '!', '?']) {
                    line
                } else {
                    tf(say::HeardSentence, &[("line", &line)])
                }
            }),
        }
    }
}

/// A turn's decision in the sentence the stage's panels show it in (the page's language), or,
/// for what no panel words as a sentence, as the terminal words it.
fn decision(event: &Event) -> Option<String> {
    use crate::methods::{director, handoff, negotiation, selector};
    Some(match event {
        Event::StopDraw { sample, probability, stop, ended_by_class, .. } => {
            director::words::draw_sentence(*sample, *probability, *stop, *ended_by_class)
        }
        Event::DirectorChoice { agent, fallback, .. } => {
            director::words::choice_sentence("", agent, *fallback)
        }
        Event::SelectorChoice { agent, matched, attempts, .. } => {
            selector::words::selection_sentence(agent, *matched, *attempts)
        }
        Event::Handoff { from, to, method, fallback, reason, missed, .. } => {
            let sentence = handoff::words::handoff_sentence(from, to, method, *fallback);
            if *fallback {
                let why = reason.as_deref().map_or(t(say::HandoffNone).to_string(), |r| {
                    handoff::words::why_missed(missed.as_ref(), r)
                });
                tf(say::HeardHandoffWhy, &[("sentence", &sentence), ("why", &why)])
            } else {
                sentence
            }
        }
        Event::Action { player, action, valid, reason, invalid, .. } => {
            let why = negotiation::words::why_invalid(invalid.as_ref(), reason);
            negotiation::words::move_line(player, action.as_ref(), *valid, &why)
        }
        Event::OptimizerIteration { note: Some(note), .. } => {
            tf(say::HeardOptimizer, &[("note", &negotiation::words::optimizer_note(note))])
        }
        _ => return crate::decisions::decision(event),
    })
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
    fn the_directors_choice_and_draw_and_a_handoff_are_announced_in_the_stages_sentences() {
        let events = demo_run("daily-show-director", 6);
        let heard = announcements(&events);
        for event in &events {
            if let Event::DirectorChoice { agent, .. } = event {
                let line = format!("{agent} speaks next.");
                assert!(heard.contains(&line), "{line} in {heard:#?}");
            }
        }
        let draws = events.iter().filter(|e| matches!(e, Event::StopDraw { .. })).count();
        let said: Vec<&String> = heard.iter().filter(|h| h.contains("chance to end the show")).collect();
        assert_eq!(said.len(), draws, "{heard:#?}");
        assert!(
            said.iter().all(|h| h.contains("drew 0.") && h.ends_with('.') && !h.ends_with("..")),
            "{said:#?}"
        );
        let heard = announcements(&demo_run("ai-morality-handoff", 4));
        assert!(heard.iter().any(|h| h.contains(" hands the floor to ")), "{heard:#?}");
    }

    #[test]
    fn a_chinese_page_hears_its_decisions_in_chinese() {
        let runs = [demo_run("daily-show-director", 6), demo_run("ai-morality-handoff", 4)];
        crate::i18n::speak(Some(crate::i18n::zh::TABLE));
        let heard: Vec<String> = runs.iter().flat_map(|events| announcements(events)).collect();
        crate::i18n::speak(None);
        let speeches: Vec<&String> = runs
            .iter()
            .flatten()
            .filter_map(|e| match e {
                Event::Message { text, .. } => Some(text),
                _ => None,
            })
            .collect();
        let decisions: Vec<&String> =
            heard.iter().filter(|h| !speeches.iter().any(|s| h.ends_with(s.as_str()))).collect();
        assert!(decisions.len() >= 6, "{heard:#?}");
        for line in &decisions {
            assert!(line.ends_with('。'), "{line}");
            assert!(
                !line.contains("Next speaker") && !line.contains("Stop draw") && !line.contains("Handoff"),
                "{line}"
            );
        }
    }
}
