//! What goes over the wire: request bodies for OpenAI-compatible chat completions and Anthropic
//! Messages, their replies, and their streams folded into one reply.

use serde_json::{json, Value};

use super::sse::SseEvent;
use super::{Dialect, Failure, Protocol};
use crate::catalog::ThinkingOff;
use crate::model::{ChatRequest, ChatResponse, RefusalKind, ResponseFormat, Role, ToolCall, Usage};

/// Anthropic requires a limit on every request; this is used when the method sets none.
pub const ANTHROPIC_DEFAULT_MAX_TOKENS: u32 = 1024;

/// The request body for `request` sent to `model`, in the provider's dialect.
pub fn body(protocol: Protocol, dialect: Dialect, request: &ChatRequest, model: &str, stream: bool) -> Value {
    let mut body = match protocol {
        Protocol::OpenAi => openai_body(request, model, stream),
        Protocol::Anthropic => anthropic_body(request, model, stream),
    };
    if let Some(fields) = body.as_object_mut() {
        if dialect.no_temperature {
            fields.remove("temperature");
        }
        if dialect.no_stream_options {
            fields.remove("stream_options");
        }
        // Anthropic requires its limit; only OpenAI-style bodies rename or drop it.
        if protocol == Protocol::OpenAi {
            let switch = if dialect.no_thinking_switch { ThinkingOff::Unsaid } else { dialect.thinking_off };
            match switch {
                ThinkingOff::Unsaid => {}
                ThinkingOff::EnableThinkingFalse => _ = fields.insert("enable_thinking".into(), json!(false)),
                ThinkingOff::ThinkingDisabled => {
                    _ = fields.insert("thinking".into(), json!({"type": "disabled"}))
                }
            }
            if let Some(limit) = fields.remove("max_tokens") {
                if !dialect.no_token_limit {
                    let name =
                        if dialect.max_completion_tokens { "max_completion_tokens" } else { "max_tokens" };
                    fields.insert(name.into(), limit);
                }
            }
        }
    }
    body
}

fn openai_body(request: &ChatRequest, model: &str, stream: bool) -> Value {
    let messages: Vec<Value> =
        request.messages.iter().map(|m| json!({"role": role_name(m.role), "content": m.content})).collect();
    let mut body = json!({"model": model, "messages": messages});
    if let Some(t) = request.temperature {
        body["temperature"] = crate::json::temperature(t);
    }
    if let Some(n) = request.max_tokens {
        body["max_tokens"] = json!(n);
    }
    if !request.tools.is_empty() {
        body["tools"] = request
            .tools
            .iter()
            .map(|t| {
                json!({"type": "function", "function": {
                    "name": t.name, "description": t.description, "parameters": t.parameters}})
            })
            .collect();
    }
    match &request.response_format {
        ResponseFormat::Text => {}
        ResponseFormat::JsonObject => body["response_format"] = json!({"type": "json_object"}),
        ResponseFormat::JsonSchema { name, schema } => {
            body["response_format"] =
                json!({"type": "json_schema", "json_schema": {"name": name, "schema": schema}})
        }
    }
    if stream {
        body["stream"] = json!(true);
        body["stream_options"] = json!({"include_usage": true});
    }
    body
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::System => "system",
        Role::User => "user",
        Role::Assistant => "assistant",
    }
}

/// Anthropic takes the system text apart and wants turns that alternate, starting with the user;
/// it has no JSON mode, so a required format is asked for in the system text instead.
fn anthropic_body(request: &ChatRequest, model: &str, stream: bool) -> Value {
    let mut system: Vec<String> = Vec::new();
    let mut messages: Vec<(Role, String)> = Vec::new();
    for m in &request.messages {
        match m.role {
            Role::System => system.push(m.content.clone()),
            role => match messages.last_mut() {
                Some((last, text)) if *last == role => {
                    text.push_str("\n\n");
                    text.push_str(&m.content);
                }
                _ => messages.push((role, m.content.clone())),
            },
        }
    }
    if messages.first().is_none_or(|(r, _)| *r != Role::User) {
        messages.insert(0, (Role::User, "(begin)".into()));
    }
    match &request.response_format {
        ResponseFormat::Text => {}
        ResponseFormat::JsonObject => system.push("Reply with one JSON object and nothing else.".into()),
        ResponseFormat::JsonSchema { schema, .. } => system.push(format!(
            "Reply with one JSON object that follows this JSON schema, and nothing else: {schema}"
        )),
    }
    let mut body = json!({
        "model": model,
        "max_tokens": request.max_tokens.unwrap_or(ANTHROPIC_DEFAULT_MAX_TOKENS),
        "messages": messages.iter().map(|(r, c)| json!({"role": role_name(*r), "content": c})).collect::<Vec<_>>(),
    });
    if !system.is_empty() {
        body["system"] = json!(system.join("\n\n"));
    }
    if let Some(t) = request.temperature {
        body["temperature"] = crate::json::temperature(t);
    }
    if !request.tools.is_empty() {
        body["tools"] = request
            .tools
            .iter()
            .map(|t| json!({"name": t.name, "description": t.description, "input_schema": t.parameters}))
            .collect();
    }
    if stream {
        body["stream"] = json!(true);
    }
    body
}

