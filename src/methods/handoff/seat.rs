//! A person's handoff: the speech and the next speaker, written in the preset's mode (the
//! seed's text transition, the tool's call, or the JSON reply), so the record matches what a
//! model would send.

use crate::model::{ChatRequest, Cue, Purpose, ResponseFormat};
use crate::form::{Form, HandoffReply};

pub fn form(request: &ChatRequest) -> Option<Form> {
    let (Purpose::Handoff, Cue::Handoff { options, word_limit, .. }) = (&request.purpose, &request.cue) else {
        return None;
    };
    let via = if let Some(tool) = request.tools.first() {
        HandoffReply::Tool(tool.name.clone())
    } else if matches!(request.response_format, ResponseFormat::JsonSchema { .. }) {
        HandoffReply::Json
    } else {
        HandoffReply::Text
    };
    Some(Form::Handoff {
        agent: request.agent.clone(),
        options: options.clone(),
        word_limit: *word_limit,
        via,
    })
}
