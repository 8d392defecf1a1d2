//! The judge's settings in a scenario: who judges, the prompt it reads, and the rubric (each
//! dimension a setting with its name, scale and description), with a debate rubric by default.
//!
//! The default dimensions follow what evaluations of dialogue agents score. Per agent:
//! responsiveness (ChatEval's and Debatrix's attention to the other side), quality of argument and
//! evidence (Debatrix's argument and source dimensions), civility (Sotopia-Eval's social rules)
//! and pursuit of the agent's own goal (Sotopia-Eval's goal completion). For the conversation:
//! balance, progress and repetition (the failure modes of multi-agent chat that MT-Bench-style
//! judging reports as verbosity and loops).

use serde::{Deserialize, Serialize};

use crate::json::{deserialize_with_fields, Fields, ReadPresent};

/// The dimension every pairwise judgement adds to the conversation rubric's.
pub const OVERALL: &str = "overall";

crate::json::settings! {
    /// One thing the judge scores, as a whole number from `min` to `max`.
    #[derive(Clone, Debug, Default, PartialEq, Serialize)]
    pub struct Dimension {
        pub name: String = set_string,
        pub min: u32 = set_u32,
        pub max: u32 = set_u32,
        pub description: String = set_string,
    }
}

deserialize_with_fields!(Dimension, "a rubric dimension");

impl Dimension {
    /// A dimension's name as the page shows it: the default rubric's names (and pairwise
    /// judging's "overall") in the page's language, any other name as the scenario gives it.
    pub fn shown(name: &str) -> &str {
        use crate::i18n::{say, t};
        match name {
            "responsiveness" => t(say::DimResponsiveness),
            "argument" => t(say::DimArgument),
            "evidence" => t(say::DimEvidence),
            "civility" => t(say::DimCivility),
            "goal" => t(say::DimGoal),
            "balance" => t(say::DimBalance),
            "progress" => t(say::DimProgress),
            "repetition" => t(say::DimRepetition),
            OVERALL => t(say::DimOverall),
            other => other,
        }
    }

    fn read(mut f: Fields) -> Result<Dimension, String> {
        let mut d = Dimension { name: f.string("name")?, min: 1, max: 5, description: String::new() };
        d.read_present(&mut f)?;
        Ok(d)
    }

    fn new(name: &str, description: &str) -> Dimension {
        Dimension { name: name.into(), min: 1, max: 5, description: description.into() }
    }
}

crate::json::settings! {
    /// Who judges a finished run and how.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct JudgeSettings {
        /// A provider id from [`crate::catalog::PROVIDERS`], or empty for the run's own model
        /// (on the demo model, the demo judge).
        #[serde(skip_serializing_if = "String::is_empty")]
        pub provider: String = set_string,
        #[serde(skip_serializing_if = "String::is_empty")]
        pub base_url: String = set_string,
        /// The judge's model at that provider.
        #[serde(skip_serializing_if = "String::is_empty")]
        pub model: String = set_string,
        /// The judge's prompt; `None` for [`JUDGE_PROMPT`].
        #[serde(skip_serializing_if = "Option::is_none")]
        pub template: Option<String> = set_any,
        /// The prompt comparing two conversations; `None` for [`PAIRWISE_PROMPT`].
        #[serde(skip_serializing_if = "Option::is_none")]
        pub pairwise_template: Option<String> = set_any,
        /// What is scored for each agent.
        pub agent_rubric: Vec<Dimension> = set_any,
        /// What is scored for the conversation as a whole.
        pub conversation_rubric: Vec<Dimension> = set_any,
        /// Replies read before the run is recorded as not judged.
        pub attempts: u32 = set_u32,
        pub temperature: Option<f64> = set_any,
        pub max_tokens: u32 = set_u32,
        /// Score each speech as it lands, a call a speech (a score beside it in the page's
        /// transcript); off by default for what it costs.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        pub live: bool = set_bool,
        /// The prompt scoring one speech; `None` for [`SPEECH_PROMPT`].
        #[serde(skip_serializing_if = "Option::is_none")]
        pub speech_template: Option<String> = set_any,
    }
}

deserialize_with_fields!(JudgeSettings, "judge");

/// Who judges: a provider and its model, or none named (the run's own model).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Who {
    pub provider: String,
    pub model: String,
    pub base_url: String,
}

