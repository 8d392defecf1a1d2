//! A run as one OpenTelemetry trace in OTLP/JSON (an `ExportTraceServiceRequest`), for the
//! viewers engineers already read agent runs in (Phoenix, Langfuse, Jaeger, Grafana).
//!
//! It follows the GenAI semantic conventions as of v1.37.0 (the `gen_ai_latest_experimental`
//! names: `gen_ai.provider.name`, content as `gen_ai.input.messages` and `gen_ai.output.messages`
//! attributes): a root span for the run, an `invoke_agent` span per turn named after whoever
//! spoke, and a `chat` span per model call inside it with the provider, the model, the token
//! usage and the finish reason. Each decision (a bid, the speaker chosen, the director's choice
//! and stop draw, a handoff, the selector's pick, a trade, the floor the class gave, a judge's
//! verdict) is a span event of its turn or of the run, with `agora.*` attributes. What was said is
//! left out unless asked for (`content`), as the conventions' opt-in says; the key is never in a
//! log, so never here.
//!
//! The log keeps how long each call took but not when it started, so the calls are laid out one
//! after another from the run's start, each as long as it took.

use serde_json::{json, Value};

use crate::events::{request_messages, Event};
use crate::model::Role;
use crate::scenario::Scenario;

/// The version of the GenAI conventions followed.
pub const SEMCONV: &str = "1.37.0";

/// How a trace is written.
#[derive(Clone, Debug, Default)]
pub struct TraceOptions {
    /// The run's start, in nanoseconds since 1970.
    pub start_unix_nanos: u64,
    /// The messages sent and received, as the conventions' opt-in content attributes.
    pub content: bool,
}

/// An attribute: `{"key": …, "value": {"stringValue": …}}` and its kin.
fn attr(key: &str, value: impl Into<Value>) -> Value {
    let value: Value = value.into();
    let any = match &value {
        Value::Bool(b) => json!({ "boolValue": b }),
        // OTLP/JSON writes 64-bit integers as decimal strings.
        Value::Number(n) if n.is_i64() || n.is_u64() => json!({ "intValue": n.to_string() }),
        Value::Number(n) => json!({ "doubleValue": n.as_f64() }),
        Value::Array(items) => json!({
            "arrayValue": { "values": items.iter().map(|v| attr("", v.clone())["value"].clone()).collect::<Vec<_>>() }
        }),
        Value::String(s) => json!({ "stringValue": s }),
        other => json!({ "stringValue": other.to_string() }),
    };
    json!({ "key": key, "value": any })
}

