//! The event log: one ordered list of typed events per run, the single source of truth that the
//! UI renders, exports write, replay reads and tests assert on. Documented in docs/events.md.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::game::negotiation::Action;
use crate::model::{Adaptation, ChatMessage, Purpose, ToolCall, ToolSpec, Usage};
use crate::scenario::{Scenario, SpendingCap};

mod read;
pub use read::event_from_value;

impl<'de> Deserialize<'de> for Event {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        event_from_value(serde_json::Value::deserialize(deserializer)?).map_err(serde::de::Error::custom)
    }
}

/// How a message came into the conversation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MessageKind {
    /// Spoken by an agent of the scenario.
    Agent,
    /// Injected from outside (the moderator's or audience's opening).
    Injected,
    /// Spoken by an agent, but the reply broke off before its end: the text is what arrived.
    Incomplete,
}

impl MessageKind {
    /// The kind of an agent's message, from the reply it came in.
    pub fn of_reply(response: &crate::model::ChatResponse) -> MessageKind {
        if response.incomplete {
            MessageKind::Incomplete
        } else {
            MessageKind::Agent
        }
    }
}

/// How the selector's reply was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SelectorMatch {
    /// The reply is a candidate's name exactly.
    Exact,
    /// The same letters, ignoring case, spaces, underscores and surrounding punctuation.
    Loose,
    /// The only agent name the reply mentions.
    Mention,
    /// One candidate only: nobody was asked.
    OnlyCandidate,
    /// No attempt named a candidate; the method's fallback spoke.
    Fallback,
}

/// Why a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FinishReason {
    /// The scenario's turn limit was reached.
    TurnLimit,
    /// The director's stop draw ended the show.
    DirectorStopped,
    /// The negotiation game played all its games.
    GameOver,
    /// The user stopped the run.
    Stopped,
    /// A call failed after its retries; the `error` event before this says why.
    Error,
}

impl FinishReason {
    pub const ALL: [FinishReason; 5] = [
        FinishReason::TurnLimit,
        FinishReason::DirectorStopped,
        FinishReason::GameOver,
        FinishReason::Stopped,
        FinishReason::Error,
    ];

    /// The name written in event logs.
    pub fn as_str(self) -> &'static str {
        match self {
            FinishReason::TurnLimit => "turn_limit",
            FinishReason::DirectorStopped => "director_stopped",
            FinishReason::GameOver => "game_over",
            FinishReason::Stopped => "stopped",
            FinishReason::Error => "error",
        }
    }
}

impl std::fmt::Display for FinishReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One event of a run. Serialized as a JSON object with a snake_case `type`; read back by
/// [`read::event_from_value`].
#[derive(Clone, Debug, PartialEq, Serialize)]
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
        /// The messages sent: in full, or as a change to an earlier call's (see [`Request`]).
        request: Request,
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
        /// A streamed reply that broke off before its end (`raw` is what arrived).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        incomplete: bool,
        /// What the model thought before its answer, kept apart from `raw`.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        reasoning: String,
        /// The reply stopped at its token limit.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        truncated: bool,
        /// Parts of the request the provider refused, and what was done about them.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        adapted: Vec<Adaptation>,
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
        /// The best overall score trading can reach from the starting inventories.
        optimum: i64,
    },
    Action {
        turn: u32,
        player: String,
        raw: String,
        action: Option<Action>,
        valid: bool,
        reason: String,
        /// The proposal waiting for an answer after this action, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pending: Option<Proposal>,
        /// The player who asked to end, while the other has not answered.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        end_requested_by: Option<String>,
    },
    Inventory {
        turn: u32,
        resources: Vec<String>,
        /// Each player's quantities, in `resources` order.
        inventories: BTreeMap<String, Vec<i64>>,
        /// Each player's inventory value on the value scale.
        values: BTreeMap<String, i64>,
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
    /// The selector method named the next speaker.
    SelectorChoice {
        turn: u32,
        /// Who could be named this turn.
        candidates: Vec<String>,
        /// The last attempt's reply (empty when there was a single candidate and no call).
        raw: String,
        agent: String,
        /// How the name was read, or that it was not.
        matched: SelectorMatch,
        /// Calls made (0 with a single candidate).
        attempts: u32,
    },
    Error {
        /// The turn that failed (its events recorded so far belong to it); 0 for the opening.
        #[serde(default)]
        turn: u32,
        message: String,
    },
    RunFinished {
        reason: FinishReason,
    },
    /// The run paused before a turn: what it spent reached the spending cap.
    SpendingCapReached {
        /// The last turn played.
        turn: u32,
        tokens: u64,
        /// At the scenario's prices; absent without prices.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cost: Option<f64>,
        cap: SpendingCap,
    },
    /// The user changed the spending cap of a run under way (raising it lets a capped run go on).
    SpendingCapSet {
        turn: u32,
        cap: SpendingCap,
    },
}

