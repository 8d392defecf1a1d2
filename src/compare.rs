//! Comparisons: runs of one cast and topic that differ in one thing (the method, the seed, the
//! model, or one setting), each a column of its own scenario. Plain data: the page's comparison
//! view and its share link are built on it, and the figures of each column are a batch row's
//! ([`crate::batch::RunFigures`]), so a comparison and a batch measure runs the same way.

use crate::batch::RunFigures;
use crate::export::RunFile;
use crate::scenario::{MethodKind, Scenario};

/// Columns side by side, at most (a projector shows four).
pub const MAX_COLUMNS: usize = 4;

/// What the columns differ in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Vary {
    /// The speaker-selection method, each with its seed's settings.
    Method,
    Seed,
    /// `demo`, or a provider and model as `provider/model` (`browser/<model>` for the model in
    /// the tab).
    Model,
    /// One setting, by its path in the scenario file (`max_turns`, `method.stop_probability`).
    Setting(String),
}

/// A comparison: what varies, and its value in each column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    pub vary: Vary,
    pub values: Vec<String>,
}

/// One column: what sets it apart ("method: director"), and its scenario.
#[derive(Clone, Debug)]
#[cfg_attr(not(target_arch = "wasm32"), derive(PartialEq))]
pub struct Column {
    pub label: String,
    pub scenario: Scenario,
}

impl Comparison {
    /// Reads what varies (`method`, `seed`, `model`, or a setting's path) and the columns'
    /// values, separated by commas: two to four.
    pub fn new(vary: &str, values: &str) -> Result<Comparison, String> {
        let vary = match vary.trim() {
            "method" => Vary::Method,
            "seed" => Vary::Seed,
            "model" => Vary::Model,
            "" => {
                return Err("say what the columns differ in: method, seed, model or a setting's path".into())
            }
            path => Vary::Setting(path.to_string()),
        };
        let values: Vec<String> =
            values.split(',').map(|v| v.trim().to_string()).filter(|v| !v.is_empty()).collect();
        if !(2..=MAX_COLUMNS).contains(&values.len()) {
            return Err(format!(
                "a comparison has 2 to {MAX_COLUMNS} columns: give as many values, separated by commas ({} given)",
                values.len()
            ));
        }
        Ok(Comparison { vary, values })
    }

    /// What varies, as [`Comparison::new`] reads it.
    pub fn vary_name(&self) -> &str {
        match &self.vary {
            Vary::Method => "method",
            Vary::Seed => "seed",
            Vary::Model => "model",
            Vary::Setting(path) => path,
        }
    }

    /// What varies, in the words of the language spoken (a setting by its path).
    pub fn vary_words(&self) -> &str {
        use crate::i18n::{say, t};
        match &self.vary {
            Vary::Method => t(say::VaryWordMethod),
            Vary::Seed => t(say::VaryWordSeed),
            Vary::Model => t(say::VaryWordModel),
            Vary::Setting(path) => path,
        }
    }

    /// The columns: `base` with each value applied, each checked; the error names the column.
    /// Columns have no seats (one person cannot answer in every column at once), and the
    /// spending cap is split evenly between them, so each column's run is the same however fast
    /// the others go.
    pub fn columns(&self, base: &Scenario) -> Result<Vec<Column>, String> {
        let share = self.values.len() as u64;
        self.values
            .iter()
            .map(|value| {
                let shown = match self.vary {
                    Vary::Method => crate::scenario::MethodKind::id_words(value),
                    _ => value.as_str(),
                };
                let label = crate::i18n::tf(
                    crate::i18n::say::CmpColumnLabel,
                    &[("vary", &self.vary_words()), ("value", &shown)],
                );
                let mut scenario = self.apply(base, value).map_err(|e| format!("{label}: {e}"))?;
                scenario.seats.clear();
                let cap = &mut scenario.model.spending_cap;
                cap.tokens = cap.tokens.div_ceil(share);
                cap.cost /= share as f64;
                scenario
                    .validate()
                    .map_err(|e| format!("{label}: {}", crate::scenario::FieldError::join(&e)))?;
                Ok(Column { label, scenario })
            })
            .collect()
    }

