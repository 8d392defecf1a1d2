//! "Judge this run": the judge named in the run's scenario reads the finished run on screen (a
//! live run, a replay or a run opened from a link) and its calls and verdict join the run's log
//! (`crate::judge`); the scorecard is drawn from the log by the tools module, so a replay, a
//! link or a reload shows the same verdict.

use leptos::prelude::*;

use super::driver::Controller;
use crate::events::Event;
use crate::markup::Markup;
use crate::ui::MarkupAttribute;

impl Controller {
    /// Asks the judge of the run's scenario about the finished run on screen, with the key for
    /// `address` (empty: the judge needs none); `label` says who judges. The judging itself
    /// (the prompt, the call, the reading of the verdict, the demo judge, the model in the tab)
    /// is the tools module's, so none of it is on the first page.
    pub fn judge(&self, address: &str, label: &str) {
        let events = match self.judgeable() {
            Ok(e) => e,
            Err(e) => return self.judging.set(e),
        };
        let Some(Event::RunStarted { scenario, .. }) = events.first() else { return };
        let key = match judge_key(&self.keys, address) {
            Ok(k) => k,
            Err(e) => return self.judging.set(format!("The judge cannot be asked: {e}")),
        };
        self.judging.set(format!("Judging: {label} reads the run…"));
        let run = crate::export::to_json_compact(scenario, &events);
        let this = *self;
        super::tools::spawn_later(super::tools::judge(run, key), move |out| {
            match out.and_then(|lines| crate::events::from_json_lines(&lines)) {
                Ok(added) => {
                    this.add_judged(added);
                    this.judging.set(String::new());
                }
                Err(e) => this.judging.set(format!("The judge could not be asked: {e}")),
            }
        });
    }
}

impl Controller {
    /// Asks the judge of the run's scenario, finding its address and name from the scenario
    /// (the comparison's columns: the first page gets them from the tools module's button).
    pub fn judge_named(&self) {
        let Some(s) = self.view.with_untracked(|v| v.scenario.clone()) else { return };
        let label = crate::judge::Judge::of(&s.judge.who(), &s).label;
        self.judge(&crate::judge::judge_address(&s), &label);
    }
}

/// The turn link of a scorecard's reason that `ev` clicked, if it clicked one.
fn goto_link(ev: &leptos::ev::MouseEvent) -> Option<web_sys::Element> {
    use wasm_bindgen::JsCast;
    let target = ev.target()?.dyn_into::<web_sys::Element>().ok()?;
    target.closest("[data-goto-turn]").ok().flatten()
}

/// Brings the speech a reason's turn link names into view in the transcript, and marks it.
fn show_speech(link: &web_sys::Element) {
    use super::browser::css_string;
    let attr = |name: &str| link.get_attribute(name).unwrap_or_default();
    let selector = format!(
        "li.message[data-turn={}][data-speaker={}]",
        css_string(&attr("data-goto-turn")),
        css_string(&attr("data-speaker"))
    );
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let Some(speech) = document.query_selector(&selector).ok().flatten() else { return };
    if let Ok(Some(marked)) = document.query_selector("li.message.goto") {
        let _ = marked.class_list().remove_1("goto");
    }
    let _ = speech.class_list().add_1("goto");
    let options = web_sys::ScrollIntoViewOptions::new();
    options.set_block(web_sys::ScrollLogicalPosition::Center);
    speech.scroll_into_view_with_scroll_into_view_options(&options);
}

/// The page's key for a judge called at `address` (`crate::judge::judge_address`): none when it
/// needs none, else the key, asking first, as for a run, when it was entered for another address.
pub(crate) fn judge_key(keys: &super::models::KeyStore, address: &str) -> Result<String, String> {
    if address.is_empty() {
        return Ok(String::new());
    }
    Ok(keys.key_for(address)?.unwrap_or_default())
}

/// The judge's calls and verdict on the run file `run` (its log to be appended to), from the
/// tools module's `judge` with `key`.
pub(crate) async fn judged(run: String, key: String) -> Result<Vec<Event>, String> {
    let lines = super::tools::answer_later(super::tools::judge(run, key)).await?;
    crate::events::from_json_lines(&lines)
}

