//! A batch in the page: the scenario on screen over many seeds, one run after another, with a
//! progress bar and Cancel (the finished runs stay). Each finished run is a CSV row written by
//! [`crate::batch`] as `agora batch` writes it; the summary, charts and runs are drawn from the CSV
//! by the tools module (`src/bin/agora-tools.rs`), fetched when a batch first starts or is shown,
//! so its code is not on the first page. Each run opens as a replay; the batch is kept with the past
//! runs.

use std::rc::Rc;

use leptos::prelude::*;

use super::browser::BrowserClock;
use super::tools;
use super::Controller;
use crate::app::demo::PageDemo;
use crate::batch::{play_seed, Report};
use crate::clock::Clock;
use crate::i18n::{say, t, tf};
use crate::model::ChatModel;
use crate::provider::HttpModel;
use crate::scenario::Scenario;
use crate::ui::form::EditorState;

/// Each kept run's log, packed, by seed (a list, not a map: the page has no map of this type).
pub type Logs = Vec<(u64, String)>;

/// The batch on screen (one at a time).
#[derive(Default)]
struct Batch {
    /// The scenario the batch plays, as it was when it started.
    scenario: Option<Scenario>,
    /// The seeds as the user wrote them.
    spec: String,
    /// The rows so far, as CSV, in seed order: the file `agora batch` writes for these seeds.
    csv: String,
    /// Runs finished, and asked for.
    done: usize,
    total: usize,
    started: f64,
    /// Runs that were done when this stretch of the batch started (a resumed batch's).
    first: usize,
    /// What the finished runs spent, for the shared spending cap.
    tokens: u64,
    cost: f64,
    running: bool,
    /// The page is being left: the run in flight is not a finished run (its calls fail as the
    /// page goes), and the batch stays in local storage to be resumed.
    leaving: bool,
    /// Brought back after a reload, not yet resumed or ended.
    interrupted: bool,
    cancelled: bool,
    note: String,
    /// Each run's log, packed, for models whose runs cannot be played again the same way (the
    /// demo model's can: those are played again when opened).
    logs: Logs,
    http: Option<Rc<HttpModel>>,
}

/// The batch as handles, so it is `Copy`: its data, and a version that every view of it reads
/// (one signal for all of it keeps the page small; a batch changes once per run).
#[derive(Clone, Copy)]
pub struct BatchState {
    data: StoredValue<Batch, LocalStorage>,
    version: RwSignal<u32>,
    pub open: RwSignal<bool>,
    /// The report of the rows so far (worked out in the tools chunk), or why it could not be made.
    report: RwSignal<Option<Result<Report, String>>>,
}

impl BatchState {
    pub fn new() -> Self {
        Self {
            data: StoredValue::new_local(Batch::default()),
            version: RwSignal::new(0),
            open: RwSignal::new(false),
            report: RwSignal::new(None),
        }
    }

    fn change(&self, f: impl FnOnce(&mut Batch)) {
        self.data.update_value(f);
        self.version.update(|v| *v += 1);
    }

    /// Draws the report of the rows so far, once the tools module is there.
    fn redraw(&self) {
        let Some(csv) = self.data.with_value(|d| (d.done > 0).then(|| d.csv.clone())) else {
            self.report.set(None);
            return;
        };
        let report = self.report;
        leptos::task::spawn_local(async move {
            let made = tools::answer(tools::report(csv)).await;
            report.set(Some(made));
        });
    }

    /// Keeps the batch as it stands in local storage, with a finished run's log when it has one.
    fn keep_open(&self, log: Option<(u64, &str)>) -> Result<(), String> {
        self.data.with_value(|d| {
            let mut progress = vec![d.done as u64, d.total as u64, d.tokens, d.cost.to_bits()];
            progress.extend(d.logs.iter().map(|(s, _)| *s).chain(log.map(|(s, _)| s)));
            super::storage::keep_open_batch(&d.csv, &progress, log)
        })
    }

    /// The page is going: what the batch has finished is kept already, and what is in flight
    /// must not be recorded as a run that failed.
    pub fn leave(&self) {
        self.data.update_value(|d| d.leaving = d.running);
    }

