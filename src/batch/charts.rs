//! A batch's distributions as small inline SVG charts (no chart library): horizontal bars with
//! their range, each with a text alternative, readable on a projector.

use super::{Spread, Summary, Table};
use crate::markup;
use crate::markup::Markup;
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
pub struct Axes<'a> {
    pub rows: &'a str,
    pub measure: &'a str,
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

/// Bars from 0 to `max`, one per row, on labelled axes, as an SVG that scales to its box; its
/// title and every row's label and figure are its text alternative.
pub fn bars(title: &str, rows: &[Bar], max: f64, axes: &Axes) -> Markup {
    // Whole pixels of a 560-wide drawing: written as integers, so no float formatting is needed.
    const ROW: i32 = 26;
    const LABEL: i32 = 140;
    const WIDTH: f64 = 220.0;
    // Room above the rows for their heading, and below them for the scale and its name.
    const HEAD: i32 = 18;
    const FOOT: i32 = 40;
    let bottom = HEAD + ROW * rows.len() as i32 + 4;
    let height = bottom + FOOT;
    let x = |v: f64| LABEL + if max > 0.0 { ((v / max).clamp(0.0, 1.0) * WIDTH).round() as i32 } else { 0 };
    let alt: Vec<String> = rows.iter().map(|r| format!("{}: {}", r.label, r.text)).collect();
    let mut svg = markup!(
        "<svg class=\"bars\" role=\"img\" viewBox=\"0 0 560 {}\"><title>{}. {}</title>\
         <text x=\"{}\" y=\"12\" class=\"axis-name\" text-anchor=\"end\" data-axis=\"rows\">{}</text>\
         <line x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" class=\"axis\"/>\
         <text x=\"{}\" y=\"{}\" class=\"axis-name\" text-anchor=\"middle\" data-axis=\"measure\">{}</text>",
        height,
        title,
        alt.join("; "),
        LABEL - 6,
        axes.rows,
        LABEL,
        LABEL + WIDTH as i32,
        bottom,
        bottom,
        LABEL + WIDTH as i32 / 2,
        bottom + 34,
        axes.measure
    );
    for (value, label) in &axes.ticks {
        svg.push(markup!(
            "<line x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" class=\"axis\"/><text x=\"{}\" y=\"{}\" class=\"tick\" text-anchor=\"middle\">{}</text>",
            x(*value),
            x(*value),
            bottom,
            bottom + 4,
            x(*value),
            bottom + 16,
            label
        ));
    }
    for (i, r) in rows.iter().enumerate() {
        let top = HEAD + i as i32 * ROW + 2;
        let mid = top + ROW / 2;
        svg.push(markup!(
            "<text x=\"{}\" y=\"{}\" class=\"label\" text-anchor=\"end\" dominant-baseline=\"middle\">{}</text>\
             <rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"mean\"/>",
            LABEL - 6,
            mid,
            r.label,
            LABEL,
            top + 4,
            x(r.value) - LABEL,
            ROW - 8
        ));
        if let Some((lo, hi)) = r.range {
            svg.push(markup!(
                "<line x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" class=\"range\"/>",
                x(lo),
                x(hi),
                mid,
                mid
            ));
        }
        svg.push(markup!(
            "<text x=\"{}\" y=\"{}\" class=\"figure\" dominant-baseline=\"middle\">{}</text>",
            LABEL + WIDTH as i32 + 6,
            mid,
            r.text
        ));
    }
    svg.push_static("</svg>");
    svg
}

/// How many runs had each value of a whole-number figure (`None`: the runs without it, under
/// `missing`), as bars.
fn histogram(values: impl Iterator<Item = Option<u32>>, unit: &str, missing: &str) -> (Vec<Bar>, f64) {
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
            label: v.map_or(missing.to_string(), |v| format!("{v} {unit}")),
            value: f64::from(n),
            range: None,
            text: format!("{n} run{}", if n == 1 { "" } else { "s" }),
        })
        .collect();
    (bars, max)
}

fn spread_bar(label: String, s: &Spread, text: String) -> Bar {
    Bar { label, value: s.mean, range: Some((s.min, s.max)), text }
}

