//! The session's transitions, driven the way the browser drives them: commands, then the jobs
//! they hand out awaited here with a blocking executor.

use std::cell::Cell;
use std::rc::Rc;

use futures::executor::block_on;
use futures::future::LocalBoxFuture;

use super::*;
use crate::clock::FrozenClock;
use crate::demo::DemoModel;
use crate::model::{ChatModel, ChatRequest, ChatResponse, ModelError};
use crate::presets::find;

/// A model failing every call while `down` is set (a provider that went away).
struct Flaky {
    inner: Rc<dyn ChatModel>,
    down: Rc<Cell<bool>>,
}

impl ChatModel for Flaky {
    fn complete<'a>(&'a self, r: &'a ChatRequest) -> LocalBoxFuture<'a, Result<ChatResponse, ModelError>> {
        if self.down.get() {
            let failure = crate::failure::Failure::Server { status: 503, message: "overloaded".into() };
            let provider = crate::catalog::preset("openai").expect("a known provider");
            let error =
                crate::failure::ProviderError { failure, provider, base_url: provider.base_url.into() };
            Box::pin(async move { Err(ModelError::Provider(Box::new(error))) })
        } else {
            self.inner.complete(r)
        }
    }
}

struct Bench {
    session: Session,
    scenario: Scenario,
    down: Rc<Cell<bool>>,
    /// The log of the scenario played through on the demo model: a run continued from a
    /// recording is answered as this run was, so it must come out the same.
    reference: Vec<Event>,
    /// Every effect asked for, in order.
    effects: Vec<Effect>,
}

impl Bench {
    fn new(preset: &str, turns: u32) -> Bench {
        let mut scenario = find(preset).unwrap().scenario();
        scenario.max_turns = turns;
        let reference = crate::engine::demo_events(&scenario);
        Bench {
            session: Session::new(),
            scenario,
            down: Rc::new(Cell::new(false)),
            reference,
            effects: Vec::new(),
        }
    }

    fn model(&self, scenario: &Scenario) -> Rc<dyn ChatModel> {
        let demo = Rc::new(DemoModel::new(scenario, Rc::new(FrozenClock)));
        Rc::new(Flaky { inner: demo, down: self.down.clone() })
    }

    /// The model that goes on from `recording`: it answers as the reference run did after it.
    fn model_after(&self, recording: &[Event]) -> Rc<dyn ChatModel> {
        let cut = crate::replay::resumable(recording).len().min(self.reference.len());
        let inner = Rc::new(crate::scripted::ScriptedModel::from_events(&self.reference[cut..]));
        Rc::new(Flaky { inner, down: self.down.clone() })
    }

    fn fresh(&self) -> impl FnOnce() -> Result<Run, String> + use<> {
        let model = self.model(&self.scenario);
        let scenario = self.scenario.clone();
        move || {
            Run::new(scenario, model, Rc::new(FrozenClock)).map_err(|e| crate::scenario::FieldError::join(&e))
        }
    }

    fn play(&mut self) {
        let effects = self.session.play(self.fresh()).unwrap();
        self.effects.extend(effects);
        self.work();
    }

    fn step(&mut self) {
        let effects = self.session.step(self.fresh()).unwrap();
        self.effects.extend(effects);
        self.work();
    }

    fn act(&mut self, command: impl FnOnce(&mut Session) -> Vec<Effect>) {
        let effects = command(&mut self.session);
        self.effects.extend(effects);
    }

    /// Does every job the session hands out, as the shell does.
    fn work(&mut self) {
        while let Some(job) = self.session.next_job() {
            let effects = match job {
                Job::Step(mut job) => {
                    let outcome = block_on(job.run.step());
                    self.session.stepped(job, outcome)
                }
                Job::CatchUp(job) => {
                    let model = self.model_after(&job.recording);
                    let result =
                        block_on(crate::replay::continue_live(&job.recording, model, Rc::new(FrozenClock)));
                    self.session.caught_up(job, result)
                }
            };
            self.effects.extend(effects);
        }
    }

