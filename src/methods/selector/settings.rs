//! The selector method's settings (AutoGen's SelectorGroupChat).

use serde::{Deserialize, Serialize};

use crate::json::settings;
use crate::methods::registry::MethodSettings;
use crate::prompts;

/// The method's settings, under the name the scenario's list of methods gives every method's
/// (`crate::scenario::Method`).
pub type Settings = SelectorSettings;

/// The name the selector's calls are recorded under, and its seat's.
pub const SELECTOR: &str = "Selector";

/// Where the selector's prompt goes: AutoGen sends it as the system message to OpenAI's GPT
/// and o-series models and as a user message to every other model family.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PromptRole {
    #[default]
    System,
    User,
}

/// Who speaks when the selector names no valid candidate after its attempts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SelectorFallback {
    /// SelectorGroupChat: the previous speaker (the first candidate on the first turn).
    #[default]
    PreviousSpeaker,
    /// The first candidate in scenario order.
    FirstCandidate,
    /// A candidate drawn by the run's RNG.
    RandomCandidate,
}

settings! {
    /// AutoGen's SelectorGroupChat: a selector model names the next speaker each turn.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct SelectorSettings {
        /// With `{roles}`, `{participants}` and `{history}`.
        pub prompt: String = set_string,
        pub prompt_role: PromptRole = set_any,
        /// SelectorGroupChat: false, so the last speaker is not a candidate.
        pub allow_repeats: bool = set_bool,
        /// SelectorGroupChat: 3 (`max_selector_attempts`).
        pub attempts: u32 = set_u32,
        pub fallback: SelectorFallback = set_any,
        /// Sent after an answer that names no agent, one that names several, one that names the
        /// last speaker; each with `{participants}`.
        pub no_name_feedback: String = set_string,
        pub many_names_feedback: String = set_string,
        pub repeated_feedback: String = set_string,
        /// SelectorGroupChat sends none (the provider's defaults); written as `null` then.
        pub temperature: Option<f64> = set_any,
        pub max_tokens: Option<u32> = set_any,
    }
}

impl Default for SelectorSettings {
    fn default() -> Self {
        Self {
            prompt: prompts::SELECTOR_PROMPT.into(),
            prompt_role: PromptRole::System,
            allow_repeats: false,
            attempts: 3,
            fallback: SelectorFallback::PreviousSpeaker,
            no_name_feedback: prompts::SELECTOR_NO_NAME.into(),
            many_names_feedback: prompts::SELECTOR_MANY_NAMES.into(),
            repeated_feedback: prompts::SELECTOR_REPEATED.into(),
            temperature: None,
            max_tokens: None,
        }
    }
}

impl MethodSettings for SelectorSettings {
    const TEMPLATES: &'static [crate::methods::registry::TemplateName] = &[
            ("method.prompt", || crate::i18n::t(crate::i18n::say::TlSelectorPrompt)),
            ("method.no_name_feedback", || crate::i18n::t(crate::i18n::say::TlNoNameFeedback)),
            ("method.many_names_feedback", || crate::i18n::t(crate::i18n::say::TlManyNamesFeedback)),
            ("method.repeated_feedback", || crate::i18n::t(crate::i18n::say::TlRepeatedFeedback)),
    ];

    fn validate(&self, agents: &[String], err: &mut dyn FnMut(&str, String)) {
        use crate::i18n::{say, t, tf};
        if self.attempts == 0 {
            err("method.attempts", t(say::VAtLeastOne).into());
        }
        if agents.len() < 2 {
            err("agents", t(say::VSelectorTwo).into());
        }
        if self.temperature.is_some_and(|t| !(0.0..=2.0).contains(&t)) {
            err("method.temperature", tf(say::VBetween, &[("min", &0), ("max", &2)]));
        }
        if self.max_tokens == Some(0) {
            err("method.max_tokens", t(say::VMaxTokens).into());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Method;

    #[test]
    fn every_field_reads_back() {
        crate::scenario::assert_reads_back(Method::Selector(SelectorSettings {
            prompt: "p {participants}".into(),
            prompt_role: PromptRole::User,
            allow_repeats: true,
            attempts: 5,
            fallback: SelectorFallback::RandomCandidate,
            no_name_feedback: "a".into(),
            many_names_feedback: "b".into(),
            repeated_feedback: "c".into(),
            temperature: Some(0.3),
            max_tokens: Some(12),
        }));
    }
}