/// The batch's charts, each as (caption, SVG).
pub fn charts(table: &Table, summary: &Summary) -> Vec<(String, Markup)> {
    let mut out = Vec::new();
    if summary.runs == 0 {
        return out;
    }
    let pct = |x: f64| format!("{}%", fixed(x * 100.0, 0));
    let floor: Vec<Bar> = summary
        .floor
        .iter()
        .map(|(a, s)| spread_bar(a.clone(), s, format!("{} ({} to {})", pct(s.mean), pct(s.min), pct(s.max))))
        .collect();
    let caption = "Share of the floor per agent: mean over runs, the line from the least to the most";
    let axes = Axes { rows: "agent", measure: "share of the turns", ticks: ticks(1.0, false, pct) };
    out.push((caption.to_string(), bars(caption, &floor, 1.0, &axes)));
    let count = |v: f64| fixed(v, 0);
    let (runs, max) = histogram(table.rows.iter().map(|r| Some(r.longest_run)), "in a row", "");
    let caption = "Longest run of one speaker: how many runs had each";
    let axes = Axes { rows: "longest stretch", measure: "number of runs", ticks: ticks(max, true, count) };
    out.push((caption.to_string(), bars(caption, &runs, max, &axes)));
    let (spoke, max) = histogram(table.rows.iter().map(|r| r.everyone_spoke_by), "turns", "never");
    let caption = "Turns until everyone had spoken: how many runs took each";
    let axes = Axes { rows: "all had spoken by", measure: "number of runs", ticks: ticks(max, true, count) };
    out.push((caption.to_string(), bars(caption, &spoke, max, &axes)));
    let optimum = table.rows.iter().find_map(|r| r.optimum).unwrap_or(0);
    let games: Vec<Bar> = summary
        .overall_by_game
        .iter()
        .enumerate()
        .filter(|(_, s)| s.n > 0)
        .map(|(g, s)| {
            let text =
                format!("{} ({} to {}) of {optimum}", fixed(s.mean, 1), fixed(s.min, 0), fixed(s.max, 0));
            spread_bar(format!("game {}", g + 1), s, text)
        })
        .collect();
    if !games.is_empty() {
        let caption = "Overall score per game (each an optimizer iteration): mean, and the range over runs";
        let top = optimum.max(1) as f64;
        let axes = Axes {
            rows: "game",
            measure: "overall score (the right end is the optimum)",
            ticks: ticks(top, true, count),
        };
        out.push((caption.to_string(), bars(caption, &games, top, &axes)));
    }
    // The judge's scores: each agent dimension across the cast, then the conversation's dimensions.
    let judged: Vec<&(String, Spread)> = summary.judge.iter().filter(|(_, s)| s.n > 0).collect();
    if !judged.is_empty() {
        let top = judged.iter().map(|(_, s)| s.max).fold(5.0, f64::max);
        let score = |s: &Spread| format!("{} ({} to {})", fixed(s.mean, 1), fixed(s.min, 0), fixed(s.max, 0));
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
            let caption = format!("The judge's {d} score per agent: mean over the runs judged, the line from the least to the most");
            let axes = Axes { rows: "agent", measure: "score", ticks: ticks(top, true, count) };
            out.push((caption.clone(), bars(&caption, &rows, top, &axes)));
        }
        let whole: Vec<Bar> = judged
            .iter()
            .filter(|(name, _)| !name.contains(':'))
            .map(|(name, s)| spread_bar(name.clone(), s, score(s)))
            .collect();
        if !whole.is_empty() {
            let caption = "The judge's scores of the conversation: mean over the runs judged, the line from the least to the most";
            let axes = Axes { rows: "dimension", measure: "score", ticks: ticks(top, true, count) };
            out.push((caption.to_string(), bars(caption, &whole, top, &axes)));
        }
    }
    if summary.cost.n > 0 {
        let cost: Vec<Bar> = table
            .rows
            .iter()
            .filter_map(|r| Some((r.seed, r.cost?)))
            .map(|(seed, c)| Bar {
                label: format!("seed {seed}"),
                value: c,
                range: None,
                text: format!("${}", fixed(c, 4)),
            })
            .collect();
        let caption = "Cost per run";
        let axes = Axes {
            rows: "run",
            measure: "cost in dollars",
            ticks: ticks(summary.cost.max, false, |v| format!("${}", fixed(v, 4))),
        };
        out.push((caption.to_string(), bars(caption, &cost, summary.cost.max, &axes)));
    }
    out
}
