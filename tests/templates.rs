//! The prompt templates the editor offers: each one's text is what the models read (an edit
//! reaches the requests), and "back to the seed's text" puts the seed's bytes back.

use std::cell::RefCell;
use std::rc::Rc;

use agora::clock::FrozenClock;
use agora::demo::DemoModel;
use agora::engine::Run;
use agora::model::{ChatModel, ChatRequest, ChatResponse, ModelError};
use agora::presets::PRESETS;
use agora::scenario::{HandoffVia, Method, Scenario};
use futures::executor::block_on;
use futures::future::LocalBoxFuture;

/// Templates a demo run of the preset may not send: feedback only follows a reply the method
/// could not use, and the director's summary only closes a show that ran out of turns.
fn maybe_unsent(field: &str) -> bool {
    field.ends_with("_feedback") || field == "method.summary" || field == "method.continuation"
}

/// Answers as the demo model does, keeping every request as it was sent (messages, tools and
/// response format alike).
struct Keeping {
    demo: DemoModel,
    sent: RefCell<Vec<String>>,
}

impl ChatModel for Keeping {
    fn complete<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, ModelError>> {
        self.sent.borrow_mut().push(format!("{request:?}"));
        self.demo.complete(request)
    }
}

/// Every request a whole demo run of `s` sends.
fn requests_of(s: Scenario) -> Vec<String> {
    let model = Rc::new(Keeping { demo: DemoModel::new(&s, Rc::new(FrozenClock)), sent: RefCell::default() });
    let judge = s.judge.settings().unwrap();
    let mut run = Run::new(s, model.clone(), Rc::new(FrozenClock)).unwrap();
    block_on(run.run_to_end());
    let mut sent = model.sent.take();
    // The judge's prompts, on the finished run.
    let events = run.events();
    sent.extend(agora::judge::request(events, &judge).map(|r| r.messages[0].content.clone()));
    sent.extend(
        agora::judge::pairwise::request(events, events, &judge).map(|r| r.messages[0].content.clone()),
    );
    // And scoring its first speech as it landed.
    if let Some((turn, agent)) = agora::judge::live::unscored(events).first() {
        sent.extend(
            agora::judge::live::request(events, *turn, agent, &judge).map(|r| r.messages[0].content.clone()),
        );
    }
    sent
}

/// Every preset, and the handoff preset in each of its modes.
fn scenarios() -> Vec<(String, Scenario)> {
    let mut all: Vec<(String, Scenario)> = PRESETS.iter().map(|p| (p.id.to_string(), p.scenario())).collect();
    for via in [HandoffVia::Tool, HandoffVia::Json] {
        let mut s = agora::presets::find("ai-morality-handoff").unwrap().scenario();
        if let Method::Handoff(h) = &mut s.method {
            h.via = via;
        }
        all.push((format!("handoff by {}", via.as_str()), s));
    }
    all
}

#[test]
fn every_template_edited_reaches_the_requests() {
    for (id, mut s) in scenarios() {
        s.opening.specify_topic = true;
        s.opening.describe_characters = true;
        s.max_turns = s.max_turns.min(8);
        let mut marks = Vec::new();
        for (i, (field, _)) in s.templates().into_iter().enumerate() {
            let mark = format!("[edited {i}]");
            let (text, _) = s.template(field).unwrap();
            s.set_template(field, format!("{text} {mark}"));
            assert!(s.template(field).unwrap().0.ends_with(&mark), "{id}: {field} is set");
            marks.push((field, mark));
        }
        let sent = requests_of(s);
        for (field, mark) in marks {
            let reached = sent.iter().any(|r| r.contains(&mark));
            assert!(reached || maybe_unsent(field), "{id}: {field} never reached a request");
        }
    }
}

#[test]
fn back_to_the_seeds_text_restores_its_bytes() {
    for (id, mut s) in scenarios() {
        let fields = s.templates();
        assert!(fields.len() >= 4, "{id}: {} templates", fields.len());
        for (field, _) in fields {
            let (_, seed) = s.template(field).unwrap();
            s.set_template(field, "something else".into());
            assert_eq!(s.template(field).unwrap().0, "something else", "{id}: {field}");
            s.set_template(field, seed.clone());
            assert_eq!(s.template(field).unwrap().0, seed, "{id}: {field}");
        }
        // A shared template put back to the seed's text is the seed's again: absent from the file.
        let file = serde_json::to_value(&s).unwrap();
        assert_eq!(file["prompts"], serde_json::json!({}), "{id}");
    }
}
