//! One turn of the method: the next agent in order speaks.

use crate::events::{Event, FinishReason};
use crate::floor::Floor;
use crate::methods::selection::SpeakerSelection;
use crate::model::ModelError;

use super::settings::RoundRobinSettings;

pub struct RoundRobin;

impl SpeakerSelection for RoundRobin {
    type Settings = RoundRobinSettings;

    fn start(_floor: &Floor, _settings: &RoundRobinSettings) -> Self {
        RoundRobin
    }

    async fn turn(&mut self, floor: &mut Floor) -> Result<Option<FinishReason>, ModelError> {
        let agent = (floor.turn as usize - 1) % floor.cast.len();
        floor.push(Event::SpeakerSelected {
            turn: floor.turn,
            agent: floor.cast[agent].name.clone(),
            tie: false,
            tied: Vec::new(),
        });
        let agent = floor.floor_for(agent);
        floor.speak(agent).await?;
        Ok(None)
    }
}
