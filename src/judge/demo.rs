//! The demo judge: scores from the run's text statistics (`crate::textstats`), with no model, so
//! the scorecard works offline on the demo model. It is labelled as such wherever it shows: it
//! counts words, it does not understand them.
//!
//! Each default dimension reads the statistic nearest to it: responsiveness the share of the
//! previous speaker's words taken up; argument fresh wording (little repetition) at a full length;
//! evidence the speeches' figures and named things; civility the absence of a short list of
//! insults; goal the overlap with the agent's own description and the topic. For the conversation:
//! balance how evenly the cast spoke, progress and repetition how much new wording each speech
//! brought. A dimension it has no statistic for gets no score.

use crate::events::Event;
use crate::textstats::{self, AgentText};

use super::{length_of, Dimension, JudgeSettings, Score, Scorecard};

/// How the demo judge names itself in a verdict.
pub const LABEL: &str = "the demo judge (text statistics, no model)";

/// Words the civility score counts against (lowercase, whole words).
const INSULTS: [&str; 14] = [
    "disgrace",
    "dumb",
    "fool",
    "idiot",
    "idiotic",
    "liar",
    "loser",
    "moron",
    "nonsense",
    "pathetic",
    "ridiculous",
    "shut",
    "stupid",
    "weak",
];

/// A value from 0 to 1 on `d`'s scale.
fn scaled(d: &Dimension, x: f64) -> u32 {
    let x = if x.is_finite() { x.clamp(0.0, 1.0) } else { 0.0 };
    d.min + ((f64::from(d.max - d.min) * x).round() as u32)
}

/// Each speech of `agent`: its turn, its words and its text.
fn speeches<'a>(events: &'a [Event], agent: &str) -> Vec<(u32, Vec<String>, &'a str)> {
    super::messages(events)
        .into_iter()
        .filter(|(_, who, _, kind)| *who == agent && super::spoken(*kind))
        .map(|(turn, _, text, _)| (turn, textstats::words(text), text))
        .collect()
}

/// The share of a speech's words that are figures or named things (a capitalised word not
/// opening a sentence).
fn specifics(text: &str) -> f64 {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.is_empty() {
        return 0.0;
    }
    let mut found = 0;
    for (i, w) in words.iter().enumerate() {
        let opens = i == 0 || words[i - 1].ends_with(['.', '!', '?', ':']);
        let named = !opens && w.chars().next().is_some_and(|c| c.is_ascii_uppercase());
        if named || w.chars().any(|c| c.is_ascii_digit()) {
            found += 1;
        }
    }
    found as f64 / words.len() as f64
}

fn insults(words: &[String]) -> usize {
    words.iter().filter(|w| INSULTS.contains(&w.as_str())).count()
}

fn percent(x: f64) -> String {
    format!("{} %", (x * 100.0).round() as i64)
}

/// A percentage in a Chinese sentence, unspaced as Chinese writes it.
fn percent_zh(x: f64) -> String {
    format!("{}%", (x * 100.0).round() as i64)
}

