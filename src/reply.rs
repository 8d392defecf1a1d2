//! The form a call's reply must take on the model inside the tab (a bid's `<n>`, one name of a
//! list, the seed's text handoff, a tool's or schema's object, a trading action, the
//! optimizer's prompts, or free text), which each method's folder gives for its own calls
//! (`intab.rs`), and the in-tab model (`crate::intab`) turns into the grammar that holds the
//! reply to it. A module of its own, below both, so the methods' folders and the in-tab model do
//! not lean on each other.

use serde_json::Value;

/// The scale a bid is asked on (the seed's prompt: "On the scale of 1 to 10").
pub const BID_RANGE: (u32, u32) = (1, 10);

/// What a call's reply must look like, read off the request by the page (small: no grammar
/// text), and sent with the call to the engine's module with the [`crate::intab::Shape`] the
/// page's `intab` chunk builds from it, and to the built-in model, which holds its reply to it.
/// The split keeps the grammar builder off the first page.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Reply {
    /// Free text: a speech within a budget from its word limit (256 tokens without one).
    Text { word_limit: Option<u32>, streams: bool },
    /// `<n>`, n from `lo` to `hi`: a bid, or the director's index.
    Number { lo: u32, hi: u32 },
    /// Exactly one of `options`: the selector's choice.
    Name { options: Vec<String> },
    /// The seed's text handoff: `agent`'s name, a sentence or two, then the transition to one
    /// of `options`.
    Handoff { agent: String, options: Vec<String>, word_limit: u32 },
    /// A flat JSON object following `schema`: a handoff by JSON, or by the tool `tool`.
    Object { schema: Value, tool: Option<String>, word_limit: u32 },
    /// A trading action over the game's resources.
    Action { resources: Vec<String> },
    /// The optimizer's object: a prompt for each player.
    Prompts { players: Vec<String> },
    /// JSON following `schema`, nested: the judge's verdict, or its comparison of two runs.
    Schema { schema: Value },
}
