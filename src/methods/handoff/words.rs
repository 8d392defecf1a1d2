//! Handoff's wording of a handoff that did not come, the same for every reader: the terminal, the
//! Markdown export and the handoff view.

/// Why a random other agent has the floor.
pub fn fallback_note(reason: Option<&str>) -> String {
    format!("fallback to a random agent: {}", reason.unwrap_or("no handoff"))
}
