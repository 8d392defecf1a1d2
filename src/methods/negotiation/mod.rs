//! The trading game and its prompt optimizer (seed 001), played one action per turn.
//!
//! Players alternate, starting with the first; each turn the player sees the rules, its name,
//! its strategy prompt, its own inventory and the transcript so far, and answers with a JSON
//! action. The rules live in `game::negotiation`; this module asks, records and scores. With
//! more than one iteration, an optimizer call between games rewrites the strategy prompts from
//! the score, as the seed's outer loop does.
//!
//! Its parts: `settings.rs` (the settings, their seed defaults, reading and validation),
//! `turn.rs` (one turn on the floor), `demo.rs` (how the offline demo model answers it) and
//! its panel (the decision shown and its settings in the editor) in the app's `src/panels/`.

pub(crate) mod demo;

pub mod intab;
pub mod notebook;
pub mod seat;
pub mod settings;
pub mod turn;
pub mod view;
pub mod words;

pub use settings::Settings;
pub use turn::describe_inventory;
pub use turn::Negotiation as State;
