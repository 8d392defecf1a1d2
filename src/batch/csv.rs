//! A batch as CSV: one row per run, read back exactly as written, so shards merge into the
//! file one machine would have written.
//!
//! Every row carries the batch's fingerprint and seed list, so a merge can tell shards of one
//! batch from strays without a side file.

use super::RunFigures;

/// The rows of one batch (or one shard of it), with what its header needs.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// The scenario's fingerprint (see [`super::fingerprint`]).
    pub batch: String,
    /// The whole batch's seeds, as `--seeds` was given (normalized), also in a shard.
    pub seeds: String,
    pub agents: Vec<String>,
    /// Scored games per run (trading game), 0 for conversations.
    pub games: u32,
    /// Whether the rows carry each agent's text statistics (a file written before they existed
    /// does not, and is read, resumed and merged as it was written).
    pub text: bool,
    /// The judge's columns after `judge:` (`responsiveness:<agent>` per agent and dimension,
    /// then the conversation's `balance`, ...), empty when the batch is not judged (see
    /// [`judge_columns`]).
    pub judge: Vec<String>,
    /// Whether a judged batch's rows say why a run was not judged (`judge_error`, after the
    /// judge's columns; a file written before it existed has none).
    pub judge_error: bool,
    pub rows: Vec<RunFigures>,
}

/// The judge's columns for a cast judged on `settings`' rubric: each agent dimension once per
/// agent, then each conversation dimension.
pub fn judge_columns(settings: &crate::judge::JudgeSettings, agents: &[String]) -> Vec<String> {
    let mut c: Vec<String> = settings
        .agent_rubric
        .iter()
        .flat_map(|d| agents.iter().map(move |a| format!("{}:{a}", d.name)))
        .collect();
    c.extend(settings.conversation_rubric.iter().map(|d| d.name.clone()));
    c
}

/// The text statistics' columns, each once per agent (`repetition:<name>`, ...), in this order.
const TEXT: [&str; 4] = ["repetition", "responsiveness", "coverage", "length"];

const HEAD: [&str; 4] = ["seed", "finish", "error", "turns"];
const MIDDLE: [&str; 15] = [
    "longest_run",
    "everyone_spoke_by",
    "calls",
    "orchestration_calls",
    "speech_calls",
    "orchestration_tokens",
    "speech_tokens",
    "cost",
    "orchestration_cost",
    "retries",
    "fallbacks",
    "refused",
    "empty",
    "bids",
    "default_bids",
];

impl Table {
    pub fn new(batch: String, seeds: String, agents: Vec<String>, games: u32) -> Table {
        Table {
            batch,
            seeds,
            agents,
            games,
            text: true,
            judge: Vec::new(),
            judge_error: true,
            rows: Vec::new(),
        }
    }

    fn columns(&self) -> Vec<String> {
        let mut c = vec!["batch".to_string(), "seeds".to_string()];
        c.extend(self.figure_columns());
        c
    }

    /// The columns of a run's figures (a row without the batch's fingerprint and seeds).
    pub(crate) fn figure_columns(&self) -> Vec<String> {
        let mut c: Vec<String> = HEAD.iter().map(|s| s.to_string()).collect();
        c.extend(self.agents.iter().map(|a| format!("floor_share:{a}")));
        c.extend(MIDDLE.iter().map(|s| s.to_string()));
        if self.text {
            c.extend(TEXT.iter().flat_map(|m| self.agents.iter().map(move |a| format!("{m}:{a}"))));
        }
        c.extend(self.judge.iter().map(|j| format!("judge:{j}")));
        if self.judged_why() {
            c.push("judge_error".into());
        }
        if self.games > 0 {
            c.push("optimum".into());
            c.extend((1..=self.games).map(|g| format!("overall:{g}")));
        }
        c
    }

    fn judged_why(&self) -> bool {
        self.judge_error && !self.judge.is_empty()
    }

    /// The header line, with its line end.
    pub fn header(&self) -> String {
        line(self.columns())
    }

    /// One run's line, with its line end.
    pub fn line(&self, r: &RunFigures) -> String {
        let mut c = vec![self.batch.clone(), self.seeds.clone()];
        c.extend(self.figure_cells(r));
        line(c)
    }

