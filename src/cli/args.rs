//! The terminal runner's command line, declared with clap: each subcommand's flags as a type,
//! read into the runner's own [`RunArgs`] where flags depend on each other. Every `--help` comes
//! from these declarations, and the providers a flag takes from the one table the runner reads
//! (`crate::provider::PROVIDERS`).

use std::path::PathBuf;

use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Args, Parser, Subcommand, ValueEnum};

use super::{ModelChoice, RunArgs};
use crate::batch::Seeds;
use crate::scenario::{MethodKind, MAX_TURNS};

/// Plays multi-agent dialogue scenarios in the terminal: the same runs the page plays, printed the
/// way the seed notebooks print them.
#[derive(Debug, Parser)]
#[command(
    name = "agora",
    version,
    arg_required_else_help = true,
    after_help = overview()
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Plays a scenario and prints the dialogue as it is recorded.
    Run(RunCmd),
    /// Plays one scenario over many seeds, a CSV row per run (shards and their merge too).
    Batch(BatchCmd),
    /// The figures of a comparison saved from the page, as CSV.
    Compare {
        /// The comparison file the page saved.
        #[arg(value_name = "COMPARISON.json")]
        file: String,
    },
    /// Judges a recorded run and prints the verdict.
    Judge(JudgeCmd),
    /// A judge's scores against your own labels: Spearman's rho and Cohen's kappa per dimension.
    #[command(
        long_about = "A judge's scores against your own labels.\n\n<RUNS_DIR> holds judged runs (agora judge \
                      --out, or agora batch --judge --events-dir): each file's newest verdict is compared with \
                      <LABELS.csv>, a researcher's own scores with the header run,agent,dimension,score (run: the \
                      file's name without its extension; agent empty for the conversation's dimensions). Prints, \
                      per dimension, the pairs compared, Spearman's rho and Cohen's quadratic-weighted kappa on the \
                      dimension's scale, each with a 95 % bootstrap interval. A score off the dimension's scale, or \
                      an item labelled twice with different scores, is refused naming its line; an item repeated \
                      with the same score counts once."
    )]
    JudgeCheck {
        /// The folder of judged runs.
        runs_dir: String,
        /// Your scores: run,agent,dimension,score.
        #[arg(value_name = "LABELS.csv")]
        labels: String,
    },
    /// Every method on every seed of one scenario, judged in pairs, and a leaderboard.
    Tournament(TournamentCmd),
    /// A meeting point for a class's phones where public relays are blocked.
    #[command(
        long_about = "A meeting point for a class's phones and the teacher's page where public relays are \
                      blocked: the page's room setting names it (ws://HOST:PORT). It passes signalling on and \
                      stores nothing. It prints the address it listens on, then serves until stopped."
    )]
    Relay {
        /// The address to listen on.
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        /// The port to listen on (0 picks a free one).
        #[arg(long, default_value_t = 7447)]
        port: u16,
    },
    /// An AutoGen team component as a scenario.
    Import {
        /// The team component (AutoGen Studio's JSON).
        #[arg(value_name = "TEAM.json")]
        file: String,
        /// The task the team is given, if the component holds none.
        #[arg(long, value_name = "TEXT")]
        task: Option<String>,
        /// The scenario file to write (the terminal if not given).
        #[arg(long, value_name = "FILE")]
        out: Option<String>,
    },
    /// A scenario as an AutoGen team, or a scenario or recorded run as a notebook.
    Export(ExportCmd),
    /// Lists the presets (preset:ID) and their titles.
    Presets,
    /// Prints a completion script for a shell (for example `agora completions bash`).
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// What `agora --help` says under the commands.
fn overview() -> String {
    let ids: Vec<&str> = crate::provider::PROVIDERS.iter().map(|p| p.id).collect();
    format!(
        "A scenario is a scenario file or a preset (preset:ID, listed by `agora presets`). The demo model \
         plays offline; a real one is named with --provider ID --model NAME, its key read from the \
         AGORA_API_KEY environment variable, never from a flag.\n\nProviders: {}\n\n\
         `agora <command> --help` says everything a command takes.",
        ids.join(", ")
    )
}

