//! The judge: a model call that reads a finished run's transcript and scores each agent and the
//! conversation against the scenario's rubric ([`JudgeSettings`]), recorded in the run's log as
//! the call (a `model_call` with purpose `judge`) and a `verdict`. A run recorded earlier is
//! judged from its log alone, without running it again.
//!
//! Bias controls: the judge writes its reasoning before each score; an unreadable reply is asked
//! again up to the settings' attempts and then recorded as not judged (never as zeros); each
//! agent's speeches and words per speech stand beside its scores, since judges favour long
//! answers; and a judge that is the debaters' own model is flagged in the verdict.

pub mod agreement;
pub mod demo;
pub mod live;
pub mod pairwise;
pub mod rubric;
pub mod scorecard;

use std::rc::Rc;

use serde::Serialize;
use serde_json::{json, Value};

pub use rubric::{Dimension, JudgeSettings, JudgeSpec, Who, JUDGE_PROMPT};
pub use scorecard::{Score, Scorecard};

use crate::clock::Clock;
use crate::events::{Event, MessageKind};
use crate::floor::Floor;
use crate::json::Kept;
use crate::model::{ChatMessage, ChatModel, ChatRequest, ChatResponse, ModelError, Purpose, ResponseFormat};
use crate::scenario::Scenario;

/// The name a judge's calls are recorded under.
pub const JUDGE: &str = "judge";

/// A judged run: each agent's scorecard in the cast's order, and the conversation's.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Judged {
    pub agents: Vec<Scorecard>,
    pub conversation: Option<Scorecard>,
}

/// Who judges, as the verdict names them.
#[derive(Clone, Debug, PartialEq)]
pub struct Judge {
    /// "openai gpt-4o-mini", or the demo judge's label.
    pub label: String,
    /// The judge is the model the agents speak with.
    pub same_model: bool,
}

/// The scenario whose model is the judge `who` names (the run's own when it names none), so the
/// provider's endpoint and key are found as for a run.
pub fn judge_scenario(scenario: &Scenario, who: &Who) -> Scenario {
    let mut s = scenario.clone();
    if !who.provider.is_empty() {
        s.model.provider = who.provider.clone();
        s.model.name = who.model.clone();
        s.model.base_url = who.base_url.clone();
        s.model.network = Default::default();
        for a in &mut s.agents {
            a.model = None;
        }
    }
    s
}

impl Judge {
    /// The judge `who` names for a run of `scenario`: that provider and model, else the run's
    /// own (flagged as the debaters' model; on the demo model, the demo judge).
    pub fn of(who: &Who, scenario: &Scenario) -> Judge {
        let run = &scenario.model;
        if who.provider.is_empty() {
            if run.provider == "demo" {
                return Judge { label: demo::LABEL.into(), same_model: false };
            }
            return Judge { label: format!("{} {}", run.provider, run.name), same_model: true };
        }
        let same = who.provider == run.provider
            && (who.model == run.name
                || scenario.agents.iter().any(|a| a.model.as_deref() == Some(who.model.as_str())))
            && who.base_url == run.base_url;
        Judge { label: format!("{} {}", who.provider, who.model), same_model: same }
    }

    /// Whether this is the demo judge, which reads the text statistics and calls no model.
    pub fn is_demo(&self) -> bool {
        self.label == demo::LABEL
    }
}

/// The address the judge of a run of `scenario` is called at, whose key the page must send:
/// empty for the demo judge and the model in the tab, which need none.
pub fn judge_address(scenario: &Scenario) -> String {
    let who = scenario.judge.who();
    let s = judge_scenario(scenario, &who);
    if Judge::of(&who, scenario).is_demo() || s.model.is_in_tab() {
        return String::new();
    }
    s.model.effective_base_url()
}

