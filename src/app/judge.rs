//! "Judge this run": the judge named in the run's scenario reads the finished run on screen (a
//! live run, a replay or a run opened from a link) and its calls and verdict join the run's log
//! (`crate::judge`); the scorecard is drawn from the log by the tools module, so a replay, a
//! link or a reload shows the same verdict.

use leptos::prelude::*;

use super::driver::Controller;
use crate::events::Event;
use crate::i18n::{say, t, tf};
use crate::judge::rubric::Dimension;

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
            Err(e) => return self.judging.set(tf(say::JudgeCannotAsk, &[("why", &e)])),
        };
        self.judging.set(tf(say::Judging, &[("judge", &crate::judge::shown_label(label))]));
        let run = crate::export::to_json_compact(scenario, &events);
        let this = *self;
        super::tools::spawn_later(super::tools::judge(run, key), move |out| {
            match out.and_then(|lines| crate::events::from_json_lines(&lines)) {
                Ok(added) => {
                    this.add_judged(added);
                    this.judging.set(String::new());
                }
                Err(e) => this.judging.set(tf(say::JudgeCouldNotAsk, &[("why", &e)])),
            }
        });
    }
}

impl Controller {
    /// Asks the judge of the run's scenario, finding its address and name from the scenario
    /// (the comparison's columns; the Verdict panel's button carries them).
    pub fn judge_named(&self) {
        let Some(s) = self.view.with_untracked(|v| v.scenario.clone()) else { return };
        let label = crate::judge::Judge::of(&s.judge.who(), &s).label;
        self.judge(&crate::judge::judge_address(&s), &label);
    }
}

/// Brings the speech of `agent` in `turn` a reason names into view in the transcript, and marks it.
fn show_speech(turn: u32, agent: &str) {
    use super::browser::css_string;
    let selector = format!(
        "li.message[data-turn={}][data-speaker={}]",
        css_string(&turn.to_string()),
        css_string(agent)
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
/// Started with the stage, whether or not the judge's tab has been opened.
pub(crate) fn score_live(controller: Controller) {
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
                Err(e) => controller.notice.set(tf(say::SpeechNotScored, &[("why", &e)])),
            }
            busy.set_value(false);
            // Looks again, for what was said meanwhile.
            controller.view.update(|_| {});
        });
    });
}

/// The judge's panel under a finished run: "Judge this run", who judges, the scorecard and the
/// text statistics, worked out by the tools chunk from the log (so a verdict, a replay and a link
/// draw the same).
#[component]
pub fn VerdictPanel() -> impl IntoView {
    let controller = expect_context::<Controller>();
    let finished = Memo::new(move |_| controller.view.with(|v| v.finished.is_some()));
    let panel = RwSignal::new(None::<Result<crate::judge::Panel, String>>);
    // Worked out again when the run finishes and when a verdict comes (a new one is a new allocation).
    Effect::new(move |_| {
        controller.view.with(|v| v.verdict.as_ref().map(|e| std::sync::Arc::as_ptr(e) as usize));
        if !finished.get() {
            return panel.set(None);
        }
        let Ok(events) = controller.judgeable() else { return };
        let Some(Event::RunStarted { scenario, .. }) = events.first() else { return };
        let run = crate::export::to_json_compact(scenario, &events);
        leptos::task::spawn_local(async move {
            let made = super::tools::answer(super::tools::verdict_panel(run)).await;
            panel.set(made.transpose());
        });
    });
    let shown = move || {
        panel.with(|p| match p {
            None => ().into_any(),
            Some(Err(e)) => view! { <p class="notice error" role="alert">{e.clone()}</p> }.into_any(),
            Some(Ok(p)) => panel_view(controller, p).into_any(),
        })
    };
    move || {
        if finished.get() {
            view! {
                <div class="panel verdict" data-testid="verdict">
                    <h2>{t(say::Verdict)}</h2>
                    <div class="scrolls" data-testid="scorecard-box">{shown}</div>
                    <p class="muted" role="status" data-testid="judging">{move || controller.judging.get()}</p>
                </div>
            }
            .into_any()
        } else {
            // Before the run has ended, the tab says what it is for rather than showing nothing.
            view! { <p class="muted" data-testid="judge-waiting">{t(say::JudgeAfterRun)}</p> }.into_any()
        }
    }
}

fn panel_view(controller: Controller, p: &crate::judge::Panel) -> impl IntoView {
    let (key_for, judge) = (p.key_for.clone(), p.judge.clone());
    let note = p.note.clone().map(|n| view! { " " <span class="muted" data-testid="judge-note">{n}</span> });
    view! {
        <p class="row">
            <button data-testid="judge-run" on:click=move |_| controller.judge(&key_for, &judge)>{p.button()}</button>
            {note}
        </p>
        {p.card.as_ref().map(card_view)}
        {text_view(&p.text)}
    }
}

