//! The browser's side of a [`Session`]: signals for the controls, timers, the models (demo or
//! provider, with the user's key), storage and downloads. What each button does to the run is
//! decided by the session in the core; this file carries out what it asks for.
//!
//! A run's events reach the view once per animation frame, so a fast run repaints at most once a
//! frame however many events it records.

use crate::i18n::{say, t};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

use leptos::prelude::*;

use crate::app::demo::PageDemo;
use crate::clock::Clock;
use crate::engine::Run;
use crate::events::Event;
use crate::provider::HttpModel;
use crate::replay::continue_live;
use crate::scenario::{FieldError, Scenario};
pub use crate::session::Status as Mode;
use crate::session::{Effect, Job, Session};
use crate::view::RunView;

use super::browser::BrowserClock;
use super::models::KeyStore;
use super::storage::{self, PastRun};

mod live;

/// How often a running run is saved, at most (it is saved at once whenever it stops or pauses).
const SAVE_EVERY_MS: f64 = 3000.0;
/// How long after a step it is saved, so the step is on screen first.
const SAVE_AFTER_STEP_MS: f64 = 50.0;

/// The speed setting that paces a run by its words (see [`READ_ALOUD_WPM`]).
pub const READ_ALOUD: u64 = u64::MAX;
/// Read aloud: after each speech the run waits as long as saying it takes at this pace.
pub const READ_ALOUD_WPM: f64 = 150.0;
/// The demo model's latency per call under Read aloud, in milliseconds.
const READ_ALOUD_LATENCY_MS: u64 = 400;

/// A speed's label, in the language spoken.
pub type SpeedLabel = fn() -> &'static str;

/// The speed settings, slowest first: read aloud, else the demo model's simulated latency per
/// call in milliseconds (a replay steps at that pace too, 150 ms at least).
pub const SPEEDS: [(SpeedLabel, u64); 5] = [
    // Short enough to read whole in the run controls' list.
    (|| t(say::SpeedReadAloud), READ_ALOUD),
    // A turn is two calls' wait (the bids go out together, then the speech): named by the turn.
    (|| t(say::SpeedSlow), 1000),
    (|| t(say::SpeedQuick), 400),
    (|| t(say::SpeedFast), 120),
    (|| t(say::SpeedInstant), 0),
];
/// How many announcements the screen reader's log keeps.
const HEARD_KEPT: usize = 6;
/// The speed a page starts at.
const DEFAULT_SPEED: u64 = 400;

/// The session on screen and what the controls show of it. Every field is a handle, so the
/// controller is `Copy` and can be handed to any component.
#[derive(Clone, Copy)]
pub struct Controller {
    pub mode: RwSignal<Mode>,
    /// A step is in flight.
    pub busy: RwSignal<bool>,
    pub replaying: RwSignal<bool>,
    pub view: RwSignal<RunView>,
    pub latency_ms: RwSignal<u64>,
    /// Something the user should know about the run (it cannot be continued, it cannot be saved).
    pub notice: RwSignal<String>,
    pub history: RwSignal<Vec<PastRun>>,
    /// The user's key for real providers.
    pub keys: KeyStore,
    /// Speech streaming in: (agent, the text so far).
    pub live_text: RwSignal<Option<(String, String)>>,
    /// What a screen reader is told of the run, newest last, each with its number
    /// ([`crate::announce`]).
    pub heard: RwSignal<Vec<(u64, String)>>,
    announcer: StoredValue<(u64, crate::announce::Announcer)>,
    /// A call being retried, and when.
    pub retry_note: RwSignal<String>,
    /// The model that runs inside the tab.
    pub intab: crate::app::intab::InTab,
    /// Where a seated person is asked.
    pub desk: crate::app::seat::PageDesk,
    /// Whom the class gave the floor to, until their turn, and when that is.
    pub given: RwSignal<Option<String>>,
    /// Interjections made while a turn is under way, heard once it is over: (speaker, text).
    pub waiting: RwSignal<Vec<(String, String)>>,
    /// "End the show" waits for the director's next turn.
    pub ending: RwSignal<bool>,
    /// The projector view is on (see `app::projector`).
    pub projector: RwSignal<bool>,
    /// What the judge is doing, or why it could not (`crate::app::judge`).
    pub judging: RwSignal<String>,
    /// The batch on screen (see `app::batch`).
    pub batch: crate::app::batch::BatchState,
    /// The comparison on screen (see `app::compare`).
    pub compare: crate::app::compare::CompareState,
    /// The demo model's module has started (`app::demo`): what the estimates play on.
    pub demo_ready: RwSignal<bool>,
    session: StoredValue<Rc<RefCell<Session>>, LocalStorage>,
    demo: StoredValue<Option<Rc<PageDemo>>, LocalStorage>,
    http: StoredValue<Option<Rc<HttpModel>>, LocalStorage>,
    /// What providers refused, remembered across the runs of this session.
    learned: StoredValue<crate::provider::Learned, LocalStorage>,
    save_scheduled: StoredValue<bool>,
    last_saved: StoredValue<f64>,
    /// Bumped for each replay step scheduled, so only the latest one plays.
    replay_ticket: StoredValue<u64>,
    /// A column of a comparison (see `app::compare`): its run is kept with the comparison, not
    /// saved as the run on screen nor added to the past runs on its own.
    column: bool,
}

