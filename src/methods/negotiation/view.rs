//! The trading game's part of the run on screen: the game as it stands (inventories, values, the
//! pending proposal), every action, each game's result and the optimizer's passes, folded from
//! its events.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::events::Proposal;
use crate::game::negotiation::Action;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionRow {
    pub turn: u32,
    pub iteration: u32,
    pub player: String,
    pub raw: String,
    pub action: Option<Action>,
    pub valid: bool,
    pub reason: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    pub iteration: u32,
    pub scores: BTreeMap<String, i64>,
    pub overall: i64,
    pub optimum: i64,
    pub reason: String,
    pub feedback: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptimizerRow {
    pub iteration: u32,
    pub prompts: BTreeMap<String, String>,
    pub overall: i64,
    pub next_prompts: Option<BTreeMap<String, String>>,
    pub note: Option<String>,
}

/// The trading game as it stands.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NegotiationView {
    pub iteration: u32,
    pub optimum: i64,
    pub resources: Vec<String>,
    pub inventories: BTreeMap<String, Vec<i64>>,
    pub values: BTreeMap<String, i64>,
    pub prompts: BTreeMap<String, String>,
    pub pending: Option<Proposal>,
    pub end_requested_by: Option<String>,
    pub actions: Vec<Arc<ActionRow>>,
    pub games: Vec<GameResult>,
    pub optimizer: Vec<OptimizerRow>,
}

impl NegotiationView {
    pub fn overall(&self) -> i64 {
        self.values.values().sum()
    }

    /// A game begins: its iteration, the best score trading can reach, the players' prompts.
    pub fn start_game(&mut self, iteration: u32, optimum: i64, prompts: &BTreeMap<String, String>) {
        self.iteration = iteration;
        self.optimum = optimum;
        self.prompts = prompts.clone();
        self.pending = None;
        self.end_requested_by = None;
    }

    /// A player's move, and the proposal or request to end it leaves waiting.
    pub fn add_action(&mut self, row: ActionRow, pending: &Option<Proposal>, end_requested_by: &Option<String>) {
        self.pending = pending.clone();
        self.end_requested_by = end_requested_by.clone();
        self.actions.push(Arc::new(row));
    }

    /// The inventories and their values after a trade (or at a game's start).
    pub fn set_inventories(
        &mut self,
        resources: &[String],
        inventories: &BTreeMap<String, Vec<i64>>,
        values: &BTreeMap<String, i64>,
    ) {
        self.resources = resources.to_vec();
        self.inventories = inventories.clone();
        self.values = values.clone();
    }

    /// A game's end: nothing waits any more.
    pub fn end_game(&mut self, result: GameResult) {
        self.pending = None;
        self.end_requested_by = None;
        self.games.push(result);
    }
}
