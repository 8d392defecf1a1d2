//! The form the model inside the tab holds the director's choice to: `<n>`, an index within the
//! speakers. (Its reflection, prompt and summary are free text.)

use crate::reply::Reply;
use crate::model::{ChatRequest, Cue, Purpose};

pub fn reply(request: &ChatRequest) -> Option<Reply> {
    match (&request.purpose, &request.cue) {
        (Purpose::DirectorChoice, Cue::Director { speakers, .. }) if !speakers.is_empty() => {
            Some(Reply::Number { lo: 0, hi: speakers.len() as u32 - 1 })
        }
        _ => None,
    }
}
