//! A batch's distributions as small charts (no chart library): horizontal bars with their range,
//! each with a text alternative, laid out here for the page to draw as SVG, readable on a
//! projector.

use super::{Spread, Summary, Table};
use crate::text::fixed;

/// One bar: its label, its length, the range drawn over it, and the figure written beside it.
pub struct Bar {
    pub label: String,
    pub value: f64,
    pub range: Option<(f64, f64)>,
    pub text: String,
}

/// A chart's axes: what the rows are (above their labels), what the bars measure (under the
/// scale), and the scale's ticks as (value, label).
pub struct Axes {
    pub rows: &'static str,
    pub measure: &'static str,
    pub ticks: Vec<(f64, String)>,
}

/// Ticks at 0, the middle and `max`, labelled by `label`; for a count (`whole`), the middle only
/// where it is a whole number (a count of runs has no half run).
fn ticks(max: f64, whole: bool, label: impl Fn(f64) -> String) -> Vec<(f64, String)> {
    let mid = max / 2.0;
    let mut out = vec![(0.0, label(0.0))];
    if mid > 0.0 && !(whole && mid.fract() != 0.0) {
        out.push((mid, label(mid)));
    }
    if max > 0.0 {
        out.push((max, label(max)));
    }
    out
}

/// Bars from 0 to `max`, one per row, on labelled axes, under `caption`.
pub struct Chart {
    pub caption: String,
    pub rows: Vec<Bar>,
    pub max: f64,
    pub axes: Axes,
}

/// Where a chart's parts go in its drawing, in whole pixels of a 560-wide box that scales to
/// the page (whole numbers, so the drawing writes no float).
pub struct Layout {
    pub height: i32,
    /// The scale's line, under the rows.
    pub bottom: i32,
    /// Where the bars start (the labels end just before it).
    pub left: i32,
    /// Where the bars end at `max` (each row's figure starts just after it).
    pub right: i32,
    /// Each tick's place and label.
    pub ticks: Vec<(i32, String)>,
    pub rows: Vec<RowLayout>,
}

/// One row of a [`Layout`].
pub struct RowLayout {
    pub top: i32,
    pub middle: i32,
    pub width: i32,
    /// The range's line from its least to its most.
    pub range: Option<(i32, i32)>,
}

impl Chart {
    pub const WIDTH: i32 = 560;
    pub const ROW: i32 = 26;
    const LABEL: i32 = 140;
    const BARS: f64 = 220.0;
    // Room above the rows for their heading, and below them for the scale and its name.
    const HEAD: i32 = 18;
    const FOOT: i32 = 40;

    /// The chart's text alternative: its caption, then each row's label and figure.
    pub fn alternative(&self) -> String {
        let rows: Vec<String> = self.rows.iter().map(|r| format!("{}: {}", r.label, r.text)).collect();
        format!("{}. {}", self.caption, rows.join("; "))
    }

    pub fn layout(&self) -> Layout {
        let bottom = Self::HEAD + Self::ROW * self.rows.len() as i32 + 4;
        let x = |v: f64| {
            Self::LABEL
                + if self.max > 0.0 {
                    ((v / self.max).clamp(0.0, 1.0) * Self::BARS).round() as i32
                } else {
                    0
                }
        };
        Layout {
            height: bottom + Self::FOOT,
            bottom,
            left: Self::LABEL,
            right: Self::LABEL + Self::BARS as i32,
            ticks: self.axes.ticks.iter().map(|(v, label)| (x(*v), label.clone())).collect(),
            rows: self
                .rows
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    let top = Self::HEAD + i as i32 * Self::ROW + 2;
                    RowLayout {
                        top,
                        middle: top + Self::ROW / 2,
                        width: x(r.value) - Self::LABEL,
                        range: r.range.map(|(lo, hi)| (x(lo), x(hi))),
                    }
                })
                .collect(),
        }
    }
}

/// How many runs had each value of a whole-number figure (`None`: the runs without it, under
/// `missing`), as bars.
fn histogram(values: impl Iterator<Item = Option<u32>>, label: &str, missing: &str) -> (Vec<Bar>, f64) {
    use crate::i18n::{fill, say, t, tf};
    let mut counts = std::collections::BTreeMap::<Option<u32>, u32>::new();
    for v in values {
        *counts.entry(v).or_default() += 1;
    }
    let max = counts.values().copied().max().unwrap_or(0) as f64;
    // Values first, the runs without one last.
    let mut rows: Vec<(Option<u32>, u32)> = counts.into_iter().collect();
    let none_first = rows.first().is_some_and(|(v, _)| v.is_none());
    rows.rotate_left(usize::from(none_first));
    let bars = rows
        .into_iter()
        .map(|(v, n)| Bar {
            label: v.map_or(missing.to_string(), |v| fill(label, &[("v", &v)])),
            value: f64::from(n),
            range: None,
            text: if n == 1 { t(say::BsRunsOne).to_string() } else { tf(say::BsRunsMany, &[("n", &n)]) },
        })
        .collect();
    (bars, max)
}

fn spread_bar(label: String, s: &Spread, text: String) -> Bar {
    Bar { label, value: s.mean, range: Some((s.min, s.max)), text }
}

