//! One turn of the method: one player's action per turn, the game's rules applied, and the optimizer between games.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::events::{Event, FinishReason, ParseOutcome, Proposal};
use crate::floor::Floor;
use crate::game::negotiation::{inventory_value, optimum, parse_action, Action, Effect, Game, InvalidMove};
use crate::methods::selection::SpeakerSelection;
use crate::model::{
    ChatMessage, ChatRequest, Cue, ModelError, NegotiationCue, OptimizerCue, Purpose, ResponseFormat,
};
use crate::prompts::{fill, NEGOTIATION_STRATEGY};
use crate::scenario::NegotiationSettings;

pub struct Negotiation {
    settings: NegotiationSettings,
    players: [String; 2],
    prompts: [String; 2],
    rules: String,
    optimum: i64,
    iteration: u32,
    game: Game,
    game_turn: u32,
    /// (player, raw reply) as the seed's `conversation`.
    conversation: Vec<(usize, String)>,
    actions: Vec<(String, Option<Action>)>,
    /// The scenario's language line, which every call ends with.
    language: Option<String>,
}

/// "4 WOOD, 3 STONE, and 2 GOLD", as the seed writes an inventory.
pub fn describe_inventory(resources: &[String], quantities: &[i64]) -> String {
    let parts: Vec<String> = resources.iter().zip(quantities).map(|(r, q)| format!("{q} {r}")).collect();
    list(&parts)
}

/// Reads the optimizer's reply: a JSON object with a new prompt per player. Players it leaves out
/// keep their prompt.
pub fn read_prompts(reply: &str, players: &[String; 2]) -> Result<[Option<String>; 2], String> {
    let start = reply.find('{').ok_or(InvalidMove::NoObject.to_string())?;
    let end = reply.rfind('}').filter(|&e| e > start).ok_or(InvalidMove::NotClosed.to_string())?;
    let value: Value = serde_json::from_str(&reply[start..=end])
        .map_err(|e| InvalidMove::NotJson { detail: e.to_string() }.to_string())?;
    let obj = value.as_object().ok_or(InvalidMove::NotAnObject.to_string())?;
    let find = |name: &str| {
        obj.iter()
            .find(|(k, _)| k.trim().eq_ignore_ascii_case(name))
            .and_then(|(_, v)| v.as_str())
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
    };
    let found = [find(&players[0]), find(&players[1])];
    if found.iter().all(Option::is_none) {
        return Err(super::words::NO_NEW_PROMPT.into());
    }
    Ok(found)
}

impl Negotiation {
    pub fn new(floor: &Floor, settings: &NegotiationSettings) -> Self {
        let agents = &floor.scenario().agents;
        let players = [agents[0].name.clone(), agents[1].name.clone()];
        let prompts =
            [0, 1].map(|i| agents[i].system_prompt.clone().unwrap_or_else(|| NEGOTIATION_STRATEGY.into()));
        let start = [settings.inventories[0].clone(), settings.inventories[1].clone()];
        let rules = fill(
            &settings.rules,
            &[
                ("player1", &players[0]),
                ("player2", &players[1]),
                ("resource_list", &list(&settings.resources)),
                ("example_sell", &settings.resources[0]),
                ("example_buy", &settings.resources[1]),
            ],
        );
        Self {
            optimum: optimum(&start, &settings.value_scale).0,
            game: Game::new(settings.resources.clone(), start),
            settings: settings.clone(),
            players,
            prompts,
            rules,
            iteration: 0,
            game_turn: 0,
            conversation: Vec::new(),
            actions: Vec::new(),
            language: floor.language.clone(),
        }
    }

    fn inventories(&self) -> BTreeMap<String, Vec<i64>> {
        per_player(&self.players, |p| self.game.inventories[p].clone())
    }

    fn inventory_event(&self, turn: u32) -> Event {
        let values = per_player(&self.players, |p| {
            inventory_value(&self.game.inventories[p], &self.settings.value_scale)
        });
        Event::Inventory {
            turn,
            resources: self.settings.resources.clone(),
            inventories: self.inventories(),
            values,
        }
    }

    fn prompt_map(&self, prompts: &[String; 2]) -> BTreeMap<String, String> {
        per_player(&self.players, |p| prompts[p].clone())
    }

    fn transcript_text(&self) -> String {
        self.conversation.iter().map(|(p, raw)| format!("{} said: {raw}\n", self.players[*p])).collect()
    }