impl Controller {
    pub fn new() -> Self {
        let this = Self {
            mode: RwSignal::new(Mode::Idle),
            busy: RwSignal::new(false),
            replaying: RwSignal::new(false),
            view: RwSignal::new(RunView::default()),
            latency_ms: RwSignal::new(DEFAULT_SPEED),
            notice: RwSignal::new(String::new()),
            history: RwSignal::new(Vec::new()),
            keys: KeyStore::load(),
            live_text: RwSignal::new(None),
            heard: RwSignal::new(Vec::new()),
            announcer: StoredValue::new(Default::default()),
            retry_note: RwSignal::new(String::new()),
            intab: crate::app::intab::InTab::new(),
            desk: crate::app::seat::PageDesk::new(),
            given: RwSignal::new(None),
            waiting: RwSignal::new(Vec::new()),
            projector: RwSignal::new(false),
            judging: RwSignal::new(String::new()),
            ending: RwSignal::new(false),
            batch: crate::app::batch::BatchState::new(),
            compare: Default::default(),
            demo_ready: RwSignal::new(false),
            session: StoredValue::new_local(Rc::new(RefCell::new(Session::new()))),
            demo: StoredValue::new_local(None),
            http: StoredValue::new_local(None),
            learned: StoredValue::new_local(Default::default()),
            save_scheduled: StoredValue::new(false),
            last_saved: StoredValue::new(0.0),
            replay_ticket: StoredValue::new(0),
            column: false,
        };
        // A frame is asked for when a run records an event, and the frame shows all of them.
        let asked = Rc::new(Cell::new(false));
        this.with_session(|s| {
            s.on_event(Rc::new(move || {
                if !asked.replace(true) {
                    let asked = asked.clone();
                    request_animation_frame(move || {
                        asked.set(false);
                        this.flush();
                    });
                }
            }))
        });
        this
    }

    /// A column of a comparison beside `page`: it shares the page's keys, demo speed, model in
    /// the tab and projector view.
    pub fn column(page: &Controller) -> Self {
        // The frame callback `new` registers uses only the session and the view, which stay.
        Self {
            keys: page.keys,
            latency_ms: page.latency_ms,
            intab: page.intab,
            projector: page.projector,
            learned: page.learned,
            demo_ready: page.demo_ready,
            column: true,
            ..Self::new()
        }
    }

    fn with_session<R>(&self, f: impl FnOnce(&mut Session) -> R) -> R {
        let session = self.session.get_value();
        let mut session = session.borrow_mut();
        f(&mut session)
    }

    /// Reads the log on screen (for the call inspector, links and exports).
    pub fn with_events<R>(&self, f: impl FnOnce(&[Event]) -> R) -> R {
        let session = self.session.get_value();
        let session = session.borrow();
        let events = session.events();
        f(&events)
    }

    /// What a save keeps of the run on screen: its events, whether it is a replay, and how many
    /// of a replay's events are shown.
    pub fn snapshot(&self) -> Option<(Vec<Event>, bool, usize)> {
        self.with_session(|s| s.snapshot().map(|snap| (snap.events.into_owned(), snap.replay, snap.position)))
    }

