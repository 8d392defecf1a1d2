//! The handoff method's settings (seed 003).

use serde::{Deserialize, Serialize};

use crate::json::settings;
use crate::methods::registry::MethodSettings;
use crate::parse::check_pattern;
use crate::prompts;

/// The method's settings, under the name the scenario's list of methods gives every method's
/// (`crate::scenario::Method`).
pub type Settings = HandoffSettings;

/// Seed 003's three ways of reading a handoff.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HandoffVia {
    /// "Transition to X" in the text, read by a pattern.
    #[default]
    Text,
    /// A `handoff(response, next_agent_name)` tool call.
    Tool,
    /// A JSON reply `{"response": ..., "next_agent_name": ...}`.
    Json,
}

impl HandoffVia {
    pub fn as_str(self) -> &'static str {
        match self {
            HandoffVia::Text => "text",
            HandoffVia::Tool => "tool",
            HandoffVia::Json => "json",
        }
    }
}

settings! {
    /// Seed 003.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct HandoffSettings {
        pub via: HandoffVia = set_any,
        /// Who speaks first; empty means the first agent (seed: the proponent).
        pub first_speaker: String = set_string,
        /// Seed: one attempt, then a random other agent.
        pub attempts: u32 = set_u32,
        pub text_instructions: String = set_string,
        pub tool_instructions: String = set_string,
        pub pattern: String = set_string,
        pub tool_description: String = set_string,
        pub response_description: String = set_string,
        pub next_description: String = set_string,
        /// Seed 003: 500.
        pub max_tokens: u32 = set_u32,
        /// Seed 003 sends none (the provider's default); written as `null` then.
        pub temperature: Option<f64> = set_any,
    }
}

impl Default for HandoffSettings {
    fn default() -> Self {
        Self {
            via: HandoffVia::Text,
            first_speaker: String::new(),
            attempts: 1,
            text_instructions: prompts::HANDOFF_TEXT_INSTRUCTIONS.into(),
            tool_instructions: prompts::HANDOFF_TOOL_INSTRUCTIONS.into(),
            pattern: prompts::HANDOFF_PATTERN.into(),
            tool_description: prompts::HANDOFF_TOOL_DESCRIPTION.into(),
            response_description: prompts::HANDOFF_RESPONSE_DESCRIPTION.into(),
            next_description: prompts::HANDOFF_NEXT_DESCRIPTION.into(),
            max_tokens: 500,
            temperature: None,
        }
    }
}

impl MethodSettings for HandoffSettings {
    /// Seed 003 opens with its first speaker, not an injected message.
    const INJECTS_OPENING: bool = false;
    /// Each speaker reads the method's own instructions and the conversation so far.
    const SHARED_TEMPLATES: bool = false;

    const TEMPLATES: &'static [crate::methods::registry::TemplateName] = &[
            ("method.text_instructions", || crate::i18n::t(crate::i18n::say::TlTextInstructions)),
            ("method.tool_instructions", || crate::i18n::t(crate::i18n::say::TlToolInstructions)),
            ("method.tool_description", || crate::i18n::t(crate::i18n::say::TlToolDescription)),
            ("method.response_description", || crate::i18n::t(crate::i18n::say::TlResponseDescription)),
            ("method.next_description", || crate::i18n::t(crate::i18n::say::TlNextDescription)),
    ];

    /// Each mode sends its own instructions; the field descriptions go with the tool and JSON
    /// schemas.
    fn sends(&self, field: &str) -> bool {
        match (self.via, field) {
            (HandoffVia::Tool, "method.text_instructions") => false,
            (_, "method.tool_instructions" | "method.tool_description") => self.via == HandoffVia::Tool,
            (HandoffVia::Text, "method.response_description" | "method.next_description") => false,
            _ => true,
        }
    }

    fn validate(&self, agents: &[String], err: &mut dyn FnMut(&str, String)) {
        use crate::i18n::{say, t, tf};
        if self.attempts == 0 {
            err("method.attempts", t(say::VAtLeastOne).into());
        }
        if !self.first_speaker.is_empty() && !agents.contains(&self.first_speaker) {
            err("method.first_speaker", tf(say::VNotAgent, &[("name", &self.first_speaker)]));
        }
        check_pattern(&prompts::fill(&self.pattern, &[("names", "a|b")]), "method.pattern", err);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Method;

    #[test]
    fn every_field_reads_back() {
        crate::scenario::assert_reads_back(Method::Handoff(HandoffSettings {
            via: HandoffVia::Json,
            first_speaker: "N".into(),
            attempts: 3,
            text_instructions: "a".into(),
            tool_instructions: "b".into(),
            pattern: "(c)".into(),
            tool_description: "d".into(),
            response_description: "e".into(),
            next_description: "f".into(),
            max_tokens: 9,
            temperature: Some(0.7),
        }));
    }
}
