//! A run as a notebook, executed: for every method, `agora run` plays a scenario against the local
//! LLM server, `agora export --notebook` writes the notebook from the recorded run, and nbclient
//! (with ipykernel, from PyPI, installed by .ci/setup) executes it against a second server. The
//! request bodies the notebook sent must equal those Agora sent, call by call in the event log's
//! order (canonical JSON), up to the run's first random draw, and the transcript it prints must
//! be `agora run`'s up to there.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use agora::events::{request_messages, Event, SelectorMatch};
use agora::scenario::{HandoffVia, Method, Scenario};
use serde_json::Value;

fn temp_dir(what: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("agora-notebook-{what}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Executes a notebook with nbclient and prints what its cells printed.
const EXECUTE: &str = r#"
import sys, nbformat, nbclient
nb = nbformat.read(sys.argv[1], as_version=4)
nbformat.validate(nb)
nbclient.NotebookClient(nb, timeout=300, kernel_name="python3").execute()
sys.stdout.write("".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "stream"))
"#;

/// Every body a server answered, in the order it received them.
fn bodies(log: &Path) -> Vec<Value> {
    std::fs::read_to_string(log).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// A body as compared: numbers as floats (Python writes 1.0 where Rust writes 1), streaming
/// switches left out (Agora streams, the notebook does not).
fn canonical(body: &Value) -> Value {
    match body {
        Value::Number(n) => serde_json::json!(n.as_f64()),
        Value::Array(a) => Value::Array(a.iter().map(canonical).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .filter(|(k, _)| *k != "stream" && *k != "stream_options")
                .map(|(k, v)| (k.clone(), canonical(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Whether `event` is a decision the run's random generator made (or may have made): where the
/// notebook's own draws can take it elsewhere.
fn drawn(event: &Event) -> bool {
    match event {
        Event::SpeakerSelected { tie, .. } => *tie,
        Event::StopDraw { probability, .. } => *probability > 0.0 && *probability < 1.0,
        Event::Handoff { fallback, .. } | Event::DirectorChoice { fallback, .. } => *fallback,
        Event::SelectorChoice { matched, .. } => *matched == SelectorMatch::Fallback,
        _ => false,
    }
}

/// The lines a transcript printed for messages: `(Speaker): text`.
fn said(printed: &str) -> Vec<String> {
    printed.lines().filter(|l| l.starts_with('(') && l.contains("): ")).map(str::to_string).collect()
}

struct Compared {
    calls: usize,
    messages: usize,
    all: bool,
}

/// Plays `scenario` with `agora run`, then its notebook, each against its own local server, and
/// compares them up to the first draw.
fn compare(name: &str, scenario: &Scenario) -> Compared {
    let dir = temp_dir(name);
    let (agora_log, notebook_log) = (dir.join("agora.jsonl"), dir.join("notebook.jsonl"));
    let events_path = dir.join("events.jsonl");
    let printed = {
        let server = common::Server::start(&["--log", agora_log.to_str().unwrap()]);
        let mut s = scenario.clone();
        s.model.provider = "custom".into();
        s.model.base_url = server.url.clone();
        s.model.name = "gpt-4o-mini".into();
        let path = dir.join("scenario.json");
        std::fs::write(&path, s.to_json_pretty()).unwrap();
        let (code, out, err) = common::agora(
            &[
                "run",
                path.to_str().unwrap(),
                "--provider",
                "custom",
                "--base-url",
                &server.url,
                "--model",
                "gpt-4o-mini",
                "--events",
                events_path.to_str().unwrap(),
            ],
            None,
            None,
        );
        assert_eq!(code, 0, "{name}: {err}");
        out
    };
    let notebook = dir.join("run.ipynb");
    let (code, _, err) = common::agora(
        &["export", events_path.to_str().unwrap(), "--notebook", "--out", notebook.to_str().unwrap()],
        None,
        None,
    );
    assert_eq!(code, 0, "{name}: {err}");
    // Exported from the recorded run, it ends with that run's transcript.
    let cells: Value = serde_json::from_str(&std::fs::read_to_string(&notebook).unwrap()).unwrap();
    let last: String = cells["cells"].as_array().unwrap().last().unwrap()["source"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert!(last.starts_with("## The run this notebook came from"), "{name}: {last}");
    let first_said = said(&printed).into_iter().next().unwrap();
    let words = first_said.split_once("): ").unwrap().1;
    assert!(last.contains(words), "{name}: the recorded transcript holds {words:?}");
    let ran = {
        let server = common::Server::start(&["--log", notebook_log.to_str().unwrap()]);
        Command::new("python3")
            .arg("-c")
            .arg(EXECUTE)
            .arg(&notebook)
            .env("OPENAI_BASE_URL", &server.url)
            .env("OPENAI_API_KEY", "sk-test")
            .env_remove("AGORA_MODEL")
            .output()
            .unwrap()
    };
    assert!(ran.status.success(), "{name}: {}", String::from_utf8_lossy(&ran.stderr));
    let notebook_printed = String::from_utf8(ran.stdout).unwrap();

    let events = agora::events::from_json_lines(&std::fs::read_to_string(&events_path).unwrap()).unwrap();
    let cut = events.iter().position(drawn).unwrap_or(events.len());
    let mut sent: Vec<Value> = bodies(&agora_log).iter().map(canonical).collect();
    let asked = bodies(&notebook_log);
    let mut calls = 0;
    for (i, event) in events[..cut].iter().enumerate() {
        let Event::ModelCall { agent, purpose, .. } = event else { continue };
        // Agora's concurrent calls reach the server in any order: the body whose messages are
        // this call's, as the event log recorded them.
        let messages = serde_json::to_value(request_messages(&events, i).unwrap()).unwrap();
        let at = sent
            .iter()
            .position(|b| b["messages"] == canonical(&messages))
            .unwrap_or_else(|| panic!("{name}: call {i} ({agent}, {purpose:?}) is not among Agora's bodies"));
        let expected = sent.remove(at);
        let got = asked.get(calls).unwrap_or_else(|| {
            panic!(
                "{name}: the notebook made {} calls, Agora {} before its first draw",
                asked.len(),
                calls + 1
            )
        });
        assert_eq!(canonical(got), expected, "{name}: call {calls} ({agent}, {}) differs", purpose.as_str());
        calls += 1;
    }
    let messages = events[..cut].iter().filter(|e| matches!(e, Event::Message { .. })).count();
    let (theirs, ours) = (said(&printed), said(&notebook_printed));
    assert!(theirs.len() >= messages, "{name}: {printed}");
    assert_eq!(
        ours.get(..messages),
        Some(&theirs[..messages]),
        "{name}: the transcripts differ\n{notebook_printed}"
    );
    assert!(
        notebook_printed.contains("== finished: "),
        "{name}: the notebook did not finish\n{notebook_printed}"
    );
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "{name}: {calls} calls and {messages} messages the same, {}",
        if cut == events.len() {
            "the whole run".to_string()
        } else {
            format!("up to the first draw (event {cut} of {})", events.len())
        }
    );
    Compared { calls, messages, all: cut == events.len() }
}

fn preset(id: &str, turns: u32) -> Scenario {
    let mut s = agora::presets::find(id).unwrap().scenario();
    s.max_turns = turns;
    s
}

fn python_ready(what: &str) -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import nbclient, nbformat, ipykernel, openai"])
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        common::skipped(
            what,
            "python3 lacks nbclient, nbformat, ipykernel or openai (.ci/setup installs them)",
        );
    }
    ok
}

#[test]
fn notebooks_send_agoras_requests_for_the_conversation_methods() {
    if !python_ready("notebook conversation methods") {
        return;
    }
    // Round robin and the director (its stop draw never stops at 0) draw nothing: the whole run.
    let mut rr = preset("rail-debate", 5);
    rr.method = Method::RoundRobin(Default::default());
    let got = compare("round-robin", &rr);
    assert!(got.all && got.calls == 4 + 5 && got.messages == 6, "{}, {}", got.calls, got.messages);
    // The same as a plain script, run by python itself.
    let dir = temp_dir("script");
    let script = dir.join("run.py");
    let (code, _, err) = common::agora(
        &["export", "preset:rail-debate", "--notebook", "--out", script.to_str().unwrap()],
        None,
        None,
    );
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&script).unwrap();
    assert!(text.starts_with("# %% [markdown]\n# # Presidential debate"), "{text}");
    let server = common::Server::start(&[]);
    let ran = Command::new("python3")
        .arg(&script)
        .env("OPENAI_BASE_URL", &server.url)
        .env("OPENAI_API_KEY", "sk-test")
        .output()
        .unwrap();
    assert!(ran.status.success(), "{}", String::from_utf8_lossy(&ran.stderr));
    let out = String::from_utf8(ran.stdout).unwrap();
    assert_eq!(said(&out).len(), 11, "the opening and ten turns\n{out}");
    assert!(out.contains("Bids:\n\tDonald Trump bid: "), "{out}");
    let _ = std::fs::remove_dir_all(&dir);

    let mut director = preset("daily-show-director", 6);
    if let Method::Director(d) = &mut director.method {
        d.stop_probability = 0.0;
    }
    let got = compare("director", &director);
    assert!(got.all && got.calls == 3 * 3 + 3 && got.messages == 7, "{}, {}", got.calls, got.messages);

    // Bidding up to its first tie: the descriptions, the topic and at least one turn's bids.
    let got = compare("bidding", &preset("rail-debate", 6));
    assert!(got.calls >= 4 + 3, "{}", got.calls);

    // The random baseline draws its first speaker: what comes before it is the opening's calls.
    let mut random = preset("rail-debate-random", 4);
    random.opening.describe_characters = true;
    random.opening.specify_topic = true;
    let got = compare("random", &random);
    assert_eq!((got.calls, got.messages), (4, 1));

    let got = compare("selector", &preset("town-hall-selector", 5));
    assert!(got.calls >= 5, "{}", got.calls);
}

#[test]
fn notebooks_send_agoras_requests_for_handoffs_and_the_trading_game() {
    if !python_ready("notebook handoff and trading game") {
        return;
    }
    for via in [HandoffVia::Text, HandoffVia::Tool, HandoffVia::Json] {
        let mut s = preset("ai-morality-handoff", 5);
        if let Method::Handoff(h) = &mut s.method {
            h.via = via;
        }
        let got = compare(&format!("handoff-{}", via.as_str()), &s);
        assert!(got.calls >= 1, "{}", got.calls);
    }
    // The trading game draws nothing: every move and every optimizer call of its five games.
    let got = compare("trading-game", &preset("trading-game", 30));
    assert!(got.all, "the trading game draws nothing");
    assert!(got.calls >= 5 * 2 + 4, "{}", got.calls);
}

#[test]
fn a_notebook_and_its_script_hold_the_same_cells_and_python_reads_every_constant_back() {
    for p in agora::presets::PRESETS {
        let s = p.scenario();
        let notebook: Value = serde_json::from_str(&agora::notebook::ipynb(&s, &[])).unwrap();
        let cells = notebook["cells"].as_array().unwrap();
        let script = agora::notebook::script(&s, &[]);
        assert_eq!(script.matches("# %%").count(), cells.len(), "{}", p.id);
        for cell in cells.iter().filter(|c| c["cell_type"] == "code") {
            let source: String =
                cell["source"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect();
            assert!(script.contains(&source), "{}: a code cell is missing from the script", p.id);
        }
    }
    // Texts that would break a careless Python literal read back exactly.
    let tricky = [
        "a\"\"\"b",
        "ends with a quote\"\nsecond",
        "back\\slash\nand \\n",
        "tab\tcr\r\nnul\u{0}",
        "\"\n\"",
        "x\n\"\"\"",
    ];
    let program: String = tricky
        .iter()
        .enumerate()
        .map(|(i, t)| {
            format!(
                "T{i} = {}\nassert T{i} == {}, T{i}\n",
                agora::python::string(t),
                serde_json::to_string(t).unwrap()
            )
        })
        .collect();
    let check = Command::new("python3").arg("-c").arg(&program).output().unwrap();
    assert!(check.status.success(), "{program}\n{}", String::from_utf8_lossy(&check.stderr));
}
