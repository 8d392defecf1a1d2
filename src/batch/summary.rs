//! The statistics of a batch: distributions over its runs, worded once for every reader.

use std::collections::BTreeMap;

use super::{RunFigures, Table};
use crate::text::fixed;

/// Mean, standard deviation (of the runs, not of the mean) and range of one figure over runs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spread {
    /// How many runs had the figure.
    pub n: usize,
    pub mean: f64,
    pub sd: f64,
    pub min: f64,
    pub max: f64,
}

impl Spread {
    pub fn of(values: impl IntoIterator<Item = f64>) -> Spread {
        let values: Vec<f64> = values.into_iter().collect();
        if values.is_empty() {
            return Spread::default();
        }
        let n = values.len() as f64;
        let mean = values.iter().sum::<f64>() / n;
        let var = values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n;
        Spread {
            n: values.len(),
            mean,
            sd: var.sqrt(),
            min: values.iter().copied().fold(f64::INFINITY, f64::min),
            max: values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        }
    }

    /// "2.35 ± 0.40 (1 to 4)", with `decimals` after the point.
    pub fn describe(&self, decimals: u32) -> String {
        format!(
            "{} ± {} ({} to {})",
            fixed(self.mean, decimals),
            fixed(self.sd, decimals),
            fixed(self.min, decimals),
            fixed(self.max, decimals)
        )
    }
}

/// What a batch's runs add up to.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    pub runs: usize,
    /// How many runs ended each way (`turn_limit`, `error`, ...).
    pub finished: BTreeMap<String, usize>,
    pub floor: Vec<(String, Spread)>,
    pub longest_run: Spread,
    /// Over the runs in which everyone spoke.
    pub everyone_spoke_by: Spread,
    pub calls: Spread,
    pub orchestration_tokens: Spread,
    pub speech_tokens: Spread,
    /// Over the runs with a price.
    pub cost: Spread,
    pub retries: Spread,
    /// Fallbacks per turn, per run.
    pub fallback_rate: Spread,
    /// Defaulted bids among all bids of the batch, when there were bids.
    pub default_bid_rate: Option<f64>,
    /// Refused, filtered or unanswered calls and empty speeches, in all.
    pub refused: u32,
    pub empty: u32,
    /// The trading game: last game's overall score against the optimum.
    pub efficiency: Spread,
    /// The trading game: each game's overall score (the optimizer's iterations).
    pub overall_by_game: Vec<Spread>,
}

impl Summary {
    pub fn of(table: &Table) -> Summary {
        let rows = &table.rows;
        let each = |f: &dyn Fn(&RunFigures) -> Option<f64>| Spread::of(rows.iter().filter_map(f));
        let mut finished = BTreeMap::new();
        for r in rows {
            let how = if r.finish.is_empty() { "unfinished" } else { r.finish.as_str() };
            *finished.entry(how.to_string()).or_default() += 1;
        }
        let bids: u32 = rows.iter().map(|r| r.bids).sum();
        let default_bids: u32 = rows.iter().map(|r| r.default_bids).sum();
        Summary {
            runs: rows.len(),
            finished,
            floor: table
                .agents
                .iter()
                .enumerate()
                .map(|(i, a)| (a.clone(), each(&|r| r.floor.get(i).map(|(_, s)| *s))))
                .collect(),
            longest_run: each(&|r| Some(f64::from(r.longest_run))),
            everyone_spoke_by: each(&|r| r.everyone_spoke_by.map(f64::from)),
            calls: each(&|r| Some(f64::from(r.calls))),
            orchestration_tokens: each(&|r| Some(r.orchestration_tokens as f64)),
            speech_tokens: each(&|r| Some(r.speech_tokens as f64)),
            cost: each(&|r| r.cost),
            retries: each(&|r| Some(f64::from(r.retries))),
            fallback_rate: each(&|r| (r.turns > 0).then(|| f64::from(r.fallbacks) / f64::from(r.turns))),
            default_bid_rate: (bids > 0).then(|| f64::from(default_bids) / f64::from(bids)),
            refused: rows.iter().map(|r| r.refused).sum(),
            empty: rows.iter().map(|r| r.empty).sum(),
            efficiency: each(&RunFigures::efficiency),
            overall_by_game: (0..table.games as usize)
                .map(|g| each(&|r| r.overall.get(g).map(|o| *o as f64)))
                .collect(),
        }
    }

    /// The summary as lines of text (the terminal prints them; the app shows the same figures).
    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        let ends: Vec<String> = self.finished.iter().map(|(how, n)| format!("{n} {how}")).collect();
        out.push(format!("{} runs: {}", self.runs, ends.join(", ")));
        if self.runs == 0 {
            return out;
        }
        out.push("Share of the floor (mean ± sd, min to max over runs):".into());
        let width = self.floor.iter().map(|(a, _)| a.chars().count()).max().unwrap_or(0);
        for (agent, s) in &self.floor {
            out.push(format!("  {agent:<width$}  {}", s.describe(3)));
        }
        out.push(format!("Longest run of one speaker: {}", self.longest_run.describe(2)));
        out.push(match self.everyone_spoke_by.n {
            0 => "Turns until everyone spoke: in no run did everyone speak".into(),
            n => format!(
                "Turns until everyone spoke: {} (everyone spoke in {n} of {} runs)",
                self.everyone_spoke_by.describe(2),
                self.runs
            ),
        });
        out.push(format!("Calls per run: {}", self.calls.describe(1)));
        out.push(format!(
            "Tokens per run choosing speakers: {}; speaking and the rest: {}",
            self.orchestration_tokens.describe(0),
            self.speech_tokens.describe(0)
        ));
        if self.cost.n > 0 {
            out.push(format!("Cost per run: ${}", self.cost.describe(4)));
        }
        out.push(format!("Retries per run: {}", self.retries.describe(2)));
        out.push(format!("Fallbacks per turn: {}", self.fallback_rate.describe(3)));
        if let Some(rate) = self.default_bid_rate {
            out.push(format!("Default bids: {}% of bids", fixed(rate * 100.0, 1)));
        }
        if self.refused + self.empty > 0 {
            out.push(format!(
                "Refused or unanswered calls: {}; empty speeches: {}",
                self.refused, self.empty
            ));
        }
        if self.efficiency.n > 0 {
            out.push(format!(
                "Overall score against the optimum (last game): {}",
                self.efficiency.describe(3)
            ));
        }
        for (g, s) in self.overall_by_game.iter().enumerate().filter(|(_, s)| s.n > 0) {
            out.push(format!("  game {} overall score: {} over {} runs", g + 1, s.describe(2), s.n));
        }
        out
    }
}
