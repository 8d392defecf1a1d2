//! Drives a run in the browser: Run, Pause, Step, Stop and Reset, the speed of the demo model,
//! replays and continuing them live. The engine's events reach the view through a buffer flushed
//! once per animation frame, so a fast run repaints at most once a frame however many events it
//! records. The run on screen is saved as it changes (see [`storage`]) and every live run goes
//! to the past runs when it ends or is replaced.

use std::cell::RefCell;
use std::rc::Rc;

use futures::future::LocalBoxFuture;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::clock::Clock;
use crate::engine::{Run, StepOutcome};
use crate::events::{Event, FinishReason};
use crate::model::demo::DemoModel;
use crate::model::ChatModel;
use crate::provider::{Endpoint, HttpModel};

use super::fetch::BrowserTransport;
use super::models::KeyStore;
use crate::replay::{continue_live, Replay};
use crate::scenario::{Scenario, SpendingCap};
use crate::view::RunView;

use super::storage::{self, PastRun};

/// How often a running run is saved, at most (it is saved at once whenever it stops or pauses).
const SAVE_EVERY_MS: f64 = 3000.0;
/// How long after a step it is saved, so the step is on screen first.
const SAVE_AFTER_STEP_MS: f64 = 50.0;

/// The browser's clock: `performance.now()` and `setTimeout`.
#[derive(Clone, Copy, Debug, Default)]
pub struct BrowserClock;

impl Clock for BrowserClock {
    fn now_ms(&self) -> f64 {
        web_sys::window().and_then(|w| w.performance()).map_or_else(js_sys::Date::now, |p| p.now())
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'static, ()> {
        let promise = js_sys::Promise::new(&mut |resolve, _| {
            if let Some(w) = web_sys::window() {
                let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(
                    resolve.unchecked_ref(),
                    ms.min(i32::MAX as u64) as i32,
                );
            }
        });
        Box::pin(async move {
            let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
        })
    }
}

/// Offers `text` as a file download named `name`.
pub fn download(name: &str, mime: &str, text: &str) -> Result<(), String> {
    let fail = |what: &str| format!("could not save the file ({what})");
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob =
        web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).map_err(|_| fail("blob"))?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(|_| fail("url"))?;
    let document = web_sys::window().and_then(|w| w.document()).ok_or_else(|| fail("no document"))?;
    let anchor: web_sys::HtmlAnchorElement =
        document.create_element("a").map_err(|_| fail("link"))?.unchecked_into();
    anchor.set_href(&url);
    anchor.set_download(name);
    anchor.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// Where a run stands, as the controls see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// No run yet.
    Idle,
    Running,
    Paused,
    Finished,
}

/// The demo model's speed settings: simulated latency per call, in milliseconds.
pub const SPEEDS: [(&str, u64); 4] = [("Instant", 0), ("Fast", 120), ("Normal", 400), ("Slow", 1000)];

