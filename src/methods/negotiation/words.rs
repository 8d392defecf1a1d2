//! The trading game's wording of a move, the same for every reader: the transcript on the page
//! and the Markdown export (the terminal prints the JSON a player sent, as seed 001 does).

use crate::game::negotiation::Action;

/// A move as a sentence: "Alice offers 1 STONE for 1 GOLD", "Bob accepts", and for a move the
/// rules refused, which rule it broke.
pub fn move_line(player: &str, action: Option<&Action>, valid: bool, reason: &str) -> String {
    let what = match action {
        Some(Action::Trade { sell_resource, buy_resource, quantity }) => {
            format!("offers {quantity} {sell_resource} for {quantity} {buy_resource}")
        }
        Some(Action::Accept) => "accepts".into(),
        Some(Action::Reject) => "rejects".into(),
        Some(Action::End) => "asks to end the game".into(),
        None => "wrote no valid action".into(),
    };
    if valid {
        format!("{player} {what}")
    } else {
        format!("{player} {what} — invalid: {reason}")
    }
}
