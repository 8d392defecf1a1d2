//! Director (seed 004): a privileged agent runs the show. On its turns it draws whether to stop
//! (Bernoulli, probability 0.2 by default); if not, it comments, chooses the next speaker by index
//! (`<n>`), and prompts them; if so, it closes with a summary and the run ends. Director and
//! chosen speaker alternate.
//!
//! An index that cannot be read or is out of range is asked again up to the attempt limit, then
//! falls back (seed: index 0), and the fallback is recorded.
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
pub use turn::Director as State;
