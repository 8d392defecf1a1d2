//! The page's tools module, its own small WebAssembly build fetched the first time one of its
//! tools is used and never on the first page: for a batch it reads the seeds, writes each run's
//! CSV row from its log, and draws the summary, charts and runs of the rows as HTML; for a run it
//! writes the Markdown transcript. The code is the core's (`agora::batch`, `agora::export`), so the
//! page writes the rows and shows the statistics `agora batch` does, and the transcript
//! `agora run --markdown` writes.

#[cfg(target_arch = "wasm32")]
mod exports {
    use agora::batch::report::page;
    use wasm_bindgen::prelude::wasm_bindgen;

    /// The seeds a `--seeds` text names, as a JSON list.
    #[wasm_bindgen]
    pub fn seeds(spec: &str) -> Result<String, String> {
        page::seeds(spec)
    }

    /// The CSV header of a batch.
    #[wasm_bindgen]
    pub fn header(scenario: &str, seeds: &str) -> Result<String, String> {
        page::header(scenario, seeds)
    }

    /// One run's row (see [`page::row`]).
    #[wasm_bindgen]
    pub fn row(scenario: &str, seeds: &str, seed: f64, run: &str, error: &str) -> Result<String, String> {
        page::row(scenario, seeds, seed as u64, run, error)
    }

    /// The Markdown transcript of a run file (see [`agora::export::to_markdown`]).
    #[wasm_bindgen]
    pub fn markdown(run: &str) -> Result<String, String> {
        agora::export::from_json(run).map(|f| agora::export::to_markdown(&f.events))
    }

    /// The report of the batch `csv` holds (see [`agora::batch::report_html`]).
    #[wasm_bindgen]
    pub fn report(csv: &str) -> Result<String, String> {
        agora::batch::read_csv(csv).map(|t| agora::batch::report_html(&t))
    }
}

fn main() {}
