//! Helpers shared by the native integration tests.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::rc::Rc;

use agora::clock::FrozenClock;
use agora::demo::DemoModel;
use agora::engine::Run;
use agora::events::Event;
use agora::scenario::Scenario;
use agora::scripted::ScriptedModel;

pub fn scenario(json: &str) -> Scenario {
    Scenario::from_json(json).expect("test scenario is valid")
}

/// Runs a scenario to the end against a script (a JSON list of responses).
pub fn run_script(scenario: Scenario, script: &str) -> Vec<Event> {
    let model = Rc::new(ScriptedModel::from_json(script).expect("test script is valid"));
    let mut run = Run::new(scenario, model, Rc::new(FrozenClock)).expect("run starts");
    futures::executor::block_on(run.run_to_end());
    run.events().to_vec()
}

/// Runs a scenario to the end against the demo model.
pub fn run_demo(scenario: Scenario) -> Vec<Event> {
    let model = Rc::new(DemoModel::new(&scenario, Rc::new(FrozenClock)));
    let mut run = Run::new(scenario, model, Rc::new(FrozenClock)).expect("run starts");
    futures::executor::block_on(run.run_to_end());
    run.events().to_vec()
}

pub fn finish_reason(events: &[Event]) -> String {
    match events.last() {
        Some(Event::RunFinished { reason }) => reason.to_string(),
        other => panic!("the log does not end with run_finished: {other:?}"),
    }
}

/// (speaker, text) of every message.
pub fn messages(events: &[Event]) -> Vec<(String, String)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Message { speaker, text, .. } => Some((speaker.clone(), text.clone())),
            _ => None,
        })
        .collect()
}

/// Builds a script from (agent, purpose, content) triples.
pub fn script(entries: &[(&str, &str, &str)]) -> String {
    let list: Vec<serde_json::Value> =
        entries.iter().map(|(a, p, c)| serde_json::json!({"agent": a, "purpose": p, "content": c})).collect();
    serde_json::Value::Array(list).to_string()
}

/// Runs the `agora` binary with `args`, in `dir` when given, with no provider key in its
/// environment but `judge_key` as the judge's: its status, stdout and stderr.
pub fn agora(args: &[&str], dir: Option<&std::path::Path>, judge_key: Option<&str>) -> (i32, String, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_agora"));
    c.args(args).env_remove("AGORA_API_KEY").env_remove("AGORA_JUDGE_API_KEY");
    if let Some(dir) = dir {
        c.current_dir(dir);
    }
    if let Some(k) = judge_key {
        c.env("AGORA_JUDGE_API_KEY", k);
    }
    let o = c.output().expect("the binary runs");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The local LLM server (tests/e2e/llm-server.mjs) in a node process on 127.0.0.1, stopped when
/// dropped.
pub struct Server {
    child: Child,
    pub url: String,
}

impl Server {
    pub fn start(args: &[&str]) -> Server {
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