/// The providers the runner takes, each with its name, for `--provider` and `--judge-provider`.
fn providers() -> PossibleValuesParser {
    PossibleValuesParser::new(
        crate::provider::PROVIDERS.iter().map(|p| PossibleValue::new(p.id).help(p.label)).collect::<Vec<_>>(),
    )
}

fn whole(text: &str, flag: &str) -> Result<u64, String> {
    text.parse().map_err(|_| format!("{flag} needs a whole number, not \"{text}\""))
}

fn seed(text: &str) -> Result<u64, String> {
    whole(text, "--seed")
}

fn latency(text: &str) -> Result<u64, String> {
    whole(text, "--latency-ms")
}

fn cap_tokens(text: &str) -> Result<u64, String> {
    whole(text, "--cap-tokens")
}

fn turns(text: &str) -> Result<u32, String> {
    let n = whole(text, "--turns")?;
    if n == 0 || n > u64::from(MAX_TURNS) {
        return Err(format!("--turns must be between 1 and {MAX_TURNS}"));
    }
    Ok(n as u32)
}

fn malformed_rate(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(r) if (0.0..=1.0).contains(&r) => Ok(r),
        _ => Err(format!("--malformed-rate needs a number from 0 to 1, not \"{text}\"")),
    }
}

fn cap_cost(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(c) if c.is_finite() && c >= 0.0 => Ok(c),
        _ => Err(format!("--cap-cost needs an amount of money, not \"{text}\"")),
    }
}

fn model(text: &str) -> Result<ModelChoice, String> {
    Ok(match text {
        "demo" => ModelChoice::Demo,
        s if s.starts_with("script:") && s.len() > 7 => ModelChoice::Script(s[7..].to_string()),
        "" => return Err("--model needs a value".into()),
        name => ModelChoice::Named(name.to_string()),
    })
}

fn seeds(text: &str) -> Result<Seeds, String> {
    Seeds::parse(text)
}

fn jobs(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=256).contains(&n) => Ok(n),
        _ => Err(format!("--jobs takes a whole number from 1 to 256, not \"{text}\"")),
    }
}

/// The methods a tournament compares, in the order given.
#[derive(Clone, Debug, PartialEq)]
pub struct Methods(pub Vec<MethodKind>);

fn methods(text: &str) -> Result<Methods, String> {
    text.split(',')
        .map(|m| MethodKind::from_id(m.trim()).ok_or(format!("no method \"{}\"", m.trim())))
        .collect::<Result<_, _>>()
        .map(Methods)
}

/// How a trace is sent to an OTLP/HTTP receiver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OtlpProtocol {
    #[value(name = "http/protobuf", alias = "protobuf")]
    Protobuf,
    #[value(name = "http/json", alias = "json")]
    Json,
}

/// The model a run plays on, and the run's length: shared by `run`, `batch` and `tournament`.
#[derive(Debug, Default, Args)]
pub struct ModelFlags {
    /// The model: demo (offline, the default), script:FILE (replies from a file) or a model's name
    /// at --provider.
    #[arg(long, value_name = "demo|script:FILE|NAME", value_parser = model)]
    pub model: Option<ModelChoice>,
    /// The provider that serves --model NAME (its key from AGORA_API_KEY).
    #[arg(long, value_name = "ID", value_parser = providers())]
    pub provider: Option<String>,
    /// The provider's address, where it is not the usual one.
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// The turns to play (the scenario's own number if not given).
    #[arg(long, value_name = "N", value_parser = turns)]
    pub turns: Option<u32>,
    /// The demo model's pause before each reply, in milliseconds.
    #[arg(long, value_name = "N", value_parser = latency)]
    pub latency_ms: Option<u64>,
    /// How often the demo model answers in a form that cannot be read, from 0 to 1.
    #[arg(long, value_name = "R", value_parser = malformed_rate)]
    pub malformed_rate: Option<f64>,
    /// Stop the run once this many tokens have been spent.
    #[arg(long, value_name = "N", value_parser = cap_tokens)]
    pub cap_tokens: Option<u64>,
    /// Stop the run once this much money has been spent, at the scenario's prices.
    #[arg(long, value_name = "X", value_parser = cap_cost)]
    pub cap_cost: Option<f64>,
}

