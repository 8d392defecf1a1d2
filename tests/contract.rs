//! docs/events.md is a contract: every kind of event the engine writes reads back as it was
//! written, and the document names every event type and every field that appears.

mod common;

use std::collections::BTreeSet;
use std::rc::Rc;

use agora::clock::FrozenClock;
use agora::demo::DemoModel;
use agora::engine::Run;
use agora::events::{from_json_lines, to_json_lines, Event, MessageKind, ParseOutcome, Request};
use agora::failure::Adaptation;
use agora::model::{
    ChatMessage, EngineTime, Purpose, Refusal, RefusalKind, Sampling, ToolCall, ToolSpec, Usage,
};
use agora::presets::{find, PRESETS};
use common::*;

/// A number per kind of event. The match has no catch-all, so a new kind does not compile
/// until it is counted here, and then the test below fails until a run writes it and the
/// document names it.
fn kind(e: &Event) -> usize {
    match e {
        Event::RunStarted { .. } => 0,
        Event::TopicSpecified { .. } => 1,
        Event::CharacterDescribed { .. } => 2,
        Event::ModelCall { .. } => 3,
        Event::Bid { .. } => 4,
        Event::SpeakerSelected { .. } => 5,
        Event::Message { .. } => 6,
        Event::DirectorChoice { .. } => 7,
        Event::StopDraw { .. } => 8,
        Event::Handoff { .. } => 9,
        Event::GameStarted { .. } => 10,
        Event::Action { .. } => 11,
        Event::Inventory { .. } => 12,
        Event::GameEnd { .. } => 13,
        Event::OptimizerIteration { .. } => 14,
        Event::Error { .. } => 15,
        Event::RunFinished { .. } => 16,
        Event::SpendingCapReached { .. } => 17,
        Event::SpendingCapSet { .. } => 18,
        Event::SelectorChoice { .. } => 19,
        Event::FloorGiven { .. } => 20,
        Event::Verdict { .. } => 21,
        Event::SpeechScored { .. } => 22,
        Event::FloorVote { .. } => 23,
    }
}
const KINDS: usize = 24;

