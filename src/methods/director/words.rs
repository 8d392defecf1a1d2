//! The director's wording of its choices, the same for every reader: the terminal, the Markdown
//! export and the director panel.

/// A choice read only after retries.
pub fn attempts_note(attempts: u32) -> Option<String> {
    (attempts > 1).then(|| format!("after {attempts} attempts"))
}

/// A choice that no reply gave: the setting's fallback spoke.
pub const FALLBACK: &str = "fallback: no valid index";
