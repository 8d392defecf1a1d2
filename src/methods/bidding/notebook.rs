//! Bidding in a notebook: its rule in words and its settings as Python constants (its code is
//! `notebook.py` beside this file).

use crate::python::Constants;
use crate::scenario::Scenario;

pub const RULE: &str = "As in the multi-agent bidding notebooks: before every turn each agent rates, from 1 to 10, how much the last message contradicts its ideas, written as `<int>`. A reply that cannot be read is asked again (`BID_ATTEMPTS` in all) and then counts as `DEFAULT_BID`. The highest bid speaks; a tie is drawn at random.";

pub fn constants(_scenario: &Scenario, s: &super::Settings, c: &mut Constants) {
    c.text("BID_TEMPLATE", &s.template);
    c.text("BID_FORMAT_INSTRUCTIONS", &s.format_instructions);
    c.pattern("BID_PATTERN", &s.pattern);
    c.int("BID_ATTEMPTS", s.attempts);
    c.int("DEFAULT_BID", s.default_bid);
    c.boolean("WHOLE_REPLY_FALLBACK", s.whole_reply_fallback);
}
