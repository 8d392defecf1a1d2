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
    // Seed 000's opening: each candidate's description and the specified topic, which the
    // moderator puts to them.
    assert!(out.contains("Donald Trump Description:\nDonald Trump, you are "), "{out}");
    let specified = out.split("Detailed topic:\n").nth(1).unwrap().lines().next().unwrap();
    assert!(out.contains(&format!("(Debate Moderator): {specified}")));
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
    assert!(out.contains("Handoff (text): Proponent → Opponent"));
    assert!(out.contains("Handoff (text): Opponent → Neutral"));
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

/// Runs `agora` with `input` piped to it as the person at the terminal.
fn agora_with_input(args: &[&str], input: &str) -> (i32, String, String) {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_agora"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // The runner may stop reading early (a finished run); a closed pipe is not this test's error.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_seat_at_the_terminal_bids_and_speaks_and_the_log_marks_it() {
    use agora::events::Event;
    let events = temp("seat-rail.jsonl");
    // The seat's own description first; then a bid out of range is explained and asked again;
    // every other line answers in turn.
    let input = "A senator with a plan for everything.\n11\n9\nThe rails will be built by us.\n9\nAnd they will be fast.\n9\nFaster than planes.\n";
    let (code, out, err) = agora_with_input(
        &[
            "run",
            "preset:rail-debate",
            "--turns",
            "3",
            "--seat",
            "elizabeth warren",
            "--events",
            events.to_str().unwrap(),
        ],
        input,
    );
    assert_eq!(code, 0, "{err}\n{out}");
    assert!(out.contains("That cannot be sent: the number must be from 1 to 10."), "{out}");
    assert!(out.contains("--- Elizabeth Warren (bid): the prompt ---"));
    assert!(out.contains("On the scale of 1 to 10"));
    let log = agora::events::from_json_lines(&std::fs::read_to_string(&events).unwrap()).unwrap();
    let bids: Vec<i64> = log
        .iter()
        .filter_map(|e| match e {
            Event::Bid { agent, value, .. } if agent == "Elizabeth Warren" => Some(*value),
            _ => None,
        })
        .collect();
    assert_eq!(bids, [9, 9, 9]);
    let said: Vec<&str> = log
        .iter()
        .filter_map(|e| match e {
            Event::Message { speaker, text, .. } if speaker == "Elizabeth Warren" => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(said.first(), Some(&"The rails will be built by us."));
    assert!(out.contains("(Elizabeth Warren, you): The rails will be built by us."), "{out}");
    let human = log.iter().filter(|e| matches!(e, Event::ModelCall { human: true, .. })).count();
    // The out-of-range 11 was never sent: the description, one call per bid, one per speech.
    assert_eq!(human, 1 + 3 + said.len());
    assert!(log.iter().any(|e| matches!(e, Event::CharacterDescribed { agent, description }
        if agent == "Elizabeth Warren" && description == "A senator with a plan for everything.")));
}

#[test]
fn a_seat_at_the_trading_table_is_held_to_the_rules() {
    use agora::events::Event;
    let events = temp("seat-trade.jsonl");
    let scenario = agora::presets::find("trading-game").unwrap().scenario();
    let me = scenario.agents[0].name.clone();
    let agora::scenario::Method::Negotiation(game) = &scenario.method else { panic!("a trading preset") };
    let (sell, buy) = (game.resources[0].clone(), game.resources[1].clone());
    // Nonsense, then more than anyone holds, then a trade of one, then END for every later turn.
    let mut input = format!("give me everything\nTRADE {sell} {buy} 999\nTRADE {sell} {buy} 1\n");
    input.push_str(&"END\n".repeat(40));
    let (code, out, err) = agora_with_input(
        &["run", "preset:trading-game", "--turns", "6", "--seat", &me, "--events", events.to_str().unwrap()],
        &input,
    );
    assert_eq!(code, 0, "{err}\n{out}");
    assert!(out.contains("Type TRADE <sell> <buy> <quantity>"), "{out}");
    assert!(out.contains("That cannot be sent: not allowed: the proposer has only"), "{out}");
    assert!(out.contains("You hold "));
    let log = agora::events::from_json_lines(&std::fs::read_to_string(&events).unwrap()).unwrap();
    let mine: Vec<(&str, bool)> = log
        .iter()
        .filter_map(|e| match e {
            Event::Action { player, raw, valid, .. } if *player == me => Some((raw.as_str(), *valid)),
            _ => None,
        })
        .collect();
    assert!(!mine.is_empty());
    assert!(mine[0].0.contains("\"quantity\":1"), "{:?}", mine[0]);
    assert!(mine.iter().all(|(_, valid)| *valid), "{mine:?}");
    assert!(log.iter().any(|e| matches!(e, Event::ModelCall { agent, human: true, .. } if *agent == me)));
}

#[test]
fn a_seat_at_the_terminal_with_a_time_limit_passes_its_turn_when_nobody_types() {
    use agora::events::{Event, MessageKind};
    use std::process::Stdio;
    let mut scenario = agora::presets::find("rail-debate").unwrap().scenario();
    scenario.opening.describe_characters = false;
    scenario.method = agora::scenario::Method::RoundRobin(Default::default());
    scenario.seat_timeout_s = 1;
    let me = scenario.agents[1].name.clone();
    let file = temp("timed-seat.json");
    std::fs::write(&file, scenario.to_json_pretty()).unwrap();
    let events = temp("timed-seat.jsonl");
    // The input stays open and silent, as a terminal nobody is at.
    let mut child = Command::new(env!("CARGO_BIN_EXE_agora"))
        .args([
            "run",
            file.to_str().unwrap(),
            "--turns",
            "3",
            "--seat",
            &me,
            "--events",
            events.to_str().unwrap(),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let stdin = child.stdin.take();
    let out = child.wait_with_output().unwrap();
    drop(stdin);
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stderr}\n{stdout}");
    assert!(stdout.contains("(No answer in time"), "{stdout}");
    let log = agora::events::from_json_lines(&std::fs::read_to_string(&events).unwrap()).unwrap();
    let mine: Vec<MessageKind> = log
        .iter()
        .filter_map(|e| match e {
            Event::Message { speaker, kind, .. } if *speaker == me => Some(*kind),
            _ => None,
        })
        .collect();
    assert_eq!(mine, [MessageKind::Unanswered]);
    assert!(stdout.contains("the person in the seat did not answer in time"), "{stdout}");
    let spoke = log.iter().filter(|e| matches!(e, Event::Message { kind: MessageKind::Agent, .. })).count();
    assert_eq!(spoke, 2, "the others speak before and after the seat's turn");
}

/// The commands `agora --help` lists under "Commands:", but clap's own `help`.
fn commands_listed() -> Vec<String> {
    let (code, stdout, _) = agora(&["--help"]);
    assert_eq!(code, 0);
    let section =
        stdout.split("Commands:\n").nth(1).expect("a Commands section").split("\n\n").next().unwrap();
    section
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(String::from)
        .collect()
}

#[test]
fn agora_help_lists_every_command_and_each_answers_its_own_help() {
    let listed = commands_listed();
    // Every command the runner is documented to take, and nothing else.
    let documented = [
        "run",
        "batch",
        "compare",
        "judge",
        "judge-check",
        "tournament",
        "relay",
        "import",
        "export",
        "presets",
        "completions",
    ];
    assert_eq!(listed, documented);
    for command in &listed {
        let (code, stdout, stderr) = agora(&[command, "--help"]);
        assert_eq!(code, 0, "agora {command} --help: {stderr}");
        assert!(stdout.contains(&format!("Usage: agora {command}")), "agora {command} --help: {stdout}");
    }
    // A mistake is one line naming it, status 2, and nothing on stdout.
    let (code, stdout, stderr) = agora(&["run", "preset:rail-debate", "--bogus"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(stderr.starts_with("agora: ") && stderr.contains("--bogus"), "{stderr}");
    // Asked for nothing, the runner shows what it takes, on stderr, with status 2.
    let (code, stdout, stderr) = agora(&[]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(stderr.contains("Commands:"), "{stderr}");
}

#[test]
fn every_command_that_calls_a_model_names_every_provider_the_runner_takes() {
    // The providers, read from the catalogue's source: each preset's id.
    let catalogue = include_str!("../src/catalog.rs");
    let ids: Vec<&str> = catalogue
        .lines()
        .filter(|l| l.trim_start().starts_with("ProviderPreset { id: \""))
        .filter_map(|l| l.split('"').nth(1))
        .collect();
    assert!(ids.len() >= 20, "{ids:?}");
    for command in
        [&["run", "--help"][..], &["batch", "--help"], &["tournament", "--help"], &["judge", "--help"]]
    {
        let (code, stdout, _) = agora(command);
        assert_eq!(code, 0);
        for id in &ids {
            assert!(stdout.contains(&format!("- {id}:")), "{command:?} names {id}: {stdout}");
        }
    }
    let (_, stdout, _) = agora(&["--help"]);
    for id in &ids {
        assert!(stdout.split([' ', ',', '\n']).any(|w| w == *id), "agora --help names {id}: {stdout}");
    }
}

#[test]
fn completions_are_written_for_the_shells() {
    for shell in ["bash", "zsh", "fish"] {
        let (code, stdout, stderr) = agora(&["completions", shell]);
        assert_eq!(code, 0, "{stderr}");
        assert!(stdout.contains("tournament") && stdout.contains("judge-check"), "{shell}: {stdout}");
    }
    let (code, _, stderr) = agora(&["completions", "cmd.exe"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("bash"), "the shells it knows are named: {stderr}");
}

#[test]
fn a_scenario_on_the_browsers_own_model_is_valid_and_the_terminal_plays_it_on_the_demo() {
    let mut scenario: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string("public/scenarios/rail-debate.json").unwrap()).unwrap();
    scenario["model"] = serde_json::json!({ "provider": "builtin" });
    let path = temp("builtin.json");
    std::fs::write(&path, scenario.to_string()).unwrap();
    // Valid with no model name, address or key; the terminal plays it on the demo model, as it
    // does any scenario without --model.
    let (code, out, err) = agora(&["run", path.to_str().unwrap(), "--turns", "2"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("== finished"), "{out}");
}