    /// Reads the batch, and redraws the reader when it changes.
    fn read<R>(&self, f: impl FnOnce(&Batch) -> R) -> R {
        self.version.track();
        self.data.with_value(f)
    }
}

/// The scenario as a batch plays it: nobody in a seat (the models answer every call).
fn batch_scenario(scenario: &Scenario) -> Scenario {
    let mut s = scenario.clone();
    s.seats.clear();
    s
}

impl Controller {
    /// Starts a batch of a scenario over the seeds a text names (once the tools module is
    /// fetched), or with `None` resumes the batch a reload interrupted from its first seed not
    /// done, so that it ends with the rows it would have had without the reload; an error says
    /// why it cannot start.
    pub async fn run_batch(&self, new: Option<(&Scenario, &str, bool)>) -> Result<(), String> {
        let b = self.batch;
        if b.data.with_value(|d| d.running) {
            return Err(t(say::BatchAlreadyRunning).into());
        }
        let (scenario, spec, done) = match new {
            Some((scenario, spec, _)) => {
                let scenario = batch_scenario(scenario);
                scenario.validate().map_err(|e| crate::scenario::FieldError::join(&e))?;
                (scenario, spec.to_string(), 0)
            }
            None => b
                .data
                .with_value(|d| Some((d.scenario.clone()?, d.spec.clone(), d.done)).filter(|_| d.interrupted))
                .ok_or(t(say::BatchNothingToResume))?,
        };
        let json = serde_json::to_string(&scenario).unwrap_or_default();
        let seeds = tools::answer(tools::seeds(spec.clone())).await?;
        let http = if !scenario.model.is_hosted() {
            None
        } else {
            // Whole replies: nothing of a batch streams into the transcript of the run on screen.
            let mut quiet = scenario.clone();
            quiet.model.network.stream = false;
            Some(self.http_model(&quiet, Rc::new(BrowserClock))?)
        };
        // Each run judged as it finishes: asked for a new batch, kept in its header for a resumed one.
        let judged = match new {
            Some((_, _, judged)) => judged,
            None => b.data.with_value(|d| d.csv.lines().next().is_some_and(|h| h.contains(",judge:"))),
        };
        let key = if judged {
            let address = tools::answer(tools::judge_address(json.clone())).await?;
            super::judge::judge_key(&self.keys, &address)?
        } else {
            String::new()
        };
        if new.is_some() {
            // A resumed batch has its header already.
            let header = tools::answer(tools::header(json.clone(), spec.clone(), judged)).await?;
            // A batch left unfinished by a reload is kept with the past runs before this one starts.
            if b.data.with_value(|d| d.interrupted) {
                self.end_interrupted_batch();
            }
            if let Err(e) = super::storage::keep_open_batch_start(&scenario, &spec) {
                self.notice.set(tf(say::BatchCannotKeep, &[("why", &e)]));
            }
            b.change(|d| {
                *d = Batch {
                    scenario: Some(scenario.clone()),
                    spec: spec.clone(),
                    csv: header,
                    ..Batch::default()
                }
            });
        }
        b.change(|d| {
            d.interrupted = false;
            d.running = true;
            d.total = seeds.len();
            d.started = BrowserClock.now_ms();
            d.first = done;
            d.http = http.clone();
        });
        b.redraw();
        let this = *self;
        leptos::task::spawn_local(async move {
            let clock: Rc<dyn Clock> = Rc::new(BrowserClock);
            let cap = scenario.model.spending_cap;
            let mut drawn = 0.0;
            let cancelled = || b.data.with_value(|d| d.cancelled || d.leaving);
            for seed in seeds.into_iter().skip(done) {
                if cancelled() {
                    break;
                }
                let (tokens, cost) = b.data.with_value(|d| (d.tokens, d.cost));
                // The batch's spending cap is shared: each run may spend what the others left.
                let mut seeded = scenario.clone();
                seeded.seed = seed;
                if cap.tokens > 0 {
                    seeded.model.spending_cap.tokens = cap.tokens.saturating_sub(tokens).max(1);
                }
                if cap.cost > 0.0 {
                    seeded.model.spending_cap.cost = (cap.cost - cost).max(1e-9);
                }
                let model: Result<Rc<dyn ChatModel>, String> = match &http {
                    Some(h) => Ok(h.clone()),
                    None if seeded.model.is_in_tab() => {
                        this.intab.model(&seeded, Rc::new(|_: &str, _: &str| {}))
                    }
                    None if seeded.model.is_builtin() => {
                        Ok(crate::app::builtin::model(this.intab, Rc::new(|_: &str, _: &str| {})))
                    }
                    None => Ok(Rc::new(PageDemo::new(&seeded, clock.clone()))),
                };
                let mut played = play_seed(&seeded, seed, model, clock.clone()).await;
                if cancelled() {
                    break; // cut short by Cancel or by leaving the page: not one of the finished runs
                }
                if let (true, Ok(events)) = (judged, &mut played) {
                    let run = crate::export::to_json_compact(&seeded, events);
                    match super::judge::judged(run, key.clone()).await {
                        Ok(added) => events.extend(added),
                        Err(e) => b.change(|d| {
                            d.note = tf(say::BatchSeedNotJudged, &[("seed", &seed), ("why", &e)])
                        }),
                    }
                }
                let (run, error) = match &played {
                    Ok(events) => (crate::export::to_json_compact(&seeded, events), String::new()),
                    Err(e) => (String::new(), e.clone()),
                };
                let header = b.data.with_value(|d| d.csv.lines().next().unwrap_or_default().to_string());
                let row =
                    tools::answer(tools::row(json.clone(), spec.clone(), seed, run, error, header)).await;
                let row = match row {
                    Ok(row) => row,
                    Err(e) => {
                        b.change(|d| d.note = tf(say::BatchRowNotWritten, &[("why", &e)]));
                        break;
                    }
                };
                let packed = match (&played, seeded.model.is_demo()) {
                    (Ok(events), false) => super::storage::pack_run(events),
                    _ => None,
                };
                let capped = row.capped;
                b.change(|d| {
                    d.tokens += row.tokens;
                    d.cost += row.cost;
                    d.csv.push_str(&row.line);
                    d.done += 1;
                    if capped {
                        d.note = t(say::BatchCapped).into();
                    }
                });
                if let Err(e) = b.keep_open(packed.as_deref().map(|p| (seed, p))) {
                    b.change(|d| d.note = tf(say::BatchNotSaved, &[("why", &e)]));
                }
                if let Some(packed) = packed {
                    b.change(|d| d.logs.push((seed, packed)));
                }
                // The report (and its Replay buttons) is drawn again at most twice a second while
                // the batch runs, and once at its end.
                if clock.now_ms() - drawn > 500.0 {
                    drawn = clock.now_ms();
                    b.redraw();
                }
                if capped {
                    break;
                }
                // Lets the page show the progress between runs.
                clock.sleep(0).await;
            }
            if b.data.with_value(|d| d.leaving) {
                // Should the page stay after all (kept in the back-forward cache), the batch is
                // offered to resume, as after a reload.
                return b.change(|d| {
                    (d.running, d.leaving, d.interrupted, d.http) = (false, false, true, None);
                });
            }
            b.change(|d| {
                if d.cancelled {
                    d.note = t(say::BatchCancelled).into();
                }
                d.running = false;
                d.http = None;
            });
            b.redraw();
            this.keep_batch();
        });
        Ok(())
    }