/// Events of every kind, with every optional field filled somewhere: every preset with
/// malformed replies, an opening with the topic specifier and character descriptions, a run
/// paused at its cap and raised, a failed run, and a model call from a reasoning provider.
fn every_kind_of_event() -> Vec<Event> {
    let mut events = Vec::new();
    for preset in PRESETS {
        let mut s = preset.scenario();
        s.model.demo.malformed_rate = 0.5;
        events.extend(run_demo(s));
    }
    let mut s = find("rail-debate").unwrap().scenario();
    s.opening.specify_topic = true;
    s.opening.describe_characters = true;
    s.max_turns = 2;
    s.model.spending_cap.tokens = 500;
    let model = Rc::new(DemoModel::new(&s, Rc::new(FrozenClock)));
    let mut run = Run::new(s, model, Rc::new(FrozenClock)).unwrap();
    let last = run.scenario().agents.last().unwrap().name.clone();
    run.give_floor(&last).unwrap();
    run.vote("Maya", &last).unwrap();
    futures::executor::block_on(run.run_to_end());
    run.set_spending_cap(agora::scenario::SpendingCap { tokens: 0, cost: 0.0 });
    futures::executor::block_on(run.run_to_end());
    events.extend(run.events().iter().cloned());
    // A show the class ended.
    let s = find("daily-show-director").unwrap().scenario();
    let model = Rc::new(DemoModel::new(&s, Rc::new(FrozenClock)));
    let mut run = Run::new(s, model, Rc::new(FrozenClock)).unwrap();
    run.end_show().unwrap();
    futures::executor::block_on(run.run_to_end());
    events.extend(run.events().iter().cloned());
    // A run judged by the demo judge, and a verdict by the agents' own model that could not be read.
    let judged = run_demo(find("rail-debate").unwrap().scenario());
    let settings = agora::judge::JudgeSettings::default();
    let verdict = agora::judge::demo::verdict(&judged, &settings);
    // Its speeches scored as they landed, by the demo judge, and one that could not be read.
    let demo = agora::judge::Judge::of(&Default::default(), &judged_scenario(&judged));
    let clock: std::rc::Rc<dyn agora::clock::Clock> = std::rc::Rc::new(agora::clock::SystemClock::default());
    let (scored, _) = futures::executor::block_on(agora::judge::live::score_speeches(
        &judged, &settings, &demo, None, clock,
    ));
    events.extend(judged);
    events.extend(scored);
    events.push(Event::SpeechScored {
        turn: 2,
        agent: "Kanye West".into(),
        judge: "openai gpt-x".into(),
        scores: agora::json::Kept::new(&Vec::<agora::judge::Score>::new()),
        mean: None,
        reasoning: String::new(),
        not_judged: "no readable score in 3 replies".into(),
    });
    events.push(verdict.clone());
    if let Event::Verdict { agents, conversation, .. } = verdict {
        events.push(Event::Verdict {
            judge: "openai gpt-x".into(),
            same_model: true,
            agents,
            conversation,
            not_judged: "no readable verdict in 3 replies".into(),
        });
    }
    let failed = scenario(
        r#"{"version":1,"title":"t","topic":"rail","max_turns":1,"agents":[{"name":"A"},{"name":"B"}],"method":{"kind":"bidding"}}"#,
    );
    events.extend(run_script(failed, "[]"));
    events.push(Event::ModelCall {
        turn: 1,
        agent: "A".into(),
        purpose: Purpose::Handoff,
        attempt: 2,
        request: Request::Full(vec![ChatMessage::system("s")]),
        tools: vec![ToolSpec {
            name: "handoff".into(),
            description: "d".into(),
            parameters: serde_json::json!({}),
        }],
        raw: "handoff({})".into(),
        tool_calls: vec![ToolCall { name: "handoff".into(), arguments: "{}".into() }],
        parse: ParseOutcome::failed("no"),
        latency_ms: 1.5,
        usage: Usage { prompt_tokens: 1, completion_tokens: 2, reasoning_tokens: 1 },
        incomplete: true,
        reasoning: "thinking".into(),
        truncated: true,
        adapted: vec![Adaptation {
            parameter: "temperature".into(),
            change: "dropped".into(),
            message: "m".into(),
        }],
        engine: Some(EngineTime {
            read_tokens: 40,
            reused_tokens: 7,
            read_ms: 12.5,
            written_tokens: 8,
            written_ms: 30.0,
        }),
        refusal: Some(Refusal::new(RefusalKind::Refused, "I can't help with that.")),
        human: true,
        by: "Maya".into(),
        sampling: Some(Box::new(Sampling {
            repeat_penalty: 1.1,
            dry_multiplier: 0.8,
            stop: vec!["\nB:".into()],
            strip_name: true,
            stripped: "A:".into(),
        })),
    });
    for kind in [MessageKind::Refused, MessageKind::Filtered, MessageKind::Empty, MessageKind::Unanswered] {
        let refusal = if kind == MessageKind::Refused { "I can't help with that." } else { "" };
        events.push(Event::Message {
            turn: 1,
            speaker: "A".into(),
            text: String::new(),
            kind,
            refusal: refusal.into(),
        });
    }
    events
}

/// The table rows of docs/events.md by event type: the text of each row.
fn documented() -> Vec<(String, String)> {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/events.md")).unwrap();
    doc.lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("| `")?;
            let (kind, _) = rest.split_once('`')?;
            Some((kind.to_string(), l.to_string()))
        })
        .collect()
}

