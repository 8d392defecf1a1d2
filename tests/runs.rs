//! Whole runs: the negotiation game and optimizer, every preset on the demo model, determinism,
//! and the demo model's malformed-output setting.

mod common;

use agora::events::{from_json_lines, to_json_lines, Event, FinishReason};
use agora::presets::PRESETS;
use std::rc::Rc;

use agora::clock::FrozenClock;
use agora::demo::DemoModel;
use agora::engine::{Run, StepOutcome};
use common::*;

fn trading(iterations: u32, turns: u32) -> agora::scenario::Scenario {
    scenario(&format!(
        r#"{{"version":1,"title":"trade","topic":"trade","max_turns":{turns},
            "agents":[{{"name":"Alice"}},{{"name":"Bob"}}],
            "method":{{"kind":"negotiation","iterations":{iterations}}}}}"#
    ))
}

fn actions(events: &[Event]) -> Vec<(String, bool, String)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Action { player, valid, reason, .. } => Some((player.clone(), *valid, reason.clone())),
            _ => None,
        })
        .collect()
}

fn last_inventories(events: &[Event]) -> Vec<Vec<i64>> {
    events
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::Inventory { inventories, .. } => {
                Some(vec![inventories["Alice"].clone(), inventories["Bob"].clone()])
            }
            _ => None,
        })
        .unwrap()
}

