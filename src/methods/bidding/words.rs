//! Bidding's wording of its events, the same for every reader: the terminal, the Markdown export
//! and the bid board.

/// How a bid came to be when the first reply did not give it: read on a later attempt, or
/// defaulted after the last.
pub fn bid_note(value: i64, attempts: u32, defaulted: bool) -> Option<String> {
    use crate::i18n::{say, tf};
    match (defaulted, attempts) {
        (true, n) => Some(tf(say::BidDefaulted, &[("n", &n), ("value", &value)])),
        (false, n) if n > 1 => Some(tf(say::BidReadOnAttempt, &[("n", &n)])),
        _ => None,
    }
}
