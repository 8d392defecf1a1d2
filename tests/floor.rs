//! Giving the floor: in every method but the trading game the class can make an agent the next
//! speaker once; the method's own choice is still made and recorded, the override is recorded
//! beside it, and continuing the recording live gives the floor again where it was given.

mod common;

use std::rc::Rc;

use agora::clock::FrozenClock;
use agora::demo::DemoModel;
use agora::engine::Run;
use agora::events::Event;
use agora::presets::PRESETS;
use agora::replay::continue_live;
use agora::scenario::MethodKind;
use agora::scripted::ScriptedModel;
use futures::executor::block_on;

/// Plays the opening and two turns, then gives `agent` the floor and plays to the end.
fn given_run(preset: &agora::presets::Preset, agent_index: usize) -> (Run, String) {
    let s = preset.scenario();
    let model = Rc::new(DemoModel::new(&s, Rc::new(FrozenClock)));
    let mut run = Run::new(s, model, Rc::new(FrozenClock)).unwrap();
    for _ in 0..3 {
        block_on(run.step());
    }
    let agent = run.scenario().agents[agent_index].name.clone();
    (run, agent)
}

#[test]
fn the_floor_given_is_taken_once_beside_the_methods_choice() {
    for preset in PRESETS {
        let kind = preset.scenario().method.kind();
        let (mut run, _) = given_run(preset, 0);
        if kind == MethodKind::Negotiation {
            let e = run.give_floor("Alice").unwrap_err();
            assert!(e.contains("turn order is fixed"), "{e}");
            continue;
        }
        // Give it to whoever the method did not choose last: the agent after the last speaker.
        let last = run.transcript().last().map(|l| l.speaker.clone()).unwrap();
        let agents = run.scenario().agent_names();
        let pick = agents.iter().find(|a| **a != last).unwrap().clone();
        assert!(run.give_floor("Nobody").is_err(), "{}: a name outside the cast is refused", preset.id);
        run.give_floor(&pick).unwrap();
        assert_eq!(run.floor_given(), Some(pick.as_str()));
        let from = run.events().len();
        block_on(run.run_to_end());
        assert_eq!(run.floor_given(), None, "{}: used once", preset.id);
        let after = &run.events()[from..];
        let given: Vec<usize> = after
            .iter()
            .enumerate()
            .filter(|(_, e)| matches!(e, Event::FloorGiven { .. }))
            .map(|(i, _)| i)
            .collect();
        assert_eq!(given.len(), 1, "{}: one floor_given", preset.id);
        let Event::FloorGiven { turn, agent, instead_of } = &after[given[0]] else { unreachable!() };
        assert_eq!(agent, &pick, "{}", preset.id);
        // The method's choice is recorded before it, in the same turn, and is what instead_of says.
        let selected = after[..given[0]]
            .iter()
            .rev()
            .find_map(|e| match e {
                Event::SpeakerSelected { turn: t, agent, .. } if t == turn => Some(agent.clone()),
                _ => None,
            })
            .unwrap_or_else(|| panic!("{}: the method's choice is recorded", preset.id));
        assert_eq!(&selected, instead_of, "{}", preset.id);
        // The turn's speech is the given agent's.
        let spoke = after[given[0]..]
            .iter()
            .find_map(|e| match e {
                Event::Message { turn: t, speaker, .. } if t == turn => Some(speaker.clone()),
                _ => None,
            })
            .unwrap();
        assert_eq!(spoke, pick, "{}: the given agent speaks", preset.id);
        // Continuing the recording live from after that turn reproduces it, floor and all.
        let recorded = run.events().to_vec();
        let cut =
            recorded.iter().position(|e| matches!(e, Event::Message { turn: t, .. } if t == turn)).unwrap()
                + 1;
        let cut = cut + recorded[cut..].iter().take_while(|e| e.turn() == Some(*turn)).count();
        let live = Rc::new(ScriptedModel::from_events(&recorded[cut..]));
        let again = block_on(continue_live(&recorded[..cut], live, Rc::new(FrozenClock)))
            .unwrap_or_else(|e| panic!("{}: {e}", preset.id));
        assert_eq!(again.events(), &recorded[..cut], "{}: caught up with the floor given", preset.id);
    }
}

#[test]
fn a_finished_run_gives_no_floor() {
    let (mut run, agent) = given_run(&PRESETS[0], 1);
    block_on(run.run_to_end());
    assert!(run.give_floor(&agent).unwrap_err().contains("finished"));
}

#[test]
fn the_class_ends_the_show_at_the_directors_next_turn_and_continue_live_does_the_same() {
    let preset = agora::presets::find("daily-show-director").unwrap();
    let (mut run, _) = given_run(preset, 0);
    let from = run.events().len();
    run.end_show().unwrap();
    assert!(run.show_ending());
    block_on(run.run_to_end());
    assert!(!run.show_ending());
    let after = &run.events()[from..];
    let draws: Vec<&Event> = after.iter().filter(|e| matches!(e, Event::StopDraw { .. })).collect();
    assert_eq!(draws.len(), 1, "the next director turn is the last");
    assert!(matches!(draws[0], Event::StopDraw { stop: true, ended_by_class: true, .. }));
    assert!(matches!(
        run.events().last(),
        Some(Event::RunFinished { reason: agora::events::FinishReason::DirectorStopped })
    ));
    // Caught up from the recording, the show ends where the class ended it (without that, the
    // catch-up would draw on and part from the recording).
    let recorded = run.events().to_vec();
    let e = block_on(continue_live(&recorded, Rc::new(ScriptedModel::default()), Rc::new(FrozenClock)))
        .err()
        .unwrap();
    assert!(e.contains("director_stopped") && e.contains("nothing to continue"), "{e}");
    // Other methods have no show to end.
    let (mut debate, _) = given_run(&PRESETS[0], 0);
    assert!(debate.end_show().unwrap_err().contains("director"));
}
