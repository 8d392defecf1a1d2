//! `agora batch` as a researcher runs it: the real binary, real files, the local LLM server on
//! 127.0.0.1, shards split the way schedulers' array jobs split them, and a real Slurm when this
//! machine has one.

use std::path::{Path, PathBuf};
use std::process::Command;

use agora::batch::{read_csv, RunFigures, Table};
use agora::events::from_json_lines;

mod common;
use common::Server;

fn agora(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_agora"));
    cmd.args(args);
    for var in
        ["SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_COUNT", "JOB_COMPLETION_INDEX"]
    {
        cmd.env_remove(var);
    }
    cmd.envs(env.iter().copied()).env("AGORA_API_KEY", "sk-test");
    let out = cmd.output().expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("agora-batch-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn table(p: &Path) -> Table {
    read_csv(&std::fs::read_to_string(p).unwrap()).unwrap()
}

/// Every row equals the figures read again from that run's own event log.
fn rows_agree_with_logs(table: &Table, events: &Path) {
    for row in &table.rows {
        let log = std::fs::read_to_string(events.join(format!("seed-{}.jsonl", row.seed))).unwrap();
        let events = from_json_lines(&log).unwrap();
        assert_eq!(row, &RunFigures::of(row.seed, &events), "seed {}", row.seed);
    }
}

#[test]
fn each_row_is_what_its_runs_event_log_says() {
    let d = dir("rows");
    let (out, events) = (d.join("r.csv"), d.join("events"));
    let (code, summary, err) = agora(
        &[
            "batch",
            "preset:rail-debate",
            "--seeds",
            "1..6",
            "--turns",
            "5",
            "--jobs",
            "3",
            "--out",
            path(&out),
            "--events-dir",
            path(&events),
        ],
        &[],
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("6 runs in "), "{err}");
    let t = table(&out);
    assert_eq!(t.rows.iter().map(|r| r.seed).collect::<Vec<_>>(), (1..=6).collect::<Vec<_>>());
    assert!(t.rows.iter().all(|r| r.finish == "turn_limit" && r.turns == 5));
    rows_agree_with_logs(&t, &events);
    // A batch's run is the run `agora run` plays for that seed.
    let single = d.join("single.jsonl");
    let (code, _, err) =
        agora(&["run", "preset:rail-debate", "--seed", "4", "--turns", "5", "--events", path(&single)], &[]);
    assert_eq!(code, 0, "{err}");
    let log = from_json_lines(&std::fs::read_to_string(&single).unwrap()).unwrap();
    assert_eq!(RunFigures::of(4, &log), t.rows[3]);
    // The printed summary is the summary of the file's rows.
    let expected = agora::batch::Summary::of(&t).lines().join("\n");
    assert_eq!(summary.trim_end(), expected);
}

#[test]
fn shards_from_array_jobs_merge_into_the_one_machine_csv() {
    let d = dir("shards");
    let whole = d.join("whole.csv");
    let args = |out: &Path| -> Vec<String> {
        ["batch", "preset:daily-show-director", "--seeds", "1..10", "--out", path(out)]
            .iter()
            .map(|s| s.to_string())
            .collect()
    };
    let run = |out: &Path, extra: &[&str], env: &[(&str, &str)]| {
        let mut a = args(out);
        a.extend(extra.iter().map(|s| s.to_string()));
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let (code, _, err) = agora(&a, env);
        assert_eq!(code, 0, "{err}");
    };
    run(&whole, &["--jobs", "2"], &[]);
    // Slurm's array, counted from 1 as `--array=1-4` does; a Kubernetes Indexed Job with its count.
    let mut parts = Vec::new();
    for k in 0..4u32 {
        let part = d.join(format!("slurm-{k}.csv"));
        let (id, count) = ((k + 1).to_string(), "4".to_string());
        let env = [
            ("SLURM_ARRAY_TASK_ID", id.as_str()),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_COUNT", count.as_str()),
        ];
        run(&part, &["--shard", "auto"], &env);
        assert_eq!(table(&part).rows.len(), if k < 2 { 3 } else { 2 });
        parts.push(part);
    }
    let merged = d.join("merged.csv");
    let mut merge: Vec<&str> = vec!["batch", "merge"];
    merge.extend(parts.iter().map(|p| path(p)));
    merge.extend(["--out", path(&merged)]);
    let (code, summary, err) = agora(&merge, &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&merged).unwrap(), std::fs::read_to_string(&whole).unwrap());
    assert_eq!(summary.trim_end(), agora::batch::Summary::of(&table(&whole)).lines().join("\n"));

    let mut k8s = Vec::new();
    for k in 0..3 {
        let part = d.join(format!("k8s-{k}.csv"));
        run(&part, &["--shard", "auto/3"], &[("JOB_COMPLETION_INDEX", &k.to_string())]);
        k8s.push(part);
    }
    let (code, _, err) =
        agora(&["batch", "merge", path(&k8s[0]), path(&k8s[2]), "--out", path(&d.join("short.csv"))], &[]);
    assert_eq!(code, 2);
    assert!(err.contains("3 of the batch's seeds (1..10) are missing: 2, 5, 8"), "{err}");
    assert!(!d.join("short.csv").exists(), "a refused merge writes nothing");
    let (code, _, err) =
        agora(&["batch", "merge", path(&k8s[0]), path(&parts[0]), "--out", path(&merged)], &[]);
    assert_eq!(code, 2);
    assert!(err.contains("seed 1 is in both"), "{err}");
    let mut other = args(&d.join("other.csv"));
    other.extend(["--turns", "3", "--shard", "1/3"].map(String::from));
    let other: Vec<&str> = other.iter().map(String::as_str).collect();
    assert_eq!(agora(&other, &[]).0, 0);
    let (code, _, err) = agora(
        &["batch", "merge", path(&k8s[0]), path(&d.join("other.csv")), path(&k8s[2]), "--out", path(&merged)],
        &[],
    );
    assert_eq!(code, 2);
    assert!(err.contains("comes from another batch"), "{err}");
}

