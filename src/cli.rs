//! The terminal runner: `agora run <scenario.json> [flags]` plays a scenario natively, prints the
//! dialogue the way the seed notebooks do, and can write the event log as JSON Lines.

use std::rc::Rc;

use crate::clock::{Clock, SystemClock};
use crate::demo::DemoModel;
use crate::engine::{Run, StepOutcome};
use crate::events::{to_json_lines, Event, FinishReason};
use crate::model::ChatModel;
use crate::presets;
use crate::scenario::{FieldError, Scenario};
use crate::scripted::ScriptedModel;
use args::Command;
pub use args::JudgeFlags;

/// What `run` was asked to do.
#[derive(Debug, PartialEq)]
pub struct RunArgs {
    pub scenario: String,
    pub seed: Option<u64>,
    pub model: ModelChoice,
    pub latency_ms: Option<u64>,
    pub malformed_rate: Option<f64>,
    pub turns: Option<u32>,
    pub events: Option<String>,
    pub markdown: Option<String>,
    /// The run as an OpenTelemetry trace (OTLP/JSON), and whether it holds what was said.
    pub otlp: Option<String>,
    pub otlp_content: bool,
    /// An OTLP/HTTP receiver the trace is sent to, and in which encoding.
    pub otlp_endpoint: Option<String>,
    pub otlp_json: bool,
    pub provider: Option<String>,
    pub base_url: Option<String>,
    pub cap_tokens: Option<u64>,
    pub cap_cost: Option<f64>,
    /// Check the connection and print the estimate instead of running.
    pub check: bool,
    /// Names whose calls the person at the terminal answers.
    pub seats: Vec<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ModelChoice {
    Demo,
    Script(String),
    /// A model name at the provider given with --provider (or the scenario's).
    Named(String),
}

/// The scenario a command names: `preset:ID` or a scenario file.
pub(crate) fn read_scenario(name: &str) -> Result<Scenario, String> {
    match name.strip_prefix("preset:") {
        Some(id) => {
            Ok(presets::find(id).ok_or(format!("no preset \"{id}\" (see `agora presets`)"))?.scenario())
        }
        None => {
            let text = std::fs::read_to_string(name).map_err(|e| format!("cannot read {name}: {e}"))?;
            Scenario::from_json(&text).map_err(|e| format!("{name}: {e}"))
        }
    }
}

/// Loads the scenario a `run` names, with the flags applied.
pub fn load_scenario(args: &RunArgs) -> Result<Scenario, String> {
    let mut scenario = read_scenario(&args.scenario)?;
    if let Some(seed) = args.seed {
        scenario.seed = seed;
    }
    if let Some(turns) = args.turns {
        scenario.max_turns = turns;
    }
    if let Some(ms) = args.latency_ms {
        scenario.model.demo.latency_ms = ms;
    }
    if let Some(rate) = args.malformed_rate {
        scenario.model.demo.malformed_rate = rate;
    }
    if let (Some(provider), ModelChoice::Named(name)) = (&args.provider, &args.model) {
        scenario.model.provider = provider.clone();
        scenario.model.name = name.clone();
        scenario.model.base_url = args.base_url.clone().unwrap_or_default();
    }
    if let Some(tokens) = args.cap_tokens {
        scenario.model.spending_cap.tokens = tokens;
    }
    if let Some(cost) = args.cap_cost {
        scenario.model.spending_cap.cost = cost;
    }
    for seat in crate::seat::check_seats(&scenario, &args.seats)? {
        if !scenario.seats.contains(&seat) {
            scenario.seats.push(seat);
        }
    }
    scenario
        .validate()
        .map_err(|errors| errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))?;
    Ok(scenario)
}

