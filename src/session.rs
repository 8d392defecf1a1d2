//! A run under the user's control: Run, Pause, Step, Stop, Reset, replays, continuing a recording
//! live, pausing on an error. Plain Rust, no timers and no network: a [`Session`] changes state
//! when told and says what its shell must do next ([`Effect`]); the work that takes time (a step
//! of the engine, catching a recording up) is handed out as a [`Job`] for the shell to await and
//! hand back. The browser's controller and the tests drive it the same way, and several sessions
//! can exist at once.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

use crate::engine::{FloorDesk, Run, StepOutcome};
use crate::events::{Event, FinishReason};
use crate::replay::Replay;
use crate::scenario::{Scenario, SpendingCap};

/// Where the session stands, as the controls show it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Status {
    /// Nothing loaded.
    #[default]
    Idle,
    /// Steps (or replay steps) follow each other until something pauses or ends the run.
    Running,
    /// Waiting for Run or Step.
    Paused,
    /// A turn failed: the error is on screen, and Run or Step plays that turn again.
    PausedOnError,
    /// Ended; Run or Step starts a new run of the scenario.
    Finished,
}

/// What the shell does after a command.
#[derive(Clone, Debug)]
#[cfg_attr(not(target_arch = "wasm32"), derive(PartialEq))]
pub enum Effect {
    /// Work has started: take [`Session::next_job`] until it gives none, handing each result
    /// back.
    Work,
    /// Show the next replay step ([`Session::replay_step`]) after the replay's delay, if the
    /// session is still running then.
    ReplayLater,
    /// The log was replaced: redraw everything from [`Session::events`].
    Redraw,
    /// Save the session ([`Session::snapshot`]) now.
    Save,
    /// Save it soon (once the step is on screen; while running, at most every few seconds).
    SaveSoon,
    /// Drop the saved session (the page was reset).
    Forget,
    /// Keep this log in the past runs (a live run that played at least a turn, once).
    Archive(Vec<Event>),
    /// End every model call in flight and every backoff wait.
    CancelCalls,
    /// Tell the user.
    Notice(String),
}

/// Work for the shell: await it, then hand the result back.
pub enum Job {
    /// Await [`Run::step`], then call [`Session::stepped`].
    Step(StepJob),
    /// Rebuild a live run from the recording with [`crate::replay::continue_live`] (with the
    /// scenario's live model) and call [`Session::caught_up`], or [`Session::no_model`] when
    /// there is no model to go on with.
    CatchUp(CatchUpJob),
}

pub struct StepJob {
    generation: u64,
    pub run: Box<Run>,
}

pub struct CatchUpJob {
    generation: u64,
    pub scenario: Box<Scenario>,
    pub recording: Vec<Event>,
}

/// What the session holds.
enum Source {
    Nothing,
    /// A live run; `None` while a step has it.
    Live(Option<Box<Run>>),
    /// A recording on screen that Run and Step continue live: a run restored after a reload, a
    /// replay forked from a step, a run paused on an error (its failed turn is played again).
    Recording,
    /// A recording walked through step by step.
    Replay(Replay),
}

/// What a save writes: the log (a replay's whole recording), and for a replay how far it got.
pub struct Snapshot<'a> {
    pub events: Cow<'a, [Event]>,
    pub replay: bool,
    pub position: usize,
}

