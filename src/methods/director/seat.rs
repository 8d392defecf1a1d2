//! The director's choice made by a person: one of the speakers offered, written as its index
//! `<n>` as the choice prompt asks. The reflection and the prompt to the next speaker are free
//! text within the word limit; the stop draw stays the run's seeded coin.

use crate::model::{ChatRequest, Cue, Purpose};
use crate::form::Form;

pub fn form(request: &ChatRequest) -> Option<Form> {
    match (&request.purpose, &request.cue) {
        (Purpose::DirectorChoice, Cue::Director { speakers, .. }) if !speakers.is_empty() => {
            Some(Form::Choice { options: speakers.clone(), by_index: true })
        }
        _ => None,
    }
}
