//! A person at the trading table: TRADE, ACCEPT, REJECT or END, checked against the game as it
//! stands before it is sent; and, as the optimizer, a new prompt for each player.

use crate::model::{ChatRequest, Cue, Purpose};
use crate::seat::Form;

pub fn form(request: &ChatRequest) -> Option<Form> {
    match (&request.purpose, &request.cue) {
        (Purpose::NegotiationAction, Cue::Negotiate(cue)) => {
            Some(Form::Trade { game: cue.game.clone(), seat: cue.seat, values: cue.value_scale.clone() })
        }
        (Purpose::Optimizer, Cue::Optimize(cue)) if !cue.players.is_empty() => {
            Some(Form::Prompts { players: cue.players.clone() })
        }
        _ => None,
    }
}
