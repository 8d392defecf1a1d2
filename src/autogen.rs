//! AutoGen teams in and out: an AutoGen Studio team component (the JSON `team.dump_component()`
//! writes) read as a scenario, and a round robin or selector scenario written as one.
//!
//! A `RoundRobinGroupChat` becomes the round robin method and a `SelectorGroupChat` the selector
//! (its prompt, `allow_repeated_speaker` and `max_selector_attempts`); each `AssistantAgent` an
//! agent with its name, description and system message; the model client's model and base URL the
//! scenario's model (never a key: AutoGen writes it masked, and Agora reads keys from the person);
//! a `UserProxyAgent` a seat the person answers for; `MaxMessageTermination` the turn limit (the
//! task is AutoGen's first message, so one fewer turn). Whatever else the team holds (tools, other
//! terminations, a bounded model context, handoffs) is named in one note, never dropped silently.

use serde_json::{json, Value};

use crate::scenario::{Method, Scenario};

const ROUND_ROBIN: &str = "autogen_agentchat.teams.RoundRobinGroupChat";
const SELECTOR: &str = "autogen_agentchat.teams.SelectorGroupChat";
const ASSISTANT: &str = "autogen_agentchat.agents.AssistantAgent";
const USER_PROXY: &str = "autogen_agentchat.agents.UserProxyAgent";
const OPENAI_CLIENT: &str = "autogen_ext.models.openai.OpenAIChatCompletionClient";
const MAX_MESSAGES: &str = "autogen_agentchat.conditions.MaxMessageTermination";

/// A team read as a scenario, and what of it Agora does not run.
#[derive(Debug)]
pub struct Imported {
    pub scenario: Scenario,
    /// One line: what did not map, or empty.
    pub not_mapped: String,
    /// Which model the scenario runs on, from the team's model client (empty when it names
    /// none), and that the key is the user's to give: what the page says beside what did not map.
    pub runs_on: String,
}

/// Whether `json` looks like an AutoGen component (so "Open a saved run" can tell it apart).
pub fn is_component(json: &Value) -> bool {
    json["provider"].as_str().is_some_and(|p| p.starts_with("autogen_")) && json["component_type"].is_string()
}

/// The last part of a provider path: `autogen_agentchat.teams.Swarm` is "Swarm".
fn short(provider: &str) -> &str {
    provider.rsplit('.').next().unwrap_or(provider)
}

/// The model client's provider, model and base URL as a scenario's model settings.
fn model_of(client: &Value, notes: &mut Vec<String>) -> Option<(String, String, String)> {
    let provider = client["provider"].as_str()?;
    let config = &client["config"];
    let model = config["model"].as_str().unwrap_or_default().to_string();
    let base_url = config["base_url"].as_str().unwrap_or_default().trim_end_matches('/').to_string();
    let id = match short(provider) {
        "OpenAIChatCompletionClient" if base_url.is_empty() || base_url.contains("api.openai.com") => {
            "openai"
        }
        "OpenAIChatCompletionClient" => "custom",
        "AnthropicChatCompletionClient" => "anthropic",
        "OllamaChatCompletionClient" => "ollama",
        other => {
            notes.push(format!("the model client {other} (called as an OpenAI-compatible provider)"));
            "custom"
        }
    };
    let base_url =
        if id == "ollama" { config["host"].as_str().unwrap_or_default().to_string() } else { base_url };
    Some((id.to_string(), model, base_url))
}

/// The turn limit a termination condition gives, naming the conditions that do not map.
fn turn_limit(condition: &Value, notes: &mut Vec<String>) -> Option<u32> {
    let provider = condition["provider"].as_str().unwrap_or_default();
    match short(provider) {
        "MaxMessageTermination" => {
            condition["config"]["max_messages"].as_u64().map(|m| m.saturating_sub(1).max(1) as u32)
        }
        "OrTerminationCondition" => {
            let limits: Vec<u32> = condition["config"]["conditions"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|c| turn_limit(c, notes))
                .collect();
            limits.into_iter().min()
        }
        "" => None,
        other => {
            let detail = match condition["config"]["text"].as_str() {
                Some(text) => format!("{other} (\"{text}\")"),
                None => other.to_string(),
            };
            notes.push(format!("the termination condition {detail}"));
            None
        }
    }
}