    /// Shows the batch a reload interrupted, with its finished runs, to resume or end.
    pub fn restore_batch(&self) {
        match super::storage::restore_open_batch() {
            Ok(Some(open)) => {
                self.batch.change(|d| {
                    *d = Batch {
                        scenario: Some(open.scenario),
                        spec: open.spec,
                        csv: open.csv,
                        done: open.done,
                        total: open.total,
                        tokens: open.tokens,
                        cost: open.cost,
                        interrupted: true,
                        logs: open.logs,
                        ..Batch::default()
                    }
                });
                self.batch.redraw();
                self.batch.open.set(true);
            }
            Ok(None) => {}
            Err(e) => self.notice.set(e),
        }
    }

    /// "End it here": the interrupted batch's finished runs go to the past runs as they are.
    pub fn end_interrupted_batch(&self) {
        self.batch.change(|d| d.interrupted = false);
        self.keep_batch();
    }

    /// Cancel: the run in flight is dropped, the finished ones stay.
    pub fn cancel_batch(&self) {
        self.batch.change(|d| d.cancelled = true);
        self.batch.data.with_value(|d| {
            if let Some(h) = &d.http {
                h.cancel_all();
            }
        });
        self.intab.cancel_calls();
    }

    /// Puts the batch on screen in the past runs.
    fn keep_batch(&self) {
        let kept = self.batch.data.with_value(|d| {
            let scenario = d.scenario.as_ref().filter(|_| d.done > 0)?;
            Some(super::storage::archive_batch(scenario, &d.csv, d.done, &d.logs))
        });
        match kept {
            // Not in the past runs: the rows stay where a reload finds them.
            Some(Err(e)) => return self.notice.set(tf(say::BatchNotInPast, &[("why", &e)])),
            Some(Ok(list)) => self.history.set(list),
            None => {}
        }
        self.batch.data.with_value(|d| super::storage::forget_open_batch(d.logs.iter().map(|(s, _)| *s)));
    }

