//! Handoff's wording: a handoff that did not come, the same for every reader (the terminal, the
//! Markdown export and the handoff view), and a handoff in a sentence for the stage.

use crate::i18n::{say, t, tf};

/// Why a random other agent has the floor.
pub fn fallback_note(reason: Option<&str>) -> String {
    tf(say::HandoffFallbackNote, &[("why", &reason.unwrap_or(t(say::HandoffNone)))])
}

/// Why, beside [`handoff_sentence`] of a fallback (which says already that the floor was drawn
/// at random).
pub fn fallback_reason(reason: Option<&str>) -> String {
    tf(say::HandoffFallbackReason, &[("why", &reason.unwrap_or(t(say::HandoffNone)))])
}

/// A handoff in a sentence: "Proponent hands the floor to Opponent, by name in its words" (how
/// the reply named them: `method` is the scenario's `text`, `tool` or `json`).
pub fn handoff_sentence(from: &str, to: &str, method: &str, fallback: bool) -> String {
    let template = match (method, fallback) {
        ("tool", false) => t(say::HandoffByTool),
        ("json", false) => t(say::HandoffByJson),
        (_, false) => t(say::HandoffByText),
        ("tool", true) => t(say::HandoffToolNamedNoOne),
        ("json", true) => t(say::HandoffJsonNamedNoOne),
        (_, true) => t(say::HandoffTextNamedNoOne),
    };
    crate::i18n::fill(template, &[("from", &from), ("to", &to)])
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_handoff_reads_as_a_sentence() {
        assert_eq!(
            super::handoff_sentence("Proponent", "Opponent", "text", false),
            "Proponent hands the floor to Opponent, by name in its words"
        );
        assert_eq!(
            super::handoff_sentence("Proponent", "Neutral", "tool", false),
            "Proponent hands the floor to Neutral, by a tool call"
        );
        assert_eq!(
            super::handoff_sentence("A", "B", "json", true),
            "A's JSON reply named no one the rules take: B has the floor, drawn at random"
        );
    }
}