/// Reads a team component; `task` is the first message the team would be given (AutoGen passes
/// it to `run`, so the component has none).
pub fn import_team(text: &str, task: Option<&str>) -> Result<Imported, String> {
    let team: Value = serde_json::from_str(text).map_err(|e| format!("not a JSON file ({e})"))?;
    if !is_component(&team) {
        return Err("not an AutoGen component (no \"provider\" and \"component_type\")".into());
    }
    let provider = team["provider"].as_str().unwrap_or_default();
    if team["component_type"] != "team" || (provider != ROUND_ROBIN && provider != SELECTOR) {
        return Err(format!(
            "an AutoGen {} ({provider}): Agora runs RoundRobinGroupChat and SelectorGroupChat teams",
            team["component_type"].as_str().unwrap_or("component")
        ));
    }
    let config = &team["config"];
    let mut notes = Vec::new();
    let mut agents = Vec::new();
    let mut seats = Vec::new();
    let mut models = Vec::new();
    for p in config["participants"].as_array().into_iter().flatten() {
        let c = &p["config"];
        let name = c["name"].as_str().ok_or("a participant has no name")?.to_string();
        let kind = p["provider"].as_str().unwrap_or_default();
        let mut agent = json!({
            "name": name,
            "role": "participant",
            "description": c["description"].as_str().unwrap_or_default(),
        });
        if kind == USER_PROXY {
            seats.push(name.clone());
        } else if kind != ASSISTANT {
            notes.push(format!("{name} is a {} (it speaks as a model here)", short(kind)));
        }
        if let Some(system) = c["system_message"].as_str() {
            agent["system_prompt"] = json!(system);
        }
        let tools: Vec<&str> = c["workbench"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|w| w["config"]["tools"].as_array().into_iter().flatten())
            .chain(c["tools"].as_array().into_iter().flatten())
            .map(|t| t["config"]["name"].as_str().or(t["label"].as_str()).unwrap_or("a tool"))
            .collect();
        if !tools.is_empty() {
            notes.push(format!("{name}'s tools ({})", tools.join(", ")));
        }
        if c["handoffs"].as_array().is_some_and(|h| !h.is_empty()) {
            notes.push(format!("{name}'s handoffs"));
        }
        if let Some(context) = c["model_context"]["provider"].as_str() {
            if short(context) != "UnboundedChatCompletionContext" {
                notes.push(format!(
                    "{name}'s model context {} (every agent here reads the whole conversation)",
                    short(context)
                ));
            }
        }
        if let Some(m) = model_of(&c["model_client"], &mut notes) {
            models.push((name.clone(), m));
        }
        agents.push(agent);
    }
    if agents.len() < 2 {
        return Err("the team has fewer than two participants".into());
    }
    let selector_model = model_of(&config["model_client"], &mut notes);
    let scenario_model = selector_model.clone().or_else(|| models.first().map(|(_, m)| m.clone()));
    let mut model = json!({});
    if let Some((id, name, base_url)) = &scenario_model {
        model = json!({ "provider": id, "name": name, "base_url": base_url });
        for (agent, (other_id, other_name, other_url)) in &models {
            if (other_id, other_url) != (id, base_url) {
                notes.push(format!("{agent}'s own provider ({other_id} {other_url}): the team's is used"));
            } else if other_name != name {
                if let Some(a) = agents.iter_mut().find(|a| a["name"] == *agent) {
                    a["model"] = json!(other_name);
                }
            }
        }
    }
    let mut max_turns = turn_limit(&config["termination_condition"], &mut notes);
    if let Some(t) = config["max_turns"].as_u64() {
        max_turns = Some(max_turns.map_or(t as u32, |m| m.min(t as u32)));
    }
    if max_turns.is_none() {
        notes.push(format!(
            "no message limit (this scenario stops after {} turns)",
            crate::scenario::DEFAULT_MAX_TURNS
        ));
    }
    let method = if provider == SELECTOR {
        let mut m = json!({ "kind": "selector" });
        if let Some(prompt) = config["selector_prompt"].as_str() {
            m["prompt"] = json!(prompt);
        }
        if let Some(allow) = config["allow_repeated_speaker"].as_bool() {
            m["allow_repeats"] = json!(allow);
        }
        if let Some(attempts) = config["max_selector_attempts"].as_u64() {
            m["attempts"] = json!(attempts);
        }
        m
    } else {
        json!({ "kind": "round_robin" })
    };
    let names: Vec<&str> = agents.iter().filter_map(|a| a["name"].as_str()).collect();
    let task = task.map(str::trim).filter(|t| !t.is_empty());
    let label = config["name"].as_str().unwrap_or(short(provider));
    let mut doc = json!({
        "version": 1,
        "title": format!("{label}: {}", names.join(", ")),
        "summary": format!("An AutoGen {} imported from its component file.", short(provider)),
        "topic": task.unwrap_or("the task the team is given"),
        "agents": agents,
        "method": method,
        "opening": { "speaker": "user", "text": task.unwrap_or("") },
        "model": model,
        "seats": seats,
    });
    if let Some(t) = max_turns {
        doc["max_turns"] = json!(t.min(crate::scenario::MAX_TURNS));
    }
    if task.is_none() {
        notes.push(
            "no task (AutoGen gives it at run time): set the topic, which opens the conversation".into(),
        );
    }
    let scenario: Scenario =
        serde_json::from_value(doc).map_err(|e| format!("the team does not make a scenario: {e}"))?;
    let not_mapped =
        if notes.is_empty() { String::new() } else { format!("Not carried over: {}.", notes.join("; ")) };
    let runs_on = scenario_model.map_or(String::new(), |(id, name, url)| {
        let at = if url.is_empty() { crate::catalog::preset(&id).map_or(id.clone(), |p| p.label.to_string()) } else { url };
        format!("It runs on the team's model, {name} at {at}; the file holds no key: give one, or choose another model, under Model.")
    });
    Ok(Imported { scenario, not_mapped, runs_on })
}

