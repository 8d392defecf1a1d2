//! Real providers from the terminal, against the local LLM server (tests/e2e/llm-server.mjs, run
//! with node on 127.0.0.1): the runner's flags and key, streaming over real HTTP, retries and
//! failures.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::rc::Rc;

use agora::clock::SystemClock;
use agora::model::{ChatMessage, ChatModel, ChatRequest, Purpose};
use agora::provider::native::NativeTransport;
use agora::provider::{Endpoint, HttpModel, NetworkSettings};

struct Server {
    child: Child,
    url: String,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/e2e/llm-server-cli.mjs");
        let mut child = Command::new("node")
            .arg(script)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("node runs the local LLM server");
        let mut line = String::new();
        BufReader::new(child.stdout.as_mut().unwrap()).read_line(&mut line).unwrap();
        Server { child, url: line.trim().to_string() }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.wait();
    }
}

const SENTINEL: &str = "sk-SENTINEL-native-4b1d";

fn runner(args: &[&str], key: Option<&str>) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_agora"));
    cmd.args(args).env_remove("AGORA_API_KEY");
    if let Some(k) = key {
        cmd.env("AGORA_API_KEY", k);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn the_runner_plays_a_debate_against_a_real_server_with_the_key_from_the_environment() {
    // The server refuses any other key, so a run that finishes proves the key was sent.
    let server = Server::start(&["--key", SENTINEL]);
    let events = std::env::temp_dir().join(format!("agora-native-{}.jsonl", std::process::id()));
    let events_path = events.to_str().unwrap();
    let args = [
        "run",
        "preset:rail-debate",
        "--turns",
        "3",
        "--provider",
        "openai",
        "--base-url",
        &server.url,
        "--model",
        "test-model",
        "--events",
        events_path,
    ];
    let (code, stdout, stderr) = runner(&args, Some(SENTINEL));
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("Bids:") && stdout.contains("Reply "), "{stdout}");
    let log = std::fs::read_to_string(&events).unwrap();
    assert_eq!(log.lines().filter(|l| l.contains("\"type\":\"message\"")).count(), 4);
    assert!(!log.contains(SENTINEL) && !stdout.contains(SENTINEL) && !stderr.contains(SENTINEL));

    let (code, _, stderr) = runner(&args, Some("sk-some-other-key-0000"));
    assert_eq!(code, 1);
    assert!(stderr.contains("refused the key (401: Incorrect API key provided)"), "{stderr}");

    let (code, _, stderr) = runner(&args, None);
    assert_eq!(code, 2);
    assert!(stderr.contains("OpenAI needs an API key: set AGORA_API_KEY"), "{stderr}");
    let _ = std::fs::remove_file(events);
}

