//! The view the app renders is the event log folded: check it against the log itself.

mod common;

use agora::events::Event;
use agora::presets::find;
use agora::view::RunView;
use common::*;

#[test]
fn a_bidding_view_shows_every_bid_winner_and_message() {
    let events = run_demo(find("rail-debate").unwrap().scenario());
    let view = RunView::from_events(&events);
    assert_eq!(view.applied, events.len());
    assert_eq!(view.transcript.len(), messages(&events).len());
    assert!(view.transcript[0].injected && view.transcript[0].speaker == "Debate Moderator");
    assert_eq!(view.bid_turns.len(), 10);
    for board in &view.bid_turns {
        assert_eq!(board.bids.len(), 3);
        let max = board.bids.iter().map(|b| b.value).max().unwrap();
        let winner = board.winner.clone().unwrap();
        assert_eq!(board.bids.iter().find(|b| b.agent == winner).unwrap().value, max);
        let spoke = view.transcript.iter().find(|r| r.turn == board.turn).unwrap();
        assert_eq!(spoke.speaker, winner);
        assert_eq!(board.tie, board.bids.iter().filter(|b| b.value == max).count() > 1);
    }
    let history = view.bid_history(60);
    assert_eq!(history.len(), 3);
    assert!(history.iter().all(|(_, v)| v.len() == 10));
    let recent = view.bid_history(4);
    assert_eq!(recent[0].1, history[0].1[6..].to_vec(), "the last four turns");
    let calls = events.iter().filter(|e| matches!(e, Event::ModelCall { .. })).count();
    assert_eq!(view.calls.len(), calls);
    assert_eq!(view.stats.total.calls as usize, calls);
    assert_eq!(view.stats.total.orchestration_calls, 30);
    assert_eq!(view.stats.total.speech_calls, 10);
    assert_eq!(view.finished, Some(agora::events::FinishReason::TurnLimit));
}

#[test]
fn every_message_an_agent_spoke_is_counted_as_speech_in_every_preset() {
    use agora::events::MessageKind;
    for preset in agora::presets::PRESETS {
        let events = run_demo(preset.scenario());
        let view = RunView::from_events(&events);
        let spoken = events
            .iter()
            .filter(|e| matches!(e, Event::Message { kind, .. } if *kind != MessageKind::Injected))
            .count();
        assert!(spoken > 0, "{}", preset.id);
        assert_eq!(view.stats.total.speech_calls as usize, spoken, "{}", preset.id);
        let per_agent: u32 = view.stats.per_agent.values().map(|t| t.speech_calls).sum();
        assert_eq!(per_agent, view.stats.total.speech_calls, "{}", preset.id);
    }
}

#[test]
fn a_director_view_pairs_each_stop_draw_with_its_reflection_and_choice() {
    let events = run_demo(find("daily-show-director").unwrap().scenario());
    let view = RunView::from_events(&events);
    let draws = events.iter().filter(|e| matches!(e, Event::StopDraw { .. })).count();
    assert_eq!(view.director.len(), draws);
    for (i, d) in view.director.iter().enumerate() {
        assert_eq!(d.stop, d.sample < d.probability);
        assert!(d.reflection.is_some() != d.stop, "a continuing director reflects; a stopping one sums up");
        if i + 1 < view.director.len() {
            let pick = d.choice.clone().unwrap();
            let next = view.transcript.iter().find(|r| r.turn == d.turn + 1).unwrap();
            assert_eq!(next.speaker, pick.agent, "the chosen correspondent speaks next");
        }
    }
    assert!(
        view.director.last().unwrap().stop || view.finished == Some(agora::events::FinishReason::TurnLimit)
    );
}

#[test]
fn handoff_counts_add_up_and_fallbacks_are_counted() {
    let mut s = find("ai-morality-handoff").unwrap().scenario();
    s.model.demo.malformed_rate = 0.5;
    let events = run_demo(s);
    let view = RunView::from_events(&events);
    assert_eq!(view.handoffs.len(), 10);
    assert_eq!(view.handoff_counts.values().sum::<u32>(), 10);
    let fallbacks = view.handoffs.iter().filter(|h| h.fallback).count() as u32;
    assert!(fallbacks > 0);
    assert_eq!(view.stats.total.fallbacks, fallbacks);
    for h in &view.handoffs {
        assert_ne!(h.from, h.to);
    }
}

#[test]
fn the_negotiation_view_follows_inventories_scores_and_the_optimizer() {
    let events = run_demo(find("trading-game").unwrap().scenario());
    let view = RunView::from_events(&events);
    let game = view.negotiation.expect("a negotiation view");
    assert_eq!(game.games.len(), 5);
    assert_eq!(game.optimum, 73);
    assert_eq!(game.games.last().unwrap().overall, 73);
    assert_eq!(game.overall(), 73, "the live values end at the final score");
    assert_eq!(game.inventories["Alice"].iter().sum::<i64>(), 9);
    assert_eq!(game.optimizer.len(), 5);
    assert!(game.optimizer[0].next_prompts.is_some());
    assert_eq!(game.pending, None);
    let invalid = game.actions.iter().filter(|a| !a.valid).count() as u32;
    assert_eq!(view.stats.total.fallbacks, invalid);
}