    /// A run's figures, in the order of [`Table::figure_columns`].
    pub(crate) fn figure_cells(&self, r: &RunFigures) -> Vec<String> {
        let opt = |v: Option<String>| v.unwrap_or_default();
        let mut c = vec![r.seed.to_string(), r.finish.clone(), r.error.clone(), r.turns.to_string()];
        c.extend(
            self.agents
                .iter()
                .map(|a| r.floor.iter().find(|(n, _)| n == a).map(|(_, s)| float(*s)).unwrap_or_default()),
        );
        c.extend([
            r.longest_run.to_string(),
            opt(r.everyone_spoke_by.map(|t| t.to_string())),
            r.calls.to_string(),
            r.orchestration_calls.to_string(),
            r.speech_calls.to_string(),
            r.orchestration_tokens.to_string(),
            r.speech_tokens.to_string(),
            opt(r.cost.map(float)),
            opt(r.orchestration_cost.map(float)),
            r.retries.to_string(),
            r.fallbacks.to_string(),
            r.refused.to_string(),
            r.empty.to_string(),
            r.bids.to_string(),
            r.default_bids.to_string(),
        ]);
        if self.text {
            for m in 0..TEXT.len() {
                c.extend(
                    self.agents
                        .iter()
                        .map(|a| opt(r.text.iter().find(|(n, _)| n == a).and_then(|(_, f)| f[m]).map(float))),
                );
            }
        }
        for j in &self.judge {
            c.push(opt(r.judge.iter().find(|(n, _)| n == j).and_then(|(_, v)| *v).map(|v| v.to_string())));
        }
        if self.judged_why() {
            c.push(r.judge_error.clone());
        }
        if self.games > 0 {
            c.push(opt(r.optimum.map(|o| o.to_string())));
            c.extend((0..self.games as usize).map(|g| opt(r.overall.get(g).map(|o| o.to_string()))));
        }
        c
    }

    /// The whole file: header and rows, ordered by seed.
    pub fn to_csv(&self) -> String {
        // Inserted one by one: collecting into a map would sort first, with sorting code the
        // page would carry only for this.
        let mut rows = std::collections::BTreeMap::new();
        for r in &self.rows {
            rows.insert(r.seed, r);
        }
        let mut out = self.header();
        for r in rows.into_values() {
            out.push_str(&self.line(r));
        }
        out
    }
}

/// A figure with a fraction, the shortest way that reads back exactly (serde_json's writer, which
/// the page already carries, rather than the standard library's float formatting).
fn float(x: f64) -> String {
    serde_json::Number::from_f64(x).map_or_else(String::new, |n| n.to_string())
}

/// Cells as one CSV line, quoted where they need it, with its line end.
pub(crate) fn line(cells: Vec<String>) -> String {
    let mut out = cells.into_iter().map(|c| quote(&c)).collect::<Vec<_>>().join(",");
    out.push('\n');
    out
}

fn quote(cell: &str) -> String {
    if cell.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", cell.replace('"', "\"\""))
    } else {
        cell.to_string()
    }
}

/// Splits CSV text into records of cells (RFC 4180: quoted cells may hold commas, quotes doubled,
/// and line breaks). A last line without its line end is a record cut short, and an error.
pub(crate) fn records(text: &str) -> Result<Vec<Vec<String>>, String> {
    let mut records = Vec::new();
    let mut record = Vec::new();
    let mut cell = String::new();
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    let mut line = 1;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                cell.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => {
                line += usize::from(c == '\n');
                cell.push(c);
            }
            (false, '"') if cell.is_empty() => quoted = true,
            (false, ',') => record.push(std::mem::take(&mut cell)),
            (false, '\r') if chars.peek() == Some(&'\n') => {}
            (false, '\n') => {
                record.push(std::mem::take(&mut cell));
                records.push(std::mem::take(&mut record));
                line += 1;
            }
            (false, c) => cell.push(c),
        }
    }
    if quoted {
        return Err(format!("line {line}: a quoted cell is not closed"));
    }
    if !cell.is_empty() || !record.is_empty() {
        return Err(format!("line {line} is cut short (no line end): the file was not written to its end"));
    }
    Ok(records)
}