    fn action_request(&self, player: usize) -> ChatRequest {
        let s = &self.settings;
        let mut messages = vec![
            ChatMessage::system(&self.rules),
            ChatMessage::system(fill(&s.name_message, &[("player", &self.players[player])])),
            ChatMessage::system(&self.prompts[player]),
            ChatMessage::user(fill(
                &s.inventory_message,
                &[("inventory", &describe_inventory(&s.resources, &self.game.inventories[player]))],
            )),
        ];
        if !self.conversation.is_empty() {
            messages.push(ChatMessage::user(&s.transcript_message));
            messages.push(ChatMessage::user(self.transcript_text()));
        }
        let mut req = ChatRequest::new(self.players[player].clone(), Purpose::NegotiationAction, messages)
            .with_cue(Cue::Negotiate(NegotiationCue {
                player: self.players[player].clone(),
                resources: s.resources.clone(),
                inventory: self.game.inventories[player].clone(),
                value_scale: s.value_scale.clone(),
                strategy: self.prompts[player].clone(),
                history: self.actions.clone(),
                game: self.game.clone(),
                seat: player,
            }))
            .in_language(self.language.as_deref());
        req.response_format = ResponseFormat::JsonObject;
        req.temperature = Some(s.temperature);
        req.max_tokens = Some(s.max_tokens);
        req
    }

    async fn end_game(
        &mut self,
        floor: &mut Floor,
        reason: &str,
    ) -> Result<Option<FinishReason>, ModelError> {
        let scale = &self.settings.value_scale;
        let values = [0, 1].map(|p| inventory_value(&self.game.inventories[p], scale));
        let overall = values[0] + values[1];
        let mut feedback = fill(
            &self.settings.feedback,
            &[
                ("player1", &self.players[0]),
                ("player2", &self.players[1]),
                ("value1", &values[0].to_string()),
                ("value2", &values[1].to_string()),
                ("overall", &overall.to_string()),
            ],
        );
        if overall < self.optimum {
            feedback.push_str(&self.settings.feedback_below_optimum);
        }
        floor.push(Event::GameEnd {
            iteration: self.iteration,
            turn: floor.turn,
            scores: per_player(&self.players, |p| values[p]),
            overall,
            optimum: self.optimum,
            reason: reason.into(),
            feedback: feedback.clone(),
        });
        let used = self.prompt_map(&self.prompts);
        let last = self.iteration >= self.settings.iterations;
        if last {
            if self.settings.iterations > 1 {
                floor.push(Event::OptimizerIteration {
                    iteration: self.iteration,
                    prompts: used,
                    overall,
                    next_prompts: None,
                    note: Some(super::words::LAST_GAME_NOTE.into()),
                });
            }
            return Ok(Some(FinishReason::GameOver));
        }

        let req = self.optimizer_request(&feedback, overall);
        let reply = floor.ask(&req).await?;
        let read = reply.response.readable().and_then(|r| read_prompts(&r.content, &self.players));
        let (next, note, parse) = match read {
            Ok(found) => {
                let next = [0, 1].map(|p| found[p].clone().unwrap_or_else(|| self.prompts[p].clone()));
                let map = self.prompt_map(&next);
                (Some(next), None, ParseOutcome::ok(serde_json::to_value(&map).unwrap_or_default()))
            }
            Err(e) => (None, Some(format!("{}{e}", super::words::KEPT_NOTE)), ParseOutcome::failed(e)),
        };
        floor.record_call(&req, 1, &reply, parse);
        floor.push(Event::OptimizerIteration {
            iteration: self.iteration,
            prompts: used,
            overall,
            next_prompts: next.as_ref().map(|n| self.prompt_map(n)),
            note,
        });
        if let Some(next) = next {
            self.prompts = next;
        }
        let start = [self.settings.inventories[0].clone(), self.settings.inventories[1].clone()];
        self.game = Game::new(self.settings.resources.clone(), start);
        self.game_turn = 0;
        self.conversation.clear();
        self.actions.clear();
        Ok(None)
    }

    fn optimizer_request(&self, feedback: &str, overall: i64) -> ChatRequest {
        let s = &self.settings;
        let inventories: Vec<String> = (0..2)
            .map(|p| format!("{}: {}", self.players[p], describe_inventory(&s.resources, &s.inventories[p])))
            .collect();
        let prompts: Vec<String> =
            (0..2).map(|p| format!("{}: {}", self.players[p], self.prompts[p])).collect();
        let prompt = fill(
            &s.optimizer_prompt,
            &[
                ("rules", &self.rules),
                ("inventories", &inventories.join("\n")),
                ("transcript", &self.transcript_text()),
                ("prompts", &prompts.join("\n")),
                ("feedback", feedback),
                ("players", &self.players.join(", ")),
            ],
        );
        let mut req = ChatRequest::new(
            "Optimizer",
            Purpose::Optimizer,
            vec![ChatMessage::system(&s.optimizer_system), ChatMessage::user(prompt)],
        )
        .with_cue(Cue::Optimize(OptimizerCue {
            players: self.players.to_vec(),
            resources: s.resources.clone(),
            start_inventories: s.inventories.clone(),
            value_scale: s.value_scale.clone(),
            prompts: self.prompts.to_vec(),
            overall,
            optimum: self.optimum,
            iteration: self.iteration,
        }))
        .in_language(self.language.as_deref());
        req.response_format = ResponseFormat::JsonObject;
        req
    }
}