/// The run as an OpenTelemetry trace.
#[derive(Debug, Default, Args)]
pub struct TraceFlags {
    /// Write the run as an OpenTelemetry trace (OTLP/JSON) to this file.
    #[arg(long, value_name = "FILE")]
    pub otlp: Option<String>,
    /// Send the trace to this OTLP/HTTP receiver.
    #[arg(long, value_name = "URL")]
    pub otlp_endpoint: Option<String>,
    /// The encoding the receiver is sent (http/protobuf if not given).
    #[arg(long, value_enum, value_name = "PROTOCOL", requires = "otlp_endpoint")]
    pub otlp_protocol: Option<OtlpProtocol>,
    /// Keep what was said in the trace (left out if not given).
    #[arg(long)]
    pub otlp_content: bool,
}

/// Who judges, if not the run's own model (shared by `judge`, `batch` and `tournament`).
#[derive(Debug, Default, Args, PartialEq)]
pub struct JudgeFlags {
    /// The judge's provider (its key from AGORA_JUDGE_API_KEY, else AGORA_API_KEY).
    #[arg(id = "judge_provider", long = "judge-provider", value_name = "ID", value_parser = providers())]
    pub provider: Option<String>,
    /// The judge's model at --judge-provider.
    #[arg(id = "judge_model", long = "judge-model", value_name = "NAME")]
    pub model: Option<String>,
    /// The judge's provider's address, where it is not the usual one.
    #[arg(id = "judge_base_url", long = "judge-base-url", value_name = "URL")]
    pub base_url: Option<String>,
}

impl JudgeFlags {
    fn named(&self) -> bool {
        self.provider.is_some() || self.model.is_some() || self.base_url.is_some()
    }
}

#[derive(Debug, Args)]
#[command(
    after_help = "--seat NAME (repeatable): you answer for that agent (or the director, or \"Selector\") \
                        on this terminal: each question shows the prompt a model would read, then asks for a \
                        bid, a speech, a choice or a trading action; the event log marks your answers \"human\"."
)]
pub struct RunCmd {
    /// A scenario file, or preset:ID.
    #[arg(value_name = "SCENARIO")]
    pub scenario: String,
    /// The run's seed (the scenario's own if not given).
    #[arg(long, value_name = "N", value_parser = seed)]
    pub seed: Option<u64>,
    #[command(flatten)]
    pub model: ModelFlags,
    /// Write the event log as JSON Lines to this file.
    #[arg(long, value_name = "FILE")]
    pub events: Option<String>,
    /// Write the transcript as Markdown to this file.
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<String>,
    #[command(flatten)]
    pub trace: TraceFlags,
    /// Answer for this agent yourself (repeatable).
    #[arg(long = "seat", value_name = "NAME")]
    pub seats: Vec<String>,
    /// Check the connection and print the estimate instead of running.
    #[arg(long)]
    pub check: bool,
}

impl RunCmd {
    /// The run these flags ask for, where flags depend on each other checked.
    pub fn into_run_args(self) -> Result<RunArgs, String> {
        run_args(
            self.scenario,
            self.seed,
            self.model,
            self.trace,
            self.events,
            self.markdown,
            self.seats,
            self.check,
        )
    }
}

#[allow(clippy::too_many_arguments)]
fn run_args(
    scenario: String,
    seed: Option<u64>,
    m: ModelFlags,
    trace: TraceFlags,
    events: Option<String>,
    markdown: Option<String>,
    seats: Vec<String>,
    check: bool,
) -> Result<RunArgs, String> {
    let model = m.model.unwrap_or(ModelChoice::Demo);
    if m.provider.is_some() && !matches!(model, ModelChoice::Named(_)) {
        return Err("--provider needs --model NAME (the model to call)".into());
    }
    if let (ModelChoice::Named(name), None) = (&model, &m.provider) {
        return Err(format!("--model {name} needs --provider (or use demo or script:<file>)"));
    }
    Ok(RunArgs {
        scenario,
        seed,
        model,
        latency_ms: m.latency_ms,
        malformed_rate: m.malformed_rate,
        turns: m.turns,
        events,
        markdown,
        otlp: trace.otlp,
        otlp_content: trace.otlp_content,
        otlp_endpoint: trace.otlp_endpoint,
        otlp_json: trace.otlp_protocol == Some(OtlpProtocol::Json),
        provider: m.provider,
        base_url: m.base_url,
        cap_tokens: m.cap_tokens,
        cap_cost: m.cap_cost,
        check,
        seats,
    })
}

