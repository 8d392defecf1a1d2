//! How the demo model plays the trading game and rewrites the players' prompts as the optimizer.

use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use crate::game::negotiation::{inventory_value, optimum, Action};
use crate::model::{NegotiationCue, OptimizerCue};

/// A negotiating player. With "STOCKPILE THESE RESOURCES: X, Y" it gathers X and Y and gives away
/// the rest; without a list it only makes trades that raise its own value. Proposals move one
/// unit at a time, a proposal that was not accepted is not repeated, and it proposes only trades
/// the game would take (it asks the game, as a person's seat checks an action before sending
/// it): the invalid moves a class sees come from the malformed-reply setting, not from the demo
/// guessing at the other player's private holdings.
pub(crate) fn negotiate(cue: &NegotiationCue, malformed: bool, rng: &mut ChaCha8Rng) -> String {
    if malformed {
        let bad = [
            "{\"action\": \"TRADE\", \"sell_resource\": \"WOOD\"".to_string(),
            "I think we should trade some wood.".to_string(),
            format!("{{\"action\": \"TRADE\", \"sell_resource\": \"{}\", \"buy_resource\": \"{}\", \"quantity\": 99}}", cue.resources[0], cue.resources[1]),
        ];
        return bad.choose(rng).cloned().unwrap_or_default();
    }
    let stockpile = stockpile(&cue.strategy, &cue.resources);
    let index = |name: &str| cue.resources.iter().position(|r| r.eq_ignore_ascii_case(name));
    let value = |inv: &[i64]| inventory_value(inv, &cue.value_scale);
    let mine = &cue.inventory;
    let last_other = cue.history.last().filter(|(p, _)| *p != cue.player).map(|(_, a)| a.clone());

    // Answer a proposal from the other player.
    if let Some(Some(Action::Trade { sell_resource, buy_resource, quantity })) = &last_other {
        if let (Some(get), Some(give)) = (index(sell_resource), index(buy_resource)) {
            let affordable = get != give && *quantity > 0 && mine[give] >= *quantity;
            let good = if stockpile.is_empty() {
                let mut after = mine.clone();
                after[give] -= quantity;
                after[get] += quantity;
                value(&after) >= value(mine)
            } else {
                stockpile.contains(&get) && !stockpile.contains(&give)
            };
            let action = if affordable && good { Action::Accept } else { Action::Reject };
            return action.to_json();
        }
        return Action::Reject.to_json();
    }

    // Proposals of mine that the other player did not accept.
    let mut failed: Vec<(usize, usize)> = Vec::new();
    for pair in cue.history.windows(2) {
        if let ((p, Some(Action::Trade { sell_resource, buy_resource, .. })), (_, answer)) =
            (&pair[0], &pair[1])
        {
            if *p == cue.player && *answer != Some(Action::Accept) {
                if let (Some(s), Some(b)) = (index(sell_resource), index(buy_resource)) {
                    failed.push((s, b));
                }
            }
        }
    }
    let mut best: Option<(i64, usize, usize)> = None;
    for sell in 0..mine.len() {
        for buy in 0..mine.len() {
            if sell == buy || mine[sell] < 1 || failed.contains(&(sell, buy)) {
                continue;
            }
            let mut after = mine.clone();
            after[sell] -= 1;
            after[buy] += 1;
            let gain = value(&after) - value(mine);
            let wanted = if stockpile.is_empty() {
                gain > 0
            } else {
                stockpile.contains(&buy) && !stockpile.contains(&sell)
            };
            let allowed = || {
                let trade = Action::Trade {
                    sell_resource: cue.resources[sell].clone(),
                    buy_resource: cue.resources[buy].clone(),
                    quantity: 1,
                };
                cue.game.resources.is_empty() || cue.game.clone().apply(cue.seat, &trade).is_ok()
            };
            if wanted && best.is_none_or(|(g, _, _)| gain > g) && allowed() {
                best = Some((gain, sell, buy));
            }
        }
    }
    match best {
        Some((_, sell, buy)) => Action::Trade {
            sell_resource: cue.resources[sell].clone(),
            buy_resource: cue.resources[buy].clone(),
            quantity: 1,
        }
        .to_json(),
        None => Action::End.to_json(),
    }
}

/// The resources a strategy prompt tells the player to stockpile (none for "N/A").
fn stockpile(strategy: &str, resources: &[String]) -> Vec<usize> {
    let upper = strategy.to_ascii_uppercase();
    let list = upper.split_once(':').map_or(upper.as_str(), |(_, rest)| rest);
    resources
        .iter()
        .enumerate()
        .filter(|(_, r)| {
            list.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| w == r.to_ascii_uppercase())
        })
        .map(|(i, _)| i)
        .collect()
}

/// The optimizer: finds the best split of the resources by search and tells each player to
/// stockpile what it holds in that split. At the optimum it keeps the prompts.
pub(crate) fn optimize(cue: &OptimizerCue, malformed: bool) -> String {
    if malformed {
        return "{\"reasoning\": \"The feedback says the score is not optimal, but without more detail there is no direct recommendation.\", \"answer\": \"\", \"suggestion\": {}}".into();
    }
    let mut out = serde_json::Map::new();
    if cue.overall >= cue.optimum || cue.start_inventories.len() != 2 {
        for (p, prompt) in cue.players.iter().zip(&cue.prompts) {
            out.insert(p.clone(), prompt.clone().into());
        }
        return serde_json::Value::Object(out).to_string();
    }
    let start = [cue.start_inventories[0].clone(), cue.start_inventories[1].clone()];
    let (_, split) = optimum(&start, &cue.value_scale);
    for (p, holding) in cue.players.iter().zip(split.iter()) {
        let keep: Vec<&str> =
            cue.resources.iter().zip(holding).filter(|(_, q)| **q > 0).map(|(r, _)| r.as_str()).collect();
        out.insert(p.clone(), format!("STOCKPILE THESE RESOURCES: {}", keep.join(", ")).into());
    }
    serde_json::Value::Object(out).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strategies_name_the_resources_to_keep() {
        let r: Vec<String> = ["WOOD", "STONE", "GOLD"].map(String::from).to_vec();
        assert_eq!(stockpile("STOCKPILE THESE RESOURCES: N/A", &r), Vec::<usize>::new());
        assert_eq!(stockpile("STOCKPILE THESE RESOURCES: GOLD, wood", &r), vec![0, 2]);
    }

    #[test]
    fn the_optimizer_points_each_player_at_the_best_split() {
        let cue = OptimizerCue {
            players: vec!["Alice".into(), "Bob".into()],
            resources: ["WOOD", "STONE", "GOLD"].map(String::from).to_vec(),
            start_inventories: vec![vec![4, 3, 2], vec![1, 5, 2]],
            value_scale: vec![1, 2, 4, 7, 12, 20, 33, 54, 88, 143, 250],
            prompts: vec!["STOCKPILE THESE RESOURCES: N/A".into(); 2],
            overall: 28,
            optimum: 73,
            iteration: 1,
        };
        let reply: serde_json::Value = serde_json::from_str(&optimize(&cue, false)).unwrap();
        assert_eq!(reply["Alice"], "STOCKPILE THESE RESOURCES: WOOD, GOLD");
        assert_eq!(reply["Bob"], "STOCKPILE THESE RESOURCES: STONE");
    }
}
