//! Handoff's wording: a handoff that did not come, the same for every reader (the terminal, the
//! Markdown export and the handoff view), and a handoff in a sentence for the stage.

use crate::events::HandoffMiss;
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

/// Why a reply handed off to no one, in the page's language: from the log's code when it has
/// one, else the log's English `reason` as it is. A JSON reader's message is left to the
/// inspector.
pub fn why_missed(missed: Option<&HandoffMiss>, reason: &str) -> String {
    let Some(missed) = missed else { return reason.to_string() };
    match missed {
        HandoffMiss::NoAnswer => tf(say::HmNoAnswer, &[("reason", &reason)]),
        HandoffMiss::NamesNoOne => t(say::HmNamesNoOne).into(),
        HandoffMiss::NotAnAgent { name } => tf(say::HmNotAnAgent, &[("name", name)]),
        HandoffMiss::ToItself { name } => tf(say::HmToItself, &[("name", name)]),
        HandoffMiss::NoToolCall => t(say::HmNoToolCall).into(),
        HandoffMiss::ArgumentsNotJson => t(say::HmArgumentsNotJson).into(),
        HandoffMiss::NotJson => t(say::HmNotJson).into(),
        HandoffMiss::NoField { field } => tf(say::HmNoField, &[("field", field)]),
    }
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
    fn every_fallback_in_the_malformed_golden_logs_says_why_in_chinese_from_its_code() {
        use crate::events::Event;
        let mut seen = 0;
        for mode in ["seed1", "seed7", "json", "tool"] {
            let path = format!("{}/tests/golden/ai-morality-handoff-{mode}-malformed.jsonl", env!("CARGO_MANIFEST_DIR"));
            let events = crate::events::from_json_lines(&std::fs::read_to_string(path).unwrap()).unwrap();
            for event in &events {
                let Event::Handoff { fallback: true, reason: Some(reason), missed, .. } = event else { continue };
                assert!(missed.is_some(), "{reason}");
                crate::i18n::speak(Some(crate::i18n::zh::TABLE));
                let zh = super::why_missed(missed.as_ref(), reason);
                crate::i18n::speak(None);
                assert!(zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{reason}: {zh}");
                // English says what the log says, a JSON reader's message aside.
                let en = super::why_missed(missed.as_ref(), reason);
                assert!(reason.starts_with(&en), "{reason} / {en}");
                seen += 1;
            }
        }
        assert!(seen >= 4, "{seen} fallbacks");
    }

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
