//! Handoff (seed 003): the speaker names the next speaker. Three ways to read the name: "Transition
//! to X" in the text, a `handoff(response, next_agent_name)` tool call whose schema lists the
//! agents, or a JSON reply. A missing, unknown or self handoff falls back to a random other
//! agent (drawn by the run's RNG), and the fallback is recorded with its reason.
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
pub use turn::Handoff as State;
