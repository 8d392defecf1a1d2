//! Round robin in a notebook: its rule in words and its settings as Python constants (its code
//! is `notebook.py` beside this file).

use crate::python::Constants;
use crate::scenario::Scenario;

pub const RULE: &str = "The plain baseline: the agents speak in the cast's order, one turn each, and again from the first.";

pub fn constants(_scenario: &Scenario, _settings: &super::Settings, _c: &mut Constants) {}
