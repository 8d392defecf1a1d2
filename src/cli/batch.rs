//! `agora batch`: one scenario over many seeds, a CSV row per run written as each run finishes,
//! and the batch's statistics; shards of a batch on different machines, and their merge.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use super::args::{BatchCmd, MergeCmd};
use super::{chat_model, load_scenario, read_script, say, JudgeFlags, ModelChoice, RunArgs};
use crate::batch::{
    fingerprint, merge, play_seed, read_csv, row_of, RunFigures, Seeds, Shard, Summary, Table,
};
use crate::clock::{Clock, SystemClock};
use crate::events::to_json_lines;
use crate::scenario::Scenario;

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
    judge: Option<JudgeFlags>,
}

/// The batch `cmd` asks for, the shard read with `env` (Slurm's array index and the like).
fn batch_args(mut cmd: BatchCmd, env: impl Fn(&str) -> Option<String>) -> Result<BatchArgs, String> {
    let (run, judge) = cmd.run_and_judge()?;
    let shard = match &cmd.shard {
        Some(text) => Shard::parse(text, &env)?,
        None => Shard::WHOLE,
    };
    let seeds = cmd.seeds.ok_or("--seeds is needed (for example --seeds 1..100)")?;
    let out = cmd.out.ok_or("--out is needed: the CSV file to write (for example --out results.csv)")?;
    Ok(BatchArgs {
        run,
        seeds,
        shard,
        jobs: cmd.jobs,
        out,
        events_dir: cmd.events_dir,
        resume: cmd.resume,
        judge,
    })
}

/// Runs `agora batch ...`; returns the exit code.
pub fn main(mut cmd: BatchCmd) -> Result<i32, String> {
    if let Some(MergeCmd::Merge { files, out }) = cmd.merge.take() {
        return merge_files(files, out);
    }
    let args = batch_args(cmd, |name| std::env::var(name).ok())?;
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
fn merge_files(files: Vec<String>, out: PathBuf) -> Result<i32, String> {
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

    /// `agora batch` with `words`, read as the runner reads it with `env`; the error as printed.
    fn parse_batch_args(words: &[String], env: impl Fn(&str) -> Option<String>) -> Result<BatchArgs, String> {
        let line: Vec<String> = std::iter::once("batch".to_string()).chain(words.iter().cloned()).collect();
        match crate::cli::args::parse(&line).map_err(|(text, _)| text)?.command {
            crate::cli::args::Command::Batch(cmd) => batch_args(cmd, env),
            other => panic!("read as {other:?}"),
        }
    }

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
        assert!(err(&["s.json", "--out", "r.csv"]).contains("--seeds <SEEDS>"));
        assert!(err(&["s.json", "--seeds", "1..3"]).contains("--out <FILE>"));
        assert!(err(&["s.json", "--seeds", "1", "--out", "r", "--seed", "4"])
            .contains("unexpected argument '--seed'"));
        assert!(err(&["s.json", "--seeds", "1", "--out", "r", "--jobs", "0"]).contains("from 1 to 256"));
        assert!(
            err(&["s.json", "--seeds", "1", "--out", "r", "--fast"]).contains("unexpected argument '--fast'")
        );
        assert!(parse_batch_args(&args(&["s.json", "--seeds", "1", "--out", "r", "--judge"]), none)
            .unwrap()
            .judge
            .is_some());
        assert!(parse_batch_args(&args(&["s.json", "--seeds", "1", "--out", "r"]), none)
            .unwrap()
            .judge
            .is_none());
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