/// Who would judge a run of `scenario`, with the warnings that go with them.
pub fn who_judges(scenario: &Scenario) -> String {
    let who = scenario.judge.who();
    let judge = Judge::of(&who, scenario);
    use crate::i18n::{say, t, tf};
    let mut note = tf(say::JudgedBy, &[("judge", &shown_label(&judge.label))]);
    if judge.same_model {
        note.push_str(t(say::JudgedBySameModel));
    }
    if judge_scenario(scenario, &who).model.is_in_tab() {
        note.push_str(t(say::JudgedInTab));
    }
    note.push_str(t(say::JudgedEnd));
    note
}

/// A judge's label as the page shows it: the demo judge's in the page's language (its log keeps
/// [`demo::LABEL`]), any other as it is.
pub fn shown_label(label: &str) -> &str {
    if label == demo::LABEL {
        crate::i18n::t(crate::i18n::say::JudgeDemo)
    } else {
        label
    }
}

/// What the Verdict panel shows under the finished run `events` record: the judge's button,
/// carrying the address whose key the judge needs and who judges, who will judge until a verdict
/// says who did, then the newest verdict's scorecard ([`Card`]) and the run's text statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct Panel {
    /// The address whose key the judge needs ([`judge_address`]; empty: none).
    pub key_for: String,
    /// Who judges, by the judge's label.
    pub judge: String,
    /// Who will judge, while no verdict says who did ([`who_judges`]).
    pub note: Option<String>,
    pub card: Option<Card>,
    pub text: Vec<crate::textstats::AgentText>,
}

impl Panel {
    /// The panel of the run `events` record (none before it started).
    pub fn of(events: &[Event]) -> Option<Panel> {
        let Some(Event::RunStarted { scenario, .. }) = events.first() else { return None };
        let card = Card::of(events);
        Some(Panel {
            key_for: judge_address(scenario),
            judge: Judge::of(&scenario.judge.who(), scenario).label,
            note: card.is_none().then(|| who_judges(scenario)),
            card,
            text: crate::textstats::of(crate::events::run_part(events)),
        })
    }

    /// What the judge's button says.
    pub fn button(&self) -> &'static str {
        use crate::i18n::{say, t};
        if self.card.is_some() {
            t(say::JudgeAgain)
        } else {
            t(say::JudgeThisRun)
        }
    }
}

/// The newest verdict of a run: who judged, each agent's scores with its length, the
/// conversation's scores, and the reasons with each agent's strongest and weakest message.
#[derive(Clone, Debug, PartialEq)]
pub struct Card {
    pub judge: String,
    /// Whether the agents' own model judged (it may favour what it wrote).
    pub same_model: bool,
    /// Why there are no scores: "Not judged: ..." or "Not read: ...".
    pub problem: Option<String>,
    pub agents: Vec<Scorecard>,
    pub conversation: Option<Scorecard>,
    pub reasons: Vec<Reason>,
}

/// The judge's reasons for one agent (or the conversation: `agent` empty).
#[derive(Clone, Debug, PartialEq)]
pub struct Reason {
    pub agent: String,
    pub reasoning: String,
    /// The strongest and weakest message, as the judge named them.
    pub pointers: Vec<Pointer>,
}

/// A message a reason points at: the strongest or the weakest, its turn, and its start quoted.
#[derive(Clone, Debug, PartialEq)]
pub struct Pointer {
    pub what: Pointed,
    pub turn: u32,
    pub said: String,
}

/// Which of an agent's messages a [`Pointer`] names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pointed {
    Strongest,
    Weakest,
}

impl Pointed {
    /// Its class on the page.
    pub fn class(self) -> &'static str {
        match self {
            Pointed::Strongest => "strongest",
            Pointed::Weakest => "weakest",
        }
    }

    /// How the page names it, before the turn it points at.
    pub fn words(self) -> &'static str {
        use crate::i18n::{say, t};
        match self {
            Pointed::Strongest => t(say::JudgeStrongest),
            Pointed::Weakest => t(say::JudgeWeakest),
        }
    }
}

