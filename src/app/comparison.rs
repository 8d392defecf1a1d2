//! A comparison, in the page's Compare tab: a chunk of its own (`compare`), fetched when a
//! comparison first opens. Two to four columns of one cast and topic that differ in one thing
//! ([`crate::compare`]), each a run of its own (its own [`Controller`], drawn by the app's
//! transcript and method panel), stepped and played together, with the strip of figures above
//! them; a comparison is one file, one link and one entry in the past runs. The columns take the
//! page's key, demo speed and model in the tab from the page's controller.
//!
//! The columns share the provider's limit on calls in flight (every model on this page counts its
//! calls together: [`crate::provider::share_limits`]); the scenario's spending cap is
//! split evenly between them (by [`crate::compare::Comparison::columns`]), so each column's log
//! is the same however fast the others went.

use leptos::context::Provider;
use leptos::prelude::*;

use crate::app::{browser, storage, Controller, MethodPanel};
use crate::compare::{Comparison, ComparisonFile};
use crate::export::RunFile;
use crate::i18n::{say, t, tf};
use crate::judge::rubric::Dimension;
use crate::scenario::Scenario;
use crate::ui::form::EditorState;

/// The comparison `fragment` names (see [`requested`]) drawn under `owner`, once the chunk is
/// there: the split function (what Leptos's `#[lazy]` expands to, with `fallible`, so a chunk that
/// cannot be fetched is an error the tab words) the Compare tab enters the chunk through.
#[leptos::wasm_split::wasm_split(compare, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn comparison_view(owner: Owner, fragment: String) -> Result<AnyView, super::Unfetched> {
    // The columns' calls share the provider's limit on calls in flight.
    crate::provider::share_limits();
    Ok(owner.with(|| view! { <ComparisonView fragment=fragment /> }.into_any()))
}

/// One column: what sets it apart, the scenario it runs, and its run.
#[derive(Clone)]
struct Column {
    label: String,
    scenario: Scenario,
    controller: Controller,
    /// The run the column opened with, until it is reset: a replay shows its steps one by one,
    /// and the comparison's file, link and figures hold all of it meanwhile.
    recorded: StoredValue<Option<RunFile>>,
}

/// The comparison on the page.
#[derive(Clone)]
struct Open {
    base: Scenario,
    comparison: Comparison,
    columns: Vec<Column>,
}

impl Open {
    /// The columns of `file`; recorded runs open as replays.
    fn of(file: ComparisonFile, page: &Controller) -> Result<Open, String> {
        let columns = file
            .comparison
            .columns(&file.scenario)?
            .into_iter()
            .zip(file.runs)
            .map(|(c, run)| {
                let controller = Controller::column(page);
                if let Some(run) = &run {
                    controller.load_replay(run.events.clone());
                }
                Column { label: c.label, scenario: c.scenario, controller, recorded: StoredValue::new(run) }
            })
            .collect();
        Ok(Open { base: file.scenario, comparison: file.comparison, columns })
    }

    /// The comparison as its file, with each column's run so far.
    fn file(&self) -> ComparisonFile {
        let runs = self
            .columns
            .iter()
            .map(|c| {
                if let Some(run) = c.recorded.get_value() {
                    return Some(run);
                }
                let scenario = c.controller.view.with_untracked(|v| v.scenario.clone())?;
                let events = c.controller.with_events(<[_]>::to_vec);
                Some(RunFile {
                    format: crate::export::RUN_FORMAT.into(),
                    version: crate::export::RUN_FORMAT_VERSION,
                    scenario: (*scenario).clone(),
                    events,
                })
            })
            .collect();
        ComparisonFile { scenario: self.base.clone(), comparison: self.comparison.clone(), runs }
    }

    /// The file as JSON; with the runs, or without them.
    fn to_json(&self, runs: bool) -> String {
        let file = self.file();
        let runs: Vec<Option<String>> = file
            .runs
            .iter()
            .map(|r| {
                r.as_ref().filter(|_| runs).map(|r| crate::export::to_json_compact(&r.scenario, &r.events))
            })
            .collect();
        crate::compare::to_json(&self.base, self.comparison.vary_name(), &self.comparison.values, &runs)
    }