/// Live scoring (`judge.live`, see `crate::judge::live`): after each step of a run that asks
/// for it, the speeches not yet scored are scored by the tools module and their scores shown
/// beside them; the scores and the judge's calls join the log when the run has ended, after it.
fn score_live(controller: Controller) {
    // What the run had said (and whether it had ended) when last asked, and a call in flight.
    let asked_at = StoredValue::new(usize::MAX);
    let busy = StoredValue::new(false);
    Effect::new(move |_| {
        let live = controller.view.with(|v| {
            let s = v.scenario.clone().filter(|s| s.judge.live())?;
            Some((s, v.transcript.len() * 2 + v.finished.is_some() as usize, v.finished.is_some()))
        });
        let Some((scenario, at, finished)) = live else { return };
        if busy.get_value() || controller.replaying.get() || at == asked_at.get_value() {
            return;
        }
        asked_at.set_value(at);
        busy.set_value(true);
        let run = controller.with_events(|e| crate::export::to_json_compact(&scenario, e));
        // The page's key and the address it was entered for: the tools module sends it only there.
        let (key, origin) = (controller.keys.key.get_untracked(), controller.keys.origin.get_untracked());
        super::tools::spawn_later(super::tools::score_speeches(run, key, origin), move |out| {
            // Every score so far: shown while the run goes on (its own events stay the
            // engine's), and in its log, with the judge's calls, once it has ended.
            match out.and_then(|lines| crate::events::from_json_lines(&lines)) {
                Ok(all) if finished => controller.add_judged(all),
                Ok(all) => controller.view.update(|v| {
                    all.iter().filter(|e| matches!(e, Event::SpeechScored { .. })).for_each(|e| v.apply(e))
                }),
                Err(e) => controller.notice.set(format!("A speech could not be scored: {e}")),
            }
            busy.set_value(false);
            // Looks again, for what was said meanwhile.
            controller.view.update(|_| {});
        });
    });
}

/// The judge's panel under a finished run: "Judge this run", who judges and the scorecard, all
/// drawn by the tools module from the log (so a verdict, a replay and a link draw the same).
#[component]
pub fn VerdictPanel() -> impl IntoView {
    let controller = expect_context::<Controller>();
    score_live(controller);
    let finished = Memo::new(move |_| controller.view.with(|v| v.finished.is_some()));
    let card = RwSignal::new(String::new());
    // Drawn again when the run finishes and when a verdict comes (a new one is a new allocation).
    Effect::new(move |_| {
        controller.view.with(|v| v.verdict.as_ref().map(|e| std::sync::Arc::as_ptr(e) as usize));
        if !finished.get() {
            return card.set(String::new());
        }
        let Ok(events) = controller.judgeable() else { return };
        let Some(Event::RunStarted { scenario, .. }) = events.first() else { return };
        let run = crate::export::to_json_compact(scenario, &events);
        super::tools::spawn(super::tools::verdict_panel(run), move |out| {
            card.set(out.unwrap_or_else(|e| crate::text::alert_html(&e).into_string()))
        });
    });
    let act = move |ev: leptos::ev::MouseEvent| {
        if let Some(link) = goto_link(&ev) {
            ev.prevent_default();
            return show_speech(&link);
        }
        let Some(button) = super::browser::acted(&ev, "judge") else { return };
        let attr = |name: &str| button.get_attribute(name).unwrap_or_default();
        controller.judge(&attr("data-key-for"), &attr("data-judge"));
    };
    move || {
        finished.get().then(|| {
            view! {
                <div class="panel verdict" data-testid="verdict">
                    <h2>"Verdict"</h2>
                    <div data-testid="scorecard-box" on:click=act markup=move || Markup::from_tools_module(card.get())></div>
                    <p class="muted" role="status" data-testid="judging">{move || controller.judging.get()}</p>
                </div>
            }
        })
    }
}
/// The model of the judge `settings` name for a run of `scenario`, with `key`; none for the
/// demo judge.
fn judge_model(
    scenario: &crate::scenario::Scenario,
    settings: &crate::judge::JudgeSettings,
    judge: &crate::judge::Judge,
    key: String,
) -> Result<Option<std::rc::Rc<dyn crate::model::ChatModel>>, String> {
    use std::rc::Rc;
    if judge.is_demo() {
        return Ok(None);
    }
    let s = crate::judge::judge_scenario(scenario, &settings.who());
    if s.model.is_in_tab() {
        // The page's engine (one module for the page and this one): whatever the tab holds.
        return Ok(Some(Rc::new(crate::app::intab::EngineJudge::new(s.seed, s.model.writing.clone()))));
    }
    let key = (!key.trim().is_empty()).then_some(key);
    let endpoint = crate::provider::Endpoint::of(&s, key);
    let transport = Rc::new(crate::app::fetch::BrowserTransport::default());
    let clock = Rc::new(crate::app::browser::BrowserClock);
    let http = crate::provider::HttpModel::new(endpoint, s.model.network, transport, clock)?;
    Ok(Some(Rc::new(http)))
}

