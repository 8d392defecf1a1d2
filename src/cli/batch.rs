//! `agora batch`: one scenario over many seeds, a CSV row per run written as each run finishes,
//! and the batch's statistics; shards of a batch on different machines, and their merge.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use super::{chat_model, load_scenario, parse_run_args, read_script, say, ModelChoice, RunArgs};
use crate::batch::{
    fingerprint, merge, play_seed, read_csv, row_of, RunFigures, Seeds, Shard, Summary, Table,
};
use crate::clock::{Clock, SystemClock};
use crate::events::to_json_lines;
use crate::scenario::Scenario;

pub const USAGE: &str = "usage: agora batch <scenario.json | preset:ID> --seeds 1..100 --out results.csv [--jobs N] [--shard K/N | auto | auto/N] [--events-dir DIR] [--resume] [--turns N] [--model demo|script:<file>|NAME] [--provider ID] [--base-url URL] [--latency-ms N] [--malformed-rate R] [--cap-tokens N] [--cap-cost X] [--judge | --judge-provider ID --judge-model NAME [--judge-base-url URL]] [--otlp FILE] [--otlp-endpoint URL [--otlp-protocol http/protobuf|http/json]] [--otlp-content]\n       agora batch merge <a.csv> <b.csv>... --out all.csv\n\n--seeds takes a range (both ends included), single seeds, or a comma list of both. --jobs runs that many\nruns at once (default 1). --shard K/N runs every N-th seed from the K-th (K counts from 0); --shard auto\nreads the array index from Slurm (SLURM_ARRAY_TASK_ID, _MIN, _STEP and _COUNT), a Kubernetes Indexed Job\n(JOB_COMPLETION_INDEX) or AWS Batch (AWS_BATCH_JOB_ARRAY_INDEX); the last two need auto/N.\nEach row is written as its run finishes; at the end the file is rewritten in seed order. Status 1\nwhen a run ended in an error (its row says why); the batch goes on. --judge judges each run with the
scenario's judge (its own model, or the demo judge on the demo model), --judge-provider and --judge-model
with another (key from AGORA_JUDGE_API_KEY, else AGORA_API_KEY): a judge: column per dimension and agent.
--otlp FILE writes every run of the batch as an OpenTelemetry trace (OTLP/JSON, one trace per run, in
seed order) once the batch ends; --otlp-endpoint URL sends them to an OTLP/HTTP receiver.";

/// What `batch` was asked to do.
#[derive(Debug)]
struct BatchArgs {
    run: RunArgs,
    seeds: Seeds,
    shard: Shard,
    jobs: usize,
    out: PathBuf,
    events_dir: Option<PathBuf>,
    /// Keep the rows already in `out` and play only the seeds they lack.
    resume: bool,
    /// Judge each run (`--judge`, or a judge named with `--judge-provider` and `--judge-model`).
    judge: Option<super::judge::JudgeFlags>,
}

fn parse_batch_args(args: &[String], env: impl Fn(&str) -> Option<String>) -> Result<BatchArgs, String> {
    let (mut seeds, mut shard, mut jobs, mut out, mut events_dir) = (None, Shard::WHOLE, 1, None, None);
    let mut resume = false;
    let mut judge: Option<super::judge::JudgeFlags> = None;
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |flag: &str| it.next().cloned().ok_or(format!("{flag} needs a value"));
        match arg.as_str() {
            "--seeds" => seeds = Some(Seeds::parse(&value("--seeds")?)?),
            "--shard" => shard = Shard::parse(&value("--shard")?, &env)?,
            "--jobs" => {
                let v = value("--jobs")?;
                jobs = match v.parse::<usize>() {
                    Ok(n) if (1..=256).contains(&n) => n,
                    _ => return Err(format!("--jobs takes a whole number from 1 to 256, not \"{v}\"")),
                };
            }
            "--out" => out = Some(PathBuf::from(value("--out")?)),
            "--events-dir" => events_dir = Some(PathBuf::from(value("--events-dir")?)),
            "--resume" => resume = true,
            "--judge" => {
                judge.get_or_insert_with(Default::default);
            }
            "--judge-provider" | "--judge-model" | "--judge-base-url" => {
                let v = value(arg)?;
                judge.get_or_insert_with(Default::default).take(arg, &mut || Ok(v.clone()))?;
            }
            "--seed" | "--events" | "--markdown" | "--check" | "--seat" => {
                return Err(format!(
                    "{arg} is for `agora run`; a batch takes --seeds, --out and --events-dir"
                ))
            }
            _ => rest.push(arg.clone()),
        }
    }
    let seeds = seeds.ok_or("--seeds is needed (for example --seeds 1..100)")?;
    let out = out.ok_or("--out is needed: the CSV file to write (for example --out results.csv)")?;
    Ok(BatchArgs { run: parse_run_args(&rest)?, seeds, shard, jobs, out, events_dir, resume, judge })
}