    /// The comparison as it stands, kept for a reload: its file without runs, whether it is in
    /// the past runs already, and each column's run as a save keeps the run on screen.
    fn to_saved(&self, kept: bool) -> String {
        let columns: Vec<serde_json::Value> = self
            .columns
            .iter()
            .map(|c| {
                let (Some((events, replay, position)), Some(scenario)) =
                    (c.controller.snapshot(), c.controller.view.with_untracked(|v| v.scenario.clone()))
                else {
                    return serde_json::Value::Null;
                };
                serde_json::json!({
                    "replay": replay,
                    "position": position,
                    "run": crate::export::to_json_compact(&scenario, &events),
                })
            })
            .collect();
        serde_json::json!({ "file": self.to_json(false), "kept": kept, "columns": columns }).to_string()
    }

    /// The comparison kept by [`Open::to_saved`], each column at the step it had reached (a run
    /// that was playing comes back paused); and whether it is in the past runs already.
    fn reopened(page: &Controller) -> Result<(Open, bool), String> {
        let text = storage::open_comparison()?.ok_or("no comparison was open")?;
        let damaged = |e: String| format!("the comparison that was open is damaged ({e})");
        let saved: serde_json::Value = serde_json::from_str(&text).map_err(|e| damaged(e.to_string()))?;
        let file = crate::compare::from_json(saved["file"].as_str().unwrap_or_default()).map_err(damaged)?;
        let open = Open::of(file, page)?;
        let columns = saved["columns"].as_array().cloned().unwrap_or_default();
        for (c, column) in open.columns.iter().zip(columns) {
            let Some(run) = column["run"].as_str() else { continue };
            let file = crate::export::from_json(run).map_err(damaged)?;
            let replay = column["replay"].as_bool().unwrap_or(false);
            if replay {
                c.recorded.set_value(Some(file.clone()));
            }
            let position = column["position"].as_u64().unwrap_or(0) as usize;
            c.controller.restore(storage::Restored { file, replay, position });
        }
        Ok((open, saved["kept"].as_bool().unwrap_or(false)))
    }

    /// Every column's run has finished (on screen: a recorded comparison opened again is kept
    /// already).
    fn finished(&self) -> bool {
        self.columns.iter().all(|c| c.controller.view.with_untracked(|v| v.finished.is_some()))
    }
}

/// What a fragment asks for: `cmp=1.DATA` (a comparison file, packed as links are), `past=ID`
/// (a comparison kept in the past runs), or `new=VARY&VALUES&s=1.DATA` (a new comparison of a
/// scenario, as its link carries it; what varies and the values URI-encoded).
fn requested(fragment: &str) -> Result<ComparisonFile, String> {
    let hash = format!("#{fragment}");
    if let Some(new) = hash.strip_prefix("#new=") {
        let mut parts = new.splitn(3, '&');
        let mut next = || -> String {
            let part = parts.next().unwrap_or_default();
            js_sys::decode_uri_component(part).map(String::from).unwrap_or_else(|_| part.to_string())
        };
        let (vary, values) = (next(), next());
        let Some(crate::link::Shared::Scenario(scenario)) = crate::link::decode(&next())? else {
            return Err("the scenario to compare did not come with the address".into());
        };
        let comparison = Comparison::new(&vary, &values)?;
        let runs = vec![None; comparison.values.len()];
        return Ok(ComparisonFile { scenario, comparison, runs });
    }
    let text = match hash.strip_prefix("#past=") {
        Some(id) => storage::open_past_comparison(id)?,
        None => match crate::link::decode(&hash)? {
            Some(crate::link::Shared::Comparison(text)) => text,
            _ => return Err("this page shows a comparison, and its address names none".into()),
        },
    };
    crate::compare::from_json(&text)
}

/// What a button for every column asks of each.
#[derive(Clone, Copy, PartialEq, Eq)]
enum All {
    Step,
    Play,
    Pause,
    Reset,
}