/// The scenario's judge settings as written, kept as JSON until the judge reads them
/// ([`JudgeSpec::settings`]): scenarios, links and runs carry them through the page without their
/// reader and checks, which only the judge (the tools module, the terminal) needs.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(transparent)]
pub struct JudgeSpec(pub Option<serde_json::Value>);

impl<'de> Deserialize<'de> for JudgeSpec {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(JudgeSpec::from_value(serde_json::Value::deserialize(deserializer)?))
    }
}

impl JudgeSpec {
    /// The settings as their JSON (`null`: the defaults), kept unread.
    pub fn from_value(value: serde_json::Value) -> JudgeSpec {
        JudgeSpec((!value.is_null()).then_some(value))
    }

    pub fn is_unset(&self) -> bool {
        self.0.is_none()
    }

    /// The settings as JSON: none for the defaults.
    pub fn of(settings: &JudgeSettings) -> JudgeSpec {
        JudgeSpec(if settings.is_default() { None } else { serde_json::to_value(settings).ok() })
    }

    /// The settings as written, not checked (the editor shows them with their problems).
    pub fn read(&self) -> Result<JudgeSettings, String> {
        match &self.0 {
            None => Ok(JudgeSettings::default()),
            Some(v) => JudgeSettings::read(Fields::new(v.clone(), "judge")?),
        }
    }

    /// The settings, read and checked; what is wrong with them, by field.
    pub fn settings(&self) -> Result<JudgeSettings, String> {
        let settings = self.read()?;
        match settings.problems().into_iter().next() {
            Some((field, message)) => Err(format!("{field}: {message}")),
            None => Ok(settings),
        }
    }

    /// Whether the settings ask for each speech to be scored as it lands, read without the rest.
    pub fn live(&self) -> bool {
        self.0.as_ref().and_then(|v| v.get("live")).and_then(serde_json::Value::as_bool).unwrap_or(false)
    }

    /// Who the settings name as the judge, read without the rest.
    pub fn who(&self) -> Who {
        let text = |k: &str| {
            self.0
                .as_ref()
                .and_then(|v| v.get(k))
                .and_then(serde_json::Value::as_str)
                .unwrap_or_default()
                .to_string()
        };
        Who { provider: text("provider"), model: text("model"), base_url: text("base_url") }
    }
}

impl JudgeSettings {
    /// Who the settings name as the judge.
    pub fn who(&self) -> Who {
        Who { provider: self.provider.clone(), model: self.model.clone(), base_url: self.base_url.clone() }
    }

    fn read(mut f: Fields) -> Result<JudgeSettings, String> {
        let mut s = JudgeSettings::default();
        s.read_present(&mut f)?;
        Ok(s)
    }

    pub fn is_default(&self) -> bool {
        *self == JudgeSettings::default()
    }

    /// The prompt the judge reads, before its placeholders are filled.
    pub fn template(&self) -> &str {
        self.template.as_deref().unwrap_or(JUDGE_PROMPT)
    }

    /// Problems with the settings, as (field, message).
    pub fn problems(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        if self.agent_rubric.is_empty() && self.conversation_rubric.is_empty() {
            out.push(("judge.agent_rubric".into(), "the rubric needs at least one dimension".into()));
        }
        for (list, field) in
            [(&self.agent_rubric, "agent_rubric"), (&self.conversation_rubric, "conversation_rubric")]
        {
            for (i, d) in list.iter().enumerate() {
                let at = format!("judge.{field}[{i}]");
                if d.name.trim().is_empty() {
                    out.push((at.clone(), "a dimension needs a name".into()));
                }
                if d.min >= d.max {
                    out.push((
                        at.clone(),
                        format!("the scale of {} must run from a lower to a higher number", d.name),
                    ));
                }
                if list[..i].iter().any(|e| e.name == d.name) {
                    out.push((at, format!("{} is named twice", d.name)));
                }
            }
        }
        if !(1..=10).contains(&self.attempts) {
            out.push(("judge.attempts".into(), "must be from 1 to 10".into()));
        }
        if self.temperature.is_some_and(|t| !(0.0..=2.0).contains(&t)) {
            out.push(("judge.temperature".into(), "must be between 0 and 2".into()));
        }
        out
    }
}

