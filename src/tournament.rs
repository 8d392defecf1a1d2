//! A tournament of speaker-selection methods: every method plays every seed of one scenario, the
//! conversations of each pair of methods on the same seed are judged pairwise in both orders
//! (`crate::judge::pairwise`), and the methods are rated by a Bradley–Terry fit of the overall
//! preferences, with 95 % intervals from a bootstrap over seeds.
//!
//! The judgements are kept as CSV rows, one per seed, pair and dimension, so shards played on
//! different machines merge into the file one machine would have written, and the leaderboard is
//! computed from the rows alone (the same rows give the same leaderboard, bootstrap included).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::batch::csv::{line, records};
use crate::i18n::{say, t, tf};
use crate::judge::pairwise::{Judgement, Side, OVERALL};

const HEADER: &str = "tournament,seeds,judge,seed,method_a,method_b,dimension,first,second,outcome,agreed";

/// The `first` and `second` cells of a pair whose conversations were word for word the same
/// (recorded as a tie, the judge not asked).
const SAME: &str = "same";

/// Bootstrap resamples for the intervals.
pub const RESAMPLES: usize = 1000;

/// One dimension of one pair of methods on one seed, judged in both orders.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub seed: u64,
    pub a: String,
    pub b: String,
    pub dimension: String,
    pub judged: Judgement,
}

/// A tournament's judgements (or one shard's).
#[derive(Clone, Debug, PartialEq)]
pub struct Tournament {
    /// The fingerprint of the scenario as given (`crate::batch::fingerprint`).
    pub id: String,
    /// The whole tournament's seeds, as `--seeds` was given (normalized), also in a shard.
    pub seeds: String,
    /// Who judged.
    pub judge: String,
    pub rows: Vec<Row>,
}

fn side(s: Option<Side>) -> &'static str {
    s.map_or("", Side::as_str)
}

impl Tournament {
    /// The rows in a fixed order: by seed, pair and dimension as played.
    fn sorted(&self) -> Vec<&Row> {
        let mut rows: Vec<&Row> = self.rows.iter().collect();
        crate::text::sort_stable(&mut rows, |x, y| (x.seed, &x.a, &x.b) < (y.seed, &y.a, &y.b));
        rows
    }

    /// The rows as CSV (written and read as a batch's file is: `crate::batch::csv`).
    pub fn to_csv(&self) -> String {
        let mut out = line(HEADER.split(',').map(String::from).collect());
        for r in self.sorted() {
            let outcome = r.judged.outcome().map_or("", |s| match s {
                Side::A => "a",
                Side::B => "b",
                Side::Tie => "tie",
            });
            let agreed = r.judged.agreed().map_or(String::new(), |a| a.to_string());
            out.push_str(&line(vec![
                self.id.clone(),
                self.seeds.clone(),
                self.judge.clone(),
                r.seed.to_string(),
                r.a.clone(),
                r.b.clone(),
                r.dimension.clone(),
                if r.judged.identical { SAME.into() } else { side(r.judged.first).into() },
                if r.judged.identical { SAME.into() } else { side(r.judged.second).into() },
                outcome.into(),
                agreed,
            ]));
        }
        out
    }

    pub fn read_csv(text: &str) -> Result<Tournament, String> {
        let mut records = records(text)?.into_iter();
        if records.next().map(|h| h.join(",")).as_deref() != Some(HEADER) {
            return Err("the header is not that of a tournament written by `agora tournament`".into());
        }
        let mut t =
            Tournament { id: String::new(), seeds: String::new(), judge: String::new(), rows: Vec::new() };
        for (i, c) in records.enumerate() {
            let at = i + 2;
            if c.len() != 11 {
                return Err(format!("line {at} has {} cells, the header 11", c.len()));
            }
            if t.rows.is_empty() {
                (t.id, t.seeds, t.judge) = (c[0].clone(), c[1].clone(), c[2].clone());
            } else if (&c[0], &c[1], &c[2]) != (&t.id, &t.seeds, &t.judge) {
                return Err(format!("line {at} belongs to another tournament than the lines before it"));
            }
            let order = |s: &str| -> Result<Option<Side>, String> {
                if s.is_empty() {
                    return Ok(None);
                }
                Side::parse(s).map(Some).ok_or_else(|| format!("line {at}: \"{s}\" is not A, B or tie"))
            };
            t.rows.push(Row {
                seed: c[3]
                    .parse()
                    .map_err(|_| format!("line {at}: the seed \"{}\" is not a number", c[3]))?,
                a: c[4].clone(),
                b: c[5].clone(),
                dimension: c[6].clone(),
                judged: if c[7] == SAME && c[8] == SAME {
                    Judgement::IDENTICAL
                } else {
                    Judgement::asked(order(&c[7])?, order(&c[8])?)
                },
            });
        }
        Ok(t)
    }