/// Reads a batch CSV written by [`Table::to_csv`] (or row by row as runs finished).
pub fn read_csv(text: &str) -> Result<Table, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut records = records(text)?.into_iter();
    let header = records.next().ok_or("the file is empty")?;
    let agents: Vec<String> =
        header.iter().filter_map(|c| c.strip_prefix("floor_share:")).map(str::to_string).collect();
    let games = header.iter().filter(|c| c.starts_with("overall:")).count() as u32;
    let mut table = Table::new(String::new(), String::new(), agents, games);
    table.text = header.iter().any(|c| c.starts_with("repetition:"));
    table.judge = header.iter().filter_map(|c| c.strip_prefix("judge:")).map(str::to_string).collect();
    table.judge_error = table.judge.is_empty() || header.iter().any(|c| c == "judge_error");
    if header != table.columns() {
        return Err("the header is not that of a batch written by `agora batch`".into());
    }
    for (i, cells) in records.enumerate() {
        let line = i + 2;
        if cells.len() != header.len() {
            return Err(format!("line {line} has {} cells, the header {}", cells.len(), header.len()));
        }
        let row = read_row(&table, &header, &cells).map_err(|e| format!("line {line}: {e}"))?;
        if table.rows.is_empty() {
            table.batch = cells[0].clone();
            table.seeds = cells[1].clone();
        } else if (cells[0].as_str(), cells[1].as_str()) != (table.batch.as_str(), table.seeds.as_str()) {
            return Err(format!("line {line} belongs to another batch than the lines before it"));
        }
        table.rows.push(row);
    }
    Ok(table)
}

/// The cells of one line, read in the header's order; errors name the column.
struct Cells<'a> {
    columns: &'a [String],
    cells: &'a [String],
    at: usize,
}

impl Cells<'_> {
    fn text(&mut self) -> String {
        self.at += 1;
        self.cells[self.at - 1].clone()
    }

    /// A number, read as a JSON value (the page already carries that reader; one per number
    /// type would each add their own).
    fn value(&mut self) -> Result<Option<serde_json::Value>, String> {
        self.at += 1;
        let v = &self.cells[self.at - 1];
        if v.is_empty() {
            return Ok(None);
        }
        match serde_json::from_str::<serde_json::Value>(v) {
            Ok(n) if n.is_number() => Ok(Some(n)),
            _ => Err(format!("{} is \"{v}\", not a number", self.columns[self.at - 1])),
        }
    }

    fn whole(&mut self) -> Result<Option<u64>, String> {
        self.value()?.map(|v| v.as_u64().ok_or_else(|| self.not_whole())).transpose()
    }

    fn not_whole(&self) -> String {
        format!("{} is not a whole number", self.columns[self.at - 1])
    }

    fn need<T>(&self, v: Option<T>) -> Result<T, String> {
        v.ok_or_else(|| format!("{} is empty", self.columns[self.at - 1]))
    }

    fn u64(&mut self) -> Result<u64, String> {
        let v = self.whole()?;
        self.need(v)
    }

    fn u32(&mut self) -> Result<u32, String> {
        let v = self.u64()?;
        u32::try_from(v).map_err(|_| self.not_whole())
    }

    fn opt_u32(&mut self) -> Result<Option<u32>, String> {
        self.whole()?.map(|v| u32::try_from(v).map_err(|_| self.not_whole())).transpose()
    }

    fn opt_f64(&mut self) -> Result<Option<f64>, String> {
        Ok(self.value()?.and_then(|v| v.as_f64()))
    }

    fn f64(&mut self) -> Result<f64, String> {
        let v = self.opt_f64()?;
        self.need(v)
    }

    fn opt_i64(&mut self) -> Result<Option<i64>, String> {
        self.value()?.map(|v| v.as_i64().ok_or_else(|| self.not_whole())).transpose()
    }
}

