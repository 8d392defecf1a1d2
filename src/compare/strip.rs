//! The comparison strip: one table above the columns with each column's figures side by side
//! (share of the floor as bars, speaker runs, turns until everyone spoke, calls, tokens and cost
//! spent choosing versus speaking, each agent's responsiveness and repetition, retries and
//! fallbacks, trading scores against the optimum).
//!
//! Every figure cell carries the exact CSV value (`data-figure` names the CSV column,
//! `data-value` holds the cell), so what the strip shows is what the comparison's CSV says.

use super::ComparisonFile;
use crate::batch::RunFigures;
use crate::markup;
use crate::markup::Markup;
use crate::text::fixed;

/// The strip of `file` as an HTML table, or what is wrong with the file.
pub fn strip_html(file: &ComparisonFile) -> Result<Markup, String> {
    let columns = file.figures()?;
    let agents = file.scenario.agent_names();
    let table = super::table_for(&agents, file.games(), &columns);
    let names = table.figure_columns();
    let cells: Vec<Vec<String>> = columns.iter().map(|(_, f)| table.figure_cells(f)).collect();
    let value = |column: usize, name: &str| -> String {
        names.iter().position(|n| n == name).map(|i| cells[column][i].clone()).unwrap_or_default()
    };
    let mut html =
        Markup::from_static("<table class=\"strip\" data-testid=\"compare-strip\"><thead><tr><th></th>");
    for (label, _) in &columns {
        html.push(markup!("<th scope=\"col\">{}</th>", label));
    }
    html.push_static("</tr></thead><tbody>");
    let mut row = |title: &str, figure: &str, text: &dyn Fn(usize, &RunFigures) -> Markup| {
        html.push(markup!("<tr><th scope=\"row\">{}</th>", title));
        for (i, (_, f)) in columns.iter().enumerate() {
            html.push(markup!(
                "<td data-figure=\"{}\" data-value=\"{}\">{}</td>",
                figure,
                value(i, figure),
                text(i, f)
            ));
        }
        html.push_static("</tr>");
    };
    row("Turns", "turns", &|_, f| Markup::text(&f.turns.to_string()));
    for agent in &agents {
        let share = |f: &RunFigures| f.floor.iter().find(|(n, _)| n == agent).map_or(0.0, |(_, s)| *s);
        row(&format!("Floor: {agent}"), &format!("floor_share:{agent}"), &|_, f| {
            let percent = (share(f) * 100.0).round() as i64;
            markup!(
                "<svg class=\"share\" viewBox=\"0 0 100 10\" aria-hidden=\"true\"><rect width=\"{}\" height=\"10\" class=\"mean\"/></svg> {}%",
                percent,
                percent
            )
        });
    }
    row("Longest run of one speaker", "longest_run", &|_, f| {
        Markup::text(&format!("{} turn{}", f.longest_run, if f.longest_run == 1 { "" } else { "s" }))
    });
    row("Everyone had spoken by", "everyone_spoke_by", &|_, f| {
        Markup::text(&f.everyone_spoke_by.map_or("not yet".to_string(), |t| format!("turn {t}")))
    });
    row("Calls choosing / speaking", "calls", &|_, f| {
        Markup::text(&format!("{} / {}", f.orchestration_calls, f.speech_calls))
    });
    row("Tokens choosing / speaking", "orchestration_tokens", &|_, f| {
        Markup::text(&format!("{} / {}", f.orchestration_tokens, f.speech_tokens))
    });
    if columns.iter().any(|(_, f)| f.cost.is_some()) {
        row("Cost choosing / all", "cost", &|_, f| {
            Markup::text(&match (f.orchestration_cost, f.cost) {
                (Some(choosing), Some(all)) => format!("${} / ${}", fixed(choosing, 4), fixed(all, 4)),
                _ => "not priced".into(),
            })
        });
    }
    // What was said (`crate::textstats`), per agent: how much of the previous speaker each took
    // up, and how much of its own wording it repeated.
    for (title, figure, m) in
        [("Takes up the previous speaker", "responsiveness", 1), ("Repeats itself", "repetition", 0)]
    {
        for agent in &agents {
            row(&format!("{title}: {agent}"), &format!("{figure}:{agent}"), &|_, f| {
                let v = f.text.iter().find(|(n, _)| n == agent).and_then(|(_, t)| t[m]);
                Markup::text(
                    &v.map_or("did not speak".to_string(), |v| format!("{} %", (v * 100.0).round() as i64)),
                )
            });
        }
    }
    // The judge's scores, where a column's run was judged.
    for name in &table.judge {
        let title = match name.split_once(':') {
            Some((dimension, agent)) => format!("Judge: {dimension}, {agent}"),
            None => format!("Judge: {name} (the conversation)"),
        };
        row(&title, &format!("judge:{name}"), &|_, f| {
            let score = f.judge.iter().find(|(n, _)| n == name).and_then(|(_, v)| *v);
            Markup::text(&score.map_or("not judged".to_string(), |v| v.to_string()))
        });
    }
    row("Retries", "retries", &|_, f| Markup::text(&f.retries.to_string()));
    row("Fallbacks", "fallbacks", &|_, f| Markup::text(&f.fallbacks.to_string()));
    for game in 1..=table.games {
        row(&format!("Game {game}: overall score"), &format!("overall:{game}"), &|_, f| {
            Markup::text(&match (f.overall.get(game as usize - 1), f.optimum) {
                (Some(overall), Some(optimum)) => format!("{overall} of {optimum}"),
                (Some(overall), None) => overall.to_string(),
                _ => "not played".into(),
            })
        });
    }
    html.push_static("</tbody></table>");
    Ok(html)
}
