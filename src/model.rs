//! The `ChatModel` abstraction: what the engine asks of any language model.
//!
//! Requests and responses are plain serde data so they can be written into the event log as they
//! are, replayed by the scripted model, and translated by the real providers. A request carries
//! who is asking and why ([`Purpose`]), so logs, statistics and the scripted model can tell calls
//! apart, and a [`Cue`] that only the offline demo model reads.

use futures::future::LocalBoxFuture;
use serde::{Deserialize, Serialize};

/// Who wrote a chat message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    System,
    User,
    Assistant,
}

/// One message of a chat request. (Read back by hand, with the event log: `events/read.rs`.)
#[derive(Debug, PartialEq, Eq, Serialize)]
pub struct ChatMessage {
    pub role: Role,
    pub content: String,
}

// By hand for `clone_from`, which reuses the content's buffer (the derive would allocate anew).
impl Clone for ChatMessage {
    fn clone(&self) -> Self {
        Self { role: self.role, content: self.content.clone() }
    }
    fn clone_from(&mut self, source: &Self) {
        self.role = source.role;
        self.content.clone_from(&source.content);
    }
}

impl ChatMessage {
    pub fn system(content: impl Into<String>) -> Self {
        Self { role: Role::System, content: content.into() }
    }
    pub fn user(content: impl Into<String>) -> Self {
        Self { role: Role::User, content: content.into() }
    }
    pub fn assistant(content: impl Into<String>) -> Self {
        Self { role: Role::Assistant, content: content.into() }
    }
}

/// Why the engine makes a call. Orchestration purposes (bids, director choices, handoff
/// parsing) are counted apart from speech in statistics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Purpose {
    Bid,
    Speak,
    DirectorReflection,
    DirectorChoice,
    DirectorPrompt,
    DirectorSummary,
    Handoff,
    NegotiationAction,
    Optimizer,
    CharacterDescription,
    TopicSpecifier,
    /// The selector method's call that names the next speaker.
    Selector,
    /// The judge's call that scores a finished run (`crate::judge`).
    Judge,
}

impl Purpose {
    pub const ALL: [Purpose; 13] = [
        Purpose::Bid,
        Purpose::Speak,
        Purpose::DirectorReflection,
        Purpose::DirectorChoice,
        Purpose::DirectorPrompt,
        Purpose::DirectorSummary,
        Purpose::Handoff,
        Purpose::NegotiationAction,
        Purpose::Optimizer,
        Purpose::CharacterDescription,
        Purpose::TopicSpecifier,
        Purpose::Selector,
        Purpose::Judge,
    ];

    /// The snake_case name used in the event log and scripted response files.
    pub fn as_str(self) -> &'static str {
        match self {
            Purpose::Bid => "bid",
            Purpose::Speak => "speak",
            Purpose::DirectorReflection => "director_reflection",
            Purpose::DirectorChoice => "director_choice",
            Purpose::DirectorPrompt => "director_prompt",
            Purpose::DirectorSummary => "director_summary",
            Purpose::Handoff => "handoff",
            Purpose::NegotiationAction => "negotiation_action",
            Purpose::Optimizer => "optimizer",
            Purpose::CharacterDescription => "character_description",
            Purpose::TopicSpecifier => "topic_specifier",
            Purpose::Selector => "selector",
            Purpose::Judge => "judge",
        }
    }

    /// The purpose in the language the page speaks ([`crate::i18n`]; logs keep [`Purpose::as_str`]).
    pub fn words(self) -> &'static str {
        use crate::i18n::{say, t};
        match self {
            Purpose::Bid => t(say::PurposeBid),
            Purpose::Speak => t(say::PurposeSpeak),
            Purpose::DirectorReflection => t(say::PurposeDirectorReflection),
            Purpose::DirectorChoice => t(say::PurposeDirectorChoice),
            Purpose::DirectorPrompt => t(say::PurposeDirectorPrompt),
            Purpose::DirectorSummary => t(say::PurposeDirectorSummary),
            Purpose::Handoff => t(say::PurposeHandoff),
            Purpose::NegotiationAction => t(say::PurposeNegotiationAction),
            Purpose::Optimizer => t(say::PurposeOptimizer),
            Purpose::CharacterDescription => t(say::PurposeCharacterDescription),
            Purpose::TopicSpecifier => t(say::PurposeTopicSpecifier),
            Purpose::Selector => t(say::PurposeSelector),
            Purpose::Judge => t(say::PurposeJudge),
        }
    }

    /// The purpose as people read it ("director choice"): the inspector, notes and seats.
    pub fn label(self) -> String {
        self.as_str().replace('_', " ")
    }

    /// Calls that decide who speaks rather than produce what is said.
    pub fn is_orchestration(self) -> bool {
        matches!(self, Purpose::Bid | Purpose::DirectorChoice | Purpose::Selector)
    }

    /// Calls whose reply goes into the transcript as a message: a speech, a handoff turn, a
    /// trading move, the director's prompt or closing words.
    pub fn is_speech(self) -> bool {
        matches!(
            self,
            Purpose::Speak
                | Purpose::Handoff
                | Purpose::NegotiationAction
                | Purpose::DirectorPrompt
                | Purpose::DirectorSummary
        )
    }
}

