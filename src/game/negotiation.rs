//! Seed 001's trading game between two players: inventories, actions, the rules that make an
//! action valid, scoring on the value scale, and the best overall score reachable by trading.
//!
//! The rules are kept strictly: resources are conserved and never negative whatever the players
//! say. Two gaps of the seed's code are closed: an accepted trade is cleared once applied (the
//! seed left it pending, so a second ACCEPT applied it again), and acceptance re-checks that both
//! players can still afford it.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A player's action, in the seed's JSON shape (`{"action": "TRADE", ...}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "action", rename_all = "UPPERCASE")]
pub enum Action {
    Trade { sell_resource: String, buy_resource: String, quantity: i64 },
    Accept,
    Reject,
    End,
}

impl Action {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("actions serialize")
    }
}

// Read with the same rules as model replies (see `action_from_value`), which also spares the
// browser build serde's costly reader for internally tagged enums.
impl<'de> Deserialize<'de> for Action {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        action_from_value(&value).map_err(serde::de::Error::custom)
    }
}

/// Why an action was refused: a reply that is not an action, or a move the rules do not allow.
/// The log keeps it (the `invalid` of an `action` event) beside its English words (`reason`), so
/// a page says it in its own language.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum InvalidMove {
    /// The call was refused or its reply filtered; `detail` is the provider's word for it.
    Unreadable {
        #[serde(skip)]
        detail: String,
    },
    NoObject,
    NotClosed,
    /// `detail` is the JSON reader's message.
    NotJson {
        #[serde(skip)]
        detail: String,
    },
    NotAnObject,
    NoAction,
    /// A TRADE without this text field.
    NeedsField {
        field: String,
    },
    NeedsQuantity,
    UnknownAction {
        action: String,
    },
    UnknownResource {
        resource: String,
    },
    SameResource,
    QuantityBelowOne,
    ProposerHasOnly {
        n: i64,
        resource: String,
    },
    OtherHasOnly {
        n: i64,
        resource: String,
    },
    OwnProposal,
    NoLongerAffordable,
    NoProposal,
}

impl std::fmt::Display for InvalidMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InvalidMove::Unreadable { detail } => f.write_str(detail),
            InvalidMove::NoObject => f.write_str("the reply has no JSON object"),
            InvalidMove::NotClosed => f.write_str("the JSON object is not closed"),
            InvalidMove::NotJson { detail } => write!(f, "not valid JSON: {detail}"),
            InvalidMove::NotAnObject => f.write_str("the JSON is not an object"),
            InvalidMove::NoAction => f.write_str("no \"action\" field"),
            InvalidMove::NeedsField { field } => write!(f, "a TRADE needs \"{field}\""),
            InvalidMove::NeedsQuantity => f.write_str("a TRADE needs a whole-number \"quantity\""),
            InvalidMove::UnknownAction { action } => write!(f, "unknown action \"{action}\""),
            InvalidMove::UnknownResource { resource } => write!(f, "unknown resource \"{resource}\""),
            InvalidMove::SameResource => f.write_str("a trade must exchange two different resources"),
            InvalidMove::QuantityBelowOne => f.write_str("the quantity must be at least 1"),
            InvalidMove::ProposerHasOnly { n, resource } => write!(f, "the proposer has only {n} {resource}"),
            InvalidMove::OtherHasOnly { n, resource } => {
                write!(f, "the other player has only {n} {resource}")
            }
            InvalidMove::OwnProposal => f.write_str("a player cannot accept its own proposal"),
            InvalidMove::NoLongerAffordable => f.write_str("the trade is no longer affordable"),
            InvalidMove::NoProposal => f.write_str("there is no proposal to accept"),
        }
    }
}

// Read by hand, as `Action` is: a code and its fields; a code this build does not know is an
// error, as an unknown value of any field of the log is.
impl<'de> Deserialize<'de> for InvalidMove {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        InvalidMove::from_value(&value).ok_or_else(|| serde::de::Error::custom("an unknown invalid move"))
    }
}

