//! The demo model on the page. Its code is a module of its own (`src/bin/agora-demo.rs`, served
//! as demo/agora-demo.js), fetched as soon as the page has drawn, so none of it is on the first
//! page: each call goes to it as JSON and its reply comes back the same way, so a run on the page
//! is the run `agora run` plays for the same scenario and seed.

use std::cell::Cell;
use std::rc::Rc;

use futures::future::LocalBoxFuture;
use wasm_bindgen::JsValue;

use crate::clock::Clock;
use crate::estimate::Estimate;
use crate::model::{ChatModel, ChatRequest, ChatResponse, ModelError};
use crate::scenario::Scenario;

const MODULE: &str = "demo/agora-demo.js";
const WHAT: &str = "the demo model";

/// Fetches and starts the demo model's module (at most once); whether it started.
pub async fn load() -> Result<(), String> {
    super::tools::wasm_module(MODULE, WHAT).await.map(drop)
}

/// What a run of `scenario` will cost (see [`Estimate::of`]), played on the module: `None` until
/// it has started.
pub fn estimate(scenario: &Scenario) -> Option<Estimate> {
    Estimate::with(scenario, |s| Rc::new(PageDemo::new(s, Rc::new(crate::clock::FrozenClock))))
}

/// The demo model of one run, answering through the module.
pub struct PageDemo {
    scenario: String,
    /// The module's number for this run's model, once it has one.
    id: Cell<Option<u32>>,
    latency_ms: Cell<u64>,
    clock: Rc<dyn Clock>,
}

impl PageDemo {
    /// The demo model for a run of `scenario`, waiting `scenario.model.demo.latency_ms` a call.
    pub fn new(scenario: &Scenario, clock: Rc<dyn Clock>) -> Self {
        Self {
            scenario: serde_json::to_string(scenario).unwrap_or_default(),
            id: Cell::new(None),
            latency_ms: Cell::new(scenario.model.demo.latency_ms),
            clock,
        }
    }

    /// Changes the latency of the calls made from now on (the app's speed setting).
    pub fn set_latency(&self, ms: u64) {
        self.latency_ms.set(ms);
    }

    /// The reply to `request`, if the module has started; answered at once, as the core's demo
    /// model answers, so calls made together count in the order they were made.
    fn ask(&self, request: &str) -> Option<Result<ChatResponse, String>> {
        let module = super::tools::started(MODULE)?;
        let call = |name: &str, args: &[JsValue]| super::tools::call(&module, name, args);
        Some((|| {
            let id = match self.id.get() {
                Some(id) => id,
                None => {
                    let id = super::tools::call_value(&module, "open", &[self.scenario.as_str().into()])?
                        .as_f64()
                        .ok_or("the demo model did not start")? as u32;
                    self.id.set(Some(id));
                    id
                }
            };
            let reply = call("reply", &[id.into(), request.into()])?;
            ChatResponse::from_demo_json(&reply)
                .map_err(|e| format!("the demo model's reply could not be read: {e}"))
        })())
    }
}

impl Drop for PageDemo {
    fn drop(&mut self) {
        if let (Some(id), Some(module)) = (self.id.get(), super::tools::started(MODULE)) {
            let _ = super::tools::call(&module, "close", &[id.into()]);
        }
    }
}

impl ChatModel for PageDemo {
    fn complete<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, ModelError>> {
        let body = request.to_json();
        let now = self.ask(&body);
        let latency = self.latency_ms.get();
        Box::pin(async move {
            let reply = match now {
                Some(reply) => reply,
                // The first call of a run that starts before the module has come waits for it.
                None => match load().await {
                    Ok(()) => self.ask(&body).unwrap_or_else(|| Err("the demo model did not start".into())),
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
