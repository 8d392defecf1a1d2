//! Speaker-selection methods, one module each, and the registry that lists them. A method keeps
//! its own state between turns and plays one turn at a time on the [`Floor`] (the cast, the
//! transcript, the run's RNG, the model through the engine's recording helpers): it implements
//! [`SpeakerSelection`] and takes one line in [`registry!`] below.

pub mod bidding;
pub mod director;
pub mod handoff;
pub mod negotiation;
pub mod round_robin;
pub mod selector;

use crate::events::FinishReason;
use crate::floor::Floor;
use crate::model::ModelError;
use crate::scenario::Method;

/// What every method does. The futures stay on one thread (the browser has one), so the trait's
/// async function promises nothing about `Send`.
#[allow(async_fn_in_trait)]
pub trait SpeakerSelection {
    /// Plays one turn. `Ok(Some(reason))` ends the run.
    async fn turn(&mut self, floor: &mut Floor) -> Result<Option<FinishReason>, ModelError>;

    /// Whether the scenario's turn limit ends the run.
    fn ends_at_turn_limit(&self) -> bool {
        true
    }

    /// Whether the conversation opens with the scenario's injected message.
    fn injects_opening(&self) -> bool {
        true
    }
}

/// One line per method: its `Method` variant, the state it keeps, and how that state starts
/// from the floor and the method's settings.
macro_rules! registry {
    ($($kind:ident($state:ty) = |$floor:pat_param, $settings:pat_param| $start:expr),* $(,)?) => {
        /// The state of whichever method the scenario uses.
        pub enum MethodState {
            $($kind($state),)*
        }

        impl MethodState {
            pub fn new(floor: &Floor) -> Self {
                match &floor.scenario().method {
                    $($settings => {
                        let $floor = floor;
                        MethodState::$kind($start)
                    })*
                }
            }

            pub async fn turn(&mut self, floor: &mut Floor) -> Result<Option<FinishReason>, ModelError> {
                match self {
                    $(MethodState::$kind(m) => m.turn(floor).await,)*
                }
            }

            pub fn ends_at_turn_limit(&self) -> bool {
                match self {
                    $(MethodState::$kind(m) => m.ends_at_turn_limit(),)*
                }
            }

            pub fn injects_opening(&self) -> bool {
                match self {
                    $(MethodState::$kind(m) => m.injects_opening(),)*
                }
            }
        }
    };
}

registry! {
    RoundRobin(round_robin::RoundRobin) = |_, Method::RoundRobin| round_robin::RoundRobin,
    Bidding(bidding::Bidding) = |_, Method::Bidding(s)| bidding::Bidding::new(s),
    Director(director::Director) = |floor, Method::Director(s)| director::Director::new(floor, s),
    Handoff(handoff::Handoff) = |floor, Method::Handoff(s)| handoff::Handoff::new(floor, s),
    Selector(selector::Selector) = |_, Method::Selector(s)| selector::Selector::new(s),
    Negotiation(Box<negotiation::Negotiation>) =
        |floor, Method::Negotiation(s)| Box::new(negotiation::Negotiation::new(floor, s)),
}
