//! Batches: one scenario run over many seeds, each run reduced to one row of figures read from
//! its event log, and the statistics over the rows.
//!
//! The terminal's `agora batch` writes the rows as CSV, and shards of one batch run on different
//! machines merge back into the CSV one machine would have written. Every figure is read from the
//! log through [`RunView`](crate::view::RunView), the same fold the app's run statistics use, so a
//! batch and the app agree on what a run did.

pub mod charts;
pub(crate) mod csv;
mod figures;
pub mod report;
mod seeds;
mod summary;

pub use csv::{judge_columns, merge, read_csv, Table};
pub use figures::RunFigures;
pub use report::{Report, RunLine};
pub use seeds::{Seeds, Shard};
pub use summary::{Spread, Summary};

/// What makes two shards parts of one batch: the scenario and its settings with the seed left
/// out, as a short fingerprint (FNV-1a, 64 bits, in hex). Not a security measure: it catches
/// shards of a different scenario or setting put together by mistake.
pub fn fingerprint(scenario: &crate::scenario::Scenario) -> String {
    let mut unseeded = scenario.clone();
    unseeded.seed = 0;
    let text = serde_json::to_string(&unseeded).unwrap_or_default();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// Plays `scenario` with `seed` to its end (or its spending cap) on `model`; its log, or why it
/// could not start.
pub async fn play_seed(
    scenario: &crate::scenario::Scenario,
    seed: u64,
    model: Result<std::rc::Rc<dyn crate::model::ChatModel>, String>,
    clock: std::rc::Rc<dyn crate::clock::Clock>,
) -> Result<Vec<crate::events::Event>, String> {
    let mut scenario = scenario.clone();
    scenario.seed = seed;
    let mut run = crate::engine::Run::new(scenario, model?, clock)
        .map_err(|e| crate::scenario::FieldError::join(&e))?;
    run.run_to_end().await;
    Ok(run.events().to_vec())
}

/// A run's row: its figures, or for a run that could not start, why.
pub fn row_of(
    scenario: &crate::scenario::Scenario,
    seed: u64,
    played: &Result<Vec<crate::events::Event>, String>,
) -> RunFigures {
    match played {
        Ok(events) => RunFigures::of(seed, events),
        Err(e) => RunFigures::failed(seed, &scenario.agent_names(), e.clone()),
    }
}

#[cfg(test)]
mod tests;
