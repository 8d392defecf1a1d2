use super::*;
use crate::model::{ChatMessage, ResponseFormat, ToolSpec};

fn request(purpose: Purpose) -> ChatRequest {
    let mut r = ChatRequest::new(
        "Ann",
        purpose,
        vec![ChatMessage::system("Be brief."), ChatMessage::user("Hi"), ChatMessage::user("again")],
    );
    r.temperature = Some(0.2);
    r
}

#[test]
fn openai_bodies_carry_tools_formats_and_streaming() {
    let mut r = request(Purpose::Handoff);
    r.tools = vec![ToolSpec {
        name: "pass".into(),
        description: "d".into(),
        parameters: serde_json::json!({"type": "object"}),
    }];
    r.response_format = ResponseFormat::JsonObject;
    let b = wire::body(Protocol::OpenAi, &r, "gpt-x", true);
    assert_eq!(b["model"], "gpt-x");
    assert_eq!(b["messages"].as_array().unwrap().len(), 3);
    assert_eq!(b["tools"][0]["function"]["name"], "pass");
    assert_eq!(b["response_format"]["type"], "json_object");
    assert_eq!(b["stream"], true);
    assert_eq!(b["stream_options"]["include_usage"], true);
    assert!((b["temperature"].as_f64().unwrap() - 0.2).abs() < 1e-6);
}

#[test]
fn anthropic_bodies_split_system_merge_turns_and_ask_for_json_in_words() {
    let mut r = request(Purpose::Handoff);
    r.response_format = ResponseFormat::JsonObject;
    let b = wire::body(Protocol::Anthropic, &r, "claude-x", false);
    assert!(b["system"].as_str().unwrap().starts_with("Be brief."));
    assert!(b["system"].as_str().unwrap().contains("JSON object"));
    assert_eq!(b["messages"], serde_json::json!([{"role": "user", "content": "Hi\n\nagain"}]));
    assert_eq!(b["max_tokens"], wire::ANTHROPIC_DEFAULT_MAX_TOKENS);
    assert!(b.get("stream").is_none());
}

#[test]
fn replies_are_read_from_both_protocols() {
    let openai = r#"{"choices":[{"message":{"content":null,"tool_calls":[{"function":{"name":"pass","arguments":"{\"to\":\"Bob\"}"}}]}}],"usage":{"prompt_tokens":12,"completion_tokens":3}}"#;
    let r = wire::parse_reply(Protocol::OpenAi, openai).unwrap();
    assert_eq!((r.content.as_str(), r.tool_calls[0].arguments.as_str()), ("", "{\"to\":\"Bob\"}"));
    assert_eq!(r.usage, crate::model::Usage { prompt_tokens: 12, completion_tokens: 3 });
    let anthropic = r#"{"content":[{"type":"text","text":"Hello"},{"type":"tool_use","name":"pass","input":{"to":"Bob"}}],"usage":{"input_tokens":5,"output_tokens":2}}"#;
    let r = wire::parse_reply(Protocol::Anthropic, anthropic).unwrap();
    assert_eq!((r.content.as_str(), r.tool_calls[0].name.as_str()), ("Hello", "pass"));
    assert_eq!(r.usage.completion_tokens, 2);
    assert!(matches!(wire::parse_reply(Protocol::OpenAi, "<html>"), Err(Failure::Malformed(_))));
    assert!(matches!(wire::parse_reply(Protocol::OpenAi, "{}"), Err(Failure::Malformed(_))));
}

fn stream(protocol: Protocol, text: &str) -> (Result<Vec<String>, Failure>, wire::StreamReply) {
    let mut d = sse::SseDecoder::new();
    let mut reply = wire::StreamReply::new(protocol);
    let mut deltas = Vec::new();
    let mut events = d.feed(text.as_bytes());
    events.extend(d.finish());
    for e in &events {
        match reply.feed(e) {
            Ok(Some(t)) => deltas.push(t),
            Ok(None) => {}
            Err(f) => return (Err(f), reply),
        }
    }
    (Ok(deltas), reply)
}