    /// The methods that played, in the order they first appear.
    pub fn methods(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for r in self.sorted() {
            for m in [&r.a, &r.b] {
                if !out.contains(m) {
                    out.push(m.clone());
                }
            }
        }
        out
    }
}

/// Puts shards of one tournament back together: the same tournament, no row twice, every seed.
pub fn merge(parts: Vec<(String, Tournament)>) -> Result<Tournament, String> {
    let mut parts = parts.into_iter();
    let (first, mut all) = parts.next().ok_or("nothing to merge")?;
    let key = |r: &Row| (r.seed, r.a.clone(), r.b.clone(), r.dimension.clone());
    let mut seen: std::collections::BTreeMap<_, String> =
        all.rows.iter().map(|r| (key(r), first.clone())).collect();
    for (name, part) in parts {
        if part.rows.is_empty() {
            continue;
        }
        if all.rows.is_empty() {
            (all.id, all.seeds, all.judge) = (part.id.clone(), part.seeds.clone(), part.judge.clone());
        }
        if (&part.id, &part.seeds, &part.judge) != (&all.id, &all.seeds, &all.judge) {
            return Err(format!(
                "{name} comes from another tournament than {first} (scenario, seeds or judge)"
            ));
        }
        for r in part.rows {
            if let Some(other) = seen.insert(key(&r), name.clone()) {
                return Err(format!(
                    "seed {} of {} against {} is in both {other} and {name}",
                    r.seed, r.a, r.b
                ));
            }
            all.rows.push(r);
        }
    }
    let seeds = crate::batch::Seeds::parse(&all.seeds).map_err(|e| format!("the tournament's seeds: {e}"))?;
    let missing: Vec<String> =
        seeds.list().iter().filter(|s| !all.rows.iter().any(|r| r.seed == **s)).map(u64::to_string).collect();
    if !missing.is_empty() {
        return Err(format!(
            "seeds {} are missing (a shard not given, or one that did not finish)",
            missing.join(", ")
        ));
    }
    Ok(all)
}

/// Bradley–Terry strengths of `n` players from `games` (i, j, i's score: 1 a win, 0.5 a tie, 0 a
/// loss), fitted by Hunter's MM algorithm, with one tie against every other player added as a
/// prior so a player that never won keeps a finite strength. Log-strengths, centred on 0.
pub fn bradley_terry(n: usize, games: &[(usize, usize, f64)]) -> Vec<f64> {
    let mut wins = vec![0.0; n];
    let mut meetings = vec![vec![0.0; n]; n];
    for &(i, j, s) in games {
        wins[i] += s;
        wins[j] += 1.0 - s;
        meetings[i][j] += 1.0;
        meetings[j][i] += 1.0;
    }
    for (i, row) in meetings.iter_mut().enumerate() {
        wins[i] += 0.5 * (n - 1) as f64;
        for (j, met) in row.iter_mut().enumerate() {
            if i != j {
                *met += 1.0;
            }
        }
    }
    let mut p = vec![1.0; n];
    for _ in 0..10_000 {
        let next: Vec<f64> = (0..n)
            .map(|i| {
                let d: f64 = (0..n).filter(|&j| j != i).map(|j| meetings[i][j] / (p[i] + p[j])).sum();
                if d > 0.0 {
                    wins[i] / d
                } else {
                    p[i]
                }
            })
            .collect();
        let mean = next.iter().map(|x| x.ln()).sum::<f64>() / n.max(1) as f64;
        let next: Vec<f64> = next.iter().map(|x| (x.ln() - mean).exp()).collect();
        let change = next.iter().zip(&p).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        p = next;
        if change < 1e-12 {
            break;
        }
    }
    p.iter().map(|x| x.ln()).collect()
}

/// A log-strength on the Elo scale (400 points are ten to one odds), centred on 1000.
pub fn elo(log_strength: f64) -> f64 {
    1000.0 + 400.0 * log_strength / std::f64::consts::LN_10
}