/// The text the seed notebooks print for an event, if any; a message said by a person in one of
/// `seats` is marked "you".
pub fn render_event(event: &Event, seats: &[String]) -> Option<String> {
    Some(match event {
        Event::RunStarted { scenario, seed } => {
            format!("== {} ({} method, seed {seed})\n", scenario.title, scenario.method.name())
        }
        Event::TopicSpecified { original, specified } => {
            format!("Original topic:\n{original}\n\nDetailed topic:\n{specified}\n")
        }
        Event::CharacterDescribed { agent, description } => format!("{agent} Description:\n{description}\n"),
        Event::Message { speaker, text, kind, refusal, .. } => {
            let you = if crate::seat::said_by_person(seats, speaker, *kind) { ", you" } else { "" };
            match kind.note(refusal) {
                Some(note) if text.is_empty() => format!("({speaker}{you}): [{note}]\n"),
                Some(note) => format!("({speaker}{you}): {text} [{note}]\n"),
                None => format!("({speaker}{you}): {text}\n"),
            }
        }
        Event::GameStarted { iteration, prompts, .. } => {
            let lines: Vec<String> = prompts.iter().map(|(p, s)| format!("{p} {s}")).collect();
            format!("ITERATION {iteration}\n{}", lines.join("\n"))
        }
        Event::Inventory { inventories, resources, .. } => {
            let lines: Vec<String> = inventories
                .iter()
                .map(|(p, inv)| {
                    format!("\t{p}: {}", crate::methods::negotiation::describe_inventory(resources, inv))
                })
                .collect();
            lines.join("\n")
        }
        Event::GameEnd { feedback, optimum, .. } => format!("{feedback}\n(optimum: {optimum})\n"),
        Event::Error { message, .. } => format!("error: {message}"),
        Event::RunFinished { reason } => format!("== finished: {reason}"),
        Event::Verdict { .. } => format!("== {}", crate::judge::verdict_lines(event).join("\n   ")),
        Event::SpeechScored { .. } => format!("== scored as it landed: {}", crate::judge::live::line(event)?),
        // Every decision in the words the Markdown transcript uses too (`crate::decisions`).
        event => {
            let line = crate::decisions::decision(event)?;
            match event {
                // After bids, the runner prints it once the turn's bids are shown.
                Event::SpeakerSelected { tie: false, .. } => return None,
                Event::SpeakerSelected { .. } | Event::Handoff { .. } | Event::OptimizerIteration { .. } => {
                    format!("{line}\n")
                }
                Event::FloorGiven { .. } | Event::SpendingCapSet { .. } => format!("== {line}"),
                Event::SpendingCapReached { .. } => format!("== {line} (--cap-tokens N, --cap-cost X)"),
                Event::ModelCall { .. } => format!("\t[{line}]"),
                _ => format!("\t{line}"),
            }
        }
    })
}

/// What the terminal prints of a run as its events are recorded: each event's text
/// ([`render_event`]), a turn's bids introduced once, and the selection after them.
pub struct Printer {
    seats: Vec<String>,
    bids_open: bool,
}

impl Printer {
    /// A printer for a run with people in `seats`.
    pub fn new(seats: Vec<String>) -> Self {
        Self { seats, bids_open: false }
    }

    /// The lines to print for `e`, in order.
    pub fn lines(&mut self, e: &Event) -> Vec<String> {
        let mut out = Vec::new();
        if matches!(e, Event::Bid { .. }) && !self.bids_open {
            out.push("Bids:".to_string());
            self.bids_open = true;
        }
        out.extend(render_event(e, &self.seats));
        if let Event::SpeakerSelected { tie: false, .. } = e {
            out.extend(crate::decisions::decision(e).filter(|_| self.bids_open).map(|l| format!("{l}\n")));
        }
        // Each turn's bids are introduced once.
        if matches!(e, Event::Message { .. } | Event::Error { .. }) {
            self.bids_open = false;
        }
        out
    }
}

/// A recorded run as the terminal prints it while it runs.
pub fn render_log(events: &[Event]) -> String {
    let seats = match events.first() {
        Some(Event::RunStarted { scenario, .. }) => scenario.seats.clone(),
        _ => Vec::new(),
    };
    let mut printer = Printer::new(seats);
    events.iter().flat_map(|e| printer.lines(e)).map(|l| l + "\n").collect()
}

