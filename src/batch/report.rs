//! A batch as the page shows it: the summary's sentences and its figures in full, the charts and
//! the runs (the page draws them, `app::batch`), and what the page asks of the tools chunk.

use super::charts::{charts, Chart};
use super::{Summary, Table};
use crate::text::fixed;

/// What the page shows of a batch, worked out in the page's tools chunk (fetched when a batch is
/// shown, so none of this is on the first page).
pub struct Report {
    /// The summary in sentences.
    pub sentences: Vec<String>,
    /// The same figures as `agora batch` prints them, for whoever wants the intervals.
    pub figures: String,
    pub charts: Vec<Chart>,
    pub runs: Vec<RunLine>,
}

/// One run of a batch, in its row of the report.
#[derive(Clone, Debug, PartialEq)]
pub struct RunLine {
    pub seed: u64,
    /// How it ended, with its error when it had one.
    pub finish: String,
    pub turns: u32,
    /// Each agent's share of the floor, in percent ("Donald Trump 40%").
    pub shares: String,
}

impl Report {
    pub fn of(table: &Table) -> Report {
        let summary = Summary::of(table);
        let runs = table
            .rows
            .iter()
            .map(|r| {
                let shares: Vec<String> =
                    r.floor.iter().map(|(a, s)| format!("{a} {}%", fixed(s * 100.0, 0))).collect();
                let said = super::summary::ending(&r.finish);
                let finish =
                    if r.error.is_empty() { said.to_string() } else { format!("{said}: {}", r.error) };
                RunLine { seed: r.seed, finish, turns: r.turns, shares: shares.join(", ") }
            })
            .collect();
        Report {
            sentences: summary.sentences(),
            figures: summary.lines().join("\n"),
            charts: charts(table, &summary),
            runs,
        }
    }
}

/// What the page asks of its tools chunk (`app::tools`), which it fetches when a batch
/// starts or is shown, so the figures, the CSV writer and the report are not on the first page.
pub mod page {
    use crate::batch::{fingerprint, row_of, Seeds, Table};
    use crate::scenario::Scenario;

    thread_local! {
        /// The batch asked about last: the page asks once per run with the same scenario and
        /// seeds, which are read once rather than at every row (a seed list is read in time linear
        /// in its length, so reading it per row made a batch quadratic).
        static LAST: std::cell::RefCell<Option<(String, String, Scenario, Table)>> =
            const { std::cell::RefCell::new(None) };
    }

    fn table(scenario: &str, seeds: &str) -> Result<(Scenario, Table), String> {
        let last = LAST.with(|l| {
            let l = l.borrow();
            let (s, k, read, table) = l.as_ref()?;
            (s == scenario && k == seeds).then(|| (read.clone(), table.clone()))
        });
        if let Some(hit) = last {
            return Ok(hit);
        }
        let text = (scenario.to_string(), seeds.to_string());
        let scenario = Scenario::parse(scenario)?;
        let seeds = Seeds::parse(seeds)?;
        let table = Table::new(
            fingerprint(&scenario),
            seeds.to_string(),
            scenario.agent_names(),
            scenario.method.games(),
        );
        LAST.with(|l| *l.borrow_mut() = Some((text.0, text.1, scenario.clone(), table.clone())));
        Ok((scenario, table))
    }

    /// The seeds `spec` names, or why it names none.
    pub fn seeds(spec: &str) -> Result<Vec<u64>, String> {
        Ok(Seeds::parse(spec)?.list().to_vec())
    }

    /// One run's row of a batch, and what it spent.
    #[derive(Clone, Debug, PartialEq)]
    pub struct Row {
        /// The CSV line, with its line end.
        pub line: String,
        pub tokens: u64,
        pub cost: f64,
        /// Whether the run stopped at the spending cap.
        pub capped: bool,
    }

    /// The CSV header of a batch of `scenario` (JSON) over `seeds`, with the judge's columns when
    /// each run is `judged`.
    pub fn header(scenario: &str, seeds: &str, judged: bool) -> Result<String, String> {
        let (s, mut table) = table(scenario, seeds)?;
        if judged {
            table.judge = crate::batch::judge_columns(&s.judge.settings()?, &table.agents);
        }
        Ok(table.header())
    }

    /// One run's row, from its run file (`export::to_json_compact`), or from why it could not start
    /// (`run` empty). The row is
    /// written in the columns of `csv`, the batch's file so far: one begun by an earlier version,
    /// before the text statistics, goes on without them.
    pub fn row(
        scenario: &str,
        seeds: &str,
        seed: u64,
        run: &str,
        error: &str,
        csv: &str,
    ) -> Result<Row, String> {
        let (scenario, mut table) = table(scenario, seeds)?;
        let header = csv.lines().next();
        table.text = header.is_none_or(|header| header.contains(",repetition:"));
        table.judge = header
            .map(|h| h.split(',').filter_map(|c| c.strip_prefix("judge:")).map(str::to_string).collect())
            .unwrap_or_default();
        let played = if run.is_empty() {
            Err(error.to_string())
        } else {
            crate::export::from_json(run).map(|f| f.events)
        };
        let r = row_of(&scenario, seed, &played);
        Ok(Row {
            line: table.line(&r),
            tokens: r.orchestration_tokens + r.speech_tokens,
            cost: r.cost.unwrap_or(0.0),
            capped: r.finish == "spending_cap",
        })
    }
}