/// Everything a run of the runner wrote: the events file, the Markdown file, stdout, stderr.
fn run_against(faults: &[&str], turns: &str) -> (i32, [(&'static str, String); 4]) {
    let mut args = vec!["--key", SENTINEL];
    for f in faults {
        args.extend(["--fault", f]);
    }
    let server = Server::start(&args);
    let dir = std::env::temp_dir();
    let tag = format!("{}-{}", std::process::id(), faults.join("_"));
    let events = dir.join(format!("agora-echo-{tag}.jsonl"));
    let markdown = dir.join(format!("agora-echo-{tag}.md"));
    let args = [
        "run",
        "preset:rail-debate",
        "--turns",
        turns,
        "--provider",
        "openai",
        "--base-url",
        &server.url,
        "--model",
        "m",
        "--events",
        events.to_str().unwrap(),
        "--markdown",
        markdown.to_str().unwrap(),
    ];
    let (code, stdout, stderr) = runner(&args, Some(SENTINEL));
    let read = |p: &std::path::Path| std::fs::read_to_string(p).unwrap_or_default();
    let written =
        [("events", read(&events)), ("markdown", read(&markdown)), ("stdout", stdout), ("stderr", stderr)];
    let _ = std::fs::remove_file(events);
    let _ = std::fs::remove_file(markdown);
    (code, written)
}

fn assert_no_key(written: &[(&str, String)]) {
    for (what, text) in written {
        assert!(
            !text.contains(SENTINEL) && !text.contains("SENTINEL"),
            "the key leaked into {what}:\n{text}"
        );
    }
}

const REMOVED: &str = agora::provider::secrets::REDACTED;

#[test]
fn a_server_that_repeats_the_key_in_its_replies_leaks_it_nowhere_the_runner_writes() {
    // Every call's reply carries the key, whole and cut short.
    let (code, written) = run_against(&["echo-key-replyx40"], "2");
    assert_eq!(code, 0, "{}", written[3].1);
    assert_no_key(&written);
    let [(_, events), (_, markdown), (_, stdout), _] = &written;
    assert!(events.contains(&format!("My key is {REMOVED}, or {REMOVED} for short.")), "{events}");
    assert!(markdown.contains(REMOVED) && stdout.contains(REMOVED), "{stdout}");
}

#[test]
fn a_refusal_that_repeats_the_key_leaks_it_nowhere_the_runner_writes() {
    let (code, written) = run_against(&["echo-key-401"], "2");
    assert_eq!(code, 1);
    assert_no_key(&written);
    let stderr = &written[3].1;
    // The masked form OpenAI prints (prefix and last four characters) is kept.
    assert!(
        stderr.contains(&format!(
            "refused the key (401: Invalid API key: {REMOVED} (known to us as sk-****4b1d))"
        )),
        "{stderr}"
    );
    assert!(written[0].1.contains("\"type\":\"error\""), "the failure is in the events file");

    // A 429 whose plain-text body names the key: retried, and the retry note is clean.
    let (code, written) = run_against(&["echo-key-429"], "1");
    assert_eq!(code, 0, "{}", written[3].1);
    assert_no_key(&written);
    assert!(
        written[3].1.contains(&format!("Too many requests for key {REMOVED}; slow down, {REMOVED}")),
        "{}",
        written[3].1
    );
}

#[test]
fn a_refused_key_ends_the_run_with_a_clear_error_and_no_retry() {
    let server = Server::start(&["--fault", "401"]);
    let args = [
        "run",
        "preset:rail-debate",
        "--turns",
        "2",
        "--provider",
        "openai",
        "--base-url",
        &server.url,
        "--model",
        "m",
    ];
    let (code, _, stderr) = runner(&args, Some("bad"));
    assert_eq!(code, 1);
    assert!(stderr.contains("refused the key (401: Incorrect API key provided)"), "{stderr}");
    assert!(!stderr.contains("retrying"), "{stderr}");
}

fn model(url: &str, settings: NetworkSettings) -> HttpModel {
    keyed_model(url, settings, None)
}

fn keyed_model(url: &str, settings: NetworkSettings, key: Option<&str>) -> HttpModel {
    let endpoint = Endpoint {
        provider: "custom".into(),
        base_url: url.into(),
        model: "m".into(),
        key: key.map(String::from),
        ..Default::default()
    };
    HttpModel::new(endpoint, settings, Rc::new(NativeTransport::default()), Rc::new(SystemClock::default()))
        .unwrap()
}

fn speech() -> ChatRequest {
    ChatRequest::new(
        "Ann",
        Purpose::Speak,
        vec![ChatMessage::system("Be brief."), ChatMessage::user("Ann: ")],
    )
}

#[test]
fn streams_over_real_http_survive_faults() {
    let fast = NetworkSettings { backoff_base_ms: 10, backoff_max_ms: 50, ..Default::default() };
    // A malformed chunk, then a 500, then a 429: each retried, then the whole reply.
    let server = Server::start(&["--fault", "malformed-chunk", "--fault", "500", "--fault", "429"]);
    let seen = Rc::new(std::cell::RefCell::new(Vec::new()));
    let retried = Rc::new(std::cell::RefCell::new(Vec::new()));
    let (sink, retry_sink) = (seen.clone(), retried.clone());
    let m = model(&server.url, fast.clone())
        .on_text(Rc::new(move |_, text: &str| sink.borrow_mut().push(text.to_string())))
        .on_retry(Rc::new(move |_, what: &str, _| retry_sink.borrow_mut().push(what.to_string())));
    let reply = futures::executor::block_on(m.complete(&speech())).unwrap();
    // Each fault cost one retry, in order: none was skipped over.
    let retried = retried.borrow();
    assert_eq!(retried.len(), 3, "{retried:?}");
    assert!(
        retried[0].contains("sent something unreadable: a chunk of the stream is not JSON"),
        "{}",
        retried[0]
    );
    assert!(retried[1].contains("server error (500: Internal server error)"), "{}", retried[1]);
    assert!(retried[2].contains("429"), "{}", retried[2]);
    assert!(reply.content.ends_with("ünïcode included ✓."), "{}", reply.content);
    assert!(!reply.incomplete);
    assert!(reply.usage.completion_tokens > 0);
    assert!(seen.borrow().len() > 3, "text arrived in pieces");
    assert_eq!(seen.borrow().last().unwrap(), &reply.content);

    // A stream cut off after some text keeps it, marked incomplete.
    let server = Server::start(&["--fault", "drop-stream"]);
    let reply = futures::executor::block_on(model(&server.url, fast.clone()).complete(&speech())).unwrap();
    assert!(reply.incomplete && reply.content.starts_with("Reply "), "{reply:?}");

    // An error event inside a 200 stream, every time: the retries run out and it is reported.
    let server = Server::start(&["--fault", "error-eventx9"]);
    let e = futures::executor::block_on(
        model(&server.url, NetworkSettings { max_retries: 1, ..fast.clone() }).complete(&speech()),
    )
    .unwrap_err();
    assert!(e.to_string().contains("error in the middle of its reply: The model is overloaded"), "{e}");

    // A model that refuses tools: asked again without them, and the user is told.
    let server = Server::start(&["--fault", "no-tools"]);
    let told = Rc::new(std::cell::RefCell::new(String::new()));
    let sink = told.clone();
    let m = model(&server.url, fast.clone())
        .on_notice(Rc::new(move |m: &str| *sink.borrow_mut() = m.to_string()));
    let mut handoff = speech();
    handoff.purpose = Purpose::Handoff;
    handoff.tools = vec![agora::model::ToolSpec {
        name: "handoff".into(),
        description: "d".into(),
        parameters: serde_json::json!({"type": "object"}),
    }];
    let reply = futures::executor::block_on(m.complete(&handoff)).unwrap();
    assert!(reply.tool_calls.is_empty() && reply.content.starts_with("Reply "), "{reply:?}");
    assert!(
        told.borrow().contains("refused tool calls for this model (tools is not supported for this model)"),
        "{}",
        told.borrow()
    );
    assert!(told.borrow().contains("falls back as the seed does"));

    // Nothing listening: no status at all.
    let e =
        futures::executor::block_on(model("http://127.0.0.1:9/v1", fast).complete(&speech())).unwrap_err();
    assert!(e.to_string().contains("No answer from http://127.0.0.1:9/v1"), "{e}");
}

#[test]
fn streamed_replies_and_stream_errors_that_repeat_the_key_come_out_clean() {
    let fast =
        NetworkSettings { backoff_base_ms: 10, backoff_max_ms: 50, max_retries: 1, ..Default::default() };
    let texts = Rc::new(std::cell::RefCell::new(Vec::new()));
    let retries = Rc::new(std::cell::RefCell::new(Vec::new()));
    let (t, r) = (texts.clone(), retries.clone());
    let server = Server::start(&["--fault", "echo-key-streamx2", "--fault", "echo-key-reply"]);
    let m = keyed_model(&server.url, fast, Some(SENTINEL))
        .with_secrets(["sk-a-remembered-key-99", "x"])
        .on_text(Rc::new(move |_, text: &str| t.borrow_mut().push(text.to_string())))
        .on_retry(Rc::new(move |_, what: &str, _| r.borrow_mut().push(what.to_string())));
    // An error event naming the key, twice: the retry note and the final error are clean.
    let e = futures::executor::block_on(m.complete(&speech())).unwrap_err().to_string();
    assert!(e.contains(&format!("error in the middle of its reply: Key {REMOVED} is over its limit")), "{e}");
    assert_eq!(retries.borrow().len(), 1);
    assert!(retries.borrow()[0].contains(REMOVED) && !retries.borrow()[0].contains(SENTINEL));
    // A streamed reply that repeats the key: neither the text shown as it arrives nor the reply holds it.
    let reply = futures::executor::block_on(m.complete(&speech())).unwrap();
    assert!(
        reply.content.ends_with(&format!("My key is {REMOVED}, or {REMOVED} for short.")),
        "{}",
        reply.content
    );
    assert!(texts.borrow().len() > 3);
    assert!(texts.borrow().iter().all(|t| !t.contains(SENTINEL)), "{:?}", texts.borrow());
}

#[test]
fn a_speech_whose_stream_breaks_off_is_recorded_as_incomplete_in_the_event_log() {
    use agora::events::{Event, MessageKind};
    // The opening needs no call; turn 1's three bids answer, then the speech's stream is cut.
    let server = Server::start(&["--fault", "okx3", "--fault", "drop-stream"]);
    let mut scenario = agora::presets::find("rail-debate").unwrap().scenario();
    scenario.model.provider = "custom".into();
    scenario.model.base_url = server.url.clone();
    scenario.model.name = "m".into();
    let m = model(&server.url, NetworkSettings::default());
    let mut run = agora::engine::Run::new(scenario, Rc::new(m), Rc::new(SystemClock::default())).unwrap();
    futures::executor::block_on(run.step());
    futures::executor::block_on(run.step());
    let speech = run
        .events()
        .iter()
        .find_map(|e| match e {
            Event::ModelCall { purpose: Purpose::Speak, raw, incomplete, .. } => {
                Some((raw.clone(), *incomplete))
            }
            _ => None,
        })
        .expect("the speech was asked for");
    assert!(speech.1 && speech.0.starts_with("Reply "), "{speech:?}");
    let message = run.events().iter().rev().find_map(|e| match e {
        Event::Message { kind, text, .. } => Some((*kind, text.clone())),
        _ => None,
    });
    assert_eq!(message, Some((MessageKind::Incomplete, speech.0)));
}
