//! Reads an [`Event`] back from its JSON object.
//!
//! Written by hand rather than derived: serde's derive for an internally tagged enum (`"type":
//! "bid"`) buffers each event through a generic content type and then reads every field from
//! it, which gave the browser build a second copy of every reader inside an event (the whole
//! scenario included) and one function of 56 KB. Here the object is a JSON value, its `type`
//! picks the variant, and each field is read by the same reader used everywhere else.
//!
//! The rules are serde's: unknown fields are ignored, a missing `Option` (or a field written
//! only when it is not empty) reads as empty, anything else missing is an error naming it.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::Event;

/// The fields of one event object, taken out one by one.
struct Fields {
    kind: String,
    map: Map<String, Value>,
}

impl Fields {
    /// A field that must be present.
    fn req<T: DeserializeOwned>(&mut self, name: &str) -> Result<T, String> {
        match self.map.remove(name) {
            Some(value) => self.read(name, value),
            None => Err(format!("a {} event has no `{name}`", self.kind)),
        }
    }

    /// A field that may be left out, read as its empty value then.
    fn opt<T: DeserializeOwned + Default>(&mut self, name: &str) -> Result<T, String> {
        match self.map.remove(name) {
            Some(value) => self.read(name, value),
            None => Ok(T::default()),
        }
    }

    fn read<T: DeserializeOwned>(&self, name: &str, value: Value) -> Result<T, String> {
        T::deserialize(value).map_err(|e| format!("`{name}` of a {} event: {e}", self.kind))
    }
}

/// The event a JSON value holds, or what is wrong with it.
pub fn event_from_value(value: Value) -> Result<Event, String> {
    let Value::Object(mut map) = value else { return Err("an event must be a JSON object".into()) };
    let kind = match map.remove("type") {
        Some(Value::String(kind)) => kind,
        Some(_) => return Err("an event's `type` must be a string".into()),
        None => return Err("an event has no `type`".into()),
    };
    let mut f = Fields { kind, map };
    Ok(match f.kind.as_str() {
        "run_started" => Event::RunStarted { seed: f.req("seed")?, scenario: f.req("scenario")? },
        "topic_specified" => {
            Event::TopicSpecified { original: f.req("original")?, specified: f.req("specified")? }
        }
        "character_described" => {
            Event::CharacterDescribed { agent: f.req("agent")?, description: f.req("description")? }
        }
        "model_call" => Event::ModelCall {
            turn: f.req("turn")?,
            agent: f.req("agent")?,
            purpose: f.req("purpose")?,
            attempt: f.req("attempt")?,
            request: f.req("request")?,
            tools: f.opt("tools")?,
            raw: f.req("raw")?,
            tool_calls: f.opt("tool_calls")?,
            parse: f.req("parse")?,
            latency_ms: f.req("latency_ms")?,
            usage: f.req("usage")?,
            incomplete: f.opt("incomplete")?,
        },
        "bid" => Event::Bid {
            turn: f.req("turn")?,
            agent: f.req("agent")?,
            raw: f.req("raw")?,
            value: f.req("value")?,
            attempts: f.req("attempts")?,
            defaulted: f.req("defaulted")?,
        },
        "speaker_selected" => Event::SpeakerSelected {
            turn: f.req("turn")?,
            agent: f.req("agent")?,
            tie: f.req("tie")?,
            tied: f.opt("tied")?,
        },
        "message" => Event::Message {
            turn: f.req("turn")?,
            speaker: f.req("speaker")?,
            text: f.req("text")?,
            kind: f.req("kind")?,
        },
        "director_choice" => Event::DirectorChoice {
            turn: f.req("turn")?,
            raw: f.req("raw")?,
            index: f.opt("index")?,
            agent: f.req("agent")?,
            fallback: f.req("fallback")?,
        },
        "stop_draw" => Event::StopDraw {
            turn: f.req("turn")?,
            sample: f.req("sample")?,
            probability: f.req("probability")?,
            stop: f.req("stop")?,
        },
        "handoff" => Event::Handoff {
            turn: f.req("turn")?,
            from: f.req("from")?,
            to: f.req("to")?,
            method: f.req("method")?,
            raw: f.req("raw")?,
            fallback: f.req("fallback")?,
            reason: f.opt("reason")?,
        },
        "game_started" => Event::GameStarted {
            iteration: f.req("iteration")?,
            prompts: f.req("prompts")?,
            optimum: f.req("optimum")?,
        },
        "action" => Event::Action {
            turn: f.req("turn")?,
            player: f.req("player")?,
            raw: f.req("raw")?,
            action: f.opt("action")?,
            valid: f.req("valid")?,
            reason: f.req("reason")?,
            pending: f.opt("pending")?,
            end_requested_by: f.opt("end_requested_by")?,
        },
        "inventory" => Event::Inventory {
            turn: f.req("turn")?,
            resources: f.req("resources")?,
            inventories: f.req("inventories")?,
            values: f.req("values")?,
        },
        "game_end" => Event::GameEnd {
            iteration: f.req("iteration")?,
            turn: f.req("turn")?,
            scores: f.req("scores")?,
            overall: f.req("overall")?,
            optimum: f.req("optimum")?,
            reason: f.req("reason")?,
            feedback: f.req("feedback")?,
        },
        "optimizer_iteration" => Event::OptimizerIteration {
            iteration: f.req("iteration")?,
            prompts: f.req("prompts")?,
            overall: f.req("overall")?,
            next_prompts: f.opt("next_prompts")?,
            note: f.opt("note")?,
        },
        // `turn` came later; older logs have none and their errors belong to the opening.
        "error" => Event::Error { turn: f.opt("turn")?, message: f.req("message")? },
        "run_finished" => Event::RunFinished { reason: f.req("reason")? },
        other => return Err(format!("unknown event type `{other}`")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    use crate::clock::FrozenClock;
    use crate::model::demo::DemoModel;

    /// Every event the presets produce, written and read back, is the same event.
    #[test]
    fn every_preset_event_reads_back() {
        let mut kinds = std::collections::BTreeSet::new();
        for preset in &crate::presets::PRESETS {
            let scenario = preset.scenario();
            let model = Rc::new(DemoModel::new(&scenario, Rc::new(FrozenClock)));
            let mut run = crate::engine::Run::new(scenario, model, Rc::new(FrozenClock)).unwrap();
            futures::executor::block_on(run.run_to_end());
            // The presets open without a topic specifier or describer, and end without errors.
            let others = [
                Event::TopicSpecified { original: "t".into(), specified: "a sharper t".into() },
                Event::CharacterDescribed { agent: "A".into(), description: "bold".into() },
                Event::Error { turn: 3, message: "the provider said no".into() },
            ];
            for e in run.events().iter().chain(&others) {
                let json = e.to_json();
                kinds.insert(
                    serde_json::from_str::<Value>(&json).unwrap()["type"].as_str().unwrap().to_string(),
                );
                assert_eq!(&serde_json::from_str::<Event>(&json).unwrap(), e, "{json}");
            }
        }
        assert_eq!(kinds.len(), 17, "every event type is covered: {kinds:?}");
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
        assert!(wrong.starts_with("`turn` of a stop_draw event: invalid type"), "{wrong}");
        assert_eq!(
            event_from_value(serde_json::json!({"type": "party"})).unwrap_err(),
            "unknown event type `party`"
        );
        assert_eq!(event_from_value(serde_json::json!({"turn": 1})).unwrap_err(), "an event has no `type`");
        assert_eq!(event_from_value(serde_json::json!([1])).unwrap_err(), "an event must be a JSON object");
    }
}
