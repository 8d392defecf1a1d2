//! The statistics of a batch: distributions over its runs, worded once for every reader.

use std::collections::BTreeMap;

use super::{RunFigures, Table};
use crate::text::fixed;

/// Mean, sample standard deviation (of the runs, dividing by n − 1), the 95 % confidence interval
/// of the mean and the range of one figure over runs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spread {
    /// How many runs had the figure.
    pub n: usize,
    pub mean: f64,
    /// Zero for a single run, which has no spread to estimate.
    pub sd: f64,
    /// Half the width of the 95 % confidence interval of the mean (Student's t with n − 1
    /// degrees of freedom); zero for a single run.
    pub ci: f64,
    pub min: f64,
    pub max: f64,
    /// The figure's own range, when it has one (a share or a rate: 0 to 1; a judge's score: its
    /// scale): the interval is cut to it, as a mean cannot leave it.
    pub bounds: Option<(f64, f64)>,
}

/// `text` with every whole number of five digits or more in groups of three ("12,345 tokens"), as
/// a count of tokens is read aloud; a figure after a decimal point is left as it is.
pub fn grouped(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 8);
    let mut i = 0;
    while i < chars.len() {
        let start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let digits = &chars[start..i];
        let fraction = start > 0 && chars[start - 1] == '.';
        for (k, c) in digits.iter().enumerate() {
            if !fraction && digits.len() >= 5 && k > 0 && (digits.len() - k) % 3 == 0 {
                out.push(',');
            }
            out.push(*c);
        }
    }
    out
}

/// Student's t at 0.975 for 1 to 30 degrees of freedom.
const T_975: [f64; 30] = [
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
    2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/// Student's t at 0.975 for `df` degrees of freedom: the table up to 30, then the Cornish-Fisher
/// expansion around the normal quantile (within 0.001 of the exact value from 30 on).
fn t_975(df: usize) -> f64 {
    if let Some(t) = df.checked_sub(1).and_then(|i| T_975.get(i)) {
        return *t;
    }
    let (z, d) = (1.959_964_f64, df as f64);
    z + (z.powi(3) + z) / (4.0 * d) + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * d * d)
}

impl Spread {
    pub fn of(values: impl IntoIterator<Item = f64>) -> Spread {
        let values: Vec<f64> = values.into_iter().collect();
        if values.is_empty() {
            return Spread::default();
        }
        let n = values.len() as f64;
        let mean = values.iter().sum::<f64>() / n;
        let sd = if values.len() > 1 {
            (values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1.0)).sqrt()
        } else {
            0.0
        };
        let ci = if values.len() > 1 { t_975(values.len() - 1) * sd / n.sqrt() } else { 0.0 };
        Spread {
            n: values.len(),
            mean,
            sd,
            ci,
            min: values.iter().copied().fold(f64::INFINITY, f64::min),
            max: values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            bounds: None,
        }
    }

    /// The same figures, for a quantity that stays within `low` to `high`.
    pub fn within(self, low: f64, high: f64) -> Spread {
        Spread { bounds: Some((low, high)), ..self }
    }

    /// The 95 % interval of the mean: Student's t, cut to the figure's range; none from fewer
    /// than three runs (t with one degree of freedom is 12.7: an interval wider than any range).
    pub fn interval(&self) -> Option<(f64, f64)> {
        if self.n < 3 {
            return None;
        }
        let (low, high) = self.bounds.unwrap_or((f64::NEG_INFINITY, f64::INFINITY));
        Some(((self.mean - self.ci).max(low), (self.mean + self.ci).min(high)))
    }

    /// "3.00 ± 2.16 [−0.44, 6.44] (1.00 to 6.00)": mean ± sample sd, the 95 % interval of the
    /// mean ([`Spread::interval`]), and the range, with `decimals` after the point. A single run
    /// has no spread.
    pub fn describe(&self, decimals: u32) -> String {
        if self.n == 1 {
            return format!("{} (one run)", fixed(self.mean, decimals));
        }
        let interval = match self.interval() {
            Some((low, high)) => format!("[{}, {}]", fixed(low, decimals), fixed(high, decimals)),
            None => format!("[no interval from {} runs]", self.n),
        };
        format!(
            "{} ± {} {interval} ({} to {})",
            fixed(self.mean, decimals),
            fixed(self.sd, decimals),
            fixed(self.min, decimals),
            fixed(self.max, decimals)
        )
    }
}

/// Which interval the summary's figures use, printed under them.
pub const INTERVALS: &str = "Intervals: 95 % Student's t interval of the mean over runs, cut to what the figure can be (a share or a rate 0 to 1, a count or a cost from 0); none from fewer than 3 runs.";