/// Runs the command line; returns the process exit code.
pub fn main(args: Vec<String>) -> i32 {
    let cli = match args::parse(&args) {
        Ok(cli) => cli,
        Err((text, true)) => {
            say(text.trim_end());
            return 0;
        }
        Err((text, false)) => {
            eprintln!("{}", text.trim_end());
            return 2;
        }
    };
    let done = match cli.command {
        Command::Run(cmd) => cmd.into_run_args().and_then(run),
        Command::Batch(cmd) => batch::main(cmd),
        Command::Judge(cmd) => judge::main(cmd),
        Command::JudgeCheck { runs_dir, labels } => judge::check_main(&runs_dir, &labels),
        Command::Tournament(cmd) => tournament::main(cmd),
        Command::Relay { host, port } => relay::main(&host, port),
        Command::Compare { file } => compare_figures(&file).map(|csv| {
            say(csv.trim_end());
            0
        }),
        Command::Import { file, task, out } => autogen::import_main(&file, task.as_deref(), out.as_deref()),
        Command::Export(cmd) => autogen::export_main(cmd),
        Command::Presets => {
            for p in presets::PRESETS {
                say(format_args!("preset:{:<22} {}", p.id, p.scenario().title));
            }
            Ok(0)
        }
        Command::Completions { shell } => {
            use clap::CommandFactory;
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut args::Cli::command(), "agora", &mut out);
            say(String::from_utf8_lossy(&out).trim_end());
            Ok(0)
        }
    };
    done.unwrap_or_else(|e| {
        eprintln!("agora: {e}");
        2
    })
}

/// `agora compare <file>`: the figures of a comparison saved from the page, one CSV row per
/// column, read from each column's log (what the page's strip shows).
fn compare_figures(path: &str) -> Result<String, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    crate::compare::from_json(&text).and_then(|f| f.to_csv()).map_err(|e| format!("{path}: {e}"))
}

/// Prints a line of the dialogue. When the reader has gone (`agora run ... | head`), the runner
/// ends quietly instead of panicking on the closed pipe.
fn say(text: impl std::fmt::Display) {
    use std::io::Write;
    if let Err(e) = writeln!(std::io::stdout().lock(), "{text}") {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
    }
}

/// `run --check`: the estimate, and for a provider the connection check (its models, and
/// whether the scenario's are among them). Status 1 when the check finds a problem.
fn check(args: &RunArgs, scenario: &Scenario, clock: Rc<dyn Clock>) -> Result<i32, String> {
    if let Some(estimate) = crate::estimate::Estimate::of(scenario) {
        say(format_args!("Estimate: {}.", estimate.describe()));
    }
    if !matches!(args.model, ModelChoice::Named(_)) {
        return Ok(0);
    }
    let model = provider_model(scenario, clock)?;
    match futures::executor::block_on(model.list_models()) {
        Ok(names) => {
            let (report, all_found) = crate::provider::connection_report(scenario, &names);
            say(&report);
            for name in &names {
                say(format_args!("  {name}"));
            }
            Ok(if all_found { 0 } else { 1 })
        }
        Err(e) => {
            eprintln!("agora: {e}");
            Ok(1)
        }
    }
}

/// The scenario's provider, with the key from AGORA_API_KEY; retries are reported on stderr.
fn http_model(scenario: &Scenario, clock: Rc<dyn Clock>) -> Result<Rc<dyn ChatModel>, String> {
    Ok(Rc::new(provider_model(scenario, clock)?))
}

fn provider_model(scenario: &Scenario, clock: Rc<dyn Clock>) -> Result<crate::provider::HttpModel, String> {
    let key = std::env::var("AGORA_API_KEY").ok().filter(|k| !k.trim().is_empty());
    provider_model_with_key(scenario, key, clock)
}

