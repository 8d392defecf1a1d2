//! The workspace: everything of the app but the start screen's gallery, one chunk fetched as
//! soon as the start screen is up (docs/architecture.md). It makes the controller that runs the
//! engine and the editor's state, restores what the last visit left, opens a link's scenario or
//! run, and draws the stage and its drawer, the start screen's past runs and file button, and the
//! notices, each into the place the first page left for it ([`Slots`]).

use crate::i18n::{say, t, tf};
use leptos::prelude::*;

use super::stage::Tab;
use super::{
    batch, browser, compare, demo, driver, editor, inspector, judge, methods, models, projector, room, seat,
    share, stage, storage, tools, transcript, Controller, Mode, Slots,
};
use crate::presets::PRESETS;

/// Fetches the workspace's chunk (the first time) and draws it into `slots` under `owner`, the
/// first page's, whose contexts it reads and adds to. Leptos's `#[lazy]` expands to this same
/// split; it is written out here for `fallible`, so a chunk that cannot be fetched is an error the
/// page words instead of a panic that would stop the app.
#[leptos::wasm_split::wasm_split(workspace, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn mount(owner: Owner, slots: Slots) -> Result<(), super::Unfetched> {
    owner.with(|| build(slots));
    Ok(())
}

/// The workspace under the current owner: the controller and editor, what the last visit left,
/// a link's scenario or run, and every part drawn into its slot.
fn build(slots: Slots) {
    let controller = Controller::new();
    let (saved, problem) = storage::restore();
    let had_own = saved.is_some();
    let scenario = RwSignal::new(saved.unwrap_or_else(|| PRESETS[0].scenario()));
    let storage_notice = RwSignal::new(problem);
    storage::keep_saved(scenario, storage_notice);
    let editor = crate::ui::form::EditorState::new(scenario);
    provide_context(controller);
    provide_context(editor);
    provide_context(controller.keys);
    let run_button = RunButton(NodeRef::new());
    provide_context(run_button);
    // The demo model is the first thing a visitor runs: fetched now, while they read the page.
    leptos::task::spawn_local(async move {
        let loaded = demo::load().await;
        controller.demo_ready.set(loaded.is_ok());
        if loaded.is_ok() {
            // After the stage has drawn (a task of its own), not before it.
            let scenario = scenario.get_untracked();
            set_timeout(move || demo::warm(&scenario), std::time::Duration::ZERO);
        }
        // The service worker waits for this (boot/offline.js), so it copies the module from
        // the browser's cache instead of downloading it a second time.
        if let Some(w) = web_sys::window() {
            let _ = js_sys::Reflect::set(&w, &"agoraDemo".into(), &true.into());
            let _ = web_sys::Event::new("agora-demo").map(|e| w.dispatch_event(&e));
        }
    });
    let (run, problem) = storage::restore_run();
    let restored = run.is_some();
    if let Some(run) = run {
        controller.restore(run);
    }
    if let Some(problem) = problem {
        controller.notice.set(problem);
    }
    controller.restore_batch();
    // A comparison that was open comes back in its frame, each column where it had reached.
    if storage::comparison_shown() {
        controller.compare.open_fragment("open");
    }
    // Whatever a running run recorded since it was last saved, kept when the page goes away.
    let leaving = window_event_listener(leptos::ev::pagehide, move |_| controller.save_before_leaving());
    on_cleanup(move || leaving.remove());
    let link_notice = RwSignal::new(None);
    let layout = expect_context::<stage::Layout>();
    super::keys::listen(controller, editor, layout);
    share::open_links(link_notice, had_own);
    // What opens the stage: a run or a replay (restored, or from a link pasted, a past run, a
    // file), a scenario's link (a bad one leaves the gallery showing, with its message), and in
    // their tabs a comparison, a batch (opened or brought back after a reload) and a leaderboard.
    let board = RwSignal::new(None::<crate::tournament::Board>);
    let opened = move || {
        [
            controller.replaying.get() || controller.mode.get() != Mode::Idle,
            link_notice.with(|n: &Option<share::LinkNotice>| n.as_ref().is_some_and(|n| !n.error)),
            controller.compare.frame.with(Option::is_some),
            controller.batch.open.get(),
            board.with(Option::is_some),
        ]
    };
    // From the first paint (the effect below opens their tabs).
    if restored || untrack(opened).contains(&true) {
        layout.show_stage();
    }
    // Later, each when it begins.
    Effect::new(move |before: Option<[bool; 5]>| {
        let now = opened();
        let before = before.unwrap_or_default();
        let began = |i: usize| now[i] && !before[i];
        if (0..5).any(began) {
            layout.show_stage();
        }
        for (i, tab) in [(2, Tab::Compare), (3, Tab::Batch), (4, Tab::Files)] {
            if began(i) {
                layout.tab.set(Some(tab));
            }
        }
        now
    });
    // A card clicked on the start screen, before this arrived or since: the card of a run still
    // going on (paused, or waiting for the class) goes back to it; Reset starts it afresh.
    Effect::new(move || {
        let Some(preset) = slots.open.get().and_then(crate::presets::find) else { return };
        slots.open.set(None);
        let scenario = preset.scenario();
        let on_screen = editor.scenario.with_untracked(|s| s.title == scenario.title);
        if !(controller.live() && on_screen) {
            controller.reset();
            editor.load(scenario);
        }
        layout.show_stage();
        // The card that had the focus is gone with the start screen: the keyboard goes on from
        // the stage's first control, once it is drawn.
        request_animation_frame(move || {
            if let Some(button) = run_button.0.get_untracked() {
                let _ = button.focus();
            }
        });
    });
    slots.title.set(Some(Signal::derive(move || editor.scenario.with(|s| s.title.clone()))));
    let message = RwSignal::new(String::new());
    let fill = |slot: super::Slot, view: AnyView| slot.set(Some(view));
    let desk = controller.desk;
    fill(
        slots.notices,
        view! {
            // The first stop of the keyboard while a seat is asked: straight to the question.
            {move || desk.question.with(Option::is_some).then(|| view! {
                <a class="skip" href="#" data-testid="skip-to-question" on:click=move |ev| {
                    ev.prevent_default();
                    desk.focus_asked.update(|n| *n += 1);
                }>{t(say::SkipToQuestion)}</a>
            })}
            {move || {
                storage_notice
                    .get()
                    .map(|n| {
                        view! {
                            <p class="notice error storage" data-testid="storage-notice" role="status">
                                {n}
                            </p>
                        }
                    })
            }}
            <share::LinkMessage notice=link_notice />
        }
        .into_any(),
    );
    // The language switch comes with the workspace (its code is no part of the first page).
    fill(
        slots.badge,
        view! { <div class="top-tools"><ModelBadge /><super::lang::LanguageSwitch /></div> }.into_any(),
    );
    fill(
        slots.head,
        view! {
            <button data-testid="to-stage" class="primary" on:click=move |_| layout.show_stage()>
                {move || editor.scenario.with(|s| tf(say::OpenScenario, &[("title", &crate::presets::title_words(&s.title))]))}
            </button>
            <OpenRun message=message board=board testid="open-file" />
        }
        .into_any(),
    );
    fill(
        slots.message,
        view! {
            {move || (!message.get().is_empty()).then(|| view! {
                <p class="notice error" data-testid="open-message" role="alert">{move || message.get()}</p>
            })}
        }
        .into_any(),
    );
    fill(slots.past, view! { <share::PastRuns /> }.into_any());
    // Both screens stay on the page, the one not shown hidden (by the start screen's `hidden` and
    // the stylesheet): going to the gallery and back finds an open room's panel, a comparison's
    // frame, the open tab and the transcript as they were.
    fill(slots.stage, view! { <Stage board=board /> }.into_any());
}