pub struct Session {
    status: Status,
    source: Source,
    /// The log on screen. Live runs append to it as they record (through their listener), so
    /// it is whole even while a step is away; `drained` is how much of it the view has taken.
    log: Rc<RefCell<Vec<Event>>>,
    drained: usize,
    /// Bumped by every reset, so the results and events of a run that was replaced are dropped.
    generation: Rc<Cell<u64>>,
    /// A job is out (the controls' "busy").
    working: bool,
    /// Whether steps follow each other (Run) or one is played (Step).
    repeat: bool,
    stop_requested: bool,
    /// Undo-last-answer was pressed while a step was away: it applies when the step is back.
    undo_requested: bool,
    /// The log is already in the past runs (or must not go there).
    archived: bool,
    /// How many events of a live run make up whole steps: only those are saved, so a restored
    /// run never ends halfway through a turn.
    boundary: usize,
    cap: SpendingCap,
    /// What the class asked while the run was away on a step, carried out when it is back.
    pending: Vec<ClassRequest>,
    /// The run's floor (given from here while its step is away), and whether the show was
    /// ending when the step went away.
    away: (Option<FloorDesk>, bool),
    /// What the last Reset cleared (its events, whether a replay, how far), while nothing else
    /// has been loaded since: [`Session::undo_reset`] brings it back.
    cleared: Option<(Vec<Event>, bool, usize)>,
    /// Called whenever a live run records an event, so the shell can schedule a redraw.
    on_event: Option<Rc<dyn Fn()>>,
}

impl Default for Session {
    fn default() -> Self {
        Self::new()
    }
}

impl Session {
    pub fn new() -> Self {
        Session {
            status: Status::Idle,
            source: Source::Nothing,
            log: Rc::default(),
            drained: 0,
            generation: Rc::new(Cell::new(0)),
            working: false,
            repeat: false,
            stop_requested: false,
            undo_requested: false,
            archived: false,
            boundary: 0,
            cap: SpendingCap::default(),
            pending: Vec::new(),
            away: (None, false),
            cleared: None,
            on_event: None,
        }
    }

    /// Calls `f` whenever a live run records an event (from inside the step that records it).
    pub fn on_event(&mut self, f: Rc<dyn Fn()>) {
        self.on_event = Some(f);
    }

    pub fn status(&self) -> Status {
        self.status
    }

    /// A step or a catch-up is in flight.
    pub fn is_working(&self) -> bool {
        self.working
    }

    /// Changes whenever what is loaded is replaced, so work begun before can tell it is stale.
    pub fn generation(&self) -> u64 {
        self.generation.get()
    }

    pub fn is_replaying(&self) -> bool {
        matches!(self.source, Source::Replay(_))
    }

