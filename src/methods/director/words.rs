//! The director's wording of its choices, the same for every reader: the terminal, the Markdown
//! export and the director panel.

use crate::i18n::{say, t, tf};

/// A choice read only after retries.
pub fn attempts_note(attempts: u32) -> Option<String> {
    (attempts > 1).then(|| tf(say::DirectorAttempts, &[("n", &attempts)]))
}

/// A choice that no reply gave: the setting's fallback spoke.
pub fn fallback() -> &'static str {
    t(say::DirectorFallback)
}

/// The stop draw: the number drawn against the stop probability.
pub fn drawn(sample: f64, probability: f64) -> String {
    let (sample, p) = (crate::text::fixed(sample, 3), crate::text::fixed(probability, 2));
    tf(say::DirectorDrew, &[("sample", &sample), ("p", &p)])
}

/// What the stop draw decided, or that the class ended the show.
pub fn verdict(stop: bool, ended_by_class: bool) -> &'static str {
    match (stop, ended_by_class) {
        (_, true) => t(say::VerdictClass),
        (true, false) => t(say::VerdictStop),
        (false, false) => t(say::VerdictGoOn),
    }
}

/// The stop draw in a sentence: the odds, the number drawn against them and what it decided
/// ("A 1 in 5 chance to end the show each turn: drew 0.404 against 0.20, the show goes on").
pub fn draw_sentence(sample: f64, probability: f64, stop: bool, ended_by_class: bool) -> String {
    let outcome = match (stop, ended_by_class) {
        (_, true) => t(say::OutcomeClass),
        (true, false) => t(say::OutcomeEnds),
        (false, false) => t(say::OutcomeGoesOn),
    };
    let chance = match odds(probability) {
        Some(Odds::Every) => t(say::ChanceEvery).to_string(),
        Some(Odds::Ratio(k, d)) => tf(say::ChanceRatio, &[("k", &k), ("d", &d)]),
        None => tf(say::ChancePercent, &[("p", &percent(probability))]),
    };
    tf(say::DrawSentence, &[("chance", &chance), ("drawn", &drawn(sample, probability)), ("outcome", &outcome)])
}

/// The director's choice in a sentence: "Jon Stewart asks Ronny Chieng next" (a fallback: "Jon
/// Stewart named no one the rules take, so Ronny Chieng speaks next").
pub fn choice_sentence(director: &str, agent: &str, fallback: bool) -> String {
    let who: [crate::i18n::Arg; 2] = [("director", &director), ("agent", &agent)];
    if fallback {
        tf(say::ChoiceFallback, &who)
    } else if director.is_empty() {
        tf(say::ChoiceNext, &who)
    } else {
        tf(say::ChoiceAsks, &who)
    }
}

/// A probability as the smallest whole odds that say it exactly.
enum Odds {
    Every,
    Ratio(u32, u32),
}

fn odds(probability: f64) -> Option<Odds> {
    (1..=20u32).find_map(|d| {
        let k = probability * d as f64;
        ((k - k.round()).abs() < 1e-9 && k >= 1.0).then(|| match (k.round() as u32, d) {
            (_, 1) => Odds::Every,
            (k, d) => Odds::Ratio(k, d),
        })
    })
}

fn percent(probability: f64) -> String {
    let pct = probability * 100.0;
    let digits = if pct.fract().abs() < 1e-9 { 0 } else { 1 };
    format!("{}{}", crate::text::fixed(pct, digits), crate::i18n::percent_sign())
}

/// Why the show ended when its stop draw ended it: the class's button, or the draw and its odds
/// ("the director ended the show on its stop draw, 1 chance in 5 each turn"), so a run that
/// stops at turn 1 reads as the chance it is.
pub fn ended(probability: f64, ended_by_class: bool) -> String {
    if ended_by_class {
        return t(say::OutcomeClass).into();
    }
    // The smallest whole odds that say the probability exactly, else a percentage.
    let chance = match odds(probability) {
        Some(Odds::Every) => return t(say::EndedEvery).into(),
        Some(Odds::Ratio(1, d)) => tf(say::EndedOne, &[("d", &d)]),
        Some(Odds::Ratio(k, d)) => tf(say::EndedMany, &[("k", &k), ("d", &d)]),
        None => tf(say::EndedPercent, &[("p", &percent(probability))]),
    };
    tf(say::Ended, &[("chance", &chance)])
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

    #[test]
    fn the_stop_draw_and_the_choice_read_as_sentences() {
        assert_eq!(
            super::draw_sentence(0.404, 0.2, false, false),
            "A 1 in 5 chance to end the show each turn: drew 0.404 against 0.20, the show goes on"
        );
        assert_eq!(
            super::draw_sentence(0.1, 0.33, true, false),
            "A 33 % chance to end the show each turn: drew 0.100 against 0.33, the show ends"
        );
        assert_eq!(
            super::draw_sentence(0.9, 0.25, true, true),
            "A 1 in 4 chance to end the show each turn: drew 0.900 against 0.25, the class ended the show"
        );
        assert_eq!(super::choice_sentence("Jon Stewart", "Ronny Chieng", false), "Jon Stewart asks Ronny Chieng next");
        assert!(super::choice_sentence("Jon Stewart", "Ronny Chieng", true).contains("named no one"));
    }

    #[test]
    fn in_chinese_the_odds_the_draw_and_the_choice_read_as_chinese() {
        crate::i18n::speak(Some(crate::i18n::zh::TABLE));
        let draw = super::draw_sentence(0.404, 0.2, false, false);
        let ended = super::ended(0.2, false);
        let percent = super::ended(0.33, false);
        let choice = super::choice_sentence("Jon Stewart", "Ronny Chieng", false);
        crate::i18n::speak(None);
        assert_eq!(draw, "每轮有 1/5 的机会结束节目：抽到 0.404（低于 0.20 才结束），节目继续");
        assert_eq!(ended, "导演按抽签结束了节目（每轮有 1/5 的机会）");
        assert_eq!(percent, "导演按抽签结束了节目（每轮有 33% 的机会）");
        assert_eq!(choice, "Jon Stewart 请 Ronny Chieng 接着发言");
    }
}