    fn apply(&self, base: &Scenario, value: &str) -> Result<Scenario, String> {
        let mut s = base.clone();
        match &self.vary {
            Vary::Method => {
                let kind = MethodKind::from_id(value).ok_or_else(|| {
                    let ids: Vec<&str> = MethodKind::ALL.iter().map(|k| k.id()).collect();
                    format!("no method \"{value}\" (one of {})", ids.join(", "))
                })?;
                s.switch_method(kind);
            }
            Vary::Seed => {
                s.seed = value.parse().map_err(|_| format!("\"{value}\" is not a seed (a whole number)"))?
            }
            Vary::Model if value == "demo" => {
                s.model.provider = "demo".into();
                s.model.name.clear();
                s.model.base_url.clear();
            }
            Vary::Model => {
                let (provider, name) = value
                    .split_once('/')
                    .ok_or("a model is demo or provider/model (browser/<model> in the tab)")?;
                s.model.provider = provider.to_string();
                s.model.name = name.to_string();
                s.model.base_url.clear();
            }
            Vary::Setting(path) => {
                let mut json: serde_json::Value =
                    serde_json::from_str(&serde_json::to_string(&s).map_err(|e| e.to_string())?)
                        .map_err(|e| e.to_string())?;
                let mut at = &mut json;
                for key in path.split('.') {
                    at = at
                        .as_object_mut()
                        .and_then(|o| o.get_mut(key))
                        .ok_or_else(|| format!("the scenario has no setting {path}"))?;
                }
                // A number or true/false as such, anything else as text.
                *at = serde_json::from_str(value)
                    .unwrap_or_else(|_| serde_json::Value::String(value.to_string()));
                s = Scenario::parse(&json.to_string())?;
            }
        }
        Ok(s)
    }
}

/// The format name a comparison file carries.
pub const FORMAT: &str = "agora-comparison";
/// The comparison file format this build writes and reads.
pub const FORMAT_VERSION: u64 = 1;

/// A comparison as a file, a link and a past run: the scenario its columns start from, what
/// varies, and each column's recorded run (none when it has not run, or was left out of a link).
#[derive(Clone, Debug)]
#[cfg_attr(not(target_arch = "wasm32"), derive(PartialEq))]
pub struct ComparisonFile {
    pub scenario: Scenario,
    pub comparison: Comparison,
    pub runs: Vec<Option<RunFile>>,
}

/// The comparison file: `runs` holds each column's run file (compact, as
/// [`crate::export::to_json_compact`] writes it) or `None`.
pub fn to_json(scenario: &Scenario, vary: &str, values: &[String], runs: &[Option<String>]) -> String {
    let values: Vec<String> = values.iter().map(|v| json_text(v)).collect();
    let runs: Vec<&str> = runs.iter().map(|r| r.as_deref().unwrap_or("null")).collect();
    format!(
        "{{\"format\":\"{FORMAT}\",\"version\":{FORMAT_VERSION},\"scenario\":{},\"vary\":{},\"values\":[{}],\"runs\":[{}]}}",
        serde_json::to_string(scenario).unwrap_or_default(),
        json_text(vary),
        values.join(","),
        runs.join(",")
    )
}

fn json_text(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_default()
}

/// Reads a comparison file; the error is one line saying what is wrong.
pub fn from_json(text: &str) -> Result<ComparisonFile, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not a JSON file: {e}"))?;
    match value["format"].as_str() {
        Some(FORMAT) => {}
        Some(other) => return Err(format!("not an Agora comparison (format \"{other}\")")),
        None => return Err("not an Agora comparison (no \"format\" field)".into()),
    }
    match value["version"].as_u64() {
        Some(FORMAT_VERSION) => {}
        Some(v) => {
            return Err(format!(
                "comparison file version {v} is not supported (this build reads version {FORMAT_VERSION})"
            ))
        }
        None => return Err("the comparison file has no version".into()),
    }
    let scenario =
        Scenario::from_json(&value["scenario"].to_string()).map_err(|e| format!("its scenario: {e}"))?;
    let values: Vec<&str> =
        value["values"].as_array().into_iter().flatten().filter_map(|v| v.as_str()).collect();
    let comparison = Comparison::new(value["vary"].as_str().unwrap_or_default(), &values.join(","))?;
    let columns = comparison.columns(&scenario)?;
    let mut runs = Vec::new();
    match &value["runs"] {
        serde_json::Value::Array(list) if list.len() == columns.len() => {
            for (run, column) in list.iter().zip(&columns) {
                runs.push(match run {
                    serde_json::Value::Null => None,
                    run => Some(
                        crate::export::from_json(&run.to_string())
                            .map_err(|e| format!("{}: its run: {e}", column.label))?,
                    ),
                });
            }
        }
        serde_json::Value::Null => runs.resize(columns.len(), None),
        _ => return Err(format!("the comparison has {} columns but not as many runs", columns.len())),
    }
    Ok(ComparisonFile { scenario, comparison, runs })
}