impl SpeakerSelection for Negotiation {
    type Settings = NegotiationSettings;

    fn start(floor: &Floor, settings: &NegotiationSettings) -> Self {
        Self::new(floor, settings)
    }

    async fn turn(&mut self, floor: &mut Floor) -> Result<Option<FinishReason>, ModelError> {
        if self.game_turn == 0 {
            self.iteration += 1;
            floor.push(Event::GameStarted {
                iteration: self.iteration,
                prompts: self.prompt_map(&self.prompts),
                optimum: self.optimum,
            });
            floor.push(self.inventory_event(floor.turn));
        }
        let player = (self.game_turn % 2) as usize;
        let name = self.players[player].clone();
        floor.push(Event::SpeakerSelected {
            turn: floor.turn,
            agent: name.clone(),
            tie: false,
            tied: Vec::new(),
        });
        let req = self.action_request(player);
        let reply = floor.ask(&req).await?;
        let raw = reply.response.said().to_string();
        // A refused or filtered move is an unreadable one, whatever text came with it.
        let parsed = reply
            .response
            .readable()
            .map_err(|detail| InvalidMove::Unreadable { detail })
            .and_then(|_| parse_action(&raw));
        let parse = match &parsed {
            Ok(a) => ParseOutcome::ok(serde_json::to_value(a).unwrap_or_default()),
            Err(e) => ParseOutcome::failed(e.to_string()),
        };
        floor.record_call(&req, 1, &reply, parse);
        let outcome = match &parsed {
            Ok(action) => self.game.apply(player, action),
            Err(e) => Err(e.clone()),
        };
        let reason = match &outcome {
            Ok(Effect::Proposed) => "proposed".to_string(),
            Ok(Effect::Traded) => "trade done".to_string(),
            Ok(Effect::Rejected) => "rejected".to_string(),
            Ok(Effect::EndProposed) => "asked to end".to_string(),
            Ok(Effect::Finished) => "game over".to_string(),
            Err(e) => e.to_string(),
        };
        floor.add_said(&name, &raw, &[&reply.response]);
        floor.push(Event::Action {
            turn: floor.turn,
            player: name.clone(),
            raw: raw.clone(),
            action: parsed.clone().ok(),
            valid: outcome.is_ok(),
            reason,
            invalid: outcome.as_ref().err().cloned(),
            pending: self.game.pending.as_ref().map(|t| Proposal {
                by: self.players[t.by].clone(),
                sell_resource: self.settings.resources[t.sell].clone(),
                buy_resource: self.settings.resources[t.buy].clone(),
                quantity: t.quantity,
            }),
            end_requested_by: if outcome == Ok(Effect::Finished) {
                None
            } else {
                self.game.end_by.map(|p| self.players[p].clone())
            },
        });
        if outcome == Ok(Effect::Traded) {
            floor.push(self.inventory_event(floor.turn));
        }
        self.actions.push((name, parsed.ok()));
        self.game_turn += 1;
        let finished = outcome == Ok(Effect::Finished);
        if !finished {
            self.conversation.push((player, raw));
        }
        if finished || self.game_turn >= floor.scenario().max_turns {
            let reason = if finished { "both_ended" } else { "turn_limit" };
            return self.end_game(floor, reason).await;
        }
        Ok(None)
    }
}

/// "WOOD, STONE, and GOLD".
fn list(items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        2 => format!("{} and {}", items[0], items[1]),
        n => format!("{}, and {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

/// One value per player, by name. Filled in one by one: collecting into a map sorts first, and
/// every sort is one more copy of the sort code in the browser build.
fn per_player<V>(players: &[String; 2], mut value: impl FnMut(usize) -> V) -> BTreeMap<String, V> {
    let mut map = BTreeMap::new();
    for (p, name) in players.iter().enumerate() {
        map.insert(name.clone(), value(p));
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inventories_read_like_the_seed() {
        let r: Vec<String> = ["WOOD", "STONE", "GOLD"].map(String::from).to_vec();
        assert_eq!(describe_inventory(&r, &[4, 3, 2]), "4 WOOD, 3 STONE, and 2 GOLD");
    }

    #[test]
    fn optimizer_replies_keep_what_they_leave_out() {
        let players = ["Alice".to_string(), "Bob".to_string()];
        let got = read_prompts(r#"{"alice": "STOCKPILE THESE RESOURCES: WOOD"}"#, &players).unwrap();
        assert_eq!(got, [Some("STOCKPILE THESE RESOURCES: WOOD".into()), None]);
        assert!(read_prompts(r#"{"suggestion": {}}"#, &players).is_err());
        assert!(read_prompts("no json", &players).is_err());
    }
}
