//! Bidding (seeds 000 and 002): every agent rates how contradictory the last message is to its
//! ideas, from 1 to 10, as `<int>`; the highest bid speaks, and ties are broken by the run's RNG.
//!
//! All bids of a turn are requested at once, so a turn costs about two model latencies (the bids,
//! then the speech) rather than one per agent. A bid that cannot be read is asked again, up to
//! the attempt limit, and then counts as the default bid (seed: two attempts, then 0).
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
pub use turn::Bidding as State;