/// A trade proposal waiting for the other player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Proposal {
    pub by: String,
    pub sell_resource: String,
    pub buy_resource: String,
    pub quantity: i64,
}

/// What the engine read from a model's reply: `{"ok": true, "value": ...}` or
/// `{"ok": false, "error": "..."}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ParseOutcome {
    pub ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
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
    /// The turn the event belongs to, for events that carry one.
    pub fn turn(&self) -> Option<u32> {
        match self {
            Event::ModelCall { turn, .. }
            | Event::Bid { turn, .. }
            | Event::SpeakerSelected { turn, .. }
            | Event::Message { turn, .. }
            | Event::DirectorChoice { turn, .. }
            | Event::StopDraw { turn, .. }
            | Event::Handoff { turn, .. }
            | Event::Action { turn, .. }
            | Event::Inventory { turn, .. }
            | Event::GameEnd { turn, .. }
            | Event::Error { turn, .. }
            | Event::SelectorChoice { turn, .. }
            | Event::SpendingCapReached { turn, .. }
            | Event::SpendingCapSet { turn, .. } => Some(*turn),
            Event::RunStarted { .. }
            | Event::TopicSpecified { .. }
            | Event::CharacterDescribed { .. }
            | Event::GameStarted { .. }
            | Event::OptimizerIteration { .. }
            | Event::RunFinished { .. } => None,
        }
    }

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

/// The messages of a call as the log keeps them.
///
/// Prompts repeat the whole history, so a run that kept every prompt whole would grow with the
/// square of its length (a 2,000-message debate would hold gigabytes). A call whose messages
/// extend an earlier call's is kept as that change: for each message, how many bytes of the
/// earlier call's message at the same position stay, and what follows them. [`request_messages`]
/// rebuilds the messages exactly.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Request {
    /// Every message whole: `[{"role": ..., "content": ...}]`.
    Full(Vec<ChatMessage>),
    /// `{"base": <index of an earlier model_call event>, "messages": [...]}`.
    Delta { base: usize, messages: Vec<MessageDelta> },
}

/// One message as a change to the message at the same position in the base call.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MessageDelta {
    pub role: crate::model::Role,
    /// Bytes of the base message's content that this message starts with (0 when the base has
    /// no message at this position).
    pub keep: usize,
    pub append: String,
}

impl Request {
    /// Encodes `messages` against `previous` (the messages of the call at event `base`), or whole
    /// when that saves little.
    pub fn encode(messages: &[ChatMessage], previous: Option<(usize, &[ChatMessage])>) -> Request {
        let Some((base, old)) = previous else { return Request::Full(messages.to_vec()) };
        let deltas: Vec<MessageDelta> = messages
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let keep = old
                    .get(i)
                    .filter(|o| o.role == m.role)
                    .map_or(0, |o| common_prefix(&o.content, &m.content));
                MessageDelta { role: m.role, keep, append: m.content[keep..].to_string() }
            })
            .collect();
        let kept: usize = deltas.iter().map(|d| d.keep).sum();
        if kept < 256 {
            return Request::Full(messages.to_vec());
        }
        Request::Delta { base, messages: deltas }
    }
}

/// The length in bytes of the longest common prefix, at a character boundary of both.
fn common_prefix(a: &str, b: &str) -> usize {
    let len = a.len().min(b.len());
    let (x, y) = (&a.as_bytes()[..len], &b.as_bytes()[..len]);
    // Compare in blocks (a vectorized memcmp) and finish byte by byte: prompts are long.
    const BLOCK: usize = 256;
    let mut n = 0;
    while n + BLOCK <= len && x[n..n + BLOCK] == y[n..n + BLOCK] {
        n += BLOCK;
    }
    n += x[n..].iter().zip(&y[n..]).take_while(|(p, q)| p == q).count();
    while !a.is_char_boundary(n) || !b.is_char_boundary(n) {
        n -= 1;
    }
    n
}

/// The messages of the `model_call` event at `index`, rebuilt whole. `None` when that is not a
/// model call or its chain of bases is broken (a damaged log).
pub fn request_messages(events: &[Event], index: usize) -> Option<Vec<ChatMessage>> {
    let request = |i: usize| match events.get(i) {
        Some(Event::ModelCall { request, .. }) => Some(request),
        _ => None,
    };
    let Request::Delta { messages, .. } = request(index)? else {
        return match request(index)? {
            Request::Full(m) => Some(m.clone()),
            Request::Delta { .. } => None,
        };
    };
    messages
        .iter()
        .enumerate()
        .map(|(pos, d)| {
            let mut pieces = vec![d.append.as_str()];
            prefix_pieces(events, index, pos, d.keep, &mut pieces)?;
            pieces.reverse();
            Some(ChatMessage { role: d.role, content: pieces.concat() })
        })
        .collect()
}