impl Default for JudgeSettings {
    fn default() -> Self {
        JudgeSettings {
            provider: String::new(),
            base_url: String::new(),
            model: String::new(),
            template: None,
            pairwise_template: None,
            agent_rubric: vec![
                Dimension::new(
                    "responsiveness",
                    "Takes up what the others said: answers their points, questions and objections instead of talking past them.",
                ),
                Dimension::new(
                    "argument",
                    "Quality of argument: claims are reasoned, hang together and follow from what is said.",
                ),
                Dimension::new(
                    "evidence",
                    "Evidence and specifics: supports claims with facts, examples, figures or concrete proposals rather than generalities.",
                ),
                Dimension::new("civility", "Disagrees without insults or contempt and keeps to the issues."),
                Dimension::new(
                    "goal",
                    "Pursues its own stated goal: advances what its description says it wants.",
                ),
            ],
            conversation_rubric: vec![
                Dimension::new("balance", "Every participant had a fair share of the floor and of the others' attention."),
                Dimension::new(
                    "progress",
                    "The conversation moved forward: new points, sharper disagreements or conclusions, not circles.",
                ),
                Dimension::new(
                    "repetition",
                    "How little the conversation repeats itself: 5 when every turn adds something, 1 when the same points come back in the same words.",
                ),
            ],
            attempts: 3,
            temperature: Some(0.0),
            max_tokens: 2000,
            live: false,
            speech_template: None,
        }
    }
}

/// The judge's prompt. Placeholders: `{topic}`, `{participants}` (each agent with its
/// description), `{transcript}` (each message with its turn), `{agent_rubric}`,
/// `{conversation_rubric}` and `{shape}` (the JSON reply expected).
pub const JUDGE_PROMPT: &str = "You are an impartial judge of a conversation. Read the transcript and score it against the rubric.

Topic: {topic}

Participants:
{participants}

Transcript (each message with its turn):
{transcript}

Score each participant on:
{agent_rubric}

Score the conversation as a whole on:
{conversation_rubric}

Judge only what the transcript shows. Do not favour a participant for speaking more, longer, first or last, or for agreeing with you. For each participant, write your reasoning first, then give each score as a whole number on its scale, and name the turn of its strongest and of its weakest message. Then do the same for the conversation.

Reply with one JSON object and nothing else, in this shape:
{shape}";

/// One of the judge's two rubrics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rubric {
    /// Scored for each agent.
    Agent,
    /// Scored for the conversation as a whole.
    Conversation,
}

impl Rubric {
    pub const BOTH: [Rubric; 2] = [Rubric::Agent, Rubric::Conversation];

    /// The rubric's field in the settings' JSON.
    pub fn field(self) -> &'static str {
        match self {
            Rubric::Agent => "agent_rubric",
            Rubric::Conversation => "conversation_rubric",
        }
    }

    /// What the editor calls it.
    pub fn title(self) -> &'static str {
        match self {
            Rubric::Agent => crate::i18n::t(crate::i18n::say::TlScoredEach),
            Rubric::Conversation => crate::i18n::t(crate::i18n::say::TlScoredWhole),
        }
    }
}

/// The part of a dimension a box in the editor sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DimensionPart {
    Name,
    Min,
    Max,
    Description,
}

impl Dimension {
    /// Sets one part from what its box holds: text trimmed, a scale's end a whole number (0 when
    /// the box holds none, which [`JudgeSettings::problems`] then names).
    pub fn set(&mut self, part: DimensionPart, text: &str) {
        let number = || text.trim().parse().unwrap_or(0);
        match part {
            DimensionPart::Name => self.name = text.trim().to_string(),
            DimensionPart::Min => self.min = number(),
            DimensionPart::Max => self.max = number(),
            DimensionPart::Description => self.description = text.trim().to_string(),
        }
    }
}

/// Who judges, as the editor's three boxes set it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WhoPart {
    Provider,
    Model,
    BaseUrl,
}

impl JudgeSettings {
    pub fn rubric(&self, rubric: Rubric) -> &[Dimension] {
        match rubric {
            Rubric::Agent => &self.agent_rubric,
            Rubric::Conversation => &self.conversation_rubric,
        }
    }

    pub fn rubric_mut(&mut self, rubric: Rubric) -> &mut Vec<Dimension> {
        match rubric {
            Rubric::Agent => &mut self.agent_rubric,
            Rubric::Conversation => &mut self.conversation_rubric,
        }
    }

    /// Adds a dimension to `rubric`, named for its place ("dimension 4"), scored 1 to 5.
    pub fn add_dimension(&mut self, rubric: Rubric) {
        let list = self.rubric_mut(rubric);
        let name = format!("dimension {}", list.len() + 1);
        list.push(Dimension { name, min: 1, max: 5, description: String::new() });
    }