impl Card {
    /// Who scored highest, in words: the agents whose scores take the largest mean share of their
    /// scales (every one of them on a tie), with that mean on the scale when every dimension has
    /// the same one, else as a share of each scale. `None` when no agent was scored.
    pub fn leader(&self) -> Option<String> {
        use crate::i18n::{say, t, tf};
        let share = |c: &Scorecard| {
            let parts: Vec<f64> = c
                .scores
                .iter()
                .filter_map(|s| {
                    let v = s.score?;
                    Some(if s.max > s.min {
                        f64::from(v - s.min.min(v)) / f64::from(s.max - s.min)
                    } else {
                        1.0
                    })
                })
                .collect();
            (!parts.is_empty()).then(|| parts.iter().sum::<f64>() / parts.len() as f64)
        };
        let shares: Vec<(&Scorecard, f64)> =
            self.agents.iter().filter_map(|c| Some((c, share(c)?))).collect();
        let best = shares.iter().map(|(_, s)| *s).fold(f64::NEG_INFINITY, f64::max);
        let top: Vec<&Scorecard> =
            shares.iter().filter(|(_, s)| (s - best).abs() < 1e-9).map(|(c, _)| *c).collect();
        let first = top.first()?;
        let mut names = top.iter().map(|c| c.agent.as_str()).collect::<Vec<_>>().join(t(say::ListAnd));
        if top.len() > 1 {
            names.push_str(t(say::JudgeLeaderTied));
        }
        let scales: Vec<(u32, u32)> = first.scores.iter().map(|s| (s.min, s.max)).collect();
        let same = scales.windows(2).all(|w| w[0] == w[1]);
        Some(match scales.first() {
            Some(&(min, max)) if same => {
                let scored: Vec<f64> = first.scores.iter().filter_map(|s| s.score.map(f64::from)).collect();
                let mean = crate::text::fixed(scored.iter().sum::<f64>() / scored.len().max(1) as f64, 1);
                tf(say::JudgeLeader, &[("names", &names), ("mean", &mean), ("min", &min), ("max", &max)])
            }
            _ => tf(say::JudgeLeaderShare, &[("names", &names), ("share", &((best * 100.0).round() as i64))]),
        })
    }

    /// The card of the newest verdict in `events`; none before one.
    pub fn of(events: &[Event]) -> Option<Card> {
        let verdict @ Event::Verdict { judge, same_model, not_judged, .. } = latest(events)? else {
            return None;
        };
        let mut card = Card {
            judge: judge.clone(),
            same_model: *same_model,
            problem: None,
            agents: Vec::new(),
            conversation: None,
            reasons: Vec::new(),
        };
        if !not_judged.is_empty() {
            card.problem = Some(format!("Not judged: {not_judged}"));
            return Some(card);
        }
        match scorecards(verdict) {
            Ok((agents, conversation)) => {
                let pointer = |agent: &str, turn: Option<u32>, what| {
                    turn.map(|turn| Pointer {
                        what,
                        turn,
                        said: quote(events, agent, turn, 40).unwrap_or_default(),
                    })
                };
                card.reasons = agents
                    .iter()
                    .map(|c| Reason {
                        agent: c.agent.clone(),
                        reasoning: c.reasoning.clone(),
                        pointers: [
                            pointer(&c.agent, c.strongest_turn, Pointed::Strongest),
                            pointer(&c.agent, c.weakest_turn, Pointed::Weakest),
                        ]
                        .into_iter()
                        .flatten()
                        .collect(),
                    })
                    .collect();
                if let Some(c) = conversation.as_ref().filter(|c| !c.reasoning.is_empty()) {
                    card.reasons.push(Reason {
                        agent: String::new(),
                        reasoning: c.reasoning.clone(),
                        pointers: Vec::new(),
                    });
                }
                (card.agents, card.conversation) = (agents, conversation);
            }
            Err(e) => card.problem = Some(format!("Not read: {e}")),
        }
        Some(card)
    }
}

/// What the judges read of a run: (turn, speaker, text, kind) of every message with text.
fn messages(events: &[Event]) -> Vec<(u32, &str, &str, MessageKind)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Message { turn, speaker, text, kind, .. } if !text.trim().is_empty() => {
                Some((*turn, speaker.as_str(), text.as_str(), *kind))
            }
            _ => None,
        })
        .collect()
}