/// Which model the scenario runs on, in words: in full, and (for the stage's bar on a narrower
/// screen, where the scenario's name comes first) as the model's name alone.
#[component]
fn ModelBadge() -> impl IntoView {
    let editor = expect_context::<crate::ui::form::EditorState>();
    let words = Memo::new(move |_| editor.scenario.with(|s| model_words(&s.model)));
    view! {
        <p class="model-badge" data-testid="model-badge" title=move || words.get().0>
            <span class="badge-long">{move || words.get().0}</span>
            <span class="badge-short">{move || words.get().1}</span>
        </p>
    }
}

/// The model badge's words for `model`: in full, and short.
fn model_words(model: &crate::scenario::ModelSettings) -> (String, String) {
    if model.is_demo() {
        return (t(say::ModelDemo).into(), t(say::ModelDemoShort).into());
    }
    let provider = crate::provider::preset(&model.provider).map_or(t(say::InThisBrowser), |p| p.label);
    // A model in the page with none chosen yet is named by what it is, never an empty badge.
    if model.name.trim().is_empty() {
        let what = match () {
            _ if model.is_builtin() => t(say::MdBuiltin),
            _ if model.is_in_tab() => t(say::MdInTab),
            _ => provider,
        };
        return (what.to_string(), what.to_string());
    }
    (tf(say::ModelNamed, &[("model", &model.name), ("provider", &provider)]), model.name.clone())
}

/// The run screen: the bar with the scenario's name and the tabs, one row of run controls, the
/// stage (the conversation and the method's decisions) and the drawer beside it.
#[component]
fn Stage(board: RwSignal<Option<crate::tournament::Board>>) -> impl IntoView {
    let controller = expect_context::<Controller>();
    let editor = expect_context::<crate::ui::form::EditorState>();
    let layout = expect_context::<stage::Layout>();
    let message = RwSignal::new(String::new());
    let panes = Panes::new(board);
    judge::score_live(controller);
    let title = move || {
        let from_run = controller.view.with(|v| v.scenario.as_ref().map(|s| s.title.clone()));
        let title = from_run.unwrap_or_else(|| editor.scenario.with(|s| s.title.clone()));
        crate::presets::title_words(&title).to_string()
    };
    view! {
        <header class="topbar" data-tab=move || stage::tab_id(layout.tab.get())>
            <button class="back" data-testid="to-gallery" title=t(say::BackToScenariosTitle) on:click=move |_| layout.stage.set(false)>
                {t(say::BackToScenarios)}
            </button>
            <h1 class="title" data-testid="stage-title">{title}</h1>
            <ModelBadge />
            <stage::TabBar />
        </header>
        <main class="layout" class:projector=move || controller.projector.get() class:drawer-open=move || layout.tab.get().is_some() data-tab=move || stage::tab_id(layout.tab.get())>
            <section class="run" aria-label=t(say::RunRegion)>
                <Controls message=message />
                <div class="stage">
                    <div class="talk">
                        <transcript::Transcript />
                        <div class="class-row">
                            {move || {
                                let live = matches!(controller.mode.get(), Mode::Running | Mode::Paused) && !controller.replaying.get();
                                live.then(|| view! { <Interject message=message /> })
                            }}
                        </div>
                    </div>
                    <aside class="decisions" aria-label=t(say::Decisions) tabindex="0">
                        <Notices message=message />
                        <seat::SeatBox />
                        <MethodPanel />
                    </aside>
                </div>
            </section>
            <stage::Drawer>
                {Tab::ALL.map(|tab| stage::pane(tab, panes.content(tab)))}
            </stage::Drawer>
        </main>
    }
}

