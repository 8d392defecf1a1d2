//! The scripted model: replays canned responses, for tests and for replaying recorded runs.
//!
//! A script is a JSON list of `{"agent": ..., "purpose": ..., "content": ...}` objects (or
//! `"tool_call": {"name": ..., "arguments": {...}}` instead of content; `"refusal": "..."` for a
//! model that declines, `"filtered": true` for a reply a provider's filter withholds). Responses are consumed
//! in order per (agent, purpose) queue, so the order in which concurrent calls arrive cannot
//! change what each call gets. An empty queue is an error that names the agent and purpose.

use std::cell::RefCell;
use std::collections::{BTreeMap, VecDeque};

use futures::future::LocalBoxFuture;
use serde::Deserialize;

use crate::events::Event;
use crate::model::{ChatModel, ChatRequest, ChatResponse, ModelError, Purpose, RefusalKind, ToolCall, Usage};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    agent: String,
    purpose: Purpose,
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    tool_call: Option<ScriptedToolCall>,
    #[serde(default)]
    usage: Option<Usage>,
    /// The model refuses with these words (`content`, if any, is what it had begun).
    #[serde(default)]
    refusal: Option<String>,
    /// The provider's content filter withholds the reply.
    #[serde(default)]
    filtered: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScriptedToolCall {
    name: String,
    /// An object, or a string holding (possibly malformed) JSON as a model would send it.
    arguments: serde_json::Value,
}

type Queues = BTreeMap<(String, Purpose), VecDeque<ChatResponse>>;

#[derive(Debug, Default)]
pub struct ScriptedModel {
    queues: RefCell<Queues>,
}

impl ScriptedModel {
    /// Reads a script; the error says which entry is wrong.
    pub fn from_json(text: &str) -> Result<Self, String> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let entries: Vec<serde_json::Value> =
            serde_json::from_str(text).map_err(|e| format!("the script is not a JSON list: {e}"))?;
        let mut queues = Queues::new();
        for (i, value) in entries.into_iter().enumerate() {
            let entry: Entry =
                serde_json::from_value(value).map_err(|e| format!("script entry {}: {e}", i + 1))?;
            let mut response = ChatResponse::text(entry.content.unwrap_or_default());
            if let Some(call) = entry.tool_call {
                let arguments = match call.arguments {
                    serde_json::Value::String(s) => s,
                    other => other.to_string(),
                };
                response.tool_calls.push(ToolCall { name: call.name, arguments });
            }
            response.usage = entry.usage.unwrap_or_default();
            if let Some(words) = &entry.refusal {
                response.refuse(RefusalKind::Refused, words);
            }
            if entry.filtered {
                response.refuse(RefusalKind::Filtered, "");
            }
            queues.entry((entry.agent, entry.purpose)).or_default().push_back(response);
        }
        Ok(Self { queues: RefCell::new(queues) })
    }

    /// A script that answers every call of a recorded run exactly as it was answered.
    pub fn from_events(events: &[Event]) -> Self {
        let mut queues = Queues::new();
        for e in events {
            if let Event::ModelCall {
                agent,
                purpose,
                raw,
                tool_calls,
                usage,
                incomplete,
                reasoning,
                truncated,
                adapted,
                refusal,
                human,
                by,
                ..
            } = e
            {
                let mut response =
                    ChatResponse::text(if tool_calls.is_empty() { raw.clone() } else { String::new() });
                response.tool_calls = tool_calls.clone();
                response.usage = *usage;
                response.incomplete = *incomplete;
                response.reasoning = reasoning.clone();
                response.truncated = *truncated;
                response.adapted = adapted.clone();
                response.refusal = refusal.clone();
                response.human = *human;
                response.by = by.clone();
                queues.entry((agent.clone(), *purpose)).or_default().push_back(response);
            }
        }
        Self { queues: RefCell::new(queues) }
    }

    /// The next unused response for this agent and purpose, if any.
    pub fn take_next(&self, agent: &str, purpose: Purpose) -> Option<ChatResponse> {
        self.queues.borrow_mut().get_mut(&(agent.to_string(), purpose)).and_then(VecDeque::pop_front)
    }

    /// Responses not yet used.
    pub fn remaining(&self) -> usize {
        self.queues.borrow().values().map(VecDeque::len).sum()
    }
}

impl ChatModel for ScriptedModel {
    fn complete<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, ModelError>> {
        let next = self.take_next(&request.agent, request.purpose);
        Box::pin(async move {
            next.ok_or_else(|| ModelError::ScriptExhausted {
                agent: request.agent.clone(),
                purpose: request.purpose,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ChatMessage;

    fn ask(model: &ScriptedModel, agent: &str, purpose: Purpose) -> Result<ChatResponse, ModelError> {
        let req = ChatRequest::new(agent, purpose, vec![ChatMessage::user("hi")]);
        futures::executor::block_on(model.complete(&req))
    }

    #[test]
    fn queues_are_per_agent_and_purpose() {
        let m = ScriptedModel::from_json(
            r#"[{"agent":"A","purpose":"bid","content":"<1>"},
                {"agent":"B","purpose":"bid","content":"<2>"},
                {"agent":"A","purpose":"bid","content":"<3>"},
                {"agent":"A","purpose":"handoff","tool_call":{"name":"handoff","arguments":{"response":"x","next_agent_name":"b"}}}]"#,
        )
        .unwrap();
        assert_eq!(ask(&m, "B", Purpose::Bid).unwrap().content, "<2>");
        assert_eq!(ask(&m, "A", Purpose::Bid).unwrap().content, "<1>");
        assert_eq!(ask(&m, "A", Purpose::Bid).unwrap().content, "<3>");
        let call = ask(&m, "A", Purpose::Handoff).unwrap();
        assert_eq!(call.tool_calls[0].name, "handoff");
        assert!(call.tool_calls[0].arguments.contains("\"next_agent_name\":\"b\""));
        assert_eq!(
            ask(&m, "A", Purpose::Bid).unwrap_err().to_string(),
            "the script has no response left for agent \"A\" and purpose \"bid\""
        );
    }

    #[test]
    fn bad_scripts_name_the_entry() {
        let e = ScriptedModel::from_json(
            r#"[{"agent":"A","purpose":"bid","content":"x"},{"agent":"A","purpose":"sing"}]"#,
        )
        .unwrap_err();
        assert!(e.starts_with("script entry 2:"), "{e}");
        assert!(ScriptedModel::from_json("{}").unwrap_err().contains("not a JSON list"));
    }
}