/// The scenario's provider with `key`; retries are reported on stderr.
fn provider_model_with_key(
    scenario: &Scenario,
    key: Option<String>,
    clock: Rc<dyn Clock>,
) -> Result<crate::provider::HttpModel, String> {
    if scenario.model.is_in_tab() || scenario.model.is_builtin() {
        let (what, id) = if scenario.model.is_in_tab() {
            ("runs inside a browser tab", crate::intab::PROVIDER)
        } else {
            ("is the one built into the browser", crate::catalog::BUILTIN)
        };
        return Err(format!(
            "this scenario's model {what} (provider \"{id}\"): open it in the app, or pass --model demo or \
             --provider with a real provider"
        ));
    }
    let endpoint = crate::provider::Endpoint::of(scenario, key);
    let mut network = scenario.model.network.clone();
    network.stream = false; // the terminal prints whole messages
    let transport = Rc::new(crate::provider::native::NativeTransport::default());
    let model = crate::provider::HttpModel::new(endpoint, network, transport, clock)
        .map_err(|e| if e.contains("needs an API key") { format!("{e}: set AGORA_API_KEY") } else { e })?
        .on_retry(Rc::new(|wait: &crate::provider::Wait| eprintln!("{}", wait.words())))
        .on_notice(Rc::new(|what: &str| eprintln!("note: {what}")));
    Ok(model)
}

/// The text of a `--model script:<file>`, read once (a batch makes a model of it for each run).
fn read_script(choice: &ModelChoice) -> Result<Option<String>, String> {
    let ModelChoice::Script(path) = choice else { return Ok(None) };
    std::fs::read_to_string(path).map(Some).map_err(|e| format!("cannot read {path}: {e}"))
}

/// The model `--model` names for `scenario`: the demo model, the script (its text from
/// [`read_script`]), or the scenario's provider with the key from AGORA_API_KEY.
fn chat_model(
    choice: &ModelChoice,
    script: Option<&str>,
    scenario: &Scenario,
    clock: Rc<dyn Clock>,
) -> Result<Rc<dyn ChatModel>, String> {
    match (choice, script) {
        (ModelChoice::Script(path), Some(text)) => ScriptedModel::from_json(text)
            .map(|m| Rc::new(m) as Rc<dyn ChatModel>)
            .map_err(|e| format!("{path}: {e}")),
        (ModelChoice::Named(_), _) => http_model(scenario, clock),
        _ => Ok(Rc::new(DemoModel::new(scenario, clock))),
    }
}

fn run(args: RunArgs) -> Result<i32, String> {
    let scenario = load_scenario(&args)?;
    let clock: Rc<dyn Clock> = Rc::new(SystemClock::default());
    if args.check {
        return check(&args, &scenario, clock);
    }
    let script = read_script(&args.model)?;
    let model = chat_model(&args.model, script.as_deref(), &scenario, clock.clone())?;
    let model: Rc<dyn ChatModel> = if scenario.seats.is_empty() {
        model
    } else {
        let desk = desk::TerminalDesk::new(Box::new(std::io::BufReader::new(std::io::stdin())));
        Rc::new(crate::seat::Seated::new(model, &scenario, Rc::new(desk), clock.clone()))
    };
    // Check the output files can be written before spending model calls.
    for path in args.events.iter().chain(&args.markdown).chain(&args.otlp) {
        std::fs::write(path, "").map_err(|e| format!("cannot write {path}: {e}"))?;
    }
    let started = unix_nanos();
    let mut run = Run::new(scenario, model, clock).map_err(|errors| FieldError::join(&errors))?;
    // Printed as recorded, so a seated person has read everything said before being asked.
    let mut printer = Printer::new(run.scenario().seats.clone());
    run.set_listener(move |e| {
        for line in printer.lines(e) {
            if matches!(e, Event::Error { .. }) {
                eprintln!("{line}");
            } else {
                say(&line);
            }
        }
    });
    loop {
        let outcome = futures::executor::block_on(run.step());
        // A run paused at its spending cap ends here: the terminal cannot raise it mid-run.
        if outcome != StepOutcome::Continue {
            if let Some(path) = &args.events {
                std::fs::write(path, to_json_lines(run.events()))
                    .map_err(|e| format!("cannot write {path}: {e}"))?;
            }
            if let Some(path) = &args.markdown {
                std::fs::write(path, crate::export::to_markdown(run.events()))
                    .map_err(|e| format!("cannot write {path}: {e}"))?;
            }
            write_trace(&args, &[run.events()], started)?;
            return Ok(if outcome == StepOutcome::Finished(FinishReason::Error) { 1 } else { 0 });
        }
    }
}