/// The run a batch or a tournament plays on each seed: the scenario with the model and trace
/// flags (taken out of the command), and none of `run`'s own.
fn every_seeds_run(
    scenario: &Option<String>,
    model: &mut ModelFlags,
    trace: &mut TraceFlags,
) -> Result<RunArgs, String> {
    let (model, trace) = (std::mem::take(model), std::mem::take(trace));
    run_args(scenario.clone().unwrap_or_default(), None, model, trace, None, None, Vec::new(), false)
}

/// `merge`: shards' CSV files joined into one.
#[derive(Debug, Subcommand)]
pub enum MergeCmd {
    /// Joins the CSV files of a batch's shards (or a tournament's) into one.
    Merge {
        /// The shards' CSV files.
        #[arg(required = true, value_name = "CSV")]
        files: Vec<String>,
        /// The merged CSV file to write.
        #[arg(long, value_name = "FILE", required = true)]
        out: PathBuf,
    },
}

#[derive(Debug, Args)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    after_help = "--seeds takes a range (both ends included), single seeds, or a comma list of both. --shard K/N \
                  runs every N-th seed from the K-th (K counts from 0); --shard auto reads the array index from \
                  Slurm (SLURM_ARRAY_TASK_ID, _MIN, _STEP and _COUNT), a Kubernetes Indexed Job \
                  (JOB_COMPLETION_INDEX) or AWS Batch (AWS_BATCH_JOB_ARRAY_INDEX); the last two need auto/N.\n\
                  Each row is written as its run finishes; at the end the file is rewritten in seed order. Status 1 \
                  when a run ended in an error (its row says why); the batch goes on. --judge judges each run with \
                  the scenario's judge (its own model, or the demo judge on the demo model); --judge-provider and \
                  --judge-model with another: a judge: column per dimension and agent."
)]
pub struct BatchCmd {
    #[command(subcommand)]
    pub merge: Option<MergeCmd>,
    /// A scenario file, or preset:ID.
    #[arg(value_name = "SCENARIO", required = true)]
    pub scenario: Option<String>,
    /// The seeds to play: 1..100, 7, or 1..10,20.
    #[arg(long, value_name = "SEEDS", value_parser = seeds, required = true)]
    pub seeds: Option<Seeds>,
    /// The CSV file to write.
    #[arg(long, value_name = "FILE", required = true)]
    pub out: Option<PathBuf>,
    /// Runs played at once.
    #[arg(long, value_name = "N", value_parser = jobs, default_value = "1")]
    pub jobs: usize,
    /// This machine's part of the batch: K/N, auto or auto/N.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Keep each run's event log in this folder.
    #[arg(long, value_name = "DIR")]
    pub events_dir: Option<PathBuf>,
    /// Keep the rows already in --out and play only the seeds they lack.
    #[arg(long)]
    pub resume: bool,
    /// Judge each run with the scenario's judge.
    #[arg(long)]
    pub judge: bool,
    #[command(flatten)]
    pub judge_flags: JudgeFlags,
    #[command(flatten)]
    pub model: ModelFlags,
    #[command(flatten)]
    pub trace: TraceFlags,
}

impl BatchCmd {
    /// The run every seed plays, and who judges it (none when no judge is asked for).
    pub fn run_and_judge(&mut self) -> Result<(RunArgs, Option<JudgeFlags>), String> {
        let run = every_seeds_run(&self.scenario, &mut self.model, &mut self.trace)?;
        let flags = std::mem::take(&mut self.judge_flags);
        let judge = (self.judge || flags.named()).then_some(flags);
        Ok((run, judge))
    }
}