    /// Changes the speed (one of [`SPEEDS`]), mid-run too.
    pub fn set_speed(&self, speed: u64) {
        self.latency_ms.set(speed);
        let ms = self.demo_latency();
        self.demo.with_value(|d| {
            if let Some(d) = d {
                d.set_latency(ms);
            }
        });
    }

    /// The demo model's latency per call at the speed chosen.
    pub fn demo_latency(&self) -> u64 {
        match self.latency_ms.get_untracked() {
            READ_ALOUD => READ_ALOUD_LATENCY_MS,
            ms => ms,
        }
    }

    /// How long reading aloud the messages shown from the `from`th on takes, under Read aloud.
    fn reading_ms(&self, from: usize) -> u64 {
        if self.latency_ms.get_untracked() != READ_ALOUD {
            return 0;
        }
        let words = self.view.with_untracked(|v| {
            v.transcript.iter().skip(from).map(|r| crate::text::reading_words(&r.text)).sum::<f64>()
        });
        (words * 60_000.0 / READ_ALOUD_WPM) as u64
    }

    /// Run: starts a run of `scenario`, resumes a paused one, or plays a replay on.
    pub fn play(&self, scenario: &Scenario) -> Result<(), String> {
        self.desk.hold(false);
        let fresh = self.fresh(scenario);
        let effects = self.with_session(|s| {
            s.set_cap(scenario.model.spending_cap);
            s.play(fresh)
        })?;
        self.apply(effects);
        Ok(())
    }

    /// Pause: the step in flight finishes, then the run waits.
    /// A seat's time limit stands still until the run goes on.
    pub fn pause(&self) {
        self.desk.hold(true);
        self.with_session(Session::pause);
        self.sync();
    }

    /// Step: plays exactly one step, starting a run if there is none.
    pub fn step(&self, scenario: &Scenario) -> Result<(), String> {
        self.desk.hold(false);
        let fresh = self.fresh(scenario);
        let effects = self.with_session(|s| {
            s.set_cap(scenario.model.spending_cap);
            s.step(fresh)
        })?;
        self.apply(effects);
        Ok(())
    }

    /// Interject: a message from the audience or the moderator, heard from the next call.
    pub fn interject(&self, speaker: &str, text: &str) -> Result<(), String> {
        let effects = self.with_session(|s| s.interject(speaker, text))?;
        self.apply(effects);
        Ok(())
    }

    /// A student's vote from their phone for who speaks next, recorded in the log.
    pub fn vote(&self, by: &str, agent: &str) -> Result<(), String> {
        let effects = self.with_session(|s| s.vote(by, agent))?;
        self.apply(effects);
        Ok(())
    }

    /// Give the floor: `agent` speaks next, whatever the method chooses.
    pub fn give_floor(&self, agent: &str) -> Result<(), String> {
        self.with_session(|s| s.give_floor(agent))?;
        self.sync();
        Ok(())
    }

    /// "End the show": the director's next turn ends the run.
    pub fn end_show(&self) -> Result<(), String> {
        self.with_session(Session::end_show)?;
        self.sync();
        Ok(())
    }

    /// The finished run a judge reads (see [`Session::judgeable`]).
    pub fn judgeable(&self) -> Result<Vec<crate::events::Event>, String> {
        self.with_session(|s| s.judgeable())
    }

    /// Appends a judge's calls and verdict to the run on screen.
    pub fn add_judged(&self, judged: Vec<crate::events::Event>) {
        let effects = self.with_session(|s| s.add_judged(judged));
        self.apply(effects);
    }

    /// Undo my last answer: back to the start of the step a seated person last answered in.
    pub fn undo_answer(&self) -> Result<(), String> {
        let effects = self.with_session(Session::undo_answer)?;
        self.apply(effects);
        Ok(())
    }

    /// Takes a replay back one step.
    pub fn replay_back(&self) {
        let effects = self.with_session(Session::replay_back);
        self.apply(effects);
    }

    /// Stop: ends the run; a step in flight is cut short and recorded first.
    pub fn stop(&self) {
        let effects = self.with_session(Session::stop);
        self.apply(effects);
    }