/// Nanoseconds since 1970, now: where a trace's first run starts.
pub(crate) fn unix_nanos() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}

/// Writes `runs` as one OTLP request (a trace per run) to the file `--otlp` names and sends it to
/// the receiver `--otlp-endpoint` names, when they do: `agora run`, `batch` and `tournament`.
pub(crate) fn write_trace(args: &RunArgs, runs: &[&[Event]], started: u64) -> Result<(), String> {
    if args.otlp.is_none() && args.otlp_endpoint.is_none() {
        return Ok(());
    }
    let options = crate::trace::TraceOptions { start_unix_nanos: started, content: args.otlp_content };
    let trace = crate::trace::otlp_json(runs, &options)?;
    if let Some(path) = &args.otlp {
        std::fs::write(path, &trace).map_err(|e| format!("cannot write {path}: {e}"))?;
    }
    if let Some(url) = &args.otlp_endpoint {
        send_trace(url, &trace, args.otlp_json)?;
        let what =
            if runs.len() == 1 { "The trace".to_string() } else { format!("The {} traces", runs.len()) };
        say(format!("{what} went to {}.", traces_url(url)));
    }
    Ok(())
}

/// The address traces are posted to: an endpoint's `/v1/traces`, as OTLP exporters add it to a
/// base address; one already ending so is taken as it is.
fn traces_url(endpoint: &str) -> String {
    let base = endpoint.trim_end_matches('/');
    if base.ends_with("/v1/traces") {
        base.to_string()
    } else {
        format!("{base}/v1/traces")
    }
}

/// The headers OpenTelemetry's exporters read from the environment
/// (`OTEL_EXPORTER_OTLP_TRACES_HEADERS`, else `OTEL_EXPORTER_OTLP_HEADERS`): `key=value` pairs
/// separated by commas, each value percent-encoded; Langfuse takes its keys this way
/// (`Authorization=Basic%20<base64 of public:secret>`).
pub(crate) fn otlp_headers(var: impl Fn(&str) -> Option<String>) -> Vec<(String, String)> {
    let text = var("OTEL_EXPORTER_OTLP_TRACES_HEADERS").or_else(|| var("OTEL_EXPORTER_OTLP_HEADERS"));
    let decode = |v: &str| {
        let bytes = v.as_bytes();
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
            match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
                (b'%', Some(b)) => {
                    out.push(b);
                    i += 3;
                }
                (b, _) => {
                    out.push(b);
                    i += 1;
                }
            }
        }
        String::from_utf8_lossy(&out).into_owned()
    };
    text.unwrap_or_default()
        .split(',')
        .filter_map(|pair| pair.split_once('='))
        .map(|(k, v)| (k.trim().to_string(), decode(v.trim())))
        .filter(|(k, _)| !k.is_empty())
        .collect()
}

/// Posts an OTLP/JSON trace to an OTLP/HTTP receiver, as protobuf unless `json`, with the
/// headers the environment gives ([`otlp_headers`]).
fn send_trace(endpoint: &str, trace: &str, json: bool) -> Result<(), String> {
    let url = traces_url(endpoint);
    let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
    let mut post = agent.post(&url);
    for (k, v) in otlp_headers(|name| std::env::var(name).ok()) {
        post = post.header(k, v);
    }
    let sent = if json {
        post.header("Content-Type", "application/json").send(trace)
    } else {
        let body = crate::trace::otlp_protobuf(trace)?;
        post.header("Content-Type", "application/x-protobuf").send(&body[..])
    };
    let mut response = sent.map_err(|e| format!("the trace could not be sent to {url}: {e}"))?;
    let status = response.status().as_u16();
    if !(200..300).contains(&status) {
        let body = response.body_mut().read_to_string().unwrap_or_default();
        let body: String = body.chars().take(200).collect();
        return Err(format!("{url} refused the trace: HTTP {status} {body}"));
    }
    Ok(())
}