fn text_of(v: &Value) -> String {
    v.as_str().map(str::to_string).unwrap_or_default()
}

fn usage_of(protocol: Protocol, v: &Value) -> Option<Usage> {
    let (input, output) = match protocol {
        Protocol::OpenAi => ("prompt_tokens", "completion_tokens"),
        Protocol::Anthropic => ("input_tokens", "output_tokens"),
    };
    let read = |k: &str| v.get(k).and_then(Value::as_u64).map(|n| n as u32);
    (read(input).is_some() || read(output).is_some()).then(|| Usage {
        prompt_tokens: read(input).unwrap_or(0),
        completion_tokens: read(output).unwrap_or(0),
        // OpenAI's place for it; DeepSeek, OpenRouter and vLLM use the same.
        reasoning_tokens: v
            .pointer("/completion_tokens_details/reasoning_tokens")
            .and_then(Value::as_u64)
            .map_or(0, |n| n as u32),
    })
}

/// Reasoning sent apart from the answer: `reasoning_content` (DeepSeek, vLLM) or `reasoning`
/// (Ollama, OpenRouter), in a whole message or a stream delta.
fn reasoning_of(message: &Value) -> &str {
    ["reasoning_content", "reasoning"]
        .iter()
        .find_map(|k| message.get(*k).and_then(Value::as_str))
        .unwrap_or_default()
}

/// Reads the refusal and filter signals of an OpenAI-compatible choice (a whole message or a
/// stream delta): the model's `refusal` words, and `finish_reason: "content_filter"` (Azure,
/// Gemini's compatible endpoint). Some compatible servers send `"refusal": ""` with every reply:
/// only words refuse.
fn openai_refusal(response: &mut ChatResponse, choice: &Value, message: &Value) {
    if let Some(words) = message.get("refusal").and_then(Value::as_str).filter(|w| !w.is_empty()) {
        response.refuse(RefusalKind::Refused, words);
    }
    if choice.get("finish_reason").and_then(Value::as_str) == Some("content_filter") {
        response.refuse(RefusalKind::Filtered, "");
    }
}

/// Anthropic's refusal: `stop_reason: "refusal"`, with the reason in `stop_details` when given.
fn anthropic_refusal(response: &mut ChatResponse, stop_reason: &Value, details: &Value) {
    if stop_reason == "refusal" {
        let why = details.get("explanation").and_then(Value::as_str).unwrap_or_default();
        response.refuse(RefusalKind::Refused, why);
    }
}

/// The message of an error object as providers send it (`{"error": {"message": ...}}`).
pub fn error_message(v: &Value) -> Option<String> {
    // Gemini's OpenAI-compatible endpoint sends its error inside a list.
    if let Some(first) = v.as_array().and_then(|a| a.first()) {
        return error_message(first);
    }
    let Some(e) = v.get("error") else {
        // SiliconFlow's errors: `{"code": 20012, "message": "...", "data": null}`.
        let coded = v.get("code").is_some() && v.get("choices").is_none();
        return v.get("message").and_then(Value::as_str).filter(|_| coded).map(str::to_string);
    };
    Some(e.get("message").and_then(Value::as_str).map(str::to_string).unwrap_or_else(|| e.to_string()))
}

/// The messages of a validation error as pydantic-based servers send it
/// (`{"detail": [{"loc": [...], "msg": ...}]}`), joined.
pub fn validation_message(v: &Value) -> Option<String> {
    let details = v.get("detail")?.as_array()?;
    let messages: Vec<String> = details
        .iter()
        .map(|d| {
            let at: Vec<String> =
                d["loc"].as_array().into_iter().flatten().map(|l| l.to_string().replace('"', "")).collect();
            format!("{}: {}", at.join("."), d["msg"].as_str().unwrap_or("refused"))
        })
        .collect();
    (!messages.is_empty()).then(|| messages.join("; "))
}

