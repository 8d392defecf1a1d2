//! Every speaker-selection method against good and bad model output, through the public engine.

mod common;

use std::cell::Cell;
use std::rc::Rc;

use agora::clock::FrozenClock;
use agora::engine::Run;
use agora::events::{Event, MessageKind};
use agora::model::{ChatModel, ChatRequest, ChatResponse, ModelError, Purpose};
use common::*;
use futures::future::LocalBoxFuture;

fn bidding_scenario(agents: &[&str], turns: u32, seed: u64) -> agora::scenario::Scenario {
    let agents: Vec<String> = agents.iter().map(|a| format!(r#"{{"name":"{a}"}}"#)).collect();
    scenario(&format!(
        r#"{{"version":1,"title":"t","topic":"rail","seed":{seed},"max_turns":{turns},
            "agents":[{}],"method":{{"kind":"bidding"}}}}"#,
        agents.join(",")
    ))
}

fn bids(events: &[Event]) -> Vec<(String, i64, u32, bool, String)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Bid { agent, value, attempts, defaulted, raw, .. } => {
                Some((agent.clone(), *value, *attempts, *defaulted, raw.clone()))
            }
            _ => None,
        })
        .collect()
}

fn selected(events: &[Event]) -> Vec<(String, bool)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::SpeakerSelected { agent, tie, .. } => Some((agent.clone(), *tie)),
            _ => None,
        })
        .collect()
}

#[test]
fn bids_are_read_retried_and_defaulted_as_in_the_seed() {
    // (A's replies, A's bid, attempts, defaulted); B always bids 1.
    let table: [(&[&str], i64, u32, bool); 7] = [
        (&["<7>"], 7, 1, false),
        (&["I say <8>!"], 8, 1, false),
        (&["8"], 8, 1, false),
        (&["<7.5>", "<4>"], 4, 2, false),
        (&["", ""], 0, 2, true),
        (&["<3><9>"], 3, 1, false),
        (&["<7.5>", "seven"], 0, 2, true),
    ];
    for (replies, value, attempts, defaulted) in table {
        let mut entries: Vec<(&str, &str, &str)> = replies.iter().map(|r| ("A", "bid", *r)).collect();
        entries.push(("B", "bid", "<1>"));
        entries.push(("A", "speak", "A speaks"));
        entries.push(("B", "speak", "B speaks"));
        let events = run_script(bidding_scenario(&["A", "B"], 1, 0), &script(&entries));
        let got = bids(&events);
        assert_eq!((got[0].1, got[0].2, got[0].3), (value, attempts, defaulted), "replies {replies:?}");
        assert_eq!(got[0].4, *replies.last().unwrap(), "the raw reply of the last attempt is kept");
        let winner = if value > 1 { "A" } else { "B" };
        assert_eq!(selected(&events), vec![(winner.to_string(), false)], "replies {replies:?}");
        assert_eq!(messages(&events).last().unwrap(), &(winner.to_string(), format!("{winner} speaks")));
        let calls = events
            .iter()
            .filter(|e| matches!(e, Event::ModelCall { agent, purpose: Purpose::Bid, .. } if agent == "A"))
            .count();
        assert_eq!(calls as u32, attempts, "every attempt is a recorded call");
    }
}

#[test]
fn ties_are_broken_by_the_seeded_rng_and_marked() {
    let entries = [
        ("A", "bid", "<5>"),
        ("B", "bid", "<5>"),
        ("C", "bid", "<2>"),
        ("A", "speak", "a"),
        ("B", "speak", "b"),
    ];
    let mut winners = std::collections::BTreeSet::new();
    for seed in 0..16 {
        let events = run_script(bidding_scenario(&["A", "B", "C"], 1, seed), &script(&entries));
        let tied: Vec<String> = events
            .iter()
            .find_map(|e| match e {
                Event::SpeakerSelected { tied, tie: true, .. } => Some(tied.clone()),
                _ => None,
            })
            .expect("the tie is recorded");
        assert_eq!(tied, ["A", "B"]);
        let again = run_script(bidding_scenario(&["A", "B", "C"], 1, seed), &script(&entries));
        assert_eq!(selected(&events), selected(&again), "the same seed breaks the tie the same way");
        winners.insert(selected(&events)[0].0.clone());
    }
    assert_eq!(winners.into_iter().collect::<Vec<_>>(), ["A", "B"], "both tied agents win for some seed");
}