    fn turn(&self) -> u32 {
        self.session.events().iter().filter_map(Event::turn).max().unwrap_or(0)
    }

    fn ended(&self) -> Option<FinishReason> {
        match self.session.events().last() {
            Some(Event::RunFinished { reason }) => Some(*reason),
            _ => None,
        }
    }

    fn saw(&self, wanted: fn(&Effect) -> bool) -> bool {
        self.effects.iter().any(wanted)
    }
}

fn demo_log(preset: &str, turns: u32) -> Vec<Event> {
    let mut scenario = find(preset).unwrap().scenario();
    scenario.max_turns = turns;
    crate::engine::demo_events(&scenario)
}

/// The plain commands from each state: (state reached by, command, status after, turn after).
#[test]
fn each_command_from_each_state() {
    type Setup = fn(&mut Bench);
    type Command = fn(&mut Bench);
    let idle: Setup = |_| {};
    let paused: Setup = |b| b.step(); // the opening
    let after_two: Setup = |b| {
        b.step();
        b.step();
        b.step();
    };
    let finished: Setup = |b| b.play();
    let on_error: Setup = |b| {
        b.step();
        b.down.set(true);
        b.step();
        b.down.set(false);
    };
    let play: Command = |b| b.play();
    let step: Command = |b| b.step();
    let pause: Command = |b| b.session.pause();
    let stop: Command = |b| b.act(Session::stop);
    let reset: Command = |b| b.act(Session::reset);
    use Status::*;
    let table: Vec<(&str, Setup, &str, Command, Status, u32)> = vec![
        ("idle", idle, "play", play, Finished, 4),
        ("idle", idle, "step", step, Paused, 0),
        ("idle", idle, "pause", pause, Idle, 0),
        ("idle", idle, "stop", stop, Idle, 0),
        ("idle", idle, "reset", reset, Idle, 0),
        ("paused", paused, "play", play, Finished, 4),
        ("paused", paused, "step", step, Paused, 1),
        ("paused", paused, "pause", pause, Paused, 0),
        ("paused", paused, "stop", stop, Finished, 0),
        ("turn 2", after_two, "step", step, Paused, 3),
        ("turn 2", after_two, "stop", stop, Finished, 2),
        ("turn 2", after_two, "reset", reset, Idle, 0),
        ("finished", finished, "play", play, Finished, 4),
        ("finished", finished, "step", step, Paused, 0),
        ("finished", finished, "stop", stop, Finished, 4),
        ("finished", finished, "reset", reset, Idle, 0),
        ("on error", on_error, "step", step, Paused, 1),
        ("on error", on_error, "play", play, Finished, 4),
        ("on error", on_error, "stop", stop, Finished, 1),
        ("on error", on_error, "reset", reset, Idle, 0),
    ];
    for (from, setup, name, command, status, turn) in table {
        let mut b = Bench::new("rail-debate", 4);
        setup(&mut b);
        command(&mut b);
        assert_eq!((b.session.status(), b.turn()), (status, turn), "{name} from {from}");
        assert!(!b.session.is_working(), "{name} from {from}: nothing left in flight");
    }
}

#[test]
fn a_run_played_to_its_end_logs_what_the_engine_logs_and_goes_to_the_past_runs_once() {
    let mut b = Bench::new("daily-show-director", 6);
    b.play();
    assert_eq!(*b.session.events(), demo_log("daily-show-director", 6));
    let archived: Vec<&Effect> = b.effects.iter().filter(|e| matches!(e, Effect::Archive(_))).collect();
    assert_eq!(archived, [&Effect::Archive(demo_log("daily-show-director", 6))]);
    // A new run replaces it without archiving the old one again.
    b.step();
    assert_eq!(b.effects.iter().filter(|e| matches!(e, Effect::Archive(_))).count(), 1);
    assert_eq!(b.session.status(), Status::Paused);
}

