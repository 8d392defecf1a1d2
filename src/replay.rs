//! Replaying a recorded run: its events, handed out one step at a time (the opening, then each
//! turn), so Step and Play walk through a run file with the same panels as a live run and
//! without any model.

use crate::events::Event;

pub struct Replay {
    events: Vec<Event>,
    next: usize,
}

impl Replay {
    pub fn new(events: Vec<Event>) -> Self {
        Self { events, next: 0 }
    }

    pub fn is_done(&self) -> bool {
        self.next >= self.events.len()
    }

    /// The turns in the recording.
    pub fn turns(&self) -> u32 {
        self.events.iter().filter_map(Event::turn).max().unwrap_or(0)
    }

    /// The events of the next step: everything up to the first event of a later turn. Events
    /// without a turn (a game starting, the run finishing) go with the step they follow.
    pub fn next_step(&mut self) -> &[Event] {
        let start = self.next;
        let mut current: Option<u32> = None;
        while let Some(e) = self.events.get(self.next) {
            if let Some(t) = e.turn() {
                match current {
                    Some(c) if t > c => break,
                    _ => current = Some(t),
                }
            }
            self.next += 1;
        }
        &self.events[start..self.next]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_cover_the_recording_once_turn_by_turn() {
        for preset in &crate::presets::PRESETS {
            let scenario = preset.scenario();
            let clock = std::rc::Rc::new(crate::clock::FrozenClock);
            let model = std::rc::Rc::new(crate::model::demo::DemoModel::new(&scenario, clock.clone()));
            let mut run = crate::engine::Run::new(scenario, model, clock).unwrap();
            futures::executor::block_on(run.run_to_end());
            let events = run.events().to_vec();
            let mut replay = Replay::new(events.clone());
            let turns = replay.turns();
            let mut seen = Vec::new();
            let mut steps = 0;
            while !replay.is_done() {
                let step = replay.next_step().to_vec();
                let numbered: Vec<u32> = step.iter().filter_map(Event::turn).collect();
                assert!(numbered.windows(2).all(|w| w[0] == w[1]), "{}: one turn per step", preset.id);
                seen.extend(step);
                steps += 1;
            }
            assert!(seen == events, "{}: every event once, in order", preset.id);
            let opening = events.iter().any(|e| e.turn() == Some(0)) as u32;
            assert_eq!(steps, turns + opening, "{}: the opening (if any), then one step per turn", preset.id);
        }
    }
}