#[test]
fn the_bid_prompt_holds_the_history_and_the_last_message() {
    let entries = [("A", "bid", "<5>"), ("B", "bid", "<2>"), ("A", "speak", "Trains!")];
    let events = run_script(bidding_scenario(&["A", "B"], 1, 0), &script(&entries));
    let index =
        events.iter().position(|e| matches!(e, Event::ModelCall { purpose: Purpose::Bid, .. })).unwrap();
    let prompt = agora::events::request_messages(&events, index).unwrap()[0].content.clone();
    assert!(prompt.contains("Here is the conversation so far.\nDebate Moderator: rail"), "{prompt}");
    assert!(prompt.contains(
        "rate how contradictory the following message is to your ideas.\n\n```\nDebate Moderator: rail\n```"
    ));
    // The notebook's own ending: its f-string's last line is indented four spaces.
    assert!(prompt.ends_with("like this: <int>.\nDo nothing else.\n    "), "{prompt:?}");
}

/// A model that counts how many calls are in flight at once.
struct Counting {
    in_flight: Cell<u32>,
    most: Cell<u32>,
}

struct YieldOnce(bool);
impl std::future::Future for YieldOnce {
    type Output = ();
    fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<()> {
        if self.0 {
            std::task::Poll::Ready(())
        } else {
            self.0 = true;
            cx.waker().wake_by_ref();
            std::task::Poll::Pending
        }
    }
}

impl ChatModel for Counting {
    fn complete<'a>(&'a self, req: &'a ChatRequest) -> LocalBoxFuture<'a, Result<ChatResponse, ModelError>> {
        Box::pin(async move {
            self.in_flight.set(self.in_flight.get() + 1);
            self.most.set(self.most.get().max(self.in_flight.get()));
            YieldOnce(false).await;
            self.in_flight.set(self.in_flight.get() - 1);
            Ok(ChatResponse::text(if req.purpose == Purpose::Bid { "<3>" } else { "hi" }))
        })
    }
}

#[test]
fn all_bids_of_a_turn_are_in_flight_at_once() {
    let model = Rc::new(Counting { in_flight: Cell::new(0), most: Cell::new(0) });
    let scenario = bidding_scenario(&["A", "B", "C", "D", "E", "F", "G", "H"], 1, 0);
    let mut run = Run::new(scenario, model.clone(), Rc::new(FrozenClock)).unwrap();
    futures::executor::block_on(run.run_to_end());
    assert_eq!(model.most.get(), 8);
}

fn director_scenario(stop: f64, turns: u32, attempts: u32, fallback: &str) -> agora::scenario::Scenario {
    scenario(&format!(
        r#"{{"version":1,"title":"show","topic":"sitting","seed":1,"max_turns":{turns},
            "agents":[{{"name":"Host"}},{{"name":"Ann"}},{{"name":"Bo"}}],
            "method":{{"kind":"director","stop_probability":{stop},"attempts":{attempts},"fallback":"{fallback}"}},
            "opening":{{"speaker":"Audience member","text":"Why sit?"}}}}"#
    ))
}