#[test]
fn step_by_step_gives_the_same_log_as_play() {
    for preset in ["rail-debate", "ai-morality-handoff", "trading-game"] {
        let mut b = Bench::new(preset, 5);
        while b.session.status() != Status::Finished {
            b.step();
        }
        assert_eq!(*b.session.events(), demo_log(preset, 5), "{preset}");
    }
}

#[test]
fn stop_during_a_reply_cancels_the_calls_and_records_the_turn_before_the_end() {
    let mut b = Bench::new("rail-debate", 6);
    b.step();
    let effects = b.session.play(b.fresh()).unwrap();
    assert_eq!(effects, [Effect::Work]);
    let Some(Job::Step(mut job)) = b.session.next_job() else { panic!("a step is handed out") };
    // The reply is streaming in when the user presses Stop.
    assert_eq!(b.session.stop(), [Effect::CancelCalls]);
    assert_eq!(b.session.status(), Status::Running, "stopping waits for the step");
    let outcome = block_on(job.run.step());
    let effects = b.session.stepped(job, outcome);
    assert_eq!(b.session.status(), Status::Finished);
    assert_eq!(b.ended(), Some(FinishReason::Stopped));
    assert_eq!(b.turn(), 1, "the turn in flight is kept");
    assert!(effects.contains(&Effect::Save) && effects.iter().any(|e| matches!(e, Effect::Archive(_))));
    assert!(b.session.next_job().is_none());
}

#[test]
fn a_failed_turn_pauses_on_the_error_and_step_plays_it_again_keeping_what_came_before() {
    let mut b = Bench::new("rail-debate", 3);
    b.step();
    b.step();
    b.down.set(true);
    b.play();
    assert_eq!(b.session.status(), Status::PausedOnError);
    assert_eq!(b.ended(), Some(FinishReason::Error));
    assert!(b.session.events().iter().any(|e| matches!(e, Event::Error { turn: 2, .. })));
    assert!(b.effects.last() == Some(&Effect::Save), "saved where it paused");
    assert!(!b.saw(|e| matches!(e, Effect::Archive(_))), "an error is no end: not in the past runs");
    // Stepping while the provider is still down pauses on the error again, nothing lost.
    b.step();
    assert_eq!(b.session.status(), Status::PausedOnError);
    assert_eq!(b.turn(), 2);
    b.down.set(false);
    b.step();
    assert_eq!(b.session.status(), Status::Paused);
    assert!(b.saw(|e| *e == Effect::Redraw), "the failed turn's events are taken off the screen");
    assert!(!b.session.events().iter().any(|e| matches!(e, Event::Error { .. })));
    b.play();
    assert_eq!(*b.session.events(), demo_log("rail-debate", 3), "the same log as a run that never failed");
}

#[test]
fn reset_mid_turn_drops_the_turn_and_its_late_events() {
    let mut b = Bench::new("rail-debate", 4);
    b.step();
    let fresh = b.fresh();
    b.act(|s| s.play(fresh).unwrap());
    let Some(Job::Step(mut job)) = b.session.next_job() else { panic!("a step is handed out") };
    let effects = b.session.reset();
    assert!(effects.contains(&Effect::Forget) && effects.contains(&Effect::Redraw));
    // The old step finishes afterwards: its events and its result change nothing.
    let outcome = block_on(job.run.step());
    assert!(b.session.stepped(job, outcome).is_empty());
    assert_eq!(b.session.status(), Status::Idle);
    assert!(b.session.events().is_empty());
    assert!(b.session.next_job().is_none());
}