    /// Whether a run is under way and not a replay: running, paused, or paused on an error
    /// (what a seat's Undo and a gallery card going back to the run need). Tracked.
    pub fn live(&self) -> bool {
        crate::controls::live(self.mode.get(), self.replaying.get())
    }

    /// Drops the run and everything shown of it (a live run is kept in the past runs).
    pub fn reset(&self) {
        let effects = self.with_session(Session::reset);
        self.replace(effects);
    }

    /// Loads a recorded run to walk through with Step and Run; nothing is shown until then (the
    /// session resets itself first).
    pub fn load_replay(&self, events: Vec<Event>) {
        let effects = self.with_session(|s| s.open_replay(events));
        self.replace(effects);
    }

    /// What the session had loaded is gone: so are its models and its notice.
    fn replace(&self, effects: Vec<Effect>) {
        self.demo.set_value(None);
        self.http.set_value(None);
        self.notice.set(String::new());
        self.apply(effects);
    }

    /// "Continue live from here": the replay so far becomes a live run, paused; Run or Step goes
    /// on from the step on screen with the model.
    pub fn continue_here(&self) {
        let effects = self.with_session(Session::continue_live);
        self.apply(effects);
    }

    /// Shows the run saved before the page was left, as it was.
    pub fn restore(&self, restored: storage::Restored) {
        let effects =
            self.with_session(|s| s.restore(restored.file.events, restored.replay, restored.position));
        self.apply(effects);
    }

    /// Whether Reset cleared a run that Undo can bring back.
    pub fn can_undo_reset(&self) -> bool {
        self.with_session(|s| s.can_undo_reset())
    }

    /// Brings back the run the last Reset cleared, as it was.
    pub fn undo_reset(&self) {
        let effects = self.with_session(Session::undo_reset);
        self.apply(effects);
    }

    /// Opens a past run as a replay.
    pub fn open_past(&self, id: &str) -> Result<Scenario, String> {
        let file = storage::open_past(id)?;
        self.load_replay(file.events);
        Ok(file.scenario)
    }

    /// Deletes a past run.
    pub fn delete_past(&self, id: &str) {
        match storage::delete_past(id) {
            Ok(list) => self.history.set(list),
            Err(e) => self.notice.set(format!("Could not delete the run: {e}.")),
        }
    }

    /// Saves the session now, whatever it is doing: for a page being closed or reloaded. A replay
    /// is saved too (a step taken just before a reload would otherwise come back one step short).
    pub fn save_before_leaving(&self) {
        self.batch.leave();
        if self.replaying.get_untracked() || self.mode.get_untracked() != Mode::Idle {
            self.save();
        }
    }

    /// Carries out what the session asked for, then shows where it stands.
    fn apply(&self, effects: Vec<Effect>) {
        self.flush();
        for effect in effects {
            match effect {
                Effect::Work => self.work(),
                Effect::ReplayLater => self.replay_later(),
                Effect::Redraw => {
                    let view = self.with_session(|s| {
                        s.drain();
                        RunView::from_events(&s.events())
                    });
                    self.live_text.set(None);
                    self.view.set(view);
                }
                Effect::Save | Effect::SaveSoon | Effect::Forget | Effect::Archive(_) if self.column => {}
                Effect::Save => self.save(),
                Effect::SaveSoon => self.save_soon(),
                Effect::Forget => storage::forget_run(),
                Effect::Archive(events) => {
                    // After the frame that shows the run's end: packing a run for the past runs
                    // takes long enough on a phone to hold that frame back.
                    let this = *self;
                    request_animation_frame(move || {
                        leptos::task::spawn_local(async move {
                            BrowserClock.sleep(0).await;
                            match storage::archive(&events) {
                                Ok(list) => _ = this.history.try_set(list),
                                Err(e) => {
                                    _ = this.notice.try_set(format!("This run is not in past runs: {e}."))
                                }
                            }
                        });
                    });
                }
                // Every request in flight and every backoff wait ends now.
                Effect::CancelCalls => {
                    self.http.with_value(|h| {
                        if let Some(h) = h {
                            h.cancel_all();
                        }
                    });
                    self.intab.cancel_calls();
                    self.desk.cancel();
                }
                Effect::Notice(text) => self.notice.set(text),
            }
        }
        self.sync();
    }