/// Runs `agora batch ...`; returns the exit code.
pub fn main(args: &[String]) -> Result<i32, String> {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        say(USAGE);
        return Ok(0);
    }
    if args.first().map(String::as_str) == Some("merge") {
        return merge_files(&args[1..]);
    }
    let args = parse_batch_args(args, |name| std::env::var(name).ok())?;
    let scenario = load_scenario(&args.run)?;
    let script = read_script(&args.run.model)?;
    // A model that cannot be made (a script that does not read, no key, a model in a browser tab)
    // is named once, before any run starts.
    chat_model(&args.run.model, script.as_deref(), &scenario, Rc::new(SystemClock::default()))?;
    let mine = args.seeds.shard(args.shard);
    if let Some(path) = &args.run.otlp {
        std::fs::write(path, "").map_err(|e| format!("cannot write {path}: {e}"))?;
    }
    let mut table = Table::new(
        fingerprint(&scenario),
        args.seeds.to_string(),
        scenario.agent_names(),
        scenario.method.games(),
    );
    if let Some(dir) = &args.events_dir {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    }
    // The judge is named, and its model made once, before any run starts.
    let judging = match &args.judge {
        Some(flags) => {
            let settings = flags.apply(&scenario.judge.settings()?)?;
            if let Some((field, message)) = settings.problems().into_iter().next() {
                return Err(format!("{field}: {message}"));
            }
            let judge = crate::judge::Judge::of(&settings.who(), &scenario);
            super::judge::judge_model(&settings, &scenario, &judge, Rc::new(SystemClock::default()))?;
            table.judge = crate::batch::judge_columns(&settings, &table.agents);
            let flag =
                if judge.same_model { " (the agents' own model: it may favour what it wrote)" } else { "" };
            eprintln!("each run is judged by {}{flag}", judge.label);
            Some((settings, judge))
        }
        None => None,
    };
    let (rows, text) = kept_rows(&args, &table, &mine)?;
    // A file resumed is written on in its own columns (one from before the text statistics
    // stays without them).
    table.rows = rows;
    table.text = text.unwrap_or(table.text);
    let todo: Vec<u64> =
        mine.list().iter().copied().filter(|s| !table.rows.iter().any(|r| r.seed == *s)).collect();
    let mut file =
        std::fs::File::create(&args.out).map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    let write_err = |e: std::io::Error| format!("cannot write {}: {e}", args.out.display());
    let kept = table.rows.len();
    // The kept rows first, whole, so a second interruption loses none of them either.
    file.write_all(table.to_csv().as_bytes()).map_err(write_err)?;

    let started = Instant::now();
    let trace_start = super::unix_nanos();
    // Each run's log, by seed, for the trace (`--otlp`, `--otlp-endpoint`).
    let tracing = args.run.otlp.is_some() || args.run.otlp_endpoint.is_some();
    let mut traced: Vec<(u64, Vec<crate::events::Event>)> = Vec::new();
    let progress = Progress::new(todo.len());
    let next = AtomicUsize::new(0);
    let (done_tx, done_rx) = mpsc::channel::<(RunFigures, Option<Vec<crate::events::Event>>)>();
    let failed = std::thread::scope(|s| -> Result<usize, String> {
        for _ in 0..args.jobs.min(todo.len()) {
            let done_tx = done_tx.clone();
            let (next, todo, scenario, args, script, judging) =
                (&next, &todo, &scenario, &args, &script, &judging);
            s.spawn(move || {
                while let Some(&seed) = todo.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let judging = judging.as_ref().map(|(s, j)| (s, j));
                    if done_tx
                        .send(run_one(scenario, &args.run.model, script.as_deref(), seed, judging))
                        .is_err()
                    {
                        break;
                    }
                }
            });
        }
        drop(done_tx);
        let mut failed = 0;
        for (figures, log) in done_rx {
            if let (Some(dir), Some(log)) = (&args.events_dir, &log) {
                write_whole(&dir.join(format!("seed-{}.jsonl", figures.seed)), &to_json_lines(log))?;
            }
            if let (true, Some(log)) = (tracing, log) {
                traced.push((figures.seed, log));
            }
            // One write per row, so an interrupted batch leaves only whole rows.
            file.write_all(table.line(&figures).as_bytes()).map_err(write_err)?;
            failed += usize::from(figures.finish == "error");
            table.rows.push(figures);
            progress.show(table.rows.len() - kept, started);
        }
        Ok(failed)
    })?;
    drop(file);
    write_whole(&args.out, &table.to_csv())?;
    progress.finish();
    traced.sort_by_key(|(seed, _)| *seed);
    let runs: Vec<&[crate::events::Event]> = traced.iter().map(|(_, events)| events.as_slice()).collect();
    super::write_trace(&args.run, &runs, trace_start)?;
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "{} runs in {} s ({} runs a second, {} at a time){}{}; rows in {}",
        table.rows.len() - kept,
        crate::text::fixed(secs, 1),
        crate::text::fixed((table.rows.len() - kept) as f64 / secs.max(1e-9), 2),
        args.jobs,
        if args.shard == Shard::WHOLE {
            String::new()
        } else {
            format!(", shard {} of {}", args.shard.index, args.shard.count)
        },
        if kept > 0 { format!(", {kept} kept from before") } else { String::new() },
        args.out.display()
    );
    for line in Summary::of(&table).lines() {
        say(line);
    }
    Ok(if failed > 0 { 1 } else { 0 })
}

