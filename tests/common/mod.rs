//! Helpers shared by the native integration tests.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::rc::Rc;

use agora::clock::FrozenClock;
use agora::demo::DemoModel;
use agora::engine::Run;
use agora::events::Event;
use agora::model::{ChatModel, ChatRequest, ChatResponse, ModelError};
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

/// Answers as the demo model does, keeping every request as it was sent.
pub struct Keeping {
    pub demo: DemoModel,
    pub sent: std::cell::RefCell<Vec<ChatRequest>>,
}

impl ChatModel for Keeping {
    fn complete<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> futures::future::LocalBoxFuture<'a, Result<ChatResponse, ModelError>> {
        self.sent.borrow_mut().push(request.clone());
        self.demo.complete(request)
    }
}

/// A whole demo run of `scenario`: every request it sent, and its events.
pub fn demo_requests(scenario: &Scenario) -> (Vec<ChatRequest>, Vec<Event>) {
    let model =
        Rc::new(Keeping { demo: DemoModel::new(scenario, Rc::new(FrozenClock)), sent: Default::default() });
    let mut run = Run::new(scenario.clone(), model.clone(), Rc::new(FrozenClock)).unwrap();
    futures::executor::block_on(run.run_to_end());
    (model.sent.take(), run.events().to_vec())
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

/// A one-node Slurm cluster (tests/slurm/cluster.sh) in `dir`, stopped however the test ends.
pub struct Cluster {
    dir: std::path::PathBuf,
    /// The cluster's `SLURM_CONF`, for `sbatch`.
    pub conf: String,
}

impl Cluster {
    /// Starts the cluster; `None` where Slurm is not installed (recorded as skipped, with why),
    /// and a failure where it is installed but does not start.
    pub fn start(dir: &std::path::Path, what: &str) -> Option<Cluster> {
        let started = Command::new("bash")
            .args(["tests/slurm/cluster.sh", "start", dir.to_str().unwrap()])
            .output()
            .unwrap();
        if started.status.success() {
            let conf = String::from_utf8_lossy(&started.stdout).trim().to_string();
            return Some(Cluster { dir: dir.to_path_buf(), conf });
        }
        let _ = Command::new("bash").args(["tests/slurm/cluster.sh", "stop", dir.to_str().unwrap()]).status();
        let why = String::from_utf8_lossy(&started.stderr).trim().to_string();
        // Where .ci/setup installed Slurm, a cluster that does not start is a failure, not a skip.
        let installed = Command::new("sh").args(["-c", "command -v sbatch slurmctld slurmd"]).output();
        assert!(
            !installed.is_ok_and(|o| o.status.success()),
            "Slurm is installed but the one-node cluster did not start: {why}"
        );
        skipped(what, &why);
        None
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new("bash")
            .args(["tests/slurm/cluster.sh", "stop", self.dir.to_str().unwrap()])
            .status();
    }
}

/// Records a test that could not run here, for the test command's count of skipped tests
/// (`cargo test` has no way to say so: the test passes).
pub fn skipped(what: &str, why: &str) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target").join("test-skips");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(what.replace(' ', "-")), format!("{what}: {why}\n")).unwrap();
    eprintln!("SKIPPED {what}: {why}");
}

/// (speaker, text) of every speech the cast gave (not the class's interjections).
pub fn speeches(events: &[Event]) -> Vec<(String, String)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Message { speaker, text, kind, .. } if *kind != agora::events::MessageKind::Injected => {
                Some((speaker.clone(), text.clone()))
            }
            _ => None,
        })
        .collect()
}