/// A two-turn batch against the local LLM server, with its event logs; (status, summary, stderr).
fn batch_on(
    server: &Server,
    preset: &str,
    seeds: &str,
    jobs: &str,
    out: &Path,
    events: &Path,
) -> (i32, String, String) {
    let preset = format!("preset:{preset}");
    let flags =
        ["--seeds", seeds, "--turns", "2", "--jobs", jobs, "--provider", "custom", "--model", "test-model"];
    let mut args = vec![
        "batch",
        preset.as_str(),
        "--base-url",
        &server.url,
        "--out",
        path(out),
        "--events-dir",
        path(events),
    ];
    args.extend(flags);
    agora(&args, &[])
}

#[test]
fn a_failed_run_is_a_row_with_its_error_and_the_batch_goes_on() {
    // The first call is refused for lack of credit, which no retry mends.
    let server = Server::start(&["--fault", "402"]);
    let d = dir("failed");
    let (out, events) = (d.join("r.csv"), d.join("events"));
    let (code, summary, err) = batch_on(&server, "rail-debate", "1..3", "1", &out, &events);
    assert_eq!(code, 1, "a run ended in an error: {err}");
    let t = table(&out);
    assert_eq!(t.rows.len(), 3);
    assert_eq!(t.rows[0].finish, "error");
    assert!(t.rows[0].error.contains("Insufficient credits"), "{:?}", t.rows[0].error);
    assert!(t.rows[1..].iter().all(|r| r.finish == "turn_limit" && r.error.is_empty()));
    assert!(summary.starts_with("3 runs: 1 error, 2 turn_limit"), "{summary}");
    rows_agree_with_logs(&t, &events);
}

#[test]
fn calls_to_a_provider_in_parallel_jobs_agree_with_the_logs() {
    let server = Server::start(&["--latency", "200"]);
    let d = dir("provider");
    let (out, events) = (d.join("r.csv"), d.join("events"));
    let (code, _, err) = batch_on(&server, "town-hall-selector", "1..4", "4", &out, &events);
    assert_eq!(code, 0, "{err}");
    let t = table(&out);
    assert_eq!(t.rows.len(), 4);
    assert!(t.rows.iter().all(|r| r.calls > 0 && r.speech_tokens > 0), "{:?}", t.rows);
    rows_agree_with_logs(&t, &events);
}

