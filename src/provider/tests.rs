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
    let b = wire::body(Protocol::OpenAi, Dialect::default(), &r, "gpt-x", true);
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
    let b = wire::body(Protocol::Anthropic, Dialect::default(), &r, "claude-x", false);
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
    assert_eq!(r.usage, crate::model::Usage { prompt_tokens: 12, completion_tokens: 3, reasoning_tokens: 0 });
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
    assert_eq!(
        reply.finish().usage,
        crate::model::Usage { prompt_tokens: 7, completion_tokens: 1, reasoning_tokens: 0 }
    );
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
    let after = |v: &str| match classify(429, Some(v), "") {
        Failure::RateLimited { retry_after_ms, .. } => retry_after_ms,
        other => panic!("{other:?}"),
    };
    assert_eq!(after(" 1.5 "), Some(1500));
    assert_eq!(after("0.25"), Some(250));
    assert_eq!(after("3.14159"), Some(3141));
    assert_eq!(after("0"), Some(0));
    for bad in ["-1", "", ".5", "1e3", "2 s", "1.-5", "99999999999999999999"] {
        assert_eq!(after(bad), None, "{bad:?}");
    }
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
    // From the terminal, CORS is not the reason: the message names the address and the machine.
    let m = Failure::Unreachable("Connection refused".into()).describe(ollama, "http://127.0.0.1:9/v1");
    assert!(
        m.contains("http://127.0.0.1:9/v1") && m.contains("Connection refused") && !m.contains("CORS"),
        "{m}"
    );
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

#[test]
fn each_preset_sends_what_its_provider_accepts() {
    let mut r = request(Purpose::Speak);
    r.max_tokens = Some(50);
    let body = |id: &str, stream: bool| {
        let p = preset(id).unwrap();
        wire::body(p.protocol, p.dialect, &r, "m", stream).to_string()
    };
    // A temperature goes as written, not widened from f32.
    assert!(
        body("groq", false).contains("\"temperature\":0.2,")
            || body("groq", false).contains("\"temperature\":0.2}")
    );
    assert!(!body("groq", false).contains("0.2000"));
    // OpenAI's current models want max_completion_tokens.
    let openai = body("openai", true);
    assert!(
        openai.contains("\"max_completion_tokens\":50") && !openai.contains("\"max_tokens\""),
        "{openai}"
    );
    assert!(openai.contains("stream_options"));
    // Mistral refuses stream_options (and max_completion_tokens).
    let mistral = body("mistral", true);
    assert!(mistral.contains("\"max_tokens\":50") && !mistral.contains("stream_options"), "{mistral}");
    // Anthropic always gets its required limit, whatever the dialect says.
    let d = Dialect { no_token_limit: true, max_completion_tokens: true, ..Dialect::default() };
    let anthropic = wire::body(Protocol::Anthropic, d, &r, "c", false);
    assert_eq!(anthropic["max_tokens"], 50);
}

fn sent(r: &ChatRequest, dialect: Dialect, stream: bool) -> serde_json::Value {
    wire::body(Protocol::OpenAi, dialect, r, "m", stream)
}

