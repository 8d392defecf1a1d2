//! The selector's wording of how a reply was read, the same for every reader: the terminal, the
//! Markdown export and the selector panel.

use crate::events::SelectorMatch;

/// How the next speaker was named.
pub fn how_named(matched: SelectorMatch, attempts: u32) -> String {
    match matched {
        SelectorMatch::Exact => "named exactly".to_string(),
        SelectorMatch::Loose => "named, case or spacing aside".to_string(),
        SelectorMatch::Mention => "the only name mentioned".to_string(),
        SelectorMatch::OnlyCandidate => "the only candidate: no call".to_string(),
        SelectorMatch::Fallback => format!("fallback: no candidate named in {attempts} attempts"),
    }
}

/// A name read only after retries (a fallback already says how many).
pub fn attempt_note(matched: SelectorMatch, attempts: u32) -> Option<String> {
    (attempts > 1 && matched != SelectorMatch::Fallback).then(|| format!("attempt {attempts}"))
}

/// The selector's choice in a sentence for the stage: who speaks next and how the reply said so.
pub fn selection_sentence(agent: &str, matched: SelectorMatch, attempts: u32) -> String {
    match matched {
        SelectorMatch::Exact => format!("The selector named {agent} to speak next"),
        SelectorMatch::Loose => format!("The selector named {agent} to speak next (case or spacing aside)"),
        SelectorMatch::Mention => format!("The selector's reply mentioned only {agent}, who speaks next"),
        SelectorMatch::OnlyCandidate => format!("{agent} was the only one who could speak next: no call was needed"),
        SelectorMatch::Fallback => {
            format!("The selector named no candidate in {attempts} attempts, so {agent} speaks next by the fallback")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_way_of_naming_reads_as_a_sentence() {
        assert_eq!(selection_sentence("Jordan", SelectorMatch::Exact, 1), "The selector named Jordan to speak next");
        assert!(selection_sentence("Jordan", SelectorMatch::Fallback, 3).contains("in 3 attempts"));
        assert!(selection_sentence("Jordan", SelectorMatch::OnlyCandidate, 0).contains("only one"));
    }
}