/// A function the model may call, described by a JSON schema.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub parameters: serde_json::Value,
}

/// The shape the reply must take.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ResponseFormat {
    #[default]
    Text,
    /// Any JSON object.
    JsonObject,
    /// A JSON object that follows `schema`.
    JsonSchema { name: String, schema: serde_json::Value },
}

/// What the engine knows about the moment of a call. Real providers ignore it; the demo model
/// reads it instead of parsing prompts that users are free to rewrite. (Written as JSON for the
/// page's demo module by `ChatRequest::to_json`.)
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub enum Cue {
    #[default]
    None,
    /// Rate the last message: who said it and what.
    Bid {
        last_speaker: Option<String>,
        last_text: String,
        /// Turns since this agent last spoke; `None` if it has not spoken yet.
        turns_since_spoke: Option<u32>,
        /// The turn being bid for.
        #[serde(default)]
        turn: u32,
    },
    /// Say something on the topic, answering the last message.
    Speak {
        topic: String,
        word_limit: u32,
        last_speaker: Option<String>,
        last_text: String,
        /// This is the agent's first speech of the run.
        #[serde(default)]
        first: bool,
    },
    /// The director comments, chooses, prompts, or closes.
    Director {
        topic: String,
        word_limit: u32,
        speakers: Vec<String>,
        /// How many turns each speaker has had, in `speakers` order.
        turns_taken: Vec<u32>,
        last_speaker: Option<String>,
        /// What the last speaker said (empty before anyone spoke).
        last_text: String,
        next_speaker: Option<String>,
    },
    /// Speak and name the next speaker among `options`.
    Handoff {
        topic: String,
        word_limit: u32,
        options: Vec<String>,
        last_speaker: Option<String>,
        last_text: String,
        /// This is the agent's first speech of the run.
        #[serde(default)]
        first: bool,
    },
    /// Name the next speaker among `candidates` (the selector method).
    Select {
        candidates: Vec<String>,
        last_speaker: Option<String>,
        attempt: u32,
        /// For each candidate, how many messages ago it last spoke (the transcript's length
        /// when it has not): what a model reading the history sees of who has been left out.
        #[serde(default)]
        waited: Vec<u32>,
    },
    /// Choose a negotiation action.
    Negotiate(NegotiationCue),
    /// Rewrite the players' prompts from the score.
    Optimize(OptimizerCue),
    /// Describe a character, or make the topic specific.
    Describe { subject: String, topic: String, word_limit: u32 },
}

/// What a negotiating player can see: its own inventory, its strategy prompt, and the actions so
/// far (its own and the other player's, as parsed by the engine).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct NegotiationCue {
    pub player: String,
    pub resources: Vec<String>,
    pub inventory: Vec<i64>,
    pub value_scale: Vec<i64>,
    pub strategy: String,
    /// (player, action) for each earlier turn of this game; `None` where the output was not an
    /// action.
    pub history: Vec<(String, Option<crate::game::negotiation::Action>)>,
    /// The game as it stands, and which of its two players this is: what a person's action is
    /// checked against before it is sent.
    #[serde(skip)]
    pub game: crate::game::negotiation::Game,
    #[serde(skip)]
    pub seat: usize,
}

