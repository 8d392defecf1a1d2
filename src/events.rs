//! The event log: one ordered list of typed events per run, the single source of truth that the
//! UI renders, exports write, replay reads and tests assert on. Documented in docs/events.md.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::failure::Adaptation;
use crate::game::negotiation::{Action, InvalidMove};
use crate::judge::scorecard::{Score, Scorecard};
use crate::model::{
    ChatMessage, EngineTime, HistorySpan, Purpose, Refusal, Sampling, ToolCall, ToolSpec, Usage,
};
use crate::scenario::{Scenario, SpendingCap};

mod read;
pub(crate) mod write;

use crate::json::{Fields, Kept};

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
    /// The agent's turn, but the model refused to answer: the text is what the agents heard
    /// (empty, or the part of the message that was not refused); the words are in `refusal`.
    Refused,
    /// The agent's turn, but the provider's content filter withheld the reply.
    Filtered,
    /// The agent's turn, but the model answered nothing, with no refusal and no filter.
    Empty,
    /// The agent's turn, taken by a person who did not answer within the scenario's time.
    Unanswered,
}

impl MessageKind {
    /// The kind of an agent's message `text`, made of `replies` (one, or the director's
    /// reflection and prompt), and the words of any refusal among them.
    pub fn of_replies(text: &str, replies: &[&crate::model::ChatResponse]) -> (MessageKind, String) {
        let mut kind = MessageKind::Agent;
        let mut words = String::new();
        for r in replies {
            if let Some(refusal) = &r.refusal {
                if kind != MessageKind::Filtered {
                    kind = match refusal.kind {
                        crate::model::RefusalKind::Refused => MessageKind::Refused,
                        crate::model::RefusalKind::Filtered => MessageKind::Filtered,
                        crate::model::RefusalKind::Unanswered => MessageKind::Unanswered,
                    };
                }
                let said = refusal.text.trim();
                if !said.is_empty() {
                    if !words.is_empty() {
                        words.push(' ');
                    }
                    words.push_str(said);
                }
            } else if r.incomplete && kind == MessageKind::Agent {
                kind = MessageKind::Incomplete;
            }
        }
        if kind == MessageKind::Agent && text.trim().is_empty() {
            kind = MessageKind::Empty;
        }
        (kind, words)
    }

    /// What a reader is told about a message of this kind beside its text (the one wording
    /// of it: the terminal, the Markdown export and the page use it); `None` for ordinary ones.
    pub fn note(self, refusal: &str) -> Option<String> {
        use crate::model::{Refusal, RefusalKind};
        Some(match self {
            MessageKind::Agent | MessageKind::Injected => return None,
            MessageKind::Incomplete => "the reply broke off before its end; this is what arrived".into(),
            MessageKind::Refused => Refusal::new(RefusalKind::Refused, refusal).describe(),
            MessageKind::Filtered => Refusal::new(RefusalKind::Filtered, refusal).describe(),
            MessageKind::Empty => "the model answered nothing".into(),
            MessageKind::Unanswered => Refusal::new(RefusalKind::Unanswered, refusal).describe(),
        })
    }

    /// The short tag shown beside the speaker.
    pub fn tag(self) -> Option<&'static str> {
        match self {
            MessageKind::Agent => None,
            MessageKind::Injected => Some("injected"),
            MessageKind::Incomplete => Some("incomplete"),
            MessageKind::Refused => Some("refused"),
            MessageKind::Filtered => Some("filtered"),
            MessageKind::Empty => Some("empty"),
            MessageKind::Unanswered => Some("unanswered"),
        }
    }

    /// The tag a reader sees beside the message: the log's word, but for a message from outside
    /// the cast (the moderator's opening, the class's interjection), which is said plainly.
    pub fn label(self) -> Option<&'static str> {
        use crate::i18n::{say, t};
        Some(match self {
            MessageKind::Agent => return None,
            MessageKind::Injected => t(say::KindInjected),
            MessageKind::Incomplete => t(say::KindIncomplete),
            MessageKind::Refused => t(say::KindRefused),
            MessageKind::Filtered => t(say::KindFiltered),
            MessageKind::Empty => t(say::KindEmpty),
            MessageKind::Unanswered => t(say::KindUnanswered),
        })
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

