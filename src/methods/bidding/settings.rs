//! The bidding method's settings (seeds 000 and 002).

use serde::Serialize;

use crate::json::settings;
use crate::methods::registry::MethodSettings;
use crate::parse::check_pattern;
use crate::prompts;

/// The method's settings, under the name the scenario's list of methods gives every method's
/// (`crate::scenario::Method`).
pub type Settings = BiddingSettings;

settings! {
    /// Seeds 000 and 002.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct BiddingSettings {
        pub template: String = set_string,
        pub format_instructions: String = set_string,
        /// The first capture group is the bid.
        pub pattern: String = set_string,
        /// Seed: two attempts, then the default bid.
        pub attempts: u32 = set_u32,
        pub default_bid: i64 = set_i64,
        /// The seed's parser reads the whole reply as a number when the pattern does not match
        /// (so a bare `8` counts). Turn off to require the `<int>` format strictly.
        pub whole_reply_fallback: bool = set_bool,
    }
}

impl Default for BiddingSettings {
    fn default() -> Self {
        Self {
            template: prompts::BID_TEMPLATE.into(),
            format_instructions: prompts::INT_FORMAT_INSTRUCTIONS.into(),
            pattern: prompts::BID_PATTERN.into(),
            attempts: 2,
            default_bid: 0,
            whole_reply_fallback: true,
        }
    }
}

impl MethodSettings for BiddingSettings {
    const TEMPLATES: &'static [crate::methods::registry::TemplateName] = &[
            ("method.template", || crate::i18n::t(crate::i18n::say::TlBidPrompt)),
            ("method.format_instructions", || crate::i18n::t(crate::i18n::say::TlBidFormat)),
    ];

    fn validate(&self, _agents: &[String], err: &mut dyn FnMut(&str, String)) {
        use crate::i18n::{say, t};
        if self.attempts == 0 {
            err("method.attempts", t(say::VAtLeastOne).into());
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
        crate::scenario::assert_reads_back(Method::Bidding(BiddingSettings {
            template: "t".into(),
            format_instructions: "f".into(),
            pattern: "(x)".into(),
            attempts: 5,
            default_bid: -3,
            whole_reply_fallback: false,
        }));
    }
}
