//! The form the model inside the tab holds a handoff to, in the scenario's mode: the seed's text
//! ending "Transition to" another agent, or the tool's or the JSON schema's object.

use crate::reply::Reply;
use crate::model::{ChatRequest, Cue, Purpose, ResponseFormat};

pub fn reply(request: &ChatRequest) -> Option<Reply> {
    let (Purpose::Handoff, Cue::Handoff { options, word_limit, .. }) = (&request.purpose, &request.cue) else {
        return None;
    };
    if options.is_empty() {
        return None;
    }
    let word_limit = *word_limit;
    if let Some(tool) = request.tools.first() {
        return Some(Reply::Object { schema: tool.parameters.clone(), tool: Some(tool.name.clone()), word_limit });
    }
    if let ResponseFormat::JsonSchema { schema, .. } = &request.response_format {
        return Some(Reply::Object { schema: schema.clone(), tool: None, word_limit });
    }
    Some(Reply::Handoff { agent: request.agent.clone(), options: options.clone(), word_limit })
}
