//! The comparison strip: one table above the columns with each column's figures side by side
//! (share of the floor as bars, speaker runs, turns until everyone spoke, calls, tokens and cost
//! spent choosing versus speaking, each agent's responsiveness and repetition, retries and
//! fallbacks, trading scores against the optimum).
//!
//! Every figure cell carries the exact CSV value (`data-figure` names the CSV column,
//! `data-value` holds the cell), so what the strip shows is what the comparison's CSV says.

use super::ComparisonFile;
use crate::batch::RunFigures;
use crate::text::fixed;

/// The strip: a column per run (`labels`), a row per figure.
#[derive(Clone, Debug, PartialEq)]
pub struct Strip {
    pub labels: Vec<String>,
    pub rows: Vec<StripRow>,
}

/// One figure across the columns.
#[derive(Clone, Debug, PartialEq)]
pub struct StripRow {
    pub title: String,
    /// The CSV column the figure is.
    pub figure: String,
    pub cells: Vec<StripCell>,
}

/// One column's figure: the CSV's exact value and the words shown; a share of the floor is also
/// drawn as a bar (`bar`, in percent).
#[derive(Clone, Debug, PartialEq)]
pub struct StripCell {
    pub value: String,
    pub text: String,
    pub bar: Option<i64>,
}

/// The strip of `file`, or what is wrong with the file.
pub fn strip(file: &ComparisonFile) -> Result<Strip, String> {
    let columns = file.figures()?;
    let agents = file.scenario.agent_names();
    let table = super::table_for(&agents, file.games(), &columns);
    let names = table.figure_columns();
    let cells: Vec<Vec<String>> = columns.iter().map(|(_, f)| table.figure_cells(f)).collect();
    let value = |column: usize, name: &str| -> String {
        names.iter().position(|n| n == name).map(|i| cells[column][i].clone()).unwrap_or_default()
    };
    let mut out =
        Strip { labels: columns.iter().map(|(label, _)| label.clone()).collect(), rows: Vec::new() };
    let mut row = |title: &str, figure: &str, text: &dyn Fn(&RunFigures) -> (String, Option<i64>)| {
        let cells = columns
            .iter()
            .enumerate()
            .map(|(i, (_, f))| {
                let (text, bar) = text(f);
                StripCell { value: value(i, figure), text, bar }
            })
            .collect();
        out.rows.push(StripRow { title: title.to_string(), figure: figure.to_string(), cells });
    };
    let words = |text: String| (text, None);
    row("Turns", "turns", &|f| words(f.turns.to_string()));
    for agent in &agents {
        let share = |f: &RunFigures| f.floor.iter().find(|(n, _)| n == agent).map_or(0.0, |(_, s)| *s);
        row(&format!("Floor: {agent}"), &format!("floor_share:{agent}"), &|f| {
            let percent = (share(f) * 100.0).round() as i64;
            (format!("{percent}%"), Some(percent))
        });
    }
    row("Longest run of one speaker", "longest_run", &|f| {
        words(format!("{} turn{}", f.longest_run, if f.longest_run == 1 { "" } else { "s" }))
    });
    row("Everyone had spoken by", "everyone_spoke_by", &|f| {
        words(f.everyone_spoke_by.map_or("not yet".to_string(), |t| format!("turn {t}")))
    });
    row("Calls choosing / speaking", "calls", &|f| {
        words(format!("{} / {}", f.orchestration_calls, f.speech_calls))
    });
    row("Tokens choosing / speaking", "orchestration_tokens", &|f| {
        words(format!("{} / {}", f.orchestration_tokens, f.speech_tokens))
    });
    if columns.iter().any(|(_, f)| f.cost.is_some()) {
        row("Cost choosing / all", "cost", &|f| {
            words(match (f.orchestration_cost, f.cost) {
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
            row(&format!("{title}: {agent}"), &format!("{figure}:{agent}"), &|f| {
                let v = f.text.iter().find(|(n, _)| n == agent).and_then(|(_, t)| t[m]);
                words(v.map_or("did not speak".to_string(), |v| format!("{} %", (v * 100.0).round() as i64)))
            });
        }
    }
    // The judge's scores, where a column's run was judged.
    for name in &table.judge {
        let title = match name.split_once(':') {
            Some((dimension, agent)) => format!("Judge: {dimension}, {agent}"),
            None => format!("Judge: {name} (the conversation)"),
        };
        row(&title, &format!("judge:{name}"), &|f| {
            let score = f.judge.iter().find(|(n, _)| n == name).and_then(|(_, v)| *v);
            words(score.map_or("not judged".to_string(), |v| v.to_string()))
        });
    }
    row("Retries", "retries", &|f| words(f.retries.to_string()));
    row("Fallbacks", "fallbacks", &|f| words(f.fallbacks.to_string()));
    for game in 1..=table.games {
        row(&format!("Game {game}: overall score"), &format!("overall:{game}"), &|f| {
            words(match (f.overall.get(game as usize - 1), f.optimum) {
                (Some(overall), Some(optimum)) => format!("{overall} of {optimum}"),
                (Some(overall), None) => overall.to_string(),
                _ => "not played".into(),
            })
        });
    }
    Ok(out)
}