/// Collects, last piece first, the first `len` bytes of message `pos` of the base of the call at
/// `index`, walking back along the chain without rebuilding the strings in between.
fn prefix_pieces<'a>(
    events: &'a [Event],
    mut index: usize,
    pos: usize,
    mut len: usize,
    pieces: &mut Vec<&'a str>,
) -> Option<()> {
    while len > 0 {
        let Some(Event::ModelCall { request: Request::Delta { base, .. }, .. }) = events.get(index) else {
            return None;
        };
        if *base >= index {
            return None; // a base must come earlier; anything else is a damaged log
        }
        index = *base;
        match events.get(index) {
            Some(Event::ModelCall { request: Request::Full(messages), .. }) => {
                pieces.push(messages.get(pos)?.content.get(..len)?);
                return Some(());
            }
            Some(Event::ModelCall { request: Request::Delta { messages, .. }, .. }) => {
                let d = messages.get(pos)?;
                if len > d.keep {
                    pieces.push(d.append.get(..len - d.keep)?);
                    len = d.keep;
                }
            }
            _ => return None,
        }
    }
    Some(())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ChatMessage, Purpose, Usage};

    fn call(request: Request) -> Event {
        Event::ModelCall {
            turn: 1,
            agent: "A".into(),
            purpose: Purpose::Bid,
            attempt: 1,
            request,
            tools: Vec::new(),
            raw: String::new(),
            tool_calls: Vec::new(),
            parse: ParseOutcome::used(),
            latency_ms: 0.0,
            usage: Usage::default(),
            incomplete: false,
            reasoning: String::new(),
            truncated: false,
            adapted: Vec::new(),
        }
    }

    /// Records a sequence of requests the way the engine does and checks every one rebuilds.
    fn round_trip(requests: &[Vec<ChatMessage>]) -> Vec<Event> {
        let mut events = vec![Event::Error { turn: 0, message: "padding".into() }];
        let mut last: Option<(usize, Vec<ChatMessage>)> = None;
        for r in requests {
            let encoded = Request::encode(r, last.as_ref().map(|(i, m)| (*i, m.as_slice())));
            last = Some((events.len(), r.clone()));
            events.push(call(encoded));
        }
        for (k, r) in requests.iter().enumerate() {
            assert_eq!(request_messages(&events, k + 1).as_ref(), Some(r), "request {k}");
        }
        events
    }

    #[test]
    fn growing_histories_are_kept_as_changes_and_rebuilt_exactly() {
        let header = "x".repeat(300);
        let mut requests = Vec::new();
        let mut history = String::from("Here is the conversation so far.");
        for i in 0..200 {
            history.push_str(&format!("\nAgent {}: message number {i} with ünïcödé ✓", i % 3));
            requests.push(vec![
                ChatMessage::system(format!("{header}\n{history}\nrate it: <int>")),
                ChatMessage::user(format!("turn {i}")),
            ]);
        }
        let events = round_trip(&requests);
        // What a call adds to the log stays the same size however long the history grows.
        let second = events[2].to_json().len();
        let last = events.last().unwrap().to_json().len();
        assert!(last <= second + 16, "the 2nd call took {second} bytes, the 200th {last}");
        assert!(requests.last().unwrap()[0].content.len() > 10 * last);
    }

    #[test]
    fn shrinking_reordered_and_unrelated_messages_rebuild_too() {
        let long = "y".repeat(400);
        round_trip(&[
            vec![ChatMessage::system(format!("{long}abc")), ChatMessage::assistant("one")],
            vec![ChatMessage::system(format!("{long}ab"))],
            vec![
                ChatMessage::system(format!("{long}abé")),
                ChatMessage::user("two"),
                ChatMessage::user("three"),
            ],
            vec![ChatMessage::user(format!("{long}abé"))],
            vec![ChatMessage::user("short")],
            vec![ChatMessage::user(format!("{long}{long}"))],
        ]);
    }

    #[test]
    fn damaged_chains_give_none_not_a_panic() {
        let delta = Request::Delta {
            base: 5,
            messages: vec![MessageDelta { role: crate::model::Role::User, keep: 10, append: "x".into() }],
        };
        let events = vec![call(delta.clone())];
        assert_eq!(request_messages(&events, 0), None);
        let events = vec![
            call(Request::Full(vec![ChatMessage::user("abc")])),
            call(Request::Delta {
                base: 0,
                messages: vec![MessageDelta { role: crate::model::Role::User, keep: 10, append: "x".into() }],
            }),
        ];
        assert_eq!(request_messages(&events, 1), None, "keep longer than the base");
        assert_eq!(request_messages(&events, 7), None);
    }
}