/// Why a reply handed the floor to no one the rules take. The log keeps it (the `missed` of a
/// `handoff` event) beside its English words (`reason`), so a page says it in its own language.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum HandoffMiss {
    /// The call was refused or filtered, or its reply had no answer (`reason` says which).
    NoAnswer,
    NamesNoOne,
    NotAnAgent {
        name: String,
    },
    ToItself {
        name: String,
    },
    NoToolCall,
    ArgumentsNotJson,
    NotJson,
    /// A tool call's or JSON reply's field is missing.
    NoField {
        field: String,
    },
}

impl HandoffMiss {
    /// Reads a logged code back; `None` for a code this build does not know (its reading is then
    /// an error, as an unknown value of any field of the log is).
    pub fn from_value(value: &serde_json::Value) -> Option<HandoffMiss> {
        let text = |key: &str| value.get(key).and_then(serde_json::Value::as_str).map(str::to_string);
        Some(match value.get("code")?.as_str()? {
            "no_answer" => HandoffMiss::NoAnswer,
            "names_no_one" => HandoffMiss::NamesNoOne,
            "not_an_agent" => HandoffMiss::NotAnAgent { name: text("name")? },
            "to_itself" => HandoffMiss::ToItself { name: text("name")? },
            "no_tool_call" => HandoffMiss::NoToolCall,
            "arguments_not_json" => HandoffMiss::ArgumentsNotJson,
            "not_json" => HandoffMiss::NotJson,
            "no_field" => HandoffMiss::NoField { field: text("field")? },
            _ => return None,
        })
    }
}

impl<'de> Deserialize<'de> for HandoffMiss {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = serde_json::Value::deserialize(deserializer)?;
        HandoffMiss::from_value(&value).ok_or_else(|| serde::de::Error::custom("an unknown handoff miss"))
    }
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

    /// Why the run ended, in words (see also `RunView::ending`, which says a stop draw's odds).
    pub fn label(self) -> &'static str {
        match self {
            FinishReason::TurnLimit => "turn limit reached",
            FinishReason::DirectorStopped => "the director ended the show",
            FinishReason::GameOver => "all games played",
            FinishReason::Stopped => "stopped",
            FinishReason::Error => "an error ended the run",
        }
    }

    /// Why the run ended, in the language the page speaks ([`crate::i18n`]; event logs and
    /// traces keep [`FinishReason::label`]'s English).
    pub fn words(self) -> &'static str {
        use crate::i18n::{say, t};
        match self {
            FinishReason::TurnLimit => t(say::FinishTurnLimit),
            FinishReason::DirectorStopped => t(say::FinishDirector),
            FinishReason::GameOver => t(say::FinishGameOver),
            FinishReason::Stopped => t(say::FinishStopped),
            FinishReason::Error => t(say::FinishError),
        }
    }

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

