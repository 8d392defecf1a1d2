//! Live scoring (`judge.live`): each speech scored as it lands, on the agent rubric, beside it
//! in the page's transcript. Off by default, since it costs the judge's call a speech.
//!
//! The page asks for the speeches not yet scored after each step of a run ([`unscored`],
//! [`score_speeches`]), and keeps the scores beside the run until it ends; then they join the
//! log after the run's end, as a verdict does (`crate::events::after_the_run`), so a replay, a
//! link and the Markdown show them and the run's own events stay as the engine wrote them.

use std::rc::Rc;

use serde_json::json;

use super::{card, messages, rubric_lines, spoken, transcript, Judge, JudgeSettings, Score, Scorecard};
use crate::clock::Clock;
use crate::events::Event;
use crate::floor::Floor;
use crate::json::Kept;
use crate::model::{ChatModel, ChatRequest, ChatResponse, ModelError};

/// Each speech of the cast (turn and speaker) that has no score yet in `events`, in order.
pub fn unscored(events: &[Event]) -> Vec<(u32, String)> {
    let Some(Event::RunStarted { scenario, .. }) = events.first() else { return Vec::new() };
    let names = scenario.agent_names();
    let scored: Vec<(u32, &str)> = events
        .iter()
        .filter_map(|e| match e {
            Event::SpeechScored { turn, agent, .. } => Some((*turn, agent.as_str())),
            _ => None,
        })
        .collect();
    messages(events)
        .into_iter()
        .filter(|(turn, who, _, kind)| {
            spoken(*kind) && names.iter().any(|n| n == who) && !scored.contains(&(*turn, *who))
        })
        .map(|(turn, who, _, _)| (turn, who.to_string()))
        .collect()
}

/// The log up to and including the speech `agent` made in `turn`.
fn up_to<'a>(events: &'a [Event], turn: u32, agent: &str) -> &'a [Event] {
    let at = events
        .iter()
        .position(|e| matches!(e, Event::Message { turn: t, speaker, .. } if *t == turn && speaker == agent));
    &events[..at.map_or(events.len(), |i| i + 1)]
}

/// The request scoring `agent`'s speech in `turn`.
pub fn request(
    events: &[Event],
    turn: u32,
    agent: &str,
    settings: &JudgeSettings,
) -> Result<ChatRequest, String> {
    let Some(Event::RunStarted { scenario, .. }) = events.first() else {
        return Err("the log does not start with run_started".into());
    };
    let before = up_to(events, turn, agent);
    let Some(Event::Message { text, .. }) = before.last() else {
        return Err(format!("{agent} did not speak in turn {turn}"));
    };
    let (topic, descriptions) = super::as_told(scenario, before);
    let description =
        scenario.agent_index(agent).and_then(|i| descriptions.get(i)).cloned().unwrap_or_default();
    let shape = json!({"reasoning": "…", "scores": super::example_scores(&settings.agent_rubric)});
    let prompt = crate::prompts::fill(
        settings.speech_template.as_deref().unwrap_or(super::rubric::SPEECH_PROMPT),
        &[
            ("topic", &topic),
            ("agent", agent),
            ("description", description.trim()),
            ("transcript", &transcript(&before[..before.len() - 1])),
            ("speech", text),
            ("agent_rubric", &rubric_lines(&settings.agent_rubric)),
            ("shape", &shape.to_string()),
        ],
    );
    let schema = super::card_schema(&settings.agent_rubric);
    Ok(super::request_from(prompt, "speech_score", schema, settings, scenario))
}

/// Reads the judge's reply scoring one speech: every dimension of the agent rubric on its scale.
pub fn read(reply: &str, agent: &str, settings: &JudgeSettings) -> Result<Scorecard, String> {
    card(&super::json_object(reply, "the score")?, &settings.agent_rubric, agent)
}

