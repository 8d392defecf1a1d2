//! AutoGen teams in and out, with the real AutoGen (PyPI's autogen-agentchat and autogen-ext,
//! installed by .ci/setup): teams it dumps open as scenarios, what does not map is named in one
//! message, and the teams Agora writes load with AutoGen's `load_component` and run two turns
//! against the local LLM server.

mod common;

use std::process::Command;

use serde_json::Value;

fn temp_dir(what: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("agora-autogen-{what}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Teams built and dumped by AutoGen itself, written into `dir`.
const DUMP_TEAMS: &str = r#"
import sys
from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.teams import RoundRobinGroupChat, SelectorGroupChat
from autogen_agentchat.conditions import MaxMessageTermination, TextMentionTermination
from autogen_ext.models.openai import OpenAIChatCompletionClient
from autogen_core.tools import FunctionTool
dir = sys.argv[1]
client = OpenAIChatCompletionClient(model="gpt-4o-mini", api_key="sk-never-exported", base_url="http://127.0.0.1:9/v1")
def agents(tools=()):
    return [
        AssistantAgent("planner", model_client=client, description="Plans the trip.", system_message="You plan school trips.", tools=list(tools)),
        AssistantAgent("critic", model_client=client, description="Finds the flaws.", system_message="You find what can go wrong."),
    ]
def weather(city: str) -> str:
    return "sunny"
rr = RoundRobinGroupChat(agents(), termination_condition=MaxMessageTermination(7))
open(f"{dir}/round-robin.json", "w").write(rr.dump_component().model_dump_json())
sel = SelectorGroupChat(agents(), model_client=client, termination_condition=MaxMessageTermination(5),
                        allow_repeated_speaker=True, max_selector_attempts=2, selector_prompt="Pick from {participants}.\n{roles}\n{history}")
open(f"{dir}/selector.json", "w").write(sel.dump_component().model_dump_json())
odd = RoundRobinGroupChat(agents([FunctionTool(weather, description="The weather.")]),
                          termination_condition=MaxMessageTermination(4) | TextMentionTermination("APPROVED"))
open(f"{dir}/with-tools.json", "w").write(odd.dump_component().model_dump_json())
"#;

#[test]
fn teams_autogen_dumps_open_as_scenarios_and_what_does_not_map_is_named_once() {
    let dir = temp_dir("in");
    // From a file: AutoGen dumps a function tool with its source code.
    let script = dir.join("dump.py");
    std::fs::write(&script, DUMP_TEAMS).unwrap();
    let dump = Command::new("python3").arg(&script).arg(&dir).output().unwrap();
    assert!(dump.status.success(), "{}", String::from_utf8_lossy(&dump.stderr));
    let import = |file: &str, extra: &[&str]| {
        let path = dir.join(file);
        let mut args = vec!["import", path.to_str().unwrap()];
        args.extend_from_slice(extra);
        let (code, out, err) = common::agora(&args, None, None);
        assert_eq!(code, 0, "{err}");
        assert!(!out.contains("sk-never-exported") && !out.contains("*****"), "no key in the scenario");
        let scenario: Value = serde_json::from_str(&out).unwrap();
        // And Agora reads what it wrote.
        agora::scenario::Scenario::from_json(&out).unwrap();
        (scenario, err)
    };

    let (rr, note) = import("round-robin.json", &["--task", "Plan a trip to the coast."]);
    assert_eq!(rr["method"]["kind"], "round_robin");
    let names: Vec<&str> =
        rr["agents"].as_array().unwrap().iter().map(|a| a["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["planner", "critic"]);
    assert_eq!(rr["agents"][0]["description"], "Plans the trip.");
    assert_eq!(rr["agents"][1]["system_prompt"], "You find what can go wrong.");
    // Seven messages: the task and six turns.
    assert_eq!(rr["max_turns"], 6);
    assert_eq!(rr["topic"], "Plan a trip to the coast.");
    assert_eq!(rr["opening"]["text"], "Plan a trip to the coast.");
    assert_eq!(
        (rr["model"]["name"].as_str(), rr["model"]["base_url"].as_str()),
        (Some("gpt-4o-mini"), Some("http://127.0.0.1:9/v1"))
    );
    assert_eq!(note, "", "a round robin of assistants maps whole");

    let (sel, note) = import("selector.json", &["--task", "Plan a trip."]);
    assert_eq!(sel["method"]["kind"], "selector");
    assert_eq!(sel["method"]["prompt"], "Pick from {participants}.\n{roles}\n{history}");
    assert_eq!(sel["method"]["allow_repeats"], true);
    assert_eq!(sel["method"]["attempts"], 2);
    assert_eq!(sel["max_turns"], 4);
    assert_eq!(note, "");

    // Tools and a second termination condition: one message names both; the rest is imported.
    let (odd, note) = import("with-tools.json", &[]);
    assert_eq!(odd["max_turns"], 3);
    let lines: Vec<&str> = note.lines().collect();
    assert_eq!(lines.len(), 1, "{note}");
    assert!(note.contains("planner's tools (weather)"), "{note}");
    assert!(note.contains("TextMentionTermination (\"APPROVED\")"), "{note}");
    assert!(note.contains("no task"), "{note}");

    // What is not a team of these kinds gets one clear refusal.
    let swarm = dir.join("not-a-team.json");
    std::fs::write(
        &swarm,
        r#"{"provider": "autogen_agentchat.teams.Swarm", "component_type": "team", "config": {}}"#,
    )
    .unwrap();
    let (code, _, err) = common::agora(&["import", swarm.to_str().unwrap()], None, None);
    assert_eq!(code, 2);
    assert!(err.contains("Agora runs RoundRobinGroupChat and SelectorGroupChat teams"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Loads a team Agora wrote and runs it to its end (the turn limit), printing who spoke.
const RUN_TEAM: &str = r#"
import asyncio, json, sys
from autogen_agentchat.base import Team
team = Team.load_component(json.load(open(sys.argv[1])))
async def main():
    result = await team.run(task="Should the district move its schools to a four-day week?")
    print(json.dumps([m.source for m in result.messages]))
asyncio.run(main())
"#;

#[test]
fn teams_agora_writes_load_in_autogen_and_run_two_turns_against_the_local_server() {
    let server = common::Server::start(&[]);
    let dir = temp_dir("out");
    for preset in ["town-hall-selector", "rail-debate"] {
        let mut scenario = agora::presets::find(preset).unwrap().scenario();
        if preset == "rail-debate" {
            scenario.method = agora::scenario::Method::RoundRobin(Default::default());
        }
        scenario.max_turns = 2;
        scenario.model.provider = "custom".into();
        scenario.model.base_url = server.url.clone();
        scenario.model.name = "gpt-4o-mini".into();
        let path = dir.join(format!("{preset}.json"));
        std::fs::write(&path, scenario.to_json_pretty()).unwrap();
        let team = dir.join(format!("{preset}.team.json"));
        let (code, _, note) = common::agora(
            &["export", path.to_str().unwrap(), "--autogen", "--out", team.to_str().unwrap()],
            None,
            None,
        );
        assert_eq!(code, 0, "{note}");
        let exported: Value = serde_json::from_str(&std::fs::read_to_string(&team).unwrap()).unwrap();
        let first = &exported["config"]["participants"][0]["config"];
        // The agent's system message is the one Agora sends.
        let names: Vec<String> = scenario.agents.iter().map(|a| a.name.clone()).collect();
        assert!(
            first["system_message"].as_str().unwrap().contains(&format!("Your name is {}.", names[0])),
            "{first}"
        );
        let spoke = Command::new("python3")
            .arg("-c")
            .arg(RUN_TEAM)
            .arg(&team)
            .env("OPENAI_API_KEY", "sk-test")
            .output()
            .unwrap();
        assert!(spoke.status.success(), "{preset}: {}", String::from_utf8_lossy(&spoke.stderr));
        let sources: Vec<String> = serde_json::from_slice(&spoke.stdout).unwrap();
        // The task, then two turns by the scenario's agents (AutoGen's names for them).
        assert_eq!(sources.len(), 3, "{preset}: {sources:?}");
        assert_eq!(sources[0], "user");
        let ids: Vec<String> =
            names.iter().map(|n| n.replace(|c: char| !c.is_ascii_alphanumeric(), "_")).collect();
        assert!(sources[1..].iter().all(|s| ids.contains(s)), "{preset}: {sources:?} {ids:?}");
        if preset == "rail-debate" {
            assert_eq!(sources[1..], ids[..2], "round robin speaks in order");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
