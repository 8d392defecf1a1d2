//! Round robin: the agents speak in order, the plain baseline the other methods are measured
//! against.

use crate::events::{Event, FinishReason};
use crate::floor::Floor;
use crate::methods::SpeakerSelection;
use crate::model::ModelError;

pub struct RoundRobin;

impl SpeakerSelection for RoundRobin {
    async fn turn(&mut self, floor: &mut Floor) -> Result<Option<FinishReason>, ModelError> {
        let agent = (floor.turn as usize - 1) % floor.cast.len();
        floor.push(Event::SpeakerSelected {
            turn: floor.turn,
            agent: floor.cast[agent].name.clone(),
            tie: false,
            tied: Vec::new(),
        });
        floor.speak(agent).await?;
        Ok(None)
    }
}