    /// Opens one run of the batch on screen as a replay, and its scenario in the editor.
    fn open_batch_run(&self, seed: u64, editor: EditorState) {
        let (scenario, packed) = self.batch.data.with_value(|d| {
            (d.scenario.clone(), d.logs.iter().find(|(s, _)| *s == seed).map(|(_, p)| p.clone()))
        });
        let Some(mut scenario) = scenario else { return };
        scenario.seed = seed;
        let this = *self;
        if let Some(packed) = packed {
            match super::storage::unpack_run(&packed) {
                Ok(file) => {
                    editor.load(scenario);
                    this.load_replay(file.events);
                }
                Err(e) => this.notice.set(tf(say::BatchSeedNotOpened, &[("seed", &seed), ("why", &e)])),
            }
            return;
        }
        if !scenario.model.is_demo() {
            this.notice.set(tf(say::BatchLogNotKept, &[("seed", &seed)]));
            return;
        }
        // The demo model answers a seed the same way every time: the run is played again.
        leptos::task::spawn_local(async move {
            let clock: Rc<dyn Clock> = Rc::new(BrowserClock);
            let model: Rc<dyn ChatModel> = Rc::new(PageDemo::new(&scenario, clock.clone()));
            match play_seed(&scenario, seed, Ok(model), clock).await {
                Ok(events) => {
                    editor.load(scenario);
                    this.load_replay(events);
                }
                Err(e) => this.notice.set(tf(say::BatchSeedNotOpened, &[("seed", &seed), ("why", &e)])),
            }
        });
    }

    /// Opens a past batch in the batch panel.
    #[inline(never)]
    pub fn open_past_batch(&self, id: &str) -> Result<(), String> {
        if self.batch.data.with_value(|d| d.running) {
            return Err(t(say::BatchRunningCancelFirst).into());
        }
        if self.batch.data.with_value(|d| d.interrupted) {
            self.end_interrupted_batch();
        }
        let (scenario, csv, runs, logs) = super::storage::open_past_batch(id)?;
        self.batch.change(|d| {
            *d = Batch { scenario: Some(scenario), csv, done: runs, total: runs, logs, ..Batch::default() }
        });
        self.batch.redraw();
        self.batch.open.set(true);
        Ok(())
    }
}

