//! The one list of speaker-selection methods, and what every method's settings answer.
//!
//! A method is a folder beside this file (`methods/<module>/`) and one line in [`each_method!`]:
//! its variant, its folder, its `kind` in scenario files and its name on screen. Every place that
//! does something per method (the scenario's `Method`, the engine's method state, the app's
//! panels and editors) expands the list here into a `match` without a catch-all, so a new line
//! makes the compiler list each part the new folder must provide:
//!
//! - `settings.rs`: `Settings`, implementing [`MethodSettings`] (its seed's defaults, reading,
//!   validation);
//! - `turn.rs`: `State`, implementing `crate::methods::SpeakerSelection` (one turn at a time);
//! - in the app, `src/panels/<module>.rs`: `panel()` for the run and `settings()` for the editor.
//!
//! This file names nothing else in the crate, so everything can read the list without a cycle.

use crate::json::{Fields, ReadPresent};

/// Calls `$then!` with every method, one `Variant module "kind" "Name on screen"` per line, in
/// the order the app offers them, the baselines first.
macro_rules! each_method {
    ($then:ident) => {
        $then! {
            RoundRobin round_robin "round_robin" "Round robin",
            Random random "random" "Random",
            Bidding bidding "bidding" "Bidding",
            Director director "director" "Director",
            Handoff handoff "handoff" "Handoff",
            Selector selector "selector" "Selector",
            Negotiation negotiation "negotiation" "Negotiation game",
        }
    };
}
pub(crate) use each_method;

/// A prompt template's field (`method.<name>`) and what the editor calls it, asked when shown so
/// it is in the page's language.
pub type TemplateName = (&'static str, fn() -> &'static str);

/// What a method's settings are and what they say about the run around the method.
pub trait MethodSettings: Default + ReadPresent {
    /// Whether the conversation opens with the scenario's injected message.
    const INJECTS_OPENING: bool = true;
    /// Whether the scenario's turn limit ends the run.
    const ENDS_AT_TURN_LIMIT: bool = true;
    /// Whether any call it makes says the scenario's topic (a game played by its rules alone
    /// does not: the topic only names its runs).
    const READS_TOPIC: bool = true;
    /// Whether its calls read the shared templates (conversation description, header, system
    /// message, history header).
    const SHARED_TEMPLATES: bool = true;
    /// Whether the class can end the run from the page ("End the show": the director's).
    const ENDS_ON_REQUEST: bool = false;
    /// Why the class cannot give the floor in this method, when it cannot.
    const FIXED_FLOOR: Option<fn() -> &'static str> = None;
    /// Whether the shared templates (conversation description, header) default to the show's
    /// wording of seed 004 rather than the debate's of seed 000.
    const SHOW_TEMPLATES: bool = false;

    /// The settings a scenario file gives, with the seed's value for every field it leaves out.
    fn read(f: &mut Fields) -> Result<Self, String> {
        let mut s = Self::default();
        s.read_present(f)?;
        Ok(s)
    }

    /// The prompt texts its calls send, as (field, name on screen), for the editor's templates;
    /// each field is a string setting (`method.<name>`), whose default is the seed's text.
    const TEMPLATES: &'static [TemplateName] = &[];

    /// Whether these settings send the template at `field` (one of [`Self::TEMPLATES`]).
    fn sends(&self, _field: &str) -> bool {
        true
    }

    /// Reports each wrong field (`method.<field>`, or `agents`) with what is wrong, given the
    /// scenario's agent names. (Nothing, for settings that cannot be wrong.)
    fn validate(&self, _agents: &[String], _err: &mut dyn FnMut(&str, String)) {}

    /// How many scored games a run plays (a batch gives each game's score a column); none for a
    /// conversation.
    fn games(&self) -> u32 {
        0
    }
}
