//! Random (AutoGen's `speaker_selection_method="random"`): each turn the run's seeded RNG draws
//! the next speaker uniformly from every agent but the one who spoke last. No model is asked, so
//! it is a baseline: what the floor looks like when nobody decides.
//!
//! Its parts: `settings.rs` (whether the last speaker may be drawn again), `turn.rs` (the draw,
//! recorded as a `speaker_selected` event with every candidate in `tied`) and its panel in the app's `src/panels/random.rs` (the
//! draws, and the setting in the editor).

pub mod intab;
pub mod notebook;
pub mod seat;
pub mod settings;
pub mod turn;


pub use settings::Settings;
pub use turn::Random as State;
