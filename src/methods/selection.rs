//! The trait every method's state implements, apart from the registry that lists the methods
//! (`methods.rs`), so a method's folder leans on the trait and not on the list of its siblings.

use crate::events::FinishReason;
use crate::floor::Floor;
use crate::model::ModelError;

/// What every method's state does. The futures stay on one thread (the browser has one), so the
/// trait's async function promises nothing about `Send`.
#[allow(async_fn_in_trait)]
pub trait SpeakerSelection {
    /// The method's settings in the scenario.
    type Settings;

    /// The state at the end of the opening, before the first turn.
    fn start(floor: &Floor, settings: &Self::Settings) -> Self;

    /// Plays one turn. `Ok(Some(reason))` ends the run.
    async fn turn(&mut self, floor: &mut Floor) -> Result<Option<FinishReason>, ModelError>;
}
