//! Comparisons: runs of one cast and topic that differ in one thing (the method, the seed, the
//! model, or one setting), each a column of its own scenario. Plain data: the page's comparison
//! view and its share link are built on it, and the figures of each column are a batch row's
//! ([`crate::batch::RunFigures`]), so a comparison and a batch measure runs the same way.

use crate::batch::RunFigures;
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
#[derive(Clone, Debug, PartialEq)]
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

    /// The columns: `base` with each value applied, each checked; the error names the column.
    pub fn columns(&self, base: &Scenario) -> Result<Vec<Column>, String> {
        self.values
            .iter()
            .map(|value| {
                let label = format!("{}: {value}", self.vary_name());
                let scenario = self.apply(base, value).map_err(|e| format!("{label}: {e}"))?;
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
                s.method = kind.default_method();
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

/// The comparison strip as CSV: one row per column, its label first, then a batch row's figures.
pub fn to_csv(agents: &[String], games: u32, columns: &[(String, RunFigures)]) -> String {
    use crate::batch::csv::line;
    let table = crate::batch::Table::new(String::new(), String::new(), agents.to_vec(), games);
    let mut out = line([vec!["column".to_string()], table.figure_columns()].concat());
    for (label, figures) in columns {
        out.push_str(&line([vec![label.clone()], table.figure_cells(figures)].concat()));
    }
    out
}

#[cfg(test)]
mod tests;
