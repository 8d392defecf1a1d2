//! The page's tools module, its own small WebAssembly build fetched the first time one of its
//! tools is used and never on the first page: for a batch it reads the seeds, writes each run's
//! CSV row from its log, and draws the summary, charts and runs of the rows as HTML; for a run it
//! writes the Markdown transcript; for the editor it draws a scenario's prompt templates and sets
//! one. The code is the core's (`agora::batch`, `agora::export`, `agora::scenario`), so the
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

    /// The editor's rows for one part's prompt templates (see
    /// [`agora::scenario::Scenario::templates_html`]) of the scenario `scenario` holds as JSON.
    #[wasm_bindgen]
    pub fn templates(scenario: &str, part: &str) -> Result<String, String> {
        agora::scenario::Scenario::parse(scenario).map(|s| s.templates_html(part))
    }

    /// What an input or click in the editor's template rows (drawn by [`templates`]) does to the
    /// scenario `scenario` holds as JSON: the scenario with that template set, as JSON (a seed
    /// button also puts the seed's text in its box), or an empty text when the event edits nothing.
    /// The row's seed button is disabled while its text is the seed's.
    #[wasm_bindgen]
    pub fn template_edit(scenario: &str, event: web_sys::Event) -> Result<String, String> {
        use wasm_bindgen::JsCast;
        let Some(el) = event.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else {
            return Ok(String::new());
        };
        let row = el.closest(".template").ok().flatten();
        let find = |tag: &str| row.as_ref().and_then(|r| r.query_selector(tag).ok().flatten());
        let (Some(field), Some(button), Some(area)) =
            (el.get_attribute("data-field"), find("button"), find("textarea"))
        else {
            return Ok(String::new());
        };
        let (button, area): (web_sys::HtmlButtonElement, web_sys::HtmlTextAreaElement) =
            (button.unchecked_into(), area.unchecked_into());
        let seed = button.get_attribute("data-seed").unwrap_or_default();
        match event.type_().as_str() {
            "click" if el.tag_name() == "BUTTON" => area.set_value(&seed),
            "input" => {}
            _ => return Ok(String::new()),
        }
        let text = area.value();
        button.set_disabled(text == seed);
        let mut s = agora::scenario::Scenario::parse(scenario)?;
        s.set_template(&field, text);
        serde_json::to_string(&s).map_err(|e| e.to_string())
    }

    /// The report of the batch `csv` holds (see [`agora::batch::report_html`]).
    #[wasm_bindgen]
    pub fn report(csv: &str) -> Result<String, String> {
        agora::batch::read_csv(csv).map(|t| agora::batch::report_html(&t))
    }
}

fn main() {}
