//! The form a call puts to a person in a seat (free text, a number, a choice, a handoff, a
//! trading move), which each method's folder gives for its own calls (`seat.rs`) and the seat
//! (`crate::seat`) asks with. A module of its own, below both, so the methods' folders and the
//! seat do not lean on each other.

use crate::game::negotiation::Game;

/// How a method wants a call answered, and how a person's answer is written for it.
#[derive(Clone, Debug, PartialEq)]
pub enum Form {
    /// Free text; the word limit, when the call has one, is shown and counted, not enforced.
    Text { word_limit: Option<u32> },
    /// A whole number from `lo` to `hi`, written `<n>` (a bid).
    Number { lo: u32, hi: u32 },
    /// One of `options`, written as its index in `<n>` (`by_index`, the director's choice) or as
    /// the name itself (the selector's).
    Choice { options: Vec<String>, by_index: bool },
    /// A speech and the next speaker among `options`, written as the handoff mode asks.
    Handoff { agent: String, options: Vec<String>, word_limit: u32, via: HandoffReply },
    /// A trading action, checked against the game's rules before it is written as JSON.
    Trade { game: Game, seat: usize, values: Vec<i64> },
}

/// How a handoff's reply is written: the seed's text transition, a call to the named tool, or
/// a JSON reply.
#[derive(Clone, Debug, PartialEq)]
pub enum HandoffReply {
    Text,
    Tool(String),
    Json,
}
