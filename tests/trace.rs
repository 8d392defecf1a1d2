//! A run as an OpenTelemetry trace (`agora::trace`): every model call is a `chat` span with the
//! call's tokens, every decision is an event of its turn, content only when asked for, and the
//! file `agora run --otlp` writes reads as an `ExportTraceServiceRequest` with OpenTelemetry's
//! own protobuf definitions (PyPI's opentelemetry-proto, installed by .ci/setup).

mod common;

use std::process::Command;

use agora::events::Event;
use agora::trace::{otlp_json, TraceOptions};
use serde_json::Value;

fn preset(id: &str) -> agora::scenario::Scenario {
    agora::presets::find(id).unwrap().scenario()
}

fn attr<'a>(span: &'a Value, key: &str) -> Option<&'a Value> {
    span["attributes"].as_array()?.iter().find(|a| a["key"] == key).map(|a| &a["value"])
}

fn int(span: &Value, key: &str) -> i64 {
    attr(span, key).and_then(|v| v["intValue"].as_str()).and_then(|s| s.parse().ok()).unwrap_or(-1)
}

fn text<'a>(span: &'a Value, key: &str) -> &'a str {
    attr(span, key).and_then(|v| v["stringValue"].as_str()).unwrap_or("")
}

fn spans_of(events: &[Event], content: bool) -> Vec<Value> {
    let json =
        otlp_json(&[events], &TraceOptions { start_unix_nanos: 1_700_000_000_000_000_000, content }).unwrap();
    let v: Value = serde_json::from_str(&json).unwrap();
    v["resourceSpans"][0]["scopeSpans"][0]["spans"].as_array().unwrap().clone()
}

#[test]
fn every_call_is_a_chat_span_with_its_tokens_and_every_decision_an_event() {
    for id in
        ["rail-debate", "daily-show-director", "ai-morality-handoff", "town-hall-selector", "trading-game"]
    {
        let events = common::run_demo(preset(id));
        let spans = spans_of(&events, false);
        // One trace, one root, every other span's parent in it.
        let trace = spans[0]["traceId"].as_str().unwrap();
        assert_eq!(trace.len(), 32);
        assert!(spans.iter().all(|s| s["traceId"] == trace));
        let ids: Vec<&str> = spans.iter().map(|s| s["spanId"].as_str().unwrap()).collect();
        assert!(ids.iter().all(|i| i.len() == 16));
        assert_eq!(spans.iter().filter(|s| s.get("parentSpanId").is_none()).count(), 1, "{id}: one root");
        for s in &spans[1..] {
            assert!(ids.contains(&s["parentSpanId"].as_str().unwrap()), "{id}: {}", s["name"]);
        }
        // A chat span per call, in order, with the call's agent and tokens.
        let calls: Vec<&Event> = events.iter().filter(|e| matches!(e, Event::ModelCall { .. })).collect();
        let chats: Vec<&Value> =
            spans.iter().filter(|s| text(s, "gen_ai.operation.name") == "chat").collect();
        assert_eq!(chats.len(), calls.len(), "{id}");
        for (call, span) in calls.iter().zip(&chats) {
            let Event::ModelCall { agent, usage, purpose, .. } = call else { unreachable!() };
            assert_eq!(span["name"], "chat demo");
            assert_eq!(text(span, "gen_ai.agent.name"), agent);
            assert_eq!(text(span, "gen_ai.provider.name"), "agora.demo");
            assert_eq!(text(span, "agora.purpose"), purpose.as_str());
            assert_eq!(int(span, "gen_ai.usage.input_tokens"), i64::from(usage.prompt_tokens));
            assert_eq!(int(span, "gen_ai.usage.output_tokens"), i64::from(usage.completion_tokens));
            assert!(attr(span, "gen_ai.input.messages").is_none(), "no content unless asked");
        }
        // Each decision of the log is an event, under the turn it was made in.
        let decisions = |name: &str| -> Vec<&Value> {
            spans.iter().flat_map(|s| s["events"].as_array().unwrap()).filter(|e| e["name"] == name).collect()
        };
        let count = |f: fn(&Event) -> bool| events.iter().filter(|e| f(e)).count();
        assert_eq!(decisions("agora.bid").len(), count(|e| matches!(e, Event::Bid { .. })), "{id}");
        assert_eq!(
            decisions("agora.stop_draw").len(),
            count(|e| matches!(e, Event::StopDraw { .. })),
            "{id}"
        );
        assert_eq!(
            decisions("agora.director_choice").len(),
            count(|e| matches!(e, Event::DirectorChoice { .. }))
        );
        assert_eq!(decisions("agora.handoff").len(), count(|e| matches!(e, Event::Handoff { .. })), "{id}");
        assert_eq!(
            decisions("agora.selector_choice").len(),
            count(|e| matches!(e, Event::SelectorChoice { .. }))
        );
        assert_eq!(
            decisions("agora.trade_action").len(),
            count(|e| matches!(e, Event::Action { .. })),
            "{id}"
        );
        let kinds =
            ["agora.bid", "agora.stop_draw", "agora.handoff", "agora.selector_choice", "agora.trade_action"];
        assert!(kinds.iter().any(|k| !decisions(k).is_empty()), "{id} has decisions");
        // A bid's value is the one recorded.
        for (e, d) in events.iter().filter(|e| matches!(e, Event::Bid { .. })).zip(decisions("agora.bid")) {
            let Event::Bid { value, agent, .. } = e else { unreachable!() };
            let v = d["attributes"].as_array().unwrap();
            assert!(v.iter().any(|a| a["key"] == "agora.bid.value"
                && a["value"]["intValue"].as_str() == Some(&value.to_string())));
            assert!(v.iter().any(|a| a["key"] == "gen_ai.agent.name" && a["value"]["stringValue"] == *agent));
        }
    }
}