/// A name AutoGen accepts (a Python identifier), made from an agent's.
fn identifier(name: &str) -> String {
    let mut out: String = name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

/// A component envelope as AutoGen writes one.
fn component(provider: &str, kind: &str, version: u32, config: Value) -> Value {
    json!({
        "provider": provider,
        "component_type": kind,
        "version": version,
        "component_version": version,
        "label": short(provider),
        "config": config,
    })
}

/// A round robin or selector scenario as an AutoGen Studio team component (JSON), with each
/// agent's system message as Agora sends it. Names AutoGen refuses (it wants Python identifiers)
/// are changed, and said so in the second value.
pub fn export_team(scenario: &Scenario) -> Result<(String, String), String> {
    let provider = match &scenario.method {
        Method::RoundRobin(_) => ROUND_ROBIN,
        Method::Selector(_) => SELECTOR,
        other => {
            return Err(format!(
                "only round robin and selector scenarios become AutoGen teams, not {}",
                other.kind().label()
            ))
        }
    };
    let model = &scenario.model;
    let mut client_config =
        json!({ "model": if model.is_hosted() { model.name.as_str() } else { "gpt-4o-mini" } });
    if model.is_hosted() && !model.base_url.is_empty() {
        client_config["base_url"] = json!(model.base_url);
    } else if model.is_hosted() {
        if let Some(p) = crate::provider::preset(&model.provider) {
            client_config["base_url"] = json!(p.base_url);
        }
    }
    let client = component(OPENAI_CLIENT, "model", 1, client_config);
    // Never asked: the run is made only to fill each agent's system message.
    let clock = std::rc::Rc::new(crate::clock::FrozenClock);
    let run = crate::engine::Run::new(
        scenario.clone(),
        std::rc::Rc::new(crate::demo::DemoModel::new(scenario, clock.clone())),
        clock,
    )
    .map_err(|errors| crate::scenario::FieldError::join(&errors))?;
    let mut renamed = Vec::new();
    let participants: Vec<Value> = run
        .system_messages()
        .into_iter()
        .zip(&scenario.agents)
        .map(|((name, system), agent)| {
            let id = identifier(&name);
            if id != name {
                renamed.push(format!("{name} as {id}"));
            }
            let kind = if scenario.seats.contains(&name) { USER_PROXY } else { ASSISTANT };
            let config = if kind == USER_PROXY {
                json!({ "name": id, "description": agent.description })
            } else {
                json!({
                    "name": id,
                    "model_client": client,
                    "description": if agent.description.is_empty() { agent.role.clone() } else { agent.description.clone() },
                    "system_message": system,
                    "model_client_stream": false,
                    "reflect_on_tool_use": false,
                    "tool_call_summary_format": "{result}",
                })
            };
            component(kind, "agent", if kind == ASSISTANT { 2 } else { 1 }, config)
        })
        .collect();
    let termination = component(
        MAX_MESSAGES,
        "termination",
        1,
        json!({ "max_messages": scenario.max_turns + 1, "include_agent_event": false }),
    );
    let mut config = json!({
        "participants": participants,
        "termination_condition": termination,
    });
    if let Method::Selector(s) = &scenario.method {
        config["model_client"] = client;
        config["selector_prompt"] = json!(s.prompt);
        config["allow_repeated_speaker"] = json!(s.allow_repeats);
        config["max_selector_attempts"] = json!(s.attempts);
    }
    let team = component(provider, "team", 1, config);
    let note = if renamed.is_empty() {
        String::new()
    } else {
        format!("AutoGen wants names that are Python identifiers: {}.", renamed.join(", "))
    };
    Ok((serde_json::to_string_pretty(&team).unwrap_or_default(), note))
}
