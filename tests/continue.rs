//! Continuing a recorded run live: the catch-up reproduces the recording exactly, and a live run
//! forked from any step goes on as the original did when the live model answers as it did.

mod common;

use std::rc::Rc;

use agora::clock::FrozenClock;
use agora::engine::Run;
use agora::events::Event;
use agora::presets::PRESETS;
use agora::replay::{continue_live, resumable, step_starts};
use agora::scripted::ScriptedModel;
use futures::executor::block_on;

fn strip(events: &[Event]) -> Vec<Event> {
    events.iter().map(Event::without_timings).collect()
}

#[test]
fn a_run_forked_at_any_step_goes_on_like_the_original() {
    for preset in PRESETS {
        let recorded = common::run_demo(preset.scenario());
        let starts = step_starts(&recorded);
        assert!(starts.len() > 3, "{}", preset.id);
        for &cut in starts.iter().skip(1).step_by((starts.len() / 4).max(1)) {
            let prefix = &recorded[..cut];
            // The live model answers as the original run's model did after the cut.
            let live = Rc::new(ScriptedModel::from_events(&recorded[cut..]));
            let mut run = block_on(continue_live(prefix, live, Rc::new(FrozenClock)))
                .unwrap_or_else(|e| panic!("{} at {cut}: {e}", preset.id));
            assert_eq!(run.events(), prefix, "{} at {cut}: caught up exactly", preset.id);
            block_on(run.run_to_end());
            assert_eq!(strip(run.events()), strip(&recorded), "{} at {cut}: went on as before", preset.id);
        }
    }
}

#[test]
fn a_run_continued_on_a_fresh_demo_model_goes_on_as_if_never_left() {
    // What a reload does: the recording caught up, then a new demo model (which never saw the
    // calls before the cut) answers the rest. Its replies depend only on what the log fixes, so
    // the run goes on as the uninterrupted one did.
    for preset in PRESETS {
        let recorded = common::run_demo(preset.scenario());
        let starts = step_starts(&recorded);
        for &cut in starts.iter().skip(1).step_by((starts.len() / 4).max(1)) {
            let prefix = &recorded[..cut];
            let scenario = preset.scenario();
            let live = Rc::new(agora::demo::DemoModel::new(&scenario, Rc::new(FrozenClock)));
            let mut run = block_on(continue_live(prefix, live, Rc::new(FrozenClock)))
                .unwrap_or_else(|e| panic!("{} at {cut}: {e}", preset.id));
            block_on(run.run_to_end());
            assert_eq!(strip(run.events()), strip(&recorded), "{} at {cut}: went on as before", preset.id);
        }
    }
}

#[test]
fn the_recorded_timings_are_kept() {
    let mut recorded = common::run_demo(PRESETS[0].scenario());
    for e in &mut recorded {
        if let Event::ModelCall { latency_ms, .. } = e {
            *latency_ms = 1234.5;
        }
    }
    let cut = step_starts(&recorded)[3];
    let run =
        block_on(continue_live(&recorded[..cut], Rc::new(ScriptedModel::default()), Rc::new(FrozenClock)))
            .unwrap();
    let kept = run
        .events()
        .iter()
        .filter(|e| matches!(e, Event::ModelCall { latency_ms, .. } if *latency_ms == 1234.5));
    assert!(kept.count() > 3);
}

#[test]
fn a_turn_that_failed_is_played_again() {
    let scenario = PRESETS[0].scenario();
    let full = common::run_demo(scenario.clone());
    let cut = step_starts(&full)[4];
    // A model that runs out of answers halfway through a turn: the run ends with an error.
    let failing = Rc::new(ScriptedModel::from_events(&full[..cut + 2]));
    let mut run = Run::new(scenario, failing, Rc::new(FrozenClock)).unwrap();
    block_on(run.run_to_end());
    let broken = run.events().to_vec();
    assert_eq!(common::finish_reason(&broken), "error");
    assert_eq!(resumable(&broken), &full[..cut], "the failed turn is dropped");

    let live = Rc::new(ScriptedModel::from_events(&full[cut..]));
    let mut run = block_on(continue_live(&broken, live, Rc::new(FrozenClock))).unwrap();
    block_on(run.run_to_end());
    assert_eq!(strip(run.events()), strip(&full));
}

