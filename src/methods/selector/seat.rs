//! The selector played by a person: one of the candidates, written as the name.

use crate::model::{ChatRequest, Cue, Purpose};
use crate::form::Form;

pub fn form(request: &ChatRequest) -> Option<Form> {
    match (&request.purpose, &request.cue) {
        (Purpose::Selector, Cue::Select { candidates, .. }) if !candidates.is_empty() => {
            Some(Form::Choice { options: candidates.clone(), by_index: false })
        }
        _ => None,
    }
}