#[test]
fn every_kind_of_event_is_written_reads_back_and_is_documented_field_by_field() {
    let events = every_kind_of_event();
    let seen: BTreeSet<usize> = events.iter().map(kind).collect();
    assert_eq!(
        seen.len(),
        KINDS,
        "kinds never written: {:?}",
        (0..KINDS).filter(|k| !seen.contains(k)).collect::<Vec<_>>()
    );

    let text = to_json_lines(&events);
    let back = from_json_lines(&text).unwrap();
    assert!(back == events, "an event changed in the round trip");

    let rows = documented();
    let mut missing = BTreeSet::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let t = v["type"].as_str().unwrap();
        let Some((_, row)) = rows.iter().find(|(k, _)| k == t) else {
            missing.insert(format!("event type `{t}`"));
            continue;
        };
        for (key, value) in v.as_object().unwrap() {
            if key != "type" && !row.contains(&format!("`{key}`")) {
                missing.insert(format!("{t}.{key}"));
            }
            // The fields of the small objects inside events are named in the row too.
            let inner: Vec<&serde_json::Value> = match (key.as_str(), value) {
                ("usage" | "cap" | "pending" | "refusal" | "sampling", serde_json::Value::Object(_)) => {
                    vec![value]
                }
                ("adapted", serde_json::Value::Array(items)) => items.iter().collect(),
                _ => Vec::new(),
            };
            for object in inner.iter().filter_map(|o| o.as_object()) {
                for field in object.keys() {
                    if !row.contains(&format!("`{field}`")) {
                        missing.insert(format!("{t}.{key}.{field}"));
                    }
                }
            }
        }
    }
    assert!(missing.is_empty(), "docs/events.md does not name: {missing:?}");

    // Every field the declaration has, written in these events or not.
    for (t, fields) in agora::events::EVENT_FIELDS {
        let row = rows.iter().find(|(k, _)| k == t).map(|(_, r)| r.as_str()).unwrap_or("");
        assert!(!row.is_empty(), "docs/events.md has no row for `{t}`");
        for field in *fields {
            assert!(row.contains(&format!("`{field}`")), "docs/events.md does not name {t}.{field}");
        }
    }
    assert_eq!(agora::events::EVENT_FIELDS.len(), KINDS, "every declared event kind is counted above");
}

#[test]
fn every_finish_reason_is_documented_and_an_unknown_one_is_refused_by_name() {
    use agora::events::FinishReason;
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/events.md")).unwrap();
    let line = docs.lines().find(|l| l.starts_with("| `run_finished`")).expect("run_finished is documented");
    for reason in FinishReason::ALL {
        assert!(line.contains(&format!("`{reason}`")), "docs/events.md does not name `{reason}`");
        let read =
            from_json_lines(&format!("{{\"type\":\"run_finished\",\"reason\":\"{reason}\"}}\n")).unwrap();
        assert_eq!(read, vec![Event::RunFinished { reason }]);
    }
    let error = from_json_lines("{\"type\":\"run_finished\",\"reason\":\"tired\"}\n").unwrap_err();
    assert!(error.contains("tired") && error.contains("turn_limit"), "{error}");
}

#[test]
fn every_message_and_refusal_kind_is_named_in_its_row() {
    let doc = documented();
    let row = |kind: &str| doc.iter().find(|(k, _)| k == kind).map(|(_, r)| r.clone()).unwrap();
    let (message, call) = (row("message"), row("model_call"));
    for kind in [
        MessageKind::Agent,
        MessageKind::Injected,
        MessageKind::Incomplete,
        MessageKind::Refused,
        MessageKind::Filtered,
        MessageKind::Empty,
        MessageKind::Unanswered,
    ] {
        let name = serde_json::to_value(kind).unwrap().as_str().unwrap().to_string();
        assert!(message.contains(&format!("`{name}`")), "message kind {name} is not documented");
    }
    for kind in [RefusalKind::Refused, RefusalKind::Filtered, RefusalKind::Unanswered] {
        let name = serde_json::to_value(kind).unwrap().as_str().unwrap().to_string();
        assert!(call.contains(&format!("`{name}`")), "refusal kind {name} is not documented");
        // And it reads back.
        let written = serde_json::to_string(&Refusal::new(kind, "")).unwrap();
        let read: Refusal = serde_json::from_str(&written).unwrap();
        assert_eq!(read.kind, kind);
    }
}

fn judged_scenario(events: &[Event]) -> agora::scenario::Scenario {
    match events.first() {
        Some(Event::RunStarted { scenario, .. }) => (**scenario).clone(),
        _ => panic!("a run starts with run_started"),
    }
}
