//! The selector method (AutoGen's SelectorGroupChat) against good and bad selector replies,
//! through the public engine with scripted replies.

mod common;

use agora::events::{request_messages, Event, MessageKind, SelectorMatch};
use agora::model::Role;
use common::*;

fn selector_scenario(agents: &[&str], turns: u32, method: &str) -> agora::scenario::Scenario {
    let agents: Vec<String> =
        agents.iter().map(|a| format!(r#"{{"name":"{a}","description":"the {a} of the team"}}"#)).collect();
    scenario(&format!(
        r#"{{"version":1,"title":"t","topic":"launch","seed":4,"max_turns":{turns},
            "agents":[{}],"opening":{{"speaker":"User","text":"Plan the launch."}},
            "method":{{"kind":"selector"{method}}}}}"#,
        agents.join(",")
    ))
}

/// (agent, matched, attempts, candidates) of every selector choice.
fn choices(events: &[Event]) -> Vec<(String, SelectorMatch, u32, Vec<String>)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::SelectorChoice { agent, matched, attempts, candidates, .. } => {
                Some((agent.clone(), *matched, *attempts, candidates.clone()))
            }
            _ => None,
        })
        .collect()
}

/// Who spoke, the injected opening left out.
fn speakers(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Message { speaker, kind: MessageKind::Agent, .. } => Some(speaker.clone()),
            _ => None,
        })
        .collect()
}

fn selector_calls(events: &[Event]) -> Vec<usize> {
    (0..events.len())
        .filter(|&i| matches!(&events[i], Event::ModelCall { agent, .. } if agent == "Selector"))
        .collect()
}

const TEAM: [&str; 3] = ["Planner", "Data_Analyst", "Critic"];

#[test]
fn a_named_candidate_speaks_however_the_name_is_written() {
    let script = script(&[
        ("Selector", "selector", "Critic"),
        ("Critic", "speak", "Too risky."),
        ("Selector", "selector", "data analyst"),
        ("Data_Analyst", "speak", "The numbers say go."),
        ("Selector", "selector", "I think Planner should answer that."),
        ("Planner", "speak", "Then we go."),
    ]);
    let events = run_script(selector_scenario(&TEAM, 3, ""), &script);
    let all: Vec<String> = TEAM.map(String::from).to_vec();
    assert_eq!(
        choices(&events),
        [
            ("Critic".into(), SelectorMatch::Exact, 1, all.clone()),
            ("Data_Analyst".into(), SelectorMatch::Loose, 1, vec!["Planner".into(), "Data_Analyst".into()]),
            ("Planner".into(), SelectorMatch::Mention, 1, vec!["Planner".into(), "Critic".into()]),
        ]
    );
    assert_eq!(speakers(&events), ["Critic", "Data_Analyst", "Planner"]);
    assert_eq!(finish_reason(&events), "turn_limit");
}

#[test]
fn the_prompt_is_autogens_with_roles_candidates_and_history() {
    let script = script(&[
        ("Selector", "selector", "Critic"),
        ("Critic", "speak", "Too risky."),
        ("Selector", "selector", "Planner"),
        ("Planner", "speak", "Then we go."),
    ]);
    let events = run_script(selector_scenario(&TEAM, 2, ""), &script);
    let calls = selector_calls(&events);
    let second = request_messages(&events, calls[1]).unwrap();
    assert_eq!(second.len(), 1);
    assert_eq!(second[0].role, Role::System);
    let expected = "You are in a role play game. The following roles are available:\n\
        Planner: the Planner of the team\nData_Analyst: the Data_Analyst of the team\nCritic: the Critic of the team.\n\
        Read the following conversation. Then select the next role from ['Planner', 'Data_Analyst'] to play. Only return the role.\n\n\
        User: Plan the launch.\n\n\nCritic: Too risky.\n\n\n\n\
        Read the above conversation. Then select the next role from ['Planner', 'Data_Analyst'] to play. Only return the role.\n";
    assert_eq!(second[0].content, expected);
}

