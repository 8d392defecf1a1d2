//! The built-in scenarios: the five seed systems, shipped as files under public/scenarios/ and
//! compiled in so the app and the terminal runner need no network to offer them.

use crate::scenario::Scenario;

/// A preset: its file name (also its id in links) and its JSON text.
pub struct Preset {
    pub id: &'static str,
    pub json: &'static str,
}

pub const PRESETS: &[Preset] = &[
    Preset { id: "rail-debate", json: include_str!("../public/scenarios/rail-debate.json") },
    Preset { id: "arms-debate", json: include_str!("../public/scenarios/arms-debate.json") },
    Preset { id: "ai-morality-handoff", json: include_str!("../public/scenarios/ai-morality-handoff.json") },
    Preset { id: "daily-show-director", json: include_str!("../public/scenarios/daily-show-director.json") },
    Preset { id: "town-hall-selector", json: include_str!("../public/scenarios/town-hall-selector.json") },
    Preset { id: "trading-game", json: include_str!("../public/scenarios/trading-game.json") },
    Preset { id: "rail-debate-random", json: include_str!("../public/scenarios/rail-debate-random.json") },
];

impl Preset {
    pub fn scenario(&self) -> Scenario {
        Scenario::from_json(self.json).expect("built-in presets are valid (checked by tests)")
    }
}

/// A preset as the start screen's gallery shows it, before the scenario reader has arrived: made
/// from the preset's file by build.rs.
pub struct Card {
    pub id: &'static str,
    pub kind: crate::scenario::MethodKind,
    pub title: &'static str,
    pub summary: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/cards.rs"));

/// Whether `title` is a preset's own title (one the person has not rewritten).
pub fn is_title(title: &str) -> bool {
    // Or as its card says it in the language spoken now: a preset taken into Chinese wears its
    // Chinese title.
    CARDS.iter().any(|c| c.title == title || crate::i18n::card(c.id, c.title, c.summary).0 == title)
}

/// A scenario's title in the language the page speaks: a preset's as its card says it there
/// ([`crate::i18n::card`]), any other as its author wrote it.
pub fn title_words(title: &str) -> &str {
    match CARDS.iter().find(|c| c.title == title) {
        Some(c) => crate::i18n::card(c.id, c.title, c.summary).0,
        None => title,
    }
}

/// Puts `words` into `s` when `s` still says what `preset` says (its topic, opening and cast as
/// shipped), and says whether it did: a scenario the person has rewritten is left as written.
pub fn put_words(s: &mut Scenario, preset: &Preset, words: &crate::i18n::PresetWords) -> bool {
    let shipped = preset.scenario();
    let same_cast = s.agents.len() == shipped.agents.len()
        && s.agents
            .iter()
            .zip(&shipped.agents)
            .all(|(a, b)| (&a.name, &a.role, &a.description) == (&b.name, &b.role, &b.description));
    if s.topic != shipped.topic
        || s.opening.speaker != shipped.opening.speaker
        || s.opening.text != shipped.opening.text
        || !same_cast
        || words.agents.len() != s.agents.len()
    {
        return false;
    }
    s.topic = words.topic.into();
    s.model.demo.topic_phrase = words.phrase.into();
    if !s.opening.speaker.is_empty() {
        s.opening.speaker = words.opening.0.into();
    }
    if !s.opening.text.is_empty() {
        s.opening.text = words.opening.1.into();
    }
    for (agent, (role, description)) in s.agents.iter_mut().zip(words.agents) {
        agent.role = (*role).into();
        if !agent.description.is_empty() {
            agent.description = (*description).into();
        }
    }
    true
}

pub fn find(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_has_chinese_words_that_a_shipped_preset_takes_and_a_rewritten_one_does_not() {
        let zh = crate::i18n::zh::TABLE.preset;
        for p in PRESETS {
            let words = zh(p.id).unwrap_or_else(|| panic!("{}: no Chinese words", p.id));
            let mut s = p.scenario();
            assert!(put_words(&mut s, p, &words), "{}", p.id);
            s.validate().unwrap_or_else(|e| panic!("{}: {e:?}", p.id));
            let latin = |text: &str| text.chars().any(|c| c.is_ascii_alphabetic());
            assert!(!latin(&s.topic) && !latin(&s.opening.speaker) && !latin(&s.opening.text), "{}", p.id);
            let shipped = p.scenario();
            for (a, b) in s.agents.iter().zip(&shipped.agents) {
                assert_eq!(a.name, b.name, "names stay: the methods address agents by them");
                assert!(!latin(&a.role), "{}: {}", p.id, a.role);
                // A description names its agent and is otherwise Chinese; none where none was.
                assert_eq!(a.description.is_empty(), b.description.is_empty(), "{}", p.id);
                assert!(!latin(&a.description.replace(&a.name, "")), "{}: {}", p.id, a.description);
            }
            // Who opens and what they say change only where the preset had them.
            assert_eq!(s.opening.text.is_empty(), shipped.opening.text.is_empty(), "{}", p.id);
            assert_eq!(s.opening.speaker.is_empty(), shipped.opening.speaker.is_empty(), "{}", p.id);
            // Taken twice, nothing changes again; a topic the person rewrote is left alone.
            assert!(!put_words(&mut s.clone(), p, &words));
            let mut edited = p.scenario();
            edited.topic = "Should homework be banned?".into();
            let before = edited.clone();
            assert!(!put_words(&mut edited, p, &words));
            assert_eq!(edited, before);
        }
    }

    #[test]
    fn every_preset_is_a_valid_scenario_that_round_trips() {
        for p in PRESETS {
            let s = Scenario::from_json(p.json).unwrap_or_else(|e| panic!("{}: {e}", p.id));
            let again = Scenario::from_json(&s.to_json_pretty()).unwrap();
            assert_eq!(s, again, "{}", p.id);
        }
    }

    #[test]
    fn each_card_shows_its_presets_id_method_title_and_summary_in_the_gallerys_order() {
        assert_eq!(CARDS.len(), PRESETS.len());
        for (card, preset) in CARDS.iter().zip(PRESETS) {
            let s = preset.scenario();
            assert_eq!(card.id, preset.id);
            assert_eq!(card.kind, s.method.kind(), "{}", preset.id);
            assert_eq!(card.title, s.title, "{}", preset.id);
            assert_eq!(card.summary, s.summary, "{}", preset.id);
        }
    }
}
