//! The terminal runner as a user runs it: the real binary, real files.

use std::process::Command;

fn agora(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_agora")).args(args).output().expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("agora-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn a_bidding_run_prints_like_the_notebook_and_writes_the_event_log() {
    let events = temp("rail.jsonl");
    let markdown = temp("rail.md");
    let (code, out, err) = agora(&[
        "run",
        "public/scenarios/rail-debate.json",
        "--turns",
        "3",
        "--events",
        events.to_str().unwrap(),
        "--markdown",
        markdown.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("== Presidential debate"), "{out}");
    assert!(out.contains("(Debate Moderator): Candidates, the problem before you"));
    assert_eq!(out.matches("Bids:").count(), 3);
    assert_eq!(out.matches("\tDonald Trump bid: ").count(), 3);
    assert_eq!(out.matches("Selected: ").count(), 3);
    assert!(out.trim_end().ends_with("== finished: turn_limit"));
    let log = std::fs::read_to_string(&events).unwrap();
    let parsed = agora::events::from_json_lines(&log).unwrap();
    assert!(matches!(parsed.first(), Some(agora::events::Event::RunStarted { seed: 7, .. })));
    assert_eq!(parsed.iter().filter(|e| matches!(e, agora::events::Event::Bid { .. })).count(), 9);
    let md = std::fs::read_to_string(&markdown).unwrap();
    assert_eq!(md, agora::export::to_markdown(&parsed), "the Markdown is the transcript of the logged run");
}

#[test]
fn the_seed_flag_changes_the_run_and_the_same_seed_repeats_it() {
    let a = agora(&["run", "preset:daily-show-director", "--seed", "21", "--turns", "6"]);
    let b = agora(&["run", "preset:daily-show-director", "--seed", "21", "--turns", "6"]);
    let c = agora(&["run", "preset:daily-show-director", "--seed", "22", "--turns", "6"]);
    assert_eq!(a.1, b.1);
    assert_ne!(a.1, c.1);
    assert!(a.1.contains("\tStop draw: drew 0."));
}

#[test]
fn a_script_replays_and_running_out_is_a_clear_error() {
    let script = temp("script.json");
    std::fs::write(
        &script,
        r#"[{"agent":"Proponent","purpose":"handoff","content":"Proponent: Yes. Transition to opponent."},
            {"agent":"Opponent","purpose":"handoff","content":"Opponent: No. Transition to neutral."}]"#,
    )
    .unwrap();
    let model = format!("script:{}", script.display());
    let (code, out, err) = agora(&["run", "preset:ai-morality-handoff", "--model", &model, "--turns", "3"]);
    assert_eq!(code, 1);
    assert!(out.contains("[text handoff] Proponent -> Opponent"));
    assert!(out.contains("[text handoff] Opponent -> Neutral"));
    assert!(err.contains("no response left for agent \"Neutral\" and purpose \"handoff\""), "{err}");
}

#[test]
fn bad_files_and_flags_exit_non_zero_with_one_line() {
    let broken = temp("broken.json");
    std::fs::write(&broken, "{\"version\": 1, \"title\": ").unwrap();
    let cases: [(Vec<&str>, &str); 5] = [
        (vec!["run", "/no/such/file.json"], "cannot read /no/such/file.json"),
        (vec!["run", broken.to_str().unwrap()], "not a valid scenario"),
        (vec!["run", "preset:rail-debate", "--turns", "many"], "--turns needs a whole number"),
        (
            vec!["run", "preset:rail-debate", "--model", "script:/no/such/script.json"],
            "cannot read /no/such/script.json",
        ),
        (vec!["dance"], "unknown command \"dance\""),
    ];
    for (args, message) in cases {
        let (code, out, err) = agora(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty(), "{args:?}: {out}");
        let first = err.lines().next().unwrap_or_default();
        assert!(first.starts_with("agora: ") && first.contains(message), "{args:?}: {err}");
    }
}

#[test]
fn the_selector_prints_who_it_named_and_from_whom_and_its_fallbacks() {
    let script = temp("selector.json");
    std::fs::write(
        &script,
        r#"[{"agent":"Selector","purpose":"selector","content":"jordan"},
            {"agent":"Jordan","purpose":"speak","content":"Four days!"},
            {"agent":"Selector","purpose":"selector","content":"Jordan"},
            {"agent":"Selector","purpose":"selector","content":""},
            {"agent":"Selector","purpose":"selector","content":"Someone"},
            {"agent":"Jordan","purpose":"speak","content":"Again, four days!"}]"#,
    )
    .unwrap();
    let model = format!("script:{}", script.display());
    let (code, out, _) = agora(&["run", "preset:town-hall-selector", "--model", &model, "--turns", "2"]);
    assert_eq!(code, 0);
    assert!(
        out.contains(
            "\tSelector named: Jordan (from Principal Okafor, Ms. Lindqvist, Mr. Alvarez, Jordan) (named, case or spacing aside)\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("\tSelector named: Jordan (from Principal Okafor, Ms. Lindqvist, Mr. Alvarez) (fallback: no candidate named in 3 attempts; last reply \"Someone\")"),
        "{out}"
    );
    assert!(out.contains("(Jordan): Again, four days!"));
}
