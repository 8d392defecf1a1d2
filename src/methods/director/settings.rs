//! The director method's settings (seed 004).

use serde::{Deserialize, Serialize};

use crate::json::settings;
use crate::methods::registry::MethodSettings;
use crate::parse::check_pattern;
use crate::prompts;

/// The method's settings, under the name the scenario's list of methods gives every method's
/// (`crate::scenario::Method`).
pub type Settings = DirectorSettings;

/// What the director's choice falls back to when no valid index comes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChoiceFallback {
    /// Seed 004: index 0.
    #[default]
    First,
    /// A speaker drawn by the run's RNG.
    Random,
}

settings! {
    /// Seed 004.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct DirectorSettings {
        /// The director's name; empty means the first agent.
        pub director: String = set_string,
        pub stop_probability: f64 = set_f64,
        pub attempts: u32 = set_u32,
        pub fallback: ChoiceFallback = set_any,
        pub reflection: String = set_string,
        pub continuation: String = set_string,
        pub choice: String = set_string,
        pub prompt: String = set_string,
        pub summary: String = set_string,
        pub format_instructions: String = set_string,
        pub pattern: String = set_string,
    }
}

impl Default for DirectorSettings {
    fn default() -> Self {
        Self {
            director: String::new(),
            stop_probability: 0.2,
            attempts: 2,
            fallback: ChoiceFallback::First,
            reflection: prompts::DIRECTOR_REFLECTION.into(),
            continuation: prompts::DIRECTOR_CONTINUATION.into(),
            choice: prompts::DIRECTOR_CHOICE.into(),
            prompt: prompts::DIRECTOR_PROMPT.into(),
            summary: prompts::DIRECTOR_SUMMARY.into(),
            format_instructions: prompts::INT_FORMAT_INSTRUCTIONS.into(),
            pattern: prompts::BID_PATTERN.into(),
        }
    }
}

impl MethodSettings for DirectorSettings {
    /// Seed 004 is a show with a host, not a debate.
    const SHOW_TEMPLATES: bool = true;
    /// The class may end the show at the director's next turn.
    const ENDS_ON_REQUEST: bool = true;

    const TEMPLATES: &'static [crate::methods::registry::TemplateName] = &[
            ("method.reflection", || crate::i18n::t(crate::i18n::say::TlReflection)),
            ("method.continuation", || crate::i18n::t(crate::i18n::say::TlContinuation)),
            ("method.choice", || crate::i18n::t(crate::i18n::say::TlChoice)),
            ("method.prompt", || crate::i18n::t(crate::i18n::say::TlDirectorPrompt)),
            ("method.summary", || crate::i18n::t(crate::i18n::say::TlSummary)),
            ("method.format_instructions", || crate::i18n::t(crate::i18n::say::TlChoiceFormat)),
    ];

    fn validate(&self, agents: &[String], err: &mut dyn FnMut(&str, String)) {
        use crate::i18n::{say, t, tf};
        if !(0.0..=1.0).contains(&self.stop_probability) || self.stop_probability.is_nan() {
            err("method.stop_probability", tf(say::VBetween, &[("min", &0), ("max", &1)]));
        }
        if self.attempts == 0 {
            err("method.attempts", t(say::VAtLeastOne).into());
        }
        if !self.director.is_empty() && !agents.contains(&self.director) {
            err("method.director", tf(say::VNotAgent, &[("name", &self.director)]));
        }
        check_pattern(&self.pattern, "method.pattern", err);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Method;

    #[test]
    fn every_field_reads_back() {
        crate::scenario::assert_reads_back(Method::Director(DirectorSettings {
            director: "N".into(),
            stop_probability: 0.75,
            attempts: 4,
            fallback: ChoiceFallback::Random,
            reflection: "a".into(),
            continuation: "b".into(),
            choice: "c".into(),
            prompt: "d".into(),
            summary: "e".into(),
            format_instructions: "f".into(),
            pattern: "(g)".into(),
        }));
    }
}
