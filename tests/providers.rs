//! Real providers from the terminal, against the local LLM server (tests/e2e/llm-server.mjs, run
//! with node on 127.0.0.1): the runner's flags and key, streaming over real HTTP, retries and
//! failures.

use std::process::{Command, Stdio};
use std::rc::Rc;

use agora::clock::SystemClock;
use agora::model::{ChatMessage, ChatModel, ChatRequest, Purpose};
use agora::provider::native::NativeTransport;
use agora::provider::{Endpoint, HttpModel, NetworkSettings, Wait, WaitWhy};

mod common;
use common::Server;

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

/// What one run of the runner wrote: its status, stdout, stderr, events file and Markdown file.
struct Written {
    code: i32,
    stdout: String,
    stderr: String,
    events: String,
    markdown: String,
}

/// Runs `preset` for `turns` turns against `server` as `provider`, writing both files.
fn run_on(server: &Server, preset: &str, turns: &str, provider: &str, key: Option<&str>) -> Written {
    static RUNS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let base = std::env::temp_dir().join(format!("agora-run-{}-{n}", std::process::id()));
    let (events, markdown) = (base.with_extension("jsonl"), base.with_extension("md"));
    let args = [
        "run",
        // A preset's name, or a scenario file.
        &if preset.ends_with(".json") { preset.to_string() } else { format!("preset:{preset}") },
        "--turns",
        turns,
        "--provider",
        provider,
        "--base-url",
        &server.url,
        "--model",
        "some-model",
        "--events",
        events.to_str().unwrap(),
        "--markdown",
        markdown.to_str().unwrap(),
    ];
    let (code, stdout, stderr) = runner(&args, key);
    let read = |p: &std::path::Path| std::fs::read_to_string(p).unwrap_or_default();
    let written = Written { code, stdout, stderr, events: read(&events), markdown: read(&markdown) };
    let _ = std::fs::remove_file(events);
    let _ = std::fs::remove_file(markdown);
    written
}

