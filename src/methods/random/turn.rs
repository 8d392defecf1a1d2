//! One turn of the method: the run's RNG draws the next speaker from the candidates, who speaks.

use rand::Rng;

use super::settings::RandomSettings;
use crate::events::{Event, FinishReason};
use crate::floor::Floor;
use crate::methods::selection::SpeakerSelection;
use crate::model::ModelError;

pub struct Random {
    allow_repeats: bool,
    /// Who spoke last by this method's choice (nobody before the first turn: the opening is
    /// injected).
    previous: Option<usize>,
}

impl SpeakerSelection for Random {
    type Settings = RandomSettings;

    fn start(_floor: &Floor, settings: &RandomSettings) -> Self {
        Random { allow_repeats: settings.allow_repeats, previous: None }
    }

    async fn turn(&mut self, floor: &mut Floor) -> Result<Option<FinishReason>, ModelError> {
        // A scenario has at least two agents, so someone other than the last is always left.
        let candidates: Vec<usize> =
            (0..floor.cast.len()).filter(|&i| self.allow_repeats || Some(i) != self.previous).collect();
        let agent = candidates[floor.rng.random_range(0..candidates.len())];
        floor.push(Event::SpeakerSelected {
            turn: floor.turn,
            agent: floor.cast[agent].name.clone(),
            tie: candidates.len() > 1,
            tied: candidates.iter().map(|&i| floor.cast[i].name.clone()).collect(),
        });
        let agent = floor.floor_for(agent);
        self.previous = Some(agent);
        floor.speak(agent).await?;
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use crate::engine::demo_events;
    use crate::events::{Event, MessageKind};
    use crate::scenario::Method;

    use super::super::settings::RandomSettings;

    /// (speaker, candidates) per turn of a demo run of the random preset.
    fn draws(seed: u64, allow_repeats: bool, agents: usize) -> Vec<(String, Vec<String>)> {
        let mut s = crate::presets::find("rail-debate-random").unwrap().scenario();
        s.seed = seed;
        s.max_turns = 12;
        s.agents.truncate(agents);
        s.method = Method::Random(RandomSettings { allow_repeats });
        let events = demo_events(&s);
        let mut out = Vec::new();
        for (i, e) in events.iter().enumerate() {
            if let Event::SpeakerSelected { agent, tie, tied, .. } = e {
                assert_eq!(*tie, tied.len() > 1);
                assert!(tied.contains(agent), "{agent} drawn from {tied:?}");
                // The one drawn speaks next, and nobody else is asked anything.
                assert!(
                    matches!(&events[i + 2], Event::Message { speaker, kind: MessageKind::Agent, .. } if speaker == agent)
                );
                out.push((agent.clone(), tied.clone()));
            }
        }
        assert_eq!(out.len(), 12);
        out
    }

    #[test]
    fn the_last_speaker_is_never_drawn_and_everyone_else_can_be() {
        let mut counts: BTreeMap<String, u32> = BTreeMap::new();
        for seed in 0..20 {
            let d = draws(seed, false, 3);
            assert_eq!(d[0].1.len(), 3, "the first turn draws from everyone");
            for pair in d.windows(2) {
                assert_ne!(pair[0].0, pair[1].0, "seed {seed}: the same speaker twice");
                let mut expected: Vec<String> =
                    ["Donald Trump", "Kanye West", "Elizabeth Warren"].map(String::from).to_vec();
                expected.retain(|n| *n != pair[0].0);
                assert_eq!(pair[1].1, expected, "seed {seed}");
            }
            for (who, _) in d {
                *counts.entry(who).or_default() += 1;
            }
        }
        // 240 draws: each of three agents gets a fair share (an even third is 80).
        assert_eq!(counts.len(), 3);
        assert!(counts.values().all(|&n| (60..=100).contains(&n)), "{counts:?}");
    }

    #[test]
    fn repeats_when_allowed_and_the_seed_decides() {
        let repeats: usize =
            (0..10).map(|seed| draws(seed, true, 3).windows(2).filter(|p| p[0].0 == p[1].0).count()).sum();
        assert!(repeats > 0, "no speaker was ever drawn twice in a row with repeats allowed");
        assert_eq!(draws(5, false, 3), draws(5, false, 3));
        assert_ne!(draws(5, false, 3), draws(6, false, 3));
        // Two agents, no repeats: they take turns, each the only one who can speak.
        let two = draws(2, false, 2);
        assert!(two[1..].iter().all(|(_, among)| among.len() == 1));
        assert!(two.windows(2).all(|p| p[0].0 != p[1].0));
    }
}