mod args;
mod autogen;
mod batch;
mod desk;
mod judge;
mod relay;
mod tournament;

#[cfg(test)]
mod tests {
    use super::*;

    /// A command line from words (the batch tests use it too).
    pub(super) fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    /// `agora run` with `words`, read as the runner reads it; the error as printed.
    fn parse_run_args(words: &[String]) -> Result<RunArgs, String> {
        let line: Vec<String> = std::iter::once("run".to_string()).chain(words.iter().cloned()).collect();
        match args::parse(&line).map_err(|(text, _)| text)?.command {
            Command::Run(cmd) => cmd.into_run_args().map_err(|e| format!("agora: {e}")),
            other => panic!("read as {other:?}"),
        }
    }

    #[test]
    fn flags_are_read_and_bad_ones_named() {
        let a = parse_run_args(&args(&["s.json", "--seed", "9", "--turns", "3", "--model", "script:x.json"]))
            .unwrap();
        assert_eq!(a.seed, Some(9));
        assert_eq!(a.turns, Some(3));
        assert_eq!(a.model, ModelChoice::Script("x.json".into()));
        let err = |words: &[&str]| parse_run_args(&args(words)).unwrap_err();
        assert!(err(&["s.json", "--seed"]).contains("a value is required for '--seed <N>'"));
        assert_eq!(err(&["s.json", "--seed", "x"]), "agora: --seed needs a whole number, not \"x\"");
        assert!(err(&["s.json", "--fast"]).starts_with("agora: unexpected argument '--fast' found"));
        assert!(err(&["--turns", "2"]).contains("<SCENARIO>"));
        assert!(err(&["s.json", "--model", "gpt"]).contains("needs --provider"));
        let unknown = err(&["s.json", "--provider", "nope", "--model", "m"]);
        assert!(unknown.contains("invalid value 'nope' for '--provider <ID>'"), "{unknown}");
        for p in crate::provider::PROVIDERS {
            assert!(unknown.contains(p.id), "{} is named among the providers: {unknown}", p.id);
        }
        let a = parse_run_args(&args(&[
            "s.json",
            "--provider",
            "ollama",
            "--model",
            "llama3",
            "--base-url",
            "http://h/v1",
        ]))
        .unwrap();
        assert_eq!((a.provider.as_deref(), a.base_url.as_deref()), (Some("ollama"), Some("http://h/v1")));
        assert_eq!(a.model, ModelChoice::Named("llama3".into()));
        assert!(err(&["s.json", "--turns", "0"]).contains("--turns must be between 1 and"));
        assert_eq!(
            parse_run_args(&args(&["s.json", "--malformed-rate", "0.3"])).unwrap().malformed_rate,
            Some(0.3)
        );
        assert!(err(&["s.json", "--malformed-rate", "2"]).contains("from 0 to 1"));
        let a = parse_run_args(&args(&["s.json", "--otlp-endpoint", "http://h", "--otlp-protocol", "json"]))
            .unwrap();
        assert!(a.otlp_json);
        assert!(err(&["s.json", "--otlp-protocol", "xml"]).contains("http/protobuf"));
    }

    #[test]
    fn missing_files_and_presets_are_named() {
        let a = parse_run_args(&args(&["/nonexistent/x.json"])).unwrap();
        assert!(load_scenario(&a).unwrap_err().starts_with("cannot read /nonexistent/x.json"));
        let a = parse_run_args(&args(&["preset:nope"])).unwrap();
        assert!(load_scenario(&a).unwrap_err().contains("no preset \"nope\""));
        let a = parse_run_args(&args(&["preset:rail-debate", "--seed", "4", "--turns", "2"])).unwrap();
        let s = load_scenario(&a).unwrap();
        assert_eq!((s.seed, s.max_turns), (4, 2));
    }
}