#[test]
fn an_interrupted_batch_keeps_every_finished_row_whole() {
    let d = dir("interrupted");
    let out = d.join("r.csv");
    let mut child = Command::new(env!("CARGO_BIN_EXE_agora"))
        .args([
            "batch",
            "preset:rail-debate",
            "--seeds",
            "1..40",
            "--turns",
            "3",
            "--latency-ms",
            "20",
            "--jobs",
            "2",
            "--out",
            path(&out),
        ])
        .stderr(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait for at least two finished rows, then press Ctrl-C.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::fs::read_to_string(&out).map(|t| t.lines().count()).unwrap_or(0) < 3 {
        assert!(std::time::Instant::now() < deadline, "no row was written");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    let status = child.wait().unwrap();
    assert!(!status.success(), "the batch was interrupted before its end");
    let t = table(&out);
    assert!(t.rows.len() >= 2 && t.rows.len() < 40, "{} rows", t.rows.len());
    assert!(t.rows.iter().all(|r| r.finish == "turn_limit" && r.turns == 3));
}

#[test]
fn shards_run_as_a_slurm_array_merge_into_the_one_machine_csv() {
    let d = dir("slurm");
    // Without Slurm the simulated arrays above still check the sharding; the test command counts
    // this as skipped, and says why, on its last lines.
    let Some(cluster) = common::Cluster::start(&d.join("cluster"), "the real Slurm array") else { return };
    let conf = cluster.conf.clone();
    let whole = d.join("whole.csv");
    let batch = ["batch", "preset:arms-debate", "--seeds", "1..14", "--turns", "4"];
    let mut one = batch.to_vec();
    one.extend(["--out", path(&whole)]);
    assert_eq!(agora(&one, &[]).0, 0);
    let job = d.join("job.sh");
    std::fs::write(
        &job,
        format!(
            "#!/bin/bash\nexec {} {} --shard auto --out {}/shard-$SLURM_ARRAY_TASK_ID.csv\n",
            env!("CARGO_BIN_EXE_agora"),
            batch.join(" "),
            path(&d)
        ),
    )
    .unwrap();
    let out = Command::new("sbatch")
        .args(["--array=0-3", "--wait", &format!("--output={}/task-%a.out", path(&d)), path(&job)])
        .env("SLURM_CONF", &conf)
        .output()
        .unwrap();
    assert!(out.status.success(), "sbatch: {}", String::from_utf8_lossy(&out.stderr));
    let shards: Vec<PathBuf> = (0..4).map(|k| d.join(format!("shard-{k}.csv"))).collect();
    for k in 0..shards.len() {
        let log = std::fs::read_to_string(d.join(format!("task-{k}.out"))).unwrap_or_default();
        assert!(log.contains(&format!("shard {k} of 4")), "task {k} said: {log}");
    }
    let merged = d.join("merged.csv");
    let mut merge = vec!["batch", "merge"];
    merge.extend(shards.iter().map(|p| path(p)));
    merge.extend(["--out", path(&merged)]);
    let (code, _, err) = agora(&merge, &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&merged).unwrap(), std::fs::read_to_string(&whole).unwrap());
    drop(cluster);
}

#[test]
fn agora_compare_reads_each_columns_figures_from_a_saved_comparison() {
    use agora::compare::{to_json, Comparison};
    let d = dir("compare");
    let base = agora::presets::find("rail-debate").unwrap().scenario();
    let comparison = Comparison::new("seed", "3, 8").unwrap();
    let mut runs = Vec::new();
    for (i, column) in comparison.columns(&base).unwrap().iter().enumerate() {
        let scenario = d.join(format!("column{i}.json"));
        let events = d.join(format!("column{i}.jsonl"));
        std::fs::write(&scenario, serde_json::to_string(&column.scenario).unwrap()).unwrap();
        let (code, _, err) = agora(&["run", path(&scenario), "--events", path(&events)], &[]);
        assert_eq!(code, 0, "{err}");
        let events = from_json_lines(&std::fs::read_to_string(&events).unwrap()).unwrap();
        runs.push(Some(agora::export::to_json_compact(&column.scenario, &events)));
    }
    let file = d.join("comparison.json");
    std::fs::write(&file, to_json(&base, "seed", &comparison.values, &runs)).unwrap();
    let (code, compared, err) = agora(&["compare", path(&file)], &[]);
    assert_eq!(code, 0, "{err}");
    // The same runs played by `agora batch`: each column's figures are its seed's row.
    let out = d.join("batch.csv");
    let (code, _, err) = agora(&["batch", "preset:rail-debate", "--seeds", "3,8", "--out", path(&out)], &[]);
    assert_eq!(code, 0, "{err}");
    let batch = std::fs::read_to_string(&out).unwrap();
    let cells = |line: &str, skip: usize| line.split(',').skip(skip).map(String::from).collect::<Vec<_>>();
    let compared: Vec<&str> = compared.lines().collect();
    let batch: Vec<&str> = batch.lines().collect();
    assert_eq!(compared.len(), 3);
    assert!(compared[1].starts_with("seed: 3,3,turn_limit,"), "{}", compared[1]);
    assert_eq!(cells(compared[0], 1), cells(batch[0], 2), "the header");
    for i in 1..3 {
        // Each batch row starts with the fingerprint and the seed list (quoted: it has a comma).
        let row = batch[i].split_once(",\"3,8\",").unwrap().1;
        assert_eq!(cells(compared[i], 1), cells(row, 0), "row {i}");
    }
    // A file that is not a comparison is refused with what is wrong, and the status says so.
    std::fs::write(&file, "{\"format\":\"agora-run\",\"version\":1}").unwrap();
    let (code, _, err) = agora(&["compare", path(&file)], &[]);
    assert_eq!(code, 2);
    assert!(err.contains("not an Agora comparison (format \"agora-run\")"), "{err}");
}

/// Ctrl-C in the middle of a batch, then the same command again: without --resume the file is
/// refused (both ways out named); with it, the whole rows are kept, the rest played, and the
/// file equals an uninterrupted batch's byte for byte.
#[test]
fn an_interrupted_batch_resumes_into_the_file_an_uninterrupted_one_writes() {
    let d = dir("resume");
    let (whole, cut) = (d.join("whole.csv"), d.join("cut.csv"));
    let batch = ["batch", "preset:rail-debate", "--seeds", "1..24", "--turns", "6", "--latency-ms", "15"];
    let with_out = |out: &Path, more: &[&'static str]| {
        let mut a: Vec<String> = batch.iter().map(|s| s.to_string()).collect();
        a.extend(["--out".to_string(), path(out).to_string()]);
        a.extend(more.iter().map(|s| s.to_string()));
        a
    };
    let run = |a: &[String]| agora(&a.iter().map(String::as_str).collect::<Vec<_>>(), &[]);
    assert_eq!(run(&with_out(&whole, &[])).0, 0);

    let mut child = Command::new(env!("CARGO_BIN_EXE_agora"))
        .args(with_out(&cut, &[]))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let rows = || std::fs::read_to_string(&cut).map(|t| t.lines().count().saturating_sub(1)).unwrap_or(0);
    let waited = std::time::Instant::now();
    while rows() < 4 {
        assert!(waited.elapsed().as_secs() < 60, "the batch wrote no rows");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let killed = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    child.wait().unwrap();
    let left = rows();
    assert!((4..24).contains(&left), "interrupted after {left} rows");

    let (code, _, err) = run(&with_out(&cut, &[]));
    assert_eq!(code, 2);
    assert!(
        err.contains("already holds rows: add --resume") && err.contains("or give another --out"),
        "{err}"
    );
    assert_eq!(rows(), left, "a refused batch leaves the file as it was");

    let (code, _, err) = run(&with_out(&cut, &["--resume"]));
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(&format!("{} runs in", 24 - left)) && err.contains(&format!("{left} kept from before")),
        "{err}"
    );
    assert_eq!(std::fs::read(&cut).unwrap(), std::fs::read(&whole).unwrap(), "byte for byte");

    // A file a batch left with its header alone is named as such, and resumes into the whole.
    let text = std::fs::read_to_string(&whole).unwrap();
    std::fs::write(&cut, &text[..text.find('\n').unwrap() + 1]).unwrap();
    let (code, _, err) = run(&with_out(&cut, &[]));
    assert_eq!(code, 2);
    assert!(
        err.contains("holds a batch's header and no rows yet: add --resume")
            && err.contains("or give another --out"),
        "{err}"
    );
    assert_eq!(run(&with_out(&cut, &["--resume"])).0, 0);
    assert_eq!(std::fs::read(&cut).unwrap(), std::fs::read(&whole).unwrap(), "byte for byte");

    // A row cut short by the interruption is played again; a file of another batch is refused.
    std::fs::write(&cut, &text[..text.len() - 7]).unwrap();
    assert_eq!(run(&with_out(&cut, &["--resume"])).0, 0);
    assert_eq!(std::fs::read(&cut).unwrap(), std::fs::read(&whole).unwrap());
    let mut other = with_out(&cut, &["--resume"]);
    other[3] = "1..30".into();
    let (code, _, err) = run(&other);
    assert_eq!(code, 2);
    assert!(err.contains("its rows are of another batch"), "{err}");

    // A file written before the text statistics resumes in its own columns: the whole batch
    // without them, byte for byte.
    let without_text = |csv: &str| -> String {
        let text_column = |c: &str| {
            ["repetition:", "responsiveness:", "coverage:", "length:"].iter().any(|p| c.starts_with(p))
        };
        let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
        csv.lines()
            .map(|l| {
                let cells: Vec<&str> = l.split(',').collect();
                assert_eq!(cells.len(), header.len(), "no quoted commas in these rows");
                let kept: Vec<&str> =
                    cells.iter().zip(&header).filter(|(_, h)| !text_column(h)).map(|(c, _)| *c).collect();
                kept.join(",") + "\n"
            })
            .collect()
    };
    let old_whole = without_text(&text);
    assert!(old_whole.len() < text.len() && !old_whole.contains("repetition:"));
    let cut_at = old_whole.match_indices('\n').nth(5).unwrap().0 + 1;
    std::fs::write(&cut, &old_whole[..cut_at]).unwrap();
    let (code, _, err) = run(&with_out(&cut, &["--resume"]));
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&cut).unwrap(), old_whole);
}

