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