/// The rows a batch keeps from the file it writes to: none for a new file; with `--resume`, every
/// whole row of an earlier run of this same batch (a line cut short by an interruption is
/// dropped and played again); without it, an existing file is refused rather than overwritten.
/// With them, whether that file carries the text statistics' columns.
fn kept_rows(
    args: &BatchArgs,
    table: &Table,
    mine: &Seeds,
) -> Result<(Vec<RunFigures>, Option<bool>), String> {
    let out = args.out.display();
    let text = match std::fs::read_to_string(&args.out) {
        Ok(text) if !text.trim().is_empty() => text,
        Ok(_) => return Ok((Vec::new(), None)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), None)),
        Err(e) => return Err(format!("cannot read {out}: {e}")),
    };
    if !args.resume {
        // A batch stopped before its first run left its header alone.
        let holds = if text.trim_end().lines().count() <= 1 {
            "holds a batch's header and no rows yet: add --resume to play its seeds into it"
        } else {
            "already holds rows: add --resume to keep them and play only the seeds it lacks"
        };
        return Err(format!("{out} {holds}, or give another --out"));
    }
    let whole = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
    let earlier = crate::batch::read_csv(whole).map_err(|e| format!("cannot resume from {out}: {e}"))?;
    if !earlier.rows.is_empty() && (earlier.batch != table.batch || earlier.seeds != table.seeds) {
        return Err(format!(
            "cannot resume from {out}: its rows are of another batch (another scenario, model or --seeds)"
        ));
    }
    if !earlier.rows.is_empty() && earlier.judge != table.judge {
        return Err(format!(
            "cannot resume from {out}: it was written with {} judge columns: resume with the judge it was written with",
            if earlier.judge.is_empty() { "no" } else { "other" }
        ));
    }
    if let Some(stray) = earlier.rows.iter().find(|r| !mine.list().contains(&r.seed)) {
        return Err(format!(
            "cannot resume from {out}: it holds seed {}, which this batch does not play",
            stray.seed
        ));
    }
    Ok((earlier.rows, Some(earlier.text)))
}

/// Plays one seed on a model of its own, judged when `judging` names the judge; the log (with the
/// judge's calls and verdict), when the run started.
fn run_one(
    scenario: &Scenario,
    choice: &ModelChoice,
    script: Option<&str>,
    seed: u64,
    judging: Option<(&crate::judge::JudgeSettings, &crate::judge::Judge)>,
) -> (RunFigures, Option<Vec<crate::events::Event>>) {
    let clock: Rc<dyn Clock> = Rc::new(SystemClock::default());
    let mut seeded = scenario.clone();
    seeded.seed = seed;
    let model = chat_model(choice, script, &seeded, clock.clone());
    let mut played = futures::executor::block_on(play_seed(scenario, seed, model, clock.clone()));
    // Why a run to be judged has no verdict when the judge could not even be asked; a verdict
    // recorded as not judged says its own why (read into the row by `row_of`).
    let mut unasked = None;
    if let (Ok(events), Some((settings, judge))) = (&mut played, judging) {
        let judged = super::judge::judge_model(settings, &seeded, judge, clock.clone()).and_then(|model| {
            futures::executor::block_on(crate::judge::judge_run(events, settings, judge, model, clock))
                .map_err(|e| e.to_string())
        });
        match judged {
            Ok(added) => events.extend(added),
            Err(e) => unasked = Some(format!("the judge could not be asked: {e}")),
        }
    }
    let mut row = row_of(scenario, seed, &played);
    if let Some(why) = unasked {
        row.judge_error = why;
    }
    if !row.judge_error.is_empty() {
        eprintln!("seed {seed}: not judged: {}", row.judge_error);
    }
    (row, played.ok())
}

