//! The model built into the browser (the Prompt API's `LanguageModel`) in the app: its module
//! (`public/builtin/agora-builtin.js`, fetched the first time it is needed, so the first page
//! carries none of it) draws its settings (`intab::EngineSettings`) and answers a run's calls;
//! here is only the [`ChatModel`] a run asks. Calls go as the in-tab engine's do
//! (`crate::intab::call_body`, answered as an `EngineAnswer`), so both share their reading.

use std::rc::Rc;

use super::intab::{InTab, BUILTIN_MODULE};
use crate::model::{ChatModel, ChatRequest, ChatResponse, ModelError};
use crate::provider::TextSink;
use futures::future::LocalBoxFuture;

/// The model a run on the browser's own model asks.
pub fn model(state: InTab, on_text: TextSink) -> Rc<dyn ChatModel> {
    Rc::new(Builtin { state, on_text })
}

struct Builtin {
    /// Where its calls in flight are kept for Stop (shared with the in-tab engine's).
    state: InTab,
    on_text: TextSink,
}

impl ChatModel for Builtin {
    fn complete<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, ModelError>> {
        Box::pin(self.state.ask(BUILTIN_MODULE, request, 0, None, self.on_text.clone()))
    }
}
