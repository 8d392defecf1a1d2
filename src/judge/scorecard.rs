//! What a `verdict` event holds for each agent and the conversation: the judge's scores with its
//! reasons. Apart from the judge's code, so the event log names these types without leaning on
//! what asks the judge.

use serde::{Deserialize, Serialize};

/// One dimension's score; `None` when the judge gave none (the run was not judged).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Score {
    pub dimension: String,
    pub score: Option<u32>,
    pub min: u32,
    pub max: u32,
}

/// The judge's scores for one agent, or for the conversation (`agent` empty).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Scorecard {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub agent: String,
    #[serde(default)]
    pub reasoning: String,
    pub scores: Vec<Score>,
    /// The turns of the strongest and weakest message, when the judge named turns the agent spoke in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strongest_turn: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weakest_turn: Option<u32>,
    /// What the agent said, beside its scores: speeches, and words per speech.
    #[serde(default)]
    pub speeches: u32,
    #[serde(default)]
    pub words: f64,
}