/// One method's place on the leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Standing {
    pub method: String,
    /// Bradley–Terry rating on the Elo scale, and its 95 % bootstrap interval.
    pub rating: f64,
    pub low: f64,
    pub high: f64,
    pub wins: u32,
    pub ties: u32,
    pub losses: u32,
}

/// The leaderboard of a tournament: the methods by rating on the overall dimension, and how
/// often the two orders of asking agreed (over every dimension judged both ways).
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Leaderboard {
    pub judge: String,
    pub seeds: String,
    pub standings: Vec<Standing>,
    /// Judgements where both orders gave the same verdict, among those judged both ways.
    pub agreement: Option<f64>,
    /// Judgements (pairs × dimensions) asked in both orders.
    pub judged: usize,
    /// Pairs of methods on a seed whose conversations were word for word the same: a tie each,
    /// the judge not asked.
    #[serde(default)]
    pub identical: usize,
    /// Pairs of methods on a seed left without an overall outcome (a run failed, or an order of
    /// asking could not be read after every attempt).
    #[serde(default)]
    pub unjudged: usize,
    /// Judge's replies asked again because they could not be read (written by the terminal's
    /// tournament; not kept in the CSV, so a merge counts none).
    #[serde(default)]
    pub retries: usize,
}

fn round(x: f64, places: i32) -> f64 {
    let f = 10f64.powi(places);
    (x * f).round() / f
}

impl Leaderboard {
    pub fn of(t: &Tournament) -> Leaderboard {
        let methods = t.methods();
        let index = |m: &str| methods.iter().position(|x| x == m).unwrap_or(0);
        // The overall outcomes, by seed, as games.
        let mut by_seed: std::collections::BTreeMap<u64, Vec<(usize, usize, f64)>> = Default::default();
        let mut record = vec![(0u32, 0u32, 0u32); methods.len()];
        for r in t.rows.iter().filter(|r| r.dimension == OVERALL) {
            let Some(outcome) = r.judged.outcome() else { continue };
            let (i, j) = (index(&r.a), index(&r.b));
            let s = match outcome {
                Side::A => 1.0,
                Side::B => 0.0,
                Side::Tie => 0.5,
            };
            by_seed.entry(r.seed).or_default().push((i, j, s));
            match outcome {
                Side::A => (record[i].0 += 1, record[j].2 += 1),
                Side::B => (record[j].0 += 1, record[i].2 += 1),
                Side::Tie => (record[i].1 += 1, record[j].1 += 1),
            };
        }
        let all: Vec<(usize, usize, f64)> = by_seed.values().flatten().copied().collect();
        let fit = bradley_terry(methods.len(), &all);
        // Seeds resampled with replacement: the games of a seed stay together.
        let seeds: Vec<&Vec<(usize, usize, f64)>> = by_seed.values().collect();
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(RESAMPLES); methods.len()];
        if !seeds.is_empty() {
            for _ in 0..RESAMPLES {
                let games: Vec<(usize, usize, f64)> = (0..seeds.len())
                    .flat_map(|_| seeds[rng.random_range(0..seeds.len())].iter().copied())
                    .collect();
                for (m, s) in bradley_terry(methods.len(), &games).into_iter().enumerate() {
                    samples[m].push(s);
                }
            }
        }
        let mut standings: Vec<Standing> = methods
            .iter()
            .enumerate()
            .map(|(m, name)| {
                let mut s = samples[m].clone();
                crate::text::sort_stable(&mut s, |x, y| x.total_cmp(y).is_lt());
                let at =
                    |q: f64| s.get(((s.len() as f64 - 1.0) * q).round() as usize).copied().unwrap_or(fit[m]);
                Standing {
                    method: name.clone(),
                    rating: round(elo(fit[m]), 1),
                    low: round(elo(at(0.025)), 1),
                    high: round(elo(at(0.975)), 1),
                    wins: record[m].0,
                    ties: record[m].1,
                    losses: record[m].2,
                }
            })
            .collect();
        crate::text::sort_stable(&mut standings, |x, y| {
            y.rating.total_cmp(&x.rating).then_with(|| x.method.cmp(&y.method)).is_lt()
        });
        let both: Vec<bool> = t.rows.iter().filter_map(|r| r.judged.agreed()).collect();
        let agreement = (!both.is_empty())
            .then(|| round(both.iter().filter(|a| **a).count() as f64 / both.len() as f64, 4));
        let overall = || t.rows.iter().filter(|r| r.dimension == OVERALL);
        Leaderboard {
            judge: t.judge.clone(),
            seeds: t.seeds.clone(),
            standings,
            agreement,
            judged: both.len(),
            identical: overall().filter(|r| r.judged.identical).count(),
            unjudged: overall().filter(|r| r.judged.outcome().is_none()).count(),
            retries: 0,
        }
    }

    /// The leaderboard as the terminal prints it.
    pub fn lines(&self) -> Vec<String> {
        let mut out = vec![format!("Leaderboard (judged by {}; seeds {}):", self.judge, self.seeds)];
        let width = self.standings.iter().map(|s| s.method.chars().count()).max().unwrap_or(6).max(6);
        out.push(format!("  #  {:<width$}  rating  95 % interval     won  tied  lost", "method"));
        for (i, s) in self.standings.iter().enumerate() {
            out.push(format!(
                "  {}  {:<width$}  {:>6}  [{}, {}]  {:>4}  {:>4}  {:>4}",
                if self.all_equal() { "=".to_string() } else { (i + 1).to_string() },
                s.method,
                crate::text::fixed(s.rating, 0),
                crate::text::fixed(s.low, 0),
                crate::text::fixed(s.high, 0),
                s.wins,
                s.ties,
                s.losses
            ));
        }
        out.push(match self.agreement {
            Some(a) => format!(
                "The two orders of asking agreed on {} % of {} judgements, every dimension pooled (a preference counts only when they agree).",
                crate::text::fixed(a * 100.0, 1),
                self.judged
            ),
            None => "No judgement was made in both orders.".into(),
        });
        if self.identical > 0 {
            out.push(format!(
                "{} pair{} of conversations were word for word the same: each counted as a tie, the judge not asked.",
                self.identical,
                if self.identical == 1 { "" } else { "s" }
            ));
        }
        if self.unjudged > 0 {
            out.push(format!(
                "{} pair{} of methods could not be judged and count for nothing.",
                self.unjudged,
                if self.unjudged == 1 { "" } else { "s" }
            ));
        }
        if self.all_equal() {
            out.push("Every rating is the same: the judgements tell the methods apart in nothing, so the order above means nothing.".into());
        }
        out.extend(EXPLAINED.lines().map(String::from));
        out
    }

    /// Whether every method has the same rating (a judge that preferred none, or no judgement).
    pub fn all_equal(&self) -> bool {
        self.standings.windows(2).all(|w| w[0].rating == w[1].rating)
    }
}

