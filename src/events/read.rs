//! Reads the types inside events (messages, tool calls, usage, parse results, proposals, a
//! call's request) from JSON with the shared readers of [`Fields`]; the events themselves are
//! read by [`super::event_from_value`], which the event declaration in `events.rs` generates.
//!
//! Written by hand rather than derived: serde's derive for an internally tagged enum (`"type":
//! "bid"`) buffers each event through a generic content type and then reads every field from
//! it, which gave the browser build a second copy of every reader inside an event (the whole
//! scenario included) and one function of 56 KB.
//!
//! The rules are serde's: unknown fields are ignored, a missing `Option` (or a field written
//! only when it is not empty) reads as empty, anything else missing is an error naming it.

use serde_json::Value;

use super::{MessageDelta, ParseOutcome, Proposal, Request};
use crate::failure::Adaptation;
use crate::json::{deserialize_with_fields, Fields};
use crate::model::{ChatMessage, Refusal, RefusalKind, ToolCall, ToolSpec, Usage};

// The types inside events, read with the same shared readers.

deserialize_with_fields!(ChatMessage, "a message");
deserialize_with_fields!(MessageDelta, "a message change");
deserialize_with_fields!(ToolSpec, "a tool");
deserialize_with_fields!(ToolCall, "a tool call");
deserialize_with_fields!(Usage, "usage");
deserialize_with_fields!(ParseOutcome, "parse");
deserialize_with_fields!(Proposal, "a proposal");
deserialize_with_fields!(Adaptation, "an adaptation");
deserialize_with_fields!(Refusal, "a refusal");

impl Refusal {
    fn read(mut f: Fields) -> Result<Refusal, String> {
        let kind = match f.string("kind")?.as_str() {
            "refused" => RefusalKind::Refused,
            "filtered" => RefusalKind::Filtered,
            "unanswered" => RefusalKind::Unanswered,
            other => return Err(format!("unknown refusal kind `{other}`")),
        };
        Ok(Refusal { kind, text: f.string_or_empty("text")? })
    }
}

impl Adaptation {
    fn read(mut f: Fields) -> Result<Adaptation, String> {
        Ok(Adaptation {
            parameter: f.string("parameter")?,
            change: f.string("change")?,
            message: f.string("message")?,
        })
    }
}

impl ChatMessage {
    fn read(mut f: Fields) -> Result<ChatMessage, String> {
        Ok(ChatMessage { role: f.any("role")?, content: f.string("content")? })
    }
}

impl MessageDelta {
    fn read(mut f: Fields) -> Result<MessageDelta, String> {
        Ok(MessageDelta { role: f.any("role")?, keep: f.usize("keep")?, append: f.string("append")? })
    }
}

impl ToolSpec {
    fn read(mut f: Fields) -> Result<ToolSpec, String> {
        Ok(ToolSpec {
            name: f.string("name")?,
            description: f.string("description")?,
            parameters: f.any("parameters")?,
        })
    }
}

impl ToolCall {
    fn read(mut f: Fields) -> Result<ToolCall, String> {
        Ok(ToolCall { name: f.string("name")?, arguments: f.string("arguments")? })
    }
}

impl Usage {
    fn read(mut f: Fields) -> Result<Usage, String> {
        Ok(Usage {
            prompt_tokens: f.u32("prompt_tokens")?,
            completion_tokens: f.u32("completion_tokens")?,
            reasoning_tokens: f.maybe_u32("reasoning_tokens")?.unwrap_or(0),
        })
    }
}

impl ParseOutcome {
    fn read(mut f: Fields) -> Result<ParseOutcome, String> {
        Ok(ParseOutcome {
            ok: f.bool("ok")?,
            value: f.maybe_any("value")?.flatten(),
            error: f.opt_string("error")?,
        })
    }
}

impl Proposal {
    fn read(mut f: Fields) -> Result<Proposal, String> {
        Ok(Proposal {
            by: f.string("by")?,
            sell_resource: f.string("sell_resource")?,
            buy_resource: f.string("buy_resource")?,
            quantity: f.i64("quantity")?,
        })
    }
}

// The messages of a call come whole (a JSON list) or as changes to an earlier call's (an object
// with `base`); serde's untagged enums would buffer both shapes through its content type.
impl<'de> serde::Deserialize<'de> for Request {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let value = Value::deserialize(deserializer)?;
        if value.is_array() {
            return Vec::<ChatMessage>::deserialize(value).map(Request::Full).map_err(D::Error::custom);
        }
        Fields::new(value, "a request")
            .and_then(|mut f| Ok(Request::Delta { base: f.usize("base")?, messages: f.any("messages")? }))
            .map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{event_from_value, Event};
    use super::*;

    /// Every event the presets produce, written and read back, is the same event.
    #[test]
    fn every_preset_event_reads_back() {
        let mut kinds = std::collections::BTreeSet::new();
        for preset in crate::presets::PRESETS {
            let events = crate::engine::demo_events(&preset.scenario());
            // The presets open without a topic specifier or describer, and end without errors.
            let others = [
                Event::TopicSpecified { original: "t".into(), specified: "a sharper t".into() },
                Event::CharacterDescribed { agent: "A".into(), description: "bold".into() },
                Event::Error { turn: 3, message: "the provider said no".into() },
            ];
            for e in events.iter().chain(&others) {
                let json = e.to_json();
                kinds.insert(
                    serde_json::from_str::<Value>(&json).unwrap()["type"].as_str().unwrap().to_string(),
                );
                assert_eq!(&serde_json::from_str::<Event>(&json).unwrap(), e, "{json}");
            }
        }
        assert_eq!(kinds.len(), 18, "every event type is covered: {kinds:?}");
    }

    #[test]
    fn optional_fields_may_be_left_out_and_required_ones_may_not() {
        let e = event_from_value(serde_json::json!({"type": "director_choice", "turn": 2, "raw": "x",
            "agent": "A", "fallback": true, "extra": 1}))
        .unwrap();
        assert_eq!(
            e,
            Event::DirectorChoice {
                turn: 2,
                raw: "x".into(),
                index: None,
                agent: "A".into(),
                fallback: true
            }
        );
        let old_error = event_from_value(serde_json::json!({"type": "error", "message": "m"})).unwrap();
        assert_eq!(old_error, Event::Error { turn: 0, message: "m".into() });

        let missing =
            event_from_value(serde_json::json!({"type": "bid", "turn": 1, "agent": "A"})).unwrap_err();
        assert_eq!(missing, "a bid event has no `raw`");
        let wrong = event_from_value(serde_json::json!({"type": "stop_draw", "turn": "one"})).unwrap_err();
        assert_eq!(wrong, "`turn` of a stop_draw event must be a whole number from 0");
        let nested = event_from_value(serde_json::json!({"type": "message", "turn": 1, "speaker": "A",
            "text": "t", "kind": "shout"}))
        .unwrap_err();
        assert!(nested.starts_with("`kind` of a message event: unknown variant `shout`"), "{nested}");
        assert_eq!(
            event_from_value(serde_json::json!({"type": "party"})).unwrap_err(),
            "unknown event type `party`"
        );
        assert_eq!(event_from_value(serde_json::json!({"turn": 1})).unwrap_err(), "an event has no `type`");
        assert_eq!(event_from_value(serde_json::json!([1])).unwrap_err(), "an event must be a JSON object");
    }
}