/// The `speech_scored` event of `judge` for `agent`'s speech in `turn`, from its scorecard (or
/// why there is none).
fn scored(turn: u32, agent: &str, judge: &Judge, card: Result<Scorecard, String>) -> Event {
    let (scores, reasoning, not_judged) = match card {
        Ok(c) => (c.scores, c.reasoning, String::new()),
        Err(why) => (Vec::new(), String::new(), why),
    };
    let values: Vec<f64> = scores.iter().filter_map(|s| s.score).map(f64::from).collect();
    let mean = (!values.is_empty() && not_judged.is_empty())
        .then(|| (values.iter().sum::<f64>() / values.len() as f64 * 100.0).round() / 100.0);
    Event::SpeechScored {
        turn,
        agent: agent.to_string(),
        judge: judge.label.clone(),
        scores: Kept::new(&scores),
        mean,
        reasoning,
        not_judged,
    }
}

/// The demo judge's score of a speech: its demo scorecard for the agent's speeches so far (text
/// statistics: it counts words, it does not understand them).
fn demo(events: &[Event], turn: u32, agent: &str, settings: &JudgeSettings) -> Scorecard {
    let so_far = up_to(events, turn, agent);
    let verdict = super::demo::verdict(so_far, settings);
    let agents = super::scorecards(&verdict).map(|(a, _)| a).unwrap_or_default();
    let mut card = agents.into_iter().find(|c| c.agent == agent).unwrap_or_default();
    card.reasoning = format!("Of its speeches so far. {}", card.reasoning);
    card
}

/// Scores each speech of `events` not yet scored (see [`unscored`]) with `judge` (`model`, or
/// the demo judge when none): the events to keep, each speech's judge calls then its
/// `speech_scored`. A reply that cannot be read after every attempt is recorded as not scored; a
/// model error stops here with what was scored before it.
pub async fn score_speeches(
    events: &[Event],
    settings: &JudgeSettings,
    judge: &Judge,
    model: Option<Rc<dyn ChatModel>>,
    clock: Rc<dyn Clock>,
) -> (Vec<Event>, Option<ModelError>) {
    let mut out = Vec::new();
    let Some(Event::RunStarted { scenario, .. }) = events.first() else { return (out, None) };
    for (turn, agent) in unscored(events) {
        let Some(model) = model.clone() else {
            out.push(scored(turn, &agent, judge, Ok(demo(events, turn, &agent, settings))));
            continue;
        };
        let request = match request(events, turn, &agent, settings) {
            Ok(r) => r,
            Err(why) => {
                out.push(scored(turn, &agent, judge, Err(why)));
                continue;
            }
        };
        let mut floor = Floor::new((**scenario).clone(), model, clock.clone());
        floor.turn = turn;
        let asked = match floor
            .ask_until(&request, settings.attempts, |r: &ChatResponse| read(&r.content, &agent, settings))
            .await
        {
            Ok(a) => a,
            Err(e) => return (out, Some(e)),
        };
        floor.record_asked(&request, &asked);
        let card = asked.value.ok_or_else(|| {
            let last = asked.attempts.last().and_then(|(_, p)| p.error.clone()).unwrap_or_default();
            format!("no readable score in {} replies (last: {last})", asked.attempts.len())
        });
        out.append(&mut floor.events);
        out.push(scored(turn, &agent, judge, card));
    }
    (out, None)
}

/// A speech's score in words, for the terminal and the Markdown: "turn 3, Ann: 3.8 (responsiveness
/// 4/5, …) — reasons".
pub fn line(event: &Event) -> Option<String> {
    let Event::SpeechScored { turn, agent, mean, reasoning, not_judged, scores, .. } = event else {
        return None;
    };
    Some(match mean {
        Some(m) => {
            let scores: Vec<Score> = scores.read().unwrap_or_default();
            let card = Scorecard { scores, ..Scorecard::default() };
            format!(
                "turn {turn}, {agent}: {} ({}){}",
                crate::text::fixed(*m, 1),
                super::scores_line(&card),
                if reasoning.is_empty() { String::new() } else { format!(" — {reasoning}") }
            )
        }
        None => format!("turn {turn}, {agent}: not scored ({not_judged})"),
    })
}
