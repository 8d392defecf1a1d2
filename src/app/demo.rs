//! The demo model on the page: the core's [`DemoModel`], in a chunk of its own fetched as soon as
//! the start screen is up (docs/architecture.md), so none of it is on the first page. The chunk
//! hands back the function that opens a run's model; from then on each call is answered at once,
//! as the core's demo model answers, so a run on the page is the run `agora run` plays for the
//! same scenario and seed.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use futures::future::LocalBoxFuture;

use crate::clock::Clock;
use crate::demo::DemoModel;
use crate::estimate::Estimate;
use crate::model::{ChatModel, ChatRequest, ChatResponse, ModelError};
use crate::scenario::Scenario;

/// One run's demo model, answering each call as it is made.
type Answers = Box<dyn Fn(&ChatRequest) -> ChatResponse>;

/// What the chunk gives: the demo model of a run of a scenario.
type Opener = fn(&Scenario) -> Answers;

thread_local! {
    /// The chunk's opener, once it has been fetched.
    static OPENER: Cell<Option<Opener>> = const { Cell::new(None) };
}

/// The chunk's entry (the split `#[lazy]` makes, written out for `fallible`: a chunk that cannot
/// be fetched is an error to word, not a panic that stops the app).
#[leptos::wasm_split::wasm_split(demo, wasm_split_path = ::leptos::wasm_split, fallible)]
fn opener() -> Result<Opener, super::Unfetched> {
    Ok(|scenario| {
        // The page waits out the latency itself, so that a change of speed reaches a run.
        let model = DemoModel::new(scenario, Rc::new(crate::clock::FrozenClock));
        Box::new(move |request| model.answer(request))
    })
}

/// Fetches the demo model's chunk (at most once, again after a failure); whether it arrived.
pub async fn load() -> Result<(), String> {
    if OPENER.get().is_some() {
        return Ok(());
    }
    let open = opener().await.map_err(|_| {
        "the demo model could not be fetched (its file did not arrive): check the connection, then try \
         again (or reload the page)"
            .to_string()
    })?;
    OPENER.set(Some(open));
    Ok(())
}

/// Plays the opening and first turn of `scenario` on the demo model and drops them, while the
/// visitor reads the stage: a browser compiles each wasm function when it is first called, and a
/// first Run waited for the engine, its method and the demo model to be compiled (about 50 ms
/// more from the click to the first speech on a desktop). Nothing is shown or kept.
pub fn warm(scenario: &Scenario) {
    use futures::FutureExt;
    if OPENER.get().is_none() || !scenario.model.is_demo() {
        return;
    }
    let mut scenario = scenario.clone();
    scenario.model.demo.latency_ms = 0;
    let clock: Rc<dyn Clock> = Rc::new(crate::clock::FrozenClock);
    let model = Rc::new(PageDemo::new(&scenario, clock.clone()));
    let Ok(mut run) = crate::engine::Run::new(scenario, model, clock) else {
        return;
    };
    for _ in 0..2 {
        if run.step().now_or_never().is_none() {
            return;
        }
    }
}

/// What a run of `scenario` will cost (see [`Estimate::of`]), played on the demo model: `None`
/// until its chunk has arrived.
pub fn estimate(scenario: &Scenario) -> Option<Estimate> {
    Estimate::with(scenario, |s| Rc::new(PageDemo::new(s, Rc::new(crate::clock::FrozenClock))))
}

/// The demo model of one run on the page, opened when its first call finds the chunk there.
pub struct PageDemo {
    scenario: Scenario,
    model: RefCell<Option<Answers>>,
    latency_ms: Cell<u64>,
    clock: Rc<dyn Clock>,
}

impl PageDemo {
    /// The demo model for a run of `scenario`, waiting `scenario.model.demo.latency_ms` a call.
    pub fn new(scenario: &Scenario, clock: Rc<dyn Clock>) -> Self {
        Self {
            scenario: scenario.clone(),
            model: RefCell::new(None),
            latency_ms: Cell::new(scenario.model.demo.latency_ms),
            clock,
        }
    }

    /// Changes the latency of the calls made from now on (the app's speed setting).
    pub fn set_latency(&self, ms: u64) {
        self.latency_ms.set(ms);
    }

    /// The reply to `request`, if the chunk has arrived; answered at once, so calls made together
    /// count in the order they were made.
    fn ask(&self, request: &ChatRequest) -> Option<ChatResponse> {
        let mut model = self.model.borrow_mut();
        if model.is_none() {
            *model = Some(OPENER.get()?(&self.scenario));
        }
        model.as_ref().map(|answer| answer(request))
    }
}

impl ChatModel for PageDemo {
    fn complete<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, ModelError>> {
        let now = self.ask(request);
        let latency = self.latency_ms.get();
        Box::pin(async move {
            let reply = match now {
                Some(reply) => Ok(reply),
                // The first call of a run that starts before the chunk has come waits for it.
                None => match load().await {
                    Ok(()) => self.ask(request).ok_or_else(|| "the demo model did not start".to_string()),
                    Err(e) => Err(e),
                },
            };
            if latency > 0 {
                self.clock.sleep(latency).await;
            }
            reply.map_err(ModelError::Unavailable)
        })
    }
}
