//! The selector's part of the run on screen: each turn's choice, folded from its
//! `selector_choice` events.

use crate::events::SelectorMatch;

/// One turn of the selector method: who could be named, who was, and how the reply was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelectorRow {
    pub turn: u32,
    pub candidates: Vec<String>,
    pub raw: String,
    pub agent: String,
    pub matched: SelectorMatch,
    pub attempts: u32,
    /// The selector's refusal or reasoning behind the last attempt, if any.
    pub why: String,
}