#[test]
fn recordings_that_cannot_go_on_say_why() {
    let recorded = common::run_demo(PRESETS[0].scenario());
    let none = || Rc::new(ScriptedModel::default());
    let e = block_on(continue_live(&recorded, none(), Rc::new(FrozenClock))).err().unwrap();
    assert!(e.contains("ended at turn") && e.contains("turn_limit"), "{e}");

    let cut = step_starts(&recorded)[5];
    let mut changed = recorded[..cut].to_vec();
    let at = changed.iter().rposition(|e| matches!(e, Event::Bid { .. })).unwrap();
    if let Event::Bid { value, .. } = &mut changed[at] {
        *value += 1;
    }
    let e = block_on(continue_live(&changed, none(), Rc::new(FrozenClock))).err().unwrap();
    assert!(e.contains(&format!("differ from event {}", at + 1)), "{e}");

    let e = block_on(continue_live(&recorded[1..cut], none(), Rc::new(FrozenClock))).err().unwrap();
    assert!(e.contains("run_started"), "{e}");
}

/// The demo model, but every speech comes back cut off, as a broken stream leaves it.
struct CutOff(agora::demo::DemoModel);

impl agora::model::ChatModel for CutOff {
    fn complete<'a>(
        &'a self,
        request: &'a agora::model::ChatRequest,
    ) -> futures::future::LocalBoxFuture<'a, Result<agora::model::ChatResponse, agora::model::ModelError>>
    {
        Box::pin(async move {
            let mut reply = self.0.complete(request).await?;
            if request.purpose == agora::model::Purpose::Speak {
                reply.incomplete = true;
            }
            Ok(reply)
        })
    }
}

#[test]
fn a_recording_with_cut_off_replies_continues_too() {
    let scenario = PRESETS[0].scenario();
    let model = Rc::new(CutOff(agora::demo::DemoModel::new(&scenario, Rc::new(FrozenClock))));
    let mut run = Run::new(scenario, model, Rc::new(FrozenClock)).unwrap();
    block_on(run.run_to_end());
    let recorded = run.events().to_vec();
    let cut_off = recorded
        .iter()
        .filter(|e| matches!(e, Event::Message { kind: agora::events::MessageKind::Incomplete, .. }))
        .count();
    assert!(cut_off > 3);
    let cut = step_starts(&recorded)[5];
    let live = Rc::new(ScriptedModel::from_events(&recorded[cut..]));
    let mut run = block_on(continue_live(&recorded[..cut], live, Rc::new(FrozenClock))).unwrap();
    block_on(run.run_to_end());
    assert_eq!(strip(run.events()), strip(&recorded));
}