#[test]
fn bad_replies_are_answered_and_asked_again_then_the_fallback_speaks() {
    let script = script(&[
        ("Selector", "selector", "Critic"),
        ("Critic", "speak", "Too risky."),
        // Turn 2: nobody, then two names, then the last speaker again: the fallback is the
        // previous speaker, as in SelectorGroupChat.
        ("Selector", "selector", "Someone new, please."),
        ("Selector", "selector", "Planner or Data_Analyst"),
        ("Selector", "selector", "Critic"),
        ("Critic", "speak", "Still too risky."),
    ]);
    let events = run_script(selector_scenario(&TEAM, 2, ""), &script);
    let turn2 = &choices(&events)[1];
    assert_eq!((turn2.0.as_str(), turn2.1, turn2.2), ("Critic", SelectorMatch::Fallback, 3));
    assert_eq!(speakers(&events), ["Critic", "Critic"]);
    let calls = selector_calls(&events);
    let last = request_messages(&events, calls[3]).unwrap();
    let talk: Vec<(Role, &str)> = last[1..].iter().map(|m| (m.role, m.content.as_str())).collect();
    assert_eq!(
        talk,
        [
            (Role::Assistant, "Someone new, please."),
            (Role::User, "No valid name was mentioned. Please select from: ['Planner', 'Data_Analyst']."),
            (Role::Assistant, "Planner or Data_Analyst"),
            (
                Role::User,
                "Expected exactly one name to be mentioned. Please select only one from: ['Planner', 'Data_Analyst']."
            ),
        ]
    );
    let errors: Vec<String> = calls[1..]
        .iter()
        .filter_map(|&i| match &events[i] {
            Event::ModelCall { parse, .. } => parse.error.clone(),
            _ => None,
        })
        .collect();
    assert_eq!(errors.len(), 3, "every failed attempt says why");
    assert!(errors[2].starts_with("Repeated speaker is not allowed"), "{}", errors[2]);
}

#[test]
fn the_fallback_on_the_first_turn_is_the_first_candidate_and_can_be_chosen() {
    let garbage = script(&[
        ("Selector", "selector", ""),
        ("Selector", "selector", "?"),
        ("Selector", "selector", "nobody"),
        ("Planner", "speak", "Fine."),
    ]);
    let events = run_script(selector_scenario(&TEAM, 1, ""), &garbage);
    assert_eq!(choices(&events)[0].0, "Planner");
    assert_eq!(choices(&events)[0].1, SelectorMatch::Fallback);

    let one_try = script(&[("Selector", "selector", ""), ("Critic", "speak", "Fine.")]);
    let events =
        run_script(selector_scenario(&TEAM, 1, r#","attempts":1,"fallback":"random_candidate""#), &one_try);
    let (agent, matched, attempts, _) = &choices(&events)[0];
    assert_eq!((agent.as_str(), *matched, *attempts), ("Critic", SelectorMatch::Fallback, 1));
    assert_eq!(selector_calls(&events).len(), 1);
}

#[test]
fn repeats_can_be_allowed_and_a_single_candidate_needs_no_call() {
    let script1 = script(&[
        ("Selector", "selector", "Critic"),
        ("Critic", "speak", "One."),
        ("Selector", "selector", "Critic"),
        ("Critic", "speak", "Two."),
    ]);
    let events = run_script(selector_scenario(&TEAM, 2, r#","allow_repeats":true"#), &script1);
    assert_eq!(speakers(&events), ["Critic", "Critic"]);
    assert_eq!(choices(&events)[1].1, SelectorMatch::Exact);
    assert_eq!(choices(&events)[1].3.len(), 3, "the last speaker stays a candidate");

    let pair = script(&[
        ("Selector", "selector", "Critic"),
        ("Critic", "speak", "One."),
        ("Planner", "speak", "Two."),
        ("Critic", "speak", "Three."),
    ]);
    let events = run_script(selector_scenario(&["Planner", "Critic"], 3, ""), &pair);
    assert_eq!(speakers(&events), ["Critic", "Planner", "Critic"]);
    assert_eq!(selector_calls(&events).len(), 1);
    assert_eq!(choices(&events)[1].1, SelectorMatch::OnlyCandidate);
    assert_eq!(choices(&events)[1].2, 0);
}

#[test]
fn the_prompt_can_go_as_a_user_message_with_sampling_settings() {
    let script = script(&[("Selector", "selector", "Critic"), ("Critic", "speak", "One.")]);
    let events = run_script(
        selector_scenario(
            &TEAM,
            1,
            r#","prompt_role":"user","temperature":0.0,"max_tokens":20,"prompt":"Pick from {participants}.""#,
        ),
        &script,
    );
    let first = request_messages(&events, selector_calls(&events)[0]).unwrap();
    assert_eq!(first[0].role, Role::User);
    assert_eq!(first[0].content, "Pick from ['Planner', 'Data_Analyst', 'Critic'].");
}

#[test]
fn the_demo_selector_plays_the_preset_to_its_end_naming_candidates_only() {
    let preset = agora::presets::find("town-hall-selector").unwrap();
    for malformed in [0.0, 0.4] {
        let mut s = preset.scenario();
        s.model.demo.malformed_rate = malformed;
        let events = run_demo(s.clone());
        assert_eq!(finish_reason(&events), "turn_limit");
        let chosen = choices(&events);
        assert_eq!(chosen.len() as u32, s.max_turns);
        let spoken = speakers(&events);
        for (i, (agent, matched, _, candidates)) in chosen.iter().enumerate() {
            assert_eq!(&spoken[i], agent);
            if *matched != SelectorMatch::Fallback {
                assert!(candidates.contains(agent), "turn {}: {agent} was not a candidate", i + 1);
            }
        }
        if malformed > 0.0 {
            assert!(chosen.iter().any(|c| c.2 > 1), "malformed replies are asked again");
        }
    }
}