/// Everything a run of the runner wrote against a server with these faults that wants the key.
fn run_against(faults: &[&str], turns: &str) -> (i32, [(&'static str, String); 4]) {
    let mut args = vec!["--key", SENTINEL];
    for f in faults {
        args.extend(["--fault", f]);
    }
    let w = run_on(&Server::start(&args), "rail-debate", turns, "openai", Some(SENTINEL));
    (w.code, [("events", w.events), ("markdown", w.markdown), ("stdout", w.stdout), ("stderr", w.stderr)])
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
    assert!(!stderr.contains("again in"), "{stderr}");
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

/// What a wait before a retry says failed (the whole sentence for any other wait).
fn retry_words(w: &Wait) -> String {
    match w.why {
        WaitWhy::Retry(what) => what.to_string(),
        _ => w.words(),
    }
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
        .on_retry(Rc::new(move |w: &Wait| retry_sink.borrow_mut().push(retry_words(w))));
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
    assert!(
        retried.iter().all(|r| !r.contains("after every retry")),
        "a retry note says a retry is coming: {retried:?}"
    );
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
    assert!(e.to_string().contains("Could not reach http://127.0.0.1:9/v1"), "{e}");
    assert!(!e.to_string().contains("CORS"), "the terminal has no CORS: {e}");
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
        .on_retry(Rc::new(move |w: &Wait| r.borrow_mut().push(retry_words(w))));
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
    scenario.opening.specify_topic = false;
    scenario.opening.describe_characters = false;
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

/// The runner plays `preset` to its turn limit (3 turns) against a server that answers as
/// `persona`; returns the event log.
fn run_persona(preset: &str, persona: &str, provider: &str) -> Vec<agora::events::Event> {
    let w =
        run_on(&Server::start(&["--persona", persona]), preset, "3", provider, Some("sk-persona-test-key"));
    assert_eq!(w.code, 0, "{preset} against {persona} as {provider}:\n{}\n{}", w.stderr, w.stdout);
    agora::events::from_json_lines(&w.events).unwrap()
}

#[test]
fn every_preset_runs_against_reasoning_models_and_strict_providers_and_reads_only_the_answer() {
    use agora::events::Event;
    for persona in ["openai-reasoning", "mistral", "think-tags", "reasoning-field", "ollama-reasoning"] {
        // The presets' own provider where one exists, and a bare address that must heal itself.
        let providers: &[&str] = match persona {
            "openai-reasoning" => &["openai", "custom"],
            "mistral" => &["mistral", "custom"],
            _ => &["custom"],
        };
        for provider in providers {
            for preset in agora::presets::PRESETS.iter().map(|p| p.id) {
                let events = run_persona(preset, persona, provider);
                let context = format!("{preset} against {persona} as {provider}");
                // To its end (the turn limit, or the director's stop draw, or the games' end),
                // never an error.
                let finished =
                    events.last().map(|e| matches!(e, Event::RunFinished { reason } if *reason != agora::events::FinishReason::Error));
                assert_eq!(finished, Some(true), "{context}: {:?}", events.last());
                assert!(!events.iter().any(|e| matches!(e, Event::Error { .. })), "{context}");
                for e in &events {
                    match e {
                        // No transcript message holds the reasoning.
                        Event::Message { text, .. } => {
                            assert!(
                                !text.contains("think") && !text.contains("contradicts me"),
                                "{context}: {text}"
                            )
                        }
                        // Bids are the number in the answer, never the <10> in the reasoning.
                        Event::Bid { value, raw, defaulted, .. } => {
                            assert!(
                                !defaulted && *value < 10 && raw == &format!("<{value}>"),
                                "{context}: {raw}"
                            )
                        }
                        Event::DirectorChoice { fallback, raw, .. } => assert!(!fallback, "{context}: {raw}"),
                        // (The test server always hands to "neutral", so Neutral's own turn
                        // falls back, as the seed does; "nobody" would come from the reasoning.)
                        Event::Handoff { to, raw, .. } => {
                            assert!(to != "nobody" && !raw.contains("nobody"), "{context}: {raw}")
                        }
                        Event::ModelCall { reasoning, raw, usage, .. } => {
                            let thinks =
                                matches!(persona, "think-tags" | "reasoning-field" | "ollama-reasoning");
                            if thinks && !raw.contains("handoff(") {
                                assert!(
                                    reasoning.starts_with("The last message contradicts me"),
                                    "{context}: {reasoning:?}"
                                );
                            }
                            if persona == "openai-reasoning" {
                                assert_eq!(usage.reasoning_tokens, 64, "{context}");
                            }
                        }
                        _ => {}
                    }
                }
                // A bare address learned what a strict provider refuses, and the log says so.
                let adapted: Vec<String> = events
                    .iter()
                    .filter_map(|e| match e {
                        Event::ModelCall { adapted, .. } => Some(adapted.iter().map(|a| a.parameter.clone())),
                        _ => None,
                    })
                    .flatten()
                    .collect();
                if persona == "openai-reasoning" && *provider == "custom" {
                    // The token limit's name and the temperature, where the method sends them.
                    assert!(!adapted.is_empty(), "{context}");
                    assert!(
                        adapted.iter().all(|p| p == "max_tokens" || p == "temperature"),
                        "{context}: {adapted:?}"
                    );
                }
                if *provider != "custom" && persona == "mistral" {
                    assert!(adapted.is_empty(), "{context}: the preset needs no adapting ({adapted:?})");
                }
            }
        }
    }
}

#[test]
fn every_preset_runs_on_the_dialects_of_chinas_providers_in_the_terminal() {
    use agora::events::Event;
    // Seed 004's show (the director preset) among them, on a server that answers as Model Studio
    // serving an open Qwen3 model does; each preset told not to reason first, a bare address
    // learning it from the refusal.
    for (persona, providers) in [
        ("dashscope", &["qwen", "qwen-cn", "custom"][..]),
        ("moonshot", &["moonshot", "moonshot-cn"][..]),
        ("zhipu", &["zhipu", "zai"][..]),
        ("siliconflow", &["siliconflow", "siliconflow-cn"][..]),
    ] {
        for provider in providers {
            for preset in agora::presets::PRESETS.iter().map(|p| p.id) {
                let events = run_persona(preset, persona, provider);
                let context = format!("{preset} against {persona} as {provider}");
                let finished = events.last().map(
                    |e| matches!(e, Event::RunFinished { reason } if *reason != agora::events::FinishReason::Error),
                );
                assert_eq!(finished, Some(true), "{context}: {:?}", events.last());
                let calls: Vec<_> = events
                    .iter()
                    .filter_map(|e| match e {
                        Event::ModelCall { reasoning, usage, adapted, .. } => {
                            Some((reasoning, usage, adapted))
                        }
                        _ => None,
                    })
                    .collect();
                assert!(!calls.is_empty(), "{context}");
                // Told not to reason, none did; every call's usage was read where the provider
                // puts it.
                for (reasoning, usage, _) in &calls {
                    assert!(reasoning.is_empty(), "{context}: {reasoning}");
                    assert!(usage.prompt_tokens > 0 && usage.completion_tokens > 0, "{context}: {usage:?}");
                }
                let adapted: Vec<&str> =
                    calls.iter().flat_map(|(_, _, a)| a.iter().map(|a| a.parameter.as_str())).collect();
                if *provider == "custom" {
                    // Learned by the first calls, those that went out together before any answer.
                    assert!(
                        !adapted.is_empty() && adapted.iter().all(|p| *p == "enable_thinking"),
                        "{context}: {adapted:?}"
                    );
                } else {
                    assert!(adapted.is_empty(), "{context}: the preset needs no adapting ({adapted:?})");
                }
            }
        }
    }
}

#[test]
fn a_strict_validator_and_a_reasoning_model_are_met_by_changing_the_request_once_per_session() {
    let fast = NetworkSettings { backoff_base_ms: 10, backoff_max_ms: 50, ..Default::default() };
    let told = Rc::new(std::cell::RefCell::new(Vec::new()));
    let sink = told.clone();
    let server = Server::start(&["--persona", "mistral"]);
    let m = model(&server.url, fast.clone())
        .on_notice(Rc::new(move |m: &str| sink.borrow_mut().push(m.to_string())));
    let reply = futures::executor::block_on(m.complete(&speech())).unwrap();
    assert!(reply.content.starts_with("Reply "), "{reply:?}");
    assert_eq!(reply.adapted.len(), 1);
    assert_eq!(
        (
            reply.adapted[0].parameter.as_str(),
            reply.adapted[0].change.as_str(),
            reply.adapted[0].message.as_str()
        ),
        ("stream_options", "dropped", "body.stream_options: Extra inputs are not permitted")
    );
    assert!(reply.usage.completion_tokens > 0, "usage read from what the stream sends unasked");
    // Learned: the next call goes through as it is, with nothing more to tell.
    let again = futures::executor::block_on(m.complete(&speech())).unwrap();
    assert!(again.adapted.is_empty());
    assert_eq!(told.borrow().len(), 1);
    assert!(told.borrow()[0].contains("refused stream_options for m (body.stream_options: Extra inputs are not permitted). Agora dropped it"), "{:?}", told.borrow());

    // OpenAI's reasoning models behind a bare address: the limit's name, then the temperature.
    let server = Server::start(&["--persona", "openai-reasoning"]);
    let m = model(&server.url, fast);
    let mut request = speech();
    request.temperature = Some(0.2);
    request.max_tokens = Some(300);
    let reply = futures::executor::block_on(m.complete(&request)).unwrap();
    let changes: Vec<(&str, &str)> =
        reply.adapted.iter().map(|a| (a.parameter.as_str(), a.change.as_str())).collect();
    assert_eq!(changes, [("max_tokens", "renamed to max_completion_tokens"), ("temperature", "dropped")]);
    assert_eq!(reply.usage.reasoning_tokens, 64);
}

#[test]
fn a_reply_cut_off_while_reasoning_says_so_and_is_retried_like_any_unreadable_reply() {
    use agora::events::Event;
    // Without the opening's calls, so the first three calls are the bids.
    let mut scenario = agora::presets::find("rail-debate").unwrap().scenario();
    scenario.opening.specify_topic = false;
    scenario.opening.describe_characters = false;
    let file = std::env::temp_dir().join(format!("agora-think-cut-{}.json", std::process::id()));
    std::fs::write(&file, serde_json::to_string(&scenario).unwrap()).unwrap();
    let w = run_on(&Server::start(&["--fault", "think-cutx3"]), file.to_str().unwrap(), "1", "custom", None);
    assert_eq!(w.code, 0, "{}", w.stderr);
    let log = agora::events::from_json_lines(&w.events).unwrap();
    let cut: Vec<(&str, bool, &str)> = log
        .iter()
        .filter_map(|e| match e {
            Event::ModelCall { raw, truncated: true, reasoning, parse, .. } => {
                Some((raw.as_str(), parse.ok, reasoning.as_str()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(cut.len(), 3, "the three first bids were cut off");
    for (raw, ok, reasoning) in &cut {
        assert!(raw.is_empty() && !ok && reasoning.ends_with("Still weighing"), "{raw:?} {reasoning:?}");
    }
    let errors: Vec<String> = log
        .iter()
        .filter_map(|e| match e {
            Event::ModelCall { truncated: true, parse, .. } => parse.error.clone(),
            _ => None,
        })
        .collect();
    assert!(
        errors[0].starts_with("the reply reached its token limit while still reasoning, before any answer; this call sets no limit, so the provider's own default cut it"),
        "{}",
        errors[0]
    );
    // Every bid whose reply was cut was asked again (which calls meet the three cuts depends on
    // the order they reach the server), and no bid came from the reasoning's <10>.
    let cut_agents: Vec<&str> = log
        .iter()
        .filter_map(|e| match e {
            Event::ModelCall { agent, truncated: true, .. } => Some(agent.as_str()),
            _ => None,
        })
        .collect();
    for e in &log {
        if let Event::Bid { agent, attempts, value, .. } = e {
            assert!(*value < 10, "{e:?}");
            if cut_agents.contains(&agent.as_str()) {
                assert_eq!(*attempts, 2, "{e:?}");
            }
        }
    }
}

#[test]
fn anthropic_overloaded_is_retried_like_any_server_error() {
    let fast = NetworkSettings { backoff_base_ms: 10, backoff_max_ms: 50, ..Default::default() };
    let server = Server::start(&["--fault", "529"]);
    let endpoint = Endpoint {
        provider: "anthropic".into(),
        base_url: server.url.clone(),
        model: "claude".into(),
        key: Some("sk-ant-test-key".into()),
        ..Default::default()
    };
    let notes = Rc::new(std::cell::RefCell::new(Vec::new()));
    let sink = notes.clone();
    let m =
        HttpModel::new(endpoint, fast, Rc::new(NativeTransport::default()), Rc::new(SystemClock::default()))
            .unwrap()
            .on_retry(Rc::new(move |w: &Wait| sink.borrow_mut().push(retry_words(w))));
    let reply = futures::executor::block_on(m.complete(&speech())).unwrap();
    assert!(reply.content.starts_with("Reply "), "{reply:?}");
    assert_eq!(*notes.borrow(), ["Anthropic had a server error (529: Overloaded)."]);
}

#[test]
fn the_runner_ends_quietly_when_its_reader_goes_away_and_reads_files_with_a_byte_order_mark() {
    use std::io::Read;
    // `agora run ... | head -c 1`: the pipe closes after the first bytes.
    let mut child = Command::new(env!("CARGO_BIN_EXE_agora"))
        .args(["run", "preset:rail-debate", "--turns", "200"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 1];
    child.stdout.as_mut().unwrap().read_exact(&mut first).unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("panicked") && !stderr.contains("Broken pipe"), "{stderr}");

    // A scenario saved by a Windows editor.
    let file = std::env::temp_dir().join(format!("agora-bom-{}.json", std::process::id()));
    let preset = agora::presets::find("daily-show-director").unwrap().json;
    std::fs::write(&file, format!("\u{feff}{preset}")).unwrap();
    let (code, stdout, stderr) = runner(&["run", file.to_str().unwrap(), "--turns", "1"], None);
    let _ = std::fs::remove_file(&file);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("Competitive Sitting") || stdout.contains("competitive sitting"), "{stdout}");
}

#[test]
fn the_runner_checks_a_connection_and_estimates_before_a_run() {
    let server = Server::start(&["--key", SENTINEL]);
    let check = |model: &str, key: &str| {
        let args = [
            "run",
            "preset:rail-debate",
            "--provider",
            "custom",
            "--base-url",
            &server.url,
            "--model",
            model,
            "--check",
        ];
        runner(&args, Some(key))
    };
    let (code, stdout, stderr) = check("gpt-5-mini", SENTINEL);
    assert_eq!(code, 0, "{stderr}");
    // Ten turns of three bids and a speech, and the opening's three descriptions and topic.
    assert!(stdout.contains("Estimate: about 44 calls, "), "{stdout}");
    assert!(stdout.contains("for 10 turns."), "{stdout}");
    assert!(
        stdout.contains(
            "Connected to Other OpenAI-compatible: 3 models.\n  claude-test\n  gpt-5-mini\n  test-model"
        ),
        "{stdout}"
    );
    let (code, stdout, _) = check("gpt-4o", SENTINEL);
    assert_eq!(code, 1);
    assert!(stdout.contains("The model \"gpt-4o\" is not among them: pick one from the list."), "{stdout}");
    let (code, _, stderr) = check("gpt-5-mini", "sk-wrong-key-1234");
    assert_eq!(code, 1);
    assert!(stderr.contains("refused the key (401: Incorrect API key provided)"), "{stderr}");
    let (code, _, stderr) = runner(
        &[
            "run",
            "preset:rail-debate",
            "--provider",
            "custom",
            "--base-url",
            "http://127.0.0.1:9/v1",
            "--model",
            "m",
            "--check",
        ],
        None,
    );
    assert_eq!(code, 1);
    assert!(stderr.contains("Could not reach http://127.0.0.1:9/v1"), "{stderr}");
}

#[test]
fn the_runner_stops_at_a_spending_cap_and_says_how_to_raise_it() {
    let events = std::env::temp_dir().join(format!("agora-cap-{}.jsonl", std::process::id()));
    let args = ["run", "preset:rail-debate", "--cap-tokens", "5000", "--events", events.to_str().unwrap()];
    let (code, stdout, stderr) = runner(&args, None);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("== Paused at the spending cap: the run has used "), "{stdout}");
    assert!(
        stdout.contains("its cap is 5000 tokens. Raise the cap to go on. (--cap-tokens N, --cap-cost X)"),
        "{stdout}"
    );
    let log = agora::events::from_json_lines(&std::fs::read_to_string(&events).unwrap()).unwrap();
    let _ = std::fs::remove_file(&events);
    assert!(
        matches!(log.last(), Some(agora::events::Event::SpendingCapReached { tokens, .. }) if *tokens >= 5000)
    );
    let (code, _, stderr) = runner(&["run", "preset:rail-debate", "--cap-cost", "1"], None);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("model.spending_cap.cost: a cap in money needs the prices per million tokens"),
        "{stderr}"
    );
}

#[test]
fn a_recorded_run_with_reasoning_and_adaptations_continues_live_to_the_same_log() {
    use agora::events::Event;
    for (persona, provider) in
        [("reasoning-field", "custom"), ("openai-reasoning", "custom"), ("think-tags", "custom")]
    {
        let recorded = run_persona("rail-debate", persona, provider);
        assert!(recorded.iter().any(|e| matches!(e, Event::ModelCall { reasoning, adapted, .. } if !reasoning.is_empty() || !adapted.is_empty())));
        // Cut after turn 2, as a saved run would be, and continue with a model that is never asked.
        let cut = agora::replay::step_starts(&recorded)[3];
        let live: Rc<dyn agora::model::ChatModel> =
            Rc::new(agora::scripted::ScriptedModel::from_json("[]").unwrap());
        let run = futures::executor::block_on(agora::replay::continue_live(
            &recorded[..cut],
            live,
            Rc::new(agora::clock::FrozenClock),
        ))
        .unwrap_or_else(|e| panic!("{persona}: {e}"));
        let strip = |es: &[Event]| es.iter().map(Event::without_timings).collect::<Vec<_>>();
        assert!(strip(run.events()) == strip(&recorded[..cut]), "{persona}: the replay differs");
    }
}

/// The refusal text a persona sends, as the event log must keep it.
fn refusal_marker(persona: &str, provider: &str) -> Option<&'static str> {
    match (persona, provider) {
        ("refusal", "anthropic") => Some("declined by a policy classifier"),
        ("refusal", _) => Some("I'm sorry, but I can't help with that"),
        _ => None,
    }
}

#[test]
fn every_preset_records_refused_and_filtered_replies_as_such_and_falls_back_as_the_seeds_do() {
    use agora::events::{Event, MessageKind, SelectorMatch};
    use agora::model::RefusalKind;
    use agora::scenario::Method;
    for (persona, provider) in [
        ("refusal", "custom"),
        ("refusal", "anthropic"),
        ("content-filter", "custom"),
        ("content-filter", "gemini"),
    ] {
        let expected_kind = if persona == "refusal" { RefusalKind::Refused } else { RefusalKind::Filtered };
        let marker = refusal_marker(persona, provider);
        for preset in agora::presets::PRESETS.iter().map(|p| p.id) {
            let context = format!("{preset} against {persona} as {provider}");
            let w = run_on(
                &Server::start(&["--persona", persona]),
                preset,
                "3",
                provider,
                Some("sk-refusal-key"),
            );
            assert_eq!(w.code, 0, "{context}:\n{}\n{}", w.stderr, w.stdout);
            let events = agora::events::from_json_lines(&w.events).unwrap();
            let Some(Event::RunStarted { scenario, .. }) = events.first() else { panic!("{context}") };
            let attempts = match &scenario.method {
                Method::Bidding(s) => s.attempts,
                Method::Director(s) => s.attempts,
                Method::Handoff(s) => s.attempts,
                Method::Selector(s) => s.attempts,
                // Round robin asks nothing to pass the floor; the trading game takes an invalid
                // move as played. (Any method without orchestration retries is the same.)
                _ => 1,
            };
            assert!(!events.iter().any(|e| matches!(e, Event::Error { .. })), "{context}");
            let mut refused_messages = 0;
            for e in &events {
                match e {
                    Event::ModelCall { refusal, parse, raw, .. } => {
                        let refusal =
                            refusal.as_ref().unwrap_or_else(|| panic!("{context}: a call not refused"));
                        assert_eq!(refusal.kind, expected_kind, "{context}");
                        if let Some(m) = marker {
                            assert!(refusal.text.contains(m), "{context}: {:?}", refusal.text);
                        }
                        let error = parse.error.as_deref().unwrap_or_default();
                        assert!(!parse.ok, "{context}: a refused reply was read");
                        let wording = if persona == "refusal" {
                            "the model refused"
                        } else {
                            "content filter withheld"
                        };
                        assert!(error.contains(wording), "{context}: {error}");
                        if provider == "anthropic" && persona == "refusal" {
                            assert_eq!(raw, "Hello..", "{context}: the text begun is kept raw");
                        }
                    }
                    // No agent's turn is recorded as an empty message said.
                    Event::Message { kind, text, refusal, .. } if *kind != MessageKind::Injected => {
                        let want =
                            if persona == "refusal" { MessageKind::Refused } else { MessageKind::Filtered };
                        assert_eq!(*kind, want, "{context}: {text:?}");
                        assert_eq!(text, "", "{context}: no invented text, nothing of the refused reply");
                        if let Some(m) = marker {
                            assert!(refusal.contains(m), "{context}: {refusal:?}");
                        }
                        refused_messages += 1;
                    }
                    // Orchestration: every attempt the seed allows, then its default.
                    Event::Bid { value, defaulted, attempts: a, .. } => {
                        assert!(*defaulted && *value == 0 && *a == attempts, "{context}: {e:?}")
                    }
                    Event::DirectorChoice { fallback, .. } => assert!(fallback, "{context}"),
                    Event::Handoff { fallback, reason, .. } => {
                        assert!(fallback, "{context}");
                        assert!(
                            reason.as_deref().unwrap_or_default().contains(if persona == "refusal" {
                                "refused"
                            } else {
                                "filter"
                            }),
                            "{context}: {reason:?}"
                        );
                    }
                    Event::SelectorChoice { matched, attempts: a, .. } => {
                        assert!(*matched == SelectorMatch::Fallback && *a == attempts, "{context}: {e:?}")
                    }
                    Event::Action { valid, action, reason, .. } => {
                        assert!(!valid && action.is_none(), "{context}");
                        assert!(
                            reason.contains("refused") || reason.contains("filter"),
                            "{context}: {reason}"
                        );
                    }
                    _ => {}
                }
            }
            // Every attempt of each orchestration call went out.
            let most = events
                .iter()
                .filter_map(|e| match e {
                    Event::ModelCall { purpose, attempt, .. } if purpose.is_orchestration() => Some(*attempt),
                    _ => None,
                })
                .max();
            if let Some(most) = most {
                assert_eq!(most, attempts, "{context}");
            }
            assert!(refused_messages >= 2, "{context}: {refused_messages} refused turns");
            // The terminal and the Markdown transcript say so, with the model's words.
            let said =
                if persona == "refusal" { "the model refused" } else { "content filter withheld the reply" };
            assert!(w.stdout.contains(said), "{context}: {}", w.stdout);
            assert!(w.markdown.contains(said), "{context}");
            if let Some(m) = marker {
                assert!(w.stdout.contains(m) && w.markdown.contains(m), "{context}");
            }
        }
    }
}

#[test]
fn a_refusal_that_repeats_the_key_is_kept_without_it() {
    let server = Server::start(&["--persona", "refusal", "--fault", "echo-key-replyx40"]);
    let w = run_on(&server, "rail-debate", "2", "custom", Some(SENTINEL));
    assert_eq!(w.code, 0, "{}", w.stderr);
    assert!(w.events.contains("stays with me"), "the refusal's words are kept");
    assert_no_key(&[
        ("stdout", w.stdout),
        ("stderr", w.stderr),
        ("events", w.events),
        ("markdown", w.markdown),
    ]);
}

/// Calls made together on a key whose limit is `calls` a window, the server refusing in
/// `dialect`: every call is answered, and what the waits said.
fn calls_on_a_limited_key(dialect: &str, calls: usize) -> (Vec<String>, Vec<(u64, Option<u32>)>) {
    let settings = NetworkSettings {
        backoff_base_ms: 50,
        backoff_max_ms: 200,
        rate_window_ms: 2000,
        stream: false,
        ..Default::default()
    };
    let server = Server::start(&["--rate", &format!("3/2000/{dialect}")]);
    let waits = Rc::new(std::cell::RefCell::new(Vec::new()));
    let sink = waits.clone();
    let m = model(&server.url, settings).on_retry(Rc::new(move |w: &Wait| {
        let per_minute = match w.why {
            WaitWhy::Paced { per_minute, .. } => Some(per_minute),
            WaitWhy::Retry(_) => None,
        };
        sink.borrow_mut().push((w.ms, per_minute));
    }));
    let requests: Vec<ChatRequest> = (0..calls).map(|_| speech()).collect();
    let replies =
        futures::executor::block_on(futures::future::join_all(requests.iter().map(|r| m.complete(r))));
    let texts = replies.into_iter().map(|r| r.expect("every call is answered").content).collect();
    let waits = waits.borrow().clone();
    (texts, waits)
}

#[test]
fn a_free_tiers_limit_slows_a_run_and_never_ends_it() {
    // Gemini's free tier states its figure (3 a window of 2 s: 90 a minute) and the wait.
    let (texts, waits) = calls_on_a_limited_key("gemini", 8);
    assert_eq!(texts.len(), 8);
    let refused = waits.iter().filter(|(_, paced)| paced.is_none()).count();
    let paced: Vec<u32> = waits.iter().filter_map(|(_, paced)| *paced).collect();
    // Only the first burst meets refusals: once the figure is known, calls keep within it.
    assert!(refused <= 5, "{refused} refusals: {waits:?}");
    assert!(!paced.is_empty(), "calls waited for the limit: {waits:?}");
    assert!(paced.iter().all(|&n| n == 90), "the limit said per minute: {paced:?}");

    // A server that says nothing but "rate limit reached": the limit is counted from the calls
    // that went before the refusals, and every call is still answered.
    let (texts, waits) = calls_on_a_limited_key("plain", 6);
    assert_eq!(texts.len(), 6);
    assert!(waits.iter().any(|(_, paced)| paced.is_some()), "{waits:?}");
}

#[test]
fn a_limit_waited_out_longer_than_the_settings_allow_pauses_the_run() {
    let settings = NetworkSettings {
        backoff_base_ms: 50,
        backoff_max_ms: 100,
        rate_limit_wait_ms: 300,
        ..Default::default()
    };
    let server = Server::start(&["--fault", "429x50"]);
    let e = futures::executor::block_on(model(&server.url, settings).complete(&speech())).unwrap_err();
    assert!(e.to_string().contains("for longer than Agora waits for a key's limit"), "{e}");
}
