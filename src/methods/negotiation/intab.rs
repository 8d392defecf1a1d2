//! The forms the model inside the tab holds the trading game's replies to: an action over the
//! game's resources, and the optimizer's object with a prompt for each player.

use crate::reply::Reply;
use crate::model::{ChatRequest, Cue, Purpose};

pub fn reply(request: &ChatRequest) -> Option<Reply> {
    match (&request.purpose, &request.cue) {
        (Purpose::NegotiationAction, Cue::Negotiate(cue)) if !cue.resources.is_empty() => {
            Some(Reply::Action { resources: cue.resources.clone() })
        }
        (Purpose::Optimizer, Cue::Optimize(cue)) if !cue.players.is_empty() => {
            Some(Reply::Prompts { players: cue.players.clone() })
        }
        _ => None,
    }
}
