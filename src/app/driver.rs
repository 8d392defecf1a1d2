//! Drives a run in the browser: Run, Pause, Step, Stop and Reset, and the speed of the demo
//! model. The engine's events reach the view through a buffer flushed once per animation frame,
//! so a fast run repaints at most once a frame however many events it records.

use std::cell::RefCell;
use std::rc::Rc;

use futures::future::LocalBoxFuture;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::clock::Clock;
use crate::engine::{Run, StepOutcome};
use crate::events::Event;
use crate::model::demo::DemoModel;
use crate::replay::Replay;
use crate::scenario::Scenario;
use crate::view::RunView;

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

    /// Drops the run and everything shown of it.
    pub fn reset(&self) {
        self.generation.update_value(|g| *g += 1);
        self.run.set_value(None);
        self.demo.set_value(None);
        self.pending.with_value(|p| p.borrow_mut().clear());
        self.events.set_value(Vec::new());
        self.view.set(RunView::default());
        self.stop_requested.set_value(false);
        self.replay.set_value(None);
        self.replaying.set(false);
        self.busy.set(false);
        self.mode.set(Mode::Idle);
    }

    /// Loads a recorded run to walk through with Step and Play; nothing is shown until then.
    pub fn load_replay(&self, events: Vec<Event>) {
        self.reset();
        self.replay.set_value(Some(Replay::new(events)));
        self.replaying.set(true);
        self.mode.set(Mode::Paused);
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
        let mut scenario = scenario.clone();
        scenario.model.demo.latency_ms = self.latency_ms.get_untracked();
        let demo = Rc::new(DemoModel::new(&scenario, clock.clone()));
        let mut run = Run::new(scenario, demo.clone(), clock)?;
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
        self.demo.set_value(Some(demo));
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
        self.view.update(|v| {
            for e in &batch {
                v.apply(e);
            }
        });
        self.events.update_value(|log| log.extend(batch));
    }

    /// Run: starts a run of `scenario` or resumes a paused one, stepping until it ends or is
    /// paused.
    pub fn play(&self, scenario: &Scenario) -> Result<(), String> {
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
            _ if self.busy.get_untracked() => self.stop_requested.set_value(true),
            _ => {
                self.run.update_value(|r| {
                    if let Some(r) = r {
                        r.stop();
                    }
                });
                self.flush();
                self.mode.set(Mode::Finished);
            }
        }
    }

    fn spawn_steps(&self, repeat: bool) {
        let this = *self;
        let generation = self.generation.get_value();
        self.busy.set(true);
        leptos::task::spawn_local(async move {
            let mut since_yield = BrowserClock.now_ms();
            loop {
                let Some(mut run) = this.run.try_update_value(|r| r.take()).flatten() else { break };
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
                this.run.set_value(Some(run));
                let finished = matches!(outcome, StepOutcome::Finished(_)) || stop;
                if finished || !repeat || this.mode.get_untracked() != Mode::Running {
                    this.flush();
                    if finished {
                        this.mode.set(Mode::Finished);
                    }
                    break;
                }
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