#[test]
fn a_pending_proposal_shows_until_answered() {
    let s = script(&[
        (
            "Alice",
            "negotiation_action",
            r#"{"action":"TRADE","sell_resource":"STONE","buy_resource":"WOOD","quantity":1}"#,
        ),
        ("Bob", "negotiation_action", r#"{"action":"END"}"#),
    ]);
    let sc = scenario(
        r#"{"version":1,"title":"t","topic":"t","max_turns":3,"agents":[{"name":"Alice"},{"name":"Bob"}],"method":{"kind":"negotiation","iterations":1}}"#,
    );
    let events = run_script(sc, &s);
    let mut view = RunView::default();
    let mut seen = Vec::new();
    for e in &events {
        view.apply(e);
        if let Event::Action { .. } = e {
            let g = view.negotiation.as_ref().unwrap();
            seen.push((g.pending.as_ref().map(|p| (p.by.clone(), p.quantity)), g.end_requested_by.clone()));
        }
    }
    assert_eq!(seen, [(Some(("Alice".into(), 1)), None), (Some(("Alice".into(), 1)), Some("Bob".into()))]);
}

#[test]
fn the_in_tab_engine_time_of_every_call_is_summed_and_counts_as_a_measured_timing() {
    use agora::model::EngineTime;
    let mut events = run_demo(find("rail-debate").unwrap().scenario());
    assert_eq!(RunView::from_events(&events).stats.engine.rates(), None, "no engine time on the demo model");
    let mut calls = 0;
    for e in &mut events {
        if let Event::ModelCall { engine, .. } = e {
            calls += 1;
            *engine = Some(EngineTime {
                read_tokens: 100,
                reused_tokens: 30,
                read_ms: 50.0,
                written_tokens: 10,
                written_ms: 20.0,
            });
        }
    }
    let view = RunView::from_events(&events);
    assert_eq!(view.stats.engine.read_tokens, 100 * calls);
    assert_eq!(view.stats.engine.written_tokens, 10 * calls);
    let (read, written, secs) = view.stats.engine.rates().expect("timed");
    assert_eq!((read, written), (2000.0, 500.0));
    assert!((secs - 0.07 * f64::from(calls)).abs() < 1e-9, "{secs}");
    // A log read back keeps it; comparing runs ignores it, as it ignores latency.
    let line = events.iter().find(|e| matches!(e, Event::ModelCall { .. })).unwrap().to_json();
    assert!(
        line.contains(
            r#""engine":{"read_tokens":100,"reused_tokens":30,"read_ms":50.0,"written_tokens":10,"written_ms":20.0}"#
        ),
        "{line}"
    );
    let by_serde = agora::events::from_json_lines(&line).expect("reads back").remove(0);
    let by_hand = agora::events::event_from_value(serde_json::from_str(&line).unwrap()).expect("reads back");
    for back in [by_serde, by_hand] {
        assert!(
            matches!(back, Event::ModelCall { engine: Some(t), .. } if t.written_ms == 20.0 && t.read_tokens == 100 && t.reused_tokens == 30)
        );
    }
    let plain = run_demo(find("rail-debate").unwrap().scenario());
    let strip = |es: &[Event]| es.iter().map(Event::without_timings).collect::<Vec<_>>();
    assert_ne!(strip(&plain), strip(&events), "an engine-timed call is not a call without one");
    let mut other = events.clone();
    for e in &mut other {
        if let Event::ModelCall { engine: Some(t), .. } = e {
            t.written_ms = 99.0;
        }
    }
    assert_eq!(strip(&other), strip(&events), "but its figures are measured, like latency");
}

#[test]
fn a_turn_is_under_way_from_its_bids_until_its_speaker_has_spoken() {
    for id in ["rail-debate", "daily-show-director", "ai-morality-handoff", "town-hall-selector"] {
        let events = run_demo(find(id).unwrap().scenario());
        let mut seen_open = false;
        for n in 1..=events.len() {
            let view = RunView::from_events(&events[..n]);
            let open = matches!(events[n - 1], Event::SpeakerSelected { .. });
            if open {
                assert!(!view.turn_spoken(), "{id}: turn {} chosen, not yet spoken", view.turn);
                seen_open = true;
            }
            if let Event::Message { turn, kind, .. } = &events[n - 1] {
                if *turn == view.turn && *kind != agora::events::MessageKind::Injected {
                    assert!(view.turn_spoken(), "{id}: turn {turn} spoken");
                }
            }
        }
        assert!(seen_open, "{id}: a turn was chosen");
        assert!(RunView::from_events(&events[..1]).turn_spoken(), "{id}: before any turn");
    }
}