/// One agent's scorecard from its statistics.
fn agent_card(events: &[Event], t: &AgentText, rubric: &[Dimension], chinese: bool) -> Scorecard {
    let said = speeches(events, &t.agent);
    let (speech_count, words) = length_of(events, &t.agent);
    let fresh = 1.0 - t.repetition.unwrap_or(0.0);
    let full = t.length.unwrap_or(0.0).min(1.0);
    let responsive = t.responsiveness.map(|r| (r / 0.4).min(1.0));
    // One word in ten a figure or a name is full marks.
    let specific = if said.is_empty() {
        0.0
    } else {
        (said.iter().map(|(_, _, s)| specifics(s)).sum::<f64>() / said.len() as f64 * 10.0).min(1.0)
    };
    let rude: usize = said.iter().map(|(_, w, _)| insults(w)).sum();
    let on_goal = t.coverage.map(|c| (c / 0.5).min(1.0));
    let scores = rubric
        .iter()
        .map(|d| {
            let x = if said.is_empty() {
                None
            } else {
                match d.name.as_str() {
                    "responsiveness" => responsive,
                    "argument" => Some((fresh + full) / 2.0),
                    "evidence" => Some(specific),
                    "civility" => Some(1.0 - (rude as f64 / said.len() as f64).min(1.0)),
                    "goal" => on_goal,
                    _ => None,
                }
            };
            Score { dimension: d.name.clone(), score: x.map(|x| scaled(d, x)), min: d.min, max: d.max }
        })
        .collect();
    // The speeches with the most and the fewest specifics (the earlier one on a tie).
    let ranked: Vec<(u32, f64)> = said.iter().map(|(turn, _, s)| (*turn, specifics(s))).collect();
    let best = |better: fn(f64, f64) -> bool| {
        ranked.iter().fold(None, |kept: Option<(u32, f64)>, &(t, x)| match kept {
            Some((_, k)) if !better(x, k) => kept,
            _ => Some((t, x)),
        })
    };
    let strongest = best(|x, k| x > k).map(|(t, _)| t);
    // One speech, or all alike, is no one's weakest as well as its strongest.
    let weakest = best(|x, k| x < k).map(|(t, _)| t).filter(|w| Some(*w) != strongest);
    let none = |x: Option<f64>| x.map(percent).unwrap_or_else(|| "none".into());
    let none_zh = |x: Option<f64>| x.map(percent_zh).unwrap_or_else(|| "无".into());
    let reasoning = if said.is_empty() && chinese {
        "它没有发言，所以没有可评的内容。".to_string()
    } else if said.is_empty() {
        "It did not speak, so there is nothing to score.".to_string()
    } else if chinese {
        format!(
            "文本统计，并非真正的阅读：它接过了上一位发言者 {} 的实词，重复了自己 {} 的三字片段，用了字数上限的 {}，{} 的词来自话题或它的人物描述；数到 {} 个侮辱性的词。",
            none_zh(t.responsiveness),
            percent_zh(t.repetition.unwrap_or(0.0)),
            percent_zh(t.length.unwrap_or(0.0)),
            none_zh(t.coverage),
            rude,
        )
    } else {
        format!(
            "Text statistics, not a reading: it took up {} of the previous speaker's content words, repeated {} of its own three-word phrases, used {} of its word limit, and {} of its words came from the topic or its description; {} insult{} counted.",
            none(t.responsiveness),
            percent(t.repetition.unwrap_or(0.0)),
            percent(t.length.unwrap_or(0.0)),
            none(t.coverage),
            rude,
            if rude == 1 { "" } else { "s" }
        )
    };
    Scorecard {
        agent: t.agent.clone(),
        reasoning,
        scores,
        strongest_turn: strongest.filter(|_| said.len() > 1),
        weakest_turn: weakest.filter(|_| said.len() > 1),
        speeches: speech_count,
        words,
    }
}

/// The demo judge's `verdict` for the run `events` record, written in the scenario's language
/// where that is Chinese (as the demo model speaks it), in English otherwise.
pub fn verdict(events: &[Event], settings: &JudgeSettings) -> Event {
    let chinese = events.iter().any(|e| {
        matches!(e, Event::RunStarted { scenario, .. } if crate::demo::zh::asks_for_chinese(&scenario.language))
    });
    let stats = textstats::of(events);
    let agents: Vec<Scorecard> =
        stats.iter().map(|t| agent_card(events, t, &settings.agent_rubric, chinese)).collect();
    let counts: Vec<f64> = stats.iter().map(|t| f64::from(t.speeches)).collect();
    let total: f64 = counts.iter().sum();
    // Evenness: the entropy of the speech shares over its largest possible value.
    let balance = if counts.len() < 2 || total == 0.0 {
        None
    } else {
        let h: f64 = counts.iter().filter(|c| **c > 0.0).map(|c| -(c / total) * (c / total).ln()).sum();
        Some(h / (counts.len() as f64).ln())
    };
    let repeated: Vec<f64> = stats.iter().filter_map(|t| t.repetition).collect();
    let fresh = (!repeated.is_empty()).then(|| 1.0 - repeated.iter().sum::<f64>() / repeated.len() as f64);
    let conversation = (!settings.conversation_rubric.is_empty()).then(|| Scorecard {
        reasoning: if chinese {
            format!(
                "文本统计，并非真正的阅读：各位发言次数的均衡度为 {}，{} 的三字片段是新的。",
                balance.map(percent_zh).unwrap_or_else(|| "无从计算".into()),
                fresh.map(percent_zh).unwrap_or_else(|| "无".into())
            )
        } else {
            format!(
                "Text statistics, not a reading: the cast's speeches were {} even, and {} of the three-word phrases were new.",
                balance.map(percent).unwrap_or_else(|| "not".into()),
                fresh.map(percent).unwrap_or_else(|| "none".into())
            )
        },
        scores: settings
            .conversation_rubric
            .iter()
            .map(|d| {
                let x = match d.name.as_str() {
                    "balance" => balance,
                    "progress" | "repetition" => fresh,
                    _ => None,
                };
                Score { dimension: d.name.clone(), score: x.map(|x| scaled(d, x)), min: d.min, max: d.max }
            })
            .collect(),
        ..Scorecard::default()
    });
    super::verdict(LABEL.into(), false, agents, conversation, String::new())
}