/// How a run ended (as its CSV row names it: `turn_limit`, `error`, ...), in words.
pub fn ending(how: &str) -> &str {
    use crate::i18n::{say, t};
    match how {
        "turn_limit" => t(say::EndTurnLimit),
        "director_stopped" => t(say::EndDirector),
        "game_over" => t(say::EndGames),
        "stopped" => t(say::EndByHand),
        "error" => t(say::EndError),
        "spending_cap" => t(say::EndCap),
        "unfinished" | "" => t(say::EndUnfinished),
        other => other,
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
    /// Each judge column's scores (see [`super::csv::judge_columns`]), over the runs judged.
    pub judge: Vec<(String, Spread)>,
}

impl Summary {
    pub fn of(table: &Table) -> Summary {
        let rows = &table.rows;
        let each = |f: &dyn Fn(&RunFigures) -> Option<f64>| Spread::of(rows.iter().filter_map(f));
        // A count or a cost: never below 0.
        let count = |f: &dyn Fn(&RunFigures) -> Option<f64>| each(f).within(0.0, f64::INFINITY);
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
                .map(|(i, a)| (a.clone(), each(&|r| r.floor.get(i).map(|(_, s)| *s)).within(0.0, 1.0)))
                .collect(),
            longest_run: count(&|r| Some(f64::from(r.longest_run))),
            everyone_spoke_by: count(&|r| r.everyone_spoke_by.map(f64::from)),
            calls: count(&|r| Some(f64::from(r.calls))),
            orchestration_tokens: count(&|r| Some(r.orchestration_tokens as f64)),
            speech_tokens: count(&|r| Some(r.speech_tokens as f64)),
            cost: count(&|r| r.cost),
            retries: count(&|r| Some(f64::from(r.retries))),
            fallback_rate: each(&|r| (r.turns > 0).then(|| f64::from(r.fallbacks) / f64::from(r.turns)))
                .within(0.0, 1.0),
            default_bid_rate: (bids > 0).then(|| f64::from(default_bids) / f64::from(bids)),
            refused: rows.iter().map(|r| r.refused).sum(),
            empty: rows.iter().map(|r| r.empty).sum(),
            efficiency: each(&RunFigures::efficiency),
            judge: table
                .judge
                .iter()
                .map(|j| {
                    let score = |r: &RunFigures| {
                        r.judge.iter().find(|(n, _)| n == j).and_then(|(_, v)| v.map(f64::from))
                    };
                    (j.clone(), each(&score))
                })
                .collect(),
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
        out.push(
            "Share of the floor (mean ± sample sd [95 % interval of the mean] (min to max over runs)):"
                .into(),
        );
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
        if !self.judge.is_empty() {
            let judged = self.judge.iter().map(|(_, s)| s.n).max().unwrap_or(0);
            out.push(format!("The judge's scores ({judged} of {} runs judged; mean ± sample sd [95 % interval of the mean] (min to max)):", self.runs));
            let width = self.judge.iter().map(|(j, _)| j.chars().count()).max().unwrap_or(0);
            for (j, s) in self.judge.iter().filter(|(_, s)| s.n > 0) {
                out.push(format!("  {j:<width$}  {}", s.describe(2)));
            }
        }
        out.push(INTERVALS.into());
        out
    }

    /// The summary in sentences, for the page: what a teacher reads aloud ("All 20 runs reached
    /// the turn limit."; "Donald Trump held the floor in 46 % of turns on average, 30 to 60 %
    /// across runs."). The same figures as [`Summary::lines`], which the terminal prints.
    pub fn sentences(&self) -> Vec<String> {
        use crate::i18n::{say, t, tf};
        let mut out = Vec::new();
        let runs =
            |n: usize| if n == 1 { t(say::BsRunsOne).to_string() } else { tf(say::BsRunsMany, &[("n", &n)]) };
        if self.runs == 0 {
            out.push(t(say::BsNone).into());
            return out;
        }
        let ended: Vec<String> = self
            .finished
            .iter()
            .map(|(how, n)| {
                let what = ending(how);
                match (*n == self.runs, self.runs) {
                    (true, 1) => tf(say::BsOne, &[("what", &what)]),
                    (true, 2) => tf(say::BsBoth, &[("what", &what)]),
                    (true, _) => tf(say::BsAll, &[("n", &self.runs), ("what", &what)]),
                    (false, _) => tf(say::BsSome, &[("n", n), ("total", &self.runs), ("what", &what)]),
                }
            })
            .collect();
        out.push(tf(say::BsEnded, &[("list", &ended.join(t(say::BsJoin)))]));
        // A figure and, after what it counts, how it spread: ("12.3", " on average, 10 to 15
        // across runs"); for one run, or runs that agree, the figure alone.
        // Whole numbers without decimals: a range of turns is "3 to 9", not "3.0 to 9.0".
        let number = |v: f64, decimals: u32| fixed(v, if v.fract() == 0.0 { 0 } else { decimals });
        let spread = |s: &Spread, decimals: u32, unit: &str| {
            let head = format!("{}{unit}", number(s.mean, decimals));
            if s.n == 1 || s.min == s.max {
                return (head, String::new());
            }
            let max = format!("{}{unit}", number(s.max, decimals));
            let tail = tf(say::BsTail, &[("min", &number(s.min, decimals)), ("max", &max)]);
            (head, tail)
        };
        let percent =
            |s: &Spread| Spread { mean: s.mean * 100.0, min: s.min * 100.0, max: s.max * 100.0, ..*s };
        for (agent, s) in &self.floor {
            let (head, tail) = spread(&percent(s), 0, crate::i18n::percent_sign());
            out.push(tf(say::BsFloor, &[("agent", agent), ("head", &head), ("tail", &tail)]));
        }
        let (head, tail) = spread(&self.longest_run, 1, "");
        let longest = if head == "1" { t(say::BsLongestOne) } else { t(say::BsLongestMany) };
        out.push(crate::i18n::fill(longest, &[("head", &head), ("tail", &tail)]));
        let (head, tail) = spread(&self.everyone_spoke_by, 1, "");
        out.push(match self.everyone_spoke_by.n {
            0 => t(say::BsNobodyAll).into(),
            n if n == self.runs => tf(say::BsEveryoneBy, &[("head", &head), ("tail", &tail)]),
            n => tf(
                say::BsEveryoneSome,
                &[("n", &n), ("runs", &runs(self.runs)), ("head", &head), ("tail", &tail)],
            ),
        });
        let (head, tail) = spread(&self.calls, 0, "");
        out.push(tf(say::BsCalls, &[("head", &head), ("tail", &tail)]));
        let (head, tail) = spread(&self.orchestration_tokens, 0, "");
        let (head, tail) = (grouped(&head), grouped(&tail));
        out.push(tf(say::BsChoosingTokens, &[("head", &head), ("tail", &tail)]));
        let (head, tail) = spread(&self.speech_tokens, 0, "");
        let (head, tail) = (grouped(&head), grouped(&tail));
        out.push(tf(say::BsSpeechTokens, &[("head", &head), ("tail", &tail)]));
        if self.cost.n > 0 {
            let (head, tail) = spread(&self.cost, 4, "");
            out.push(tf(say::BsCost, &[("head", &head), ("tail", &tail)]));
        }
        if self.retries.max > 0.0 || self.fallback_rate.max > 0.0 {
            let (head, tail) = spread(&self.retries, 1, "");
            out.push(tf(say::BsRetries, &[("head", &head), ("tail", &tail)]));
            // Per turn, not a share of turns: a bidding turn can default several bids.
            let (head, tail) = spread(&self.fallback_rate, 1, "");
            out.push(tf(say::BsFallbacks, &[("head", &head), ("tail", &tail)]));
        } else {
            out.push(t(say::BsAllRead).into());
        }
        if let Some(rate) = self.default_bid_rate.filter(|r| *r > 0.0) {
            out.push(tf(say::BsDefaultBids, &[("pct", &fixed(rate * 100.0, 1))]));
        }
        if self.refused + self.empty > 0 {
            out.push(tf(say::BsRefused, &[("refused", &self.refused), ("empty", &self.empty)]));
        }
        if self.efficiency.n > 0 {
            let (head, tail) = spread(&percent(&self.efficiency), 0, crate::i18n::percent_sign());
            out.push(tf(say::BsEfficiency, &[("head", &head), ("tail", &tail)]));
        }
        for (g, s) in self.overall_by_game.iter().enumerate().filter(|(_, s)| s.n > 0) {
            let (head, tail) = spread(s, 1, "");
            out.push(tf(
                say::BsGame,
                &[("game", &(g + 1)), ("head", &head), ("tail", &tail), ("runs", &runs(s.n))],
            ));
        }
        // The judge's scores: the conversation's dimensions, then each agent's mean over dimensions.
        for (j, s) in self.judge.iter().filter(|(j, s)| s.n > 0 && !j.contains(':')) {
            let (head, tail) = spread(s, 1, "");
            out.push(tf(
                say::BsJudge,
                &[
                    ("dimension", &crate::judge::rubric::Dimension::shown(j)),
                    ("head", &head),
                    ("tail", &tail),
                    ("runs", &runs(s.n)),
                ],
            ));
        }
        out
    }
}