/// The comparison `fragment` names (`open`: the one open before a reload), its controls, strip
/// and columns.
#[component]
fn ComparisonView(fragment: String) -> impl IntoView {
    // Holds what the columns share: the key store, the demo speed, the model in the tab.
    let page = expect_context::<Controller>();
    let opened = if fragment == "open" {
        Open::reopened(&page)
    } else {
        requested(&fragment).and_then(|file| Open::of(file, &page)).map(|o| (o, false))
    };
    let error = opened.as_ref().err().cloned();
    let (opened, was_kept) = opened.map_or((None, false), |(o, kept)| (Some(o), kept));
    let open = StoredValue::new(opened);
    let note = RwSignal::new(String::new());
    // The last link copied, in a box of its own (the note would run past the frame's edge).
    let link = RwSignal::new(String::new());
    let strip = RwSignal::new(None::<crate::compare::Strip>);
    // A comparison opened with its runs is kept already (it came from the past runs, a link or a
    // file); one played here is kept when it finishes.
    let recorded = open.with_value(|o| {
        o.as_ref().is_some_and(|o| o.columns.iter().any(|c| c.recorded.with_value(Option::is_some)))
    });
    let kept = StoredValue::new(recorded || was_kept);
    // (Timers and frames may fire after the comparison has closed: nothing is left to read then.)
    let with_open = move |f: &dyn Fn(&Open)| open.try_with_value(|o| o.as_ref().map(f));
    // Each step of a column draws the strip again, once a frame at most; once every column has
    // finished, the comparison is kept in the past runs.
    let drawn = StoredValue::new(false);
    Effect::new(move |_| {
        with_open(&|o| o.columns.iter().for_each(|c| c.controller.view.track()));
        if drawn.get_value() {
            return;
        }
        drawn.set_value(true);
        request_animation_frame(move || {
            drawn.try_set_value(false);
            with_open(&|o| {
                match crate::compare::strip(&o.file()) {
                    Ok(figures) => strip.set(Some(figures)),
                    Err(e) => note.set(tf(say::CmpFiguresFailed, &[("why", &e)])),
                }
                if o.finished() && !kept.get_value() {
                    kept.set_value(true);
                    let how = tf(say::CmpComparedBy, &[("vary", &o.comparison.vary_words())]);
                    if let Err(e) =
                        storage::archive_comparison(&o.to_json(true), &o.base, &how, o.columns.len())
                    {
                        note.set(tf(say::CmpNotInPast, &[("why", &e)]));
                    }
                }
            });
        });
    });
    // Kept in local storage as it goes (a second after a change at most, and when the page is
    // left), so a reload reopens every column at the step it had reached.
    let keep = move || {
        with_open(&|o| {
            if let Err(e) = storage::keep_open_comparison(&o.to_saved(kept.get_value())) {
                note.set(tf(say::CmpNotKept, &[("why", &e)]));
            }
        });
    };
    let keep_scheduled = StoredValue::new(false);
    Effect::new(move |_| {
        with_open(&|o| o.columns.iter().for_each(|c| c.controller.view.track()));
        if !keep_scheduled.get_value() {
            keep_scheduled.set_value(true);
            set_timeout(
                move || {
                    if keep_scheduled.try_set_value(false).is_none() {
                        keep();
                    }
                },
                std::time::Duration::from_millis(1000),
            );
        }
    });
    let leaving = window_event_listener(leptos::ev::pagehide, move |_| keep());
    on_cleanup(move || leaving.remove());
    let act = move |what: All| {
        with_open(&|o| {
            let mut errors = Vec::new();
            for c in &o.columns {
                let done = match what {
                    All::Step => c.controller.step(&c.scenario),
                    All::Play => c.controller.play(&c.scenario),
                    All::Pause => {
                        c.controller.pause();
                        Ok(())
                    }
                    All::Reset => {
                        c.controller.reset();
                        c.recorded.set_value(None);
                        Ok(())
                    }
                };
                if let Err(e) = done {
                    errors.push(format!("{}: {e}", c.label));
                }
            }
            if what == All::Reset {
                kept.set_value(false);
            }
            note.set(errors.join("; "));
        });
    };
    // What the buttons for every column can do now (`crate::compare::all_buttons`).
    let offered = Memo::new(move |_| {
        open.try_with_value(|o| {
            let o = o.as_ref()?;
            let states: Vec<crate::compare::ColumnState> = o
                .columns
                .iter()
                .map(|c| crate::compare::ColumnState {
                    running: c.controller.mode.get() == crate::session::Status::Running,
                    busy: c.controller.busy.get(),
                    ended: c.controller.view.with(|v| v.finished.is_some()),
                })
                .collect();
            Some(crate::compare::all_buttons(&states))
        })
        .flatten()
    });
    let offers = move |button: fn(crate::compare::AllButtons) -> bool| offered.get().is_some_and(button);
    let copy_link = move || {
        with_open(&|o| {
            let made = match crate::link::comparison_fragment(&o.to_json(true)) {
                Ok(fragment) => Ok((fragment, t(say::CmpLinkWith))),
                Err(_) => {
                    crate::link::comparison_fragment(&o.to_json(false)).map(|f| (f, t(say::CmpLinkWithout)))
                }
            };
            note.set(match made {
                Ok((fragment, what)) => {
                    let window = web_sys::window();
                    // The link opens the app, which shows the comparison.
                    let (app, _) = super::browser::link_base(&super::storage::links_at());
                    let url = format!("{app}#{fragment}");
                    if let Some(w) = window {
                        let _ = w.navigator().clipboard().write_text(&url);
                    }
                    link.set(url.clone());
                    crate::i18n::fill(what, &[("n", &url.len())])
                }
                Err(e) => tf(say::CmpNoLink, &[("why", &e)]),
            });
        });
    };
    let save = move |json: bool| {
        with_open(&|o| {
            let saved = if json {
                browser::download(
                    "agora-comparison.json",
                    "application/json",
                    &crate::json::indent(&o.to_json(true)),
                )
            } else {
                o.file().to_csv().and_then(|csv| browser::download("agora-comparison.csv", "text/csv", &csv))
            };
            if let Err(e) = saved {
                note.set(e);
            }
        });
    };
    // "Judge each": every finished column by its own scenario's judge, its scores in the strip.
    let judge_each = move || {
        let finished = open.try_with_value(|o| {
            let done: Vec<&Column> =
                o.iter().flat_map(|o| &o.columns).filter(|c| c.controller.judgeable().is_ok()).collect();
            done.iter().for_each(|c| c.controller.judge_named());
            done.len()
        });
        note.set(crate::compare::judge_each_note(finished.unwrap_or(0)));
    };
    // "Judge side by side": every pair of finished columns, judged in both orders by the tools
    // module (`judge_pair`); what each pair gave, as the module wrote it.
    let pairs = RwSignal::new(Vec::<(String, String, serde_json::Value)>::new());
    let judge_pairs = move || {
        let runs: Vec<(String, String, Scenario)> = open.with_value(|o| {
            let Some(o) = o else { return Vec::new() };
            o.columns
                .iter()
                .filter_map(|c| {
                    let events = c.controller.judgeable().ok()?;
                    let crate::events::Event::RunStarted { scenario, .. } = events.first()? else {
                        return None;
                    };
                    Some((
                        c.label.clone(),
                        crate::export::to_json_compact(scenario, &events),
                        (**scenario).clone(),
                    ))
                })
                .collect()
        });
        if runs.len() < 2 {
            return note.set(t(say::CmpPairsNeedTwo).into());
        }
        let key = match super::judge::judge_key(&page.keys, &crate::judge::judge_address(&runs[0].2)) {
            Ok(k) => k,
            Err(e) => return note.set(tf(say::JudgeCannotAsk, &[("why", &e)])),
        };
        pairs.set(Vec::new());
        note.set(tf(say::CmpJudgingPairs, &[("n", &(runs.len() * (runs.len() - 1) / 2))]));
        leptos::task::spawn_local(async move {
            let done = async {
                for i in 0..runs.len() {
                    for j in i + 1..runs.len() {
                        let pair =
                            super::tools::judge_pair(runs[i].1.clone(), runs[j].1.clone(), key.clone());
                        let out = super::tools::answer_later(pair).await?;
                        let judged = serde_json::from_str(&out).map_err(|e| e.to_string())?;
                        pairs.update(|p| p.push((runs[i].0.clone(), runs[j].0.clone(), judged)));
                    }
                }
                Ok::<(), String>(())
            }
            .await;
            note.set(match done {
                Ok(()) => tf(say::CmpPairsDone, &[("n", &(runs.len() * (runs.len() - 1) / 2))]),
                Err(e) => tf(say::JudgeCouldNotAsk, &[("why", &e)]),
            });
        });
    };
    let title = open.with_value(|o| {
        o.as_ref().map(|o| {
            tf(
                say::CmpTitle,
                &[
                    ("title", &crate::presets::title_words(&o.base.title)),
                    ("vary", &o.comparison.vary_words()),
                ],
            )
        })
    });
    let columns = open.with_value(|o| o.as_ref().map(|o| o.columns.clone()).unwrap_or_default());
    // Columns on the model in the tab run on this page's engine, loaded in the Scenario tab's
    // model settings: said first, with what it holds.
    let in_tab = columns.iter().any(|c| c.scenario.model.is_in_tab()).then(|| {
        let loaded = page.intab.loaded;
        let layout = expect_context::<super::stage::Layout>();
        move || match loaded.get() {
            Some(l) => view! {
                <p class="notice" data-testid="intab-ready">
                    {tf(say::CmpIntabReady, &[("model", &l.source)])}
                </p>
            }
            .into_any(),
            None => view! {
                <p class="notice" data-testid="intab-needed">
                    {t(say::CmpIntabNeeded)}
                    <button on:click=move |_| layout.tab.set(Some(super::stage::Tab::Scenario))>{t(say::CmpModelSettings)}</button>
                </p>
            }
            .into_any(),
        }
    });
    view! {
        <div class="comparison" data-testid="comparison">
            {error.map(|e| view! {
                <p class="notice error" role="alert" data-testid="compare-error">
                    {tf(say::CompareFailed, &[("why", &e)])}
                </p>
            })}
            <h2>{title}</h2>
            <p class="row">
                <button data-testid="compare-step" disabled=move || !offers(|o| o.step)
                    on:click=move |_| act(All::Step)>{t(say::CmpStepAll)}</button>
                <button data-testid="compare-play" disabled=move || !offers(|o| o.play)
                    on:click=move |_| act(All::Play)>{t(say::CmpPlayAll)}</button>
                <button data-testid="compare-pause" disabled=move || !offers(|o| o.pause)
                    on:click=move |_| act(All::Pause)>{t(say::CmpPauseAll)}</button>
                <button data-testid="compare-reset" on:click=move |_| act(All::Reset)>{t(say::Reset)}</button>
                <button data-testid="compare-link" on:click=move |_| copy_link()>{t(say::CmpCopyLink)}</button>
                <button data-testid="compare-json" on:click=move |_| save(true)>{t(say::CmpSaveJson)}</button>
                <button data-testid="compare-csv" on:click=move |_| save(false)>{t(say::CmpFiguresCsv)}</button>
                <button data-testid="compare-judge" title=t(say::CmpJudgeEachTitle) on:click=move |_| judge_each()>
                    {t(say::CmpJudgeEach)}
                </button>
                <button data-testid="compare-side-by-side" title=t(say::CmpSideBySideTitle)
                    on:click=move |_| judge_pairs()>
                    {t(say::CmpSideBySide)}
                </button>
            </p>
            <p class="notice" data-testid="compare-note" role="status" hidden=move || note.with(String::is_empty)>
                {move || note.get()}
            </p>
            <input class="link-box" data-testid="compare-url" readonly aria-label=t(say::CmpLinkCopied)
                hidden=move || link.with(String::is_empty) prop:value=move || link.get() />
            {in_tab}
            <div class="strip-box scrolls">{move || strip.with(|s| s.as_ref().map(strip_view))}</div>
            {move || pairs.with(|p| (!p.is_empty()).then(|| side_by_side(p)))}
            <div class="columns">{columns.into_iter().map(column).collect_view()}</div>
        </div>
    }
}

