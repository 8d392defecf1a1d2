//! Speaker-selection methods, one module each. A method keeps its own state between turns and
//! plays one turn at a time through the engine's helpers; adding a method means adding a module
//! here and one arm to each match below.

pub mod bidding;
pub mod director;
pub mod handoff;
pub mod negotiation;
pub mod round_robin;
pub mod selector;

use crate::engine::Run;
use crate::events::FinishReason;
use crate::model::ModelError;
use crate::scenario::Method;

/// The state of whichever method the scenario uses.
pub enum MethodState {
    RoundRobin(round_robin::RoundRobin),
    Bidding(bidding::Bidding),
    Director(director::Director),
    Handoff(handoff::Handoff),
    Negotiation(Box<negotiation::Negotiation>),
    Selector(selector::Selector),
}

impl MethodState {
    pub fn new(run: &Run) -> Self {
        match &run.scenario().method {
            Method::RoundRobin => MethodState::RoundRobin(round_robin::RoundRobin),
            Method::Bidding(s) => MethodState::Bidding(bidding::Bidding::new(s)),
            Method::Director(s) => MethodState::Director(director::Director::new(run, s)),
            Method::Handoff(s) => MethodState::Handoff(handoff::Handoff::new(run, s)),
            Method::Negotiation(s) => {
                MethodState::Negotiation(Box::new(negotiation::Negotiation::new(run, s)))
            }
            Method::Selector(s) => MethodState::Selector(selector::Selector::new(s)),
        }
    }

    /// Plays one turn. `Ok(Some(reason))` ends the run.
    pub async fn turn(&mut self, run: &mut Run) -> Result<Option<FinishReason>, ModelError> {
        match self {
            MethodState::RoundRobin(m) => m.turn(run).await,
            MethodState::Bidding(m) => m.turn(run).await,
            MethodState::Director(m) => m.turn(run).await,
            MethodState::Handoff(m) => m.turn(run).await,
            MethodState::Negotiation(m) => m.turn(run).await,
            MethodState::Selector(m) => m.turn(run).await,
        }
    }

    /// Whether the scenario's turn limit ends the run (the negotiation game applies it to each
    /// game itself).
    pub fn ends_at_turn_limit(&self) -> bool {
        !matches!(self, MethodState::Negotiation(_))
    }

    /// Whether the conversation opens with an injected message (the handoff debate and the
    /// trading game start with their first agent instead, as in their seeds).
    pub fn injects_opening(&self) -> bool {
        !matches!(self, MethodState::Handoff(_) | MethodState::Negotiation(_))
    }
}
