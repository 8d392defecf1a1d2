//! Round robin has nothing to set: the agents speak in the scenario's order.

use serde::Serialize;

use crate::json::settings;
use crate::methods::registry::MethodSettings;

/// The method's settings, under the name the scenario's list of methods gives every method's
/// (`crate::scenario::Method`).
pub type Settings = RoundRobinSettings;

settings! {
    /// No settings; written as `{"kind": "round_robin"}`.
    #[derive(Clone, Debug, Default, PartialEq, Serialize)]
    pub struct RoundRobinSettings {}
}

impl MethodSettings for RoundRobinSettings {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Method;

    #[test]
    fn reads_back_with_nothing_but_its_kind() {
        crate::scenario::assert_reads_back(Method::RoundRobin(RoundRobinSettings {}));
        let json = serde_json::to_string(&Method::RoundRobin(RoundRobinSettings {})).unwrap();
        assert_eq!(json, r#"{"kind":"round_robin"}"#);
    }
}