/// What the demo optimizer can see: the starting inventories and current prompts of both players
/// and the score of the last game.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct OptimizerCue {
    pub players: Vec<String>,
    pub resources: Vec<String>,
    pub start_inventories: Vec<Vec<i64>>,
    pub value_scale: Vec<i64>,
    pub prompts: Vec<String>,
    pub overall: i64,
    pub optimum: i64,
    pub iteration: u32,
}

/// One call to a model. (Written as JSON for the page's demo module by `to_json`, `model/wire.rs`.)
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct ChatRequest {
    /// The agent on whose behalf the call is made (or a role such as "optimizer").
    pub agent: String,
    pub purpose: Purpose,
    pub messages: Vec<ChatMessage>,
    pub tools: Vec<ToolSpec>,
    pub response_format: ResponseFormat,
    pub temperature: Option<f64>,
    pub max_tokens: Option<u32>,
    pub cue: Cue,
    /// Where the floor's conversation so far was copied into the messages, if it was: the log
    /// then compares this prompt with the agent's last one without reading the history twice
    /// (the transcript only grows, so a shorter copy is a prefix of a longer one).
    #[serde(skip)]
    pub history: Option<HistorySpan>,
}

/// Bytes `start..start + len` of message `message` are the first `len` bytes of the floor's
/// conversation (`Transcript::joined`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HistorySpan {
    pub message: usize,
    pub start: usize,
    pub len: usize,
}

impl ChatRequest {
    pub fn new(agent: impl Into<String>, purpose: Purpose, messages: Vec<ChatMessage>) -> Self {
        Self {
            agent: agent.into(),
            purpose,
            messages,
            tools: Vec::new(),
            response_format: ResponseFormat::Text,
            temperature: None,
            max_tokens: None,
            cue: Cue::None,
            history: None,
        }
    }
    pub fn with_cue(mut self, cue: Cue) -> Self {
        self.cue = cue;
        self
    }

    /// Ends the request's instructions with the scenario's language line, when it has one: the
    /// last system message, or the first message of a request that has none. A history held in
    /// a message keeps its place (the line goes after it).
    pub fn in_language(mut self, line: Option<&str>) -> Self {
        let Some(line) = line else { return self };
        let at = self.messages.iter().rposition(|m| m.role == Role::System).unwrap_or(0);
        if let Some(message) = self.messages.get_mut(at) {
            if !message.content.is_empty() {
                message.content.push_str("\n\n");
            }
            message.content.push_str(line);
        }
        self
    }
}

/// A function call the model made.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ToolCall {
    pub name: String,
    /// The arguments as the model wrote them: a JSON text that may be malformed.
    pub arguments: String,
}

/// Tokens a call consumed, as the provider reported them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Usage {
    pub prompt_tokens: u32,
    /// Everything the model wrote, its reasoning included (as OpenAI, DeepSeek and Anthropic count).
    pub completion_tokens: u32,
    /// The part of `completion_tokens` spent reasoning, where the provider says.
    #[serde(skip_serializing_if = "is_zero")]
    pub reasoning_tokens: u32,
}

/// For `skip_serializing_if`: a count written only when there is one.
pub(crate) fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// How long a model that runs on this machine (the in-tab engine) took over a call, by its own
/// clock: reading the prompt and writing the reply, apart from any time the call waited for the
/// engine. Tokens read leave out those the engine kept from an earlier call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EngineTime {
    pub read_tokens: u32,
    /// Tokens of the prompt the engine kept from an earlier call (the part it shares with that
    /// call's prompt), so not read again. Absent in logs written before it was recorded.
    #[serde(default)]
    pub reused_tokens: u32,
    pub read_ms: f64,
    pub written_tokens: u32,
    pub written_ms: f64,
}

impl EngineTime {
    /// The sum of two calls' times.
    pub fn add(&mut self, other: &EngineTime) {
        self.read_tokens += other.read_tokens;
        self.reused_tokens += other.reused_tokens;
        self.read_ms += other.read_ms;
        self.written_tokens += other.written_tokens;
        self.written_ms += other.written_ms;
    }

