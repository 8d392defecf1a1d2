//! The director in a notebook: its rule in words and its settings as Python constants (its code
//! is `notebook.py` beside this file).

use crate::python::Constants;
use crate::scenario::{ChoiceFallback, Scenario};

pub const RULE: &str = "As in the director notebook of a talk show: the host directs. On each of its turns it first draws whether the show ends (`STOP_PROBABILITY`); if so it closes with a summary. Otherwise it makes three calls: a comment on what was said, the index of the next speaker (`<n>`, asked `ATTEMPTS` times, then `FALLBACK`), and a question for that speaker. The chosen speaker answers in the next turn, then the director again.";

pub fn constants(_scenario: &Scenario, s: &super::Settings, c: &mut Constants) {
    c.text("DIRECTOR", &s.director);
    c.float("STOP_PROBABILITY", s.stop_probability);
    c.int("ATTEMPTS", s.attempts);
    c.text("FALLBACK", match s.fallback {
        ChoiceFallback::First => "first",
        ChoiceFallback::Random => "random",
    });
    c.text("REFLECTION", &s.reflection);
    c.text("CONTINUATION", &s.continuation);
    c.text("CHOICE", &s.choice);
    c.text("PROMPT", &s.prompt);
    c.text("SUMMARY", &s.summary);
    c.text("FORMAT_INSTRUCTIONS", &s.format_instructions);
    c.pattern("PATTERN", &s.pattern);
}