#[derive(Debug, Args)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    after_help = "Every method plays every seed; the conversations of each pair of methods on a seed are judged on \
                  the scenario's conversation rubric and overall, in both orders (a preference counts only when both \
                  agree). With no judge named the run's own model judges (on the demo model, the demo judge). The \
                  rows go to the CSV, the leaderboard (Bradley-Terry ratings with 95 % bootstrap intervals over \
                  seeds) to the terminal and to the JSON file beside the CSV (t.json). A run or a comparison that \
                  fails leaves its pairs not judged (said on stderr); the tournament goes on and ends with status 1. \
                  Conversations that are word for word the same are recorded as a tie without asking the judge."
)]
pub struct TournamentCmd {
    #[command(subcommand)]
    pub merge: Option<MergeCmd>,
    /// A scenario file, or preset:ID.
    #[arg(value_name = "SCENARIO", required = true)]
    pub scenario: Option<String>,
    /// The methods to compare, at least two: bidding, director, selector, round_robin, random, handoff.
    #[arg(long, value_name = "A,B,...", value_parser = methods, required = true)]
    pub methods: Option<Methods>,
    /// The seeds to play: 1..20, 7, or 1..10,20.
    #[arg(long, value_name = "SEEDS", value_parser = seeds, required = true)]
    pub seeds: Option<Seeds>,
    /// The CSV file to write (the leaderboard goes beside it as JSON).
    #[arg(long, value_name = "FILE", required = true)]
    pub out: Option<PathBuf>,
    /// This machine's part of the tournament: K/N, auto or auto/N.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Keep each run's event log in this folder (seed-<seed>-<method>.jsonl).
    #[arg(long, value_name = "DIR")]
    pub events_dir: Option<PathBuf>,
    #[command(flatten)]
    pub judge_flags: JudgeFlags,
    #[command(flatten)]
    pub model: ModelFlags,
    #[command(flatten)]
    pub trace: TraceFlags,
}

impl TournamentCmd {
    /// The run every method plays on each seed.
    pub fn run_args(&mut self) -> Result<RunArgs, String> {
        every_seeds_run(&self.scenario, &mut self.model, &mut self.trace)
    }
}

#[derive(Debug, Args)]
#[command(
    after_help = "Without --judge-provider the run's own model judges (on the demo model, the demo judge, \
                        which reads the text statistics and calls no model). --out writes the log with the \
                        verdict appended, in the form it was read (a run file or JSON lines)."
)]
pub struct JudgeCmd {
    /// The run to judge: a run file saved from the page, or the JSON lines of `agora run --events`.
    #[arg(value_name = "RUN")]
    pub run: String,
    #[command(flatten)]
    pub flags: JudgeFlags,
    /// Write the log with the verdict appended to this file.
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
    /// Write the transcript with the verdict as Markdown to this file.
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<String>,
}

#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("form").required(true).args(["autogen", "notebook"]))]
pub struct ExportCmd {
    /// A scenario file or preset:ID (for --notebook also a run file or an event log).
    #[arg(value_name = "SCENARIO")]
    pub file: String,
    /// A round robin or selector scenario as an AutoGen team component.
    #[arg(long)]
    pub autogen: bool,
    /// A Jupyter notebook (or, with --out ending in .py, a Python script) that plays it with the
    /// openai package.
    #[arg(long)]
    pub notebook: bool,
    /// The file to write (the terminal if not given).
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
}

/// Reads a command line (without the program's name); the error is what to print, and whether it
/// is help asked for (status 0) rather than a mistake (status 2).
pub fn parse(args: &[String]) -> Result<Cli, (String, bool)> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let words = std::iter::once("agora".to_string()).chain(args.iter().cloned());
    Cli::try_parse_from(words).map_err(|e| match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => (e.render().to_string(), true),
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => (e.render().to_string(), false),
        ErrorKind::InvalidSubcommand => {
            let name = match e.get(ContextKind::InvalidSubcommand) {
                Some(ContextValue::String(s)) => s.clone(),
                _ => String::new(),
            };
            (format!("agora: unknown command \"{name}\" (agora --help lists them)"), false)
        }
        // A value our own reader refused: its message names the flag and the value.
        ErrorKind::ValueValidation if std::error::Error::source(&e).is_some() => {
            let why = std::error::Error::source(&e).map(ToString::to_string).unwrap_or_default();
            (format!("agora: {why}"), false)
        }
        _ => {
            let text = e.render().to_string();
            (format!("agora: {}", text.trim_start_matches("error: ").trim_end()), false)
        }
    })
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn the_declarations_are_consistent() {
        // clap's own check: no flag declared twice, no id shared, every `requires` names an arg.
        super::Cli::command().debug_assert();
    }
}