#[test]
fn a_replay_steps_through_the_recording_and_continues_live_to_the_same_log() {
    let recorded = demo_log("arms-debate", 5);
    let mut b = Bench::new("arms-debate", 5);
    b.act(|s| s.open_replay(recorded.clone()));
    assert!(b.session.is_replaying());
    assert!(b.session.events().is_empty(), "nothing is shown until Step or Run");
    b.step();
    b.step();
    assert_eq!(b.turn(), 1);
    assert_eq!(b.session.status(), Status::Paused);
    let snapshot = b.session.snapshot().unwrap();
    assert!(snapshot.replay && snapshot.events.len() == recorded.len());
    assert_eq!(snapshot.position, b.session.events().len());
    drop(snapshot);
    // Run plays the replay on, a step each time the shell comes back.
    assert_eq!(b.session.play(b.fresh()).unwrap(), [Effect::SaveSoon, Effect::ReplayLater]);
    b.session.pause();
    assert_eq!(b.turn(), 2);
    // Continue live: the model takes over from turn 2 and the log is the same as a live run's.
    b.act(|s| s.continue_live());
    assert!(!b.session.is_replaying());
    b.play();
    assert_eq!(*b.session.events(), recorded);
    assert!(b.saw(|e| matches!(e, Effect::Archive(_))), "the forked run is a live run");
}

#[test]
fn a_replay_ends_at_its_last_step_and_stop_ends_it_early() {
    let recorded = demo_log("rail-debate", 2);
    let mut b = Bench::new("rail-debate", 2);
    b.act(|s| s.open_replay(recorded.clone()));
    for _ in 0..3 {
        b.step();
    }
    assert_eq!(b.session.status(), Status::Finished);
    assert_eq!(*b.session.events(), recorded);
    b.act(|s| s.open_replay(recorded));
    b.step();
    b.act(|s| s.stop());
    assert_eq!(b.session.status(), Status::Finished);
    assert!(!b.saw(|e| matches!(e, Effect::Archive(_))), "a replay is never archived");
}

#[test]
fn restoring_a_saved_session_puts_it_back_as_it_was() {
    let whole = demo_log("rail-debate", 3);
    // A finished run: finished, and already in the past runs.
    let mut b = Bench::new("rail-debate", 3);
    b.act(|s| s.restore(whole.clone(), false, 0));
    assert_eq!(b.session.status(), Status::Finished);
    b.act(|s| s.reset());
    assert!(!b.saw(|e| matches!(e, Effect::Archive(_))));
    // A run saved mid-way: paused; Run continues it to the same log.
    let cut = crate::replay::step_starts(&whole)[2];
    b.act(|s| s.restore(whole[..cut].to_vec(), false, 0));
    assert_eq!(b.session.status(), Status::Paused);
    b.play();
    assert_eq!(*b.session.events(), whole);
    // A replay saved at a step.
    b.act(|s| s.restore(whole.clone(), true, cut));
    assert!(b.session.is_replaying());
    assert_eq!(b.session.events().len(), cut);
}

#[test]
fn a_recording_this_build_cannot_reproduce_is_refused_with_a_notice_and_kept() {
    let mut recorded = demo_log("rail-debate", 3);
    if let Some(Event::Message { text, .. }) =
        recorded.iter_mut().rev().find(|e| matches!(e, Event::Message { .. }))
    {
        text.push_str(" (edited)");
    }
    recorded.pop(); // no run_finished: it looks unfinished
    let mut b = Bench::new("rail-debate", 5);
    b.act(|s| s.restore(recorded.clone(), false, 0));
    b.play();
    assert_eq!(b.session.status(), Status::Finished);
    assert!(b.saw(|e| matches!(e, Effect::Notice(n) if n.contains("cannot be continued live"))));
    assert_eq!(*b.session.events(), recorded, "nothing on screen is lost");
}

#[test]
fn no_model_to_go_on_with_keeps_the_recording_paused_for_another_try() {
    let recorded = demo_log("rail-debate", 3);
    let cut = crate::replay::step_starts(&recorded)[2];
    let mut b = Bench::new("rail-debate", 3);
    b.act(|s| s.restore(recorded[..cut].to_vec(), false, 0));
    let fresh = b.fresh();
    b.act(|s| s.play(fresh).unwrap());
    let Some(Job::CatchUp(job)) = b.session.next_job() else { panic!("the recording is caught up first") };
    let effects = b.session.no_model(job, "no API key for api.openai.com");
    assert_eq!(effects, [Effect::Notice("Cannot go on: no API key for api.openai.com.".into())]);
    assert_eq!(b.session.status(), Status::Paused);
    assert!(!b.session.is_working());
    b.play();
    assert_eq!(*b.session.events(), recorded);
}