    /// (tokens read a second, tokens written a second, seconds in all), once both were timed.
    pub fn rates(&self) -> Option<(f64, f64, f64)> {
        (self.written_ms > 0.0 && self.read_ms > 0.0).then(|| {
            (
                f64::from(self.read_tokens) * 1000.0 / self.read_ms,
                f64::from(self.written_tokens) * 1000.0 / self.written_ms,
                (self.read_ms + self.written_ms) / 1000.0,
            )
        })
    }
}

/// How a reply was withheld. (Read back by hand with the event log: `events/read.rs`.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RefusalKind {
    /// The model declined (OpenAI's `refusal` field, Anthropic's `stop_reason: "refusal"`).
    Refused,
    /// The provider's content filter held the reply back (`finish_reason: "content_filter"`).
    Filtered,
    /// A person in the seat gave no answer within the scenario's `seat_timeout_s`.
    Unanswered,
}

/// A reply the model declined to give, or that the provider's filter held back. Whatever text
/// came with it stays in the reply's content (the raw record); it is never read or said.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Refusal {
    pub kind: RefusalKind,
    /// The model's words of refusal, or the provider's explanation; empty when none came.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
}

impl Refusal {
    pub fn new(kind: RefusalKind, text: impl Into<String>) -> Self {
        Self { kind, text: text.into() }
    }

    /// The one wording of a refusal, for parse errors, the terminal, exports and the page.
    pub fn describe(&self) -> String {
        let what = match self.kind {
            RefusalKind::Refused => "the model refused",
            RefusalKind::Filtered => "the provider's content filter withheld the reply",
            RefusalKind::Unanswered => "the person in the seat did not answer in time",
        };
        match (self.kind, self.text.trim()) {
            (RefusalKind::Refused, "") => format!("{what}, giving no reason"),
            (_, "") => what.to_string(),
            (_, words) => format!("{what}: \"{words}\""),
        }
    }
}

/// A model's reply.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ChatResponse {
    /// The answer: what is parsed and shown. Never holds the reasoning.
    pub content: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    #[serde(default)]
    pub usage: Usage,
    /// A streamed reply that broke off before its end marker: the text is what arrived.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub incomplete: bool,
    /// What the model thought before answering: a separate reasoning field of the provider, or
    /// a `<think>` block taken from the front of the text.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reasoning: String,
    /// The reply stopped because it reached its token limit.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
    /// Changes made to the request before the provider accepted it.
    #[serde(skip)]
    pub adapted: Vec<crate::failure::Adaptation>,
    /// The engine's own timing, from a model that runs on this machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<EngineTime>,
    /// The model refused or the provider filtered the reply: nothing in it is an answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refusal: Option<Refusal>,
    /// A person in the agent's seat gave this answer (see `crate::seat`), not a model.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub human: bool,
    /// Who the person was, when the class's phones answer (see `crate::room`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub by: String,
    /// How the model in the tab was told to write this free-text reply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sampling: Option<Sampling>,
}

/// How the model in the tab was told to write one free-text reply (a speech, a description):
/// what `crate::intab::Writing` made of the scenario's settings for this call. Hosted providers
/// never get these.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Sampling {
    /// llama.cpp's repetition penalty (1 is none).
    pub repeat_penalty: f64,
    /// llama.cpp's DRY multiplier (0 is none).
    pub dry_multiplier: f64,
    /// Where the reply was to end: another speaker's line starting ("Name:").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stop: Vec<String>,
    /// A leading "own name:" is taken off the reply.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub strip_name: bool,
    /// What was taken off the front of the reply ("Alice:"), when it started so.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub stripped: String,
}

// Read by hand from the JSON value, and leniently (a value of the wrong kind reads as none): it
// only describes the call, and serde's derived reader costs the first page about a kilobyte.
impl<'de> Deserialize<'de> for Sampling {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let v = serde_json::Value::deserialize(deserializer)?;
        let text = |k: &str| v[k].as_str().unwrap_or_default().to_string();
        Ok(Sampling {
            repeat_penalty: v["repeat_penalty"].as_f64().unwrap_or(1.0),
            dry_multiplier: v["dry_multiplier"].as_f64().unwrap_or_default(),
            stop: v["stop"]
                .as_array()
                .map(|a| a.iter().filter_map(|s| s.as_str().map(String::from)).collect())
                .unwrap_or_default(),
            strip_name: v["strip_name"].as_bool().unwrap_or_default(),
            stripped: text("stripped"),
        })
    }
}

