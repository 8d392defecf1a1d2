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

/// Why the show ended when its stop draw ended it: the class's button, or the draw and its odds
/// ("the director ended the show on its stop draw, 1 chance in 5 each turn"), so a run that
/// stops at turn 1 reads as the chance it is.
pub fn ended(probability: f64, ended_by_class: bool) -> String {
    if ended_by_class {
        return "the class ended the show".into();
    }
    // The smallest whole odds that say the probability exactly, else a percentage.
    let odds = (1..=20u32).find_map(|d| {
        let k = probability * d as f64;
        ((k - k.round()).abs() < 1e-9 && k >= 1.0).then(|| (k.round() as u32, d))
    });
    let chance = match odds {
        Some((_, 1)) => return "the director ended the show on its stop draw, set to stop at every turn".into(),
        Some((1, d)) => format!("1 chance in {d}"),
        Some((k, d)) => format!("{k} chances in {d}"),
        None => {
            let pct = probability * 100.0;
            format!("a {} % chance", crate::text::fixed(pct, if pct.fract().abs() < 1e-9 { 0 } else { 1 }))
        }
    };
    format!("the director ended the show on its stop draw, {chance} each turn")
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_stop_draw_ending_names_its_odds() {
        let cases = [
            (0.2, "1 chance in 5 each turn"),
            (0.75, "3 chances in 4 each turn"),
            (0.125, "1 chance in 8 each turn"),
            (0.33, "a 33 % chance each turn"),
            (0.025, "a 2.5 % chance each turn"),
            (1.0, "set to stop at every turn"),
        ];
        for (p, odds) in cases {
            assert_eq!(super::ended(p, false), format!("the director ended the show on its stop draw, {odds}"));
        }
        assert_eq!(super::ended(0.2, true), "the class ended the show");
    }
}
