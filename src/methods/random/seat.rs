//! A person in a seat of this method only ever speaks: its turns ask no other call, so the
//! speech's free-text form serves.

use crate::model::ChatRequest;
use crate::form::Form;

pub fn form(_request: &ChatRequest) -> Option<Form> {
    None
}