/// What the leaderboard's numbers mean, printed under it (and in the README).
pub const EXPLAINED: &str =
    "How to read it: ratings are Bradley-Terry strengths on the Elo scale, from the overall
preferences only: 1000 is the field's average, and 400 points more are 10 to 1 odds of being
preferred. Each method starts with one tie against every other (a prior that keeps a method that
never won finite), and a tie counts half a win. The interval is the 2.5th to 97.5th percentile of
1000 refits with the seeds resampled. Won, tied and lost count the overall outcomes. In the CSV,
method_a is A: `first` is the verdict with method_a's conversation shown first, `second` with it
shown second (read back so that A is method_a), `outcome` the preference both orders agreed on
(else tie), `agreed` whether they did; `same` marks conversations that were word for word alike.";

/// Each method's games on one dimension: won, tied, lost.
pub type Records = Vec<(String, [u32; 3])>;

/// Each method's record on each dimension judged (in the order first judged): won, tied, lost,
/// counting a preference only where both orders agree.
pub fn records_by_dimension(t: &Tournament) -> Vec<(String, Records)> {
    let methods = t.methods();
    let mut out: Vec<(String, Records)> = Vec::new();
    for r in &t.rows {
        let Some(outcome) = r.judged.outcome() else { continue };
        let at = match out.iter().position(|(d, _)| *d == r.dimension) {
            Some(i) => i,
            None => {
                out.push((r.dimension.clone(), methods.iter().map(|m| (m.clone(), [0; 3])).collect()));
                out.len() - 1
            }
        };
        let mut add = |m: &str, k: usize| {
            if let Some((_, rec)) = out[at].1.iter_mut().find(|(n, _)| n == m) {
                rec[k] += 1;
            }
        };
        match outcome {
            Side::A => (add(&r.a, 0), add(&r.b, 2)),
            Side::B => (add(&r.b, 0), add(&r.a, 2)),
            Side::Tie => (add(&r.a, 1), add(&r.b, 1)),
        };
    }
    out
}

