//! The trading game's settings (seed 001).

use serde::Serialize;

use crate::json::settings;
use crate::methods::registry::MethodSettings;
use crate::prompts;

/// The method's settings, under the name the scenario's list of methods gives every method's
/// (`crate::scenario::Method`).
pub type Settings = NegotiationSettings;

/// The trading game's size: the search for its optimum grows with the square of the item count,
/// and at these limits it stays within milliseconds in the browser.
pub const MAX_RESOURCES: usize = 10;
pub const MAX_QUANTITY: i64 = 100;

settings! {
    /// Seed 001.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct NegotiationSettings {
        pub resources: Vec<String> = set_any,
        /// One inventory per player, quantities in `resources` order.
        pub inventories: Vec<Vec<i64>> = set_any,
        /// Value of holding q of a resource is `value_scale[min(q, len) - 1]`, 0 for none.
        pub value_scale: Vec<i64> = set_any,
        /// Games played in a row; the optimizer rewrites the prompts between them (seed: 5).
        pub iterations: u32 = set_u32,
        pub rules: String = set_string,
        pub name_message: String = set_string,
        pub inventory_message: String = set_string,
        pub transcript_message: String = set_string,
        pub feedback: String = set_string,
        pub feedback_below_optimum: String = set_string,
        pub optimizer_system: String = set_string,
        pub optimizer_prompt: String = set_string,
        /// Seed: temperature 0, 200 tokens, JSON replies.
        pub temperature: f64 = set_f64,
        pub max_tokens: u32 = set_u32,
    }
}

impl Default for NegotiationSettings {
    fn default() -> Self {
        Self {
            resources: vec!["WOOD".into(), "STONE".into(), "GOLD".into()],
            inventories: vec![vec![4, 3, 2], vec![1, 5, 2]],
            value_scale: vec![1, 2, 4, 7, 12, 20, 33, 54, 88, 143, 250],
            iterations: 5,
            rules: prompts::NEGOTIATION_RULES.into(),
            name_message: prompts::NEGOTIATION_NAME.into(),
            inventory_message: prompts::NEGOTIATION_INVENTORY.into(),
            transcript_message: prompts::NEGOTIATION_TRANSCRIPT.into(),
            feedback: prompts::NEGOTIATION_FEEDBACK.into(),
            feedback_below_optimum: prompts::NEGOTIATION_FEEDBACK_BELOW.into(),
            optimizer_system: prompts::OPTIMIZER_SYSTEM.into(),
            optimizer_prompt: prompts::OPTIMIZER_PROMPT.into(),
            temperature: 0.0,
            max_tokens: 200,
        }
    }
}

impl MethodSettings for NegotiationSettings {
    /// The trading game opens with its first player.
    const INJECTS_OPENING: bool = false;
    const READS_TOPIC: bool = false;
    /// Each game applies the turn limit itself.
    const ENDS_AT_TURN_LIMIT: bool = false;
    /// The players read the game's own messages.
    const SHARED_TEMPLATES: bool = false;
    const FIXED_FLOOR: Option<fn() -> &'static str> =
        Some(|| crate::i18n::t(crate::i18n::say::FloorFixedTrading));

    const TEMPLATES: &'static [crate::methods::registry::TemplateName] = &[
            ("method.rules", || crate::i18n::t(crate::i18n::say::TlRules)),
            ("method.name_message", || crate::i18n::t(crate::i18n::say::TlNameMessage)),
            ("method.inventory_message", || crate::i18n::t(crate::i18n::say::TlInventoryMessage)),
            ("method.transcript_message", || crate::i18n::t(crate::i18n::say::TlTranscriptMessage)),
            ("method.feedback", || crate::i18n::t(crate::i18n::say::TlFeedbackOptimum)),
            ("method.feedback_below_optimum", || crate::i18n::t(crate::i18n::say::TlFeedbackBelow)),
            ("method.optimizer_system", || crate::i18n::t(crate::i18n::say::TlOptimizerSystem)),
            ("method.optimizer_prompt", || crate::i18n::t(crate::i18n::say::TlOptimizerPrompt)),
    ];

    /// One game per optimizer iteration.
    fn games(&self) -> u32 {
        self.iterations
    }

    fn validate(&self, agents: &[String], err: &mut dyn FnMut(&str, String)) {
        use crate::i18n::{say, t, tf};
        if agents.len() != 2 {
            err("agents", t(say::VTwoPlayers).into());
        }
        if self.resources.len() < 2 {
            err("method.resources", t(say::VTwoResources).into());
        }
        if self.resources.len() > MAX_RESOURCES {
            err("method.resources", tf(say::VMaxResources, &[("n", &MAX_RESOURCES)]));
        }
        for (i, r) in self.resources.iter().enumerate() {
            if r.trim().is_empty() || self.resources[..i].contains(r) {
                err("method.resources", tf(say::VResourceBad, &[("n", &(i + 1))]));
            }
        }
        if self.inventories.len() != 2 {
            err("method.inventories", t(say::VOneInventoryEach).into());
        }
        for (p, inv) in self.inventories.iter().enumerate() {
            if inv.len() != self.resources.len() {
                err(&format!("method.inventories[{p}]"), t(say::VQuantityEach).into());
            }
            if inv.iter().any(|&q| !(0..=MAX_QUANTITY).contains(&q)) {
                err(&format!("method.inventories[{p}]"), tf(say::VQuantities, &[("max", &MAX_QUANTITY)]));
            }
        }
        if self.value_scale.is_empty() {
            err("method.value_scale", t(say::VOneValue).into());
        }
        if self.iterations == 0 || self.iterations > 100 {
            err("method.iterations", tf(say::VBetween, &[("min", &1), ("max", &100)]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Method;

    #[test]
    fn every_field_reads_back() {
        crate::scenario::assert_reads_back(Method::Negotiation(NegotiationSettings {
            resources: vec!["A".into(), "B".into()],
            inventories: vec![vec![1, 2], vec![3, 4]],
            value_scale: vec![1, 5],
            iterations: 2,
            rules: "a".into(),
            name_message: "b".into(),
            inventory_message: "c".into(),
            transcript_message: "d".into(),
            feedback: "e".into(),
            feedback_below_optimum: "f".into(),
            optimizer_system: "g".into(),
            optimizer_prompt: "h".into(),
            temperature: 0.5,
            max_tokens: 7,
        }));
    }
}
