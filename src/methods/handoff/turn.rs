//! One turn of the method: the speaker speaks and names the next speaker in the scenario's mode, and a missing or wrong name falls back.

use rand::seq::IndexedRandom;
use regex_lite::Regex;
use serde_json::{json, Value};

use crate::events::{Event, FinishReason, HandoffMiss};
use crate::floor::Floor;
use crate::methods::selection::SpeakerSelection;
use crate::model::{
    ChatMessage, ChatRequest, ChatResponse, Cue, ModelError, Purpose, ResponseFormat, ToolSpec,
};
use crate::prompts::fill;
use crate::scenario::{HandoffSettings, HandoffVia, Stance};

pub struct Handoff {
    settings: HandoffSettings,
    pattern: Regex,
    /// Lowercase names: the values the tool and JSON schemas allow.
    keys: Vec<String>,
    current: usize,
    /// What has been said, as the seed's shared `context.messages`.
    said: Vec<ChatMessage>,
}

/// A handoff read from a reply: what was said and to whom it passes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Read {
    pub text: String,
    pub to: usize,
}

/// A reply that hands off to no one: the code the log keeps and the English words of it.
struct Miss(HandoffMiss, String);

impl From<Miss> for String {
    fn from(miss: Miss) -> String {
        miss.1
    }
}

fn miss(code: HandoffMiss, words: impl Into<String>) -> Miss {
    Miss(code, words.into())
}

impl Handoff {
    pub fn new(floor: &Floor, settings: &HandoffSettings) -> Self {
        let keys: Vec<String> = floor.cast.iter().map(|p| p.name.to_ascii_lowercase()).collect();
        let alternatives: Vec<String> = keys.iter().map(|k| regex_lite::escape(k)).collect();
        let pattern = crate::parse::compile(&fill(&settings.pattern, &[("names", &alternatives.join("|"))]));
        Self {
            current: floor.scenario().agent_index(&settings.first_speaker).unwrap_or(0),
            settings: settings.clone(),
            pattern,
            keys,
            said: Vec::new(),
        }
    }

    fn target(&self, name: &str, from: usize) -> Result<usize, Miss> {
        let name = name.trim();
        let key = name.to_ascii_lowercase();
        match self.keys.iter().position(|k| *k == key) {
            None => Err(miss(HandoffMiss::NotAnAgent { name: name.into() }, format!("\"{name}\" is not an agent"))),
            Some(i) if i == from => {
                Err(miss(HandoffMiss::ToItself { name: name.into() }, format!("\"{name}\" handed off to itself")))
            }
            Some(i) => Ok(i),
        }
    }

    /// Reads the handoff the way the scenario asks for it.
    pub fn read(&self, response: &ChatResponse, from: usize) -> Result<Read, String> {
        self.read_or_miss(response, from).map_err(String::from)
    }

    /// Why `response` hands off to no one the rules take, if it does not.
    fn missed(&self, response: &ChatResponse, from: usize) -> Option<HandoffMiss> {
        match response.readable() {
            Err(_) => Some(HandoffMiss::NoAnswer),
            Ok(_) if response.why_no_answer().is_some() => Some(HandoffMiss::NoAnswer),
            Ok(_) => self.read_or_miss(response, from).err().map(|m| m.0),
        }
    }

    fn read_or_miss(&self, response: &ChatResponse, from: usize) -> Result<Read, Miss> {
        match self.settings.via {
            HandoffVia::Text => {
                let caps = self
                    .pattern
                    .captures(&response.content)
                    .ok_or_else(|| miss(HandoffMiss::NamesNoOne, "the reply names no next speaker"))?;
                let to = self.target(caps.get(1).map_or("", |m| m.as_str()), from)?;
                Ok(Read { text: response.content.trim().to_string(), to })
            }
            HandoffVia::Tool => {
                let call = response
                    .tool_calls
                    .iter()
                    .find(|c| c.name == "handoff")
                    .ok_or_else(|| miss(HandoffMiss::NoToolCall, "the reply made no handoff tool call"))?;
                let args: Value = serde_json::from_str(&call.arguments).map_err(|e| {
                    miss(HandoffMiss::ArgumentsNotJson, format!("the tool call's arguments are not valid JSON: {e}"))
                })?;
                self.read_fields(&args, from)
            }
            HandoffVia::Json => {
                let value: Value = serde_json::from_str(response.content.trim())
                    .map_err(|e| miss(HandoffMiss::NotJson, format!("the reply is not valid JSON: {e}")))?;
                self.read_fields(&value, from)
            }
        }
    }

    fn read_fields(&self, value: &Value, from: usize) -> Result<Read, Miss> {
        let field = |name: &str| {
            value.get(name).and_then(Value::as_str).ok_or_else(|| {
                miss(HandoffMiss::NoField { field: name.into() }, format!("no \"{name}\" field"))
            })
        };
        let text = field("response")?;
        let next = field("next_agent_name")?;
        Ok(Read { text: text.trim().to_string(), to: self.target(next, from)? })
    }

