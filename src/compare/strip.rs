//! The comparison strip: one table above the columns with each column's figures side by side
//! (share of the floor as bars, speaker runs, turns until everyone spoke, calls, tokens and cost
//! spent choosing versus speaking, each agent's responsiveness and repetition, retries and
//! fallbacks, trading scores against the optimum).
//!
//! Every figure cell carries the exact CSV value (`data-figure` names the CSV column,
//! `data-value` holds the cell), so what the strip shows is what the comparison's CSV says.

use super::ComparisonFile;
use crate::batch::RunFigures;
use crate::i18n::{say, t, tf};
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
    row(t(say::StripTurns), "turns", &|f| words(f.turns.to_string()));
    for agent in &agents {
        let share = |f: &RunFigures| f.floor.iter().find(|(n, _)| n == agent).map_or(0.0, |(_, s)| *s);
        row(&tf(say::StripFloor, &[("agent", agent)]), &format!("floor_share:{agent}"), &|f| {
            let percent = (share(f) * 100.0).round() as i64;
            (format!("{percent}%"), Some(percent))
        });
    }
    row(t(say::StripLongestRun), "longest_run", &|f| {
        let n = f.longest_run;
        words(if n == 1 {
            tf(say::StripTurnsOne, &[("n", &n)])
        } else {
            tf(say::StripTurnsMany, &[("n", &n)])
        })
    });
    row(t(say::StripEveryoneBy), "everyone_spoke_by", &|f| {
        words(
            f.everyone_spoke_by
                .map_or(t(say::StripNotYet).to_string(), |n| tf(say::StripTurnN, &[("n", &n)])),
        )
    });
    row(t(say::StripCalls), "calls", &|f| words(format!("{} / {}", f.orchestration_calls, f.speech_calls)));
    row(t(say::StripTokens), "orchestration_tokens", &|f| {
        words(format!("{} / {}", f.orchestration_tokens, f.speech_tokens))
    });
    if columns.iter().any(|(_, f)| f.cost.is_some()) {
        row(t(say::StripCost), "cost", &|f| {
            words(match (f.orchestration_cost, f.cost) {
                (Some(choosing), Some(all)) => format!("${} / ${}", fixed(choosing, 4), fixed(all, 4)),
                _ => t(say::StripNotPriced).into(),
            })
        });
    }
    // What was said (`crate::textstats`), per agent: how much of the previous speaker each took
    // up, and how much of its own wording it repeated.
    for (title, figure, m) in
        [(t(say::StripTakesUp), "responsiveness", 1), (t(say::StripRepeats), "repetition", 0)]
    {
        for agent in &agents {
            row(&crate::i18n::fill(title, &[("agent", agent)]), &format!("{figure}:{agent}"), &|f| {
                let v = f.text.iter().find(|(n, _)| n == agent).and_then(|(_, t)| t[m]);
                words(v.map_or(t(say::StripDidNotSpeak).to_string(), |v| {
                    format!("{}{}", (v * 100.0).round() as i64, crate::i18n::percent_sign())
                }))
            });
        }
    }
    // The judge's scores, where a column's run was judged.
    for name in &table.judge {
        let title = match name.split_once(':') {
            Some((dimension, agent)) => tf(
                say::StripJudgeAgent,
                &[("dimension", &crate::judge::rubric::Dimension::shown(dimension)), ("agent", &agent)],
            ),
            None => tf(say::StripJudgeWhole, &[("dimension", &crate::judge::rubric::Dimension::shown(name))]),
        };
        row(&title, &format!("judge:{name}"), &|f| {
            let score = f.judge.iter().find(|(n, _)| n == name).and_then(|(_, v)| *v);
            words(score.map_or(t(say::NotJudged).to_string(), |v| v.to_string()))
        });
    }
    row(t(say::StatsRetries), "retries", &|f| words(f.retries.to_string()));
    row(t(say::StatsFallbacks), "fallbacks", &|f| words(f.fallbacks.to_string()));
    for game in 1..=table.games {
        row(&tf(say::StripGameScore, &[("game", &game)]), &format!("overall:{game}"), &|f| {
            words(match (f.overall.get(game as usize - 1), f.optimum) {
                (Some(overall), Some(optimum)) => {
                    tf(say::StripOfOptimum, &[("overall", overall), ("optimum", &optimum)])
                }
                (Some(overall), None) => overall.to_string(),
                _ => t(say::StripNotPlayed).into(),
            })
        });
    }
    Ok(out)
}
