//! How the demo model names the next speaker for the selector method.

use rand::seq::IndexedRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::demo::cast::{chance, Cast};

impl Cast {
    /// The selector names whoever disagrees most with the last speaker (now and then the
    /// runner-up), unless someone has been left out for as many messages as there are
    /// candidates (then the one left out longest: a chair gives everyone the floor), written the
    /// ways models write a name: bare, in lower case, or in a sentence. A malformed reply names
    /// nobody, two agents, or the last speaker.
    pub(crate) fn select(
        &self,
        candidates: &[String],
        last: Option<&str>,
        waited: &[u32],
        malformed: bool,
        rng: &mut ChaCha8Rng,
    ) -> String {
        let stance = last.and_then(|l| self.person(l)).map_or(0.0, |p| p.stance);
        let mut ranked = self.most_opposed(candidates, stance);
        let longest = candidates.iter().zip(waited).max_by_key(|(_, w)| **w).filter(|(_, w)| **w as usize > candidates.len());
        if let Some((left_out, _)) = longest {
            ranked.retain(|n| *n != left_out);
            ranked.insert(0, left_out);
        }
        let pick = if ranked.len() > 1 && chance(rng, 0.3) { ranked[1] } else { ranked[0] };
        if malformed {
            let mut bad = vec![String::new(), "Let's hear from someone new!".to_string()];
            if ranked.len() > 1 {
                bad.push(format!("{} or {}", ranked[0], ranked[1]));
            }
            if let Some(last) = last {
                bad.push(last.to_string());
            }
            return bad.choose(rng).cloned().unwrap_or_default();
        }
        match rng.random_range(0..20) {
            0..12 => pick.clone(),
            12..15 => pick.to_ascii_lowercase(),
            // The name set off by punctuation, as the selector's reading (AutoGen's) needs it:
            // a Latin name between Chinese characters is not found ("我选Ms. Lindqvist下…").
            _ if self.chinese => format!("下一位发言的是：{pick}。"),
            _ => format!("I'd pick {pick} to play next."),
        }
    }
}