/// The request field an error names as refused: OpenAI's `error.param` with
/// `unsupported_parameter` or `unsupported_value`, or a pydantic `detail[].loc` with
/// `extra_forbidden`.
pub fn refused_field(v: &Value) -> Option<String> {
    if let Some(e) = v.get("error") {
        let code = e["code"].as_str().or(e["type"].as_str()).unwrap_or_default();
        if let Some(param) = e["param"].as_str().filter(|_| code.starts_with("unsupported")) {
            return Some(param.to_string());
        }
    }
    v.get("detail")?.as_array()?.iter().find_map(|d| {
        let forbidden = d["type"].as_str().is_some_and(|t| t.contains("extra") || t.contains("forbidden"));
        let loc = d["loc"].as_array()?;
        let field = loc.get(1).filter(|_| loc.first().and_then(Value::as_str) == Some("body"))?;
        forbidden.then(|| field.as_str().map(str::to_string)).flatten()
    })
}

/// The model names of a model list: `{"data": [{"id": ...}]}` from OpenAI-compatible servers
/// and Anthropic alike (Ollama's `{"models": [{"name": ...}]}` too), sorted.
pub fn model_names(text: &str) -> Result<Vec<String>, String> {
    let v: Value =
        serde_json::from_str(text).map_err(|_| "the answer to GET /models is not JSON".to_string())?;
    let list = v.get("data").or_else(|| v.get("models")).and_then(Value::as_array).ok_or_else(|| {
        "the answer to GET /models is not a model list (is the base URL the API's, ending in /v1?)"
            .to_string()
    })?;
    let mut names: Vec<String> = list
        .iter()
        .filter_map(|m| m.get("id").or_else(|| m.get("name")).and_then(Value::as_str).map(str::to_string))
        .collect();
    crate::text::sort_small(&mut names, |a, b| a < b);
    names.dedup();
    Ok(names)
}

/// Reads a complete (not streamed) reply.
pub fn parse_reply(protocol: Protocol, text: &str) -> Result<ChatResponse, Failure> {
    let v: Value =
        serde_json::from_str(text).map_err(|e| Failure::Malformed(format!("the reply is not JSON ({e})")))?;
    if let Some(message) = error_message(&v) {
        return Err(Failure::Malformed(format!("the provider sent an error: {message}")));
    }
    let mut response = ChatResponse::default();
    match protocol {
        Protocol::OpenAi => {
            let message = v
                .pointer("/choices/0/message")
                .ok_or_else(|| Failure::Malformed("the reply has no choices[0].message".into()))?;
            response.content = text_of(&message["content"]);
            response.reasoning = reasoning_of(message).to_string();
            response.truncated =
                v.pointer("/choices/0/finish_reason").and_then(Value::as_str) == Some("length");
            openai_refusal(&mut response, &v["choices"][0], message);
            for call in message.get("tool_calls").and_then(Value::as_array).into_iter().flatten() {
                let f = &call["function"];
                let arguments = match &f["arguments"] {
                    Value::String(s) => s.clone(),
                    Value::Null => String::new(),
                    other => other.to_string(),
                };
                response.tool_calls.push(ToolCall { name: text_of(&f["name"]), arguments });
            }
        }
        Protocol::Anthropic => {
            let blocks = v
                .get("content")
                .and_then(Value::as_array)
                .ok_or_else(|| Failure::Malformed("the reply has no content".into()))?;
            for block in blocks {
                match block["type"].as_str() {
                    Some("text") => response.content.push_str(block["text"].as_str().unwrap_or_default()),
                    Some("thinking") => {
                        response.reasoning.push_str(block["thinking"].as_str().unwrap_or_default())
                    }
                    Some("tool_use") => response.tool_calls.push(ToolCall {
                        name: text_of(&block["name"]),
                        arguments: block["input"].to_string(),
                    }),
                    _ => {}
                }
            }
            response.truncated = v["stop_reason"] == "max_tokens";
            anthropic_refusal(&mut response, &v["stop_reason"], &v["stop_details"]);
        }
    }
    if let Some(usage) = v.get("usage").and_then(|u| usage_of(protocol, u)) {
        response.usage = usage;
    }
    Ok(response)
}

/// The most tool calls one streamed reply may hold.
const MAX_TOOL_CALLS: usize = 64;

/// A streamed reply being put together.
#[derive(Debug)]
pub struct StreamReply {
    protocol: Protocol,
    pub response: ChatResponse,
    /// The stream's end marker arrived (`[DONE]`, `message_stop`).
    pub done: bool,
    /// Tool calls by the index the stream gives them.
    calls: Vec<(String, String)>,
}

impl StreamReply {
    pub fn new(protocol: Protocol) -> Self {
        Self { protocol, response: ChatResponse::default(), done: false, calls: Vec::new() }
    }

