//! Pairwise judging: which of two conversations of the same scenario was better on each of the
//! conversation rubric's dimensions and overall. Asked in both orders (MT-Bench's control for the
//! judge's position bias); a preference counts only where both orders agree, otherwise it is a tie,
//! and whether they agreed is kept so the agreement rate can be shown.

use std::rc::Rc;

use serde_json::{json, Value};

use super::{transcript, Dimension, JudgeSettings};
use crate::clock::Clock;
use crate::events::Event;
use crate::floor::Floor;
use crate::model::{ChatModel, ChatRequest, ChatResponse, ModelError};

pub use super::rubric::{OVERALL, PAIRWISE_PROMPT};

/// Which side won one dimension in one order of asking.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Side {
    A,
    B,
    #[serde(rename = "tie")]
    Tie,
}

impl Side {
    pub fn as_str(self) -> &'static str {
        match self {
            Side::A => "A",
            Side::B => "B",
            Side::Tie => "tie",
        }
    }

    pub fn parse(text: &str) -> Option<Side> {
        match text.trim().to_ascii_lowercase().as_str() {
            "a" => Some(Side::A),
            "b" => Some(Side::B),
            "tie" => Some(Side::Tie),
            _ => None,
        }
    }

    /// The same verdict with the two conversations swapped.
    fn swapped(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
            Side::Tie => Side::Tie,
        }
    }
}

/// One dimension judged in both orders: `first` asked with the pair as given (A first), `second`
/// with it swapped, read back in the pair's own terms. `None` where that order gave no verdict.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Judgement {
    pub first: Option<Side>,
    pub second: Option<Side>,
    /// The two conversations were word for word the same: a tie recorded without asking (a judge
    /// reading the text has nothing to tell apart), left out of the orders' agreement.
    pub identical: bool,
}

impl Judgement {
    /// The judgement of two conversations that are word for word the same.
    pub const IDENTICAL: Judgement =
        Judgement { first: Some(Side::Tie), second: Some(Side::Tie), identical: true };

    /// Both orders' verdicts, as read from the judge's replies.
    pub fn asked(first: Option<Side>, second: Option<Side>) -> Judgement {
        Judgement { first, second, identical: false }
    }

    /// A preference where both orders agree, else a tie; `None` when an order was not judged.
    pub fn outcome(&self) -> Option<Side> {
        match (self.first?, self.second?) {
            (a, b) if a == b => Some(a),
            _ => Some(Side::Tie),
        }
    }

    /// Whether both orders gave the same verdict (`None` for a pair not asked both ways).
    pub fn agreed(&self) -> Option<bool> {
        if self.identical {
            return None;
        }
        Some(self.first? == self.second?)
    }
}

/// Whether two runs said the same words, speaker for speaker: what the judge would read is the same.
pub fn identical(a: &[Event], b: &[Event]) -> bool {
    transcript(a) == transcript(b)
}

/// The dimensions compared: the conversation rubric's, then [`OVERALL`].
pub fn dimensions(settings: &JudgeSettings) -> Vec<String> {
    let mut d: Vec<String> = settings.conversation_rubric.iter().map(|d| d.name.clone()).collect();
    d.push(OVERALL.into());
    d
}

/// The request comparing `a` (shown first) with `b`.
pub fn request(a: &[Event], b: &[Event], settings: &JudgeSettings) -> Result<ChatRequest, String> {
    let Some(Event::RunStarted { scenario, .. }) = a.first() else {
        return Err("the log does not start with run_started".into());
    };
    let names = dimensions(settings);
    let described: Vec<String> = settings
        .conversation_rubric
        .iter()
        .map(|d: &Dimension| format!("- {}: {}", d.name, d.description))
        .chain(std::iter::once(format!("- {OVERALL}: which conversation was better as a whole.")))
        .collect();
    let shape = json!({"reasoning": "…", "winner": Value::Object(names.iter().map(|n| (n.clone(), json!("A"))).collect())});
    let prompt = crate::prompts::fill(
        settings.pairwise_template.as_deref().unwrap_or(PAIRWISE_PROMPT),
        &[
            ("topic", &scenario.topic),
            ("first", &transcript(a)),
            ("second", &transcript(b)),
            ("dimensions", &described.join("\n")),
            ("shape", &shape.to_string()),
        ],
    );
    let winner = json!({"type": "string", "enum": ["A", "B", "tie"]});
    let schema = json!({
        "type": "object",
        "properties": {
            "reasoning": {"type": "string"},
            "winner": {
                "type": "object",
                "properties": Value::Object(names.iter().map(|n| (n.clone(), winner.clone())).collect()),
                "required": names,
                "additionalProperties": false,
            },
        },
        "required": ["reasoning", "winner"],
        "additionalProperties": false,
    });
    Ok(super::request_from(prompt, "comparison", schema, settings, scenario))
}