#[test]
fn content_is_in_the_trace_only_when_asked_for() {
    let events = common::run_demo(preset("rail-debate"));
    let spans = spans_of(&events, true);
    let chat = spans.iter().find(|s| text(s, "agora.purpose") == "speak").unwrap();
    let sent: Value = serde_json::from_str(text(chat, "gen_ai.input.messages")).unwrap();
    let i = events
        .iter()
        .position(|e| matches!(e, Event::ModelCall { purpose, .. } if purpose.as_str() == "speak"))
        .unwrap();
    let messages = agora::events::request_messages(&events, i).unwrap();
    assert_eq!(sent.as_array().unwrap().len(), messages.len());
    assert_eq!(sent[0]["parts"][0]["content"], messages[0].content);
    let Event::ModelCall { raw, .. } = &events[i] else { unreachable!() };
    let said: Value = serde_json::from_str(text(chat, "gen_ai.output.messages")).unwrap();
    assert_eq!(said[0]["parts"][0]["content"], *raw);
}

/// Python that reads the OTLP/JSON file `sys.argv[1]` with opentelemetry-proto into `req`: ids
/// are hex in OTLP/JSON (the one place it departs from protobuf's JSON mapping), so they are
/// turned into base64 before `Parse`.
const READ_JSON: &str = r#"
import base64, json, sys
from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2 as t
doc = json.load(open(sys.argv[1]))
for rs in doc['resourceSpans']:
    for ss in rs['scopeSpans']:
        for s in ss['spans']:
            for k in ('traceId', 'spanId', 'parentSpanId'):
                if k in s:
                    s[k] = base64.b64encode(bytes.fromhex(s[k])).decode()
req = json_format.Parse(json.dumps(doc), t.ExportTraceServiceRequest())
"#;

/// The file's figures: spans, chat spans, their input tokens, bids, traces.
const READ_OTLP: &str = r#"
spans = [s for rs in req.resource_spans for ss in rs.scope_spans for s in ss.spans]
assert all(len(s.trace_id) == 16 and len(s.span_id) == 8 for s in spans)
chat = [s for s in spans if s.name.startswith('chat ')]
tokens = sum(a.value.int_value for s in chat for a in s.attributes if a.key == 'gen_ai.usage.input_tokens')
bids = sum(1 for s in spans for e in s.events if e.name == 'agora.bid')
print(len(spans), len(chat), tokens, bids, len({s.trace_id for s in spans}))
"#;

