//! Handoff in a notebook: its rule in words and its settings as Python constants (its code is
//! `notebook.py` beside this file).

use crate::python::Constants;
use crate::scenario::Scenario;

pub const RULE: &str = "As in the state-pattern debate notebook: whoever speaks names the next speaker, read one of three ways (`VIA`): \"Transition to X\" in the text, a `handoff(response, next_agent_name)` tool call, or a JSON object with those two fields. Each speaker reads its own instructions and every speech so far. A reply without a readable handoff (after `ATTEMPTS` tries) hands the floor to another agent drawn at random.";

pub fn constants(_scenario: &Scenario, s: &super::Settings, c: &mut Constants) {
    c.text("VIA", s.via.as_str());
    c.text("FIRST_SPEAKER", &s.first_speaker);
    c.int("ATTEMPTS", s.attempts);
    c.text("TEXT_INSTRUCTIONS", &s.text_instructions);
    c.text("TOOL_INSTRUCTIONS", &s.tool_instructions);
    c.pattern("PATTERN", &s.pattern);
    c.text("TOOL_DESCRIPTION", &s.tool_description);
    c.text("RESPONSE_DESCRIPTION", &s.response_description);
    c.text("NEXT_DESCRIPTION", &s.next_description);
    c.int("MAX_TOKENS", s.max_tokens);
    c.opt_float("HANDOFF_TEMPERATURE", s.temperature);
}
