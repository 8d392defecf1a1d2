//! The tools: what the page does only for some uses, in one chunk of the page (`tools`) fetched
//! the first time one is used and precached once the page is idle (docs/architecture.md). For a
//! batch it reads the seeds, writes each run's CSV row from its log and draws the report; for a
//! run it writes the Markdown transcript, the notebook, the trace and the AutoGen team, asks the
//! judge and draws the verdict; for the editor it draws a part's prompt templates and the judge's
//! settings; it opens the class's room. The code is the core's, so the page writes the rows
//! `agora batch` writes and the files `agora export` writes.
//!
//! Each tool is a split function of the chunk: the first call fetches it, later calls run at once
//! (a step of the microtask queue, so calls keep the order they were made in). A chunk that cannot
//! be fetched is [`Unfetched`], worded where it is shown, never a panic that would stop the app.

use std::future::Future;

use futures::future::LocalBoxFuture;

use super::Unfetched;

/// What a tool answers: its text, or why it could not, in words.
pub type Answer = Result<String, String>;

/// What an asynchronous tool hands back at once: its answer, later.
pub type Later = LocalBoxFuture<'static, Answer>;

impl From<Unfetched> for String {
    fn from(_: Unfetched) -> String {
        "the page's tools could not be fetched: check the connection, then try again (or reload the page)"
            .into()
    }
}

/// A tool's answer, once its chunk is there.
pub async fn answer<T>(
    call: impl Future<Output = Result<Result<T, String>, Unfetched>>,
) -> Result<T, String> {
    call.await?
}

/// An asynchronous tool's answer, once its chunk is there and it has answered.
pub async fn answer_later(call: impl Future<Output = Result<Later, Unfetched>>) -> Answer {
    call.await?.await
}

/// Runs a tool, then `then` with its answer.
pub fn spawn<T: 'static>(
    call: impl Future<Output = Result<Result<T, String>, Unfetched>> + 'static,
    then: impl FnOnce(Result<T, String>) + 'static,
) {
    leptos::task::spawn_local(async move { then(answer(call).await) });
}

/// Runs an asynchronous tool, then `then` with its answer.
pub fn spawn_later(
    call: impl Future<Output = Result<Later, Unfetched>> + 'static,
    then: impl FnOnce(Answer) + 'static,
) {
    leptos::task::spawn_local(async move { then(answer_later(call).await) });
}