/// "Batch: many seeds": seeds, Run batch, Cancel, progress, then the summary, charts and runs.
/// Everything below the seeds is drawn as HTML text from the batch's state, with one click
/// handler reading which button was pressed (smaller on the first page than a view per part).
#[component]
pub fn BatchPanel() -> impl IntoView {
    let controller = expect_context::<Controller>();
    let editor = expect_context::<EditorState>();
    let b = controller.batch;
    let seeds = RwSignal::new("1..20".to_string());
    let judged = RwSignal::new(false);
    let error = RwSignal::new(String::new());
    // Worked out again when the seeds or the scenario change, not at every run of a batch.
    let estimate = Memo::new(move |_| {
        let count = seed_count(&seeds.get())?;
        editor.scenario.with(|s| {
            if s.model.is_demo() {
                return Some(tf(say::BatchEstimateDemo, &[("n", &count)]));
            }
            controller.demo_ready.get().then_some(())?;
            let e = crate::app::demo::estimate(&batch_scenario(s))?;
            let n = count as u64;
            let cost = e
                .cost
                .map(|c| tf(say::BatchEstimateCost, &[("cost", &crate::text::fixed(c * n as f64, 2))]))
                .unwrap_or_default();
            Some(tf(
                say::BatchEstimate,
                &[
                    ("n", &count),
                    ("calls", &(u64::from(e.calls) * n)),
                    ("tokens", &((e.prompt_tokens + e.completion_tokens) * n)),
                    ("cost", &cost),
                ],
            ))
        })
    });
    let run = move |_| {
        let scenario = editor.scenario.get_untracked();
        leptos::task::spawn_local(async move {
            let run = Some((&scenario, seeds.get_untracked(), judged.get_untracked()));
            let result = controller.run_batch(run.as_ref().map(|(s, k, j)| (*s, k.as_str(), *j))).await;
            error.set(result.err().unwrap_or_default());
        });
    };
    let resume = move |_| {
        leptos::task::spawn_local(async move {
            error.set(controller.run_batch(None).await.err().unwrap_or_default());
        });
    };
    let csv = move |_| {
        if let Err(e) = b.data.with_value(|d| super::browser::download("agora-batch.csv", "text/csv", &d.csv))
        {
            error.set(e);
        }
    };
    // Whose batch this is: another scenario's is set apart from the one being edited.
    let whose = move || {
        b.read(|d| {
            let s = d.scenario.as_ref().filter(|_| !d.interrupted)?;
            let other = editor.scenario.with(|e| !batch_scenario(e).same_as(s));
            let said = if other {
                tf(say::BatchOfOther, &[("title", &crate::presets::title_words(&s.title)), ("seeds", &d.spec)])
            } else {
                tf(say::BatchOf, &[("title", &crate::presets::title_words(&s.title)), ("seeds", &d.spec)])
            };
            Some(view! {
                <p class="batch-of" class:other=other data-testid="batch-of" data-other=other.to_string()>{said}</p>
            })
        })
    };
    let interrupted = move || {
        b.read(|d| {
            d.interrupted.then(|| {
                let title = d.scenario.as_ref().map(|s| crate::presets::title_words(&s.title).to_string()).unwrap_or_default();
                let said = tf(
                    say::BatchInterrupted,
                    &[
                        ("title", &title),
                        ("seeds", &d.spec),
                        ("done", &d.done),
                        ("total", &d.total),
                        ("left", &d.total.saturating_sub(d.done)),
                    ],
                );
                view! {
                    <div class="notice" role="status" data-testid="batch-interrupted">
                        <p>{said}</p>
                        <p class="row">
                            <button class="primary" data-testid="batch-resume" on:click=resume>{t(say::BatchResume)}</button>
                            " "
                            <button data-testid="batch-end" on:click=move |_| controller.end_interrupted_batch()>{t(say::BatchEndHere)}</button>
                        </p>
                    </div>
                }
            })
        })
    };
    let progress = move || {
        b.read(|d| {
            let left = if d.running && d.done > d.first {
                let elapsed = BrowserClock.now_ms() - d.started;
                let secs = elapsed / (d.done - d.first) as f64 * (d.total - d.done) as f64 / 1000.0;
                tf(say::BatchTimeLeft, &[("secs", &crate::text::fixed(secs, 0))])
            } else {
                String::new()
            };
            view! {
                // Before a first batch there is nothing to count.
                <p class="batch-progress" hidden=d.total == 0>
                    <progress max=d.total.to_string() value=d.done.to_string()></progress>
                    " "
                    <span data-testid="batch-progress" data-done=d.done.to_string()>{tf(say::BatchProgress, &[("done", &d.done), ("total", &d.total), ("left", &left)])}</span>
                </p>
                <p data-testid="batch-note">{d.note.clone()}</p>
            }
        })
    };
    let open_run = move |seed: u64| controller.open_batch_run(seed, editor);
    view! {
        <details class="panel batch" data-testid="batch" prop:open=move || b.open.get() on:toggle=move |ev| {
            use wasm_bindgen::JsCast;
            if let Some(d) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok()) {
                b.open.set(d.open());
            }
        }>
            <summary><h2>{t(say::BatchTitle)}</h2></summary>
            <p class="muted">{t(say::BatchHint)}</p>
            <p class="row">
                <label>{t(say::BatchSeeds)} <input data-testid="batch-seeds" value="1..20" on:input=move |ev| seeds.set(event_target_value(&ev)) /></label>
                <label title=t(say::BatchJudgeTitle)>
                    <input type="checkbox" data-testid="batch-judge" on:change=move |ev| judged.set(event_target_checked(&ev)) />
                    {t(say::BatchJudge)}
                </label>
                <button data-testid="batch-run" disabled=move || b.read(|d| d.running) on:click=run>{t(say::BatchRun)}</button>
                <button data-testid="batch-cancel" disabled=move || b.read(|d| !d.running) on:click=move |_| controller.cancel_batch()>{t(say::BatchCancel)}</button>
                <button data-testid="batch-csv" disabled=move || b.read(|d| d.done == 0) on:click=csv>{t(say::BatchCsv)}</button>
            </p>
            {whose}
            <p class="muted" data-testid="batch-estimate">{move || estimate.get().unwrap_or_default()}</p>
            {move || (!error.get().is_empty()).then(|| view! { <p class="notice error" role="alert">{error.get()}</p> })}
            {progress}
            {interrupted}
            {move || b.report.with(|r| match r {
                None => ().into_any(),
                Some(Ok(report)) => report_view(report, open_run).into_any(),
                Some(Err(e)) => view! {
                    <p class="notice error">{tf(say::BatchReportFailed, &[("why", e)])}</p>
                }.into_any(),
            })}
        </details>
    }
}

