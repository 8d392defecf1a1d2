//! Selector, as in AutoGen's SelectorGroupChat: before each turn a selector call sees every
//! agent's role and the conversation and names the next speaker from the candidates (everyone
//! but the last speaker, unless the scenario allows repeats). A single candidate speaks without
//! a call.
//!
//! A reply is read as a candidate's exact name, then the same name ignoring case, spaces,
//! underscores and surrounding punctuation, then as the only agent name it mentions. A reply
//! that names nobody, several agents, or the last speaker when repeats are off is answered (the
//! reply and the feedback join the selector's conversation, as SelectorGroupChat does) and asked
//! again, up to the attempt limit; then the fallback speaks and that is recorded.
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
pub use turn::Selector as State;
pub use settings::SELECTOR;