#[test]
fn refusals_that_name_a_field_say_how_to_change_the_request() {
    let mut r = request(Purpose::Speak);
    r.max_tokens = Some(50);
    let plain = Dialect::default();
    let body = sent(&r, plain, true);
    // OpenAI's reasoning models.
    let max = r#"{"error":{"message":"Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.","type":"invalid_request_error","param":"max_tokens","code":"unsupported_parameter"}}"#;
    let (d, a) = adapt(plain, &body, 400, max).unwrap();
    assert!(d.max_completion_tokens);
    assert_eq!((a.parameter.as_str(), a.change.as_str()), ("max_tokens", "renamed to max_completion_tokens"));
    assert!(a.message.starts_with("Unsupported parameter: 'max_tokens'"));
    let temp = r#"{"error":{"message":"Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is supported.","param":"temperature","code":"unsupported_value"}}"#;
    let (d2, a) = adapt(d, &sent(&r, d, true), 400, temp).unwrap();
    assert!(d2.no_temperature && d2.max_completion_tokens);
    assert_eq!(a.change, "dropped");
    assert!(sent(&r, d2, true).get("temperature").is_none());
    // The same refusal once the field is gone: nothing left to change.
    assert!(adapt(d2, &sent(&r, d2, true), 400, temp).is_none());
    // Mistral's pydantic validation.
    let extra = r#"{"detail":[{"type":"extra_forbidden","loc":["body","stream_options"],"msg":"Extra inputs are not permitted","input":{"include_usage":true}}]}"#;
    let (d, a) = adapt(plain, &body, 422, extra).unwrap();
    assert!(d.no_stream_options);
    assert_eq!(a.message, "body.stream_options: Extra inputs are not permitted");
    // max_completion_tokens refused where it was sent: the limit goes.
    let strict = Dialect { max_completion_tokens: true, ..plain };
    let extra = extra.replace("stream_options", "max_completion_tokens");
    assert!(adapt(strict, &sent(&r, strict, true), 422, &extra).unwrap().0.no_token_limit);
    // The same words in a plain message.
    let (d, _) = adapt(plain, &body, 400, "Unknown field: stream_options is not supported").unwrap();
    assert!(d.no_stream_options);
    // Not a field Agora sent, another status, or no field named: the provider's words stand.
    assert!(adapt(plain, &sent(&r, plain, false), 400, "stream_options is not supported").is_none());
    assert!(adapt(plain, &body, 401, max).is_none());
    assert!(adapt(plain, &body, 400, r#"{"error":{"message":"Bad request"}}"#).is_none());
}

#[test]
fn reasoning_is_read_apart_from_the_answer_in_every_form() {
    let deepseek = r#"{"choices":[{"message":{"content":"<7>","reasoning_content":"Contradicts me: <10>."},"finish_reason":"stop"}],"usage":{"prompt_tokens":9,"completion_tokens":30,"completion_tokens_details":{"reasoning_tokens":27}}}"#;
    let r = wire::parse_reply(Protocol::OpenAi, deepseek).unwrap();
    assert_eq!((r.content.as_str(), r.reasoning.as_str()), ("<7>", "Contradicts me: <10>."));
    assert_eq!(r.usage.reasoning_tokens, 27);
    assert!(!r.truncated);
    let ollama =
        r#"{"choices":[{"message":{"content":"","reasoning":"Hmm, <2> or <3>"},"finish_reason":"length"}]}"#;
    let r = wire::parse_reply(Protocol::OpenAi, ollama).unwrap();
    assert_eq!((r.content.as_str(), r.reasoning.as_str(), r.truncated), ("", "Hmm, <2> or <3>", true));
    assert_eq!(
        r.why_no_answer().unwrap(),
        "the reply reached its token limit while still reasoning, before any answer"
    );
    let anthropic = r#"{"content":[{"type":"thinking","thinking":"Index 3?","signature":"x"},{"type":"text","text":"1"}],"stop_reason":"end_turn","usage":{"input_tokens":5,"output_tokens":2}}"#;
    let r = wire::parse_reply(Protocol::Anthropic, anthropic).unwrap();
    assert_eq!((r.content.as_str(), r.reasoning.as_str()), ("1", "Index 3?"));
    let cut = r#"{"content":[{"type":"thinking","thinking":"Long"}],"stop_reason":"max_tokens"}"#;
    assert!(wire::parse_reply(Protocol::Anthropic, cut).unwrap().truncated);

    // Streams: reasoning deltas, then the answer.
    let openai = "data: {\"choices\":[{\"delta\":{\"reasoning_content\":\"I think \"}}]}\n\ndata: {\"choices\":[{\"delta\":{\"reasoning\":\"hard.\"}}]}\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"Yes.\"},\"finish_reason\":\"length\"}]}\n\ndata: [DONE]\n\n";
    let (deltas, reply) = stream(Protocol::OpenAi, openai);
    assert_eq!(deltas.unwrap(), ["Yes."], "reasoning is not streamed into the text");
    let r = reply.finish();
    assert_eq!((r.content.as_str(), r.reasoning.as_str(), r.truncated), ("Yes.", "I think hard.", true));
    let anthropic = "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"Pondering\"}}\n\nevent: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi\"}}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"max_tokens\"},\"usage\":{\"output_tokens\":9}}\n\n";
    let (deltas, reply) = stream(Protocol::Anthropic, anthropic);
    assert_eq!(deltas.unwrap(), ["Hi"]);
    let r = reply.finish();
    assert_eq!((r.content.as_str(), r.reasoning.as_str(), r.truncated), ("Hi", "Pondering", true));
}

#[test]
fn refusals_and_filters_are_read_whole_and_streamed_from_every_protocol() {
    use crate::model::{Refusal, RefusalKind};
    let refused = |words: &str| Some(Refusal::new(RefusalKind::Refused, words));
    // OpenAI: content null, the words in `refusal`.
    let r = wire::parse_reply(
        Protocol::OpenAi,
        r#"{"choices":[{"message":{"content":null,"refusal":"I can't help with that."},"finish_reason":"stop"}]}"#,
    )
    .unwrap();
    assert_eq!((r.content.as_str(), r.said(), &r.refusal), ("", "", &refused("I can't help with that.")));
    // An ordinary reply carries `refusal: null`: no refusal.
    let r =
        wire::parse_reply(Protocol::OpenAi, r#"{"choices":[{"message":{"content":"<4>","refusal":null}}]}"#)
            .unwrap();
    assert_eq!((r.said(), &r.refusal), ("<4>", &None));
    // Some compatible servers send an empty refusal with every reply, whole and streamed: only
    // refusal words refuse.
    let r =
        wire::parse_reply(Protocol::OpenAi, r#"{"choices":[{"message":{"content":"<4>","refusal":""}}]}"#)
            .unwrap();
    assert_eq!((r.said(), &r.refusal), ("<4>", &None));
    let empty =
        "data: {\"choices\":[{\"delta\":{\"content\":\"<4>\",\"refusal\":\"\"}}]}\n\ndata: [DONE]\n\n";
    let r = stream(Protocol::OpenAi, empty).1.finish();
    assert_eq!((r.said(), &r.refusal), ("<4>", &None));
    // A content filter: little or no content, and the finish reason.
    let r = wire::parse_reply(
        Protocol::OpenAi,
        r#"{"choices":[{"message":{"content":"Sure, here"},"finish_reason":"content_filter"}]}"#,
    )
    .unwrap();
    assert_eq!((r.content.as_str(), r.said()), ("Sure, here", ""), "what came stays raw and is not said");
    assert_eq!(r.refusal, Some(Refusal::new(RefusalKind::Filtered, "")));
    assert_eq!(r.why_no_answer().unwrap(), "the provider's content filter withheld the reply");
    // Anthropic: the reason in stop_details; the text it had begun stays raw.
    let r = wire::parse_reply(
        Protocol::Anthropic,
        r#"{"content":[{"type":"text","text":"Hello.."}],"stop_reason":"refusal","stop_details":{"type":"refusal","explanation":"Declined."}}"#,
    )
    .unwrap();
    assert_eq!((r.content.as_str(), r.said(), &r.refusal), ("Hello..", "", &refused("Declined.")));
    assert_eq!(r.why_no_answer().unwrap(), "the model refused: \"Declined.\"");
    let r = wire::parse_reply(Protocol::Anthropic, r#"{"content":[],"stop_reason":"refusal"}"#).unwrap();
    assert_eq!(r.why_no_answer().unwrap(), "the model refused, giving no reason");

    // Streamed: OpenAI's `delta.refusal` pieces, joined; the filter's finish reason.
    let openai = "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":null,\"refusal\":null}}]}\n\ndata: {\"choices\":[{\"delta\":{\"refusal\":\"I can't \"}}]}\n\ndata: {\"choices\":[{\"delta\":{\"refusal\":\"help.\"}}]}\n\ndata: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";
    let (deltas, reply) = stream(Protocol::OpenAi, openai);
    assert!(deltas.unwrap().is_empty(), "refusal words are not streamed as speech");
    assert_eq!(reply.finish().refusal, refused("I can't help."));
    let filtered =
        "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"content_filter\"}]}\n\ndata: [DONE]\n\n";
    assert_eq!(
        stream(Protocol::OpenAi, filtered).1.finish().refusal,
        Some(Refusal::new(RefusalKind::Filtered, ""))
    );
    // Anthropic's message_delta, with stop_details inside the delta or beside it.
    for details in [
        r#"{"type":"message_delta","delta":{"stop_reason":"refusal","stop_details":{"explanation":"No."}}}"#,
        r#"{"type":"message_delta","delta":{"stop_reason":"refusal"},"stop_details":{"explanation":"No."}}"#,
    ] {
        let anthropic = format!("event: content_block_delta\ndata: {{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{{\"type\":\"text_delta\",\"text\":\"Hel\"}}}}\n\nevent: message_delta\ndata: {details}\n\nevent: message_stop\ndata: {{\"type\":\"message_stop\"}}\n\n");
        let r = stream(Protocol::Anthropic, &anthropic).1.finish();
        assert_eq!((r.content.as_str(), r.said(), &r.refusal), ("Hel", "", &refused("No.")));
    }
}

#[test]
fn the_providers_of_china_are_told_not_to_reason_first_each_in_its_own_words() {
    let mut r = request(Purpose::Bid);
    r.temperature = Some(0.2);
    let body = |id: &str| {
        let p = preset(id).unwrap();
        wire::body(p.protocol, p.dialect, &r, "m", false)
    };
    for id in ["qwen", "qwen-cn", "siliconflow", "siliconflow-cn"] {
        assert_eq!(body(id)["enable_thinking"], false, "{id}");
        assert!(body(id).get("thinking").is_none(), "{id}");
    }
    for id in ["zhipu", "zai", "moonshot", "moonshot-cn"] {
        assert_eq!(body(id)["thinking"], serde_json::json!({"type": "disabled"}), "{id}");
        assert!(body(id).get("enable_thinking").is_none(), "{id}");
    }
    for id in ["openai", "groq", "custom"] {
        assert!(body(id).get("enable_thinking").is_none() && body(id).get("thinking").is_none(), "{id}");
    }
}

#[test]
fn the_refusals_of_chinas_providers_teach_a_bare_address_what_to_send() {
    let mut r = request(Purpose::Bid);
    r.temperature = Some(0.2);
    let plain = Dialect::default();
    // Model Studio: an open Qwen3 model asked without streaming.
    let qwen = r#"{"error":{"code":"invalid_parameter_error","param":null,"message":"parameter.enable_thinking must be set to false for non-streaming calls","type":"invalid_request_error"},"id":"chatcmpl-1","request_id":"1"}"#;
    let (d, a) = adapt(plain, &sent(&r, plain, false), 400, qwen).unwrap();
    assert_eq!(d.thinking_off, crate::catalog::ThinkingOff::EnableThinkingFalse);
    assert_eq!((a.parameter.as_str(), a.done().as_str()), ("enable_thinking", "set it to false"));
    assert_eq!(sent(&r, d, false)["enable_thinking"], false);
    assert!(adapt(d, &sent(&r, d, false), 400, qwen).is_none(), "learned once");
    // A thinking-only model that refuses the switch Agora sent: the switch goes.
    let always = r#"{"error":{"code":"invalid_parameter_error","message":"Invalid parameter: enable_thinking cannot be false for this model","type":"invalid_request_error"}}"#;
    let (off, a) = adapt(d, &sent(&r, d, false), 400, always).unwrap();
    assert!(off.no_thinking_switch && sent(&r, off, false).get("enable_thinking").is_none());
    assert_eq!((a.parameter.as_str(), a.done().as_str()), ("enable_thinking", "dropped it"));
    // Kimi's models that allow only their own temperature; Zhipu's range.
    let kimi = r#"{"error":{"type":"invalid_request_error","message":"invalid temperature: only 1 is allowed for this model"}}"#;
    assert!(adapt(plain, &sent(&r, plain, false), 400, kimi).unwrap().0.no_temperature);
    let glm =
        r#"{"error":{"code":"1210","message":"The temperature parameter is illegal.：限制数值范围[0,1]"}}"#;
    assert!(adapt(plain, &sent(&r, plain, false), 400, glm).unwrap().0.no_temperature);
    // A model that always reasons refuses being told not to: that goes.
    let told = preset("moonshot").unwrap().dialect;
    let k3 = r#"{"error":{"type":"invalid_request_error","message":"Invalid request: thinking type disabled is not supported for this model"}}"#;
    let (d, a) = adapt(told, &sent(&r, told, false), 400, k3).unwrap();
    assert!(d.no_thinking_switch && told.with(d) == d, "{d:?}");
    assert!(sent(&r, d, false).get("thinking").is_none());
    assert_eq!((a.parameter.as_str(), a.done().as_str()), ("thinking", "dropped it"));
}

#[test]
fn errors_and_usage_where_chinas_providers_put_them() {
    // SiliconFlow's errors carry their message at the top.
    let f = classify(
        400,
        None,
        r#"{"code":20012,"message":"Model does not exist. Please check it carefully.","data":null}"#,
    );
    assert_eq!(
        f,
        Failure::Rejected { status: 400, message: "Model does not exist. Please check it carefully.".into() }
    );
    let f = classify(401, None, r#"{"code":30014,"data":null,"message":"Token is invalid."}"#);
    assert_eq!(f, Failure::Auth { status: 401, message: "Token is invalid.".into() });
    // Zhipu's codes are strings; the message is read.
    let f = classify(429, None, r#"{"error":{"code":"1302","message":"Rate limit reached for requests"}}"#);
    assert!(
        matches!(f, Failure::RateLimited { ref message, .. } if message == "Rate limit reached for requests"),
        "{f:?}"
    );
    // Moonshot's usage inside the last choice of a stream.
    let (text, reply) = stream(
        Protocol::OpenAi,
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\n\
         data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\",\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":3,\"total_tokens\":15}}]}\n\n\
         data: [DONE]\n\n",
    );
    assert_eq!(text.unwrap().concat(), "Hi");
    let done = reply.finish();
    assert_eq!((done.usage.prompt_tokens, done.usage.completion_tokens), (12, 3));
}

#[test]
fn a_call_dropped_while_it_waited_for_a_slot_does_not_keep_the_next_one_waiting() {
    use std::future::Future;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::task::{Context, Wake};
    struct Flag(AtomicBool);
    impl Wake for Flag {
        fn wake(self: Arc<Self>) {
            self.0.store(true, Ordering::SeqCst);
        }
    }
    let limiter = super::Limiter::default();
    futures::executor::block_on(limiter.acquire(1));
    let (first, second) = (Arc::new(Flag(AtomicBool::new(false))), Arc::new(Flag(AtomicBool::new(false))));
    let mut dropped = Box::pin(limiter.acquire(1));
    let mut next = Box::pin(limiter.acquire(1));
    assert!(dropped.as_mut().poll(&mut Context::from_waker(&first.clone().into())).is_pending());
    assert!(next.as_mut().poll(&mut Context::from_waker(&second.clone().into())).is_pending());
    // The first in line is stopped (a column that finished, a run stopped); the slot frees.
    drop(dropped);
    limiter.release();
    assert!(second.0.load(Ordering::SeqCst), "the call still waiting is woken");
    assert!(next.as_mut().poll(&mut Context::from_waker(&second.clone().into())).is_ready());
}