fn choices(events: &[Event]) -> Vec<(String, Option<i64>, String, bool)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::DirectorChoice { raw, index, agent, fallback, .. } => {
                Some((raw.clone(), *index, agent.clone(), *fallback))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn the_director_reflects_chooses_prompts_and_alternates() {
    let s = script(&[
        ("Host", "director_reflection", "Fascinating."),
        ("Host", "director_choice", "<1>"),
        ("Host", "director_prompt", "Bo, thoughts?"),
        ("Bo", "speak", "I sit."),
        ("Host", "director_reflection", "Indeed."),
        ("Host", "director_choice", "I choose <0>"),
        ("Host", "director_prompt", "Ann?"),
        ("Ann", "speak", "Me too."),
    ]);
    let events = run_script(director_scenario(0.0, 4, 2, "first"), &s);
    assert_eq!(
        messages(&events),
        [
            ("Audience member".to_string(), "Why sit?".to_string()),
            ("Host".into(), "Fascinating. Bo, thoughts?".into()),
            ("Bo".into(), "I sit.".into()),
            ("Host".into(), "Indeed. Ann?".into()),
            ("Ann".into(), "Me too.".into()),
        ]
    );
    let injected = events.iter().any(|e| matches!(e, Event::Message { kind: MessageKind::Injected, speaker, .. } if speaker == "Audience member"));
    assert!(injected, "the audience member's opening is marked as injected");
    assert_eq!(
        choices(&events),
        [
            ("<1>".to_string(), Some(1), "Bo".to_string(), false),
            ("I choose <0>".into(), Some(0), "Ann".into(), false)
        ]
    );
    assert_eq!(finish_reason(&events), "turn_limit");
}

#[test]
fn out_of_range_and_unreadable_indexes_retry_then_fall_back() {
    // (replies to the choice, fallback setting, raw kept, index read, agent chosen, fallback used)
    type Row<'a> = (&'a [&'a str], &'a str, &'a str, Option<i64>, &'a str, bool);
    let table: [Row; 4] = [
        (&["<7>", "<1>"], "first", "<1>", Some(1), "Bo", false),
        (&["<7>", "<9>"], "first", "<9>", Some(9), "Ann", true),
        (&["Bo", ""], "first", "", None, "Ann", true),
        (&["<-1>", "<2>"], "first", "<2>", Some(2), "Ann", true),
    ];
    for (replies, fallback, raw, index, agent, used) in table {
        let mut entries: Vec<(&str, &str, &str)> = vec![("Host", "director_reflection", "Hm.")];
        entries.extend(replies.iter().map(|r| ("Host", "director_choice", *r)));
        entries.push(("Host", "director_prompt", "Go."));
        let events = run_script(director_scenario(0.0, 1, 2, fallback), &script(&entries));
        assert_eq!(choices(&events), [(raw.to_string(), index, agent.to_string(), used)], "{replies:?}");
    }
}

#[test]
fn the_stop_draw_ends_the_show_with_a_summary() {
    let s = script(&[("Host", "director_summary", "*bows* Good night!")]);
    let events = run_script(director_scenario(1.0, 10, 2, "first"), &s);
    let draw = events.iter().find_map(|e| match e {
        Event::StopDraw { sample, probability, stop, .. } => Some((*sample, *probability, *stop)),
        _ => None,
    });
    let (sample, probability, stop) = draw.expect("a stop draw is recorded");
    assert!(stop && sample < 1.0 && probability == 1.0);
    assert_eq!(messages(&events).last().unwrap().1, "*bows* Good night!");
    assert_eq!(finish_reason(&events), "director_stopped");
}

#[test]
fn the_stop_draw_follows_the_probability() {
    let mut scenario = agora::presets::find("daily-show-director").unwrap().scenario();
    let mut stops = 0;
    let mut draws = 0;
    for seed in 0..200 {
        scenario.seed = seed;
        for e in run_demo(scenario.clone()) {
            if let Event::StopDraw { stop, sample, probability, .. } = e {
                assert_eq!(stop, sample < probability);
                draws += 1;
                stops += stop as u32;
            }
        }
    }
    let rate = stops as f64 / draws as f64;
    assert!((0.15..0.25).contains(&rate), "stop rate {rate} over {draws} draws");
}

fn handoff_scenario(via: &str, turns: u32) -> agora::scenario::Scenario {
    scenario(&format!(
        r#"{{"version":1,"title":"debate","topic":"AI ethics","seed":2,"max_turns":{turns},
            "agents":[{{"name":"Proponent","stance":"for"}},{{"name":"Opponent","stance":"against"}},{{"name":"Neutral"}}],
            "method":{{"kind":"handoff","via":"{via}"}}}}"#
    ))
}

fn handoffs(events: &[Event]) -> Vec<(String, String, bool)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Handoff { from, to, fallback, .. } => Some((from.clone(), to.clone(), *fallback)),
            _ => None,
        })
        .collect()
}