#[test]
fn a_scripted_game_trades_scores_and_ends_when_both_end() {
    let s = script(&[
        (
            "Alice",
            "negotiation_action",
            r#"{"action": "TRADE", "sell_resource": "STONE", "buy_resource": "WOOD", "quantity": 1}"#,
        ),
        ("Bob", "negotiation_action", r#"{"action": "ACCEPT"}"#),
        (
            "Alice",
            "negotiation_action",
            "{'action': 'TRADE', 'sell_resource': 'STONE', 'buy_resource': 'GOLD', 'quantity': 2}",
        ),
        ("Bob", "negotiation_action", "Sure! {\"action\": \"ACCEPT\"}"),
        ("Alice", "negotiation_action", r#"{"action": "END"}"#),
        ("Bob", "negotiation_action", r#"{"action": "END"}"#),
    ]);
    let events = run_script(trading(1, 30), &s);
    assert!(actions(&events).iter().all(|a| a.1), "{:?}", actions(&events));
    assert_eq!(last_inventories(&events), [vec![5, 0, 4], vec![0, 8, 0]]);
    let end = events.iter().find_map(|e| match e {
        Event::GameEnd { scores, overall, optimum, reason, feedback, .. } => {
            Some((scores.clone(), *overall, *optimum, reason.clone(), feedback.clone()))
        }
        _ => None,
    });
    let (scores, overall, optimum, reason, feedback) = end.expect("the game ends");
    assert_eq!((scores["Alice"], scores["Bob"], overall, optimum), (19, 54, 73, 73));
    assert_eq!(reason, "both_ended");
    assert_eq!(feedback, "The game has ended. Alice has inventory with value of 19 and Bob has inventory with value of 54.\nOVERALL SCORE: 73");
    assert_eq!(finish_reason(&events), "game_over");
}

#[test]
fn broken_and_impossible_actions_are_recorded_and_change_nothing() {
    let s = script(&[
        ("Alice", "negotiation_action", r#"{"action": "TRADE", "sell_resource": "WOOD""#),
        ("Bob", "negotiation_action", r#"{"action": "ACCEPT"}"#),
        (
            "Alice",
            "negotiation_action",
            r#"{"action": "TRADE", "sell_resource": "GOLD", "buy_resource": "WOOD", "quantity": 5}"#,
        ),
        ("Bob", "negotiation_action", "no idea"),
        ("Alice", "negotiation_action", r#"{"action": "FLY"}"#),
        (
            "Bob",
            "negotiation_action",
            r#"{"action": "TRADE", "sell_resource": "STONE", "buy_resource": "STONE", "quantity": 1}"#,
        ),
    ]);
    let events = run_script(trading(1, 6), &s);
    let got = actions(&events);
    let reasons: Vec<&str> = got.iter().map(|a| a.2.as_str()).collect();
    assert!(got.iter().all(|a| !a.1), "every action here is invalid: {got:?}");
    assert!(reasons[0].contains("not closed"));
    assert!(reasons[1].contains("no proposal"));
    assert!(reasons[2].contains("proposer has only 2 GOLD"));
    assert!(reasons[3].contains("no JSON object"));
    assert!(reasons[4].contains("unknown action"));
    assert!(reasons[5].contains("different resources"));
    assert_eq!(last_inventories(&events), [vec![4, 3, 2], vec![1, 5, 2]]);
    let end = events.iter().find_map(|e| match e {
        Event::GameEnd { overall, reason, .. } => Some((*overall, reason.clone())),
        _ => None,
    });
    assert_eq!(end, Some((28, "turn_limit".to_string())), "the turn limit ends a game that never ends");
}

#[test]
fn the_player_prompt_carries_rules_name_strategy_inventory_and_transcript() {
    let s = script(&[
        ("Alice", "negotiation_action", r#"{"action": "END"}"#),
        ("Bob", "negotiation_action", r#"{"action": "REJECT"}"#),
    ]);
    let events = run_script(trading(1, 2), &s);
    let index =
        events.iter().position(|e| matches!(e, Event::ModelCall { agent, .. } if agent == "Bob")).unwrap();
    let bob = agora::events::request_messages(&events, index).unwrap();
    assert!(bob[0].content.contains("RULES of the TRADING GAME between two players named Alice and Bob."));
    assert_eq!(bob[1].content, "In the trading game, you are named Bob.\n");
    assert_eq!(bob[2].content, "STOCKPILE THESE RESOURCES: N/A");
    assert_eq!(bob[3].content, "Your inventory consists of 1 WOOD, 5 STONE, and 2 GOLD.");
    assert_eq!(bob[4].content, "This is the transcript of the conversation so far.");
    assert_eq!(bob[5].content, "Alice said: {\"action\": \"END\"}\n");
}

#[test]
fn the_optimizer_rewrites_prompts_between_games_and_keeps_them_when_unreadable() {
    let mut entries = Vec::new();
    for _ in 0..3 {
        entries.push(("Alice", "negotiation_action", r#"{"action": "END"}"#));
        entries.push(("Bob", "negotiation_action", r#"{"action": "END"}"#));
    }
    entries.push((
        "Optimizer",
        "optimizer",
        r#"{"Alice": "STOCKPILE THESE RESOURCES: WOOD, GOLD", "Bob": "STOCKPILE THESE RESOURCES: STONE"}"#,
    ));
    entries.push(("Optimizer", "optimizer", r#"{"reasoning": "unsure", "suggestion": {}}"#));
    let events = run_script(trading(3, 10), &script(&entries));
    let iterations: Vec<(u32, String, Option<String>, i64)> = events
        .iter()
        .filter_map(|e| match e {
            Event::OptimizerIteration { iteration, prompts, next_prompts, overall, .. } => Some((
                *iteration,
                prompts["Alice"].clone(),
                next_prompts.as_ref().map(|n| n["Bob"].clone()),
                *overall,
            )),
            _ => None,
        })
        .collect();
    assert_eq!(
        iterations,
        [
            (
                1,
                "STOCKPILE THESE RESOURCES: N/A".to_string(),
                Some("STOCKPILE THESE RESOURCES: STONE".to_string()),
                28
            ),
            (2, "STOCKPILE THESE RESOURCES: WOOD, GOLD".to_string(), None, 28),
            (3, "STOCKPILE THESE RESOURCES: WOOD, GOLD".to_string(), None, 28),
        ]
    );
    let index = events
        .iter()
        .position(|e| matches!(e, Event::ModelCall { agent, .. } if agent == "Optimizer"))
        .unwrap();
    let p = agora::events::request_messages(&events, index).unwrap()[1].content.clone();
    assert!(p.contains("OVERALL SCORE is less than optimal."), "the feedback reaches the optimizer");
    assert!(p.contains("Alice: 4 WOOD, 3 STONE, and 2 GOLD"));
}

#[test]
fn the_demo_negotiators_reach_the_optimum_after_optimization() {
    let events = run_demo(agora::presets::find("trading-game").unwrap().scenario());
    let overall: Vec<i64> = events
        .iter()
        .filter_map(|e| match e {
            Event::GameEnd { overall, optimum, .. } => {
                assert_eq!(*optimum, 73);
                Some(*overall)
            }
            _ => None,
        })
        .collect();
    assert_eq!(overall.len(), 5);
    assert!(overall[0] < 73, "the untrained prompts fall short: {overall:?}");
    assert_eq!(*overall.last().unwrap(), 73, "{overall:?}");
}

fn without_timings(events: &[Event]) -> Vec<Event> {
    events.iter().map(Event::without_timings).collect()
}

#[test]
fn equal_seeds_give_identical_logs_and_other_seeds_differ() {
    for preset in PRESETS {
        for malformed in [0.0, 0.3] {
            let mut s = preset.scenario();
            s.model.demo.malformed_rate = malformed;
            let a = run_demo(s.clone());
            let b = run_demo(s.clone());
            assert_eq!(without_timings(&a), without_timings(&b), "{} malformed {malformed}", preset.id);
            s.seed += 1;
            let c = run_demo(s);
            assert_ne!(without_timings(&a), without_timings(&c), "{}: another seed, another run", preset.id);
        }
    }
}

#[test]
fn every_preset_runs_to_its_natural_end_on_the_demo_model() {
    for preset in PRESETS {
        let scenario = preset.scenario();
        let events = run_demo(scenario.clone());
        let reason = finish_reason(&events);
        let expected: &[&str] = match scenario.method.name() {
            "director" => &["director_stopped", "turn_limit"],
            "negotiation" => &["game_over"],
            _ => &["turn_limit"],
        };
        assert!(expected.contains(&reason.as_str()), "{}: {reason}", preset.id);
        assert!(!events.iter().any(|e| matches!(e, Event::Error { .. })), "{}", preset.id);
        for (speaker, text) in messages(&events) {
            let words = text.split_whitespace().count() as u32;
            if scenario.method.name() != "negotiation" && speaker != scenario.opening.speaker {
                // The director's message joins a comment and a question, each within the limit.
                let limit = if speaker == scenario.agents[0].name && scenario.method.name() == "director" {
                    2
                } else {
                    1
                };
                assert!(
                    words <= scenario.word_limit * limit + 2,
                    "{}: {speaker} said {words} words: {text}",
                    preset.id
                );
            }
        }
    }
}

#[test]
fn the_malformed_setting_shows_retries_defaults_and_fallbacks() {
    let mut retries = 0;
    let mut defaults = 0;
    let mut director_fallbacks = 0;
    let mut handoff_fallbacks = 0;
    let mut invalid_actions = 0;
    for preset in PRESETS {
        let mut s = preset.scenario();
        s.model.demo.malformed_rate = 0.4;
        for e in run_demo(s) {
            match e {
                Event::Bid { attempts, defaulted, .. } => {
                    retries += (attempts > 1) as u32;
                    defaults += defaulted as u32;
                }
                Event::DirectorChoice { fallback: true, .. } => director_fallbacks += 1,
                Event::Handoff { fallback: true, .. } => handoff_fallbacks += 1,
                Event::Action { valid: false, .. } => invalid_actions += 1,
                _ => {}
            }
        }
    }
    assert!(retries > 0 && defaults > 0, "retries {retries}, defaults {defaults}");
    assert!(director_fallbacks > 0 && handoff_fallbacks > 0 && invalid_actions > 0);
}

#[test]
fn the_clean_demo_never_needs_a_fallback() {
    for preset in PRESETS {
        for e in run_demo(preset.scenario()) {
            match e {
                Event::Bid { attempts, .. } => assert_eq!(attempts, 1),
                Event::DirectorChoice { fallback, .. } | Event::Handoff { fallback, .. } => {
                    assert!(!fallback)
                }
                _ => {}
            }
        }
    }
}

#[test]
fn event_logs_round_trip_through_json_lines() {
    for preset in PRESETS {
        let events = run_demo(preset.scenario());
        let text = to_json_lines(&events);
        let back = from_json_lines(&text).unwrap();
        assert_eq!(back.len(), events.len());
        for (i, (a, b)) in back.iter().zip(&events).enumerate() {
            assert!(a == b, "{}: event {i} changed in the round trip", preset.id);
        }
        for line in text.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let kind = v["type"].as_str().unwrap();
            assert!(kind.chars().all(|c| c.is_ascii_lowercase() || c == '_'), "{kind}");
        }
    }
}

/// A model that answers like the demo and keeps a copy of every request it was sent.
struct Recording {
    inner: agora::demo::DemoModel,
    seen: std::cell::RefCell<Vec<Vec<agora::model::ChatMessage>>>,
}

impl agora::model::ChatModel for Recording {
    fn complete<'a>(
        &'a self,
        req: &'a agora::model::ChatRequest,
    ) -> futures::future::LocalBoxFuture<'a, Result<agora::model::ChatResponse, agora::model::ModelError>>
    {
        self.seen.borrow_mut().push(req.messages.clone());
        self.inner.complete(req)
    }
}

#[test]
fn the_log_rebuilds_every_request_exactly_as_sent() {
    for preset in PRESETS {
        let mut s = preset.scenario();
        s.model.demo.malformed_rate = 0.2;
        let clock = std::rc::Rc::new(agora::clock::FrozenClock);
        let model = std::rc::Rc::new(Recording {
            inner: agora::demo::DemoModel::new(&s, clock.clone()),
            seen: Default::default(),
        });
        let mut run = agora::engine::Run::new(s, model.clone(), clock).unwrap();
        futures::executor::block_on(run.run_to_end());
        let events = run.events();
        let mut sent = model.seen.borrow().clone();
        let mut rebuilt = Vec::new();
        let mut deltas = 0;
        for (i, e) in events.iter().enumerate() {
            if let Event::ModelCall { request, .. } = e {
                deltas += matches!(request, agora::events::Request::Delta { .. }) as usize;
                rebuilt.push(agora::events::request_messages(events, i).expect("rebuilds"));
            }
        }
        // Calls of a turn may be sent in any order but are logged in a fixed one.
        sent.sort_by(|a, b| format!("{a:?}").cmp(&format!("{b:?}")));
        rebuilt.sort_by(|a, b| format!("{a:?}").cmp(&format!("{b:?}")));
        assert_eq!(rebuilt, sent, "{}", preset.id);
        assert!(
            deltas > rebuilt.len() / 2,
            "{}: most calls extend an earlier one ({deltas} of {})",
            preset.id,
            rebuilt.len()
        );
    }
}

#[test]
fn a_recorded_run_replays_to_the_same_log() {
    for preset in PRESETS {
        let mut s = preset.scenario();
        s.model.demo.malformed_rate = 0.2;
        let events = run_demo(s.clone());
        let model = std::rc::Rc::new(agora::scripted::ScriptedModel::from_events(&events));
        let mut run =
            agora::engine::Run::new(s, model.clone(), std::rc::Rc::new(agora::clock::FrozenClock)).unwrap();
        futures::executor::block_on(run.run_to_end());
        assert_eq!(without_timings(run.events()), without_timings(&events), "{}", preset.id);
        assert_eq!(model.remaining(), 0);
    }
}

#[test]
fn the_topic_specifier_and_character_descriptions_feed_the_opening_and_the_prompts() {
    let mut s = agora::presets::find("rail-debate").unwrap().scenario();
    s.opening.specify_topic = true;
    s.opening.describe_characters = true;
    s.opening.text = String::new();
    s.max_turns = 1;
    let script = script(&[
        ("Donald Trump", "character_description", "Donald Trump, you are loud."),
        ("Kanye West", "character_description", "Kanye West, you are a visionary."),
        ("Elizabeth Warren", "character_description", "Elizabeth Warren, you have a plan."),
        ("Debate Moderator", "topic_specifier", "Candidates: build a coast-to-coast line in ten years."),
        ("Donald Trump", "bid", "<9>"),
        ("Kanye West", "bid", "<2>"),
        ("Elizabeth Warren", "bid", "<3>"),
        ("Donald Trump", "speak", "Tremendous trains."),
    ]);
    let events = run_script(s, &script);
    let described: Vec<(String, String)> = events
        .iter()
        .filter_map(|e| match e {
            Event::CharacterDescribed { agent, description } => Some((agent.clone(), description.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(described.len(), 3);
    assert_eq!(described[1], ("Kanye West".to_string(), "Kanye West, you are a visionary.".to_string()));
    let specified = events.iter().find_map(|e| match e {
        Event::TopicSpecified { original, specified } => Some((original.clone(), specified.clone())),
        _ => None,
    });
    assert_eq!(
        specified,
        Some((
            "transcontinental high speed rail".into(),
            "Candidates: build a coast-to-coast line in ten years.".into()
        ))
    );
    assert_eq!(
        messages(&events)[0],
        ("Debate Moderator".into(), "Candidates: build a coast-to-coast line in ten years.".into())
    );
    let describer = events
        .iter()
        .position(|e| {
            matches!(e, Event::ModelCall { purpose: agora::model::Purpose::CharacterDescription, .. })
        })
        .unwrap();
    let asked = agora::events::request_messages(&events, describer).unwrap();
    assert_eq!(asked[0].content, "You can add detail to the description of each presidential candidate.");
    assert!(asked[1].content.contains("Please reply with a creative description of the presidential candidate, Donald Trump, in 50 words or less"));
    let speech = events
        .iter()
        .position(|e| matches!(e, Event::ModelCall { purpose: agora::model::Purpose::Speak, .. }))
        .unwrap();
    let system = &agora::events::request_messages(&events, speech).unwrap()[0].content;
    assert!(system.contains("Your description is as follows: Donald Trump, you are loud."), "{system}");
    assert!(
        system.contains("You are debating the topic: transcontinental high speed rail."),
        "as in the seed, headers keep the original topic"
    );
}

#[test]
fn each_game_starts_with_its_prompts_and_the_optimum_and_takes_the_optimizer_s_next_prompts() {
    let scenario = agora::presets::find("trading-game").unwrap().scenario();
    let agora::scenario::Method::Negotiation(settings) = &scenario.method else { panic!("a negotiation") };
    let iterations = settings.iterations;
    let events = common::run_demo(scenario.clone());
    let games: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::GameStarted { iteration, prompts, optimum } => {
                Some((*iteration, prompts.clone(), *optimum))
            }
            _ => None,
        })
        .collect();
    let optimizer: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::OptimizerIteration { iteration, prompts, next_prompts, .. } => {
                Some((*iteration, prompts.clone(), next_prompts.clone()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(games.iter().map(|g| g.0).collect::<Vec<_>>(), (1..=iterations).collect::<Vec<_>>());
    assert!(games.iter().all(|g| g.2 == 73), "the seed's optimum: {games:?}");
    let players: Vec<&str> = games[0].1.keys().map(String::as_str).collect();
    assert_eq!(players, ["Alice", "Bob"]);
    // Each game plays the prompts the optimizer wrote after the game before it.
    for (game, after) in games.iter().skip(1).zip(&optimizer) {
        assert_eq!(after.1, games[(after.0 - 1) as usize].1, "the optimizer saw game {}'s prompts", after.0);
        let expected = after.2.clone().unwrap_or_else(|| after.1.clone());
        assert_eq!(game.1, expected, "game {} starts with the optimizer's prompts", game.0);
    }
    assert!(
        games.windows(2).any(|w| w[0].1 != w[1].1),
        "the demo optimizer changed the prompts at least once"
    );
}

#[test]
fn a_run_pauses_at_its_spending_cap_goes_on_when_it_is_raised_and_replays_the_same() {
    let mut scenario = agora::presets::find("rail-debate").unwrap().scenario();
    scenario.model.spending_cap.tokens = 6000;
    let model = Rc::new(DemoModel::new(&scenario, Rc::new(FrozenClock)));
    let mut run = Run::new(scenario.clone(), model, Rc::new(FrozenClock)).unwrap();
    assert_eq!(futures::executor::block_on(run.run_to_end()), StepOutcome::Capped);
    let (spent, _) = run.spent();
    let paused_at = run.turn();
    assert!(spent >= 6000 && paused_at < scenario.max_turns, "{spent} tokens at turn {paused_at}");
    match run.events().last() {
        Some(Event::SpendingCapReached { tokens, cost: None, cap, turn }) => {
            assert_eq!((*tokens, cap.tokens, *turn), (spent, 6000, paused_at));
        }
        other => panic!("{other:?}"),
    }
    // Stepping again without raising it plays nothing and records nothing more.
    let before = run.events().len();
    assert_eq!(futures::executor::block_on(run.step()), agora::engine::StepOutcome::Capped);
    assert_eq!(run.events().len(), before);
    // Raised: recorded, and the run goes on to its turn limit.
    run.set_spending_cap(agora::scenario::SpendingCap { tokens: 1_000_000, cost: 0.0 });
    assert_eq!(futures::executor::block_on(run.run_to_end()), StepOutcome::Finished(FinishReason::TurnLimit));
    assert!(run
        .events()
        .iter()
        .any(|e| matches!(e, Event::SpendingCapSet { cap, .. } if cap.tokens == 1_000_000)));
    // The recording continues live to the same log: the pause and the raise are replayed.
    let recorded = run.events().to_vec();
    // Cut where a saved run would be: at a step boundary, one turn after the raise.
    let raised = recorded.iter().position(|e| matches!(e, Event::SpendingCapSet { .. })).unwrap();
    let cut = agora::replay::step_starts(&recorded).into_iter().filter(|&s| s > raised).nth(1).unwrap();
    let live = Rc::new(DemoModel::new(&scenario, Rc::new(FrozenClock)));
    let mut again = futures::executor::block_on(agora::replay::continue_live(
        &recorded[..cut],
        live,
        Rc::new(FrozenClock),
    ))
    .expect("the recording continues");
    let strip = |es: &[Event]| es.iter().map(Event::without_timings).collect::<Vec<_>>();
    assert!(strip(again.events()) == strip(&recorded[..cut]), "the pause and the raise were replayed");
    // (A fresh demo model answers from here, so the rest may differ; it still goes on.)
    assert_eq!(
        futures::executor::block_on(again.run_to_end()),
        StepOutcome::Finished(FinishReason::TurnLimit)
    );
}

#[test]
fn a_cap_in_money_needs_prices_and_counts_cost_at_them() {
    let mut scenario = agora::presets::find("rail-debate").unwrap().scenario();
    scenario.model.spending_cap.cost = 0.01;
    let errors = scenario.validate().unwrap_err();
    assert!(errors
        .iter()
        .any(|e| e.field == "model.spending_cap.cost" && e.message.contains("needs the prices")));
    scenario.model.price = Some(agora::scenario::Price { input_per_million: 2.0, output_per_million: 10.0 });
    let model = Rc::new(DemoModel::new(&scenario, Rc::new(FrozenClock)));
    let mut run = Run::new(scenario, model, Rc::new(FrozenClock)).unwrap();
    assert_eq!(futures::executor::block_on(run.run_to_end()), StepOutcome::Capped);
    let (tokens, cost) = run.spent();
    assert!(cost >= 0.01 && tokens > 0, "{cost}");
    assert!(
        matches!(run.events().last(), Some(Event::SpendingCapReached { cost: Some(c), .. }) if *c == cost)
    );
}