impl InvalidMove {
    fn from_value(value: &Value) -> Option<InvalidMove> {
        let text = |key: &str| value.get(key).and_then(Value::as_str).map(str::to_string);
        let n = || value.get("n").and_then(Value::as_i64);
        Some(match value.get("code")?.as_str()? {
            "unreadable" => InvalidMove::Unreadable { detail: String::new() },
            "no_object" => InvalidMove::NoObject,
            "not_closed" => InvalidMove::NotClosed,
            "not_json" => InvalidMove::NotJson { detail: String::new() },
            "not_an_object" => InvalidMove::NotAnObject,
            "no_action" => InvalidMove::NoAction,
            "needs_field" => InvalidMove::NeedsField { field: text("field")? },
            "needs_quantity" => InvalidMove::NeedsQuantity,
            "unknown_action" => InvalidMove::UnknownAction { action: text("action")? },
            "unknown_resource" => InvalidMove::UnknownResource { resource: text("resource")? },
            "same_resource" => InvalidMove::SameResource,
            "quantity_below_one" => InvalidMove::QuantityBelowOne,
            "proposer_has_only" => InvalidMove::ProposerHasOnly { n: n()?, resource: text("resource")? },
            "other_has_only" => InvalidMove::OtherHasOnly { n: n()?, resource: text("resource")? },
            "own_proposal" => InvalidMove::OwnProposal,
            "no_longer_affordable" => InvalidMove::NoLongerAffordable,
            "no_proposal" => InvalidMove::NoProposal,
            _ => return None,
        })
    }
}

/// Reads an action from a model reply. Accepts what a model plausibly writes around the object
/// (a code fence, a sentence) and the single-quoted style of the seed's own examples.
pub fn parse_action(reply: &str) -> Result<Action, InvalidMove> {
    let start = reply.find('{').ok_or(InvalidMove::NoObject)?;
    let end = reply.rfind('}').filter(|&e| e > start).ok_or(InvalidMove::NotClosed)?;
    let text = &reply[start..=end];
    let not_json = |e: serde_json::Error| InvalidMove::NotJson { detail: e.to_string() };
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) if !text.contains('"') => {
            serde_json::from_str(&text.replace('\'', "\"")).map_err(|_| not_json(e))?
        }
        Err(e) => return Err(not_json(e)),
    };
    action_from_value(&value)
}

/// An action from its JSON object: the action name and resources in any case, a quantity that is
/// a whole number (or a string of one).
pub fn action_from_value(value: &Value) -> Result<Action, InvalidMove> {
    let obj = value.as_object().ok_or(InvalidMove::NotAnObject)?;
    let kind =
        obj.get("action").and_then(Value::as_str).ok_or(InvalidMove::NoAction)?.trim().to_ascii_uppercase();
    let text_field = |key: &str| -> Result<String, InvalidMove> {
        obj.get(key)
            .and_then(Value::as_str)
            .map(|s| s.trim().to_ascii_uppercase())
            .ok_or(InvalidMove::NeedsField { field: key.to_string() })
    };
    match kind.as_str() {
        "ACCEPT" => Ok(Action::Accept),
        "REJECT" => Ok(Action::Reject),
        "END" => Ok(Action::End),
        "TRADE" => {
            let quantity = match obj.get("quantity") {
                Some(Value::Number(n)) => n
                    .as_i64()
                    .or_else(|| n.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 1e12).map(|f| f as i64)),
                Some(Value::String(s)) => s.trim().parse().ok(),
                _ => None,
            }
            .ok_or(InvalidMove::NeedsQuantity)?;
            Ok(Action::Trade {
                sell_resource: text_field("sell_resource")?,
                buy_resource: text_field("buy_resource")?,
                quantity,
            })
        }
        other => Err(InvalidMove::UnknownAction { action: other.to_string() }),
    }
}

/// A proposal waiting for the other player's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trade {
    pub by: usize,
    pub sell: usize,
    pub buy: usize,
    pub quantity: i64,
}

/// What a valid action did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    Proposed,
    Traded,
    Rejected,
    /// This player ended; the game goes on until the other player ends too.
    EndProposed,
    /// Both players ended: the game is over.
    Finished,
}

/// The state of one game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Game {
    pub resources: Vec<String>,
    pub inventories: [Vec<i64>; 2],
    pub pending: Option<Trade>,
    /// Which player asked to end (seed: `proposed_end`).
    pub end_by: Option<usize>,
}

impl Game {
    pub fn new(resources: Vec<String>, inventories: [Vec<i64>; 2]) -> Self {
        Self { resources, inventories, pending: None, end_by: None }
    }

    fn resource(&self, name: &str) -> Result<usize, InvalidMove> {
        self.resources
            .iter()
            .position(|r| r.eq_ignore_ascii_case(name))
            .ok_or_else(|| InvalidMove::UnknownResource { resource: name.to_string() })
    }

