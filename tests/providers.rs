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
    let server = Server::start(&[]);
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

    let (code, _, stderr) = runner(&args, None);
    assert_eq!(code, 2);
    assert!(stderr.contains("OpenAI needs an API key: set AGORA_API_KEY"), "{stderr}");
    let _ = std::fs::remove_file(events);
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
    let endpoint =
        Endpoint { provider: "custom".into(), base_url: url.into(), model: "m".into(), ..Default::default() };
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
    let sink = seen.clone();
    let m = model(&server.url, fast.clone())
        .on_text(Rc::new(move |_, text: &str| sink.borrow_mut().push(text.to_string())));
    let reply = futures::executor::block_on(m.complete(&speech())).unwrap();
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