/// The live run and its controls. Every field is a handle, so the controller is `Copy` and can
/// be handed to any component.
#[derive(Clone, Copy)]
pub struct Controller {
    pub mode: RwSignal<Mode>,
    /// A step is in flight.
    pub busy: RwSignal<bool>,
    pub view: RwSignal<RunView>,
    /// The whole event log, for the call inspector (rebuilding requests) and exports.
    pub events: StoredValue<Vec<Event>>,
    pub latency_ms: RwSignal<u64>,
    run: StoredValue<Option<Run>, LocalStorage>,
    demo: StoredValue<Option<Rc<DemoModel>>, LocalStorage>,
    pending: StoredValue<Rc<RefCell<Vec<Event>>>, LocalStorage>,
    flush_scheduled: StoredValue<Rc<RefCell<bool>>, LocalStorage>,
    /// Bumped by Reset and by a new run, so a step still in flight for an old run is dropped.
    generation: StoredValue<u64>,
    stop_requested: StoredValue<bool>,
    /// A recorded run being walked through instead of a live one.
    replay: StoredValue<Option<Replay>, LocalStorage>,
    pub replaying: RwSignal<bool>,
    /// The events on screen are a recording that Run and Step continue live (a run restored after
    /// a reload, or a replay forked with "Continue live from here").
    resume_pending: StoredValue<bool>,
    /// The live run on screen is already in the past runs.
    archived: StoredValue<bool>,
    last_saved: StoredValue<f64>,
    /// How many events of the live run make up whole steps: only those are saved, so a restored
    /// run never ends halfway through a turn.
    boundary: StoredValue<usize>,
    save_scheduled: StoredValue<bool>,
    /// Something the user should know about the run (it cannot be continued, it cannot be saved).
    pub notice: RwSignal<String>,
    pub history: RwSignal<Vec<PastRun>>,
    /// The user's key for real providers.
    pub keys: KeyStore,
    http: StoredValue<Option<Rc<HttpModel>>, LocalStorage>,
    /// Speech streaming in: (agent, the text so far).
    pub live_text: RwSignal<Option<(String, String)>>,
    /// A call being retried, and when.
    pub retry_note: RwSignal<String>,
    /// The spending cap from the model settings when Run or Step was last pressed: applied to
    /// the run before each step, so raising it lets a capped run go on.
    cap: StoredValue<SpendingCap>,
    /// What providers refused, remembered across the runs of this session.
    learned: StoredValue<crate::provider::Learned, LocalStorage>,
}

impl Controller {
    pub fn new() -> Self {
        Self {
            mode: RwSignal::new(Mode::Idle),
            busy: RwSignal::new(false),
            view: RwSignal::new(RunView::default()),
            events: StoredValue::new(Vec::new()),
            latency_ms: RwSignal::new(SPEEDS[2].1),
            run: StoredValue::new_local(None),
            demo: StoredValue::new_local(None),
            pending: StoredValue::new_local(Rc::new(RefCell::new(Vec::new()))),
            flush_scheduled: StoredValue::new_local(Rc::new(RefCell::new(false))),
            generation: StoredValue::new(0),
            stop_requested: StoredValue::new(false),
            replay: StoredValue::new_local(None),
            replaying: RwSignal::new(false),
            resume_pending: StoredValue::new(false),
            archived: StoredValue::new(false),
            last_saved: StoredValue::new(0.0),
            boundary: StoredValue::new(0),
            save_scheduled: StoredValue::new(false),
            notice: RwSignal::new(String::new()),
            history: RwSignal::new(Vec::new()),
            keys: KeyStore::load(),
            http: StoredValue::new_local(None),
            live_text: RwSignal::new(None),
            retry_note: RwSignal::new(String::new()),
            cap: StoredValue::new(SpendingCap::default()),
            learned: StoredValue::new_local(Default::default()),
        }
    }

    /// Changes the demo model's speed, mid-run too.
    pub fn set_speed(&self, ms: u64) {
        self.latency_ms.set(ms);
        self.demo.with_value(|d| {
            if let Some(d) = d {
                d.set_latency(ms);
            }
        });
    }

    /// Drops the run and everything shown of it (a live run is kept in the past runs).
    pub fn reset(&self) {
        self.archive();
        storage::forget_run();
        self.generation.update_value(|g| *g += 1);
        self.run.set_value(None);
        self.demo.set_value(None);
        self.pending.with_value(|p| p.borrow_mut().clear());
        self.events.set_value(Vec::new());
        self.view.set(RunView::default());
        self.stop_requested.set_value(false);
        self.replay.set_value(None);
        self.replaying.set(false);
        self.resume_pending.set_value(false);
        self.archived.set_value(false);
        self.boundary.set_value(0);
        self.notice.set(String::new());
        self.busy.set(false);
        self.mode.set(Mode::Idle);
    }

    /// Adds the live run on screen to the past runs, once.
    fn archive(&self) {
        let live = !self.replaying.get_untracked() && !self.archived.get_value();
        let played = self.events.with_value(|e| e.iter().any(|e| e.turn().is_some_and(|t| t > 0)));
        if !live || !played {
            return;
        }
        self.archived.set_value(true);
        match self.events.with_value(|e| storage::archive(e)) {
            Ok(list) => self.history.set(list),
            Err(e) => self.notice.set(format!("This run is not in past runs: {e}.")),
        }
    }