/// The strip of figures: a column per run, a row per figure, each cell carrying its CSV value
/// (`data-figure` names the CSV column, `data-value` holds the cell).
fn strip_view(strip: &crate::compare::Strip) -> impl IntoView {
    let labels = strip.labels.iter().map(|l| view! { <th scope="col">{l.clone()}</th> }).collect_view();
    let rows = strip
        .rows
        .iter()
        .map(|r| {
            let cells = r
                .cells
                .iter()
                .map(|c| {
                    let bar = c.bar.map(|width| {
                        view! {
                            <svg class="share" viewBox="0 0 100 10" aria-hidden="true"><rect width=width height="10" class="mean" /></svg>
                            " "
                        }
                    });
                    view! { <td data-figure=r.figure.clone() data-value=c.value.clone()>{bar}{c.text.clone()}</td> }
                })
                .collect_view();
            view! { <tr><th scope="row">{r.title.clone()}</th>{cells}</tr> }
        })
        .collect_view();
    view! {
        <table class="strip" data-testid="compare-strip">
            <thead><tr><th></th>{labels}</tr></thead>
            <tbody>{rows}</tbody>
        </table>
    }
}

/// One column: its label, its transcript and its method's panel, reading its own run.
fn column(c: Column) -> impl IntoView {
    let editor = EditorState::new(RwSignal::new(c.scenario));
    let label = c.label.clone();
    view! {
        <Provider value=c.controller>
            <Provider value=editor>
                <section class="column" data-testid="compare-column" aria-label=label>
                    <h3>{c.label}</h3>
                    // A column that has finished says so and why, so it does not look stuck.
                    {move || c.controller.view.with(|v| v.finished).map(|reason| view! {
                        <p class="notice column-finished" data-testid="column-finished" data-reason=reason.as_str()>
                            {tf(say::CmpFinished, &[("why", &c.controller.view.with(|v| v.ending()).unwrap_or_default())])}
                        </p>
                    })}
                    <p class="muted" role="status" data-testid="column-judging" hidden=move || c.controller.judging.with(String::is_empty)>
                        {move || c.controller.judging.get()}
                    </p>
                    <crate::app::transcript::Transcript />
                    <aside class="decisions">
                        <MethodPanel />
                    </aside>
                </section>
            </Provider>
        </Provider>
    }
}

