//! The random method's settings.

use serde::Serialize;

use crate::json::settings;
use crate::methods::registry::MethodSettings;

/// The method's settings, under the name the scenario's list of methods gives every method's
/// (`crate::scenario::Method`).
pub type Settings = RandomSettings;

settings! {
    /// AutoGen's random selection draws among the agents its group chat allows.
    #[derive(Clone, Debug, Default, PartialEq, Serialize)]
    pub struct RandomSettings {
        /// Whether the last speaker may be drawn again (AutoGen's `allow_repeat_speaker`).
        /// Off by default: the next speaker is someone other than the last.
        pub allow_repeats: bool = set_bool,
    }
}

// Nothing can be wrong: a scenario always has two agents to draw from.
impl MethodSettings for RandomSettings {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Method;

    #[test]
    fn every_field_reads_back() {
        crate::scenario::assert_reads_back(Method::Random(RandomSettings { allow_repeats: true }));
    }
}
