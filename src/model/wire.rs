//! A call as JSON for the page's demo module (`src/bin/agora-demo.rs`), which reads it with the
//! derived reader, and its reply back. Written field by field through serde_json's writer, as the events are: the
//! derived writer for the cue's variants cost the first page several kilobytes.

use super::{ChatRequest, ChatResponse, Cue};
use crate::events::write::field;
use crate::json::Fields;

/// `{"Name":{"a":…,"b":…}}`, the derived form of a struct variant: from the variant's bindings,
/// or from the fields of the struct a tuple variant holds.
macro_rules! variant {
    ($out:ident, $name:literal, $of:ident: $ty:ident { $first:ident $(, $rest:ident)* }) => {{
        let super::$ty { $first, $($rest,)* .. } = $of;
        variant!($out, $name, $first $(, $rest)*)
    }};
    ($out:ident, $name:literal, $first:ident $(, $rest:ident)*) => {{
        $out.extend_from_slice(concat!("{\"", $name, "\":").as_bytes());
        field($out, concat!("{\"", stringify!($first), "\":"), $first);
        $(field($out, concat!(",\"", stringify!($rest), "\":"), $rest);)*
        $out.extend_from_slice(b"}}");
    }};
}

fn cue(out: &mut Vec<u8>, cue: &Cue) {
    match cue {
        Cue::None => out.extend_from_slice(b"\"None\""),
        Cue::Bid { last_speaker, last_text, turns_since_spoke } => {
            variant!(out, "Bid", last_speaker, last_text, turns_since_spoke)
        }
        Cue::Speak { topic, word_limit, last_speaker, last_text } => {
            variant!(out, "Speak", topic, word_limit, last_speaker, last_text)
        }
        Cue::Director { topic, word_limit, speakers, turns_taken, last_speaker, next_speaker } => {
            variant!(out, "Director", topic, word_limit, speakers, turns_taken, last_speaker, next_speaker)
        }
        Cue::Handoff { topic, word_limit, options, last_speaker, last_text } => {
            variant!(out, "Handoff", topic, word_limit, options, last_speaker, last_text)
        }
        Cue::Select { candidates, last_speaker, attempt } => {
            variant!(out, "Select", candidates, last_speaker, attempt)
        }
        Cue::Negotiate(c) => {
            variant!(out, "Negotiate", c: NegotiationCue { player, resources, inventory, value_scale, strategy, history })
        }
        Cue::Optimize(c) => variant!(
            out,
            "Optimize",
            c: OptimizerCue { players, resources, start_inventories, value_scale, prompts, overall, optimum, iteration }
        ),
        Cue::Describe { subject, topic, word_limit } => variant!(out, "Describe", subject, topic, word_limit),
    }
}

impl ChatResponse {
    /// A reply the demo module wrote (its text, tool calls and usage), read with the event
    /// log's readers rather than a derived one the first page would carry only for this.
    pub fn from_demo_json(text: &str) -> Result<ChatResponse, String> {
        let value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let mut f = Fields::new(value, "the demo model's reply")?;
        Ok(ChatResponse {
            content: f.string("content")?,
            tool_calls: f.any_or_default("tool_calls")?,
            usage: f.any("usage")?,
            ..ChatResponse::default()
        })
    }
}

impl ChatRequest {
    /// The call as JSON, as its derived reader takes it.
    pub fn to_json(&self) -> String {
        let ChatRequest { agent, purpose, messages, tools, response_format, temperature, max_tokens, cue: c } =
            self;
        let mut out = Vec::with_capacity(256);
        field(&mut out, "{\"agent\":", agent);
        field(&mut out, ",\"purpose\":", purpose);
        field(&mut out, ",\"messages\":", messages);
        field(&mut out, ",\"tools\":", tools);
        field(&mut out, ",\"response_format\":", response_format);
        field(&mut out, ",\"temperature\":", temperature);
        field(&mut out, ",\"max_tokens\":", max_tokens);
        out.extend_from_slice(b",\"cue\":");
        cue(&mut out, c);
        out.push(b'}');
        String::from_utf8(out).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::rc::Rc;

    use futures::future::LocalBoxFuture;

    use crate::clock::FrozenClock;
    use crate::demo::DemoModel;
    use crate::engine::Run;
    use crate::methods::handoff::settings::HandoffVia;
    use crate::model::{ChatModel, ChatRequest, ChatResponse, ModelError};
    use crate::scenario::Method;

    /// The demo model, keeping every call it is asked and its reply.
    struct Kept(DemoModel, RefCell<Vec<ChatRequest>>, Rc<RefCell<Vec<ChatResponse>>>);

    impl ChatModel for Kept {
        fn complete<'a>(
            &'a self,
            request: &'a ChatRequest,
        ) -> LocalBoxFuture<'a, Result<ChatResponse, ModelError>> {
            self.1.borrow_mut().push(request.clone());
            let replies = self.2.clone();
            Box::pin(futures::FutureExt::map(self.0.complete(request), move |reply| {
                replies.borrow_mut().extend(reply.clone().ok());
                reply
            }))
        }
    }

    #[test]
    fn every_call_and_reply_of_every_preset_reads_back_as_it_was_made() {
        let mut cues = std::collections::BTreeSet::new();
        // Every preset, and the handoff's tool call and JSON modes, whose calls carry a tool or a
        // response format and whose replies a tool call.
        let mut scenarios: Vec<_> = crate::presets::PRESETS.iter().map(|p| p.scenario()).collect();
        for via in [HandoffVia::Tool, HandoffVia::Json] {
            let mut s = crate::presets::find("ai-morality-handoff").unwrap().scenario();
            let Method::Handoff(settings) = &mut s.method else { panic!("a handoff preset") };
            settings.via = via;
            scenarios.push(s);
        }
        let mut tool_calls = 0;
        for mut scenario in scenarios {
            // Malformed replies too, so retries' calls are among them.
            scenario.model.demo.malformed_rate = 0.3;
            let clock = Rc::new(FrozenClock);
            let kept =
                Rc::new(Kept(DemoModel::new(&scenario, clock.clone()), RefCell::default(), Rc::default()));
            let mut run = Run::new(scenario, kept.clone(), clock).unwrap();
            futures::executor::block_on(run.run_to_end());
            for request in kept.1.borrow().iter() {
                let json = request.to_json();
                let back: ChatRequest = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"));
                let mut expected = request.clone();
                // What only a person's seat reads is not sent.
                if let crate::model::Cue::Negotiate(c) = &mut expected.cue {
                    c.game = Default::default();
                    c.seat = 0;
                }
                assert_eq!(back, expected, "{json}");
                cues.insert(
                    json.split("\"cue\":").nth(1).unwrap_or_default().chars().take(6).collect::<String>(),
                );
            }
            // And the replies, as the module writes them and the page reads them.
            for reply in kept.2.borrow().iter() {
                let json = serde_json::to_string(reply).unwrap();
                assert_eq!(&ChatResponse::from_demo_json(&json).unwrap(), reply, "{json}");
            }
            tool_calls += kept.2.borrow().iter().filter(|r| !r.tool_calls.is_empty()).count();
        }
        assert!(tool_calls > 0);
        // Every kind of cue the engine sends went through.
        for kind in ["{\"Bid\"", "{\"Spea", "{\"Dire", "{\"Hand", "{\"Sele", "{\"Nego", "{\"Opti", "{\"Desc"]
        {
            assert!(cues.contains(kind), "no {kind} among {cues:?}");
        }
    }
}