    fn call(&mut self, index: usize) -> &mut (String, String) {
        // A stream's index is the server's say; no reply has this many calls.
        let index = index.min(MAX_TOOL_CALLS - 1);
        if self.calls.len() <= index {
            self.calls.resize(index + 1, Default::default());
        }
        &mut self.calls[index]
    }

    /// Folds in one event; returns the text it added, if any.
    pub fn feed(&mut self, event: &SseEvent) -> Result<Option<String>, Failure> {
        if self.protocol == Protocol::OpenAi && event.data.trim() == "[DONE]" {
            self.done = true;
            return Ok(None);
        }
        let v: Value = serde_json::from_str(&event.data).map_err(|_| {
            Failure::Malformed(format!(
                "a chunk of the stream is not JSON: {}",
                crate::text::clip(&event.data, 80)
            ))
        })?;
        if let Some(message) = error_message(&v) {
            return Err(Failure::StreamError(message));
        }
        match self.protocol {
            Protocol::OpenAi => {
                // Moonshot has put a stream's usage inside its last choice.
                let usage = v.get("usage").or_else(|| v.pointer("/choices/0/usage"));
                if let Some(usage) = usage.and_then(|u| usage_of(Protocol::OpenAi, u)) {
                    self.response.usage = usage;
                }
                if v.pointer("/choices/0/finish_reason").and_then(Value::as_str) == Some("length") {
                    self.response.truncated = true;
                }
                let Some(delta) = v.pointer("/choices/0/delta") else {
                    openai_refusal(&mut self.response, &v["choices"][0], &Value::Null);
                    return Ok(None);
                };
                openai_refusal(&mut self.response, &v["choices"][0], delta);
                self.response.reasoning.push_str(reasoning_of(delta));
                for call in delta.get("tool_calls").and_then(Value::as_array).into_iter().flatten() {
                    let index = call["index"].as_u64().unwrap_or(0) as usize;
                    let f = &call["function"];
                    let slot = self.call(index);
                    slot.0.push_str(f["name"].as_str().unwrap_or_default());
                    slot.1.push_str(f["arguments"].as_str().unwrap_or_default());
                }
                let text = text_of(&delta["content"]);
                Ok(self.add_text(text))
            }
            Protocol::Anthropic => match v["type"].as_str().unwrap_or_default() {
                "message_start" => {
                    if let Some(u) =
                        v.pointer("/message/usage").and_then(|u| usage_of(Protocol::Anthropic, u))
                    {
                        self.response.usage.prompt_tokens = u.prompt_tokens;
                    }
                    Ok(None)
                }
                "content_block_start" => {
                    let block = &v["content_block"];
                    if block["type"] == "tool_use" {
                        let index = v["index"].as_u64().unwrap_or(0) as usize;
                        self.call(index).0 = text_of(&block["name"]);
                    }
                    Ok(None)
                }
                "content_block_delta" => {
                    let delta = &v["delta"];
                    if delta["type"] == "thinking_delta" {
                        self.response.reasoning.push_str(delta["thinking"].as_str().unwrap_or_default());
                        return Ok(None);
                    }
                    if delta["type"] == "input_json_delta" {
                        let index = v["index"].as_u64().unwrap_or(0) as usize;
                        self.call(index).1.push_str(delta["partial_json"].as_str().unwrap_or_default());
                        return Ok(None);
                    }
                    Ok(self.add_text(text_of(&delta["text"])))
                }
                "message_delta" => {
                    if let Some(n) = v.pointer("/usage/output_tokens").and_then(Value::as_u64) {
                        self.response.usage.completion_tokens = n as u32;
                    }
                    if v.pointer("/delta/stop_reason").and_then(Value::as_str) == Some("max_tokens") {
                        self.response.truncated = true;
                    }
                    // stop_details may sit inside the delta or beside it.
                    let inside = &v["delta"]["stop_details"];
                    let details = if inside.is_null() { &v["stop_details"] } else { inside };
                    anthropic_refusal(&mut self.response, &v["delta"]["stop_reason"], details);
                    Ok(None)
                }
                "message_stop" => {
                    self.done = true;
                    Ok(None)
                }
                _ => Ok(None),
            },
        }
    }

    fn add_text(&mut self, text: String) -> Option<String> {
        if text.is_empty() {
            return None;
        }
        self.response.content.push_str(&text);
        Some(text)
    }

    /// The reply as far as it came.
    pub fn finish(mut self) -> ChatResponse {
        self.response.tool_calls = self
            .calls
            .into_iter()
            .filter(|(name, _)| !name.is_empty())
            .map(|(name, arguments)| ToolCall { name, arguments })
            .collect();
        self.response
    }
}