    /// Applies `action` by `player` (0 or 1). An invalid action returns why and changes only what
    /// the seed changes for it: a refused proposal clears the pending trade and end request, as
    /// the seed's `parse` returning None does; nothing else moves.
    pub fn apply(&mut self, player: usize, action: &Action) -> Result<Effect, InvalidMove> {
        let other = 1 - player;
        match action {
            Action::Trade { sell_resource, buy_resource, quantity } => {
                self.pending = None;
                self.end_by = None;
                let sell = self.resource(sell_resource)?;
                let buy = self.resource(buy_resource)?;
                if sell == buy {
                    return Err(InvalidMove::SameResource);
                }
                if *quantity <= 0 {
                    return Err(InvalidMove::QuantityBelowOne);
                }
                if self.inventories[player][sell] < *quantity {
                    return Err(InvalidMove::ProposerHasOnly {
                        n: self.inventories[player][sell],
                        resource: self.resources[sell].clone(),
                    });
                }
                if self.inventories[other][buy] < *quantity {
                    return Err(InvalidMove::OtherHasOnly {
                        n: self.inventories[other][buy],
                        resource: self.resources[buy].clone(),
                    });
                }
                self.pending = Some(Trade { by: player, sell, buy, quantity: *quantity });
                Ok(Effect::Proposed)
            }
            Action::Accept => match self.pending.clone() {
                Some(t) if t.by == player => Err(InvalidMove::OwnProposal),
                Some(t) => {
                    self.pending = None;
                    if self.inventories[t.by][t.sell] < t.quantity
                        || self.inventories[player][t.buy] < t.quantity
                    {
                        return Err(InvalidMove::NoLongerAffordable);
                    }
                    self.inventories[t.by][t.sell] -= t.quantity;
                    self.inventories[player][t.sell] += t.quantity;
                    self.inventories[player][t.buy] -= t.quantity;
                    self.inventories[t.by][t.buy] += t.quantity;
                    Ok(Effect::Traded)
                }
                // Seed: accepting the other player's request to end ends the game.
                None if self.end_by == Some(other) => Ok(Effect::Finished),
                None => Err(InvalidMove::NoProposal),
            },
            Action::Reject => {
                self.pending = None;
                self.end_by = None;
                Ok(Effect::Rejected)
            }
            Action::End => {
                if self.end_by == Some(other) {
                    Ok(Effect::Finished)
                } else {
                    self.end_by = Some(player);
                    Ok(Effect::EndProposed)
                }
            }
        }
    }
}

/// The value of holding `quantity` of one resource: the scale's entry at `quantity - 1`, capped at
/// the last entry; nothing for none.
pub fn resource_value(quantity: i64, scale: &[i64]) -> i64 {
    if quantity <= 0 || scale.is_empty() {
        return 0;
    }
    let index = (quantity as usize).min(scale.len()) - 1;
    scale[index]
}

/// The value of a whole inventory.
pub fn inventory_value(inventory: &[i64], scale: &[i64]) -> i64 {
    inventory.iter().map(|&q| resource_value(q, scale)).sum()
}