/// The summary in sentences, its figures in full one click away, the charts, and each run with
/// its Replay button (`open` plays that seed again).
fn report_view(report: &Report, open: impl Fn(u64) + Copy + Send + Sync + 'static) -> impl IntoView {
    let sentences = report.sentences.iter().map(|s| view! { <li>{s.clone()}</li> }).collect_view();
    let charts = report
        .charts
        .iter()
        .map(|c| {
            view! {
                <figure class="chart" data-testid="batch-chart">
                    {crate::ui::chart::bars(c)}
                    <figcaption class="muted">{c.caption.clone()}</figcaption>
                </figure>
            }
        })
        .collect_view();
    let runs = report
        .runs
        .iter()
        .map(|r| {
            let seed = r.seed;
            view! {
                <tr data-testid="batch-row" data-seed=seed.to_string()>
                    <th scope="row">{tf(say::BatchSeedRow, &[("seed", &seed)])}</th>
                    <td>{r.finish.clone()}</td>
                    <td>{tf(say::BatchTurns, &[("n", &r.turns)])}</td>
                    <td>{r.shares.clone()}</td>
                    <td><button data-testid="batch-open" data-seed=seed.to_string() on:click=move |_| open(seed)>{t(say::PastReplay)}</button></td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <ul class="batch-summary" data-testid="batch-summary">{sentences}</ul>
        <details class="batch-figures">
            <summary>{t(say::BatchFiguresBefore)}<code>"agora batch"</code>{t(say::BatchFiguresAfter)}</summary>
            <pre data-testid="batch-figures">{report.figures.clone()}</pre>
        </details>
        <div class="batch-charts">{charts}</div>
        <div class="batch-runs"><table><tbody>{runs}</tbody></table></div>
    }
}

/// How many seeds `spec` names, for the estimate before a batch starts (the module checks the
/// text when the batch starts): `1..20`, `7`, or a comma list of both.
fn seed_count(spec: &str) -> Option<usize> {
    spec.split(',').try_fold(0usize, |n, part| {
        let (a, b) = part.trim().split_once("..").unwrap_or((part.trim(), part.trim()));
        let (a, b): (u64, u64) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
        Some(n + usize::try_from(b.checked_sub(a)? + 1).ok()?)
    })
}