/// The header cells of a table of `cards`' dimensions, each with its scale.
fn score_heads(cards: &[crate::judge::Scorecard]) -> impl IntoView {
    cards.first().map(|c| {
        c.scores
            .iter()
            .map(|s| view! { <th scope="col" class="dimension">{Dimension::shown(&s.dimension).to_string()}<span class="muted">{format!(" {}–{}", s.min, s.max)}</span></th> })
            .collect_view()
    })
}

fn score_cells(c: &crate::judge::Scorecard) -> impl IntoView {
    c.scores
        .iter()
        .map(|s| match s.score {
            Some(v) => view! { <td data-dimension=s.dimension.clone()>{v}</td> }.into_any(),
            None => view! { <td data-dimension=s.dimension.clone() class="muted">"–"</td> }.into_any(),
        })
        .collect_view()
}

fn card_view(card: &crate::judge::Card) -> impl IntoView {
    let by = view! {
        <p class="judge-by" data-testid="judge-by">
            {tf(say::VerdictBy, &[("judge", &crate::judge::shown_label(&card.judge))])}
            {card.same_model.then(|| view! {
                <span class="warning" data-testid="same-model">{t(say::VerdictSameModel)}</span>
            })}
        </p>
    };
    if let Some(problem) = &card.problem {
        return view! { {by} <p class="alert" role="alert" data-testid="not-judged">{problem.clone()}</p> }
            .into_any();
    }
    let rows = card
        .agents
        .iter()
        .map(|c| {
            view! {
                <tr data-agent=c.agent.clone()>
                    <th scope="row">{c.agent.clone()}</th>
                    {score_cells(c)}
                    <td>{c.speeches}</td>
                    <td>{crate::text::fixed(c.words, 1)}</td>
                </tr>
            }
        })
        .collect_view();
    let conversation = card.conversation.as_ref().map(|c| {
        view! {
            <table class="scorecard" data-testid="conversation-scores">
                <thead><tr><th scope="col"></th>{score_heads(std::slice::from_ref(c))}</tr></thead>
                <tbody><tr><th scope="row">{t(say::TheConversation)}</th>{score_cells(c)}</tr></tbody>
            </table>
        }
    });
    let reasons = card
        .reasons
        .iter()
        .map(|r| {
            let pointers = r
                .pointers
                .iter()
                .map(|p| {
                    let (turn, agent) = (p.turn, r.agent.clone());
                    let go = move |ev: leptos::ev::MouseEvent| {
                        ev.prevent_default();
                        show_speech(turn, &agent);
                    };
                    view! {
                        <p class=p.what.class()>
                            {p.what.words()}
                            <a href="#" data-goto-turn=turn data-speaker=r.agent.clone() on:click=go>{tf(say::JudgeTurn, &[("n", &turn)])}</a>
                            " "
                            <q>{p.said.clone()}</q>
                        </p>
                    }
                })
                .collect_view();
            let title = if r.agent.is_empty() { t(say::TheConversation).to_string() } else { r.agent.clone() };
            view! {
                <div class="reason" data-testid="reasons" data-agent=r.agent.clone()>
                    <h3>{title}</h3>
                    <p>{r.reasoning.clone()}</p>
                    {pointers}
                </div>
            }
        })
        .collect_view();
    let leader = card.leader().map(|l| view! { <p class="leader" data-testid="judge-leader">{l}</p> });
    view! {
        {by}
        {leader}
        <table class="scorecard" data-testid="scorecard">
            <thead>
                <tr>
                    <th scope="col">{t(say::StatsAgent)}</th>
                    {score_heads(&card.agents)}
                    <th scope="col" title=t(say::JudgeSpeechesTitle)>{t(say::JudgeSpeeches)}</th>
                    <th scope="col">{t(say::JudgeWordsEach)}</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
        {conversation}
        <details class="reasons" open>
            <summary>{t(say::JudgeReasons)}</summary>
            {reasons}
        </details>
    }
    .into_any()
}

/// The run's text statistics, with what each figure measures and does not.
fn text_view(all: &[crate::textstats::AgentText]) -> impl IntoView {
    let rows = all
        .iter()
        .map(|t| {
            let cells = t.cells().map(|c| view! { <td>{c}</td> });
            view! { <tr data-agent=t.agent.clone()><th scope="row">{t.agent.clone()}</th>{cells.into_iter().collect_view()}</tr> }
        })
        .collect_view();
    view! {
        <details class="textstats" data-testid="textstats">
            <summary>{t(say::TextStatsTitle)}</summary>
            <p class="muted">{t(say::TextStatsHint)}</p>
            <table class="scorecard">
                <thead>
                    <tr>
                        <th scope="col">{t(say::StatsAgent)}</th>
                        <th scope="col">{t(say::JudgeSpeeches)}</th>
                        <th scope="col" title=t(say::TextTakesUpTitle)>{t(say::TextTakesUp)}</th>
                        <th scope="col" title=t(say::TextRepeatsTitle)>{t(say::TextRepeats)}</th>
                        <th scope="col" title=t(say::TextTopicTitle)>{t(say::TextTopic)}</th>
                        <th scope="col" title=t(say::TextLengthTitle)>{t(say::TextLength)}</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </details>
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