/// A 64-bit FNV-1a hash, for identifiers that are the same for the same run.
fn hash(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for b in *part {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        h ^= 0xff;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// `gen_ai.provider.name` for a scenario's provider: the conventions' well-known value where
/// there is one, else Agora's own name.
pub fn provider_name(scenario: &Scenario) -> String {
    let model = &scenario.model;
    if model.is_demo() {
        return "agora.demo".into();
    }
    if model.is_in_tab() {
        return "agora.in_tab".into();
    }
    if model.is_builtin() {
        return "agora.builtin".into();
    }
    match model.provider.as_str() {
        "gemini" => "gcp.gemini".into(),
        "mistral" => "mistral_ai".into(),
        other => other.into(),
    }
}

struct Span {
    id: u64,
    parent: Option<u64>,
    name: String,
    kind: u8,
    start: u64,
    end: u64,
    attributes: Vec<Value>,
    events: Vec<Value>,
    error: Option<String>,
}

impl Span {
    fn to_json(&self, trace_id: &str) -> Value {
        let mut span = json!({
            "traceId": trace_id,
            "spanId": format!("{:016x}", self.id),
            "name": self.name,
            "kind": self.kind,
            "startTimeUnixNano": self.start.to_string(),
            "endTimeUnixNano": self.end.max(self.start).to_string(),
            "attributes": self.attributes,
            "events": self.events,
            "status": match &self.error {
                Some(message) => json!({ "code": 2, "message": message }),
                None => json!({ "code": 0 }),
            },
        });
        if let Some(parent) = self.parent {
            span["parentSpanId"] = json!(format!("{parent:016x}"));
        }
        span
    }
}

/// A span event at `time`.
fn event(name: &str, time: u64, attributes: Vec<Value>) -> Value {
    json!({ "timeUnixNano": time.to_string(), "name": name, "attributes": attributes })
}

/// The decision an event records, as a span event; `None` for what is not a decision.
fn decision(e: &Event, time: u64) -> Option<Value> {
    let (name, attributes) = match e {
        Event::Bid { agent, value, defaulted, .. } => (
            "agora.bid",
            vec![
                attr("gen_ai.agent.name", agent.as_str()),
                attr("agora.bid.value", *value),
                attr("agora.bid.defaulted", *defaulted),
            ],
        ),
        Event::SpeakerSelected { agent, tie, tied, .. } => (
            "agora.speaker_selected",
            vec![
                attr("gen_ai.agent.name", agent.as_str()),
                attr("agora.tie", *tie),
                attr("agora.tied", json!(tied)),
            ],
        ),
        Event::FloorGiven { agent, instead_of, .. } => (
            "agora.floor_given",
            vec![attr("gen_ai.agent.name", agent.as_str()), attr("agora.instead_of", instead_of.as_str())],
        ),
        Event::FloorVote { by, agent, .. } => (
            "agora.floor_vote",
            vec![attr("agora.by", by.as_str()), attr("gen_ai.agent.name", agent.as_str())],
        ),
        Event::DirectorChoice { agent, index, fallback, .. } => (
            "agora.director_choice",
            vec![
                attr("gen_ai.agent.name", agent.as_str()),
                attr("agora.index", index.map_or(Value::Null, Value::from)),
                attr("agora.fallback", *fallback),
            ],
        ),
        Event::StopDraw { sample, probability, stop, ended_by_class, .. } => (
            "agora.stop_draw",
            vec![
                attr("agora.sample", *sample),
                attr("agora.probability", *probability),
                attr("agora.stop", *stop),
                attr("agora.ended_by_class", *ended_by_class),
            ],
        ),
        Event::Handoff { from, to, method, fallback, .. } => (
            "agora.handoff",
            vec![
                attr("agora.from", from.as_str()),
                attr("agora.to", to.as_str()),
                attr("agora.handoff.via", method.as_str()),
                attr("agora.fallback", *fallback),
            ],
        ),
        Event::SelectorChoice { agent, candidates, attempts, .. } => (
            "agora.selector_choice",
            vec![
                attr("gen_ai.agent.name", agent.as_str()),
                attr("agora.candidates", json!(candidates)),
                attr("agora.attempts", *attempts),
            ],
        ),
        Event::Action { player, action, valid, reason, .. } => (
            "agora.trade_action",
            vec![
                attr("gen_ai.agent.name", player.as_str()),
                attr("agora.action", action.as_ref().map_or(String::new(), |a| a.to_json())),
                attr("agora.valid", *valid),
                attr("agora.reason", reason.as_str()),
            ],
        ),
        Event::GameEnd { overall, optimum, reason, .. } => (
            "agora.game_end",
            vec![
                attr("agora.overall", *overall),
                attr("agora.optimum", *optimum),
                attr("agora.reason", reason.as_str()),
            ],
        ),
        Event::Verdict { judge, agents, not_judged, .. } => {
            let mut attributes = vec![attr("agora.judge", judge.as_str())];
            if !not_judged.is_empty() {
                attributes.push(attr("agora.not_judged", not_judged.as_str()));
            }
            for card in agents.read().unwrap_or_default() {
                for s in &card.scores {
                    if let Some(score) = s.score {
                        attributes
                            .push(attr(&format!("agora.verdict.{}.{}", card.agent, s.dimension), score));
                    }
                }
            }
            ("agora.verdict", attributes)
        }
        Event::SpeechScored { agent, judge, mean, .. } => (
            "agora.speech_scored",
            vec![
                attr("gen_ai.agent.name", agent.as_str()),
                attr("agora.judge", judge.as_str()),
                attr("agora.mean", mean.map_or(Value::Null, Value::from)),
            ],
        ),
        _ => return None,
    };
    Some(event(name, time, attributes))
}

/// Messages as the conventions' `gen_ai.input.messages` value: role and text parts.
fn messages_json(messages: &[crate::model::ChatMessage]) -> String {
    let list: Vec<Value> = messages
        .iter()
        .map(|m| {
            let role = match m.role {
                Role::System => "system",
                Role::User => "user",
                Role::Assistant => "assistant",
            };
            json!({ "role": role, "parts": [{ "type": "text", "content": m.content }] })
        })
        .collect();
    Value::Array(list).to_string()
}

/// The trace of one run's log; `None` if the log does not start with its scenario.
pub fn spans(events: &[Event], options: &TraceOptions) -> Option<Vec<Value>> {
    let Some(Event::RunStarted { seed, scenario }) = events.first() else {
        return None;
    };
    let start = options.start_unix_nanos;
    let trace = hash(&[b"agora", &seed.to_le_bytes(), scenario.title.as_bytes(), &start.to_le_bytes()]);
    let trace_id = format!("{:016x}{:016x}", trace, hash(&[&trace.to_le_bytes()]));
    let mut next = 0u64;
    let mut id = || {
        next += 1;
        hash(&[&trace.to_le_bytes(), &next.to_le_bytes()]) | 1
    };
    let provider = provider_name(scenario);
    let mut root = Span {
        id: id(),
        parent: None,
        name: format!("run {}", scenario.method.name()),
        kind: 1,
        start,
        end: start,
        attributes: vec![
            attr("gen_ai.operation.name", "invoke_workflow"),
            attr("gen_ai.provider.name", provider.as_str()),
            attr("gen_ai.conversation.id", trace_id.as_str()),
            attr("agora.scenario.title", scenario.title.as_str()),
            attr("agora.method", scenario.method.name()),
            attr("agora.seed", *seed),
            attr("agora.topic", scenario.topic.as_str()),
        ],
        events: Vec::new(),
        error: None,
    };
    let mut done: Vec<Span> = Vec::new();
    let mut turn: Option<(u32, Span)> = None;
    let mut clock = start;
    for (i, e) in events.iter().enumerate() {
        let at = e.turn().unwrap_or(0);
        // A new turn opens its span; the one before closes.
        if e.turn().is_some() && turn.as_ref().is_none_or(|(t, _)| *t != at) {
            if let Some((_, span)) = turn.take() {
                done.push(span);
            }
            let name = if at == 0 { "opening".to_string() } else { format!("turn {at}") };
            turn = Some((
                at,
                Span {
                    id: id(),
                    parent: Some(root.id),
                    name: format!("invoke_agent {name}"),
                    kind: 1,
                    start: clock,
                    end: clock,
                    attributes: vec![attr("gen_ai.operation.name", "invoke_agent"), attr("agora.turn", at)],
                    events: Vec::new(),
                    error: None,
                },
            ));
        }
        match e {
            Event::ModelCall {
                agent,
                purpose,
                attempt,
                raw,
                tool_calls,
                parse,
                latency_ms,
                usage,
                truncated,
                refusal,
                human,
                by,
                ..
            } => {
                let model = scenario
                    .agents
                    .iter()
                    .find(|a| a.name == *agent)
                    .and_then(|a| a.model.clone())
                    .filter(|_| !scenario.model.is_demo())
                    .unwrap_or_else(|| scenario.model.name.clone());
                let model = if scenario.model.is_demo() { "demo".to_string() } else { model };
                let took = (latency_ms.max(0.0) * 1e6) as u64;
                let finish = if *truncated {
                    "length"
                } else if refusal.is_some() {
                    "content_filter"
                } else if !tool_calls.is_empty() {
                    "tool_call"
                } else {
                    "stop"
                };
                let mut attributes = vec![
                    attr("gen_ai.operation.name", "chat"),
                    attr("gen_ai.provider.name", provider.as_str()),
                    attr("gen_ai.request.model", model.as_str()),
                    attr("gen_ai.response.model", model.as_str()),
                    attr("gen_ai.agent.name", agent.as_str()),
                    attr("gen_ai.conversation.id", trace_id.as_str()),
                    attr("gen_ai.usage.input_tokens", usage.prompt_tokens),
                    attr("gen_ai.usage.output_tokens", usage.completion_tokens),
                    attr("gen_ai.response.finish_reasons", json!([finish])),
                    attr("agora.purpose", purpose.as_str()),
                    attr("agora.attempt", *attempt),
                    attr("agora.parse.ok", parse.ok),
                ];
                if *human {
                    attributes.push(attr("agora.human", true));
                    if !by.is_empty() {
                        attributes.push(attr("agora.by", by.as_str()));
                    }
                }
                if options.content {
                    let sent = request_messages(events, i).unwrap_or_default();
                    attributes.push(attr("gen_ai.input.messages", messages_json(&sent)));
                    let answer = json!([{
                        "role": "assistant",
                        "parts": [{ "type": "text", "content": raw }],
                        "finish_reason": finish,
                    }]);
                    attributes.push(attr("gen_ai.output.messages", answer.to_string()));
                }
                let parent = turn.as_ref().map_or(root.id, |(_, s)| s.id);
                done.push(Span {
                    id: id(),
                    parent: Some(parent),
                    name: format!("chat {model}"),
                    // The demo model and the in-tab engine answer in the same process.
                    kind: if scenario.model.is_demo() || scenario.model.is_in_tab() { 1 } else { 3 },
                    start: clock,
                    end: clock + took,
                    attributes,
                    events: Vec::new(),
                    error: None,
                });
                clock += took;
            }
            Event::Message { speaker, text, .. } => {
                if let Some((_, span)) = turn.as_mut() {
                    if at > 0 {
                        span.name = format!("invoke_agent {speaker}");
                        span.attributes.push(attr("gen_ai.agent.name", speaker.as_str()));
                    }
                    if options.content {
                        span.events.push(event(
                            "agora.message",
                            clock,
                            vec![attr("agora.speaker", speaker.as_str()), attr("agora.text", text.as_str())],
                        ));
                    }
                }
            }
            Event::Error { message, .. } => {
                let target = turn.as_mut().map_or(&mut root, |(_, s)| s);
                target.error = Some(message.clone());
                target.events.push(event(
                    "exception",
                    clock,
                    vec![attr("exception.message", message.as_str())],
                ));
            }
            Event::RunFinished { reason } => {
                root.attributes.push(attr("agora.finish_reason", reason.label()));
            }
            e => {
                if let Some(d) = decision(e, clock) {
                    match (e.turn(), turn.as_mut()) {
                        (Some(_), Some((_, span))) => span.events.push(d),
                        _ => root.events.push(d),
                    }
                }
            }
        }
        if let Some((_, span)) = turn.as_mut() {
            span.end = clock;
        }
    }
    if let Some((_, span)) = turn.take() {
        done.push(span);
    }
    root.end = clock;
    let mut out = vec![root.to_json(&trace_id)];
    out.extend(done.iter().map(|s| s.to_json(&trace_id)));
    Some(out)
}

/// Runs' logs as one OTLP/JSON `ExportTraceServiceRequest`, a trace per run, the runs one after
/// another from `options.start_unix_nanos`.
pub fn otlp_json(runs: &[&[Event]], options: &TraceOptions) -> Result<String, String> {
    let mut all = Vec::new();
    let mut start = options.start_unix_nanos;
    for events in runs {
        let spans = spans(events, &TraceOptions { start_unix_nanos: start, ..options.clone() })
            .ok_or("a run's log must start with run_started")?;
        let end = spans[0]["endTimeUnixNano"].as_str().and_then(|t| t.parse::<u64>().ok()).unwrap_or(start);
        start = end + 1_000_000;
        all.extend(spans);
    }
    let request = json!({
        "resourceSpans": [{
            "resource": { "attributes": [
                attr("service.name", "agora"),
                attr("service.version", env!("CARGO_PKG_VERSION")),
            ] },
            "scopeSpans": [{
                "scope": { "name": "agora", "version": env!("CARGO_PKG_VERSION") },
                "schemaUrl": format!("https://opentelemetry.io/schemas/{SEMCONV}"),
                "spans": all,
            }],
        }],
    });
    Ok(request.to_string())
}

/// The same request in OTLP's protobuf encoding (what OTLP/HTTP receivers such as Phoenix take),
/// written from its JSON form field by field after opentelemetry-proto's `trace.proto`.
pub fn otlp_protobuf(json: &str) -> Result<Vec<u8>, String> {
    let doc: Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for rs in list(&doc["resourceSpans"]) {
        message(&mut out, 1, &resource_spans(rs)?);
    }
    Ok(out)
}

fn list(v: &Value) -> &[Value] {
    v.as_array().map_or(&[], Vec::as_slice)
}

fn varint(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

fn tag(out: &mut Vec<u8>, field: u32, wire: u8) {
    varint(out, u64::from(field) << 3 | u64::from(wire));
}

fn bytes(out: &mut Vec<u8>, field: u32, data: &[u8]) {
    tag(out, field, 2);
    varint(out, data.len() as u64);
    out.extend_from_slice(data);
}

fn message(out: &mut Vec<u8>, field: u32, body: &[u8]) {
    bytes(out, field, body);
}

fn text_field(out: &mut Vec<u8>, field: u32, v: &Value) {
    if let Some(s) = v.as_str().filter(|s| !s.is_empty()) {
        bytes(out, field, s.as_bytes());
    }
}

fn fixed64(out: &mut Vec<u8>, field: u32, v: &Value) -> Result<(), String> {
    let n: u64 = v.as_str().and_then(|s| s.parse().ok()).ok_or("a time must be nanoseconds as text")?;
    tag(out, field, 1);
    out.extend_from_slice(&n.to_le_bytes());
    Ok(())
}

fn hex(v: &Value, len: usize) -> Result<Vec<u8>, String> {
    let s = v.as_str().filter(|s| s.len() == 2 * len).ok_or("an id of the wrong length")?;
    (0..len).map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).map_err(|e| e.to_string())).collect()
}

fn any_value(v: &Value) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    if let Some(s) = v.get("stringValue").and_then(Value::as_str) {
        bytes(&mut out, 1, s.as_bytes());
    } else if let Some(b) = v.get("boolValue").and_then(Value::as_bool) {
        tag(&mut out, 2, 0);
        varint(&mut out, u64::from(b));
    } else if let Some(i) = v.get("intValue") {
        let n: i64 = i
            .as_str()
            .and_then(|s| s.parse().ok())
            .or(i.as_i64())
            .ok_or("an intValue that is not a number")?;
        tag(&mut out, 3, 0);
        varint(&mut out, n as u64);
    } else if let Some(d) = v.get("doubleValue") {
        tag(&mut out, 4, 1);
        out.extend_from_slice(&d.as_f64().unwrap_or(f64::NAN).to_le_bytes());
    } else if let Some(a) = v.get("arrayValue") {
        let mut array = Vec::new();
        for item in list(&a["values"]) {
            message(&mut array, 1, &any_value(item)?);
        }
        message(&mut out, 5, &array);
    }
    Ok(out)
}

