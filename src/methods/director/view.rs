//! The director's part of the run on screen: each of its turns (the stop draw, the reflection,
//! the choice), folded from its events.

use std::sync::Arc;

#[derive(Clone, Debug, PartialEq)]
pub struct DirectorTurn {
    pub turn: u32,
    pub sample: f64,
    pub probability: f64,
    pub stop: bool,
    pub ended_by_class: bool,
    pub reflection: Option<String>,
    pub choice: Option<DirectorPick>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirectorPick {
    /// Who directs (the agent whose call chose).
    pub director: String,
    pub raw: String,
    pub index: Option<i64>,
    pub agent: String,
    pub fallback: bool,
    pub attempts: u32,
    /// Why the last attempt came out as it did: its refusal, if refused, and its reasoning.
    pub why: String,
}

/// Opens the director's turn with its stop draw.
pub fn add_stop_draw(turns: &mut Vec<Arc<DirectorTurn>>, turn: u32, sample: f64, probability: f64, stop: bool, ended_by_class: bool) {
    turns.push(Arc::new(DirectorTurn { turn, sample, probability, stop, ended_by_class, reflection: None, choice: None }));
}

/// Sets the reflection of the director's turn `turn`, as shown.
pub fn set_reflection(turns: &mut [Arc<DirectorTurn>], turn: u32, shown: String) {
    if let Some(last) = turns.last_mut().filter(|d| d.turn == turn) {
        Arc::make_mut(last).reflection = Some(shown);
    }
}

/// Sets the choice of the director's turn `turn`.
pub fn set_choice(turns: &mut [Arc<DirectorTurn>], turn: u32, pick: DirectorPick) {
    if let Some(last) = turns.last_mut().filter(|d| d.turn == turn) {
        Arc::make_mut(last).choice = Some(pick);
    }
}