/// `--resume` on the local LLM server: a file cut after three rows and part of a fourth ends as
/// the uninterrupted batch's, byte for byte.
#[test]
fn a_batch_on_the_llm_server_resumes_into_the_uninterrupted_file() {
    let server = Server::start(&[]);
    let d = dir("resume-llm");
    let (whole, cut, events) = (d.join("whole.csv"), d.join("cut.csv"), d.join("events"));
    let (code, _, err) = batch_on(&server, "rail-debate", "1..8", "2", &whole, &events);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&whole).unwrap();
    let fourth = text.match_indices('\n').nth(4).unwrap().0;
    std::fs::write(&cut, &text[..fourth - 5]).unwrap();
    let (code, _, err) = batch_on(&server, "rail-debate", "1..8", "2", &cut, &events);
    assert_eq!(code, 2, "refused without --resume: {err}");
    let preset = "preset:rail-debate".to_string();
    let mut args = vec!["batch", preset.as_str(), "--base-url", &server.url, "--out", path(&cut), "--resume"];
    args.extend([
        "--seeds",
        "1..8",
        "--turns",
        "2",
        "--jobs",
        "2",
        "--provider",
        "custom",
        "--model",
        "test-model",
    ]);
    let (code, _, err) = agora(&args, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("5 runs in") && err.contains("3 kept from before"), "{err}");
    assert_eq!(std::fs::read(&cut).unwrap(), std::fs::read(&whole).unwrap(), "byte for byte");
}
