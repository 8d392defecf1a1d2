//! Round robin: the agents speak in order, the plain baseline the other methods are measured
//! against.
//!
//! Its parts: `settings.rs` (the settings, their seed defaults, reading and validation),
//! `turn.rs` (one turn on the floor) and
//! its panel (the decision shown and its settings in the editor) in the app's `src/panels/`.


pub mod intab;
pub mod notebook;
pub mod seat;
pub mod settings;
pub mod turn;

pub use settings::Settings;
pub use turn::RoundRobin as State;