/// What "Judge side by side" gave: for each pair of columns, each dimension's verdict in either
/// order and the outcome (a preference only when both orders agree), and how often they agreed.
fn side_by_side(pairs: &[(String, String, serde_json::Value)]) -> impl IntoView {
    let text = |v: &serde_json::Value, k: &str| {
        v.get(k).and_then(serde_json::Value::as_str).unwrap_or_default().to_string()
    };
    let judge = pairs.first().map(|(_, _, v)| text(v, "judge")).unwrap_or_default();
    let flagged = pairs.first().is_some_and(|(_, _, v)| v["same_model"] == true);
    let tables = pairs
        .iter()
        .map(|(a, b, v)| {
            let rows = v["rows"].as_array().cloned().unwrap_or_default();
            let agreed = rows.iter().filter(|r| r["agreed"] == true).count();
            let named = |side: &str| match side {
                "A" => tf(say::PairA, &[("name", a)]),
                "B" => tf(say::PairB, &[("name", b)]),
                "tie" => t(say::PairTie).to_string(),
                "same" => t(say::PairNotAsked).to_string(),
                _ => t(say::NotJudged).to_string(),
            };
            let body = rows
                .iter()
                .map(|r| {
                    let outcome = text(r, "outcome");
                    let shown = if outcome == "tie" && r["agreed"] == false { t(say::PairTieDisagreed).to_string() } else { named(&outcome) };
                    view! {
                        <tr data-dimension=text(r, "dimension")>
                            <th scope="row" class="dimension">{Dimension::shown(&text(r, "dimension")).to_string()}</th>
                            <td>{named(&text(r, "first"))}</td>
                            <td>{named(&text(r, "second"))}</td>
                            <td data-testid="pair-outcome">{shown}</td>
                        </tr>
                    }
                })
                .collect_view();
            view! {
                <table class="scorecard" data-testid="pair" data-a=a.clone() data-b=b.clone()>
                    <caption>{if rows.first().is_some_and(|r| r["first"] == "same") {
                        tf(say::PairSameCaption, &[("a", a), ("b", b)])
                    } else {
                        tf(say::PairCaption, &[("a", a), ("b", b), ("agreed", &agreed), ("n", &rows.len())])
                    }}</caption>
                    <thead><tr><th scope="col"></th><th scope="col">{t(say::PairAskedA)}</th><th scope="col">{t(say::PairAskedB)}</th><th scope="col">{t(say::PairOutcome)}</th></tr></thead>
                    <tbody>{body}</tbody>
                </table>
            }
        })
        .collect_view();
    view! {
        <section class="side-by-side" data-testid="side-by-side">
            <h3>{t(say::PairHeading)}</h3>
            <p class="muted">
                {tf(say::PairJudgedBy, &[("judge", &crate::judge::shown_label(&judge))])}
                {flagged.then(|| t(say::PairOwnModel))}
                {t(say::PairOverall)}
            </p>
            {tables}
        </section>
    }
}