/// The batch's charts.
pub fn charts(table: &Table, summary: &Summary) -> Vec<Chart> {
    use crate::i18n::{say, t, tf};
    let mut out = Vec::new();
    let range = |mean: String, min: String, max: String| {
        tf(say::ChRange, &[("mean", &mean), ("min", &min), ("max", &max)])
    };
    if summary.runs == 0 {
        return out;
    }
    let pct = |x: f64| format!("{}%", fixed(x * 100.0, 0));
    let floor: Vec<Bar> = summary
        .floor
        .iter()
        .map(|(a, s)| spread_bar(a.clone(), s, range(pct(s.mean), pct(s.min), pct(s.max))))
        .collect();
    let caption = t(say::ChFloorCaption);
    let axes = Axes { rows: t(say::ChAgent), measure: t(say::ChShareTurns), ticks: ticks(1.0, false, pct) };
    out.push(Chart { caption: caption.to_string(), rows: floor, max: 1.0, axes });
    let count = |v: f64| fixed(v, 0);
    let (runs, max) = histogram(table.rows.iter().map(|r| Some(r.longest_run)), t(say::ChInARow), "");
    let caption = t(say::ChLongestCaption);
    let axes = Axes {
        rows: t(say::ChLongestStretch),
        measure: t(say::ChNumberRuns),
        ticks: ticks(max, true, count),
    };
    out.push(Chart { caption: caption.to_string(), rows: runs, max, axes });
    let (spoke, max) =
        histogram(table.rows.iter().map(|r| r.everyone_spoke_by), t(say::ChTurnsLabel), t(say::ChNever));
    let caption = t(say::ChEveryoneCaption);
    let axes =
        Axes { rows: t(say::ChAllSpokenBy), measure: t(say::ChNumberRuns), ticks: ticks(max, true, count) };
    out.push(Chart { caption: caption.to_string(), rows: spoke, max, axes });
    let optimum = table.rows.iter().find_map(|r| r.optimum).unwrap_or(0);
    let games: Vec<Bar> = summary
        .overall_by_game
        .iter()
        .enumerate()
        .filter(|(_, s)| s.n > 0)
        .map(|(g, s)| {
            let text = tf(
                say::ChGameText,
                &[
                    ("mean", &fixed(s.mean, 1)),
                    ("min", &fixed(s.min, 0)),
                    ("max", &fixed(s.max, 0)),
                    ("optimum", &optimum),
                ],
            );
            spread_bar(tf(say::ChGameLabel, &[("n", &(g + 1))]), s, text)
        })
        .collect();
    if !games.is_empty() {
        let caption = t(say::ChGamesCaption);
        let top = optimum.max(1) as f64;
        let axes = Axes { rows: t(say::ChGame), measure: t(say::ChOverall), ticks: ticks(top, true, count) };
        out.push(Chart { caption: caption.to_string(), rows: games, max: top, axes });
    }
    // The judge's scores: each agent dimension across the cast, then the conversation's dimensions.
    let judged: Vec<&(String, Spread)> = summary.judge.iter().filter(|(_, s)| s.n > 0).collect();
    if !judged.is_empty() {
        let top = judged.iter().map(|(_, s)| s.max).fold(5.0, f64::max);
        let score = |s: &Spread| range(fixed(s.mean, 1), fixed(s.min, 0), fixed(s.max, 0));
        let mut dimensions: Vec<&str> = Vec::new();
        for (name, _) in &judged {
            if let Some((d, _)) = name.split_once(':') {
                if !dimensions.contains(&d) {
                    dimensions.push(d);
                }
            }
        }
        for d in dimensions {
            let rows: Vec<Bar> = judged
                .iter()
                .filter_map(|(name, s)| {
                    let agent = name.strip_prefix(d)?.strip_prefix(':')?;
                    Some(spread_bar(agent.to_string(), s, score(s)))
                })
                .collect();
            let caption =
                tf(say::ChJudgeAgentCaption, &[("dimension", &crate::judge::rubric::Dimension::shown(d))]);
            let axes =
                Axes { rows: t(say::ChAgent), measure: t(say::ChScore), ticks: ticks(top, true, count) };
            out.push(Chart { caption: caption.to_string(), rows, max: top, axes });
        }
        let whole: Vec<Bar> = judged
            .iter()
            .filter(|(name, _)| !name.contains(':'))
            .map(|(name, s)| {
                spread_bar(crate::judge::rubric::Dimension::shown(name).to_string(), s, score(s))
            })
            .collect();
        if !whole.is_empty() {
            let caption = t(say::ChJudgeWholeCaption);
            let axes =
                Axes { rows: t(say::ChDimension), measure: t(say::ChScore), ticks: ticks(top, true, count) };
            out.push(Chart { caption: caption.to_string(), rows: whole, max: top, axes });
        }
    }
    if summary.cost.n > 0 {
        let cost: Vec<Bar> = table
            .rows
            .iter()
            .filter_map(|r| Some((r.seed, r.cost?)))
            .map(|(seed, c)| Bar {
                label: tf(say::ChSeed, &[("seed", &seed)]),
                value: c,
                range: None,
                text: format!("${}", fixed(c, 4)),
            })
            .collect();
        let caption = t(say::ChCostCaption);
        let axes = Axes {
            rows: t(say::ChRun),
            measure: t(say::ChCostDollars),
            ticks: ticks(summary.cost.max, false, |v| format!("${}", fixed(v, 4))),
        };
        out.push(Chart { caption: caption.to_string(), rows: cost, max: summary.cost.max, axes });
    }
    out
}
