//! Reads an [`Event`] back from its JSON object.
//!
//! Written by hand rather than derived: serde's derive for an internally tagged enum (`"type":
//! "bid"`) buffers each event through a generic content type and then reads every field from
//! it, which gave the browser build a second copy of every reader inside an event (the whole
//! scenario included) and one function of 56 KB. Here the object is a JSON value, its `type`
//! picks the variant, and each field is read by the same reader used everywhere else.
//!
//! The types inside events (messages, tool calls, usage, parse results, proposals) are read the
//! same way, with the shared readers of [`Fields`] instead of serde's derive.
//!
//! The rules are serde's: unknown fields are ignored, a missing `Option` (or a field written
//! only when it is not empty) reads as empty, anything else missing is an error naming it.

use serde_json::Value;

use super::{Event, MessageDelta, ParseOutcome, Proposal, Request};
use crate::json::{deserialize_with_fields, Fields};
use crate::model::{Adaptation, ChatMessage, ToolCall, ToolSpec, Usage};

/// The event a JSON value holds, or what is wrong with it.
pub fn event_from_value(value: Value) -> Result<Event, String> {
    let mut f = Fields::new(value, "an event")?;
    let kind = f.string("type")?;
    f.describe(format!("a {kind} event"));
    Ok(match kind.as_str() {
        "run_started" => Event::RunStarted { seed: f.u64("seed")?, scenario: f.any("scenario")? },
        "topic_specified" => {
            Event::TopicSpecified { original: f.string("original")?, specified: f.string("specified")? }
        }
        "character_described" => {
            Event::CharacterDescribed { agent: f.string("agent")?, description: f.string("description")? }
        }
        "model_call" => Event::ModelCall {
            turn: f.u32("turn")?,
            agent: f.string("agent")?,
            purpose: f.any("purpose")?,
            attempt: f.u32("attempt")?,
            request: f.any("request")?,
            tools: f.maybe_any("tools")?.unwrap_or_default(),
            raw: f.string("raw")?,
            tool_calls: f.maybe_any("tool_calls")?.unwrap_or_default(),
            parse: f.any("parse")?,
            latency_ms: f.f64("latency_ms")?,
            usage: f.any("usage")?,
            incomplete: f.maybe_bool("incomplete")?.unwrap_or(false),
            reasoning: f.maybe_string("reasoning")?.unwrap_or_default(),
            truncated: f.maybe_bool("truncated")?.unwrap_or(false),
            adapted: f.maybe_any("adapted")?.unwrap_or_default(),
        },
        "bid" => Event::Bid {
            turn: f.u32("turn")?,
            agent: f.string("agent")?,
            raw: f.string("raw")?,
            value: f.i64("value")?,
            attempts: f.u32("attempts")?,
            defaulted: f.bool("defaulted")?,
        },
        "speaker_selected" => Event::SpeakerSelected {
            turn: f.u32("turn")?,
            agent: f.string("agent")?,
            tie: f.bool("tie")?,
            tied: f.maybe_any("tied")?.unwrap_or_default(),
        },
        "message" => Event::Message {
            turn: f.u32("turn")?,
            speaker: f.string("speaker")?,
            text: f.string("text")?,
            kind: f.any("kind")?,
        },
        "director_choice" => Event::DirectorChoice {
            turn: f.u32("turn")?,
            raw: f.string("raw")?,
            index: f.opt_i64("index")?,
            agent: f.string("agent")?,
            fallback: f.bool("fallback")?,
        },
        "stop_draw" => Event::StopDraw {
            turn: f.u32("turn")?,
            sample: f.f64("sample")?,
            probability: f.f64("probability")?,
            stop: f.bool("stop")?,
        },
        "handoff" => Event::Handoff {
            turn: f.u32("turn")?,
            from: f.string("from")?,
            to: f.string("to")?,
            method: f.string("method")?,
            raw: f.string("raw")?,
            fallback: f.bool("fallback")?,
            reason: f.opt_string("reason")?,
        },
        "game_started" => Event::GameStarted {
            iteration: f.u32("iteration")?,
            prompts: f.any("prompts")?,
            optimum: f.i64("optimum")?,
        },
        "action" => Event::Action {
            turn: f.u32("turn")?,
            player: f.string("player")?,
            raw: f.string("raw")?,
            action: f.maybe_any("action")?.unwrap_or_default(),
            valid: f.bool("valid")?,
            reason: f.string("reason")?,
            pending: f.maybe_any("pending")?.unwrap_or_default(),
            end_requested_by: f.opt_string("end_requested_by")?,
        },
        "inventory" => Event::Inventory {
            turn: f.u32("turn")?,
            resources: f.any("resources")?,
            inventories: f.any("inventories")?,
            values: f.any("values")?,
        },
        "game_end" => Event::GameEnd {
            iteration: f.u32("iteration")?,
            turn: f.u32("turn")?,
            scores: f.any("scores")?,
            overall: f.i64("overall")?,
            optimum: f.i64("optimum")?,
            reason: f.string("reason")?,
            feedback: f.string("feedback")?,
        },
        "optimizer_iteration" => Event::OptimizerIteration {
            iteration: f.u32("iteration")?,
            prompts: f.any("prompts")?,
            overall: f.i64("overall")?,
            next_prompts: f.maybe_any("next_prompts")?.unwrap_or_default(),
            note: f.opt_string("note")?,
        },
        "selector_choice" => Event::SelectorChoice {
            turn: f.u32("turn")?,
            candidates: f.any("candidates")?,
            raw: f.string("raw")?,
            agent: f.string("agent")?,
            matched: f.any("matched")?,
            attempts: f.u32("attempts")?,
        },
        // `turn` came later; older logs have none and their errors belong to the opening.
        "error" => Event::Error { turn: f.maybe_u32("turn")?.unwrap_or(0), message: f.string("message")? },
        "run_finished" => Event::RunFinished { reason: f.any("reason")? },
        "spending_cap_reached" => Event::SpendingCapReached {
            turn: f.u32("turn")?,
            tokens: f.u64("tokens")?,
            cost: f.maybe_f64("cost")?,
            cap: f.any("cap")?,
        },
        "spending_cap_set" => Event::SpendingCapSet { turn: f.u32("turn")?, cap: f.any("cap")? },
        other => return Err(format!("unknown event type `{other}`")),
    })
}

// The types inside events, read with the same shared readers.

deserialize_with_fields!(ChatMessage, "a message");
deserialize_with_fields!(MessageDelta, "a message change");
deserialize_with_fields!(ToolSpec, "a tool");
deserialize_with_fields!(ToolCall, "a tool call");
deserialize_with_fields!(Usage, "usage");
deserialize_with_fields!(ParseOutcome, "parse");
deserialize_with_fields!(Proposal, "a proposal");
deserialize_with_fields!(Adaptation, "an adaptation");

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
    use super::*;

    /// Every event the presets produce, written and read back, is the same event.
    #[test]
    fn every_preset_event_reads_back() {
        let mut kinds = std::collections::BTreeSet::new();
        for preset in &crate::presets::PRESETS {
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