/// The best overall score trading can reach, and the inventories that reach it.
///
/// Every trade swaps equal quantities, so each player keeps its item count; any split of the
/// totals that respects those counts can be reached by trades of one unit. The search runs over
/// resources, keeping for each count of the first player's items the best value so far.
pub fn optimum(inventories: &[Vec<i64>; 2], scale: &[i64]) -> (i64, [Vec<i64>; 2]) {
    let n = inventories[0].len();
    let totals: Vec<i64> = (0..n).map(|r| inventories[0][r] + inventories[1][r]).collect();
    let first_count = inventories[0].iter().sum::<i64>().max(0) as usize;
    let all = totals.iter().sum::<i64>().max(0) as usize;
    // best[c] = (value, choices) with the first player holding c items of the resources so far.
    let mut best: Vec<Option<(i64, Vec<i64>)>> = vec![None; all + 1];
    best[0] = Some((0, Vec::new()));
    for &total in &totals {
        let mut next: Vec<Option<(i64, Vec<i64>)>> = vec![None; all + 1];
        for (c, entry) in best.iter().enumerate() {
            let Some((value, choices)) = entry else { continue };
            for take in 0..=total {
                let c2 = c + take as usize;
                if c2 > all {
                    break;
                }
                let v = value + resource_value(take, scale) + resource_value(total - take, scale);
                if next[c2].as_ref().is_none_or(|(best_v, _)| v > *best_v) {
                    let mut ch = choices.clone();
                    ch.push(take);
                    next[c2] = Some((v, ch));
                }
            }
        }
        best = next;
    }
    match best.get(first_count).cloned().flatten() {
        Some((value, first)) => {
            let second = totals.iter().zip(&first).map(|(t, a)| t - a).collect();
            (value, [first, second])
        }
        None => (
            inventory_value(&inventories[0], scale) + inventory_value(&inventories[1], scale),
            inventories.clone(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const SCALE: [i64; 11] = [1, 2, 4, 7, 12, 20, 33, 54, 88, 143, 250];

    fn seed_game() -> Game {
        Game::new(vec!["WOOD".into(), "STONE".into(), "GOLD".into()], [vec![4, 3, 2], vec![1, 5, 2]])
    }

    fn trade(sell: &str, buy: &str, q: i64) -> Action {
        Action::Trade { sell_resource: sell.into(), buy_resource: buy.into(), quantity: q }
    }

    #[test]
    fn the_seed_optimum_is_73() {
        let (best, split) = optimum(&[vec![4, 3, 2], vec![1, 5, 2]], &SCALE);
        assert_eq!(best, 73);
        assert_eq!(inventory_value(&split[0], &SCALE) + inventory_value(&split[1], &SCALE), 73);
        assert_eq!(split[0].iter().sum::<i64>(), 9);
        assert_eq!(split[1].iter().sum::<i64>(), 8);
    }

    #[test]
    fn the_seed_start_is_worth_28() {
        assert_eq!(inventory_value(&[4, 3, 2], &SCALE), 13);
        assert_eq!(inventory_value(&[1, 5, 2], &SCALE), 15);
    }

    #[test]
    fn values_cap_at_the_end_of_the_scale() {
        assert_eq!(resource_value(0, &SCALE), 0);
        assert_eq!(resource_value(1, &SCALE), 1);
        assert_eq!(resource_value(11, &SCALE), 250);
        assert_eq!(resource_value(40, &SCALE), 250);
    }

    #[test]
    fn actions_parse_from_what_models_write() {
        let table = [
            (r#"{"action": "ACCEPT"}"#, Ok(Action::Accept)),
            ("{'action': 'END'}", Ok(Action::End)),
            ("Sure:\n```json\n{\"action\":\"reject\"}\n```", Ok(Action::Reject)),
            (
                r#"{"action":"TRADE","sell_resource":"wood","buy_resource":"STONE","quantity":2.0}"#,
                Ok(trade("WOOD", "STONE", 2)),
            ),
            (r#"{"action":"TRADE","sell_resource":"WOOD","quantity":2}"#, Err("buy_resource")),
            (
                r#"{"action":"TRADE","sell_resource":"WOOD","buy_resource":"GOLD","quantity":1.5}"#,
                Err("whole-number"),
            ),
            (r#"{"action": "DANCE"}"#, Err("unknown action")),
            (r#"{"action": "TRADE", "sell_resource": "WOOD""#, Err("not closed")),
            ("", Err("no JSON object")),
            (r#"{"action": }"#, Err("not valid JSON")),
            ("[1]", Err("no JSON object")),
        ];
        for (reply, expected) in table {
            match (parse_action(reply), expected) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{reply}"),
                (Err(e), Err(part)) => assert!(e.to_string().contains(part), "{reply}: {e}"),
                (got, want) => panic!("{reply}: got {got:?}, want {want:?}"),
            }
        }
    }

    #[test]
    fn an_accepted_trade_applies_once() {
        let mut g = seed_game();
        assert_eq!(g.apply(0, &trade("STONE", "WOOD", 1)), Ok(Effect::Proposed));
        assert_eq!(g.apply(1, &Action::Accept), Ok(Effect::Traded));
        assert_eq!(g.inventories, [vec![5, 2, 2], vec![0, 6, 2]]);
        assert!(g.apply(1, &Action::Accept).unwrap_err().to_string().contains("no proposal"));
        assert_eq!(g.inventories, [vec![5, 2, 2], vec![0, 6, 2]]);
    }

    #[test]
    fn impossible_actions_are_refused_with_a_reason() {
        let mut g = seed_game();
        assert!(g
            .apply(0, &trade("GOLD", "WOOD", 2))
            .unwrap_err()
            .to_string()
            .contains("other player has only 1"));
        assert!(g.pending.is_none());
        assert!(g.apply(0, &trade("GOLD", "GOLD", 1)).unwrap_err().to_string().contains("different"));
        assert!(g
            .apply(0, &trade("GOLD", "SILVER", 1))
            .unwrap_err()
            .to_string()
            .contains("unknown resource"));
        assert!(g.apply(0, &trade("GOLD", "STONE", 0)).unwrap_err().to_string().contains("at least 1"));
        g.apply(0, &trade("GOLD", "STONE", 1)).unwrap();
        assert!(g.apply(0, &Action::Accept).unwrap_err().to_string().contains("own proposal"));
    }

    #[test]
    fn both_players_must_end() {
        let mut g = seed_game();
        assert_eq!(g.apply(0, &Action::End), Ok(Effect::EndProposed));
        // Ending twice alone does not finish the game.
        assert_eq!(g.apply(0, &Action::End), Ok(Effect::EndProposed));
        assert_eq!(g.apply(1, &trade("STONE", "WOOD", 1)), Ok(Effect::Proposed));
        assert_eq!(g.end_by, None, "a new proposal withdraws the end request");
        assert_eq!(g.apply(0, &Action::End), Ok(Effect::EndProposed));
        assert_eq!(g.apply(1, &Action::End), Ok(Effect::Finished));
    }

    #[test]
    fn accepting_an_end_request_ends_the_game() {
        let mut g = seed_game();
        g.apply(0, &Action::End).unwrap();
        assert_eq!(g.apply(1, &Action::Accept), Ok(Effect::Finished));
    }

    #[test]
    fn acceptance_rechecks_affordability() {
        let mut g = seed_game();
        g.apply(0, &trade("WOOD", "STONE", 4)).unwrap();
        g.inventories[1][1] = 3; // as if something else moved meanwhile
        assert!(g.apply(1, &Action::Accept).unwrap_err().to_string().contains("no longer affordable"));
        assert_eq!(g.inventories, [vec![4, 3, 2], vec![1, 3, 2]]);
        assert!(g.pending.is_none());
    }

    fn arb_action() -> impl Strategy<Value = Action> {
        let res = prop::sample::select(vec!["WOOD", "STONE", "GOLD", "SAND", "wood"]);
        prop_oneof![
            (res.clone(), res, -3i64..8).prop_map(|(s, b, q)| trade(s, b, q)),
            Just(Action::Accept),
            Just(Action::Reject),
            Just(Action::End),
        ]
    }

    proptest! {
        #[test]
        fn resources_are_conserved_and_never_negative(
            start_a in prop::collection::vec(0i64..6, 3),
            start_b in prop::collection::vec(0i64..6, 3),
            actions in prop::collection::vec(arb_action(), 0..60),
        ) {
            let mut g = Game::new(vec!["WOOD".into(), "STONE".into(), "GOLD".into()], [start_a.clone(), start_b.clone()]);
            let totals: Vec<i64> = (0..3).map(|r| start_a[r] + start_b[r]).collect();
            let counts = [start_a.iter().sum::<i64>(), start_b.iter().sum::<i64>()];
            for (turn, action) in actions.iter().enumerate() {
                let _ = g.apply(turn % 2, action);
                for (r, total) in totals.iter().enumerate() {
                    prop_assert_eq!(g.inventories[0][r] + g.inventories[1][r], *total);
                    prop_assert!(g.inventories[0][r] >= 0 && g.inventories[1][r] >= 0);
                }
                prop_assert_eq!(g.inventories[0].iter().sum::<i64>(), counts[0]);
                prop_assert_eq!(g.inventories[1].iter().sum::<i64>(), counts[1]);
            }
        }

        #[test]
        fn no_game_beats_the_optimum(
            start_a in prop::collection::vec(0i64..5, 3),
            start_b in prop::collection::vec(0i64..5, 3),
            actions in prop::collection::vec(arb_action(), 0..40),
        ) {
            let (best, _) = optimum(&[start_a.clone(), start_b.clone()], &SCALE);
            let mut g = Game::new(vec!["WOOD".into(), "STONE".into(), "GOLD".into()], [start_a, start_b]);
            for (turn, action) in actions.iter().enumerate() {
                let _ = g.apply(turn % 2, action);
                let overall = inventory_value(&g.inventories[0], &SCALE) + inventory_value(&g.inventories[1], &SCALE);
                prop_assert!(overall <= best);
            }
        }

        #[test]
        fn parse_action_never_panics(reply in ".{0,80}") {
            let _ = parse_action(&reply);
        }
    }
}
