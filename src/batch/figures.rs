//! One run reduced to the figures a batch compares: who held the floor, how the choosing went,
//! what it cost, and the trading game's scores.

use crate::events::{Event, MessageKind};
use crate::view::RunView;

/// The figures of one run, all read from its event log.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunFigures {
    pub seed: u64,
    /// How the run ended, as the log names it (`turn_limit`, `error`, ...); `spending_cap` for a
    /// run that stopped at its cap; empty for a log that does not end.
    pub finish: String,
    /// What went wrong, for a run that ended in an error (or could not start).
    pub error: String,
    pub turns: u32,
    /// Each agent's share of the speeches (0 to 1, four decimals), in the cast's order.
    pub floor: Vec<(String, f64)>,
    /// The most speeches in a row by one speaker.
    pub longest_run: u32,
    /// The turn by which every agent had spoken, if they all did.
    pub everyone_spoke_by: Option<u32>,
    pub calls: u32,
    /// Calls that decide who speaks (bids, director and selector choices, handoffs, actions).
    pub orchestration_calls: u32,
    pub speech_calls: u32,
    pub orchestration_tokens: u64,
    /// Every other token: speeches, descriptions, the topic, the optimizer.
    pub speech_tokens: u64,
    /// At the scenario's price (six decimals), when it has one.
    pub cost: Option<f64>,
    pub orchestration_cost: Option<f64>,
    pub retries: u32,
    /// Defaulted bids, fallback choices and handoffs, invalid actions.
    pub fallbacks: u32,
    pub refused: u32,
    pub empty: u32,
    pub bids: u32,
    pub default_bids: u32,
    /// The trading game's best reachable overall score.
    pub optimum: Option<i64>,
    /// The overall score of each game played, in order.
    pub overall: Vec<i64>,
    /// Each agent's text statistics (see `crate::textstats`: repetition, responsiveness,
    /// coverage, length; four decimals), in the cast's order, for the agents with any.
    pub text: Vec<(String, [Option<f64>; 4])>,
    /// The newest verdict's scores, by judge column (see [`super::csv::judge_columns`]); none
    /// where the run was not judged, or a score was not given.
    pub judge: Vec<(String, Option<u32>)>,
    /// Why the run has no verdict where it was to be judged (the judge could not be reached, or
    /// no reply could be read); empty when judged.
    pub judge_error: String,
}

impl RunFigures {
    /// Reads a run's figures from its log (`seed` is the run's, also when the log is empty).
    pub fn of(seed: u64, events: &[Event]) -> RunFigures {
        let view = RunView::from_events(events);
        let agents = view.agents();
        let total = &view.stats.total;
        let mut f = RunFigures {
            seed,
            text: crate::textstats::of(events)
                .into_iter()
                .map(|t| {
                    let four = |v: Option<f64>| v.map(|v| round(v, 1e4));
                    (t.agent, [t.repetition, t.responsiveness, t.coverage, t.length].map(four))
                })
                .filter(|(_, figures)| figures.iter().any(Option::is_some))
                .collect(),
            turns: view.turn,
            calls: total.calls,
            orchestration_calls: total.orchestration_calls,
            speech_calls: total.speech_calls,
            orchestration_tokens: total.orchestration_prompt_tokens + total.orchestration_completion_tokens,
            retries: total.retries,
            fallbacks: total.fallbacks,
            refused: total.refused,
            empty: total.empty,
            finish: view.finished.map(|r| r.as_str().to_string()).unwrap_or_default(),
            ..RunFigures::default()
        };
        f.speech_tokens = total.tokens() - f.orchestration_tokens;
        if let Some(price) = view.scenario.as_ref().and_then(|s| s.model.price) {
            f.cost = Some(round(total.cost(&price), 1e6));
            f.orchestration_cost = Some(round(total.orchestration_cost(&price), 1e6));
        }
        let mut spoken = vec![0u32; agents.len()];
        let mut run = (String::new(), 0u32);
        let mut errors = Vec::new();
        for event in events {
            match event {
                Event::Message { turn, speaker, kind, .. } if *kind != MessageKind::Injected => {
                    let Some(i) = agents.iter().position(|a| a == speaker) else { continue };
                    spoken[i] += 1;
                    run = if run.0 == *speaker { (run.0, run.1 + 1) } else { (speaker.clone(), 1) };
                    f.longest_run = f.longest_run.max(run.1);
                    if f.everyone_spoke_by.is_none() && spoken.iter().all(|n| *n > 0) {
                        f.everyone_spoke_by = Some(*turn);
                    }
                }
                Event::Bid { defaulted, .. } => {
                    f.bids += 1;
                    f.default_bids += u32::from(*defaulted);
                }
                Event::GameEnd { overall, optimum, .. } => {
                    f.overall.push(*overall);
                    f.optimum = Some(*optimum);
                }
                Event::GameStarted { optimum, .. } => f.optimum = Some(*optimum),
                Event::Error { message, .. } => errors.push(message.clone()),
                Event::SpendingCapReached { .. } if f.finish.is_empty() => f.finish = "spending_cap".into(),
                _ => {}
            }
        }
        f.error = errors.join("; ");
        if let Some(Event::Verdict { not_judged, .. }) = crate::judge::latest(events) {
            f.judge_error.clone_from(not_judged);
        }
        // A verdict whose scorecards cannot be read leaves the judge's cells empty, as not judged.
        if let Some(Ok((cards, conversation))) = crate::judge::latest(events).map(crate::judge::scorecards) {
            // In the columns' order: each dimension, then each agent.
            let dimensions = cards.first().map_or(0, |c| c.scores.len());
            for i in 0..dimensions {
                for c in &cards {
                    f.judge
                        .extend(c.scores.get(i).map(|s| (format!("{}:{}", s.dimension, c.agent), s.score)));
                }
            }
            if let Some(c) = conversation {
                f.judge.extend(c.scores.iter().map(|s| (s.dimension.clone(), s.score)));
            }
        }
        let speeches: u32 = spoken.iter().sum();
        f.floor = agents
            .into_iter()
            .zip(spoken)
            .map(|(a, n)| {
                (a, if speeches == 0 { 0.0 } else { round(f64::from(n) / f64::from(speeches), 1e4) })
            })
            .collect();
        f
    }

    /// A run that could not start: only its seed and why.
    pub fn failed(seed: u64, agents: &[String], error: String) -> RunFigures {
        RunFigures {
            seed,
            finish: "error".into(),
            error,
            floor: agents.iter().map(|a| (a.clone(), 0.0)).collect(),
            ..RunFigures::default()
        }
    }

    /// The last game's overall score against the optimum (0 to 1), for a trading game.
    pub fn efficiency(&self) -> Option<f64> {
        match (self.overall.last(), self.optimum) {
            (Some(overall), Some(optimum)) if optimum > 0 => Some(*overall as f64 / optimum as f64),
            _ => None,
        }
    }
}

fn round(x: f64, scale: f64) -> f64 {
    (x * scale).round() / scale
}
