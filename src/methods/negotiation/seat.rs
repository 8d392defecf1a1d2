//! A person at the trading table: TRADE, ACCEPT, REJECT or END, checked against the game as it
//! stands before it is sent. (The optimizer is not a seat: it answers for no agent.)

use crate::model::{ChatRequest, Cue, Purpose};
use crate::form::Form;

pub fn form(request: &ChatRequest) -> Option<Form> {
    match (&request.purpose, &request.cue) {
        (Purpose::NegotiationAction, Cue::Negotiate(cue)) => {
            Some(Form::Trade { game: cue.game.clone(), seat: cue.seat, values: cue.value_scale.clone() })
        }
        _ => None,
    }
}