fn attributes(out: &mut Vec<u8>, field: u32, v: &Value) -> Result<(), String> {
    for kv in list(v) {
        let mut body = Vec::new();
        text_field(&mut body, 1, &kv["key"]);
        message(&mut body, 2, &any_value(&kv["value"])?);
        message(out, field, &body);
    }
    Ok(())
}

fn resource_spans(rs: &Value) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut resource = Vec::new();
    attributes(&mut resource, 1, &rs["resource"]["attributes"])?;
    message(&mut out, 1, &resource);
    for ss in list(&rs["scopeSpans"]) {
        let mut scope_spans = Vec::new();
        let mut scope = Vec::new();
        text_field(&mut scope, 1, &ss["scope"]["name"]);
        text_field(&mut scope, 2, &ss["scope"]["version"]);
        message(&mut scope_spans, 1, &scope);
        for s in list(&ss["spans"]) {
            message(&mut scope_spans, 2, &span(s)?);
        }
        text_field(&mut scope_spans, 3, &ss["schemaUrl"]);
        message(&mut out, 2, &scope_spans);
    }
    Ok(out)
}

fn span(s: &Value) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    bytes(&mut out, 1, &hex(&s["traceId"], 16)?);
    bytes(&mut out, 2, &hex(&s["spanId"], 8)?);
    if !s["parentSpanId"].is_null() {
        bytes(&mut out, 4, &hex(&s["parentSpanId"], 8)?);
    }
    text_field(&mut out, 5, &s["name"]);
    tag(&mut out, 6, 0);
    varint(&mut out, s["kind"].as_u64().unwrap_or(1));
    fixed64(&mut out, 7, &s["startTimeUnixNano"])?;
    fixed64(&mut out, 8, &s["endTimeUnixNano"])?;
    attributes(&mut out, 9, &s["attributes"])?;
    for e in list(&s["events"]) {
        let mut event = Vec::new();
        fixed64(&mut event, 1, &e["timeUnixNano"])?;
        text_field(&mut event, 2, &e["name"]);
        attributes(&mut event, 3, &e["attributes"])?;
        message(&mut out, 11, &event);
    }
    let mut status = Vec::new();
    text_field(&mut status, 2, &s["status"]["message"]);
    if let Some(code) = s["status"]["code"].as_u64().filter(|c| *c != 0) {
        tag(&mut status, 3, 0);
        varint(&mut status, code);
    }
    message(&mut out, 15, &status);
    Ok(out)
}
