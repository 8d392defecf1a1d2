//! Speaker-selection methods, one folder each, listed once in [`registry`]. A method keeps its
//! own state between turns and plays one turn at a time on the [`Floor`] (the cast, the
//! transcript, the run's RNG, the model through the floor's recording helpers): its `State`
//! implements [`SpeakerSelection`].

pub mod registry;
pub mod selection;

macro_rules! method_folders {
    ($($kind:ident $module:ident $id:literal $label:literal,)*) => {
        $(pub mod $module;)*
    };
}

// Each method's folder, from the registry.
each_method!(method_folders);

use crate::events::FinishReason;
use crate::floor::Floor;
use crate::model::ModelError;
use crate::scenario::Method;
use registry::each_method;
pub use selection::SpeakerSelection;

macro_rules! method_state {
    ($($kind:ident $module:ident $id:literal $label:literal,)*) => {
        /// The state of whichever method the scenario uses. (Boxed: the states differ in size
        /// and a run holds one.)
        pub enum MethodState {
            $($kind(Box<$module::State>),)*
        }

        impl MethodState {
            pub fn new(floor: &Floor) -> Self {
                match &floor.scenario().method {
                    $(Method::$kind(s) => MethodState::$kind(Box::new($module::State::start(floor, s))),)*
                }
            }

            pub async fn turn(&mut self, floor: &mut Floor) -> Result<Option<FinishReason>, ModelError> {
                match self {
                    $(MethodState::$kind(m) => m.turn(floor).await,)*
                }
            }
        }
    };
}

each_method!(method_state);