/// A tournament file as the page shows it: the leaderboard with each rating's interval placed on
/// one scale, how often the orders agreed, and (from the CSV, which holds every judgement) each
/// method's record on every dimension.
#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    /// Who judged and over which seeds, with how to read the ratings.
    pub by: String,
    pub rows: Vec<BoardRow>,
    /// How often the two orders of asking agreed.
    pub agreement: String,
    /// Each dimension's records, from a CSV (a JSON leaderboard has none).
    pub dimensions: Option<Vec<(String, Records)>>,
}

/// One method's line of a [`Board`], its figures as the page writes them.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardRow {
    pub method: String,
    pub rating: String,
    /// The interval's ends, written.
    pub low: String,
    pub high: String,
    /// Where on the board's one scale (percent of its width) the interval starts, how wide it is,
    /// and where the rating falls.
    pub interval: (f64, f64, f64),
    pub record: [u32; 3],
}

impl Board {
    /// The board of `text`: the CSV `agora tournament` writes, or the JSON leaderboard beside it.
    pub fn read(text: &str) -> Result<Board, String> {
        let (board, rows) = if text.trim_start().starts_with('{') {
            let board: Leaderboard =
                serde_json::from_str(text).map_err(|e| tf(say::BoardNotLeaderboard, &[("why", &e)]))?;
            (board, None)
        } else {
            let t = Tournament::read_csv(text)?;
            (Leaderboard::of(&t), Some(t))
        };
        if board.standings.is_empty() {
            return Err(t(say::BoardNoPairs).into());
        }
        let lo = board.standings.iter().map(|s| s.low.min(s.rating)).fold(f64::INFINITY, f64::min);
        let hi = board.standings.iter().map(|s| s.high.max(s.rating)).fold(f64::NEG_INFINITY, f64::max);
        let span = (hi - lo).max(1.0);
        let at = |x: f64| ((x - lo) / span * 1000.0).round() / 10.0;
        let fixed = |x: f64| crate::text::fixed(x, 0);
        Ok(Board {
            by: tf(say::BoardBy, &[("judge", &board.judge), ("seeds", &board.seeds)]),
            rows: board
                .standings
                .iter()
                .map(|s| BoardRow {
                    method: s.method.clone(),
                    rating: fixed(s.rating),
                    low: fixed(s.low),
                    high: fixed(s.high),
                    interval: (at(s.low), ((s.high - s.low) / span * 1000.0).round() / 10.0, at(s.rating)),
                    record: [s.wins, s.ties, s.losses],
                })
                .collect(),
            agreement: match board.agreement {
                Some(a) => tf(
                    say::BoardAgreement,
                    &[("share", &crate::text::fixed(a * 100.0, 1)), ("n", &board.judged)],
                ),
                None => t(say::BoardNoAgreement).into(),
            },
            dimensions: rows.map(|t| records_by_dimension(&t)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bradley_terry_recovers_known_strengths_from_simulated_preferences_within_its_intervals() {
        // Four methods of known log-strength, 40 seeds, every pair once a seed.
        let truth: [f64; 4] = [0.8, 0.3, -0.2, -0.9];
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let names = ["w", "x", "y", "z"];
        let mut rows = Vec::new();
        for seed in 1..=40u64 {
            for i in 0..4 {
                for j in i + 1..4 {
                    let p = 1.0 / (1.0 + (truth[j] - truth[i]).exp());
                    let side = if rng.random::<f64>() < p { Side::A } else { Side::B };
                    rows.push(Row {
                        seed,
                        a: names[i].into(),
                        b: names[j].into(),
                        dimension: OVERALL.into(),
                        judged: Judgement::asked(Some(side), Some(side)),
                    });
                }
            }
        }
        let t = Tournament { id: "t".into(), seeds: "1..40".into(), judge: "sim".into(), rows };
        let board = Leaderboard::of(&t);
        let order: Vec<&str> = board.standings.iter().map(|s| s.method.as_str()).collect();
        assert_eq!(order, ["w", "x", "y", "z"]);
        let mean = truth.iter().sum::<f64>() / 4.0;
        for s in &board.standings {
            let i = names.iter().position(|n| *n == s.method).unwrap();
            let expected = elo(truth[i] - mean);
            assert!(
                s.low <= expected && expected <= s.high,
                "{}: {expected} outside [{}, {}]",
                s.method,
                s.low,
                s.high
            );
            assert!(s.low < s.rating && s.rating < s.high);
        }
        assert_eq!(board.agreement, Some(1.0));
        // The same rows give the same leaderboard, bootstrap included, and read back as written.
        assert_eq!(Leaderboard::of(&Tournament::read_csv(&t.to_csv()).unwrap()), board);
    }

    #[test]
    fn a_preference_counts_only_when_both_orders_agree() {
        let j = Judgement::asked;
        assert_eq!(j(Some(Side::A), Some(Side::A)).outcome(), Some(Side::A));
        assert_eq!(j(Some(Side::A), Some(Side::B)).outcome(), Some(Side::Tie));
        assert_eq!(j(Some(Side::A), Some(Side::B)).agreed(), Some(false));
        assert_eq!(j(Some(Side::A), None).outcome(), None);
        assert_eq!(bradley_terry(2, &[(0, 1, 0.5), (0, 1, 0.5)]), vec![0.0, 0.0]);
    }

    #[test]
    fn the_page_draws_the_same_leaderboard_from_the_csv_and_the_json_with_each_dimension_from_the_csv() {
        let j = Judgement::asked;
        let row = |seed, a: &str, b: &str, d: &str, judged| Row {
            seed,
            a: a.into(),
            b: b.into(),
            dimension: d.into(),
            judged,
        };
        let (a, b, tie) = (Some(Side::A), Some(Side::B), Some(Side::Tie));
        let t = Tournament {
            id: "t".into(),
            seeds: "1..2".into(),
            judge: "the demo judge".into(),
            rows: vec![
                row(1, "bidding", "round_robin", "balance", j(a, a)),
                row(1, "bidding", "round_robin", OVERALL, j(a, b)),
                row(2, "bidding", "round_robin", "balance", j(b, b)),
                row(2, "bidding", "round_robin", OVERALL, j(a, a)),
                row(2, "bidding", "director", OVERALL, j(tie, None)),
            ],
        };
        // Balance: one win each; overall: bidding won once and tied once against round robin.
        assert_eq!(
            records_by_dimension(&t),
            vec![
                (
                    "balance".to_string(),
                    vec![
                        ("bidding".to_string(), [1, 0, 1]),
                        ("round_robin".to_string(), [1, 0, 1]),
                        ("director".to_string(), [0, 0, 0])
                    ]
                ),
                (
                    OVERALL.to_string(),
                    vec![
                        ("bidding".to_string(), [1, 1, 0]),
                        ("round_robin".to_string(), [0, 1, 1]),
                        ("director".to_string(), [0, 0, 0])
                    ]
                ),
            ]
        );
        let from_csv = Board::read(&t.to_csv()).unwrap();
        let board = Leaderboard::of(&t);
        let from_json = Board::read(&serde_json::to_string_pretty(&board).unwrap()).unwrap();
        assert_eq!(from_csv.rows, from_json.rows);
        assert!(from_csv.by.starts_with("Judged by the demo judge, seeds 1..2."), "{}", from_csv.by);
        let first = &board.standings[0];
        assert_eq!(first.method, "bidding");
        let row = &from_csv.rows[0];
        assert_eq!(
            (row.method.as_str(), row.rating.clone()),
            ("bidding", crate::text::fixed(first.rating, 0))
        );
        assert_eq!(row.record, [first.wins, first.ties, first.losses]);
        // Every interval is on the one scale, its rating inside it.
        for r in &from_csv.rows {
            let (left, width, mark) = r.interval;
            assert!(
                (0.0..=100.0).contains(&left)
                    && left + width <= 100.05
                    && (left..=left + width + 0.05).contains(&mark),
                "{r:?}"
            );
        }
        let dims = from_csv.dimensions.as_ref().unwrap();
        assert!(dims.iter().any(|(d, _)| d == "balance") && from_json.dimensions.is_none());
        assert!(from_csv.agreement.contains("agreed on 75.0 % of 4 judgements"), "{}", from_csv.agreement);
        for bad in [
            "{\"standings\": 3}",
            "tournament,seeds\n1,2",
            "{\"judge\":\"j\",\"seeds\":\"1\",\"standings\":[],\"agreement\":null,\"judged\":0}",
        ] {
            assert!(Board::read(bad).is_err(), "{bad}");
        }
    }
}
