//! Round robin: the agents speak in order, the plain baseline the other methods are measured
//! against.

use crate::engine::Run;
use crate::events::{Event, FinishReason};
use crate::model::ModelError;

pub struct RoundRobin;

impl RoundRobin {
    pub async fn turn(&mut self, run: &mut Run) -> Result<Option<FinishReason>, ModelError> {
        let agent = (run.turn as usize - 1) % run.cast.len();
        run.push(Event::SpeakerSelected {
            turn: run.turn,
            agent: run.cast[agent].name.clone(),
            tie: false,
            tied: Vec::new(),
        });
        run.speak(agent).await?;
        Ok(None)
    }
}
