//! Replaying a recorded run: its events, handed out one step at a time (the opening, then each
//! turn), so Step and Play walk through a run file with the same panels as a live run and
//! without any model; and continuing a recording live from any step.
//!
//! Continuing needs no saved engine state: a fresh run of the recorded scenario and seed is
//! played with every call answered from the recording, which gives the same log (the run's one
//! seeded RNG makes the same draws), and from there on a live model answers. The catch-up is
//! checked event by event, so a recording this build would not reproduce is refused, not forked
//! into something else.

use std::rc::Rc;

use futures::future::LocalBoxFuture;

use crate::clock::Clock;
use crate::engine::{Run, StepOutcome};
use crate::events::{Event, FinishReason, MessageKind};
use crate::model::{ChatModel, ChatRequest, ChatResponse, ModelError};
use crate::scripted::ScriptedModel;

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

    /// The whole recording.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Adds events at the end of the recording (a judge's verdict on it).
    pub fn extend(&mut self, more: impl IntoIterator<Item = Event>) {
        self.events.extend(more);
    }

    /// Hands out the first `position` events at once (moved back to the start of the step it
    /// falls in); returns them.
    pub fn seek(&mut self, position: usize) -> &[Event] {
        let start = step_starts(&self.events).into_iter().take_while(|&s| s <= position).last().unwrap_or(0);
        self.next = if position >= self.events.len() { self.events.len() } else { start };
        &self.events[..self.next]
    }

    /// The turns in the recording.
    pub fn turns(&self) -> u32 {
        self.events.iter().filter_map(Event::turn).max().unwrap_or(0)
    }

    /// The events of the next step (see [`step_end`]).
    pub fn next_step(&mut self) -> &[Event] {
        let start = self.next;
        self.next = step_end(&self.events, start);
        &self.events[start..self.next]
    }
}

/// Where the step starting at `start` ends: at the first event of a later turn. Events without a
/// turn (a game starting, the run finishing) go with the step they follow.
fn step_end(events: &[Event], start: usize) -> usize {
    let mut current: Option<u32> = None;
    let mut end = start;
    while let Some(e) = events.get(end) {
        if let Some(t) = e.turn() {
            match current {
                Some(c) if t > c => break,
                _ => current = Some(t),
            }
        }
        end += 1;
    }
    end
}

/// Where each step of `events` starts.
pub fn step_starts(events: &[Event]) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut at = 0;
    while at < events.len() {
        starts.push(at);
        at = step_end(events, at);
    }
    starts
}

/// The part of a recording a live run can go on from: all of it but a closing `run_finished`
/// (and any judge's verdict after it),
/// and without its last step if that step ended in an error (the failed turn is played again).
pub fn resumable(events: &[Event]) -> &[Event] {
    // A verdict on the run so far is not part of it: the run goes on without it.
    let events = crate::events::run_part(events);
    let mut end = events.len();
    if matches!(events.last(), Some(Event::RunFinished { .. })) {
        end -= 1;
    }
    if let Some(&last) = step_starts(&events[..end]).last() {
        if events[last..end].iter().any(|e| matches!(e, Event::Error { .. })) {
            end = last;
        }
    }
    &events[..end]
}

/// Answers each call from a recording while it holds a reply for that agent and purpose, then
/// from the live model.
struct RecordedThenLive {
    recorded: ScriptedModel,
    live: Rc<dyn ChatModel>,
}

impl ChatModel for RecordedThenLive {
    fn complete<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, ModelError>> {
        match self.recorded.take_next(&request.agent, request.purpose) {
            Some(response) => Box::pin(async move { Ok(response) }),
            None => self.live.complete(request),
        }
    }
}

/// A live run that has caught up with `recorded` (see [`resumable`] for how much of it) and goes
/// on with `live`. The error says why the recording cannot be continued.
pub async fn continue_live(
    recorded: &[Event],
    live: Rc<dyn ChatModel>,
    clock: Rc<dyn Clock>,
) -> Result<Run, String> {
    let Some(Event::RunStarted { scenario, .. }) = recorded.first() else {
        return Err("the recording does not start with run_started".into());
    };
    let prefix = resumable(recorded);
    let model = Rc::new(RecordedThenLive { recorded: ScriptedModel::from_events(prefix), live });
    let mut run = Run::new((**scenario).clone(), model, clock)
        .map_err(|errors| crate::scenario::FieldError::join(&errors))?;
    while run.events().len() < prefix.len() {
        // Interjections and votes were recorded between steps: make them where they were made.
        while let Some(event) = prefix.get(run.events().len()).filter(|_| !run.events().is_empty()) {
            match event {
                Event::Message { kind: MessageKind::Injected, speaker, text, .. } => {
                    run.inject(speaker, text)
                }
                Event::FloorVote { by, agent, .. } => run.vote(by, agent)?,
                _ => break,
            }
        }
        if run.events().len() >= prefix.len() {
            break;
        }
        // What the class asked for in this step (the floor given, the show ended) was asked
        // before it.
        let at = run.events().len();
        for event in &prefix[at..step_end(prefix, at)] {
            match event {
                Event::FloorGiven { agent, .. } => run.give_floor(agent)?,
                Event::StopDraw { ended_by_class: true, .. } => run.end_show()?,
                _ => {}
            }
        }
        let outcome = run.step().await;
        if let StepOutcome::Capped = outcome {
            // The user raised the cap here: do the same, or stop where the recording paused.
            match prefix.get(run.events().len()) {
                Some(Event::SpendingCapSet { cap, .. }) => {
                    run.set_spending_cap(*cap);
                    continue;
                }
                _ => break,
            }
        }
        if let StepOutcome::Finished(reason) = outcome {
            if reason != FinishReason::Error && run.events().len() > prefix.len() {
                return Err(format!(
                    "this run ended at turn {} ({reason}): there is nothing to continue",
                    run.turn()
                ));
            }
            break;
        }
    }
    if !run.adopt_recorded_log(prefix) {
        let at = run.events().iter().zip(prefix).take_while(|(a, b)| a.same_but_timings(b)).count();
        return Err(format!(
            "this build does not reproduce the recording (they differ from event {}), so it can only be replayed",
            at + 1
        ));
    }
    Ok(run)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_cover_the_recording_once_turn_by_turn() {
        for preset in crate::presets::PRESETS {
            let events = crate::engine::demo_events(&preset.scenario());
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
