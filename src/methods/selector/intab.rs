//! The form the model inside the tab holds the selector's reply to: one candidate's name.

use crate::reply::Reply;
use crate::model::{ChatRequest, Cue, Purpose};

pub fn reply(request: &ChatRequest) -> Option<Reply> {
    match (&request.purpose, &request.cue) {
        (Purpose::Selector, Cue::Select { candidates, .. }) if !candidates.is_empty() => {
            Some(Reply::Name { options: candidates.clone() })
        }
        _ => None,
    }
}