/// Reads a pairwise reply: a side for every dimension.
pub fn read(reply: &str, settings: &JudgeSettings) -> Result<Vec<Side>, String> {
    let value = super::json_object(reply, "the comparison")?;
    let winner = value.get("winner").filter(|w| w.is_object()).ok_or("the comparison names no winners")?;
    dimensions(settings)
        .iter()
        .map(|d| {
            let v = winner
                .get(d)
                .and_then(Value::as_str)
                .ok_or_else(|| format!("the comparison gives no winner for {d}"))?;
            Side::parse(v).ok_or_else(|| format!("the winner for {d} is \"{v}\", not A, B or tie"))
        })
        .collect()
}

/// The demo judge's comparison: the side whose demo verdict scores the dimension higher (the sum
/// of the conversation's scores for [`OVERALL`]); the same in both orders.
pub fn demo(a: &[Event], b: &[Event], settings: &JudgeSettings) -> Vec<Judgement> {
    let scores = |events: &[Event]| -> Vec<u32> {
        let Ok((_, conversation)) = super::scorecards(&super::demo::verdict(events, settings)) else {
            return Vec::new();
        };
        let mut s: Vec<u32> =
            conversation.map(|c| c.scores.iter().map(|s| s.score.unwrap_or(0)).collect()).unwrap_or_default();
        s.push(s.iter().sum());
        s
    };
    let (sa, sb) = (scores(a), scores(b));
    sa.iter()
        .zip(&sb)
        .map(|(x, y)| {
            let side = match x.cmp(y) {
                std::cmp::Ordering::Greater => Side::A,
                std::cmp::Ordering::Less => Side::B,
                std::cmp::Ordering::Equal => Side::Tie,
            };
            Judgement::asked(Some(side), Some(side))
        })
        .collect()
}

/// Compares `a` with `b` on `model` in both orders: a judgement per dimension ([`dimensions`]),
/// with the calls made (`model_call` events). An order whose replies could not be read after
/// every attempt gives `None` on that side.
pub async fn compare(
    a: &[Event],
    b: &[Event],
    settings: &JudgeSettings,
    model: Rc<dyn ChatModel>,
    clock: Rc<dyn Clock>,
) -> Result<(Vec<Judgement>, Vec<Event>), ModelError> {
    let Some(Event::RunStarted { scenario, .. }) = a.first() else {
        return Err(ModelError::Unavailable("the log does not start with run_started".into()));
    };
    let mut floor = Floor::new((**scenario).clone(), model, clock);
    let mut orders = Vec::new();
    for (first, second) in [(a, b), (b, a)] {
        let req = request(first, second, settings).map_err(ModelError::Unavailable)?;
        let asked =
            floor.ask_until(&req, settings.attempts, |r: &ChatResponse| read(&r.content, settings)).await?;
        floor.record_asked(&req, &asked);
        orders.push(asked.value);
    }
    let n = dimensions(settings).len();
    let side = |o: &Option<Vec<Side>>, i: usize, swap: bool| {
        o.as_ref().map(|v| if swap { v[i].swapped() } else { v[i] })
    };
    let judgements =
        (0..n).map(|i| Judgement::asked(side(&orders[0], i, false), side(&orders[1], i, true))).collect();
    Ok((judgements, std::mem::take(&mut floor.events)))
}