impl Sampling {
    /// The settings in words, for the call inspector.
    pub fn describe(&self) -> String {
        let quote = |s: &str| format!("\"{s}\"");
        let mut out = format!(
            "Written with repetition penalty {} and DRY {}",
            crate::text::fixed(self.repeat_penalty, 2),
            crate::text::fixed(self.dry_multiplier, 2)
        );
        if !self.stop.is_empty() {
            let stops: Vec<String> = self.stop.iter().map(|s| quote(s)).collect();
            out.push_str("; stops at ");
            out.push_str(&stops.join(", "));
        }
        if self.strip_name {
            out.push_str("; ");
            out.push_str(&match self.stripped.as_str() {
                "" => "a leading own name is taken off".to_string(),
                s => quote(s) + " was taken off its start",
            });
        }
        out.push('.');
        out
    }
}

/// The tags local reasoning models put their thinking in, before the answer.
const THINK_TAGS: [(&str, &str); 2] = [("<think>", "</think>"), ("<thinking>", "</thinking>")];

/// Splits a leading `<think>...</think>` (or `<thinking>`) block off `text`: (reasoning,
/// answer). A block never closed (the token limit cut it) is all reasoning. Text that does not
/// start with a block is all answer.
pub fn split_thinking(text: &str) -> (&str, &str) {
    let trimmed = text.trim_start();
    for (open, close) in THINK_TAGS {
        if let Some(rest) = trimmed.strip_prefix(open) {
            return match rest.find(close) {
                Some(end) => (rest[..end].trim(), rest[end + close.len()..].trim_start()),
                None => (rest.trim(), ""),
            };
        }
    }
    ("", text)
}

impl ChatResponse {
    pub fn text(content: impl Into<String>) -> Self {
        Self { content: content.into(), ..Self::default() }
    }

    /// Moves a leading `<think>` block from the content into `reasoning`, after any reasoning
    /// the provider sent apart.
    pub fn separate_reasoning(&mut self) {
        let (thinking, answer) = split_thinking(&self.content);
        if thinking.is_empty() && answer.len() == self.content.len() {
            return;
        }
        let (thinking, answer) = (thinking.to_string(), answer.to_string());
        if !thinking.is_empty() {
            if !self.reasoning.is_empty() {
                self.reasoning.push_str("\n\n");
            }
            self.reasoning.push_str(&thinking);
        }
        self.content = answer;
    }

    /// The reply's answer as it came: its content, or nothing when it was refused or filtered
    /// (the seeds show an unanswered turn as an empty message, never invented text).
    pub fn answer(&self) -> &str {
        if self.refusal.is_some() {
            ""
        } else {
            &self.content
        }
    }

    /// What the reply says aloud: [`ChatResponse::answer`], trimmed.
    pub fn said(&self) -> &str {
        self.answer().trim()
    }

    /// The reply, to be read, unless it was refused or filtered: then the refusal's wording,
    /// which is what a reader reports as the reason it could not be read.
    pub fn readable(&self) -> Result<&ChatResponse, String> {
        match &self.refusal {
            Some(refusal) => Err(refusal.describe()),
            None => Ok(self),
        }
    }

    /// Records a refusal or filter signal; the words of several signals are joined.
    pub fn refuse(&mut self, kind: RefusalKind, text: &str) {
        match &mut self.refusal {
            Some(r) => {
                // A filter outranks the model's own refusal: it says the provider intervened.
                if kind == RefusalKind::Filtered {
                    r.kind = kind;
                }
                r.text.push_str(text);
            }
            None => self.refusal = Some(Refusal::new(kind, text)),
        }
    }