/// Declares tools as split functions of the chunk named first (what Leptos's `#[lazy]` expands
/// to, with `fallible`).
macro_rules! tools {
    ($chunk:ident; $($(#[$doc:meta])* pub fn $name:ident($($arg:ident: $ty:ty),*) -> $out:ty $body:block)*) => {
        $(
            $(#[$doc])*
            #[leptos::wasm_split::wasm_split($chunk, wasm_split_path = ::leptos::wasm_split, fallible)]
            pub fn $name($($arg: $ty),*) -> Result<$out, Unfetched> {
                Ok($body)
            }
        )*
    };
}

/// A file a tool wrote for the page to save, with anything to say about it (empty: nothing).
pub struct Saved {
    pub note: String,
    pub file: String,
}

impl Saved {
    fn file(file: String) -> Saved {
        Saved { note: String::new(), file }
    }
}

/// A run file's scenario and log, or a scenario's own JSON (what the editor holds before a run)
/// with no log.
fn run_of(text: &str) -> Result<(crate::scenario::Scenario, Vec<crate::events::Event>), String> {
    crate::export::from_json(text)
        .map(|f| (f.scenario, f.events))
        .or_else(|e| crate::scenario::Scenario::from_json(text).map(|s| (s, Vec::new())).map_err(|_| e))
}

tools! { tools;
    /// The seeds a `--seeds` text names.
    pub fn seeds(spec: String) -> Result<Vec<u64>, String> {
        crate::batch::report::page::seeds(&spec)
    }

    /// The CSV header of a batch.
    pub fn header(scenario: String, seeds: String, judged: bool) -> Answer {
        crate::batch::report::page::header(&scenario, &seeds, judged)
    }

    /// One run's row (see [`crate::batch::report::page::row`]).
    pub fn row(scenario: String, seeds: String, seed: u64, run: String, error: String, csv: String) -> Result<crate::batch::report::page::Row, String> {
        crate::batch::report::page::row(&scenario, &seeds, seed, &run, &error, &csv)
    }

    /// The report of the batch `csv` holds (see [`crate::batch::Report`]).
    pub fn report(csv: String) -> Result<crate::batch::Report, String> {
        crate::batch::read_csv(&csv).map(|t| crate::batch::Report::of(&t))
    }

    /// The Markdown transcript of a run file (see [`crate::export::to_markdown`]).
    pub fn markdown(run: String) -> Result<Saved, String> {
        crate::export::from_json(&run).map(|f| Saved::file(crate::export::to_markdown(&f.events)))
    }

    /// A run's or a scenario's notebook, which plays it (`crate::notebook`), ending with the
    /// run's transcript when there is one.
    pub fn notebook(run: String) -> Result<Saved, String> {
        run_of(&run).map(|(s, events)| Saved::file(crate::notebook::ipynb(&s, &events)))
    }

    /// A run file as one OpenTelemetry trace in OTLP/JSON, with what was said (the GenAI
    /// conventions' opt-in content: the file already holds it), starting now.
    pub fn trace(run: String) -> Result<Saved, String> {
        crate::export::from_json(&run).and_then(|file| {
            let options = crate::trace::TraceOptions { start_unix_nanos: (js_sys::Date::now() * 1e6) as u64, content: true };
            crate::trace::otlp_json(&[crate::events::run_part(&file.events)], &options).map(Saved::file)
        })
    }

    /// A run's or a scenario's round robin or selector scenario as an AutoGen team component,
    /// with what was renamed (nothing: no note).
    pub fn autogen_team(run: String) -> Result<Saved, String> {
        run_of(&run)
            .and_then(|(s, _)| crate::autogen::export_team(&s))
            .map(|(file, note)| Saved { note, file })
    }

    /// An AutoGen team component as a scenario, with what did not map and which model it runs
    /// on, said in one line.
    pub fn autogen_import(team: String) -> Result<(String, crate::scenario::Scenario), String> {
        crate::autogen::import_team(&team, None).map(|imported| {
            let said = [imported.not_mapped, imported.runs_on].join(" ");
            (said.trim().replace('\n', " "), imported.scenario)
        })
    }

    /// A tournament's leaderboard, from the CSV `agora tournament` writes or the JSON
    /// leaderboard beside it (see [`crate::tournament::Board`]).
    pub fn leaderboard(text: String) -> Result<crate::tournament::Board, String> {
        crate::tournament::Board::read(&text)
    }

    /// The address whose key the judge of `scenario` (JSON) needs; empty when it needs none
    /// (see [`crate::judge::judge_address`]).
    pub fn judge_address(scenario: String) -> Answer {
        crate::scenario::Scenario::from_json(&scenario).map(|s| crate::judge::judge_address(&s))
    }

    /// Judges a run file with the judge its scenario names (`key` for that judge's provider):
    /// the judge's calls and verdict as JSON lines, to append to the run's log (see
    /// [`crate::judge::judge_run`]); the demo judge calls nothing.
    pub fn judge(run: String, key: String) -> Later {
        Box::pin(super::judge::judge_tool(run, key))
    }

    /// Scores each speech of a run file not yet scored (see [`super::judge::score_tool`]).
    pub fn score_speeches(run: String, key: String, origin: String) -> Later {
        Box::pin(super::judge::score_tool(run, key, origin))
    }

    /// Two run files of one comparison judged side by side in both orders (see
    /// [`super::judge::pair_tool`]).
    pub fn judge_pair(a: String, b: String, key: String) -> Later {
        Box::pin(super::judge::pair_tool(a, b, key))
    }

    /// What a finished run's panel shows under "Verdict": the button that asks the judge, who
    /// judges, the scorecard of its newest verdict and the text statistics (see
    /// [`crate::judge::Panel`]); none before the run started.
    pub fn verdict_panel(run: String) -> Result<Option<crate::judge::Panel>, String> {
        crate::export::from_json(&run).map(|file| crate::judge::Panel::of(&file.events))
    }

    /// The editor's list of one part's templates, or the judge's settings, drawn under `owner`
    /// (see [`super::templates::rows`]).
    pub fn template_view(owner: leptos::prelude::Owner, scenario: leptos::prelude::RwSignal<crate::scenario::Scenario>, part: crate::scenario::TemplatePart) -> leptos::prelude::AnyView {
        owner.with(|| super::templates::rows(scenario, part))
    }
}

// The room: the `room` chunk, fetched when a room first opens on the teacher's page or a phone
// opens its join link, and cached then (a room meets over the network, so a first visit does not
// precache it).
tools! { room;
    /// The class's room on the teacher's page, opened at once, drawn under `owner`; `page`
    /// carries out what the room asks of the run (see [`super::room_live::room_view`]).
    pub fn room_view(owner: leptos::prelude::Owner, seats: Vec<String>, lines: String, page: std::rc::Rc<dyn Fn(crate::room::host::ForPage)>) -> leptos::prelude::AnyView {
        owner.with(|| super::room_live::room_view(seats, &lines, page))
    }

    /// The run's events from the `from`th on, for the room's phones.
    pub fn room_events(from: usize, lines: String) -> () {
        super::room_live::events(from, &lines)
    }

    /// The question a seat is asked now, for the phone that holds it (none: closed).
    pub fn room_ask(agent: Option<String>, question: Option<String>) -> () {
        super::room_live::ask(agent, question)
    }

    /// Starts a student's phone screen from the join link (phone.html).
    pub fn phone_start() -> Later {
        Box::pin(super::room_live::phone_start())
    }
}
