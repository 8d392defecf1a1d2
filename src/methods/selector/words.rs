//! The selector's wording of how a reply was read, the same for every reader: the terminal, the
//! Markdown export and the selector panel.

use crate::events::SelectorMatch;
use crate::i18n::{say, t, tf};

/// How the next speaker was named.
pub fn how_named(matched: SelectorMatch, attempts: u32) -> String {
    match matched {
        SelectorMatch::Exact => t(say::SelectorExact).to_string(),
        SelectorMatch::Loose => t(say::SelectorLoose).to_string(),
        SelectorMatch::Mention => t(say::SelectorMention).to_string(),
        SelectorMatch::OnlyCandidate => t(say::SelectorOnlyCandidate).to_string(),
        SelectorMatch::Fallback => tf(say::SelectorFallback, &[("n", &attempts)]),
    }
}

/// A name read only after retries (a fallback already says how many).
pub fn attempt_note(matched: SelectorMatch, attempts: u32) -> Option<String> {
    (attempts > 1 && matched != SelectorMatch::Fallback).then(|| tf(say::SelectorAttempt, &[("n", &attempts)]))
}

/// The selector's choice in a sentence for the stage: who speaks next and how the reply said so.
pub fn selection_sentence(agent: &str, matched: SelectorMatch, attempts: u32) -> String {
    let template = match matched {
        SelectorMatch::Exact => t(say::SelectorNamed),
        SelectorMatch::Loose => t(say::SelectorNamedLoosely),
        SelectorMatch::Mention => t(say::SelectorMentioned),
        SelectorMatch::OnlyCandidate => t(say::SelectorOnlyOne),
        SelectorMatch::Fallback => t(say::SelectorNamedNoOne),
    };
    crate::i18n::fill(template, &[("agent", &agent), ("n", &attempts)])
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
