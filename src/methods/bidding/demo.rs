//! How the demo model bids (seed 000's format), and how it gets a bid wrong.

use rand::seq::IndexedRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::demo::cast::{Cast, Person};

impl Cast {
    /// Seed 000's bid: how contradictory the last message is to this agent's ideas.
    /// An agent that has waited long to speak finds more to contradict, as a model reading the
    /// whole history does, and one passed over twice bids as high as the most opposed: in a
    /// normal debate everyone gets the floor.
    pub(crate) fn bid(
        &self,
        me: Option<&Person>,
        last: Option<(&str, &str)>,
        waited: u32,
        malformed: bool,
        rng: &mut ChaCha8Rng,
    ) -> String {
        let mine = me.map_or(0.0, |p| p.stance);
        let eagerness = (1.5 * (waited as f64 - 1.0)).clamp(0.0, 6.0);
        // Whoever spoke from outside the cast (the class, the audience) leans as their words do.
        let theirs = last.and_then(|(name, text)| match self.person(name) {
            Some(p) => Some((me.is_some_and(|m| m.name == p.name), p.stance)),
            None => crate::demo::topic::lean(text).map(|s| (false, s)),
        });
        let value: i64 = match theirs {
            Some((true, _)) => rng.random_range(1..=2),
            Some((false, stance)) => {
                let gap = (mine - stance).abs(); // 0 (agree) to 2 (opposed)
                let base = 1.0 + gap * 3.5 + eagerness + rng.random_range(-1.5..=1.5);
                base.round().clamp(1.0, 10.0) as i64
            }
            // The opening came from outside and takes no side: everyone is keen to answer it.
            None => rng.random_range(4..=8),
        };
        if malformed {
            let bad = [
                format!("<{value}.5>"),
                String::new(),
                format!("I would rate it {} out of ten.", number_word(value)),
                format!("{value}/10"),
            ];
            return bad.choose(rng).cloned().unwrap_or_default();
        }
        format!("<{value}>")
    }
}

fn number_word(n: i64) -> &'static str {
    ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
        .get(n.clamp(0, 10) as usize)
        .copied()
        .unwrap_or("ten")
}