fn read_row(table: &Table, columns: &[String], cells: &[String]) -> Result<RunFigures, String> {
    let mut c = Cells { columns, cells, at: 2 };
    let mut r = RunFigures {
        seed: c.u64()?,
        finish: c.text(),
        error: c.text(),
        turns: c.u32()?,
        ..RunFigures::default()
    };
    for a in &table.agents {
        r.floor.push((a.clone(), c.f64()?));
    }
    r.longest_run = c.u32()?;
    r.everyone_spoke_by = c.opt_u32()?;
    r.calls = c.u32()?;
    r.orchestration_calls = c.u32()?;
    r.speech_calls = c.u32()?;
    r.orchestration_tokens = c.u64()?;
    r.speech_tokens = c.u64()?;
    r.cost = c.opt_f64()?;
    r.orchestration_cost = c.opt_f64()?;
    r.retries = c.u32()?;
    r.fallbacks = c.u32()?;
    r.refused = c.u32()?;
    r.empty = c.u32()?;
    r.bids = c.u32()?;
    r.default_bids = c.u32()?;
    if table.text {
        let mut text: Vec<(String, [Option<f64>; 4])> =
            table.agents.iter().map(|a| (a.clone(), [None; 4])).collect();
        for m in 0..TEXT.len() {
            for (_, figures) in text.iter_mut() {
                figures[m] = c.opt_f64()?;
            }
        }
        r.text = text.into_iter().filter(|(_, figures)| figures.iter().any(Option::is_some)).collect();
    }
    for j in &table.judge {
        r.judge.push((j.clone(), c.opt_u32()?));
    }
    if table.judged_why() {
        r.judge_error = c.text();
    }
    if table.games > 0 {
        r.optimum = c.opt_i64()?;
        for _ in 0..table.games {
            if let Some(score) = c.opt_i64()? {
                r.overall.push(score);
            }
        }
    }
    Ok(r)
}

/// Puts shards of one batch back together, each given with the name it is reported by. The
/// shards must come from one batch (same fingerprint, seeds and columns), no seed may appear
/// twice and none of the batch's seeds may be missing.
pub fn merge(parts: Vec<(String, Table)>) -> Result<Table, String> {
    let mut parts = parts.into_iter();
    let (first_name, mut all) = parts.next().ok_or("nothing to merge")?;
    let mut from: std::collections::BTreeMap<u64, String> =
        all.rows.iter().map(|r| (r.seed, first_name.clone())).collect();
    if from.len() < all.rows.len() {
        return Err(format!("{first_name} holds a seed twice"));
    }
    for (name, part) in parts {
        if part.rows.is_empty() {
            continue;
        }
        if all.rows.is_empty() {
            all.batch = part.batch.clone();
            all.seeds = part.seeds.clone();
        }
        if part.batch != all.batch || part.seeds != all.seeds {
            return Err(format!(
                "{name} comes from another batch than {first_name}: batch {} seeds {} against batch {} seeds {} \
                 (a different scenario, setting or --seeds)",
                part.batch, part.seeds, all.batch, all.seeds
            ));
        }
        if (&part.agents, part.games, part.text, &part.judge)
            != (&all.agents, all.games, all.text, &all.judge)
        {
            return Err(format!("{name} has other columns than {first_name}"));
        }
        for row in part.rows {
            if let Some(other) = from.insert(row.seed, name.clone()) {
                return Err(format!("seed {} is in both {other} and {name}", row.seed));
            }
            all.rows.push(row);
        }
    }
    let seeds = super::Seeds::parse(&all.seeds).map_err(|e| format!("the batch's seeds: {e}"))?;
    let missing: Vec<u64> = seeds.list().iter().copied().filter(|s| !from.contains_key(s)).collect();
    if !missing.is_empty() {
        let shown: Vec<String> = missing.iter().take(10).map(u64::to_string).collect();
        let more =
            if missing.len() > 10 { format!(" and {} more", missing.len() - 10) } else { String::new() };
        return Err(format!(
            "{} of the batch's seeds ({}) are missing: {}{more} (a shard not given, or one that did not finish)",
            missing.len(),
            all.seeds,
            shown.join(", ")
        ));
    }
    if let Some(stray) = from.keys().find(|s| seeds.list().binary_search(s).is_err()) {
        return Err(format!(
            "seed {stray} in {} is not one of the batch's seeds ({})",
            from[stray], all.seeds
        ));
    }
    crate::text::sort_stable(&mut all.rows, |a, b| a.seed < b.seed);
    Ok(all)
}