    /// Saves the run on screen now.
    fn save(&self) {
        let performance = web_sys::window().and_then(|w| w.performance());
        if let Some(p) = &performance {
            let _ = p.mark("agora:save-start");
        }
        self.save_now();
        // The rendering benchmark reports how long saving a long run takes.
        if let Some(p) = &performance {
            let _ = p.measure_with_start_mark("agora:save", "agora:save-start");
        }
    }

    fn save_now(&self) {
        self.last_saved.set_value(BrowserClock.now_ms());
        let replaying = self.replaying.get_untracked();
        let result = if replaying {
            // The recording's pieces are written once; later saves only move the position.
            let position = self.events.with_value(Vec::len);
            self.replay
                .with_value(|r| r.as_ref().map_or(Ok(()), |r| storage::save_run(r.events(), true, position)))
        } else {
            let boundary = self.boundary.get_value();
            let waiting = self.pending.with_value(|p| p.borrow().len());
            self.events.with_value(|events| {
                if waiting == 0 || events.len() >= boundary {
                    storage::save_run(&events[..boundary.min(events.len())], false, 0)
                } else {
                    // Events still waiting for the next frame are part of the run too.
                    let mut all = events.clone();
                    self.pending.with_value(|p| all.extend(p.borrow().iter().cloned()));
                    all.truncate(boundary);
                    storage::save_run(&all, false, 0)
                }
            })
        };
        if let Err(e) = result {
            if self.notice.get_untracked().is_empty() {
                self.notice.set(format!("The run on screen could not be saved ({e}); it is kept in memory."));
            }
        }
    }

    /// Saves the run on screen soon: once the page has shown the latest step, and while running at
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

    /// Shows the run saved before the page was left: a replay at the step it had reached, a live
    /// run paused at its last recorded turn (Run and Step continue it), or a finished one.
    pub fn restore(&self, restored: storage::Restored) {
        let events = restored.file.events;
        if restored.replay {
            self.load_replay(events);
            let shown = self
                .replay
                .try_update_value(|r| r.as_mut().map(|r| r.seek(restored.position).to_vec()))
                .flatten()
                .unwrap_or_default();
            self.show(shown);
            self.save();
            return;
        }
        // A run that ended in an error is paused on the failed turn, like a live one.
        let finished =
            matches!(events.last(), Some(Event::RunFinished { reason }) if *reason != FinishReason::Error);
        self.boundary.set_value(events.len());
        self.show(events);
        self.archived.set_value(finished);
        self.resume_pending.set_value(!finished);
        self.mode.set(if finished { Mode::Finished } else { Mode::Paused });
    }

    /// Puts `events` on screen in place of what was there.
    fn show(&self, events: Vec<Event>) {
        self.view.set(RunView::from_events(&events));
        self.events.set_value(events);
    }

