//! The page's tools module, its own small WebAssembly build fetched the first time one of its
//! tools is used and never on the first page: for a batch it reads the seeds, writes each run's
//! CSV row from its log, and draws the summary, charts and runs of the rows as HTML; for a run it
//! writes the Markdown transcript, the demo judge's verdict and the judge's scorecard; for the editor it draws a scenario's prompt templates and sets
//! one; for a seat it draws the box that asks the person and reads the answer from it. The code is
//! the core's (`agora::batch`, `agora::export`, `agora::scenario`, `agora::seat`), so the page
//! writes the rows and shows the statistics `agora batch` does, and the transcript
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
    pub fn header(scenario: &str, seeds: &str, judged: bool) -> Result<String, String> {
        page::header(scenario, seeds, judged)
    }

    /// One run's row (see [`page::row`]).
    #[wasm_bindgen]
    pub fn row(
        scenario: &str,
        seeds: &str,
        seed: f64,
        run: &str,
        error: &str,
        csv: &str,
    ) -> Result<String, String> {
        page::row(scenario, seeds, seed as u64, run, error, csv)
    }

    /// The Markdown transcript of a run file (see [`agora::export::to_markdown`]). Like every
    /// file the page saves through this module, it comes after a line for a note (empty here).
    #[wasm_bindgen]
    pub fn markdown(run: &str) -> Result<String, String> {
        agora::export::from_json(run).map(|f| format!("\n{}", agora::export::to_markdown(&f.events)))
    }

    /// A run file's scenario and log, or a scenario's own JSON (what the editor holds before a
    /// run) with no log.
    fn run_of(text: &str) -> Result<(agora::scenario::Scenario, Vec<agora::events::Event>), String> {
        agora::export::from_json(text)
            .map(|f| (f.scenario, f.events))
            .or_else(|e| agora::scenario::Scenario::from_json(text).map(|s| (s, Vec::new())).map_err(|_| e))
    }

    /// A run's or a scenario's notebook, which plays it (`agora::notebook`), ending with the
    /// run's transcript when there is one; after an empty note line.
    #[wasm_bindgen]
    pub fn notebook(run: &str) -> Result<String, String> {
        run_of(run).map(|(s, events)| format!("\n{}", agora::notebook::ipynb(&s, &events)))
    }

    /// A run file as one OpenTelemetry trace in OTLP/JSON, with what was said (the GenAI
    /// conventions' opt-in content: the file already holds it), starting now; after an empty
    /// note line.
    #[wasm_bindgen]
    pub fn trace(run: &str) -> Result<String, String> {
        let file = agora::export::from_json(run)?;
        let options = agora::trace::TraceOptions {
            start_unix_nanos: (js_sys::Date::now() * 1e6) as u64,
            content: true,
        };
        agora::trace::otlp_json(&[agora::events::run_part(&file.events)], &options).map(|t| format!("\n{t}"))
    }

    /// A run's or a scenario's round robin or selector scenario as an AutoGen team component: the
    /// first line says what was renamed (empty when nothing was), the rest is the component.
    #[wasm_bindgen]
    pub fn autogen_team(run: &str) -> Result<String, String> {
        agora::autogen::export_team(&run_of(run)?.0).map(|(team, note)| format!("{note}\n{team}"))
    }

    /// An AutoGen team component as a scenario: the first line says what did not map and which
    /// model it runs on, the rest is the scenario's JSON.
    #[wasm_bindgen]
    pub fn autogen_import(team: &str) -> Result<String, String> {
        let imported = agora::autogen::import_team(team, None)?;
        let said = [imported.not_mapped, imported.runs_on].join(" ");
        Ok(format!("{}\n{}", said.trim().replace('\n', " "), imported.scenario.to_json_pretty()))
    }

    /// The model of the judge `settings` name for a run of `scenario`, with `key`; none for the
    /// demo judge.
    fn judge_model(
        scenario: &agora::scenario::Scenario,
        settings: &agora::judge::JudgeSettings,
        judge: &agora::judge::Judge,
        key: String,
    ) -> Result<Option<std::rc::Rc<dyn agora::model::ChatModel>>, String> {
        use std::rc::Rc;
        if judge.is_demo() {
            return Ok(None);
        }
        let s = agora::judge::judge_scenario(scenario, &settings.who());
        if s.model.is_in_tab() {
            // The page's engine (one module for the page and this one): whatever the tab holds.
            return Ok(Some(Rc::new(agora::app::intab::EngineJudge::new(s.seed, s.model.writing.clone()))));
        }
        let key = (!key.trim().is_empty()).then_some(key);
        let endpoint = agora::provider::Endpoint::of(&s, key);
        let transport = Rc::new(agora::app::fetch::BrowserTransport::default());
        let clock = Rc::new(agora::app::browser::BrowserClock);
        let http = agora::provider::HttpModel::new(endpoint, s.model.network, transport, clock)?;
        Ok(Some(Rc::new(http)))
    }

    /// Judges a run file with the judge its scenario names (`key` for that judge's provider):
    /// the judge's calls and verdict as JSON lines, to append to the run's log (see
    /// [`agora::judge::judge_run`]); the demo judge calls nothing.
    #[wasm_bindgen]
    pub async fn judge(run: String, key: String) -> Result<String, String> {
        let file = agora::export::from_json(&run)?;
        let events = agora::events::run_part(&file.events);
        let settings = file.scenario.judge.settings()?;
        let judge = agora::judge::Judge::of(&settings.who(), &file.scenario);
        let model = judge_model(&file.scenario, &settings, &judge, key)?;
        let clock = std::rc::Rc::new(agora::app::browser::BrowserClock);
        let added = agora::judge::judge_run(events, &settings, &judge, model, clock)
            .await
            .map_err(|e| e.to_string())?;
        Ok(agora::events::to_json_lines(&added))
    }

    /// The scores made so far for the run under way: the page keeps them out of the run's log
    /// until it ends, and asks again after each step.
    #[derive(Clone, Default)]
    struct Scored {
        /// The run's `run_started`, as JSON.
        run: String,
        /// Each speech scored: its turn, speaker and words.
        speeches: Vec<(u32, String, String)>,
        /// The judge's calls and `speech_scored` events.
        events: Vec<agora::events::Event>,
    }

    thread_local! {
        static SCORED: std::cell::RefCell<Scored> = Default::default();
    }

    /// Scores each speech of a run file not yet scored (`judge.live`, see
    /// [`agora::judge::live`]) with the judge its scenario names, sending the page's `key` only
    /// when the judge is called at the address it was entered for (`origin`; any, when empty):
    /// every score of the run so far, with the judge's calls, as JSON lines. Once the run has
    /// ended they are handed over for its log, and forgotten here. A model error with nothing
    /// scored this time is the error.
    #[wasm_bindgen]
    pub async fn score_speeches(run: String, key: String, origin: String) -> Result<String, String> {
        use agora::events::Event;
        let file = agora::export::from_json(&run)?;
        let settings = file.scenario.judge.settings()?;
        let judge = agora::judge::Judge::of(&settings.who(), &file.scenario);
        let address = agora::judge::judge_address(&file.scenario);
        if !(address.is_empty() || origin.is_empty() || address.starts_with(&origin)) {
            return Err(format!(
                "the judge is called at {address}, and your key was entered for {origin}: judge the run when it has ended, or name a judge at {origin}"
            ));
        }
        let model = judge_model(&file.scenario, &settings, &judge, key)?;
        let id = file.events.first().map(Event::to_json).unwrap_or_default();
        // The scores kept for this run, of speeches its log still holds as they were scored.
        let said = |turn: u32, agent: &str| {
            file.events.iter().find_map(|e| match e {
                Event::Message { turn: t, speaker, text, .. } if *t == turn && speaker == agent => {
                    Some(text.clone())
                }
                _ => None,
            })
        };
        // Kept only while every speech they scored is in the log in the same words (a run
        // played again from the same seed may say other things).
        let mut kept = SCORED.with(|s| s.borrow().clone());
        if kept.run != id
            || kept.speeches.iter().any(|(turn, agent, text)| said(*turn, agent).as_ref() != Some(text))
        {
            kept = Scored { run: id, ..Scored::default() };
        }
        let mut log = file.events.clone();
        log.extend(kept.events.iter().cloned());
        let clock = std::rc::Rc::new(agora::app::browser::BrowserClock);
        let (added, error) = agora::judge::live::score_speeches(&log, &settings, &judge, model, clock).await;
        if let (Some(e), true) = (&error, added.is_empty()) {
            return Err(e.to_string());
        }
        for e in &added {
            if let Event::SpeechScored { turn, agent, .. } = e {
                kept.speeches.push((*turn, agent.clone(), said(*turn, agent).unwrap_or_default()));
            }
        }
        kept.events.extend(added);
        let out = agora::events::to_json_lines(&kept.events);
        let ended = agora::events::finish_of(&file.events).is_some();
        SCORED.with(|s| *s.borrow_mut() = if ended { Scored::default() } else { kept });
        Ok(out)
    }

    /// A tournament's leaderboard as HTML, from the CSV `agora tournament` writes or the JSON
    /// leaderboard beside it (see [`agora::tournament::leaderboard_html`]).
    #[wasm_bindgen]
    pub fn leaderboard(text: &str) -> Result<String, String> {
        let board = agora::tournament::leaderboard_html(text)?;
        Ok(agora::markup!(
            "<section class=\"panel leaderboard\" data-testid=\"leaderboard\" aria-label=\"Tournament\"><h2>A tournament's leaderboard</h2><div>{}</div><button data-act=\"close\" data-testid=\"leaderboard-close\">Close</button></section>",
            board
        )
        .into_string())
    }

    /// The address whose key the judge of `scenario` (JSON) needs; empty when it needs none
    /// (see [`agora::judge::judge_address`]).
    #[wasm_bindgen]
    pub fn judge_address(scenario: &str) -> Result<String, String> {
        let scenario = agora::scenario::Scenario::from_json(scenario)?;
        Ok(agora::judge::judge_address(&scenario))
    }

    /// Two run files of one comparison judged side by side in both orders (see
    /// [`agora::judge::pairwise`]): the judge, then each dimension's verdict in either order and
    /// its outcome, as JSON.
    #[wasm_bindgen]
    pub async fn judge_pair(a: String, b: String, key: String) -> Result<String, String> {
        use agora::judge::pairwise;
        let (fa, fb) = (agora::export::from_json(&a)?, agora::export::from_json(&b)?);
        let (ea, eb) = (agora::events::run_part(&fa.events), agora::events::run_part(&fb.events));
        let settings = fa.scenario.judge.settings()?;
        let judge = agora::judge::Judge::of(&settings.who(), &fa.scenario);
        let n = pairwise::dimensions(&settings).len();
        let judged = match judge_model(&fa.scenario, &settings, &judge, key)? {
            // Nothing for a judge reading the text to tell apart: a tie, not asked.
            _ if pairwise::identical(ea, eb) => vec![pairwise::Judgement::IDENTICAL; n],
            None => pairwise::demo(ea, eb, &settings),
            Some(model) => {
                let clock = std::rc::Rc::new(agora::app::browser::BrowserClock);
                pairwise::compare(ea, eb, &settings, model, clock).await.map_err(|e| e.to_string())?.0
            }
        };
        let side = |s: Option<pairwise::Side>| s.map_or("", pairwise::Side::as_str);
        let asked = |j: &pairwise::Judgement, s| if j.identical { "same" } else { side(s) };
        let rows: Vec<serde_json::Value> = pairwise::dimensions(&settings)
            .iter()
            .zip(&judged)
            .map(|(d, j)| {
                serde_json::json!({"dimension": d, "first": asked(j, j.first), "second": asked(j, j.second),
                    "outcome": side(j.outcome()), "agreed": j.agreed()})
            })
            .collect();
        Ok(serde_json::json!({"judge": judge.label, "same_model": judge.same_model, "rows": rows})
            .to_string())
    }

    /// What a finished run's panel shows under "Verdict": the button that asks the judge, who
    /// judges and the scorecard of its newest verdict (see [`agora::judge::panel_html`]), then
    /// its text statistics ([`agora::textstats::table_html`]), as HTML.
    #[wasm_bindgen]
    pub fn verdict_panel(run: &str) -> Result<String, String> {
        let file = agora::export::from_json(run)?;
        let mut html = agora::judge::panel_html(&file.events);
        html.push(agora::textstats::table_html(agora::events::run_part(&file.events)));
        Ok(html.into_string())
    }

    /// An edit in the judge's settings (drawn by [`templates`] for the part `judge`): the
    /// scenario with the settings read back from the rows, as JSON; after a dimension is added
    /// or removed, prefixed `redraw` and a line end, so the page draws the rows again.
    fn judge_edit(
        scenario: &str,
        event: &web_sys::Event,
        el: &web_sys::Element,
        block: &web_sys::Element,
    ) -> Result<String, String> {
        use wasm_bindgen::JsCast;
        let act = el.get_attribute("data-act").filter(|_| event.type_() == "click");
        if event.type_() != "input" && act.is_none() {
            return Ok(String::new());
        }
        let mut s = agora::scenario::Scenario::parse(scenario)?;
        let mut settings = s.judge.read()?;
        let value = |e: &web_sys::Element| -> String {
            if let Some(i) = e.dyn_ref::<web_sys::HtmlInputElement>() {
                i.value()
            } else if let Some(t) = e.dyn_ref::<web_sys::HtmlTextAreaElement>() {
                t.value()
            } else {
                String::new()
            }
        };
        let within = |root: &web_sys::Element, key: &str| {
            root.query_selector(&format!("[data-key={key}]"))
                .ok()
                .flatten()
                .map(|e| value(&e))
                .unwrap_or_default()
        };
        if let Some(live) = block
            .query_selector("[data-key=live]")
            .ok()
            .flatten()
            .and_then(|e| e.dyn_into::<web_sys::HtmlInputElement>().ok())
        {
            settings.live = live.checked();
        }
        let head = block.query_selector("p.row").ok().flatten();
        if let Some(head) = &head {
            (settings.provider, settings.model, settings.base_url) = (
                within(head, "provider").trim().into(),
                within(head, "model").trim().into(),
                within(head, "base_url").trim().into(),
            );
        }
        let removed =
            if act.as_deref() == Some("remove") { el.closest(".dimension").ok().flatten() } else { None };
        let (mut agent, mut conversation) = (Vec::new(), Vec::new());
        // The rows are the block's children that name their list.
        let mut next = block.first_element_child();
        while let Some(row) = next {
            next = row.next_element_sibling();
            // (The add buttons name their list too.)
            let Some(list) = row.get_attribute("data-list").filter(|_| row.tag_name() == "DIV") else {
                continue;
            };
            if removed.as_ref() == Some(&row) {
                continue;
            }
            let d = agora::judge::Dimension {
                name: within(&row, "name").trim().to_string(),
                min: within(&row, "min").trim().parse().unwrap_or(0),
                max: within(&row, "max").trim().parse().unwrap_or(0),
                description: within(&row, "description").trim().to_string(),
            };
            if list == "conversation_rubric" {
                conversation.push(d);
            } else {
                agent.push(d);
            }
        }
        if act.as_deref() == Some("add") {
            let list = if el.get_attribute("data-list").as_deref() == Some("conversation_rubric") {
                &mut conversation
            } else {
                &mut agent
            };
            let name = format!("dimension {}", list.len() + 1);
            list.push(agora::judge::Dimension { name, min: 1, max: 5, description: String::new() });
        }
        (settings.agent_rubric, settings.conversation_rubric) = (agent, conversation);
        s.judge = agora::judge::JudgeSpec::of(&settings);
        let json = serde_json::to_string(&s).map_err(|e| e.to_string())?;
        Ok(if act.is_some() { format!("redraw\n{json}") } else { json })
    }

    /// The editor's rows for one part's prompt templates (see
    /// [`agora::scenario::Scenario::templates_html`]) of the scenario `scenario` holds as JSON.
    #[wasm_bindgen]
    pub fn templates(scenario: &str, part: &str) -> Result<String, String> {
        agora::scenario::Scenario::parse(scenario).map(|s| s.templates_html(part).into_string())
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
        if let Some(block) = el.closest(".judge-settings").ok().flatten() {
            return judge_edit(scenario, &event, &el, &block);
        }
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

    /// The box that asks a person in a seat, as HTML, for the question `question` holds as JSON
    /// (see [`agora::seat::draw::draw`]).
    #[wasm_bindgen]
    pub fn seat_box(question: &str) -> Result<String, String> {
        agora::seat::Question::from_json(question).map(|q| agora::seat::draw::draw(&q).into_string())
    }

    /// What a click, input or key in the seat's box (drawn by [`seat_box`]) answers, as
    /// [`agora::seat::Answer::to_line`] writes it; an empty text when it answers nothing (typing
    /// in the text box counts its words).
    #[wasm_bindgen]
    pub fn seat_event(question: &str, event: web_sys::Event) -> Result<String, String> {
        agora::app::seat_box::answer_of(question, &event).map(|a| a.map(|a| a.to_line()).unwrap_or_default())
    }

    /// Opens the class's room on the teacher's page (see [`agora::app::room_live::open`]).
    #[wasm_bindgen]
    pub async fn room_open(seats: String, lines: String) -> Result<String, String> {
        agora::app::room_live::open(&seats, &lines).await
    }

    /// The run's events from the `from`th on, for the room's phones.
    #[wasm_bindgen]
    pub fn room_events(from: f64, lines: &str) {
        agora::app::room_live::events(from as usize, lines)
    }

    /// The question a seat is asked now, for the phone that holds it (none: closed).
    #[wasm_bindgen]
    pub fn room_ask(agent: Option<String>, question: Option<String>) {
        agora::app::room_live::ask(agent, question)
    }

    /// Starts a student's phone screen from the join link (phone.html).
    #[wasm_bindgen]
    pub async fn phone_start() -> Result<String, String> {
        agora::app::room_live::phone_start().await
    }

    /// The report of the batch `csv` holds (see [`agora::batch::report_html`]).
    #[wasm_bindgen]
    pub fn report(csv: &str) -> Result<String, String> {
        agora::batch::read_csv(csv).map(|t| agora::batch::report_html(&t).into_string())
    }
}

fn main() {}
