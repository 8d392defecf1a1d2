//! The trading game's wording of a move, the same for every reader: the transcript on the page
//! and the Markdown export (the terminal prints the JSON a player sent, as seed 001 does).

use crate::game::negotiation::Action;
use crate::i18n::{fill, say, t, tf};

/// A move as a sentence: "Alice offers 1 STONE for 1 GOLD", "Bob accepts", and for a move the
/// rules refused, which rule it broke.
pub fn move_line(player: &str, action: Option<&Action>, valid: bool, reason: &str) -> String {
    let line = match action {
        Some(Action::Trade { sell_resource, buy_resource, quantity }) => tf(
            say::TradeOffers,
            &[("player", &player), ("n", quantity), ("sell", sell_resource), ("buy", buy_resource)],
        ),
        Some(Action::Accept) => tf(say::TradeAccepts, &[("player", &player)]),
        Some(Action::Reject) => tf(say::TradeRejects, &[("player", &player)]),
        Some(Action::End) => tf(say::TradeAsksToEnd, &[("player", &player)]),
        None => tf(say::TradeNoValidAction, &[("player", &player)]),
    };
    if valid {
        line
    } else {
        tf(say::TradeInvalid, &[("move", &line), ("why", &reason)])
    }
}

/// The optimizer's note on the last game, as the event log keeps it (in English, whatever the
/// page's language): no rewrite follows it.
pub const LAST_GAME_NOTE: &str = "last iteration: no optimizer call";

/// An optimizer's note in the page's language (a note the log holds that is not ours stays as
/// it is).
pub fn optimizer_note(note: &str) -> &str {
    if note == LAST_GAME_NOTE {
        t(say::OptimizerLastGame)
    } else {
        note
    }
}

/// Why a game ended, from the game's own code for it (`both_ended`, `turn_limit`).
pub fn game_end(reason: &str) -> String {
    match reason {
        "both_ended" => t(say::GameBothEnded).to_string(),
        "turn_limit" => t(say::GameTurnLimit).to_string(),
        other => other.replace('_', " "),
    }
}

/// The proposal waiting for an answer, in a sentence.
pub fn pending(by: &str, quantity: i64, sell: &str, buy: &str) -> String {
    fill(t(say::TradePending), &[("player", &by), ("n", &quantity), ("sell", &sell), ("buy", &buy)])
}