    /// "Continue live from here": the replay so far becomes a live run, paused; Run or Step goes
    /// on from the step on screen with the model.
    pub fn continue_here(&self) {
        if !self.replaying.get_untracked() {
            return;
        }
        self.replay.set_value(None);
        self.replaying.set(false);
        self.archived.set_value(false);
        self.resume_pending.set_value(true);
        self.mode.set(Mode::Paused);
        self.save();
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

    /// The provider endpoint the scenario names, with the user's key (asking first when the
    /// key would go to an address it was not entered for).
    fn endpoint(&self, scenario: &Scenario) -> Result<Endpoint, String> {
        let key = self.keys.key_for(&scenario.model.effective_base_url())?;
        Ok(Endpoint::of(scenario, key))
    }

    /// Asks the scenario's provider which models it offers: their names and a report (how many,
    /// and which of the scenario's and its agents' models are not among them), or what is wrong.
    pub async fn check_connection(&self, scenario: Scenario) -> Result<(Vec<String>, String), String> {
        let mut endpoint = self.endpoint(&scenario)?;
        if endpoint.model.trim().is_empty() {
            // Listing needs no model; the check is how one is picked.
            endpoint.model = "-".into();
        }
        let network = scenario.model.network.clone();
        let model =
            HttpModel::new(endpoint, network, Rc::new(BrowserTransport::default()), Rc::new(BrowserClock))?
                .with_secrets(self.keys.all_keys());
        let names = model.list_models().await?;
        let (report, _) = crate::provider::connection_report(&scenario, &names);
        Ok((names, report))
    }

    /// The model that answers a live run: the demo model at the chosen speed, or the provider
    /// the scenario names, with the user's key.
    fn live_model(&self, scenario: &Scenario, clock: Rc<dyn Clock>) -> Result<Rc<dyn ChatModel>, String> {
        self.demo.set_value(None);
        self.http.set_value(None);
        if scenario.model.is_demo() {
            let mut scenario = scenario.clone();
            scenario.model.demo.latency_ms = self.latency_ms.get_untracked();
            let demo = Rc::new(DemoModel::new(&scenario, clock));
            self.demo.set_value(Some(demo.clone()));
            return Ok(demo);
        }
        let endpoint = self.endpoint(scenario)?;
        let this = *self;
        let model = HttpModel::new(
            endpoint,
            scenario.model.network.clone(),
            Rc::new(BrowserTransport::default()),
            clock,
        )?
        .with_learned(self.learned.get_value())
        .with_secrets(self.keys.all_keys())
        .on_text(Rc::new(move |agent: &str, text: &str| {
            this.live_text.set(Some((agent.to_string(), text.to_string())))
        }))
        .on_notice(Rc::new(move |what: &str| this.notice.set(what.to_string())))
        .on_retry(Rc::new(move |agent: &str, what: &str, ms: u64| {
            this.retry_note.set(format!("{what} Trying {agent}'s call again in {} s.", ms.div_ceil(1000)))
        }));
        let model = Rc::new(model);
        self.http.set_value(Some(model.clone()));
        Ok(model)
    }

    /// Sends the run's events to the view as they are recorded, a frame at a time.
    fn attach(&self, run: &mut Run) {
        let pending = self.pending.get_value();
        let scheduled = self.flush_scheduled.get_value();
        let this = *self;
        run.set_listener(move |event| {
            pending.borrow_mut().push(event.clone());
            if !*scheduled.borrow() {
                *scheduled.borrow_mut() = true;
                let scheduled = scheduled.clone();
                request_animation_frame(move || {
                    *scheduled.borrow_mut() = false;
                    this.flush();
                });
            }
        });
    }

    /// Rebuilds a live run from the recording on screen, answering its calls from the recording;
    /// false (with a notice) when it cannot be continued.
    async fn catch_up(&self, generation: u64) -> bool {
        self.resume_pending.set_value(false);
        let recorded = self.events.get_value();
        let Some(Event::RunStarted { scenario, .. }) = recorded.first() else {
            self.mode.set(Mode::Idle);
            return false;
        };
        let clock: Rc<dyn Clock> = Rc::new(BrowserClock);
        let model = match self.live_model(scenario, clock.clone()) {
            Ok(model) => model,
            Err(e) => {
                // Nothing is lost: fix the model settings and press Resume again.
                self.notice.set(format!("Cannot go on: {e}."));
                self.resume_pending.set_value(true);
                self.mode.set(Mode::Paused);
                return false;
            }
        };
        let result = continue_live(&recorded, model, clock).await;
        if self.generation.try_get_value() != Some(generation) {
            return false;
        }
        match result {
            Ok(mut run) => {
                if run.events().len() != recorded.len() {
                    // The recording ended in a failed turn, which is played again.
                    self.show(run.events().to_vec());
                }
                self.attach(&mut run);
                self.boundary.set_value(run.events().len());
                self.run.set_value(Some(run));
                true
            }
            Err(e) => {
                self.notice.set(format!("This run cannot be continued live: {e}."));
                self.archived.set_value(true);
                self.mode.set(Mode::Finished);
                false
            }
        }
    }

    /// Loads a recorded run to walk through with Step and Play; nothing is shown until then.
    pub fn load_replay(&self, events: Vec<Event>) {
        self.reset();
        self.replay.set_value(Some(Replay::new(events)));
        self.replaying.set(true);
        self.mode.set(Mode::Paused);
        self.save();
    }

    /// Shows the next step of the recording; false when it has ended.
    fn replay_step(&self) -> bool {
        let batch = self.replay.try_update_value(|r| r.as_mut().map(|r| r.next_step().to_vec())).flatten();
        let Some(batch) = batch.filter(|b| !b.is_empty()) else {
            self.mode.set(Mode::Finished);
            return false;
        };
        self.pending.with_value(|p| p.borrow_mut().extend(batch));
        self.flush();
        self.save_soon();
        if self.replay.with_value(|r| r.as_ref().is_none_or(Replay::is_done)) {
            self.mode.set(Mode::Finished);
            return false;
        }
        true
    }

    fn spawn_replay(&self) {
        let this = *self;
        let generation = self.generation.get_value();
        leptos::task::spawn_local(async move {
            while this.mode.get_untracked() == Mode::Running && this.replay_step() {
                BrowserClock.sleep(this.latency_ms.get_untracked().max(150)).await;
                if this.generation.try_get_value() != Some(generation) {
                    return;
                }
            }
        });
    }

    /// Starts a fresh run of `scenario` (nothing is asked of the model until the first step).
    fn prepare(&self, scenario: &Scenario) -> Result<(), String> {
        self.reset();
        let clock: Rc<dyn Clock> = Rc::new(BrowserClock);
        let model = self.live_model(scenario, clock.clone())?;
        let mut scenario = scenario.clone();
        if scenario.model.is_demo() {
            scenario.model.demo.latency_ms = self.latency_ms.get_untracked();
        }
        let mut run = Run::new(scenario, model, clock)?;
        self.attach(&mut run);
        self.run.set_value(Some(run));
        Ok(())
    }

    /// Moves buffered events into the log and the view, in one update.
    fn flush(&self) {
        let batch: Vec<Event> = self.pending.with_value(|p| std::mem::take(&mut *p.borrow_mut()));
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
        self.view.update(|v| {
            for e in &batch {
                v.apply(e);
            }
        });
        self.events.update_value(|log| log.extend(batch));
    }

    /// Saves the run on screen now, whatever it is doing: for a page being closed or reloaded.
    /// A replay is saved too: a step taken just before a reload (saves wait 50 ms after a step)
    /// would otherwise come back one step short; its saves only move the position.
    pub fn save_before_leaving(&self) {
        if self.replaying.get_untracked() || self.mode.get_untracked() != Mode::Idle {
            self.save();
        }
    }

    /// A turn failed (the error is in the log and on screen): the run pauses there, and Resume or
    /// Step plays the failed turn again, everything before it kept.
    fn failed(&self) {
        self.live_text.set(None);
        self.resume_pending.set_value(true);
        self.run.set_value(None);
        self.mode.set(Mode::Paused);
        self.save();
    }

    /// A live run has ended: it is saved and goes to the past runs.
    fn finished(&self) {
        self.mode.set(Mode::Finished);
        self.save();
        self.archive();
    }

    /// Run: starts a run of `scenario` or resumes a paused one, stepping until it ends or is
    /// paused.
    pub fn play(&self, scenario: &Scenario) -> Result<(), String> {
        self.cap.set_value(scenario.model.spending_cap);
        // A replay that has ended gives way to a live run of the same scenario.
        if self.replaying.get_untracked() && self.mode.get_untracked() != Mode::Finished {
            if self.mode.get_untracked() == Mode::Paused {
                self.mode.set(Mode::Running);
                self.spawn_replay();
            }
            return Ok(());
        }
        match self.mode.get_untracked() {
            Mode::Idle | Mode::Finished => self.prepare(scenario)?,
            Mode::Paused => {}
            Mode::Running => return Ok(()),
        }
        self.mode.set(Mode::Running);
        if !self.busy.get_untracked() {
            self.spawn_steps(true);
        }
        Ok(())
    }

    /// Pause: the step in flight finishes, then the run waits.
    pub fn pause(&self) {
        if self.mode.get_untracked() == Mode::Running {
            self.mode.set(Mode::Paused);
        }
    }

    /// Step: plays exactly one step, starting a run if there is none.
    pub fn step(&self, scenario: &Scenario) -> Result<(), String> {
        if self.busy.get_untracked() {
            return Ok(());
        }
        self.cap.set_value(scenario.model.spending_cap);
        if self.replaying.get_untracked() && self.mode.get_untracked() != Mode::Finished {
            if self.mode.get_untracked() == Mode::Paused {
                self.replay_step();
            }
            return Ok(());
        }
        if matches!(self.mode.get_untracked(), Mode::Idle | Mode::Finished) {
            self.prepare(scenario)?;
        }
        self.mode.set(Mode::Paused);
        self.spawn_steps(false);
        Ok(())
    }

    /// Stop: ends the run; a step in flight is allowed to finish and recorded first.
    pub fn stop(&self) {
        if self.replaying.get_untracked() {
            self.mode.set(Mode::Finished);
            return;
        }
        match self.mode.get_untracked() {
            Mode::Idle | Mode::Finished => {}
            _ if self.busy.get_untracked() => {
                self.stop_requested.set_value(true);
                // Every request in flight and every backoff wait ends now; no agent goes on alone.
                self.http.with_value(|h| {
                    if let Some(h) = h {
                        h.cancel_all();
                    }
                });
            }
            _ => {
                let this = *self;
                self.run.update_value(|r| {
                    if let Some(r) = r {
                        r.stop();
                        this.boundary.set_value(r.events().len());
                    }
                });
                self.flush();
                self.finished();
            }
        }
    }

    fn spawn_steps(&self, repeat: bool) {
        let this = *self;
        let generation = self.generation.get_value();
        self.busy.set(true);
        leptos::task::spawn_local(async move {
            if this.resume_pending.get_value() && !this.catch_up(generation).await {
                if this.generation.try_get_value() == Some(generation) {
                    this.busy.set(false);
                }
                return;
            }
            let mut since_yield = BrowserClock.now_ms();
            loop {
                let Some(mut run) = this.run.try_update_value(|r| r.take()).flatten() else { break };
                run.set_spending_cap(this.cap.get_value());
                let performance = web_sys::window().and_then(|w| w.performance());
                if let Some(p) = &performance {
                    let _ = p.mark("agora:step-start");
                }
                let outcome = run.step().await;
                // Benchmarks read how long the engine took for the step.
                if let Some(p) = &performance {
                    let _ = p.measure_with_start_mark("agora:step", "agora:step-start");
                }
                if this.generation.try_get_value() != Some(generation) {
                    return; // reset while the step was in flight: this run is gone
                }
                let stop = this.stop_requested.get_value();
                if stop {
                    run.stop();
                    this.stop_requested.set_value(false);
                }
                this.boundary.set_value(run.events().len());
                this.run.set_value(Some(run));
                let finished = matches!(outcome, StepOutcome::Finished(_)) || stop;
                let failed = !stop && matches!(&outcome, StepOutcome::Finished(FinishReason::Error));
                // At the spending cap the run pauses; the view says why and how to go on.
                let capped = outcome == StepOutcome::Capped;
                if capped && !finished {
                    this.mode.set(Mode::Paused);
                }
                this.retry_note.set(String::new());
                if finished || capped || !repeat || this.mode.get_untracked() != Mode::Running {
                    this.flush();
                    if failed {
                        this.failed();
                    } else if finished {
                        this.finished();
                    } else {
                        this.save_soon();
                    }
                    break;
                }
                this.save_soon();
                // When the model answers instantly, play steps for most of a frame, then let the
                // page paint; the events recorded meanwhile are shown in one update per frame.
                if BrowserClock.now_ms() - since_yield > 10.0 {
                    BrowserClock.sleep(0).await;
                    since_yield = BrowserClock.now_ms();
                }
            }
            this.busy.set(false);
        });
    }
}

impl Default for Controller {
    fn default() -> Self {
        Self::new()
    }
}