/// Every message with text, a line each with its turn and speaker, as the judges read a run.
fn transcript(events: &[Event]) -> String {
    messages(events)
        .iter()
        .map(|(turn, who, text, _)| format!("[turn {turn}] {who}: {text}"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn spoken(kind: MessageKind) -> bool {
    matches!(kind, MessageKind::Agent | MessageKind::Incomplete)
}

/// Speeches and words per speech of `agent` (as a word limit counts them: a character in Chinese).
fn length_of(events: &[Event], agent: &str) -> (u32, f64) {
    let counts: Vec<usize> = messages(events)
        .into_iter()
        .filter(|(_, who, _, kind)| *who == agent && spoken(*kind))
        .map(|(_, _, text, _)| crate::text::limit_words(text))
        .collect();
    let mean =
        if counts.is_empty() { 0.0 } else { counts.iter().sum::<usize>() as f64 / counts.len() as f64 };
    (counts.len() as u32, (mean * 10.0).round() / 10.0)
}

fn rubric_lines(rubric: &[Dimension]) -> String {
    if rubric.is_empty() {
        return "(nothing)".into();
    }
    rubric
        .iter()
        .map(|d| format!("- {} ({} to {}): {}", d.name, d.min, d.max, d.description))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A rubric's scores as the prompt's example shows them: each dimension at its least.
fn example_scores(rubric: &[Dimension]) -> Value {
    Value::Object(rubric.iter().map(|d| (d.name.clone(), json!(d.min))).collect())
}

/// The JSON schema of a rubric's scores: every dimension an integer on its scale.
fn scores_schema(rubric: &[Dimension]) -> Value {
    let properties: serde_json::Map<String, Value> = rubric
        .iter()
        .map(|d| (d.name.clone(), json!({"type": "integer", "minimum": d.min, "maximum": d.max})))
        .collect();
    let required: Vec<&str> = rubric.iter().map(|d| d.name.as_str()).collect();
    json!({"type": "object", "properties": properties, "required": required, "additionalProperties": false})
}

/// The JSON schema of a scorecard with no agent named (the conversation's, a speech's):
/// reasoning first, then the rubric's scores.
fn card_schema(rubric: &[Dimension]) -> Value {
    json!({
        "type": "object",
        "properties": {"reasoning": {"type": "string"}, "scores": scores_schema(rubric)},
        "required": ["reasoning", "scores"],
        "additionalProperties": false,
    })
}

/// The topic and each agent's description (in the cast's order) as the run told them: made
/// specific, or written by a model, in the opening.
fn as_told(scenario: &Scenario, events: &[Event]) -> (String, Vec<String>) {
    let mut topic = scenario.topic.clone();
    let mut descriptions: Vec<String> = scenario.agents.iter().map(|a| a.description.clone()).collect();
    for e in events {
        match e {
            Event::TopicSpecified { specified, .. } => topic = specified.clone(),
            Event::CharacterDescribed { agent, description } => {
                if let Some(i) = scenario.agent_index(agent) {
                    descriptions[i] = description.clone();
                }
            }
            _ => {}
        }
    }
    (topic, descriptions)
}

/// The JSON the judge is asked for, as an example the prompt shows.
fn shape(settings: &JudgeSettings, names: &[String]) -> String {
    let scores = example_scores;
    let agents: serde_json::Map<String, Value> = names
        .iter()
        .map(|n| {
            let card = json!({"reasoning": "…", "scores": scores(&settings.agent_rubric),
                "strongest_turn": 1, "weakest_turn": 1});
            (n.clone(), card)
        })
        .collect();
    let mut out = json!({"agents": agents});
    if !settings.conversation_rubric.is_empty() {
        out["conversation"] = json!({"reasoning": "…", "scores": scores(&settings.conversation_rubric)});
    }
    out.to_string()
}

/// The JSON schema of the verdict, for providers that take one (and the model in the tab's
/// grammar): an object keyed by the cast's names, each one required, so a strict structured
/// output cannot leave an agent out or judge one twice; every dimension an integer on its scale,
/// reasoning first.
pub fn schema(settings: &JudgeSettings, names: &[String]) -> Value {
    let scores = scores_schema;
    let agent = json!({
        "type": "object",
        "properties": {
            "reasoning": {"type": "string"},
            "scores": scores(&settings.agent_rubric),
            "strongest_turn": {"type": "integer"},
            "weakest_turn": {"type": "integer"},
        },
        "required": ["reasoning", "scores", "strongest_turn", "weakest_turn"],
        "additionalProperties": false,
    });
    let cast: serde_json::Map<String, Value> = names.iter().map(|n| (n.clone(), agent.clone())).collect();
    let mut properties = serde_json::Map::new();
    properties.insert(
        "agents".into(),
        json!({"type": "object", "properties": cast, "required": names, "additionalProperties": false}),
    );
    let mut required = vec!["agents"];
    if !settings.conversation_rubric.is_empty() {
        properties.insert("conversation".into(), card_schema(&settings.conversation_rubric));
        required.push("conversation");
    }
    json!({"type": "object", "properties": properties, "required": required, "additionalProperties": false})
}

/// The judge's prompt and the JSON schema of its verdict, for the run `events` record; or why
/// there is nothing to judge.
pub fn prompt_and_schema(events: &[Event], settings: &JudgeSettings) -> Result<(String, Value), String> {
    let Some(Event::RunStarted { scenario, .. }) = events.first() else {
        return Err("the log does not start with run_started".into());
    };
    let names = scenario.agent_names();
    let (topic, descriptions) = as_told(scenario, events);
    let participants = names
        .iter()
        .zip(&descriptions)
        .map(|(n, d)| if d.trim().is_empty() { format!("- {n}") } else { format!("- {n}: {d}") })
        .collect::<Vec<_>>()
        .join("\n");
    let said = messages(events);
    if !said.iter().any(|(_, who, _, kind)| spoken(*kind) && names.iter().any(|n| n == who)) {
        return Err("nobody in the cast has spoken yet, so there is nothing to judge".into());
    }
    let transcript = transcript(events);
    let prompt = crate::prompts::fill(
        settings.template(),
        &[
            ("topic", &topic),
            ("participants", &participants),
            ("transcript", &transcript),
            ("agent_rubric", &rubric_lines(&settings.agent_rubric)),
            ("conversation_rubric", &rubric_lines(&settings.conversation_rubric)),
            ("shape", &shape(settings, &names)),
        ],
    );
    Ok((prompt, schema(settings, &names)))
}

/// A judge's request from its prompt and the JSON schema of its reply, named `name` (the
/// verdict's from [`prompt_and_schema`], a comparison's, a speech's score), ending with the
/// judged scenario's language line when it has one.
pub fn request_from(
    prompt: String,
    name: &str,
    schema: Value,
    settings: &JudgeSettings,
    scenario: &Scenario,
) -> ChatRequest {
    let mut req = ChatRequest::new(JUDGE, Purpose::Judge, vec![ChatMessage::user(prompt)])
        .in_language(scenario.language_line().as_deref());
    req.response_format = ResponseFormat::JsonSchema { name: name.into(), schema };
    req.temperature = settings.temperature;
    req.max_tokens = Some(settings.max_tokens);
    req
}

/// The judge's request for the run `events` record.
pub fn request(events: &[Event], settings: &JudgeSettings) -> Result<ChatRequest, String> {
    let (prompt, schema) = prompt_and_schema(events, settings)?;
    let Some(Event::RunStarted { scenario, .. }) = events.first() else {
        return Err("the log does not start with run_started".into());
    };
    Ok(request_from(prompt, "verdict", schema, settings, scenario))
}

/// A whole number on `d`'s scale from `v` (an integer, or a number with nothing after the point).
fn score_of(v: Option<&Value>, d: &Dimension, whose: &str) -> Result<u32, String> {
    let v = v.ok_or_else(|| format!("the verdict gives {whose} no {} score", d.name))?;
    let n = v
        .as_i64()
        .or_else(|| v.as_f64().filter(|x| x.fract() == 0.0).map(|x| x as i64))
        .ok_or_else(|| format!("{whose}'s {} score is not a whole number ({v})", d.name))?;
    if n < i64::from(d.min) || n > i64::from(d.max) {
        return Err(format!("{whose}'s {} score is {n}, outside {} to {}", d.name, d.min, d.max));
    }
    Ok(n as u32)
}

fn card(v: &Value, rubric: &[Dimension], whose: &str) -> Result<Scorecard, String> {
    let scores = v
        .get("scores")
        .filter(|s| s.is_object())
        .ok_or_else(|| format!("the verdict has no scores for {whose}"))?;
    let scores = rubric
        .iter()
        .map(|d| {
            let found = scores.get(&d.name).or_else(|| {
                scores.as_object()?.iter().find(|(k, _)| k.eq_ignore_ascii_case(&d.name)).map(|(_, v)| v)
            });
            Ok(Score {
                dimension: d.name.clone(),
                score: Some(score_of(found, d, whose)?),
                min: d.min,
                max: d.max,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(Scorecard {
        reasoning: v.get("reasoning").and_then(Value::as_str).unwrap_or_default().trim().to_string(),
        scores,
        ..Scorecard::default()
    })
}

/// The JSON object a judge's reply holds (from its first `{` to its last `}`, so words around it
/// do no harm), or what is wrong with it; `what` names the reply in the message.
fn json_object(reply: &str, what: &str) -> Result<Value, String> {
    let start = reply.find('{').ok_or("the reply has no JSON object")?;
    let end = reply.rfind('}').filter(|&e| e > start).ok_or("the JSON object is not closed")?;
    serde_json::from_str(&reply[start..=end]).map_err(|e| format!("{what} is not valid JSON ({e})"))
}

/// Reads the judge's reply for the run `events` record: every agent of the cast scored on every
/// dimension within its scale, or what is missing or wrong.
pub fn read_verdict(reply: &str, events: &[Event], settings: &JudgeSettings) -> Result<Judged, String> {
    let Some(Event::RunStarted { scenario, .. }) = events.first() else {
        return Err("the log does not start with run_started".into());
    };
    let value = json_object(reply, "the verdict")?;
    // Keyed by the agents' names, as the schema asks; a list of cards naming their agent, as a
    // model given only the prompt may still write (and as verdicts were asked for before).
    let listed = value.get("agents").ok_or("the verdict does not judge the agents")?;
    let said = messages(events);
    let mut agents = Vec::new();
    for name in scenario.agent_names() {
        let same = |n: &str| n.trim().eq_ignore_ascii_case(&name);
        let entry = match listed {
            Value::Object(cards) => cards.iter().find(|(n, _)| same(n)).map(|(_, card)| card),
            Value::Array(cards) => {
                cards.iter().find(|a| a.get("agent").and_then(Value::as_str).is_some_and(same))
            }
            _ => None,
        }
        .ok_or_else(|| format!("the verdict does not judge {name}"))?;
        let mut c = card(entry, &settings.agent_rubric, &name)?;
        // A turn is kept only where the agent spoke in it, so a link to it finds the speech.
        let turn_of = |key: &str| {
            let t = entry.get(key).and_then(Value::as_u64)? as u32;
            said.iter().any(|(turn, who, _, kind)| *turn == t && *who == name && spoken(*kind)).then_some(t)
        };
        c.strongest_turn = turn_of("strongest_turn");
        c.weakest_turn = turn_of("weakest_turn");
        (c.speeches, c.words) = length_of(events, &name);
        c.agent = name;
        agents.push(c);
    }
    let conversation = if settings.conversation_rubric.is_empty() {
        None
    } else {
        let v = value.get("conversation").ok_or("the verdict does not judge the conversation")?;
        Some(card(v, &settings.conversation_rubric, "the conversation")?)
    };
    Ok(Judged { agents, conversation })
}

/// The `verdict` event for a run that could not be judged: every score left out, and why.
pub fn not_judged(events: &[Event], settings: &JudgeSettings, judge: &Judge, why: String) -> Event {
    let blank = |rubric: &[Dimension]| -> Vec<Score> {
        rubric
            .iter()
            .map(|d| Score { dimension: d.name.clone(), score: None, min: d.min, max: d.max })
            .collect()
    };
    let names = match events.first() {
        Some(Event::RunStarted { scenario, .. }) => scenario.agent_names(),
        _ => Vec::new(),
    };
    let agents = names
        .into_iter()
        .map(|agent| {
            let (speeches, words) = length_of(events, &agent);
            Scorecard {
                agent,
                scores: blank(&settings.agent_rubric),
                speeches,
                words,
                ..Scorecard::default()
            }
        })
        .collect();
    let conversation = (!settings.conversation_rubric.is_empty())
        .then(|| Scorecard { scores: blank(&settings.conversation_rubric), ..Scorecard::default() });
    verdict(judge.label.clone(), judge.same_model, agents, conversation, why)
}

/// The `verdict` event by the judge `label` names (`same_model` when it is the agents' own
/// model), with each agent's scorecard and the conversation's, or why there are none.
pub fn verdict(
    label: String,
    same_model: bool,
    agents: Vec<Scorecard>,
    conversation: Option<Scorecard>,
    not_judged: String,
) -> Event {
    Event::Verdict {
        judge: label,
        same_model,
        agents: Kept::new(&agents),
        conversation: Kept::new(&conversation),
        not_judged,
    }
}

/// A verdict's scorecards, read: each agent's, then the conversation's (none for another
/// event); what is wrong with them when they cannot be read.
pub fn scorecards(event: &Event) -> Result<(Vec<Scorecard>, Option<Scorecard>), String> {
    match event {
        Event::Verdict { agents, conversation, .. } => Ok((
            agents.read().map_err(|e| format!("the verdict's scorecards cannot be read: {e}"))?,
            conversation
                .read()
                .map_err(|e| format!("the verdict's scorecard of the conversation cannot be read: {e}"))?,
        )),
        _ => Ok((Vec::new(), None)),
    }
}

/// Asks `model` to judge the finished run `events` record with `request` (see [`request`]),
/// reading each reply with `read` (see [`read_verdict`]): the events to append to its log (the
/// judge's calls, then the verdict). A reply that cannot be read after every attempt gives a
/// verdict recorded as not judged; a model error (the network, the key) gives the error and
/// nothing to append.
pub async fn ask_judge(
    events: &[Event],
    request: &ChatRequest,
    settings: &JudgeSettings,
    judge: &Judge,
    model: Rc<dyn ChatModel>,
    clock: Rc<dyn Clock>,
    read: impl Fn(&str) -> Result<Judged, String>,
) -> Result<Vec<Event>, ModelError> {
    let Some(Event::RunStarted { scenario, .. }) = events.first() else {
        return Err(ModelError::Unavailable("the log does not start with run_started".into()));
    };
    let mut floor = Floor::new((**scenario).clone(), model, clock);
    floor.turn = events.iter().rev().find_map(Event::turn).unwrap_or(0);
    let asked = floor.ask_until(request, settings.attempts, |r: &ChatResponse| read(&r.content)).await?;
    floor.record_asked(request, &asked);
    let verdict = match asked.value {
        Some(j) => verdict(judge.label.clone(), judge.same_model, j.agents, j.conversation, String::new()),
        None => {
            let last = asked.attempts.last().and_then(|(_, p)| p.error.clone()).unwrap_or_default();
            let n = asked.attempts.len();
            let why = format!(
                "no readable verdict in {n} {} (last: {last})",
                if n == 1 { "reply" } else { "replies" }
            );
            not_judged(events, settings, judge, why)
        }
    };
    floor.push(verdict);
    Ok(std::mem::take(&mut floor.events))
}

/// Judges the finished run `events` record with `settings` by `judge`: the demo judge's verdict,
/// or [`ask_judge`] with `model` (the judge's model).
pub async fn judge_run(
    events: &[Event],
    settings: &JudgeSettings,
    judge: &Judge,
    model: Option<Rc<dyn ChatModel>>,
    clock: Rc<dyn Clock>,
) -> Result<Vec<Event>, ModelError> {
    if judge.is_demo() {
        return Ok(vec![demo::verdict(crate::events::run_part(events), settings)]);
    }
    let Some(model) = model else {
        return Err(ModelError::Unavailable(format!("{} is not available to judge", judge.label)));
    };
    let request = match request(events, settings) {
        Ok(r) => r,
        Err(why) => return Ok(vec![not_judged(events, settings, judge, why)]),
    };
    ask_judge(events, &request, settings, judge, model, clock, |reply| read_verdict(reply, events, settings))
        .await
}

/// The newest verdict in a log.
pub fn latest(events: &[Event]) -> Option<&Event> {
    events.iter().rev().find(|e| matches!(e, Event::Verdict { .. }))
}

/// A scorecard's scores as one line: "responsiveness 4/5, argument 3/5" (a dimension not
/// judged reads "–").
pub fn scores_line(card: &Scorecard) -> String {
    card.scores
        .iter()
        .map(|s| match s.score {
            Some(v) => format!("{} {v}/{}", s.dimension, s.max),
            None => format!("{} –", s.dimension),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A verdict in words, one line each, for the terminal and the Markdown transcript: who judged
/// (and a warning when it is the debaters' model), each agent's scores with its length, the
/// turns of its strongest and weakest message and the judge's reasons, then the conversation's.
pub fn verdict_lines(event: &Event) -> Vec<String> {
    let Event::Verdict { judge, same_model, not_judged, .. } = event else {
        return Vec::new();
    };
    let mut out = vec![format!(
        "Verdict by {judge}{}",
        if *same_model { " (the agents' own model: it may favour what it wrote)" } else { "" }
    )];
    if !not_judged.is_empty() {
        out.push(format!("Not judged: {not_judged}"));
        return out;
    }
    let (agents, conversation) = match scorecards(event) {
        Ok(cards) => cards,
        Err(e) => {
            out.push(format!("Not read: {e}"));
            return out;
        }
    };
    for c in &agents {
        let turns = match (c.strongest_turn, c.weakest_turn) {
            (Some(s), Some(w)) => format!("; strongest turn {s}, weakest turn {w}"),
            (Some(s), None) => format!("; strongest turn {s}"),
            (None, Some(w)) => format!("; weakest turn {w}"),
            (None, None) => String::new(),
        };
        out.push(format!(
            "{}: {} ({} {}, {} words each{turns})",
            c.agent,
            scores_line(c),
            c.speeches,
            if c.speeches == 1 { "speech" } else { "speeches" },
            crate::text::fixed(c.words, 1)
        ));
        if !c.reasoning.is_empty() {
            out.push(format!("Why: {}", c.reasoning));
        }
    }
    if let Some(c) = &conversation {
        out.push(format!("The conversation: {}", scores_line(c)));
        if !c.reasoning.is_empty() {
            out.push(format!("Why: {}", c.reasoning));
        }
    }
    out
}

/// The text of what `agent` said in `turn`, cut to about `words` words.
fn quote(events: &[Event], agent: &str, turn: u32, words: usize) -> Option<String> {
    let (_, _, text, _) = messages(events)
        .into_iter()
        .find(|(t, who, _, kind)| *t == turn && *who == agent && spoken(*kind))?;
    let all: Vec<&str> = text.split_whitespace().collect();
    let cut = all.len() > words;
    Some(format!("{}{}", all[..all.len().min(words)].join(" "), if cut { " …" } else { "" }))
}
