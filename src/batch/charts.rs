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

/// Bars from 0 to `max`, one per row, as an SVG that scales to its box; its title and every
/// row's label and figure are its text alternative.
pub fn bars(title: &str, rows: &[Bar], max: f64) -> Markup {
    // Whole pixels of a 560-wide drawing: written as integers, so no float formatting is needed.
    const ROW: i32 = 26;
    const LABEL: i32 = 140;
    const WIDTH: f64 = 220.0;
    let height = ROW * rows.len() as i32 + 4;
    let x = |v: f64| LABEL + if max > 0.0 { ((v / max).clamp(0.0, 1.0) * WIDTH).round() as i32 } else { 0 };
    let alt: Vec<String> = rows.iter().map(|r| format!("{}: {}", r.label, r.text)).collect();
    let mut svg = markup!(
        "<svg class=\"bars\" role=\"img\" viewBox=\"0 0 560 {}\"><title>{}. {}</title>",
        height,
        title,
        alt.join("; ")
    );
    for (i, r) in rows.iter().enumerate() {
        let top = i as i32 * ROW + 2;
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
    out.push((caption.to_string(), bars(caption, &floor, 1.0)));
    let (runs, max) = histogram(table.rows.iter().map(|r| Some(r.longest_run)), "in a row", "");
    let caption = "Longest run of one speaker: how many runs had each";
    out.push((caption.to_string(), bars(caption, &runs, max)));
    let (spoke, max) = histogram(table.rows.iter().map(|r| r.everyone_spoke_by), "turns", "never");
    let caption = "Turns until everyone had spoken: how many runs took each";
    out.push((caption.to_string(), bars(caption, &spoke, max)));
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
        out.push((caption.to_string(), bars(caption, &games, optimum.max(1) as f64)));
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
        out.push((caption.to_string(), bars(caption, &cost, summary.cost.max)));
    }
    out
}