    /// The log on screen.
    pub fn events(&self) -> std::cell::Ref<'_, Vec<Event>> {
        self.log.borrow()
    }

    /// The events the view has not taken yet.
    pub fn drain(&mut self) -> Vec<Event> {
        let log = self.log.borrow();
        let new = log[self.drained.min(log.len())..].to_vec();
        self.drained = log.len();
        new
    }

    /// The spending cap applied before each step from now on.
    pub fn set_cap(&mut self, cap: SpendingCap) {
        self.cap = cap;
    }

    /// Drops whatever is loaded (a live run that played goes to the past runs first).
    pub fn reset(&mut self) -> Vec<Effect> {
        // A run with a message in it is kept to undo; one reset before anything was said is no loss.
        let kept = self
            .snapshot()
            .filter(|s| s.events.iter().any(|e| matches!(e, Event::Message { .. })))
            .map(|s| (s.events.into_owned(), s.replay, s.position));
        let mut effects = self.archive();
        effects.extend([Effect::Forget, Effect::Redraw]);
        self.clear();
        self.cleared = kept;
        effects
    }

    /// Whether Reset cleared a run that [`Session::undo_reset`] can bring back.
    pub fn can_undo_reset(&self) -> bool {
        self.cleared.is_some()
    }

    /// Brings back the run the last Reset cleared, as it was; nothing when there is none.
    pub fn undo_reset(&mut self) -> Vec<Effect> {
        match self.cleared.take() {
            Some((events, replay, position)) => self.restore(events, replay, position),
            None => Vec::new(),
        }
    }

    /// Back to Idle with nothing loaded; work still out for what was loaded is dropped.
    fn clear(&mut self) {
        self.generation.set(self.generation.get() + 1);
        self.source = Source::Nothing;
        self.log = Rc::default();
        self.drained = 0;
        self.working = false;
        self.repeat = false;
        self.stop_requested = false;
        self.undo_requested = false;
        self.archived = false;
        self.boundary = 0;
        self.status = Status::Idle;
        self.pending.clear();
        self.away = (None, false);
        self.cleared = None;
    }

    /// Run: starts a run (`fresh` makes it, and is called only when one is needed), resumes a
    /// paused one, or plays a replay on.
    pub fn play(&mut self, fresh: impl FnOnce() -> Result<Run, String>) -> Result<Vec<Effect>, String> {
        // A run started after a Reset leaves nothing of the cleared one to undo.
        self.cleared = None;
        if self.is_replaying() && self.status != Status::Finished {
            if self.status != Status::Paused {
                return Ok(Vec::new());
            }
            self.status = Status::Running;
            return Ok(self.replay_step());
        }
        let mut effects = match self.status {
            Status::Idle | Status::Finished => self.start(fresh()?),
            Status::Paused | Status::PausedOnError => Vec::new(),
            Status::Running => return Ok(Vec::new()),
        };
        self.status = Status::Running;
        self.repeat = true;
        if !self.working {
            self.working = true;
            effects.push(Effect::Work);
        }
        Ok(effects)
    }

    /// Interject: a message from outside the cast (the audience, the moderator), recorded as
    /// injected; every agent hears it from the next call. While a step is in flight it is
    /// recorded when the step is over.
    pub fn interject(&mut self, speaker: &str, text: &str) -> Result<Vec<Effect>, String> {
        let (speaker, text) = (speaker.trim(), text.trim());
        if speaker.is_empty() || text.is_empty() {
            return Err("an interjection needs a speaker and some words".into());
        }
        let request = ClassRequest::Interject(speaker.to_string(), text.to_string());
        let now = self.ask(request, "interjecting")?;
        Ok(if now { vec![Effect::SaveSoon] } else { Vec::new() })
    }

    /// A student's vote from their phone for `agent` to speak next (recorded between steps).
    pub fn vote(&mut self, by: &str, agent: &str) -> Result<Vec<Effect>, String> {
        let now = self.ask(ClassRequest::Vote(by.to_string(), agent.to_string()), "voting")?;
        Ok(if now { vec![Effect::SaveSoon] } else { Vec::new() })
    }

    /// Give the floor: `agent` speaks next, whatever the method chooses (its choice is still
    /// made and recorded). While a step is in flight it reaches that step's choice of speaker if
    /// the choice is still to be made (a seat's bid awaited), else the next turn's
    /// ([`Session::floor_given`] says which).
    pub fn give_floor(&mut self, agent: &str) -> Result<(), String> {
        match (&mut self.source, &self.away.0) {
            (Source::Live(Some(run)), _) => run.give_floor(agent),
            (Source::Live(None), Some(desk)) => desk.give(agent),
            (Source::Live(None), None) => {
                Err("the run is catching up with its recording: give the floor once it plays".into())
            }
            _ => Err("giving the floor needs a live run: press Run or Step first".into()),
        }
    }

    /// "End the show": the director's next turn stops the run (recorded on its stop draw).
    pub fn end_show(&mut self) -> Result<(), String> {
        self.ask(ClassRequest::EndShow, "ending the show").map(|_| ())
    }

    /// Carries out what the class asked on the live run, or keeps it for when the run is back
    /// from its step; true when carried out now.
    fn ask(&mut self, request: ClassRequest, doing: &str) -> Result<bool, String> {
        match &mut self.source {
            Source::Live(Some(run)) => request.carry_out(run).map(|_| true),
            Source::Live(None) => {
                self.pending.push(request);
                Ok(false)
            }
            _ => Err(format!("{doing} needs a live run: press Run or Step first")),
        }
    }

    /// The agent given the floor whose turn has not come yet, and whether a speech comes first
    /// (the step under way chose its speaker before the floor was given).
    pub fn floor_given(&self) -> Option<(&str, bool)> {
        match (&self.source, &self.away.0) {
            (Source::Live(Some(run)), _) => run.floor_given().map(|agent| (agent, false)),
            (Source::Live(None), Some(desk)) => desk.given(),
            _ => None,
        }
    }

    /// The interjections made while a step is away, in the order they were made: (speaker,
    /// text), recorded (and heard) once it is back, after whatever that step records.
    pub fn interjections_waiting(&self) -> Vec<(String, String)> {
        self.pending
            .iter()
            .filter_map(|r| match r {
                ClassRequest::Interject(speaker, text) => Some((speaker.clone(), text.clone())),
                _ => None,
            })
            .collect()
    }

    /// Whether "End the show" waits for the director's next turn.
    pub fn show_ending(&self) -> bool {
        match &self.source {
            Source::Live(Some(run)) => run.show_ending(),
            Source::Live(None) => {
                self.away.1 || self.pending.iter().any(|r| matches!(r, ClassRequest::EndShow))
            }
            _ => false,
        }
    }

    /// Undo my last answer: the run goes back to the start of the step in which a person last
    /// answered, paused, and Resume plays it again from there (the seat is asked again; the
    /// calls before the answer in that step are made again). The run as it was goes to the past
    /// runs first, so nothing recorded is lost. While a step is away (a seat waiting) its calls
    /// are cancelled and the undo applies when it is back.
    pub fn undo_answer(&mut self) -> Result<Vec<Effect>, String> {
        if self.is_replaying() || matches!(self.source, Source::Nothing) {
            return Err("undoing an answer needs a live run".into());
        }
        if last_answer(&self.log.borrow()).is_none() {
            return Err("no answer of yours to undo yet".into());
        }
        if self.working {
            self.undo_requested = true;
            return Ok(vec![Effect::CancelCalls]);
        }
        let events = self.log.borrow().clone();
        Ok(self.undo_to(events))
    }

    /// Goes back to the start of the step of the last person's answer in `events`.
    fn undo_to(&mut self, events: Vec<Event>) -> Vec<Effect> {
        let Some(answer) = last_answer(&events) else { return Vec::new() };
        let cut =
            crate::replay::step_starts(&events).into_iter().take_while(|&s| s <= answer).last().unwrap_or(0);
        let mut effects = self.archive();
        // `restore` would archive again what `archive` already kept.
        self.archived = true;
        effects.extend(self.restore(events[..cut].to_vec(), false, 0));
        effects.push(Effect::Save);
        effects
    }

    /// Pause: the step in flight finishes, then the session waits.
    pub fn pause(&mut self) {
        if self.status == Status::Running {
            self.status = Status::Paused;
        }
    }

    /// Step: plays exactly one step (one replay step), starting a run if there is none.
    pub fn step(&mut self, fresh: impl FnOnce() -> Result<Run, String>) -> Result<Vec<Effect>, String> {
        // A run started after a Reset leaves nothing of the cleared one to undo.
        self.cleared = None;
        if self.working {
            return Ok(Vec::new());
        }
        if self.is_replaying() && self.status != Status::Finished {
            return Ok(if self.status == Status::Paused { self.replay_step() } else { Vec::new() });
        }
        let mut effects = match self.status {
            Status::Idle | Status::Finished => self.start(fresh()?),
            _ => Vec::new(),
        };
        self.status = Status::Paused;
        self.repeat = false;
        self.working = true;
        effects.push(Effect::Work);
        Ok(effects)
    }

    /// Stop: ends the run. A step in flight is cut short (its calls cancelled) and recorded first.
    pub fn stop(&mut self) -> Vec<Effect> {
        if self.is_replaying() {
            self.status = Status::Finished;
            return Vec::new();
        }
        match self.status {
            Status::Idle | Status::Finished => Vec::new(),
            _ if self.working => {
                self.stop_requested = true;
                vec![Effect::CancelCalls]
            }
            _ => {
                if let Source::Live(Some(run)) = &mut self.source {
                    run.stop();
                    self.boundary = run.events().len();
                }
                self.finished()
            }
        }
    }

    /// The next piece of work, while the session is working.
    pub fn next_job(&mut self) -> Option<Job> {
        if !self.working {
            return None;
        }
        let generation = self.generation.get();
        match std::mem::replace(&mut self.source, Source::Live(None)) {
            Source::Live(Some(mut run)) => {
                run.set_spending_cap(self.cap);
                self.away = (Some(run.floor_desk()), run.show_ending());
                Some(Job::Step(StepJob { generation, run }))
            }
            Source::Recording => {
                // No run holds a floor while the recording is caught up with.
                self.away.0 = None;
                let recording = self.log.borrow().clone();
                let Some(Event::RunStarted { scenario, .. }) = recording.first() else {
                    self.source = Source::Nothing;
                    self.working = false;
                    self.status = Status::Idle;
                    return None;
                };
                let scenario = scenario.clone();
                Some(Job::CatchUp(CatchUpJob { generation, scenario, recording }))
            }
            // The run is away on a step (a loop left over from before a reset asks too).
            Source::Live(None) => None,
            other => {
                self.source = other;
                self.working = false;
                None
            }
        }
    }

    /// A step came back. Work goes on while the session runs; otherwise it stops here.
    pub fn stepped(&mut self, job: StepJob, outcome: StepOutcome) -> Vec<Effect> {
        if job.generation != self.generation.get() {
            return Vec::new(); // reset while the step was in flight: that run is gone
        }
        let mut run = job.run;
        if std::mem::take(&mut self.undo_requested) {
            self.working = false;
            return self.undo_to(run.events().to_vec());
        }
        let stop = std::mem::take(&mut self.stop_requested);
        if stop {
            run.stop();
        }
        for request in std::mem::take(&mut self.pending) {
            // Asked while the step was away; what the run no longer takes (it has finished) goes.
            let _ = request.carry_out(&mut run);
        }
        self.boundary = run.events().len();
        self.source = Source::Live(Some(run));
        let finished = stop || matches!(outcome, StepOutcome::Finished(_));
        let failed = !stop && outcome == StepOutcome::Finished(FinishReason::Error);
        if outcome == StepOutcome::Capped && !finished {
            // The view says why and how to go on: raise the cap and press Resume.
            self.status = Status::Paused;
        }
        if !(finished || outcome == StepOutcome::Capped || !self.repeat || self.status != Status::Running) {
            return vec![Effect::SaveSoon];
        }
        self.working = false;
        if failed {
            // Everything before the failed turn is kept; Resume or Step plays it again from the
            // recording.
            self.source = Source::Recording;
            self.status = Status::PausedOnError;
            vec![Effect::Save]
        } else if finished {
            self.finished()
        } else {
            vec![Effect::SaveSoon]
        }
    }

    /// The recording has been caught up with (or cannot be continued: the error says why).
    pub fn caught_up(&mut self, job: CatchUpJob, result: Result<Run, String>) -> Vec<Effect> {
        if job.generation != self.generation.get() {
            return Vec::new();
        }
        match result {
            Ok(mut run) => {
                let mut effects = Vec::new();
                if run.events().len() != self.log.borrow().len() {
                    // The recording ended in a failed turn, which is played again.
                    *self.log.borrow_mut() = run.events().to_vec();
                    self.drained = 0;
                    effects.push(Effect::Redraw);
                }
                self.attach(&mut run);
                self.boundary = run.events().len();
                self.source = Source::Live(Some(Box::new(run)));
                effects
            }
            Err(e) => {
                self.source = Source::Nothing;
                self.working = false;
                self.archived = true;
                self.status = Status::Finished;
                vec![Effect::Notice(format!("This run cannot be continued live: {e}."))]
            }
        }
    }

    /// The recording cannot be caught up because there is no model to go on with (no key, say):
    /// nothing is lost, and once the settings are fixed Resume tries again.
    pub fn no_model(&mut self, job: CatchUpJob, why: &str) -> Vec<Effect> {
        if job.generation != self.generation.get() {
            return Vec::new();
        }
        self.source = Source::Recording;
        self.working = false;
        if self.status == Status::Running {
            self.status = Status::Paused;
        }
        vec![Effect::Notice(format!("Cannot go on: {why}."))]
    }

    /// Loads a recording to walk through with Step and Run; nothing is shown until then.
    pub fn open_replay(&mut self, events: Vec<Event>) -> Vec<Effect> {
        let mut effects = self.reset();
        self.source = Source::Replay(Replay::new(events));
        self.status = Status::Paused;
        effects.push(Effect::Save);
        effects
    }

    /// Shows the next step of the replay.
    pub fn replay_step(&mut self) -> Vec<Effect> {
        let Source::Replay(replay) = &mut self.source else { return Vec::new() };
        let batch = replay.next_step();
        if batch.is_empty() {
            self.status = Status::Finished;
            return Vec::new();
        }
        self.log.borrow_mut().extend_from_slice(batch);
        let mut effects = vec![Effect::SaveSoon];
        if replay.is_done() {
            self.status = Status::Finished;
        } else if self.status == Status::Running {
            effects.push(Effect::ReplayLater);
        }
        effects
    }

    /// Takes the replay back one step: the last step shown goes, and Step shows it again.
    pub fn replay_back(&mut self) -> Vec<Effect> {
        let Source::Replay(replay) = &mut self.source else { return Vec::new() };
        let shown = self.log.borrow().len();
        if shown == 0 {
            return Vec::new();
        }
        let kept = replay.seek(shown - 1).to_vec();
        self.drained = kept.len();
        *self.log.borrow_mut() = kept;
        self.status = Status::Paused;
        vec![Effect::Redraw, Effect::SaveSoon]
    }

    /// "Continue live from here": the replay so far becomes a paused live run; Run or Step goes
    /// on from the step on screen with the model.
    pub fn continue_live(&mut self) -> Vec<Effect> {
        if !self.is_replaying() {
            return Vec::new();
        }
        self.source = Source::Recording;
        self.archived = false;
        self.status = Status::Paused;
        vec![Effect::Save]
    }

    /// Shows a session saved before the page was left: a replay at the step it had reached, a
    /// live run paused at its last recorded turn (paused on its error if a turn failed), or a
    /// finished one.
    pub fn restore(&mut self, events: Vec<Event>, replay: bool, position: usize) -> Vec<Effect> {
        if replay {
            let effects = self.open_replay(events);
            if let Source::Replay(r) = &mut self.source {
                *self.log.borrow_mut() = r.seek(position).to_vec();
            }
            return effects;
        }
        // What was saved stays saved: the session only takes it up again.
        let mut effects = self.archive();
        effects.push(Effect::Redraw);
        self.clear();
        let ended = crate::events::finish_of(&events);
        let finished = ended.is_some_and(|r| r != FinishReason::Error);
        self.boundary = events.len();
        *self.log.borrow_mut() = events;
        self.archived = finished;
        if finished {
            self.status = Status::Finished;
        } else {
            self.source = Source::Recording;
            self.status =
                if ended == Some(FinishReason::Error) { Status::PausedOnError } else { Status::Paused };
        }
        effects
    }

    /// The finished run a judge reads: the whole recording of a replay (wherever it has got to),
    /// else the log on screen; or why there is none to judge.
    pub fn judgeable(&self) -> Result<Vec<Event>, String> {
        if self.working {
            return Err("wait until the run stops to judge it".into());
        }
        let events = match &self.source {
            Source::Replay(r) => r.events().to_vec(),
            _ => self.log.borrow().clone(),
        };
        match crate::events::finish_of(&events) {
            Some(_) => Ok(events),
            None if events.is_empty() => Err("there is no run to judge yet".into()),
            None => Err("the run has not finished: play it to its end, then judge it".into()),
        }
    }

    /// Appends a judge's calls and verdict (from [`crate::judge::judge_run`]) after the end of
    /// the run [`Session::judgeable`] gave: a replay shows them when it gets there.
    pub fn add_judged(&mut self, judged: Vec<Event>) -> Vec<Effect> {
        if self.working || !judged.iter().all(crate::events::after_the_run) {
            return Vec::new();
        }
        if let Source::Replay(r) = &mut self.source {
            let done = r.is_done();
            r.extend(judged.iter().cloned());
            if !done {
                return vec![Effect::SaveSoon];
            }
            r.seek(usize::MAX);
        }
        self.log.borrow_mut().extend(judged);
        self.boundary = self.log.borrow().len();
        vec![Effect::Save]
    }

    /// What a save writes now, if anything is loaded.
    pub fn snapshot(&self) -> Option<Snapshot<'_>> {
        match &self.source {
            Source::Replay(r) => Some(Snapshot {
                events: Cow::Borrowed(r.events()),
                replay: true,
                position: self.log.borrow().len(),
            }),
            Source::Nothing if self.status == Status::Idle => None,
            _ => {
                let log = self.log.borrow();
                let whole = log[..self.boundary.min(log.len())].to_vec();
                Some(Snapshot { events: Cow::Owned(whole), replay: false, position: 0 })
            }
        }
    }

    /// The live log goes to the past runs, once, if it played a turn.
    fn archive(&mut self) -> Vec<Effect> {
        let played = self.log.borrow().iter().any(|e| e.turn().is_some_and(|t| t > 0));
        if self.is_replaying() || self.archived || !played {
            return Vec::new();
        }
        self.archived = true;
        vec![Effect::Archive(self.log.borrow().clone())]
    }

    fn finished(&mut self) -> Vec<Effect> {
        self.status = Status::Finished;
        let mut effects = vec![Effect::Save];
        effects.extend(self.archive());
        effects
    }

    fn start(&mut self, mut run: Run) -> Vec<Effect> {
        let effects = self.reset();
        self.attach(&mut run);
        self.source = Source::Live(Some(Box::new(run)));
        effects
    }

    /// Sends the run's events into the log as they are recorded, unless the session has moved on.
    fn attach(&self, run: &mut Run) {
        let log = self.log.clone();
        let generation = self.generation.clone();
        let mine = generation.get();
        let on_event = self.on_event.clone();
        run.set_listener(move |event| {
            if generation.get() == mine {
                log.borrow_mut().push(event.clone());
                if let Some(f) = &on_event {
                    f();
                }
            }
        });
    }
}

/// What the class asks of a live run from the page.
enum ClassRequest {
    /// A message from outside the cast: (speaker, text).
    Interject(String, String),
    /// A student's vote for who speaks next: (who, agent).
    Vote(String, String),
    EndShow,
}

impl ClassRequest {
    fn carry_out(self, run: &mut Run) -> Result<(), String> {
        match self {
            ClassRequest::Interject(_, _) if run.finish_reason().is_some() => {
                Err("the run has finished".into())
            }
            ClassRequest::Interject(speaker, text) => {
                run.inject(&speaker, &text);
                Ok(())
            }
            ClassRequest::Vote(by, agent) => run.vote(&by, &agent),
            ClassRequest::EndShow => run.end_show(),
        }
    }
}

/// Where the last answer a person gave is in `events` (a `model_call` marked `human`).
fn last_answer(events: &[Event]) -> Option<usize> {
    events.iter().rposition(|e| matches!(e, Event::ModelCall { human: true, .. }))
}

#[cfg(test)]
mod tests;
