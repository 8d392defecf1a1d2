//! A bar chart ([`crate::batch::charts::Chart`]) as SVG: the drawing is the chart's own layout,
//! scaled to its box, with the chart's text alternative as its title.

use leptos::prelude::*;

use crate::batch::charts::Chart;

/// `chart` drawn as an SVG that scales to the width of its box.
pub fn bars(chart: &Chart) -> impl IntoView {
    let l = chart.layout();
    let (left, right, bottom) = (l.left, l.right, l.bottom);
    let ticks = l
        .ticks
        .into_iter()
        .map(|(x, label)| {
            view! {
                <line x1=x x2=x y1=bottom y2=bottom + 4 class="axis" />
                <text x=x y=bottom + 16 class="tick" text-anchor="middle">{label}</text>
            }
        })
        .collect_view();
    let rows = chart
        .rows
        .iter()
        .zip(l.rows)
        .map(|(bar, row)| {
            let range = row.range.map(|(lo, hi)| {
                view! { <line x1=lo x2=hi y1=row.middle y2=row.middle class="range" /> }
            });
            view! {
                <text x=left - 6 y=row.middle class="label" text-anchor="end" dominant-baseline="middle">{bar.label.clone()}</text>
                <rect x=left y=row.top + 4 width=row.width height=Chart::ROW - 8 class="mean" />
                {range}
                <text x=right + 6 y=row.middle class="figure" dominant-baseline="middle">{bar.text.clone()}</text>
            }
        })
        .collect_view();
    view! {
        <svg class="bars" role="img" viewBox=format!("0 0 {} {}", Chart::WIDTH, l.height)>
            <title>{chart.alternative()}</title>
            <text x=left - 6 y="12" class="axis-name" text-anchor="end" data-axis="rows">{chart.axes.rows}</text>
            <line x1=left x2=right y1=bottom y2=bottom class="axis" />
            <text x=(left + right) / 2 y=bottom + 34 class="axis-name" text-anchor="middle" data-axis="measure">{chart.axes.measure}</text>
            {ticks}
            {rows}
        </svg>
    }
}
