//! The director method's settings (seed 004).

use serde::{Deserialize, Serialize};

use super::{check_pattern, Scenario};
use crate::json::{set_present, Fields};
use crate::prompts;

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

/// Seed 004.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DirectorSettings {
    /// The director's name; empty means the first agent.
    pub director: String,
    pub stop_probability: f64,
    pub attempts: u32,
    pub fallback: ChoiceFallback,
    pub reflection: String,
    pub continuation: String,
    pub choice: String,
    pub prompt: String,
    pub summary: String,
    pub format_instructions: String,
    pub pattern: String,
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

impl DirectorSettings {
    pub(super) fn validate(&self, scenario: &Scenario, err: &mut impl FnMut(&str, String)) {
        let s = self;
        if !(0.0..=1.0).contains(&s.stop_probability) || s.stop_probability.is_nan() {
            err("method.stop_probability", "must be between 0 and 1".into());
        }
        if s.attempts == 0 {
            err("method.attempts", "must be at least 1".into());
        }
        if !s.director.is_empty() && scenario.agent_index(&s.director).is_none() {
            err("method.director", format!("\"{}\" is not one of the agents", s.director));
        }
        check_pattern(&s.pattern, "method.pattern", err);
    }

    pub(super) fn read(f: &mut Fields) -> Result<Self, String> {
        let mut s = Self::default();
        set_present!(f, s,
            director: set_string,
            stop_probability: set_f64,
            attempts: set_u32,
            fallback: set_any,
            reflection: set_string,
            continuation: set_string,
            choice: set_string,
            prompt: set_string,
            summary: set_string,
            format_instructions: set_string,
            pattern: set_string,
        );
        Ok(s)
    }
}
