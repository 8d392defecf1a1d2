//! What the methods' decision panels read of a run's view: each method's rows (kept in its
//! folder's `view.rs`) and who was given the floor each turn. The run's view
//! ([`crate::view::RunView`]) implements [`Shown`], and the panels read it through the trait, so
//! a method's folder does not lean on the view that folds every method's events.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::bidding::view::BidTurn;
use super::director::view::DirectorTurn;
use super::handoff::view::HandoffRow;
use super::negotiation::view::NegotiationView;
use super::selector::view::SelectorRow;

/// Who was given the floor in a turn, as its `speaker_selected` event says: when the run's RNG
/// chose (a tie, or a random draw), `tied` lists whom it chose among.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pick {
    pub turn: u32,
    pub agent: String,
    pub tie: bool,
    pub tied: Vec<String>,
}

/// A run's decisions as the panels draw them.
pub trait Shown: Send + Sync + 'static {
    /// The cast's names, in the scenario's order.
    fn agents(&self) -> Vec<String>;
    /// Every turn's speaker, whichever method chose them.
    fn picks(&self) -> &[Arc<Pick>];
    fn bid_turns(&self) -> &[Arc<BidTurn>];
    fn director(&self) -> &[Arc<DirectorTurn>];
    fn handoffs(&self) -> &[Arc<HandoffRow>];
    /// (from, to) to how many times.
    fn handoff_counts(&self) -> &BTreeMap<(String, String), u32>;
    fn selections(&self) -> &[Arc<SelectorRow>];
    fn negotiation(&self) -> Option<&NegotiationView>;
    /// The run has ended (a turn without its speaker then never gets one).
    fn finished(&self) -> bool;

    /// Bids per agent across the last `turns` turns, for the small history chart: for each agent,
    /// its bid in each of those turns, oldest first.
    fn bid_history(&self, turns: usize) -> Vec<(String, Vec<i64>)> {
        super::bidding::view::bid_history(self.bid_turns(), self.agents(), turns)
    }
}