/// The drawer's panes' contents, drawn by [`draw_panes`] in the `drawer` chunk: fetched when the
/// stage first shows, while a person looks at it, so the stage itself arrives sooner.
#[derive(Clone, Copy)]
struct Panes {
    slots: [super::Slot; Tab::ALL.len()],
    state: RwSignal<PanesState>,
}

/// How long after the stage first shows the drawer's chunk is fetched, unless a tab asks first.
const PANES_AFTER: std::time::Duration = std::time::Duration::from_millis(1500);

/// Where the drawer's chunk is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum PanesState {
    NotAsked,
    Fetching,
    Drawn,
    Failed,
}

/// What a pane says while its content is on its way, or when it did not come.
fn panes_note(state: PanesState) -> Option<&'static str> {
    match state {
        PanesState::NotAsked | PanesState::Fetching => Some(t(say::PanelLoading)),
        PanesState::Drawn => None,
        PanesState::Failed => Some(t(say::PanelFailed)),
    }
}

impl Panes {
    fn new(board: RwSignal<Option<crate::tournament::Board>>) -> Self {
        let panes = Panes {
            slots: std::array::from_fn(|_| RwSignal::new_local(None)),
            state: RwSignal::new(PanesState::NotAsked),
        };
        let layout = expect_context::<stage::Layout>();
        let owner = Owner::current();
        // Asked when a tab opens (again after a failed fetch), or a moment after the stage first
        // shows: not at once, where the drawing would hold up the run a person starts.
        Effect::new(move |_| {
            let tab = layout.tab.with(Option::is_some);
            let state = panes.state.get_untracked();
            if tab && matches!(state, PanesState::NotAsked | PanesState::Failed) {
                if let Some(owner) = owner.clone() {
                    panes.fetch(owner, board);
                }
            } else if layout.stage.get() && state == PanesState::NotAsked {
                let owner = owner.clone();
                set_timeout(
                    move || {
                        if let Some(owner) =
                            owner.filter(|_| panes.state.try_get_untracked() == Some(PanesState::NotAsked))
                        {
                            panes.fetch(owner, board);
                        }
                    },
                    PANES_AFTER,
                );
            }
        });
        panes
    }

    fn fetch(self, owner: Owner, board: RwSignal<Option<crate::tournament::Board>>) {
        self.state.set(PanesState::Fetching);
        leptos::task::spawn_local(async move {
            match draw_panes(owner, board).await {
                Ok(views) => {
                    for (slot, view) in self.slots.iter().zip(views) {
                        let _ = slot.try_set(Some(view));
                    }
                    let _ = self.state.try_set(PanesState::Drawn);
                }
                Err(_) => drop(self.state.try_set(PanesState::Failed)),
            }
        });
    }

    /// `tab`'s pane: its content once drawn, what it waits for until then.
    fn content(self, tab: Tab) -> impl IntoView {
        let at = Tab::ALL.iter().position(|t| *t == tab).unwrap_or_default();
        let state = self.state;
        view! {
            {move || panes_note(state.get()).map(|note| view! {
                <p class="notice pane-note" role="status" aria-busy=(state.get() != PanesState::Failed).then_some("true")>{note}</p>
            })}
            {super::place(self.slots[at])}
        }
    }
}

/// Every tab's content, in [`Tab::ALL`]'s order, under `owner`: the `drawer` chunk.
#[leptos::wasm_split::wasm_split(drawer, wasm_split_path = ::leptos::wasm_split, fallible)]
fn draw_panes(
    owner: Owner,
    board: RwSignal<Option<crate::tournament::Board>>,
) -> Result<Vec<AnyView>, super::Unfetched> {
    Ok(owner.with(|| {
        Tab::ALL
            .iter()
            .map(|tab| match tab {
                Tab::Scenario => view! { <Spending /> <editor::Editor /> }.into_any(),
                Tab::Class => view! { <editor::ClassSeats /> <room::Room /> }.into_any(),
                Tab::Files => view! { <ExportButtons board=board /> }.into_any(),
                // Full width: its seven columns do not fit beside the transcript.
                Tab::Stats => view! { <inspector::Stats /> }.into_any(),
                Tab::Judge => view! { <judge::VerdictPanel /> }.into_any(),
                Tab::Batch => view! { <batch::BatchPanel /> }.into_any(),
                Tab::Compare => view! { <compare::ComparePanel /> }.into_any(),
                Tab::Inspector => view! { <inspector::Inspector /> }.into_any(),
            })
            .collect()
    }))
}