    /// The controls follow the session.
    fn sync(&self) {
        let (status, working, replaying, given, ending, waiting) = self.with_session(|s| {
            let given = s.floor_given().map(|(agent, after)| {
                let when = if after { "after this speech" } else { "next" };
                format!("{agent} speaks {when}: given by the class (the method still chooses, and both are recorded).")
            });
            (s.status(), s.is_working(), s.is_replaying(), given, s.show_ending(), s.interjections_waiting())
        });
        if self.waiting.with_untracked(|w| *w != waiting) {
            self.waiting.set(waiting);
        }
        if self.ending.get_untracked() != ending {
            self.ending.set(ending);
        }
        if self.given.get_untracked() != given {
            self.given.set(given);
        }
        if self.mode.get_untracked() != status {
            self.mode.set(status);
        }
        if self.busy.get_untracked() != working {
            self.busy.set(working);
        }
        if self.replaying.get_untracked() != replaying {
            self.replaying.set(replaying);
        }
        if !working && self.live_text.with_untracked(Option::is_some) {
            self.live_text.set(None);
        }
    }

    /// Moves the events recorded since the last frame into the view, in one update.
    fn flush(&self) {
        let batch = self.with_session(Session::drain);
        if batch.is_empty() {
            return;
        }
        // A mark the rendering benchmark measures from: the DOM changes that follow are the cost
        // of showing these events.
        if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
            let _ = p.mark("agora:flush");
        }
        if batch.iter().any(|e| matches!(e, Event::Message { .. })) {
            self.live_text.set(None);
        }
        // A floor given while the turn was under way has just been used.
        if batch.iter().any(|e| matches!(e, Event::FloorGiven { .. })) {
            self.sync();
        }
        let from = match batch.first() {
            Some(Event::RunStarted { .. }) => 0,
            _ => self.view.with_untracked(|v| v.applied),
        };
        crate::app::room::events(from, &batch);
        self.announce(&batch);
        self.view.update(|v| {
            for e in &batch {
                v.apply(e);
            }
        });
    }

    /// Tells a screen reader what `batch` adds: each finished speech and each turn's decision
    /// once. A comparison's columns say nothing (the page's own run speaks).
    fn announce(&self, batch: &[Event]) {
        if self.column {
            return;
        }
        let mut lines: Vec<(u64, String)> = Vec::new();
        self.announcer.update_value(|(next, announcer)| {
            for line in batch.iter().filter_map(|e| announcer.hear(e)) {
                *next += 1;
                lines.push((*next, line));
            }
        });
        if lines.is_empty() {
            return;
        }
        // The last few stay, so the log never grows with the run.
        self.heard.update(|heard| {
            heard.extend(lines);
            let over = heard.len().saturating_sub(HEARD_KEPT);
            heard.drain(..over);
        });
    }

    /// Does the session's work until it gives none: steps of the engine, catching a recording up.
    fn work(&self) {
        let this = *self;
        let generation = self.with_session(|s| s.generation());
        leptos::task::spawn_local(async move {
            let clock: Rc<dyn Clock> = Rc::new(BrowserClock);
            let mut since_yield = clock.now_ms();
            loop {
                if this.with_session(|s| s.generation()) != generation {
                    return; // reset meanwhile: a newer loop does the new session's work
                }
                let Some(job) = this.with_session(Session::next_job) else { break };
                let reading = this.latency_ms.get_untracked() == READ_ALOUD;
                if reading {
                    this.flush();
                }
                let shown = this.view.with_untracked(|v| v.transcript.len());
                let effects = match job {
                    Job::Step(mut job) => {
                        let performance = web_sys::window().and_then(|w| w.performance());
                        if let Some(p) = &performance {
                            let _ = p.mark("agora:step-start");
                        }
                        let outcome = job.run.step().await;
                        // Benchmarks read how long the engine took for the step.
                        if let Some(p) = &performance {
                            let _ = p.measure_with_start_mark("agora:step", "agora:step-start");
                        }
                        this.retry_note.set(String::new());
                        this.with_session(|s| s.stepped(job, outcome))
                    }
                    Job::CatchUp(job) => match this.live_model(&job.scenario, clock.clone()) {
                        Err(e) => this.with_session(|s| s.no_model(job, &e)),
                        Ok(model) => {
                            let result = continue_live(&job.recording, model, clock.clone()).await;
                            this.with_session(|s| s.caught_up(job, result))
                        }
                    },
                };
                this.apply(effects);
                if reading {
                    this.flush();
                    let mut wait = this.reading_ms(shown);
                    // Pause, Stop, Reset or another speed end the wait.
                    while wait > 0
                        && this.mode.try_get_untracked() == Some(Mode::Running)
                        && this.latency_ms.get_untracked() == READ_ALOUD
                        && this.with_session(|s| s.generation()) == generation
                    {
                        clock.sleep(100).await;
                        wait = wait.saturating_sub(100);
                    }
                }
                // When the model answers instantly, play steps for most of a frame, then let the
                // page paint; the events recorded meanwhile are shown in one update per frame.
                if clock.now_ms() - since_yield > 10.0 {
                    clock.sleep(0).await;
                    since_yield = clock.now_ms();
                }
            }
            this.sync();
        });
    }

    /// The next replay step, after the replay's pace (the demo speed, at least 150 ms).
    fn replay_later(&self) {
        self.replay_ticket.update_value(|t| *t += 1);
        let ticket = self.replay_ticket.get_value();
        let this = *self;
        // Under Read aloud, as long as saying the message on screen takes.
        if self.latency_ms.get_untracked() == READ_ALOUD {
            self.flush();
        }
        let shown = self.view.with_untracked(|v| v.transcript.len());
        let reading = self.reading_ms(shown.saturating_sub(1));
        leptos::task::spawn_local(async move {
            BrowserClock.sleep(this.demo_latency().max(150).max(reading)).await;
            let current = this.replay_ticket.try_get_value() == Some(ticket);
            if current && this.mode.get_untracked() == Mode::Running {
                let effects = this.with_session(Session::replay_step);
                this.apply(effects);
            }
        });
    }

    /// Makes a fresh run of `scenario` when the session needs one.
    fn fresh(&self, scenario: &Scenario) -> impl FnOnce() -> Result<Run, String> + use<> {
        let this = *self;
        let mut scenario = scenario.clone();
        move || {
            let clock: Rc<dyn Clock> = Rc::new(BrowserClock);
            let model = this.live_model(&scenario, clock.clone())?;
            if scenario.model.is_demo() {
                scenario.model.demo.latency_ms = this.demo_latency();
            }
            Run::new(scenario, model, clock).map_err(|errors| FieldError::join(&errors))
        }
    }

    /// Saves the session now.
    fn save(&self) {
        let performance = web_sys::window().and_then(|w| w.performance());
        if let Some(p) = &performance {
            let _ = p.mark("agora:save-start");
        }
        self.last_saved.set_value(BrowserClock.now_ms());
        let result = self.with_session(|s| match s.snapshot() {
            Some(snap) => storage::save_run(&snap.events, snap.replay, snap.position),
            None => Ok(()),
        });
        if let Err(e) = result {
            if self.notice.get_untracked().is_empty() {
                self.notice.set(format!("The run on screen could not be saved ({e}); it is kept in memory."));
            }
        }
        // The rendering benchmark reports how long saving a long run takes.
        if let Some(p) = &performance {
            let _ = p.measure_with_start_mark("agora:save", "agora:save-start");
        }
    }

    /// Saves the session soon: once the page has shown the latest step, and while running at
    /// most every few seconds (packing a long log takes a while, and must not hold up the view).
    fn save_soon(&self) {
        if self.save_scheduled.get_value() {
            return;
        }
        let wait = if self.mode.get_untracked() == Mode::Running {
            (SAVE_EVERY_MS - (BrowserClock.now_ms() - self.last_saved.get_value())).max(0.0)
        } else {
            SAVE_AFTER_STEP_MS
        };
        self.save_scheduled.set_value(true);
        let this = *self;
        leptos::task::spawn_local(async move {
            BrowserClock.sleep(wait as u64).await;
            if this.save_scheduled.try_get_value() == Some(true) {
                this.save_scheduled.set_value(false);
                this.save();
            }
        });
    }
}

impl Default for Controller {
    fn default() -> Self {
        Self::new()
    }
}