#[test]
fn text_handoffs_follow_the_named_agent_or_fall_back() {
    let s = script(&[
        ("Proponent", "handoff", "Proponent: AI can help. Transition to OPPONENT."),
        ("Opponent", "handoff", "Opponent: No. transition to neutral"),
        ("Neutral", "handoff", "Neutral: Maybe. Transition to moderator."),
    ]);
    let events = run_script(handoff_scenario("text", 3), &s);
    let h = handoffs(&events);
    assert_eq!(h[0], ("Proponent".into(), "Opponent".into(), false));
    assert_eq!(h[1], ("Opponent".into(), "Neutral".into(), false));
    assert_eq!((h[2].0.as_str(), h[2].2), ("Neutral", true));
    assert_ne!(h[2].1, "Neutral", "a fallback never hands to the speaker itself");
    let reason = events.iter().find_map(|e| match e {
        Event::Handoff { fallback: true, reason, .. } => reason.clone(),
        _ => None,
    });
    assert_eq!(reason.as_deref(), Some("the reply names no next speaker"));
}

#[test]
fn self_and_unknown_handoffs_fall_back_to_another_agent() {
    for (reply, why) in [
        ("Proponent: Me again. Transition to proponent.", "handed off to itself"),
        ("Proponent: Done.", "names no next speaker"),
    ] {
        for seed in 0..6 {
            let mut sc = handoff_scenario("text", 1);
            sc.seed = seed;
            let events = run_script(sc, &script(&[("Proponent", "handoff", reply)]));
            let h = handoffs(&events);
            assert!(h[0].2 && h[0].1 != "Proponent", "{reply}");
            let reason = events.iter().find_map(|e| match e {
                Event::Handoff { reason, .. } => reason.clone(),
                _ => None,
            });
            assert!(reason.unwrap().contains(why));
        }
    }
}

#[test]
fn tool_call_handoffs_read_the_arguments_and_list_the_agents() {
    let s = r#"[
        {"agent":"Proponent","purpose":"handoff","tool_call":{"name":"handoff","arguments":{"response":"Proponent: AI is fair.","next_agent_name":"neutral"}}},
        {"agent":"Neutral","purpose":"handoff","content":"Neutral: I forgot the tool."}
    ]"#;
    let events = run_script(handoff_scenario("tool", 2), s);
    let h = handoffs(&events);
    assert_eq!(h[0], ("Proponent".into(), "Neutral".into(), false));
    assert!(h[1].2, "no tool call: fallback");
    assert_eq!(messages(&events)[0].1, "Proponent: AI is fair.");
    assert_eq!(messages(&events)[1].1, "Neutral: I forgot the tool.");
    let tools = events.iter().find_map(|e| match e {
        Event::ModelCall { tools, .. } if !tools.is_empty() => Some(tools[0].clone()),
        _ => None,
    });
    let tool = tools.expect("the handoff tool is sent");
    assert_eq!(tool.name, "handoff");
    assert_eq!(
        tool.parameters["properties"]["next_agent_name"]["enum"],
        serde_json::json!(["proponent", "opponent", "neutral"])
    );

    // Arguments cut off mid-JSON: the fallback is used and the reason says why.
    let mut sc = handoff_scenario("tool", 1);
    if let agora::scenario::Method::Handoff(h) = &mut sc.method {
        h.first_speaker = "Opponent".into();
    }
    let broken = r#"[{"agent":"Opponent","purpose":"handoff","tool_call":{"name":"handoff","arguments":"{\"response\": \"Opponent: bro"}}]"#;
    let events = run_script(sc, broken);
    let (fallback, reason) = events
        .iter()
        .find_map(|e| match e {
            Event::Handoff { fallback, reason, .. } => Some((*fallback, reason.clone().unwrap_or_default())),
            _ => None,
        })
        .unwrap();
    assert!(fallback && reason.contains("not valid JSON"), "{reason}");
}