/// The panel for the method of the run on screen (or, before a run, of the scenario).
#[component]
pub(crate) fn MethodPanel() -> impl IntoView {
    let controller = expect_context::<Controller>();
    let editor = expect_context::<crate::ui::form::EditorState>();
    let kind = Memo::new(move |_| {
        let from_run = controller.view.with(|v| v.scenario.as_ref().map(|s| s.method.kind()));
        from_run.unwrap_or_else(|| editor.scenario.with(|s| s.method.kind()))
    });
    move || methods::panel(kind.get(), controller.view)
}

/// The stage's Run button, which takes the focus when a card of the start screen opens the stage.
#[derive(Clone, Copy)]
struct RunButton(NodeRef<leptos::html::Button>);

/// Run, Pause, Step, Stop, Reset, the speed, the projector and sharing: one row.
#[component]
fn Controls(message: RwSignal<String>) -> impl IntoView {
    let controller = expect_context::<Controller>();
    let run_button = expect_context::<RunButton>();
    let editor = expect_context::<crate::ui::form::EditorState>();
    let layout = expect_context::<stage::Layout>();
    let act = move |result: Result<(), String>| match result {
        Ok(()) => message.set(String::new()),
        Err(e) => message.set(e),
    };
    // What the controls show is decided in one place (`crate::controls`, tested natively).
    let shown = Memo::new(move |_| crate::controls::controls(&run_state(controller, editor)));
    // The buttons that come and go are drawn again only when they do (a button redrawn under the
    // pointer would lose the click).
    let undo = Memo::new(move |_| shown.with(|c| c.undo_answer));
    // Whether the last Reset can be undone: the session keeps what it cleared until another run
    // starts or loads, and is asked again whenever the run on screen changes.
    let undoable = move || {
        controller.mode.get();
        controller.view.with(|_| ());
        controller.can_undo_reset()
    };
    let reset = move |_| {
        controller.reset();
        // The focus leaves Reset for Run: a Space meant to play (the projector's key) must not
        // press Reset again.
        if let Some(run) = run_button.0.get_untracked() {
            let _ = run.focus();
        }
    };
    let undo_reset = move |_| controller.undo_reset();
    let replay = Memo::new(move |_| shown.with(|c| c.step_back.is_some()));
    view! {
        <div class="controls" role="toolbar" aria-label=t(say::RunControls)>
            <button
                data-testid="run"
                node_ref=run_button.0
                class="primary"
                disabled=move || !shown.with(|c| c.run)
                on:click=move |_| {
                    layout.uncover_stage();
                    act(controller.play(&editor.scenario.get_untracked()))
                }
            >
                {move || shown.with(|c| c.run_label)}
            </button>
            <button
                data-testid="pause"
                disabled=move || !shown.with(|c| c.pause)
                on:click=move |_| controller.pause()
            >
                {t(say::Pause)}
            </button>
            <button
                data-testid="step"
                disabled=move || !shown.with(|c| c.step)
                on:click=move |_| {
                    layout.uncover_stage();
                    act(controller.step(&editor.scenario.get_untracked()))
                }
            >
                {t(say::Step)}
            </button>
            <button
                data-testid="stop"
                disabled=move || !shown.with(|c| c.stop)
                on:click=move |_| controller.stop()
            >
                {t(say::Stop)}
            </button>
            <button data-testid="reset" on:click=reset>
                {t(say::Reset)}
            </button>
            {move || undoable().then(|| view! {
                <button data-testid="undo-reset" title=t(say::UndoResetTitle) on:click=undo_reset>
                    {t(say::UndoReset)}
                </button>
            })}
            <projector::ProjectorButton />
            {move || {
                undo.get().then(|| view! {
                    <button
                        data-testid="undo-answer"
                        title=t(say::UndoAnswerTitle)
                        on:click=move |_| act(controller.undo_answer())
                    >
                        {t(say::UndoAnswer)}
                    </button>
                })
            }}
            {move || replay.get().then(|| view! {
                <button
                    data-testid="step-back"
                    title=t(say::StepBackTitle)
                    disabled=move || shown.with(|c| c.step_back != Some(true))
                    on:click=move |_| controller.replay_back()
                >
                    {t(say::StepBack)}
                </button>
                <button
                    data-testid="continue-live"
                    title=t(say::ContinueLiveTitle)
                    disabled=move || shown.with(|c| c.continue_live != Some(true))
                    on:click=move |_| controller.continue_here()
                >
                    {t(say::ContinueLive)}
                </button>
            })}
            <label class="speed">
                {t(say::Speed)} " "
                <select
                    data-testid="speed"
                    on:change=move |ev| {
                        let value = event_target_value(&ev);
                        let speed = if value == "read" { Ok(driver::READ_ALOUD) } else { value.parse::<u64>() };
                        if let Ok(speed) = speed {
                            controller.set_speed(speed);
                        }
                    }
                >
                    {driver::SPEEDS
                        .iter()
                        .map(|(label, speed)| {
                            let value = if *speed == driver::READ_ALOUD { "read".to_string() } else { speed.to_string() };
                            view! {
                                <option value=value selected=move || controller.latency_ms.get() == *speed>
                                    {label()}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </label>
            <button data-testid="share-open" title=t(say::ShareTitle) aria-pressed=move || (layout.tab.get() == Some(Tab::Files)).to_string() on:click=move |_| layout.toggle(Tab::Files)>
                {t(say::Share)}
            </button>
            <span class="status" data-testid="status" role="status" aria-live="polite">
                {move || shown.with(|c| c.status.clone())}
            </span>
            <EngineLine />
        </div>
    }
}

/// The run on screen as the controls and the keys see it.
pub(super) fn run_state(
    controller: Controller,
    editor: crate::ui::form::EditorState,
) -> crate::controls::RunState {
    let (finished, turn, spoken, applied, seated, answered) = controller.view.with(|v| {
        (
            v.finished,
            v.turn,
            v.turn_spoken(),
            v.applied,
            v.scenario.as_ref().is_some_and(|s| !s.seats.is_empty()),
            v.answered,
        )
    });
    crate::controls::RunState {
        mode: controller.mode.get(),
        finished,
        turn,
        spoken,
        ending: finished.and_then(|_| controller.view.with(|v| v.ending())).unwrap_or_default(),
        waiting: controller.desk.question.with(Option::is_some),
        replaying: controller.replaying.get(),
        blocked: editor.has_errors(),
        busy: controller.busy.get(),
        applied,
        seated,
        answered,
    }
}

/// For the model in the tab, beside the status: where the engine runs it and how fast it writes
/// (in the run on screen, else in the warm-up).
#[component]
fn EngineLine() -> impl IntoView {
    let controller = expect_context::<Controller>();
    let editor = expect_context::<crate::ui::form::EditorState>();
    move || {
        let loaded =
            controller.intab.loaded.get().filter(|_| editor.scenario.with(|s| s.model.is_in_tab()))?;
        let run = controller.view.with(|v| v.stats.engine.rates().map(|r| r.1));
        let text = tf(
            say::EngineLine,
            &[
                ("device", &if loaded.gpu { "GPU (WebGPU)" } else { "CPU" }),
                ("rate", &crate::text::fixed(run.unwrap_or(loaded.tokens_per_s), 0)),
                ("warm", &if run.is_some() { "" } else { t(say::EngineWarmup) }),
            ],
        );
        Some(view! { <span class="engine-line" data-testid="engine-line">{text}</span> })
    }
}

/// What the page has to say about the run: why it cannot start, a retry, an error, the cap.
#[component]
fn Notices(message: RwSignal<String>) -> impl IntoView {
    let controller = expect_context::<Controller>();
    let editor = expect_context::<crate::ui::form::EditorState>();
    let blocked = move || editor.has_errors();
    let errors = move || controller.view.with(|v| v.errors.clone());
    view! {
        {move || blocked().then(|| view! {
            <p class="notice error" data-testid="blocked">
                {t(say::FixFields)}
            </p>
        })}
        {move || (!message.get().is_empty()).then(|| view! {
            <p class="notice error" data-testid="controls-message" role="alert">{move || message.get()}</p>
        })}
        {move || (!controller.retry_note.get().is_empty()).then(|| view! {
            <p class="notice" data-testid="retry-note" role="status">
                {move || controller.retry_note.get()}
            </p>
        })}
        {move || (!controller.notice.get().is_empty()).then(|| view! {
            <p class="notice error" data-testid="run-notice" role="status">
                {move || controller.notice.get()}
            </p>
        })}
        <For each=errors key=|e| e.clone() let:error>
            <p class="notice error" data-testid="run-error">{error}</p>
        </For>
        {move || controller.view.with(|v| v.capped.clone()).map(|note| view! {
            <p class="notice" data-testid="cap-note" role="status">{note}</p>
        })}
        <LanguageOffer />
    }
}

/// On a Chinese page, a scenario without a language (its agents speak its prompts' English) is
/// offered Chinese before a run, in one click that sets the scenario's language.
#[component]
fn LanguageOffer() -> impl IntoView {
    let controller = expect_context::<Controller>();
    let editor = expect_context::<crate::ui::form::EditorState>();
    let shown = move || {
        editor.scenario.with(|s| {
            crate::controls::offers_language(crate::i18n::lang(), controller.mode.get(), &s.language)
        })
    };
    // Taken up here, said so until another run starts (or the language is changed again): the
    // run on screen when it was taken up, by its scenario's address (none before a run).
    let on_screen = move || {
        controller.view.with(|v| v.scenario.as_ref().map_or(0, |s| std::sync::Arc::as_ptr(s) as usize))
    };
    let chosen = RwSignal::new(None::<usize>);
    // Whether the preset's own words were put into Chinese too (`crate::presets::put_words`).
    let translated = RwSignal::new(false);
    let confirmed = move || {
        chosen.get() == Some(on_screen())
            && matches!(controller.mode.get(), Mode::Idle | Mode::Finished)
            && editor.scenario.with(|s| s.language == crate::controls::OFFERED_LANGUAGE)
    };
    move || {
        if confirmed() {
            return Some(
                view! {
                    <p class="notice language-offer" data-testid="language-chosen" role="status">
                        {if translated.get() { t(say::LangOfferDoneWords) } else { t(say::LangOfferDone) }}
                    </p>
                }
                .into_any(),
            );
        }
        shown().then(|| {
            view! {
                <p class="notice language-offer" data-testid="language-offer">
                    {t(say::LangOfferText)}
                    " "
                    <button
                        data-testid="speak-chinese"
                        title=t(say::LangOfferTitle)
                        on:click=move |_| {
                            editor.scenario.update(|s| {
                                s.language = crate::controls::OFFERED_LANGUAGE.to_string();
                                // A preset as shipped (its own title, topic and cast) speaks about a
                                // Chinese topic, titled as its card is in Chinese, with its cast
                                // introduced in Chinese; anything the person wrote stays.
                                let card = crate::presets::CARDS.iter().find(|c| c.title == s.title);
                                let put = card.is_some_and(|c| {
                                    match (crate::presets::find(c.id), crate::i18n::preset_words(c.id)) {
                                        (Some(p), Some(words)) if crate::presets::put_words(s, p, &words) => {
                                            s.title = crate::i18n::card(c.id, c.title, c.summary).0.to_string();
                                            true
                                        }
                                        _ => false,
                                    }
                                });
                                translated.set(put);
                            });
                            chosen.set(Some(on_screen()));
                        }
                    >
                        {t(say::LangOfferButton)}
                    </button>
                </p>
            }
            .into_any()
        })
    }
}

/// What a run on a real provider will take, before it starts, and the spending cap.
#[component]
fn Spending() -> impl IntoView {
    let controller = expect_context::<Controller>();
    let editor = expect_context::<crate::ui::form::EditorState>();
    // What a run on a real provider will cost, before it starts (a demo run of the scenario).
    let estimate = Memo::new(move |_| {
        let loaded = controller.intab.loaded.get();
        // The engine's own speeds over the run on screen, when it ran in the tab (a run's long
        // prompts read and write slower than the short warm-up); read again when the run stops
        // or starts, not at every event.
        controller.mode.get();
        let measured = controller.view.with_untracked(|v| {
            let model = &v.scenario.as_ref()?.model;
            let (r, w, _) = v.stats.engine.rates().filter(|_| model.is_in_tab())?;
            Some((model.name.clone(), r, w))
        });
        editor.scenario.with(|s| {
            let e = (!s.model.is_demo() && s.validate().is_ok() && controller.demo_ready.get())
                .then(|| demo::estimate(s))
                .flatten()?;
            // In the tab, how long too: at the speeds of the last run on this model, else of the
            // warm-up measured when the model loaded.
            let speeds = match (measured, loaded) {
                (Some((name, r, w)), Some(_)) if name == s.model.name => {
                    Some((r, w, t(say::EstimateFromLastRun)))
                }
                (_, Some(l)) => Some((l.prompt_per_s, l.tokens_per_s, t(say::EstimateFromWarmUp))),
                _ => None,
            };
            let time = speeds
                .filter(|_| s.model.is_in_tab())
                .and_then(|(r, w, from)| Some((e.duration(r, w)?.1, from)))
                .map(|(per_turn, from)| {
                    tf(say::EstimateTime, &[("s", &crate::text::fixed(per_turn, 0)), ("from", &from)])
                });
            let turns = if e.turns == 1 {
                t(say::EstimateOneTurn).to_string()
            } else {
                tf(say::EstimateTurns, &[("n", &e.turns)])
            };
            let cost = e
                .cost
                .map(|c| tf(say::EstimateCost, &[("cost", &crate::text::fixed(c, 4))]))
                .unwrap_or_default();
            // On a key whose rate limit a run has met, how fast a run can go at all.
            let pace = controller.per_minute(s).filter(|_| e.calls > 0).map(|n| {
                let turns_a_minute = f64::from(n) * f64::from(e.turns) / f64::from(e.calls);
                let provider = crate::catalog::preset(&s.model.provider).map_or("", |p| p.label);
                tf(
                    say::EstimatePace,
                    &[
                        ("provider", &provider),
                        ("n", &n),
                        ("turns", &crate::text::fixed(turns_a_minute, u32::from(turns_a_minute < 10.0))),
                        ("minutes", &e.calls.div_ceil(n)),
                    ],
                )
            });
            let line = tf(
                say::EstimateLine,
                &[
                    ("calls", &e.calls),
                    ("tokens", &e.tokens_said()),
                    ("cost", &cost),
                    ("turns", &turns),
                    ("time", &time.unwrap_or_default()),
                ],
            );
            // Chinese sentences follow one another without a space.
            let gap = if crate::i18n::lang() == crate::i18n::Lang::ZhHans { "" } else { " " };
            Some(match pace {
                Some(pace) => format!("{line}{gap}{pace}"),
                None => line,
            })
        })
    });
    view! {
        {move || estimate.get().map(|e| view! {
            <p class="muted" data-testid="estimate">{e}</p>
        })}
        <models::SpendingCapFields />
    }
}

/// Opens a saved run file to replay it without a model.
#[component]
fn OpenRun(
    message: RwSignal<String>,
    board: RwSignal<Option<crate::tournament::Board>>,
    testid: &'static str,
) -> impl IntoView {
    let controller = expect_context::<Controller>();
    let editor = expect_context::<crate::ui::form::EditorState>();
    let layout = expect_context::<stage::Layout>();
    let on_change = move |ev: leptos::ev::Event| {
        use wasm_bindgen::JsCast;
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else {
            return;
        };
        let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
        input.set_value("");
        let name = file.name();
        leptos::task::spawn_local(async move {
            let text =
                wasm_bindgen_futures::JsFuture::from(file.text()).await.ok().and_then(|v| v.as_string());
            let Some(text) = text else {
                message.set(tf(say::FileCouldNotOpen, &[("name", &name), ("why", &t(say::FileNotText))]));
                return;
            };
            // A comparison saved from the page opens as its columns.
            if text.contains("\"agora-comparison\"") {
                controller.compare.open_file(&text);
                return;
            }
            // A tournament's CSV or JSON leaderboard opens as its leaderboard (read in the tools chunk).
            if text.starts_with("tournament,") || text.contains("\"standings\"") {
                message.set(String::new());
                return match tools::answer(tools::leaderboard(text)).await {
                    Ok(read) => board.set(Some(read)),
                    Err(e) => message.set(tf(say::FileCouldNotOpen, &[("name", &name), ("why", &e)])),
                };
            }
            // An AutoGen team component opens as a scenario (mapped in the tools chunk), with
            // what did not map said.
            if text.contains("\"autogen_agentchat.teams.") {
                return match tools::answer(tools::autogen_import(text)).await {
                    Ok((note, scenario)) => {
                        controller.reset();
                        editor.load(scenario);
                        layout.show_stage();
                        layout.tab.set(None);
                        // Said on the stage, where the scenario opens.
                        controller.notice.set(note);
                        message.set(String::new());
                    }
                    Err(e) => message.set(tf(say::FileCouldNotOpen, &[("name", &name), ("why", &e)])),
                };
            }
            let opened = crate::export::from_json(&text);
            match opened {
                Ok(run) => {
                    editor.load(run.scenario);
                    controller.load_replay(run.events);
                    message.set(String::new());
                }
                Err(e) => message.set(tf(say::FileCouldNotOpen, &[("name", &name), ("why", &e)])),
            }
        });
    };
    view! {
        <label class="file-button">
            {t(say::OpenSavedRun)}
            <input type="file" accept=".json,.csv,application/json,text/csv" data-testid=testid title=t(say::OpenSavedRunTitle) on:change=on_change />
        </label>
    }
}

/// What writes a file the page saves.
#[derive(Clone, Copy)]
enum Save {
    /// The run file itself, as the page holds it.
    Run,
    /// The tools' writers.
    Markdown,
    Notebook,
    Trace,
    AutogenTeam,
}

/// The files the page saves: test id, button, what writes it, the file's ending and type, and
/// whether it needs a run (the others take the scenario in the editor when nothing has run).
type Label = fn() -> &'static str;
const SAVES: [(&str, Label, Save, &str, &str, bool); 5] = [
    ("export-json", || t(say::SaveRun), Save::Run, ".json", "application/json", true),
    ("export-markdown", || t(say::SaveMarkdown), Save::Markdown, ".md", "text/markdown", true),
    ("export-notebook", || t(say::SaveNotebook), Save::Notebook, ".ipynb", "application/x-ipynb+json", false),
    ("export-trace", || t(say::SaveTrace), Save::Trace, ".otlp.json", "application/json", true),
    ("export-autogen", || t(say::SaveAutogen), Save::AutogenTeam, ".team.json", "application/json", false),
];

/// Saves the run on screen (or the scenario in the editor) in each of the [`SAVES`] forms; all
/// but the run file are written by the tools module, fetched the first time.
#[component]
fn ExportButtons(board: RwSignal<Option<crate::tournament::Board>>) -> impl IntoView {
    // Said beside the buttons, in the drawer (on a phone the drawer hides the run's column).
    let message = RwSignal::new(String::new());
    let controller = expect_context::<Controller>();
    let editor = expect_context::<crate::ui::form::EditorState>();
    let has_run = move || controller.view.with(|v| v.scenario.is_some());
    let save = move |(_, _, tool, ending, mime, _): (&str, Label, Save, &'static str, &'static str, bool)| {
        message.set(String::new());
        let (title, json) = match controller.view.with_untracked(|v| v.scenario.clone()) {
            Some(s) => (s.title.clone(), controller.with_events(|events| crate::export::to_json(&s, events))),
            None => editor
                .scenario
                .with_untracked(|s| (s.title.clone(), serde_json::to_string(s).unwrap_or_default())),
        };
        let slug: String = title
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' })
            .collect::<String>()
            .split('-')
            .filter(|w| !w.is_empty())
            .take(6)
            .collect::<Vec<_>>()
            .join("-");
        let name = format!("{slug}{ending}");
        let file_name = name.clone();
        let then = move |written: Result<tools::Saved, String>| {
            let saved = written.and_then(|saved| {
                message.set(saved.note);
                browser::download(&file_name, mime, &saved.file)
            });
            if let Err(e) = saved {
                message.set(e);
            }
        };
        match tool {
            Save::Run => {
                if let Err(e) = browser::download(&name, mime, &json) {
                    message.set(e);
                }
            }
            Save::Markdown => tools::spawn(tools::markdown(json), then),
            Save::Notebook => tools::spawn(tools::notebook(json), then),
            Save::Trace => tools::spawn(tools::trace(json), then),
            Save::AutogenTeam => tools::spawn(tools::autogen_team(json), then),
        }
    };
    view! {
        <div class="exports">
            <OpenRun message=message board=board testid="import" />
            <share::ShareLinks />
            {SAVES
                .into_iter()
                .map(|s| {
                    view! {
                        <button data-testid=s.0 disabled=move || s.5 && !has_run() on:click=move |_| save(s)>
                            {(s.1)()}
                        </button>
                    }
                })
                .collect_view()}
        </div>
        {move || (!message.get().is_empty()).then(|| view! {
            <p class="notice" data-testid="files-message" role="status">{move || message.get()}</p>
        })}
        {move || board.with(|b| b.as_ref().map(|b| super::leaderboard::panel(b, move || board.set(None))))}
    }
}

/// Interject: a message from outside the cast (seed 004's "Audience member", or the moderator)
/// that every agent hears from the next call, recorded as injected.
#[component]
fn Interject(message: RwSignal<String>) -> impl IntoView {
    let controller = expect_context::<Controller>();
    let speaker = RwSignal::new("Audience member".to_string());
    let text = RwSignal::new(String::new());
    let send = move || match controller.interject(&speaker.get_untracked(), &text.get_untracked()) {
        Ok(()) => {
            text.set(String::new());
            message.set(String::new());
        }
        Err(e) => message.set(e),
    };
    view! {
        <div class="row interject" role="group" aria-label=t(say::Interject)>
            <label class="field">
                <span>{t(say::InterjectAs)}</span>
                // The name recorded (and read by the models) stays the scenario's English one.
                <select data-testid="interject-as" on:change=move |ev| speaker.set(event_target_value(&ev))>
                    <option value="Audience member">{t(say::AudienceMember)}</option>
                    <option value="Moderator">{t(say::Moderator)}</option>
                </select>
            </label>
            <label class="field grow">
                <span>{t(say::InterjectMessage)}</span>
                <input
                    data-testid="interject-text"
                    placeholder=t(say::InterjectPlaceholder)
                    prop:value=move || text.get()
                    on:input=move |ev| text.set(event_target_value(&ev))
                    on:keydown=move |ev| {
                        if ev.key() == "Enter" && !super::keys::composing(&ev) {
                            send()
                        }
                    }
                />
            </label>
            <button data-testid="interject" on:click=move |_| send()>{t(say::Interject)}</button>
            <span class="muted" data-testid="interject-later" role="status">
                {move || crate::controls::heard_later(controller.waiting.with(Vec::len))}
            </span>
        </div>
        <GiveFloor message=message />
    }
}

/// Give the floor: the class makes an agent the next speaker once (a click on their name); the
/// method still chooses, and both are recorded. The trading game says why it cannot.
#[component]
fn GiveFloor(message: RwSignal<String>) -> impl IntoView {
    let controller = expect_context::<Controller>();
    // Drawn again when a run starts, not at every event it records (a button redrawn under the
    // pointer would lose the click).
    let scenario = Memo::new(move |_| {
        controller.view.with(|v| v.scenario.as_ref().map(|s| (s.method.kind(), s.agent_names())))
    });
    move || {
        let (kind, names) = scenario.get()?;
        let fixed = kind.fixed_floor().map(|why| why());
        let names = if fixed.is_some() { Vec::new() } else { names };
        Some(view! {
            <div class="row interject" role="group" aria-label=t(say::GiveFloor) data-testid="floor">
                <span>{fixed.map_or(t(say::GiveFloorTo).to_string(), |why| tf(say::GiveFloorWhyNot, &[("why", &why)]))}</span>
                {names.into_iter().map(|agent| {
                    let name = agent.clone();
                    view! {
                        <button data-testid="give-floor" on:click=move |_| {
                            message.set(controller.give_floor(&agent).err().unwrap_or_default())
                        }>{name}</button>
                    }
                }).collect_view()}
                {kind.ends_on_request().then(|| view! {
                    <button
                        data-testid="end-show"
                        title=t(say::EndShowTitle)
                        on:click=move |_| message.set(controller.end_show().err().unwrap_or_default())
                    >
                        {t(say::EndShow)}
                    </button>
                })}
                <span class="muted" data-testid="floor-given" role="status">
                    {move || controller.given.get()}
                    {move || controller.ending.get().then(|| t(say::EndsAtNextTurn))}
                </span>
            </div>
        })
    }
}
