//! The random baseline in a notebook: its rule in words and its settings as Python constants
//! (its code is `notebook.py` beside this file).

use crate::python::Constants;
use crate::scenario::Scenario;

pub const RULE: &str = "The baseline the other methods are measured against: each turn's speaker is drawn at random, never the last speaker unless repeats are allowed. The draws are Python's, so they differ from the run's in Agora.";

pub fn constants(_scenario: &Scenario, settings: &super::Settings, c: &mut Constants) {
    c.boolean("ALLOW_REPEATS", settings.allow_repeats);
}
