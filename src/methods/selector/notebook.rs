//! The selector in a notebook: its rule in words and its settings as Python constants (its code
//! is `notebook.py` beside this file).

use crate::python::Constants;
use crate::scenario::{PromptRole, Scenario, SelectorFallback};

pub const RULE: &str = "AutoGen's `SelectorGroupChat`: a model reads the roles and the conversation and names the next speaker. An answer that names nobody, several agents, or the last speaker when repeats are off gets AutoGen's feedback and another try (`ATTEMPTS` in all); then `FALLBACK` decides.";

pub fn constants(_scenario: &Scenario, s: &super::Settings, c: &mut Constants) {
    c.text("SELECTOR_PROMPT", &s.prompt);
    c.text("PROMPT_ROLE", match s.prompt_role {
        PromptRole::System => "system",
        PromptRole::User => "user",
    });
    c.boolean("ALLOW_REPEATS", s.allow_repeats);
    c.int("ATTEMPTS", s.attempts.max(1));
    c.text("FALLBACK", match s.fallback {
        SelectorFallback::PreviousSpeaker => "previous_speaker",
        SelectorFallback::FirstCandidate => "first_candidate",
        SelectorFallback::RandomCandidate => "random_candidate",
    });
    c.text("NO_NAME_FEEDBACK", &s.no_name_feedback);
    c.text("MANY_NAMES_FEEDBACK", &s.many_names_feedback);
    c.text("REPEATED_FEEDBACK", &s.repeated_feedback);
    c.opt_float("SELECTOR_TEMPERATURE", s.temperature);
    c.opt_int("SELECTOR_MAX_TOKENS", s.max_tokens);
}
