//! The director's wording of its choices, the same for every reader: the terminal, the Markdown
//! export and the director panel.

/// A choice read only after retries.
pub fn attempts_note(attempts: u32) -> Option<String> {
    (attempts > 1).then(|| format!("after {attempts} attempts"))
}

/// A choice that no reply gave: the setting's fallback spoke.
pub const FALLBACK: &str = "fallback: no valid index";

/// The stop draw: the number drawn against the stop probability.
pub fn drawn(sample: f64, probability: f64) -> String {
    format!("drew {} against {}", crate::text::fixed(sample, 3), crate::text::fixed(probability, 2))
}

/// What the stop draw decided, or that the class ended the show.
pub fn verdict(stop: bool, ended_by_class: bool) -> &'static str {
    match (stop, ended_by_class) {
        (_, true) => "stop: the class ended the show",
        (true, false) => "stop",
        (false, false) => "go on",
    }
}
