//! The trading game in a notebook: its rules in words and its settings as Python constants (its
//! code is `notebook.py` beside this file).

use crate::game::negotiation::optimum;
use crate::python::Constants;
use crate::scenario::Scenario;

pub const RULE: &str = "As in the negotiation arena notebook: two players trade resources from private inventories, one JSON action a turn (TRADE, ACCEPT, REJECT or END); a move the rules forbid is recorded and changes nothing, and the game ends when both players choose END or at the turn limit. The score is the value of both inventories together. After each game but the last, an optimizer model rewrites both players' strategy prompts from the score (`ITERATIONS` games in all).";

pub fn constants(_scenario: &Scenario, s: &super::Settings, c: &mut Constants) {
    c.texts("RESOURCES", &s.resources);
    let rows: Vec<String> = s.inventories.iter().map(|i| format!("{i:?}")).collect();
    c.raw("INVENTORIES", &format!("[{}]", rows.join(", ")));
    c.ints("VALUE_SCALE", &s.value_scale);
    let start = [
        s.inventories.first().cloned().unwrap_or_default(),
        s.inventories.get(1).cloned().unwrap_or_default(),
    ];
    c.raw(
        "OPTIMUM",
        &format!("{}  # the best overall score these inventories allow", optimum(&start, &s.value_scale).0),
    );
    c.int("ITERATIONS", s.iterations);
    c.text("RULES", &s.rules);
    c.text("NAME_MESSAGE", &s.name_message);
    c.text("INVENTORY_MESSAGE", &s.inventory_message);
    c.text("TRANSCRIPT_MESSAGE", &s.transcript_message);
    c.text("STRATEGY", crate::prompts::NEGOTIATION_STRATEGY);
    c.text("FEEDBACK", &s.feedback);
    c.text("FEEDBACK_BELOW_OPTIMUM", &s.feedback_below_optimum);
    c.text("OPTIMIZER_SYSTEM", &s.optimizer_system);
    c.text("OPTIMIZER_PROMPT", &s.optimizer_prompt);
    c.float("GAME_TEMPERATURE", s.temperature);
    c.int("MAX_TOKENS", s.max_tokens);
}