#[test]
fn streams_fold_into_one_reply() {
    let openai = "data: {\"choices\":[{\"delta\":{\"content\":\"Hel\"}}]}\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"lo\"}}]}\n\ndata: {\"choices\":[],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":2}}\n\ndata: [DONE]\n\n";
    let (deltas, reply) = stream(Protocol::OpenAi, openai);
    assert_eq!(deltas.unwrap(), ["Hel", "lo"]);
    assert!(reply.done);
    let r = reply.finish();
    assert_eq!((r.content.as_str(), r.usage.prompt_tokens), ("Hello", 9));

    let anthropic = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":7}}}\n\nevent: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi\"}}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":1}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
    let (deltas, reply) = stream(Protocol::Anthropic, anthropic);
    assert_eq!(deltas.unwrap(), ["Hi"]);
    assert!(reply.done);
    assert_eq!(reply.finish().usage, crate::model::Usage { prompt_tokens: 7, completion_tokens: 1 });
}

#[test]
fn errors_inside_a_stream_and_broken_chunks_are_failures() {
    let (r, _) = stream(Protocol::OpenAi, "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\ndata: {\"error\":{\"message\":\"overloaded\"}}\n\n");
    assert_eq!(r.unwrap_err(), Failure::StreamError("overloaded".into()));
    let (r, _) = stream(Protocol::OpenAi, "data: {\"choices\":[{\"delta\":{\"content\":\"a\"\n\n");
    assert!(matches!(r.unwrap_err(), Failure::Malformed(m) if m.contains("not JSON")));
    let (r, reply) = stream(Protocol::OpenAi, "data: {\"choices\":[{\"delta\":{\"content\":\"cut\"}}]}\n\n");
    assert!(r.is_ok() && !reply.done, "no end marker: not done");
}

#[test]
fn statuses_are_classified_and_quota_is_not_retried() {
    assert!(
        matches!(classify(401, None, "{\"error\":{\"message\":\"bad key\"}}"), Failure::Auth { status: 401, ref message } if message == "bad key")
    );
    assert!(matches!(
        classify(429, Some("2"), "slow down"),
        Failure::RateLimited { retry_after_ms: Some(2000), .. }
    ));
    assert!(matches!(
        classify(429, Some("Wed, 21 Oct 2026 07:28:00 GMT"), ""),
        Failure::RateLimited { retry_after_ms: None, .. }
    ));
    let quota = classify(
        429,
        None,
        "{\"error\":{\"message\":\"You exceeded your current quota\",\"code\":\"insufficient_quota\"}}",
    );
    assert!(matches!(quota, Failure::Quota(_)) && !quota.retryable());
    assert!(classify(503, None, "").retryable());
    assert!(!classify(400, None, "").retryable());
    assert!(!classify(403, None, "").retryable());
}

#[test]
fn backoff_grows_with_jitter_caps_and_honours_retry_after() {
    let s = NetworkSettings { backoff_base_ms: 1000, backoff_max_ms: 8000, ..Default::default() };
    assert_eq!(backoff_ms(&s, 0, None, 1.0), 1000);
    assert_eq!(backoff_ms(&s, 0, None, 0.0), 500);
    assert_eq!(backoff_ms(&s, 2, None, 1.0), 4000);
    assert_eq!(backoff_ms(&s, 10, None, 1.0), 8000);
    assert_eq!(backoff_ms(&s, 0, Some(3000), 0.5), 3000);
}

#[test]
fn network_failures_say_how_to_fix_them() {
    let ollama = preset("ollama").unwrap();
    let m = Failure::Network("Failed to fetch".into()).describe(ollama, "http://localhost:11434/v1");
    assert!(m.contains("OLLAMA_ORIGINS"), "{m}");
    let m = Failure::Network("Failed to fetch".into())
        .describe(preset("openai").unwrap(), "https://api.openai.com/v1");
    assert!(m.contains("offline") && m.contains("CORS"), "{m}");
}

#[test]
fn a_stream_cannot_make_the_reply_hold_absurd_numbers_of_calls() {
    let (r, reply) = stream(
        Protocol::OpenAi,
        "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":18446744073709551615,\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]}}]}\n\n",
    );
    assert!(r.is_ok());
    assert_eq!(reply.finish().tool_calls.len(), 1);
}