    /// What to show as said when the handoff could not be read: the best text the reply has.
    fn spoken(&self, response: &ChatResponse) -> String {
        if response.refusal.is_some() {
            return String::new();
        }
        let from_json = |text: &str| {
            serde_json::from_str::<Value>(text)
                .ok()
                .and_then(|v| v.get("response").and_then(Value::as_str).map(str::to_string))
        };
        let found = match self.settings.via {
            HandoffVia::Text => None,
            HandoffVia::Tool => response.tool_calls.first().and_then(|c| from_json(&c.arguments)),
            HandoffVia::Json => from_json(response.content.trim()),
        };
        found.unwrap_or_else(|| response.content.trim().to_string())
    }

    fn request(&self, floor: &Floor, from: usize) -> ChatRequest {
        let agent = &floor.scenario().agents[from];
        let others: Vec<&String> =
            self.keys.iter().enumerate().filter(|(i, _)| *i != from).map(|(_, k)| k).collect();
        let transitions: Vec<String> = others.iter().map(|k| format!("'Transition to {k}'")).collect();
        let stance = agent.stance.unwrap_or(Stance::Neutral).phrase();
        let template = match self.settings.via {
            HandoffVia::Tool => &self.settings.tool_instructions,
            HandoffVia::Text | HandoffVia::Json => &self.settings.text_instructions,
        };
        let instructions = match &agent.system_prompt {
            Some(own) => own.clone(),
            None => fill(
                template,
                &[
                    ("stance", stance),
                    ("topic", &floor.topic),
                    ("name", &agent.name),
                    ("transitions", &transitions.join(" or ")),
                    ("word_limit", &floor.scenario().word_limit.to_string()),
                ],
            ),
        };
        let mut messages = Vec::with_capacity(self.said.len() + 1);
        messages.push(ChatMessage::system(instructions));
        messages.extend(self.said.iter().cloned());
        let last = floor.transcript.last();
        let mut req =
            ChatRequest::new(agent.name.clone(), Purpose::Handoff, messages).with_cue(Cue::Handoff {
                topic: floor.topic.clone(),
                word_limit: floor.scenario().word_limit,
                options: others.iter().map(|k| k.to_string()).collect(),
                last_speaker: last.map(|l| l.speaker.clone()),
                last_text: last.map(|l| l.text.clone()).unwrap_or_default(),
                first: !floor.has_asked(&agent.name, Purpose::Handoff),
            })
            .in_language(floor.language.as_deref());
        req.max_tokens = Some(self.settings.max_tokens);
        req.temperature = self.settings.temperature;
        let fields = json!({
            "response": {"type": "string", "description": self.settings.response_description},
            "next_agent_name": {"type": "string", "description": self.settings.next_description, "enum": self.keys},
        });
        let schema =
            json!({"type": "object", "properties": fields, "required": ["response", "next_agent_name"]});
        match self.settings.via {
            HandoffVia::Text => {}
            HandoffVia::Tool => req.tools.push(ToolSpec {
                name: "handoff".into(),
                description: self.settings.tool_description.clone(),
                parameters: schema,
            }),
            HandoffVia::Json => {
                req.response_format = ResponseFormat::JsonSchema { name: "DebateResponse".into(), schema }
            }
        }
        req
    }
}

impl SpeakerSelection for Handoff {
    type Settings = HandoffSettings;

    fn start(floor: &Floor, settings: &HandoffSettings) -> Self {
        Self::new(floor, settings)
    }

    async fn turn(&mut self, floor: &mut Floor) -> Result<Option<FinishReason>, ModelError> {
        floor.push(Event::SpeakerSelected {
            turn: floor.turn,
            agent: floor.cast[self.current].name.clone(),
            tie: false,
            tied: Vec::new(),
        });
        let from = floor.floor_for(self.current);
        let name = floor.cast[from].name.clone();
        let req = self.request(floor, from);
        let asked =
            floor.ask_until(&req, self.settings.attempts, |r| self.read(r, from).map(|h| h.to)).await?;
        floor.record_asked(&req, &asked);
        let (last_reply, last_parse) = asked.attempts.last().expect("at least one attempt");
        let response = last_reply.response.clone();
        let (text, to, reason, missed) = match asked.value {
            Some(_) => {
                let read = self.read(&response, from).expect("the accepted reply reads again");
                (read.text, read.to, None, None)
            }
            None => {
                let others: Vec<usize> = (0..floor.cast.len()).filter(|&i| i != from).collect();
                let to = *others.choose(&mut floor.rng).expect("at least two agents");
                (self.spoken(&response), to, last_parse.error.clone(), self.missed(&response, from))
            }
        };
        floor.add_said(&name, &text, &[&response]);
        self.said.push(ChatMessage::assistant(text));
        floor.push(Event::Handoff {
            turn: floor.turn,
            from: name,
            to: floor.cast[to].name.clone(),
            method: self.settings.via.as_str().into(),
            raw: response.answered_raw(),
            fallback: reason.is_some(),
            reason,
            missed,
        });
        self.current = to;
        Ok(None)
    }
}