#[test]
fn the_spending_cap_pauses_before_a_turn_and_raising_it_goes_on() {
    let mut b = Bench::new("rail-debate", 4);
    b.session.set_cap(SpendingCap { tokens: 1, cost: 0.0 });
    b.play();
    assert_eq!(b.session.status(), Status::Paused);
    assert!(b.session.events().iter().any(|e| matches!(e, Event::SpendingCapReached { .. })));
    let turn = b.turn();
    b.session.set_cap(SpendingCap::default());
    b.play();
    assert_eq!(b.session.status(), Status::Finished);
    assert!(b.turn() > turn);
}

#[test]
fn the_view_drains_each_event_once_and_a_snapshot_holds_only_whole_steps() {
    let mut b = Bench::new("rail-debate", 3);
    let mut seen = Vec::new();
    b.step();
    seen.extend(b.session.drain());
    b.step();
    seen.extend(b.session.drain());
    assert!(b.session.drain().is_empty());
    assert_eq!(seen, *b.session.events());
    let snapshot = b.session.snapshot().unwrap();
    assert!(!snapshot.replay);
    assert_eq!(snapshot.events.len(), seen.len());
}

#[test]
fn an_interjection_is_recorded_heard_by_the_next_call_and_kept_when_continued_live() {
    const SAID: &str = "What about the people who live along the line?";
    let mut b = Bench::new("rail-debate", 3);
    assert_eq!(
        b.session.interject("Audience member", SAID).unwrap_err(),
        "interjecting needs a live run: press Run or Step first"
    );
    b.step(); // the opening
    b.step(); // turn 1
    let before = b.session.events().len();
    b.act(|s| s.interject("Audience member", SAID).unwrap());
    {
        let events = b.session.events();
        assert!(matches!(
            &events[before],
            Event::Message { speaker, text, kind: crate::events::MessageKind::Injected, .. }
                if speaker == "Audience member" && text == SAID
        ));
    }
    assert!(b.session.interject(" ", SAID).is_err(), "a speaker is needed");
    b.play();
    let events = b.session.events().clone();
    assert_eq!(b.ended(), Some(FinishReason::TurnLimit));
    // Every call after the interjection carries it in what it sent.
    let calls: Vec<usize> =
        (before..events.len()).filter(|&i| matches!(events[i], Event::ModelCall { .. })).collect();
    assert!(!calls.is_empty());
    for i in calls {
        let sent = crate::events::request_messages(&events, i).unwrap();
        assert!(sent.iter().any(|m| m.content.contains(SAID)), "call {i} did not hear it");
    }
    // Continued live from a step after it (as after a reload), the log comes out the same.
    let cut = crate::replay::step_starts(&events)[3];
    let mut again = Bench::new("rail-debate", 3);
    again.act(|s| s.restore(events[..cut].to_vec(), false, 0));
    again.play();
    let strip = |es: &[Event]| es.iter().map(Event::without_timings).collect::<Vec<_>>();
    assert_eq!(strip(&again.session.events()[..cut]), strip(&events[..cut]));
    assert!(again.session.events().iter().any(|e| matches!(e, Event::Message { text, .. } if text == SAID)));
}