    /// Removes the `index`th dimension of `rubric` (nothing, past its end).
    pub fn remove_dimension(&mut self, rubric: Rubric, index: usize) {
        let list = self.rubric_mut(rubric);
        if index < list.len() {
            list.remove(index);
        }
    }

    /// What a box of the editor's "who judges" row holds.
    pub fn who_part(&self, part: WhoPart) -> &str {
        match part {
            WhoPart::Provider => &self.provider,
            WhoPart::Model => &self.model,
            WhoPart::BaseUrl => &self.base_url,
        }
    }

    /// Sets a part of who judges from its box, trimmed.
    pub fn set_who(&mut self, part: WhoPart, text: &str) {
        let text = text.trim().to_string();
        match part {
            WhoPart::Provider => self.provider = text,
            WhoPart::Model => self.model = text,
            WhoPart::BaseUrl => self.base_url = text,
        }
    }
}

/// The prompt scoring one speech as it lands. Placeholders: `{topic}`, `{agent}` and
/// `{description}` (the speaker and its description), `{transcript}` (the conversation before
/// the speech, each message with its turn), `{speech}`, `{agent_rubric}` and `{shape}`.
pub const SPEECH_PROMPT: &str = "You are an impartial judge of a conversation. Score one speech against the rubric.

Topic: {topic}

The conversation so far (each message with its turn):
{transcript}

The speech to score, by {agent} ({description}):
{speech}

Score the speech on:
{agent_rubric}

Judge only this speech, in the light of what came before it. Do not favour it for its length or for agreeing with you. Write your reasoning first, then give each score as a whole number on its scale.

Reply with one JSON object and nothing else, in this shape:
{shape}";

/// The pairwise judge's prompt. Placeholders: `{topic}`, `{first}` and `{second}` (the two
/// transcripts), `{dimensions}` and `{shape}` (the JSON reply expected).
pub const PAIRWISE_PROMPT: &str = "You are an impartial judge comparing two conversations on the same topic, with the same participants.

Topic: {topic}

Conversation A:
{first}

Conversation B:
{second}

For each dimension below, say which conversation was better: \"A\", \"B\" or \"tie\".
{dimensions}

Judge only what the transcripts show. Do not favour a conversation for being longer or for coming first. Write your reasoning first.

Reply with one JSON object and nothing else, in this shape:
{shape}";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dimensions_are_added_by_place_and_removed_by_index() {
        let mut j = JudgeSettings::default();
        let agents = j.agent_rubric.len();
        j.add_dimension(Rubric::Conversation);
        let added = j.conversation_rubric.last().unwrap().clone();
        assert_eq!(added.name, format!("dimension {}", j.conversation_rubric.len()));
        assert_eq!((added.min, added.max), (1, 5));
        let third = j.agent_rubric[3].name.clone();
        j.remove_dimension(Rubric::Agent, 3);
        assert_eq!(j.agent_rubric.len(), agents - 1);
        assert!(j.agent_rubric.iter().all(|d| d.name != third));
        j.remove_dimension(Rubric::Agent, 99);
        assert_eq!(j.agent_rubric.len(), agents - 1, "past the end removes nothing");
    }

    #[test]
    fn a_box_sets_its_part_trimmed_and_a_scale_that_is_no_number_is_a_problem() {
        let mut d = Dimension::new("x", "");
        d.set(DimensionPart::Name, "  humour ");
        d.set(DimensionPart::Description, " How funny. ");
        d.set(DimensionPart::Max, " 7");
        assert_eq!((d.name.as_str(), d.description.as_str(), d.max), ("humour", "How funny.", 7));
        d.set(DimensionPart::Min, "one");
        assert_eq!(d.min, 0);
        let j = JudgeSettings { agent_rubric: vec![d], ..JudgeSettings::default() };
        assert!(j.problems().is_empty(), "0 to 7 is a scale");
        let mut j = j;
        j.agent_rubric[0].set(DimensionPart::Max, "");
        assert!(j.problems().iter().any(|(f, _)| f == "judge.agent_rubric[0]"));
        j.set_who(WhoPart::Model, " judge-x ");
        assert_eq!(j.who_part(WhoPart::Model), "judge-x");
        assert_eq!(j.who().model, "judge-x");
    }
}
