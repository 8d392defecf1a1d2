//! Handoff's part of the run on screen: each handoff, and how often each agent handed to each
//! other, folded from its `handoff` events.

use std::collections::BTreeMap;
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandoffRow {
    pub turn: u32,
    pub from: String,
    pub to: String,
    pub method: String,
    pub raw: String,
    pub fallback: bool,
    pub reason: Option<String>,
    /// The speaker's refusal or reasoning before it handed over, if any.
    pub why: String,
}

/// Adds a handoff and counts it for the graph of who handed to whom.
pub fn add_handoff(rows: &mut Vec<Arc<HandoffRow>>, counts: &mut BTreeMap<(String, String), u32>, row: HandoffRow) {
    *counts.entry((row.from.clone(), row.to.clone())).or_default() += 1;
    rows.push(Arc::new(row));
}