#[test]
fn a_students_vote_is_recorded_between_steps_changes_nothing_and_is_kept_when_continued_live() {
    let mut b = Bench::new("rail-debate", 3);
    assert!(b.session.vote("Cy", "Kanye West").unwrap_err().contains("needs a live run"));
    b.step(); // the opening
    b.step(); // turn 1
    let before = b.session.events().len();
    b.act(|s| s.vote("Cy", "Kanye West").unwrap());
    assert!(b.session.vote("Cy", "Nobody").unwrap_err().contains("not in this run"));
    assert!(matches!(
        &b.session.events()[before],
        Event::FloorVote { turn: 1, by, agent } if by == "Cy" && agent == "Kanye West"
    ));
    b.play();
    let events = b.session.events().clone();
    // The vote decides nothing: without it, the same bids, choices and speeches.
    let mut plain = Bench::new("rail-debate", 3);
    plain.play();
    let decided = |es: &[Event]| {
        es.iter()
            .filter(|e| {
                matches!(e, Event::Bid { .. } | Event::SpeakerSelected { .. } | Event::Message { .. })
            })
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(decided(&events), decided(&plain.session.events()));
    // Continued live from a step after it, the vote is where it was.
    let cut = crate::replay::step_starts(&events)[3];
    let mut again = Bench::new("rail-debate", 3);
    again.act(|s| s.restore(events[..cut].to_vec(), false, 0));
    again.play();
    let all = |es: &[Event]| es.iter().map(Event::without_timings).collect::<Vec<_>>();
    assert_eq!(all(&again.session.events()[..cut]), all(&events[..cut]));
    assert_eq!(again.session.events().iter().filter(|e| matches!(e, Event::FloorVote { .. })).count(), 1);
}

#[test]
fn the_floor_given_while_a_step_is_away_reaches_that_steps_choice() {
    let mut b = Bench::new("rail-debate", 4);
    assert!(b.session.give_floor("Kanye West").unwrap_err().contains("needs a live run"));
    b.step(); // the opening
              // Step again, and give the floor while that step is out.
    let effects = b.session.step(b.fresh()).unwrap();
    b.effects.extend(effects);
    let Some(Job::Step(mut job)) = b.session.next_job() else { panic!("a step job") };
    let agents = b.scenario.agent_names();
    let given = agents.last().unwrap().clone();
    assert!(b.session.give_floor("Nobody").unwrap_err().contains("not in the cast"), "checked at once");
    b.session.give_floor(&given).unwrap();
    assert_eq!(b.session.floor_given(), Some((given.as_str(), false)), "shown while the step is away");
    assert_eq!(b.session.interject("Moderator", "Time is short.").unwrap(), [], "kept for later");
    assert_eq!(b.session.interjections_waiting(), [("Moderator".to_string(), "Time is short.".to_string())]);
    let outcome = block_on(job.run.step());
    b.effects.extend(b.session.stepped(job, outcome));
    assert_eq!(b.session.floor_given(), None, "used by the step that was away");
    assert!(b.session.interjections_waiting().is_empty());
    let events = b.session.events().clone();
    assert!(
        matches!(events.last(), Some(Event::Message { text, .. }) if text == "Time is short."),
        "the interjection is recorded when the step is back"
    );
    let at = events.iter().position(|e| matches!(e, Event::FloorGiven { .. })).expect("recorded");
    assert!(matches!(&events[at], Event::FloorGiven { turn: 1, agent, .. } if *agent == given));
    assert!(events[at..]
        .iter()
        .any(|e| matches!(e, Event::Message { turn: 1, speaker, .. } if *speaker == given)));
}

#[test]
fn a_replay_goes_back_a_step_at_a_time_and_forward_again() {
    let recorded = demo_log("rail-debate", 2);
    let starts = crate::replay::step_starts(&recorded);
    let mut b = Bench::new("rail-debate", 2);
    b.act(|s| s.open_replay(recorded.clone()));
    for _ in 0..3 {
        b.step();
    }
    assert_eq!(b.session.status(), Status::Finished);
    // Back from the end: the last step goes, and the replay waits paused.
    b.act(|s| s.replay_back());
    assert_eq!(*b.session.events(), recorded[..starts[2]]);
    assert_eq!(b.session.status(), Status::Paused);
    assert_eq!(b.session.drain(), Vec::<Event>::new(), "the view is redrawn, not fed twice");
    b.act(|s| s.replay_back());
    b.act(|s| s.replay_back());
    assert!(b.session.events().is_empty());
    b.act(|s| s.replay_back());
    assert!(b.session.events().is_empty(), "nothing before the start");
    b.step();
    assert_eq!(*b.session.events(), recorded[..starts[1]], "forward again from there");
    let snapshot = b.session.snapshot().unwrap();
    assert_eq!(snapshot.position, starts[1]);
}

#[test]
fn undoing_an_answer_goes_back_to_its_step_keeps_the_run_and_plays_on() {
    let mut b = Bench::new("rail-debate", 4);
    assert!(b.session.undo_answer().unwrap_err().contains("needs a live run"));
    // A recorded run paused after turn 3 in which a person gave turn 2's first bid.
    let mut events = b.reference.clone();
    let starts = crate::replay::step_starts(&events);
    let turn3_end = starts[4];
    events.truncate(turn3_end);
    let asked = (starts[2]..starts[3]).find(|&i| matches!(events[i], Event::ModelCall { .. })).unwrap();
    if let Event::ModelCall { human, .. } = &mut events[asked] {
        *human = true;
    }
    b.act(|s| s.restore(events[..starts[2]].to_vec(), false, 0));
    assert!(b.session.undo_answer().unwrap_err().contains("no answer"), "none before turn 2");
    b.act(|s| s.restore(events.clone(), false, 0));
    b.effects.clear();
    b.act(|s| s.undo_answer().unwrap());
    assert_eq!(*b.session.events(), events[..starts[2]], "back to the start of turn 2");
    assert_eq!(b.session.status(), Status::Paused);
    let archived: Vec<&Vec<Event>> = b
        .effects
        .iter()
        .filter_map(|e| if let Effect::Archive(run) = e { Some(run) } else { None })
        .collect();
    assert_eq!(archived, [&events], "the run as it was is kept in the past runs, once");
    // Resume plays turn 2 again (here the demo model answers the call the person had).
    b.play();
    let strip = |es: &[Event]| es.iter().map(Event::without_timings).collect::<Vec<_>>();
    assert_eq!(strip(&b.session.events()), strip(&b.reference));
}

#[test]
fn a_floor_given_while_a_recording_is_caught_up_with_says_to_wait() {
    let mut b = Bench::new("rail-debate", 4);
    b.step();
    b.step();
    let events = b.session.events().clone();
    let mut again = Bench::new("rail-debate", 4);
    again.act(|s| s.restore(events, false, 0));
    let effects = again.session.step(again.fresh()).unwrap();
    again.effects.extend(effects);
    let Some(Job::CatchUp(_)) = again.session.next_job() else { panic!("a catch-up job") };
    let agent = again.scenario.agent_names()[0].clone();
    let err = again.session.give_floor(&agent).unwrap_err();
    assert!(err.contains("catching up"), "{err}");
    assert_eq!(again.session.floor_given(), None);
}

#[test]
fn a_reset_run_with_messages_comes_back_as_it_was_until_another_starts() {
    // Nothing said yet: nothing to undo.
    let mut b = Bench::new("rail-debate", 3);
    b.act(Session::reset);
    assert!(!b.session.can_undo_reset());
    // A run paused after two turns, reset, then brought back.
    b.step();
    b.step();
    b.step();
    let before = b.session.events().to_vec();
    let status = b.session.status();
    assert!(before.iter().any(|e| matches!(e, Event::Message { .. })));
    b.act(Session::reset);
    assert!(b.session.events().is_empty());
    assert!(b.session.can_undo_reset());
    b.act(Session::undo_reset);
    assert_eq!(*b.session.events(), before);
    assert_eq!(b.session.status(), status);
    assert!(!b.session.can_undo_reset(), "undone once");
    // Reset again, and a new run started: the cleared one is gone.
    b.act(Session::reset);
    assert!(b.session.can_undo_reset());
    b.play();
    assert!(!b.session.can_undo_reset());
    assert!(b.session.undo_reset().is_empty());
}