impl ComparisonFile {
    /// Each column's label and the figures of its run (a run not yet played counts as empty).
    pub fn figures(&self) -> Result<Vec<(String, RunFigures)>, String> {
        let columns = self.comparison.columns(&self.scenario)?;
        Ok(columns
            .into_iter()
            .zip(&self.runs)
            .map(|(c, run)| {
                let events = run.as_ref().map_or(&[][..], |r| &r.events[..]);
                (c.label, RunFigures::of(c.scenario.seed, events))
            })
            .collect())
    }

    /// Scored games per column (the trading game's optimizer iterations), the most of any.
    fn games(&self) -> u32 {
        let columns = self.comparison.columns(&self.scenario).unwrap_or_default();
        columns.iter().map(|c| c.scenario.method.games()).max().unwrap_or(0)
    }

    /// The comparison strip as CSV (see [`to_csv`]).
    pub fn to_csv(&self) -> Result<String, String> {
        Ok(to_csv(&self.scenario.agent_names(), self.games(), &self.figures()?))
    }
}

/// The columns of the strip's figures for `columns`: a batch row's, with the judge's scores when
/// a column's run has a verdict.
pub(crate) fn table_for(
    agents: &[String],
    games: u32,
    columns: &[(String, RunFigures)],
) -> crate::batch::Table {
    let mut table = crate::batch::Table::new(String::new(), String::new(), agents.to_vec(), games);
    for (_, f) in columns {
        for (name, _) in &f.judge {
            if !table.judge.contains(name) {
                table.judge.push(name.clone());
            }
        }
    }
    table
}

/// The comparison strip as CSV: one row per column, its label first, then a batch row's figures.
pub fn to_csv(agents: &[String], games: u32, columns: &[(String, RunFigures)]) -> String {
    use crate::batch::csv::line;
    let table = table_for(agents, games, columns);
    let mut out = line([vec!["column".to_string()], table.figure_columns()].concat());
    for (label, figures) in columns {
        out.push_str(&line([vec![label.clone()], table.figure_cells(figures)].concat()));
    }
    out
}

/// What "Judge each" says it did for `finished` columns played to their end (none: nothing yet
/// to judge).
pub fn judge_each_note(finished: usize) -> String {
    use crate::i18n::{say, t, tf};
    match finished {
        0 => t(say::CmpJudgeNeedsOne).into(),
        n => tf(say::CmpJudgingEach, &[("n", &n)]),
    }
}

/// Where a comparison's column stands, as its buttons need it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ColumnState {
    /// Steps follow each other on their own.
    pub running: bool,
    /// A step is in flight.
    pub busy: bool,
    /// The run has ended.
    pub ended: bool,
}

/// Which of "Step all", "Play all" and "Pause all" would do something now: each is offered while
/// some column heeds it (a column that ended waits for Reset, not for another run).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AllButtons {
    pub step: bool,
    pub play: bool,
    pub pause: bool,
}

pub fn all_buttons(columns: &[ColumnState]) -> AllButtons {
    let any = |heeds: &dyn Fn(&ColumnState) -> bool| columns.iter().any(heeds);
    AllButtons {
        step: any(&|c| !c.ended && !c.running && !c.busy),
        play: any(&|c| !c.ended && !c.running),
        pause: any(&|c| c.running),
    }
}

mod strip;
pub use strip::{strip, Strip, StripCell, StripRow};

#[cfg(test)]
mod tests;