/// Declares the events once: each variant's `type`, and each field's name, type, reader and
/// whether it is left out when empty (`unless empty`). From this one list come the enum,
/// [`Event::write_json`] (the `type`, then each field in order), [`event_from_value`] (reading
/// each field with the [`Fields`] reader named after `=`, under the same name) and
/// [`EVENT_FIELDS`] (what docs/events.md must name).
///
/// Events are written by hand rather than by serde's derive: the derive's code for twenty
/// variants cost the page about 2 KB gzipped, and the log's form is fixed by docs/events.md.
macro_rules! events {
    ($(
        $(#[$vmeta:meta])*
        $variant:ident $tag:literal {
            $($(#[$fmeta:meta])* $field:ident: $ty:ty = $read:ident $(unless $omit:ident)?,)*
        }$(,)?
    )*) => {
        /// One event of a run: a JSON object with its `type`.
        // Not compared in the browser: equality's code for every event is 4 KB of the first page,
        // and the page compares logs by their JSON ([`Event::same_but_timings`]).
        #[derive(Clone, Debug)]
        #[cfg_attr(not(target_arch = "wasm32"), derive(PartialEq))]
        pub enum Event {
            $(
                $(#[$vmeta])*
                $variant {
                    $($(#[$fmeta])* $field: $ty,)*
                },
            )*
        }

        impl Event {
            /// Appends the event as one JSON object, as docs/events.md describes it.
            pub fn write_json(&self, out: &mut Vec<u8>) {
                match self {
                    $(Event::$variant { $($field),* } => {
                        out.extend_from_slice(concat!("{\"type\":\"", $tag, "\"").as_bytes());
                        $(
                            if !(false $(|| write::$omit($field))?) {
                                write::field(out, concat!(",\"", stringify!($field), "\":"), $field);
                            }
                        )*
                    })*
                }
                out.push(b'}');
            }
        }

        /// The event a JSON value holds, or what is wrong with it. Unknown fields are ignored,
        /// a field written only when it is not empty reads as empty when absent, anything else
        /// missing is an error naming it.
        pub fn event_from_value(value: serde_json::Value) -> Result<Event, String> {
            let mut f = Fields::new(value, "an event")?;
            let kind = f.string("type")?;
            f.describe(format!("a {kind} event"));
            Ok(match kind.as_str() {
                $($tag => Event::$variant { $($field: f.$read(stringify!($field))?,)* },)*
                other => return Err(format!("unknown event type `{other}`")),
            })
        }

        /// Every event type and its fields, as written.
        pub const EVENT_FIELDS: &[(&str, &[&str])] = &[$(($tag, &[$(stringify!($field)),*])),*];
    };
}

events! {
    RunStarted "run_started" {
        seed: u64 = u64,
        scenario: Box<Scenario> = any,
    },
    TopicSpecified "topic_specified" {
        original: String = string,
        specified: String = string,
    },
    CharacterDescribed "character_described" {
        agent: String = string,
        description: String = string,
    },
    ModelCall "model_call" {
        turn: u32 = u32,
        agent: String = string,
        purpose: Purpose = any,
        attempt: u32 = u32,
        /// The messages sent: in full, or as a change to an earlier call's (see [`Request`]).
        request: Request = any,
        tools: Vec<ToolSpec> = any_or_default unless empty,
        raw: String = string,
        /// Tool calls of the reply, kept whole so a recorded run can be replayed.
        tool_calls: Vec<ToolCall> = any_or_default unless empty,
        /// What the engine read from the reply, or why it could not.
        parse: ParseOutcome = any,
        latency_ms: f64 = f64,
        usage: Usage = any,
        /// A streamed reply that broke off before its end (`raw` is what arrived).
        incomplete: bool = bool_or_false unless empty,
        /// What the model thought before its answer, kept apart from `raw`.
        reasoning: String = string_or_empty unless empty,
        /// The reply stopped at its token limit.
        truncated: bool = bool_or_false unless empty,
        /// Parts of the request the provider refused, and what was done about them.
        adapted: Vec<Adaptation> = any_or_default unless empty,
        /// The in-tab engine's own timing of the call (a measured timing, as `latency_ms`).
        engine: Option<EngineTime> = any_or_default unless empty,
        /// The model refused or the provider filtered the reply (`raw` keeps any text that
        /// came with it, which is never read as an answer).
        refusal: Option<Refusal> = any_or_default unless empty,
        /// A person in the seat answered, not a model (`crate::seat`).
        human: bool = bool_or_false unless empty,
        /// Who that person was, when the class's phones answer (`crate::room`).
        by: String = string_or_empty unless empty,
        /// How the model in the tab was told to write a free-text reply.
        sampling: Option<Box<Sampling>> = any_or_default unless empty,
    },
    Bid "bid" {
        turn: u32 = u32,
        agent: String = string,
        raw: String = string,
        value: i64 = i64,
        attempts: u32 = u32,
        defaulted: bool = bool,
    },
    SpeakerSelected "speaker_selected" {
        turn: u32 = u32,
        agent: String = string,
        /// True when several agents tied and the run's RNG decided.
        tie: bool = bool,
        tied: Vec<String> = any_or_default unless empty,
    },
    /// The class gave the floor to someone other than (or the same as) the method's choice,
    /// recorded beside it: the method's own `speaker_selected` stays in the log.
    FloorGiven "floor_given" {
        turn: u32 = u32,
        agent: String = string,
        /// Whom the method chose.
        instead_of: String = string,
    },
    /// A student voted, from their phone, for who should speak next (`crate::room`).
    FloorVote "floor_vote" {
        turn: u32 = u32,
        by: String = string,
        agent: String = string,
    },
    Message "message" {
        turn: u32 = u32,
        speaker: String = string,
        /// What the agents hear: for a refused, filtered or empty turn, empty (or the part that
        /// was not refused), never invented text.
        text: String = string,
        kind: MessageKind = any,
        /// The model's words of refusal, for a `refused` or `filtered` message that had any.
        refusal: String = string_or_empty unless empty,
    },
    DirectorChoice "director_choice" {
        turn: u32 = u32,
        raw: String = string,
        index: Option<i64> = opt_i64,
        agent: String = string,
        fallback: bool = bool,
    },
    StopDraw "stop_draw" {
        turn: u32 = u32,
        sample: f64 = f64,
        probability: f64 = f64,
        stop: bool = bool,
        /// The class pressed "End the show": the show stops whatever the draw (which is still
        /// made, so the run's later draws stay the same).
        ended_by_class: bool = bool_or_false unless empty,
    },
    Handoff "handoff" {
        turn: u32 = u32,
        from: String = string,
        to: String = string,
        method: String = string,
        raw: String = string,
        fallback: bool = bool,
        reason: Option<String> = opt_string unless empty,
        /// Why the reply handed off to no one, as a code with its values (`reason` says it in
        /// English); none when it named someone, and in logs from before it was kept.
        missed: Option<HandoffMiss> = any_or_default unless empty,
    },
    GameStarted "game_started" {
        iteration: u32 = u32,
        prompts: BTreeMap<String, String> = any,
        /// The best overall score trading can reach from the starting inventories.
        optimum: i64 = i64,
    },
    Action "action" {
        turn: u32 = u32,
        player: String = string,
        raw: String = string,
        action: Option<Action> = any_or_default,
        valid: bool = bool,
        reason: String = string,
        /// Why an invalid action was refused, as a code with its values (`reason` says it in
        /// English); none for a valid one, and in logs from before it was kept.
        invalid: Option<InvalidMove> = any_or_default unless empty,
        /// The proposal waiting for an answer after this action, if any.
        pending: Option<Proposal> = any_or_default unless empty,
        /// The player who asked to end, while the other has not answered.
        end_requested_by: Option<String> = opt_string unless empty,
    },
    Inventory "inventory" {
        turn: u32 = u32,
        resources: Vec<String> = any,
        /// Each player's quantities, in `resources` order.
        inventories: BTreeMap<String, Vec<i64>> = any,
        /// Each player's inventory value on the value scale.
        values: BTreeMap<String, i64> = any,
    },
    GameEnd "game_end" {
        iteration: u32 = u32,
        turn: u32 = u32,
        scores: BTreeMap<String, i64> = any,
        overall: i64 = i64,
        optimum: i64 = i64,
        reason: String = string,
        feedback: String = string,
    },
    OptimizerIteration "optimizer_iteration" {
        iteration: u32 = u32,
        prompts: BTreeMap<String, String> = any,
        overall: i64 = i64,
        /// The prompts for the next game, when the optimizer produced usable ones.
        next_prompts: Option<BTreeMap<String, String>> = any_or_default unless empty,
        note: Option<String> = opt_string unless empty,
    },
    /// The selector method named the next speaker.
    SelectorChoice "selector_choice" {
        turn: u32 = u32,
        /// Who could be named this turn.
        candidates: Vec<String> = any,
        /// The last attempt's reply (empty when there was a single candidate and no call).
        raw: String = string,
        agent: String = string,
        /// How the name was read, or that it was not.
        matched: SelectorMatch = any,
        /// Calls made (0 with a single candidate).
        attempts: u32 = u32,
    },
    Error "error" {
        /// The turn that failed (its events recorded so far belong to it); 0 for the opening,
        /// and in older logs, which did not write it.
        turn: u32 = u32_or_zero,
        message: String = string,
    },
    RunFinished "run_finished" {
        reason: FinishReason = any,
    },
    /// The run paused before a turn: what it spent reached the spending cap.
    SpendingCapReached "spending_cap_reached" {
        /// The last turn played.
        turn: u32 = u32,
        tokens: u64 = u64,
        /// At the scenario's prices; absent without prices.
        cost: Option<f64> = maybe_f64 unless empty,
        cap: SpendingCap = any,
    },
    /// The user changed the spending cap of a run under way (raising it lets a capped run go on).
    SpendingCapSet "spending_cap_set" {
        turn: u32 = u32,
        cap: SpendingCap = any,
    },
    /// The judge's scores of the run, after its `model_call`s with purpose `judge` (see
    /// `crate::judge`). A run judged again gets another verdict; the newest counts.
    Verdict "verdict" {
        /// Who judged: a provider and model, or the demo judge.
        judge: String = string,
        /// The judge is the model the agents speak with.
        same_model: bool = bool_or_false unless empty,
        /// Each agent's scorecard, in the cast's order (kept as written: the page passes them
        /// on to the tools module, which reads them).
        agents: Kept<Vec<Scorecard>> = kept,
        /// The conversation's scorecard, when the rubric scores it.
        conversation: Kept<Option<Scorecard>> = kept_or_default unless empty,
        /// Why there are no scores (no readable verdict in every attempt); empty when judged.
        not_judged: String = string_or_empty unless empty,
    },
    /// The judge's score of one speech as it landed (`judge.live`), after its `model_call`s
    /// with purpose `judge`. Kept after the run's end, as a verdict is (see
    /// `crate::judge::live`).
    SpeechScored "speech_scored" {
        /// The speech's turn and speaker.
        turn: u32 = u32,
        agent: String = string,
        /// Who judged, as in a verdict.
        judge: String = string,
        /// Each dimension of the agent rubric (kept as written, as a verdict's scorecards are).
        scores: Kept<Vec<Score>> = kept,
        /// The mean of the scores; absent when not judged.
        mean: Option<f64> = maybe_f64 unless empty,
        reasoning: String = string_or_empty unless empty,
        /// Why there are no scores; empty when judged.
        not_judged: String = string_or_empty unless empty,
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
    /// A speech reply: used as it is, unless it was refused or filtered.
    pub fn of_speech(response: &crate::model::ChatResponse) -> Self {
        match response.readable() {
            Ok(_) => Self::used(),
            Err(refusal) => Self::failed(refusal),
        }
    }
}

/// The one wording of a speaker the run's seeded RNG chose (a `speaker_selected` event with
/// `tie`: tied bids, or a random draw), for the terminal, the Markdown export and the page.
pub fn draw_note(among: &[String]) -> String {
    use crate::i18n::{say, t, tf};
    tf(say::DrawNote, &[("names", &among.join(t(say::ListAnd)))])
}

/// The one wording of a `floor_given` event, for the terminal, the Markdown export and the page.
pub fn floor_note(agent: &str, instead_of: &str) -> String {
    use crate::i18n::{say, tf};
    if agent == instead_of {
        tf(say::FloorNoteSame, &[("agent", &agent)])
    } else {
        tf(say::FloorNoteOther, &[("agent", &agent), ("other", &instead_of)])
    }
}

impl Event {
    /// The turn the event belongs to, for events that carry one.
    pub fn turn(&self) -> Option<u32> {
        match self {
            Event::ModelCall { turn, .. }
            | Event::Bid { turn, .. }
            | Event::SpeakerSelected { turn, .. }
            | Event::FloorGiven { turn, .. }
            | Event::FloorVote { turn, .. }
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
            | Event::RunFinished { .. }
            // A speech's score came after it, asked outside the run's turns.
            | Event::SpeechScored { .. }
            | Event::Verdict { .. } => None,
        }
    }

    /// For a refused or filtered call whose refusal no message shows (a bid, a choice, a
    /// description): who was asked, for what, and the refusal, worded once for every reader.
    pub fn refused_call_note(&self) -> Option<String> {
        let Event::ModelCall { agent, purpose, attempt, refusal: Some(refusal), .. } = self else {
            return None;
        };
        if purpose.is_speech() || *purpose == Purpose::DirectorReflection {
            return None;
        }
        Some(format!("{agent}, {} (attempt {attempt}): {}", purpose.label(), refusal.describe()))
    }

    /// The event as one JSON line.
    pub fn to_json(&self) -> String {
        let mut out = Vec::new();
        self.write_json(&mut out);
        write::text(out)
    }

    /// The events as a JSON array on one line.
    pub fn list_json(events: &[Event]) -> String {
        let mut out = Vec::new();
        Event::write_list(events, &mut out);
        write::text(out)
    }

    /// Appends the events as a JSON array.
    pub fn write_list(events: &[Event], out: &mut Vec<u8>) {
        out.push(b'[');
        for (i, event) in events.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            event.write_json(out);
        }
        out.push(b']');
    }

    /// Whether two events are the same but for their measured timings.
    pub fn same_but_timings(&self, other: &Event) -> bool {
        self.without_timings().to_json() == other.without_timings().to_json()
    }

    /// A copy with measured timings zeroed, for comparing runs.
    pub fn without_timings(&self) -> Event {
        let mut e = self.clone();
        if let Event::ModelCall { latency_ms, engine, .. } = &mut e {
            *latency_ms = 0.0;
            if let Some(t) = engine {
                *t = EngineTime::default();
            }
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
        Request::encode_knowing(messages, previous, None)
    }

    /// [`Request::encode`], told that message `known.message` of both calls holds the same bytes
    /// at `known.start..known.start + known.len` (the history both copied): those are not
    /// compared again.
    pub fn encode_knowing(
        messages: &[ChatMessage],
        previous: Option<(usize, &[ChatMessage])>,
        known: Option<HistorySpan>,
    ) -> Request {
        Request::encode_around(messages, previous, known, None)
    }

    /// [`Request::encode_knowing`] against messages whose message `cut.message` holds only the
    /// text before and after `cut` (its history was taken to continue the next prompt in place):
    /// what the history held is known only where `known` says both share it.
    pub fn encode_around(
        messages: &[ChatMessage],
        previous: Option<(usize, &[ChatMessage])>,
        known: Option<HistorySpan>,
        cut: Option<HistorySpan>,
    ) -> Request {
        let Some((base, old)) = previous else { return Request::Full(messages.to_vec()) };
        let deltas: Vec<MessageDelta> = messages
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let same = known.filter(|k| k.message == i).map(|k| (k.start, k.len));
                let keep = old.get(i).filter(|o| o.role == m.role).map_or(0, |o| {
                    match cut.filter(|c| c.message == i) {
                        Some(c) => common_prefix_around(&o.content, &m.content, c, same.is_some()),
                        None => common_prefix_knowing(&o.content, &m.content, same),
                    }
                });
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

/// [`common_prefix`], where `same` (start, length) is a range known to hold the same bytes in both.
fn common_prefix_knowing(a: &str, b: &str, same: Option<(usize, usize)>) -> usize {
    let Some((start, len)) = same else { return common_prefix(a, b) };
    let end = start + len;
    let (Some(head_a), Some(head_b), Some(tail_a), Some(tail_b)) =
        (a.get(..start), b.get(..start), a.get(end..), b.get(end..))
    else {
        return common_prefix(a, b);
    };
    let head = common_prefix(head_a, head_b);
    if head < start {
        return head;
    }
    end + common_prefix(tail_a, tail_b)
}

/// [`common_prefix_knowing`] where `a` is cut: its text before `cut.start` and after the cut
/// span, with the span's bytes gone. When `b` shares them (`known`) the comparison goes on after
/// the span; otherwise it stops at the cut, which is still a prefix both have.
fn common_prefix_around(a: &str, b: &str, cut: HistorySpan, known: bool) -> usize {
    let Some(head_a) = a.get(..cut.start) else { return 0 };
    let head = common_prefix(head_a, b);
    let end = cut.start + cut.len;
    match (a.get(cut.start..), b.get(end..)) {
        (Some(tail_a), Some(tail_b)) if known && head == cut.start => end + common_prefix(tail_a, tail_b),
        _ => head,
    }
}

/// The length in bytes of the longest common prefix, at a character boundary of both.
fn common_prefix(a: &str, b: &str) -> usize {
    let len = a.len().min(b.len());
    let (x, y) = (&a.as_bytes()[..len], &b.as_bytes()[..len]);
    // Prompts are long and mostly the same: compare in large blocks (one vectorized memcmp
    // each), then smaller ones inside the first block that differs, and finish byte by byte.
    let mut n = 0;
    for block in [16384, 256] {
        while n + block <= len && x[n..n + block] == y[n..n + block] {
            n += block;
        }
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

/// Whether `e` came after its run: a judge's call, verdict or score of a speech
/// (`crate::judge`), appended to the log of a finished run.
pub fn after_the_run(e: &Event) -> bool {
    matches!(
        e,
        Event::Verdict { .. } | Event::SpeechScored { .. } | Event::ModelCall { purpose: Purpose::Judge, .. }
    )
}

/// The run's own part of a log: all of it but the judges' calls and verdicts after its end.
pub fn run_part(events: &[Event]) -> &[Event] {
    let end = events.len() - events.iter().rev().take_while(|e| after_the_run(e)).count();
    &events[..end]
}

/// How the run a log records ended; `None` while it has not.
pub fn finish_of(events: &[Event]) -> Option<FinishReason> {
    match run_part(events).last() {
        Some(Event::RunFinished { reason }) => Some(*reason),
        _ => None,
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
            engine: None,
            refusal: None,
            human: false,
            by: String::new(),
            sampling: None,
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
    fn a_known_shared_history_encodes_as_a_full_comparison_does() {
        // The header before the history changes at one point, the rules after it at another:
        // knowing where the history sits must find the same changes as reading every byte.
        let mut history = String::from("Here is the conversation so far.");
        let mut previous: Option<(Vec<ChatMessage>, HistorySpan)> = None;
        for i in 0..60 {
            history.push_str(&format!("\nAgent {}: point {i}, ünïcödé ✓", i % 3));
            let header = if i < 30 { "Header one.\n" } else { "Header two.\n" };
            let rules = if i % 7 == 0 { "\nRate it: <int>" } else { "\nRate it again: <int>" };
            let prompt = format!("{header}{history}{rules}");
            let span = HistorySpan { message: 0, start: header.len(), len: history.len() };
            let messages = vec![ChatMessage::system(prompt)];
            if let Some((old, old_span)) = &previous {
                let base = Some((1, old.as_slice()));
                let known = (old_span.start == span.start).then_some(*old_span);
                assert_eq!(
                    Request::encode_knowing(&messages, base, known),
                    Request::encode(&messages, base),
                    "call {i}"
                );
            }
            previous = Some((messages, span));
        }
    }

    #[test]
    fn a_base_cut_around_its_history_encodes_as_the_whole_base_does() {
        // Header changes at call 30 (the history's place moves: not known, the comparison stops at
        // the cut), the rules after it every 7th call.
        let mut history = String::from("Here is the conversation so far.");
        let mut previous: Option<(Vec<ChatMessage>, HistorySpan)> = None;
        for i in 0..60 {
            history.push_str(&format!("\nAgent {}: point {i}, ünïcödé ✓", i % 3));
            let header = if i < 30 {
                "Header one, long enough to be worth keeping: ".repeat(8)
            } else {
                "Header two.\n".into()
            };
            let rules = if i % 7 == 0 { "\nRate it: <int>" } else { "\nRate it again: <int>" };
            let prompt = format!("{header}{history}{rules}");
            let span = HistorySpan { message: 0, start: header.len(), len: history.len() };
            let messages = vec![ChatMessage::system(prompt)];
            if let Some((old, cut)) = &previous {
                let whole = &old[0].content;
                let around = format!("{}{}", &whole[..cut.start], &whole[cut.start + cut.len..]);
                let cut_base = [ChatMessage::system(around)];
                let known = (cut.start == span.start).then_some(*cut);
                let encoded = Request::encode_around(&messages, Some((1, &cut_base)), known, Some(*cut));
                if known.is_some() {
                    assert_eq!(encoded, Request::encode(&messages, Some((1, old.as_slice()))), "call {i}");
                }
                // Whatever it keeps is the whole base's, and rebuilds the prompt.
                let rebuilt = match &encoded {
                    Request::Full(m) => m[0].content.clone(),
                    Request::Delta { messages: d, .. } => format!("{}{}", &whole[..d[0].keep], d[0].append),
                };
                assert_eq!(rebuilt, messages[0].content, "call {i}");
            }
            previous = Some((messages, span));
        }
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
