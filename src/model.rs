//! The `ChatModel` abstraction: what the engine asks of any language model.
//!
//! Requests and responses are plain serde data so they can be written into the event log as they
//! are, replayed by the scripted model, and translated by the real providers. A request carries
//! who is asking and why ([`Purpose`]), so logs, statistics and the scripted model can tell calls
//! apart, and a [`Cue`] that only the offline demo model reads.

pub mod demo;
pub mod scripted;

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
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChatMessage {
    pub role: Role,
    pub content: String,
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
}

impl Purpose {
    pub const ALL: [Purpose; 11] = [
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
        }
    }

    /// Calls that decide who speaks rather than produce what is said.
    pub fn is_orchestration(self) -> bool {
        matches!(self, Purpose::Bid | Purpose::DirectorChoice)
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
/// reads it instead of parsing prompts that users are free to rewrite.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Cue {
    #[default]
    None,
    /// Rate the last message: who said it and what.
    Bid {
        last_speaker: Option<String>,
        last_text: String,
        /// Turns since this agent last spoke; `None` if it has not spoken yet.
        turns_since_spoke: Option<u32>,
    },
    /// Say something on the topic, answering the last message.
    Speak { topic: String, word_limit: u32, last_speaker: Option<String>, last_text: String },
    /// The director comments, chooses, prompts, or closes.
    Director {
        topic: String,
        word_limit: u32,
        speakers: Vec<String>,
        /// How many turns each speaker has had, in `speakers` order.
        turns_taken: Vec<u32>,
        last_speaker: Option<String>,
        next_speaker: Option<String>,
    },
    /// Speak and name the next speaker among `options`.
    Handoff {
        topic: String,
        word_limit: u32,
        options: Vec<String>,
        last_speaker: Option<String>,
        last_text: String,
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
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NegotiationCue {
    pub player: String,
    pub resources: Vec<String>,
    pub inventory: Vec<i64>,
    pub value_scale: Vec<i64>,
    pub strategy: String,
    /// (player, action) for each earlier turn of this game; `None` where the output was not an
    /// action.
    pub history: Vec<(String, Option<crate::game::negotiation::Action>)>,
}

/// What the demo optimizer can see: the starting inventories and current prompts of both players
/// and the score of the last game.
#[derive(Clone, Debug, Default, PartialEq)]
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

/// One call to a model.
#[derive(Clone, Debug, PartialEq)]
pub struct ChatRequest {
    /// The agent on whose behalf the call is made (or a role such as "optimizer").
    pub agent: String,
    pub purpose: Purpose,
    pub messages: Vec<ChatMessage>,
    pub tools: Vec<ToolSpec>,
    pub response_format: ResponseFormat,
    pub temperature: Option<f32>,
    pub max_tokens: Option<u32>,
    pub cue: Cue,
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
        }
    }
    pub fn with_cue(mut self, cue: Cue) -> Self {
        self.cue = cue;
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
    pub completion_tokens: u32,
}

/// A model's reply.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ChatResponse {
    pub content: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    #[serde(default)]
    pub usage: Usage,
    /// A streamed reply that broke off before its end marker: the text is what arrived.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub incomplete: bool,
}

impl ChatResponse {
    pub fn text(content: impl Into<String>) -> Self {
        Self { content: content.into(), ..Self::default() }
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelError {
    /// The scripted model has no response left for this agent and purpose.
    ScriptExhausted { agent: String, purpose: Purpose },
    /// Anything a provider reports: network, HTTP status, decoding.
    Provider(String),
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
            ModelError::Provider(msg) => write!(f, "{msg}"),
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