    /// Why a reply gave nothing to read, when it is not the model's wording: it was refused or
    /// filtered, it was all reasoning, or it stopped at its token limit first.
    pub fn why_no_answer(&self) -> Option<String> {
        if let Some(refusal) = &self.refusal {
            return Some(refusal.describe());
        }
        if !self.content.trim().is_empty() || !self.tool_calls.is_empty() {
            return None;
        }
        match (self.truncated, self.reasoning.is_empty()) {
            (true, false) => {
                Some("the reply reached its token limit while still reasoning, before any answer".into())
            }
            (true, true) => Some("the reply reached its token limit before any answer".into()),
            (false, false) => Some("the reply was all reasoning, with no answer".into()),
            (false, true) => None,
        }
    }

    /// What a method's event shows of the reply: [`ChatResponse::raw`], or nothing when it
    /// was refused or filtered (the `model_call` keeps what came with it).
    pub fn answered_raw(&self) -> String {
        if self.refusal.is_some() {
            String::new()
        } else {
            self.raw()
        }
    }

    /// The reply as one string for the log: the content, or the tool calls written out.
    pub fn raw(&self) -> String {
        if self.tool_calls.is_empty() {
            return self.content.clone();
        }
        let calls: Vec<String> =
            self.tool_calls.iter().map(|c| format!("{}({})", c.name, c.arguments)).collect();
        if self.content.is_empty() {
            calls.join("\n")
        } else {
            format!("{}\n{}", self.content, calls.join("\n"))
        }
    }
}

/// Why a call produced no reply.
#[derive(Clone, Debug, PartialEq)]
pub enum ModelError {
    /// The scripted model has no response left for this agent and purpose.
    ScriptExhausted { agent: String, purpose: Purpose },
    /// Anything a provider reports (network, HTTP status, decoding), typed; worded where shown.
    Provider(Box<crate::failure::ProviderError>),
    /// The model cannot be asked at all (the reason says why).
    Unavailable(String),
    /// The user stopped the run while the call was in flight.
    Cancelled,
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ModelError::ScriptExhausted { agent, purpose } => write!(
                f,
                "the script has no response left for agent \"{agent}\" and purpose \"{}\"",
                purpose.as_str()
            ),
            ModelError::Provider(e) => write!(f, "{e}"),
            ModelError::Unavailable(why) => write!(f, "{why}"),
            ModelError::Cancelled => write!(f, "stopped"),
        }
    }
}

impl std::error::Error for ModelError {}

/// Anything that answers chat requests. Calls take `&self` so that independent calls (all bids
/// of a turn) can be in flight at once.
pub trait ChatModel {
    fn complete<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, ModelError>>;
}

/// A rough token count for models that do not report usage (about four bytes a token; bytes,
/// not characters, so the estimate costs nothing however long the prompt).
pub fn estimate_tokens(text: &str) -> u32 {
    (text.len() as u32).div_ceil(4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_leading_think_block_is_reasoning_and_the_rest_is_the_answer() {
        assert_eq!(
            split_thinking("<think>It contradicts me: <9>.</think>\n\n<3>"),
            ("It contradicts me: <9>.", "<3>")
        );
        assert_eq!(split_thinking("  <thinking>hm</thinking>Hello"), ("hm", "Hello"));
        // Cut by the token limit before it closed: all reasoning.
        assert_eq!(split_thinking("<think>Let me weigh <4> against"), ("Let me weigh <4> against", ""));
        // Only a block in front counts; a tag later in the text is the model's words.
        assert_eq!(split_thinking("I <think> so"), ("", "I <think> so"));
        assert_eq!(split_thinking("plain"), ("", "plain"));
    }

    #[test]
    fn separated_reasoning_joins_what_the_provider_sent_apart() {
        let mut r = ChatResponse::text("<think>second</think> answer");
        r.reasoning = "first".into();
        r.separate_reasoning();
        assert_eq!((r.content.as_str(), r.reasoning.as_str()), ("answer", "first\n\nsecond"));
        let mut r = ChatResponse::text("<think>only thoughts</think>");
        r.separate_reasoning();
        assert_eq!(r.why_no_answer().unwrap(), "the reply was all reasoning, with no answer");
        let mut plain = ChatResponse::text("<5>");
        plain.separate_reasoning();
        assert_eq!((plain.content.as_str(), plain.why_no_answer()), ("<5>", None));
        assert_eq!(ChatResponse::text("").why_no_answer(), None, "an empty reply is the model's own doing");
    }
}