/// Judges a run file with the judge its scenario names (`key` for that judge's provider): the
/// judge's calls and verdict as JSON lines, to append to the run's log (see
/// [`crate::judge::judge_run`]); the demo judge calls nothing. The tools' `judge`.
pub(crate) async fn judge_tool(run: String, key: String) -> Result<String, String> {
    let file = crate::export::from_json(&run)?;
    let events = crate::events::run_part(&file.events);
    let settings = file.scenario.judge.settings()?;
    let judge = crate::judge::Judge::of(&settings.who(), &file.scenario);
    let model = judge_model(&file.scenario, &settings, &judge, key)?;
    let clock = std::rc::Rc::new(crate::app::browser::BrowserClock);
    let added =
        crate::judge::judge_run(events, &settings, &judge, model, clock).await.map_err(|e| e.to_string())?;
    Ok(crate::events::to_json_lines(&added))
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
    events: Vec<crate::events::Event>,
}

thread_local! {
    static SCORED: std::cell::RefCell<Scored> = Default::default();
}

/// Scores each speech of a run file not yet scored (`judge.live`, see
/// [`crate::judge::live`]) with the judge its scenario names, sending the page's `key` only
/// when the judge is called at the address it was entered for (`origin`; any, when empty):
/// every score of the run so far, with the judge's calls, as JSON lines. Once the run has
/// ended they are handed over for its log, and forgotten here. A model error with nothing
/// scored this time is the error.
pub(crate) async fn score_tool(run: String, key: String, origin: String) -> Result<String, String> {
    use crate::events::Event;
    let file = crate::export::from_json(&run)?;
    let settings = file.scenario.judge.settings()?;
    let judge = crate::judge::Judge::of(&settings.who(), &file.scenario);
    let address = crate::judge::judge_address(&file.scenario);
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
    let clock = std::rc::Rc::new(crate::app::browser::BrowserClock);
    let (added, error) = crate::judge::live::score_speeches(&log, &settings, &judge, model, clock).await;
    if let (Some(e), true) = (&error, added.is_empty()) {
        return Err(e.to_string());
    }
    for e in &added {
        if let Event::SpeechScored { turn, agent, .. } = e {
            kept.speeches.push((*turn, agent.clone(), said(*turn, agent).unwrap_or_default()));
        }
    }
    kept.events.extend(added);
    let out = crate::events::to_json_lines(&kept.events);
    let ended = crate::events::finish_of(&file.events).is_some();
    SCORED.with(|s| *s.borrow_mut() = if ended { Scored::default() } else { kept });
    Ok(out)
}

/// Two run files of one comparison judged side by side in both orders (see
/// [`crate::judge::pairwise`]): the judge, then each dimension's verdict in either order and its
/// outcome, as JSON. The tools' `judge_pair`.
pub(crate) async fn pair_tool(a: String, b: String, key: String) -> Result<String, String> {
    use crate::judge::pairwise;
    let (fa, fb) = (crate::export::from_json(&a)?, crate::export::from_json(&b)?);
    let (ea, eb) = (crate::events::run_part(&fa.events), crate::events::run_part(&fb.events));
    let settings = fa.scenario.judge.settings()?;
    let judge = crate::judge::Judge::of(&settings.who(), &fa.scenario);
    let n = pairwise::dimensions(&settings).len();
    let judged = match judge_model(&fa.scenario, &settings, &judge, key)? {
        // Nothing for a judge reading the text to tell apart: a tie, not asked.
        _ if pairwise::identical(ea, eb) => vec![pairwise::Judgement::IDENTICAL; n],
        None => pairwise::demo(ea, eb, &settings),
        Some(model) => {
            let clock = std::rc::Rc::new(crate::app::browser::BrowserClock);
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
    Ok(serde_json::json!({"judge": judge.label, "same_model": judge.same_model, "rows": rows}).to_string())
}