/// Writes a file whole or not at all: into a neighbour first, then renamed over it.
fn write_whole(path: &Path, text: &str) -> Result<(), String> {
    let mut part = path.as_os_str().to_owned();
    part.push(".part");
    let part = PathBuf::from(part);
    std::fs::write(&part, text)
        .and_then(|()| std::fs::rename(&part, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// `batch merge a.csv b.csv ... --out all.csv`.
fn merge_files(args: &[String]) -> Result<i32, String> {
    let (files, out) = super::merge_args(args)?;
    let mut parts = Vec::new();
    for name in files {
        let text = std::fs::read_to_string(&name).map_err(|e| format!("cannot read {name}: {e}"))?;
        parts.push((name.clone(), read_csv(&text).map_err(|e| format!("{name}: {e}"))?));
    }
    let count = parts.len();
    let table = merge(parts)?;
    write_whole(&out, &table.to_csv())?;
    eprintln!("merged {count} files: {} runs in {}", table.rows.len(), out.display());
    for line in Summary::of(&table).lines() {
        say(line);
    }
    Ok(0)
}

/// A progress line on a terminal (nothing when stderr is a file or a pipe).
struct Progress {
    total: usize,
    shown: bool,
}

impl Progress {
    fn new(total: usize) -> Progress {
        Progress { total, shown: std::io::stderr().is_terminal() }
    }

    fn show(&self, done: usize, started: Instant) {
        if !self.shown {
            return;
        }
        let secs = started.elapsed().as_secs_f64();
        let rate = done as f64 / secs.max(1e-9);
        let left = (self.total - done) as f64 / rate.max(1e-9);
        eprint!(
            "\r{done}/{} runs · {} runs a second · about {} s left   ",
            self.total,
            crate::text::fixed(rate, 2),
            crate::text::fixed(left, 0)
        );
    }

    fn finish(&self) {
        if self.shown {
            eprintln!();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::tests::args;

    #[test]
    fn batch_flags_are_read_and_run_only_flags_refused() {
        let none = |_: &str| None;
        let a = parse_batch_args(
            &args(&[
                "preset:rail-debate",
                "--seeds",
                "1..8",
                "--jobs",
                "3",
                "--shard",
                "1/2",
                "--out",
                "r.csv",
                "--turns",
                "4",
            ]),
            none,
        )
        .unwrap();
        assert_eq!((a.seeds.list().len(), a.jobs, a.shard), (8, 3, Shard { index: 1, count: 2 }));
        assert_eq!((a.run.turns, a.out), (Some(4), PathBuf::from("r.csv")));
        let err = |list: &[&str]| parse_batch_args(&args(list), none).unwrap_err();
        assert!(err(&["s.json", "--out", "r.csv"]).contains("--seeds is needed"));
        assert!(err(&["s.json", "--seeds", "1..3"]).contains("--out is needed"));
        assert!(err(&["s.json", "--seeds", "1", "--out", "r", "--seed", "4"]).contains("for `agora run`"));
        assert!(err(&["s.json", "--seeds", "1", "--out", "r", "--jobs", "0"]).contains("from 1 to 256"));
        assert!(err(&["s.json", "--seeds", "1", "--out", "r", "--fast"]).contains("unknown flag --fast"));
        let slurm = |n: &str| match n {
            "SLURM_ARRAY_TASK_ID" => Some("2".to_string()),
            "SLURM_ARRAY_TASK_COUNT" => Some("4".to_string()),
            _ => None,
        };
        let a =
            parse_batch_args(&args(&["s.json", "--seeds", "1..8", "--shard", "auto", "--out", "r"]), slurm)
                .unwrap();
        assert_eq!(a.seeds.shard(a.shard).list(), &[3, 7]);
    }
}
