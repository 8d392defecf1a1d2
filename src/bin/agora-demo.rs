//! The demo model's own small WebAssembly build, fetched as soon as the page has drawn and
//! never part of the first page: the page sends it the scenario once per run and each call's
//! request as JSON, and gets the demo's reply back. The code is the core's (`agora::demo`), so
//! a run on the page gives the event log `agora run` gives for the same scenario and seed.

#[cfg(target_arch = "wasm32")]
mod exports {
    use std::cell::RefCell;
    use std::rc::Rc;

    use agora::demo::DemoModel;
    use wasm_bindgen::prelude::wasm_bindgen;

    thread_local! {
        /// The demo models of the runs under way, by the number `open` gave; a closed one
        /// leaves an empty slot so numbers are never reused.
        static RUNS: RefCell<Vec<Option<DemoModel>>> = const { RefCell::new(Vec::new()) };
    }

    /// Starts a demo model for a run of `scenario` (JSON); the number to call it by.
    #[wasm_bindgen]
    pub fn open(scenario: &str) -> Result<u32, String> {
        let scenario: agora::scenario::Scenario = serde_json::from_str(scenario)
            .map_err(|e| format!("the demo model could not read the scenario: {e}"))?;
        // The page waits out the latency itself, so that a change of speed reaches a run.
        let model = DemoModel::new(&scenario, Rc::new(agora::clock::FrozenClock));
        Ok(RUNS.with(|runs| {
            let mut runs = runs.borrow_mut();
            runs.push(Some(model));
            runs.len() as u32 - 1
        }))
    }

    /// The reply of run `id`'s demo model to `request` (JSON), as JSON.
    #[wasm_bindgen]
    pub fn reply(id: u32, request: &str) -> Result<String, String> {
        let request: agora::model::ChatRequest = serde_json::from_str(request)
            .map_err(|e| format!("the demo model could not read the call: {e}"))?;
        RUNS.with(|runs| {
            let runs = runs.borrow();
            let model = runs
                .get(id as usize)
                .and_then(Option::as_ref)
                .ok_or("the demo model of this run is closed")?;
            serde_json::to_string(&model.answer(&request)).map_err(|e| e.to_string())
        })
    }

    /// Lets run `id`'s demo model go.
    #[wasm_bindgen]
    pub fn close(id: u32) {
        RUNS.with(|runs| {
            if let Some(slot) = runs.borrow_mut().get_mut(id as usize) {
                *slot = None;
            }
        });
    }
}

fn main() {}
