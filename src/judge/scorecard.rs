//! What a `verdict` event holds for each agent and the conversation: the judge's scores with its
//! reasons. Apart from the judge's code, so the event log names these types without leaning on
//! what asks the judge.

use serde::Serialize;

use crate::json::{deserialize_with_fields, Fields};

/// One dimension's score; `None` when the judge gave none (the run was not judged).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Score {
    pub dimension: String,
    pub score: Option<u32>,
    pub min: u32,
    pub max: u32,
}

/// The judge's scores for one agent, or for the conversation (`agent` empty).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Scorecard {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub agent: String,
    pub reasoning: String,
    pub scores: Vec<Score>,
    /// The turns of the strongest and weakest message, when the judge named turns the agent spoke in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strongest_turn: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weakest_turn: Option<u32>,
    /// What the agent said, beside its scores: speeches, and words per speech.
    pub speeches: u32,
    pub words: f64,
}

// Read by hand (see `crate::scenario::read`): serde's derived readers cost the page more.
deserialize_with_fields!(Score, "a score");
deserialize_with_fields!(Scorecard, "a scorecard");

impl Score {
    fn read(mut f: Fields) -> Result<Score, String> {
        Ok(Score {
            dimension: f.string("dimension")?,
            score: f.maybe_any::<Option<u32>>("score")?.flatten(),
            min: f.u32("min")?,
            max: f.u32("max")?,
        })
    }
}

impl Scorecard {
    fn read(mut f: Fields) -> Result<Scorecard, String> {
        Ok(Scorecard {
            agent: f.string_or_empty("agent")?,
            reasoning: f.string_or_empty("reasoning")?,
            scores: f.any("scores")?,
            strongest_turn: f.maybe_u32("strongest_turn")?,
            weakest_turn: f.maybe_u32("weakest_turn")?,
            speeches: f.u32_or_zero("speeches")?,
            words: f.maybe_f64("words")?.unwrap_or(0.0),
        })
    }
}