#[test]
fn refused_filtered_and_empty_turns_are_recorded_as_such_seen_as_empty_and_replayed_unchanged() {
    use agora::events::{request_messages, MessageKind};
    let scenario = common::scenario(
        r#"{"version":1,"title":"t","topic":"rail","max_turns":3,"seed":4,
            "agents":[{"name":"A"},{"name":"B"}],"method":{"kind":"bidding"}}"#,
    );
    let script = r#"[
        {"agent":"A","purpose":"bid","content":"<9>"},
        {"agent":"B","purpose":"bid","content":"<2>","refusal":"I won't rate that."},
        {"agent":"B","purpose":"bid","content":"<3>"},
        {"agent":"A","purpose":"speak","refusal":"I can't argue that."},
        {"agent":"A","purpose":"bid","content":"<1>"},
        {"agent":"B","purpose":"bid","filtered":true},
        {"agent":"B","purpose":"bid","filtered":true},
        {"agent":"A","purpose":"speak","content":""},
        {"agent":"A","purpose":"bid","content":"<1>"},
        {"agent":"B","purpose":"bid","content":"<8>"},
        {"agent":"B","purpose":"speak","content":"Trains, now."}
    ]"#;
    let recorded = common::run_script(scenario, script);
    assert_eq!(common::finish_reason(&recorded), "turn_limit");
    let said: Vec<(MessageKind, String, String)> = recorded
        .iter()
        .filter_map(|e| match e {
            Event::Message { kind, text, refusal, .. } if *kind != MessageKind::Injected => {
                Some((*kind, text.clone(), refusal.clone()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        said,
        [
            (MessageKind::Refused, String::new(), "I can't argue that.".to_string()),
            (MessageKind::Empty, String::new(), String::new()),
            (MessageKind::Agent, "Trains, now.".to_string(), String::new()),
        ]
    );
    // B's refused bid was asked again and read; the filtered one twice, then defaulted.
    let bids: Vec<(String, i64, u32, bool)> = recorded
        .iter()
        .filter_map(|e| match e {
            Event::Bid { agent, value, attempts, defaulted, .. } => {
                Some((agent.clone(), *value, *attempts, *defaulted))
            }
            _ => None,
        })
        .collect();
    assert_eq!(bids[1], ("B".to_string(), 3, 2, false));
    assert_eq!(bids[3], ("B".to_string(), 0, 2, true));
    let errors: Vec<String> = recorded
        .iter()
        .filter_map(|e| match e {
            Event::ModelCall { parse, .. } if !parse.ok => parse.error.clone(),
            _ => None,
        })
        .collect();
    assert_eq!(
        errors,
        [
            "the model refused: \"I won't rate that.\"",
            "the model refused: \"I can't argue that.\"",
            "the provider's content filter withheld the reply",
            "the provider's content filter withheld the reply",
        ]
    );
    // The agents hear the refused and the empty turn as the seed shows an empty message.
    let last_call = recorded.iter().rposition(|e| matches!(e, Event::ModelCall { .. })).unwrap();
    let prompt = request_messages(&recorded, last_call).unwrap();
    assert!(prompt[1].content.contains("\nA: \nA: \nB: "), "{:?}", prompt[1].content);
    assert!(!prompt[1].content.contains("argue") && !prompt[1].content.contains("<2>"));

    // The view shows each as it was and counts them.
    let view = agora::view::RunView::from_events(&recorded);
    let rows: Vec<(MessageKind, Option<String>)> =
        view.transcript.iter().skip(1).map(|r| (r.kind, r.kind.note(&r.refusal))).collect();
    assert_eq!(
        rows,
        [
            (MessageKind::Refused, Some("the model refused: \"I can't argue that.\"".into())),
            (MessageKind::Empty, Some("the model answered nothing".into())),
            (MessageKind::Agent, None),
        ]
    );
    assert_eq!((view.stats.total.refused, view.stats.total.empty), (4, 1));
    assert_eq!((view.stats.per_agent["A"].refused, view.stats.per_agent["B"].refused), (1, 3));
    assert_eq!(view.bid_turns[1].bids[1].why, "the provider's content filter withheld the reply");

    // Replay and continue-live carry it unchanged, from every step.
    let back = agora::events::from_json_lines(&agora::events::to_json_lines(&recorded)).unwrap();
    assert_eq!(back, recorded);
    for &cut in &step_starts(&recorded)[1..] {
        let live = Rc::new(ScriptedModel::from_events(&recorded[cut..]));
        let mut run = block_on(continue_live(&recorded[..cut], live, Rc::new(FrozenClock))).unwrap();
        block_on(run.run_to_end());
        assert_eq!(strip(run.events()), strip(&recorded), "continued from {cut}");
    }
}
