//! The event log: one ordered list of typed events per run, the single source of truth that the
//! UI renders, exports write, replay reads and tests assert on. Documented in docs/events.md.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::game::negotiation::Action;
use crate::model::{ChatMessage, Purpose, ToolCall, ToolSpec, Usage};
use crate::scenario::Scenario;

/// How a message came into the conversation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MessageKind {
    /// Spoken by an agent of the scenario.
    Agent,
    /// Injected from outside (the moderator's or audience's opening).
    Injected,
}

/// One event of a run. Serialized as a JSON object with a snake_case `type`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    RunStarted {
        seed: u64,
        scenario: Box<Scenario>,
    },
    TopicSpecified {
        original: String,
        specified: String,
    },
    CharacterDescribed {
        agent: String,
        description: String,
    },
    ModelCall {
        turn: u32,
        agent: String,
        purpose: Purpose,
        attempt: u32,
        request: Vec<ChatMessage>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        tools: Vec<ToolSpec>,
        raw: String,
        /// Tool calls of the reply, kept whole so a recorded run can be replayed.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        tool_calls: Vec<ToolCall>,
        /// What the engine read from the reply, or why it could not.
        parse: ParseOutcome,
        latency_ms: f64,
        usage: Usage,
    },
    Bid {
        turn: u32,
        agent: String,
        raw: String,
        value: i64,
        attempts: u32,
        defaulted: bool,
    },
    SpeakerSelected {
        turn: u32,
        agent: String,
        /// True when several agents tied and the run's RNG decided.
        tie: bool,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        tied: Vec<String>,
    },
    Message {
        turn: u32,
        speaker: String,
        text: String,
        kind: MessageKind,
    },
    DirectorChoice {
        turn: u32,
        raw: String,
        index: Option<i64>,
        agent: String,
        fallback: bool,
    },
    StopDraw {
        turn: u32,
        sample: f64,
        probability: f64,
        stop: bool,
    },
    Handoff {
        turn: u32,
        from: String,
        to: String,
        method: String,
        raw: String,
        fallback: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    GameStarted {
        iteration: u32,
        prompts: BTreeMap<String, String>,
    },
    Action {
        turn: u32,
        player: String,
        raw: String,
        action: Option<Action>,
        valid: bool,
        reason: String,
    },
    Inventory {
        turn: u32,
        resources: Vec<String>,
        /// Each player's quantities, in `resources` order.
        inventories: BTreeMap<String, Vec<i64>>,
    },
    GameEnd {
        iteration: u32,
        turn: u32,
        scores: BTreeMap<String, i64>,
        overall: i64,
        optimum: i64,
        reason: String,
        feedback: String,
    },
    OptimizerIteration {
        iteration: u32,
        prompts: BTreeMap<String, String>,
        overall: i64,
        /// The prompts for the next game, when the optimizer produced usable ones.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        next_prompts: Option<BTreeMap<String, String>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        note: Option<String>,
    },
    Error {
        message: String,
    },
    RunFinished {
        reason: String,
    },
}

/// What the engine read from a model's reply: `{"ok": true, "value": ...}` or
/// `{"ok": false, "error": "..."}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ParseOutcome {
    pub ok: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl ParseOutcome {
    pub fn ok(value: impl Into<serde_json::Value>) -> Self {
        Self { ok: true, value: Some(value.into()), error: None }
    }
    /// The reply was used as it is (speech), with nothing to read out of it.
    pub fn used() -> Self {
        Self { ok: true, value: None, error: None }
    }
    pub fn failed(error: impl Into<String>) -> Self {
        Self { ok: false, value: None, error: Some(error.into()) }
    }
}

impl Event {
    /// The event as one JSON line.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("events always serialize")
    }

    /// A copy with measured timings zeroed, for comparing runs.
    pub fn without_timings(&self) -> Event {
        let mut e = self.clone();
        if let Event::ModelCall { latency_ms, .. } = &mut e {
            *latency_ms = 0.0;
        }
        e
    }
}

/// Writes events as JSON Lines.
pub fn to_json_lines(events: &[Event]) -> String {
    let mut out = String::new();
    for e in events {
        out.push_str(&e.to_json());
        out.push('\n');
    }
    out
}

/// Reads JSON Lines back; the error names the line.
pub fn from_json_lines(text: &str) -> Result<Vec<Event>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| serde_json::from_str(l).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}