#[test]
fn the_file_agora_run_writes_reads_as_an_export_trace_service_request() {
    let dir = std::env::temp_dir().join(format!("agora-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (trace, log) = (dir.join("run.otlp.json"), dir.join("run.jsonl"));
    let out = Command::new(env!("CARGO_BIN_EXE_agora"))
        .args(["run", "preset:rail-debate", "--turns", "4", "--otlp"])
        .arg(&trace)
        .arg("--events")
        .arg(&log)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let events: Vec<Event> =
        std::fs::read_to_string(&log).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let calls: Vec<&Event> = events.iter().filter(|e| matches!(e, Event::ModelCall { .. })).collect();
    let tokens: u64 = calls
        .iter()
        .map(|e| match e {
            Event::ModelCall { usage, .. } => u64::from(usage.prompt_tokens),
            _ => 0,
        })
        .sum();
    let bids = events.iter().filter(|e| matches!(e, Event::Bid { .. })).count();
    let read = Command::new("python3")
        .arg("-c")
        .arg(format!("{READ_JSON}{READ_OTLP}"))
        .arg(&trace)
        .output()
        .expect("python3 runs");
    assert!(read.status.success(), "{}", String::from_utf8_lossy(&read.stderr));
    let figures: Vec<u64> =
        String::from_utf8_lossy(&read.stdout).split_whitespace().map(|n| n.parse().unwrap()).collect();
    // Spans: the run, one per turn (the opening and 4 turns) and one per call; one trace.
    assert_eq!(figures, vec![1 + 5 + calls.len() as u64, calls.len() as u64, tokens, bids as u64, 1]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Reads the protobuf encoding with opentelemetry-proto and compares it, message for message,
/// with the JSON form read the same way.
const SAME_AS_JSON: &str = r#"
from_json = req
from_proto = t.ExportTraceServiceRequest()
from_proto.ParseFromString(open(sys.argv[2], 'rb').read())
assert from_proto == from_json, 'the two encodings differ'
print(sum(len(ss.spans) for rs in from_proto.resource_spans for ss in rs.scope_spans))
"#;

#[test]
fn the_protobuf_encoding_holds_what_the_json_holds() {
    let dir = std::env::temp_dir().join(format!("agora-trace-pb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A trading game (negative and array values, errors none) and a judged run's verdict are
    // among the cases of the first test; here a director's show with content, whose
    // attributes hold every kind of value.
    let events = common::run_demo(preset("daily-show-director"));
    let json =
        otlp_json(&[&events], &TraceOptions { start_unix_nanos: 1_700_000_000_000_000_000, content: true })
            .unwrap();
    let (json_path, proto_path) = (dir.join("t.json"), dir.join("t.pb"));
    std::fs::write(&json_path, &json).unwrap();
    std::fs::write(&proto_path, agora::trace::otlp_protobuf(&json).unwrap()).unwrap();
    let read = Command::new("python3")
        .arg("-c")
        .arg(format!("{READ_JSON}{SAME_AS_JSON}"))
        .arg(&json_path)
        .arg(&proto_path)
        .output()
        .expect("python3 runs");
    assert!(read.status.success(), "{}", String::from_utf8_lossy(&read.stderr));
    let spans: usize = String::from_utf8_lossy(&read.stdout).trim().parse().unwrap();
    assert_eq!(spans, spans_of(&events, true).len());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A port nobody listens on now.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Arize Phoenix (`phoenix serve`, from PyPI, installed by .ci/setup) on loopback, stopped when
/// dropped.
struct Phoenix(std::process::Child, String, std::path::PathBuf);

impl Drop for Phoenix {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
        let _ = std::fs::remove_dir_all(&self.2);
    }
}

fn get(url: &str) -> Option<(u16, String)> {
    let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
    let mut r = agent.get(url).call().ok()?;
    let status = r.status().as_u16();
    Some((status, r.body_mut().read_to_string().ok()?))
}

fn start_phoenix() -> Phoenix {
    let dir = std::env::temp_dir().join(format!("agora-phoenix-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let port = free_port();
    let child = Command::new("phoenix")
        .arg("serve")
        .env("PHOENIX_WORKING_DIR", &dir)
        .env("PHOENIX_HOST", "127.0.0.1")
        .env("PHOENIX_PORT", port.to_string())
        .env("PHOENIX_GRPC_PORT", free_port().to_string())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("phoenix serve starts (pip install arize-phoenix; .ci/setup does)");
    let phoenix = Phoenix(child, format!("http://127.0.0.1:{port}"), dir);
    for _ in 0..180 {
        if get(&format!("{}/healthz", phoenix.1)).is_some_and(|(s, _)| s == 200) {
            return phoenix;
        }
        std::thread::sleep(std::time::Duration::from_millis(500));
    }
    panic!("phoenix did not answer on {} within 90 s", phoenix.1);
}

#[test]
fn a_run_sent_to_phoenix_reads_back_through_its_own_api() {
    let phoenix = start_phoenix();
    let dir = phoenix.2.join("run");
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("run.jsonl");
    let out = Command::new(env!("CARGO_BIN_EXE_agora"))
        .args([
            "run",
            "preset:daily-show-director",
            "--turns",
            "5",
            "--otlp-endpoint",
            &phoenix.1,
            "--events",
        ])
        .arg(&log)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains(&format!("The trace went to {}/v1/traces.", phoenix.1))
    );
    let events: Vec<Event> =
        std::fs::read_to_string(&log).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let calls: Vec<&Event> = events.iter().filter(|e| matches!(e, Event::ModelCall { .. })).collect();
    // Phoenix writes spans as it receives them (a loaded machine takes seconds): read until they
    // are all there.
    let url = format!("{}/v1/projects/default/spans?limit=1000", phoenix.1);
    let turns = 1 + events.iter().filter_map(Event::turn).max().unwrap() as usize;
    let mut spans = Vec::new();
    for _ in 0..120 {
        if let Some((200, body)) = get(&url) {
            let v: Value = serde_json::from_str(&body).unwrap();
            spans = v["data"].as_array().cloned().unwrap_or_default();
            if spans.len() >= 1 + turns + calls.len() {
                break;
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(250));
    }
    assert_eq!(spans.len(), 1 + turns + calls.len(), "the run, its turns and its calls");
    let traces: std::collections::BTreeSet<&str> =
        spans.iter().map(|s| s["context"]["trace_id"].as_str().unwrap()).collect();
    assert_eq!(traces.len(), 1, "one trace");
    // Each call's span holds its tokens, in the order of the log.
    let mut chats: Vec<&Value> =
        spans.iter().filter(|s| s["attributes"]["gen_ai.operation.name"] == "chat").collect();
    chats.sort_by_key(|s| s["start_time"].as_str().unwrap().to_string());
    assert_eq!(chats.len(), calls.len());
    let mut sent: Vec<(String, u64, u64)> = calls
        .iter()
        .map(|e| match e {
            Event::ModelCall { agent, usage, .. } => {
                (agent.clone(), u64::from(usage.prompt_tokens), u64::from(usage.completion_tokens))
            }
            _ => unreachable!(),
        })
        .collect();
    let mut seen: Vec<(String, u64, u64)> = chats
        .iter()
        .map(|s| {
            let a = &s["attributes"];
            (
                a["gen_ai.agent.name"].as_str().unwrap().to_string(),
                a["gen_ai.usage.input_tokens"].as_u64().unwrap(),
                a["gen_ai.usage.output_tokens"].as_u64().unwrap(),
            )
        })
        .collect();
    sent.sort();
    seen.sort();
    assert_eq!(seen, sent);
    // The director's decisions are there: its choices and stop draws as events.
    let named = |name: &str| {
        spans.iter().flat_map(|s| s["events"].as_array().unwrap()).filter(|e| e["name"] == name).count()
    };
    assert_eq!(
        named("agora.stop_draw"),
        events.iter().filter(|e| matches!(e, Event::StopDraw { .. })).count()
    );
    assert_eq!(
        named("agora.director_choice"),
        events.iter().filter(|e| matches!(e, Event::DirectorChoice { .. })).count()
    );
    assert!(named("agora.stop_draw") > 0);

    // A batch: a trace per run, in the file and at Phoenix.
    let (csv, file) = (dir.join("batch.csv"), dir.join("batch.otlp.json"));
    let out = Command::new(env!("CARGO_BIN_EXE_agora"))
        .args([
            "batch",
            "preset:rail-debate",
            "--seeds",
            "1..3",
            "--turns",
            "2",
            "--otlp-endpoint",
            &phoenix.1,
        ])
        .arg("--out")
        .arg(&csv)
        .arg("--otlp")
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains(&format!("The 3 traces went to {}/v1/traces.", phoenix.1)),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let mut traces = std::collections::BTreeSet::new();
    for _ in 0..120 {
        if let Some((200, body)) = get(&url) {
            let v: Value = serde_json::from_str(&body).unwrap();
            traces = v["data"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["context"]["trace_id"].as_str().unwrap().to_string())
                .collect();
            if traces.len() >= 4 {
                break;
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(250));
    }
    assert_eq!(traces.len(), 1 + 3, "the run's trace and one for each run of the batch");
    let sent: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let in_file: std::collections::BTreeSet<&str> = sent["resourceSpans"][0]["scopeSpans"][0]["spans"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["traceId"].as_str().unwrap())
        .collect();
    assert_eq!(in_file.len(), 3);
    assert!(in_file.iter().all(|t| traces.contains(*t)), "the file holds the traces Phoenix has");
}

#[test]
fn a_tournament_writes_every_run_it_played_as_a_trace_of_its_own() {
    let dir = std::env::temp_dir().join(format!("agora-trace-tournament-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (csv, trace, logs) = (dir.join("t.csv"), dir.join("t.otlp.json"), dir.join("logs"));
    let out = Command::new(env!("CARGO_BIN_EXE_agora"))
        .args([
            "tournament",
            "preset:rail-debate",
            "--methods",
            "bidding,round_robin",
            "--seeds",
            "1..2",
            "--turns",
            "3",
        ])
        .arg("--out")
        .arg(&csv)
        .arg("--events-dir")
        .arg(&logs)
        .arg("--otlp")
        .arg(&trace)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut calls = 0;
    let mut tokens = 0;
    let mut bids = 0;
    for entry in std::fs::read_dir(&logs).unwrap() {
        let events =
            agora::events::from_json_lines(&std::fs::read_to_string(entry.unwrap().path()).unwrap()).unwrap();
        for e in &events {
            match e {
                Event::ModelCall { usage, .. } => {
                    calls += 1;
                    tokens += u64::from(usage.prompt_tokens);
                }
                Event::Bid { .. } => bids += 1,
                _ => {}
            }
        }
    }
    let read = Command::new("python3")
        .arg("-c")
        .arg(format!("{READ_JSON}{READ_OTLP}"))
        .arg(&trace)
        .output()
        .unwrap();
    assert!(read.status.success(), "{}", String::from_utf8_lossy(&read.stderr));
    let figures: Vec<u64> =
        String::from_utf8_lossy(&read.stdout).split_whitespace().map(|n| n.parse().unwrap()).collect();
    // Four runs (two methods on two seeds), each its own trace; every call and bid is there.
    assert_eq!(figures[1..], [calls, tokens, bids, 4]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// What one HTTP request to a loopback receiver carried: its request line, headers (names in
/// lower case) and body; the receiver answers 200.
fn receive_one(listener: std::net::TcpListener) -> (String, Vec<(String, String)>, Vec<u8>) {
    use std::io::{BufRead, BufReader, Read, Write};
    let (stream, _) = listener.accept().unwrap();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        reader.read_line(&mut h).unwrap();
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        let (k, v) = h.split_once(':').unwrap();
        headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
    }
    let length: usize =
        headers.iter().find(|(k, _)| k == "content-length").map_or(0, |(_, v)| v.parse().unwrap());
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    let mut stream = stream;
    stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n").unwrap();
    (line.trim_end().to_string(), headers, body)
}

#[test]
fn a_trace_is_sent_with_the_headers_opentelemetrys_environment_names_as_langfuse_needs() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/api/public/otel", listener.local_addr().unwrap());
    let received = std::thread::spawn(move || receive_one(listener));
    let out = Command::new(env!("CARGO_BIN_EXE_agora"))
        .args(["run", "preset:rail-debate", "--turns", "1", "--otlp-endpoint", &url])
        .env(
            "OTEL_EXPORTER_OTLP_HEADERS",
            "Authorization=Basic%20cGstbGY6c2stbGY=, x-langfuse-ingestion-version = 4",
        )
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (line, headers, body) = received.join().unwrap();
    assert_eq!(line, "POST /api/public/otel/v1/traces HTTP/1.1");
    let header = |name: &str| headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
    assert_eq!(header("authorization"), Some("Basic cGstbGY6c2stbGY="));
    assert_eq!(header("x-langfuse-ingestion-version"), Some("4"));
    assert_eq!(header("content-type"), Some("application/x-protobuf"));
    assert!(body.len() > 1000, "a whole trace, {} bytes", body.len());
}