#[test]
fn json_handoffs_parse_or_fall_back() {
    let s = script(&[
        ("Proponent", "handoff", r#"{"response": "Proponent: yes.", "next_agent_name": "opponent"}"#),
        ("Opponent", "handoff", r#"{"response": "Opponent: no.", "next_agent_name": "opp"#),
    ]);
    let events = run_script(handoff_scenario("json", 2), &s);
    let h = handoffs(&events);
    assert_eq!(h[0], ("Proponent".into(), "Opponent".into(), false));
    assert!(h[1].2);
    assert_eq!(messages(&events)[0].1, "Proponent: yes.");
}

#[test]
fn round_robin_takes_turns_in_order() {
    let sc = scenario(
        r#"{"version":1,"title":"t","topic":"x","max_turns":5,"agents":[{"name":"A"},{"name":"B"}],"method":{"kind":"round_robin"}}"#,
    );
    let s = script(&[
        ("A", "speak", "1"),
        ("B", "speak", "2"),
        ("A", "speak", "3"),
        ("B", "speak", "4"),
        ("A", "speak", "5"),
    ]);
    let events = run_script(sc, &s);
    let order: Vec<String> = messages(&events).into_iter().skip(1).map(|m| m.0 + &m.1).collect();
    assert_eq!(order, ["A1", "B2", "A3", "B4", "A5"]);
}

#[test]
fn an_exhausted_script_ends_the_run_with_a_clear_error() {
    let events = run_script(bidding_scenario(&["A", "B"], 3, 0), &script(&[("A", "bid", "<1>")]));
    let error = events.iter().find_map(|e| match e {
        Event::Error { message, .. } => Some(message.clone()),
        _ => None,
    });
    assert_eq!(error.unwrap(), "turn 1: the script has no response left for agent \"B\" and purpose \"bid\"");
    assert_eq!(finish_reason(&events), "error");
}

#[test]
fn a_think_block_is_never_read_as_the_bid_and_an_answer_of_only_thoughts_is_retried() {
    let entries = [
        // The number in the thinking is not the bid.
        ("A", "bid", "<think>It contradicts me completely: <10>.</think>\n<3>"),
        ("B", "bid", "<think>Mild <2>"), // cut off while thinking: no answer
        ("B", "bid", "<think>Now</think><5>"),
        ("B", "speak", "<think>Plan: attack.</think>B speaks"),
    ];
    let events = run_script(bidding_scenario(&["A", "B"], 1, 0), &script(&entries));
    let got = bids(&events);
    assert_eq!((got[0].1, got[0].4.as_str()), (3, "<3>"), "A's bid is the answer's");
    assert_eq!((got[1].1, got[1].2, got[1].3), (5, 2, false), "B's first reply had no answer");
    let calls: Vec<(String, String, bool, Option<String>)> = events
        .iter()
        .filter_map(|e| match e {
            Event::ModelCall { agent, raw, reasoning, parse, .. } => {
                Some((agent.clone(), raw.clone(), reasoning.is_empty(), parse.error.clone()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(calls[0].1, "<3>");
    assert!(!calls[0].2, "the thinking is kept apart");
    let b_first = calls.iter().find(|c| c.0 == "B").unwrap();
    assert_eq!(b_first.1, "");
    assert!(
        b_first.3.as_deref().unwrap().starts_with("the reply was all reasoning, with no answer ("),
        "{b_first:?}"
    );
    // The transcript holds the answer only.
    assert_eq!(messages(&events).last().unwrap(), &("B".to_string(), "B speaks".to_string()));
    assert!(events.iter().all(
        |e| !matches!(e, Event::Message { text, .. } if text.contains("think") || text.contains("Plan"))
    ));
}

#[test]
fn a_debate_switched_to_the_director_is_moderated_and_closed_as_a_debate() {
    use agora::scenario::MethodKind;
    let (mut closings, mut picks) = (0, 0);
    for seed in 1..30 {
        let mut s = agora::presets::find("rail-debate").unwrap().scenario();
        s.switch_method(MethodKind::Director);
        s.seed = seed;
        s.max_turns = 12;
        let events = run_demo(s);
        let chosen = choices(&events);
        picks += chosen.len();
        for (_, _, agent, _) in chosen {
            assert_ne!(agent, "Debate Moderator", "seed {seed}: the moderator directs, and is never chosen");
        }
        // The moderator is the one who reflects on each speech: every other turn is theirs.
        assert!(events
            .iter()
            .any(|e| matches!(e, Event::SpeakerSelected { agent, .. } if agent == "Debate Moderator")));
        closings += events
            .iter()
            .filter(|e| matches!(e, Event::ModelCall { purpose: Purpose::DirectorSummary, .. }))
            .count();
        for (speaker, text) in messages(&events) {
            assert!(
                !text.contains("America") && !text.contains("correspondents"),
                "seed {seed}: {speaker}: {text}"
            );
        }
    }
    assert!(closings > 0, "some seeds' stop draws closed the debate");
    assert!(picks > 20, "the moderator chose speakers");
}
