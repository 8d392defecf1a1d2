//! Share links and run files: any valid scenario and run survive the round trip unchanged, and
//! any bytes at all give a clear error, never a panic.

mod common;

use agora::events::Event;
use agora::export;
use agora::link::{self, Shared};
use agora::presets::PRESETS;
use agora::scenario::Scenario;
use proptest::prelude::*;

/// Valid scenarios: a preset with its texts, numbers and seed changed to anything allowed.
fn scenarios() -> impl Strategy<Value = Scenario> {
    (
        0..PRESETS.len(),
        "\\PC{1,60}",
        "[^\\s]\\PC{0,200}",
        any::<u64>(),
        1u32..200,
        1u32..6,
        proptest::collection::vec(("\\PC{0,80}", "\\PC{0,120}", proptest::option::of("\\PC{0,80}")), 8),
        0.0f64..=1.0,
    )
        .prop_map(|(preset, title, topic, seed, words, turns, texts, malformed)| {
            let mut s = PRESETS[preset].scenario();
            s.title = format!("T{title}");
            s.topic = topic;
            s.seed = seed;
            s.word_limit = words;
            s.max_turns = turns;
            s.model.demo.malformed_rate = malformed;
            for (agent, (role, description, system)) in s.agents.iter_mut().zip(texts) {
                agent.role = role;
                agent.description = description;
                agent.system_prompt = system;
            }
            s
        })
        .prop_filter("valid", |s| s.validate().is_ok())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn scenarios_survive_links_and_files(scenario in scenarios()) {
        let fragment = link::scenario_fragment(&scenario);
        prop_assert!(fragment.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.=".contains(&b)));
        prop_assert_eq!(link::decode(&format!("#{fragment}")), Ok(Some(Shared::Scenario(scenario.clone()))));
        prop_assert_eq!(Scenario::from_json(&scenario.to_json_pretty()), Ok(scenario));
    }

    #[test]
    fn runs_survive_links_and_files(scenario in scenarios()) {
        let events = common::run_demo(scenario.clone());
        let fragment = link::run_fragment(&scenario, &events).expect("a short run fits in a link");
        let Ok(Some(Shared::Run(file))) = link::decode(&fragment) else {
            return Err(TestCaseError::fail(format!("{fragment:.60} does not read back")));
        };
        prop_assert_eq!(&file.scenario, &scenario);
        prop_assert_eq!(&file.events, &events);
        let from_file = export::from_json(&export::to_json(&scenario, &events)).expect("reads back");
        prop_assert_eq!(from_file.events, events);
    }

    #[test]
    fn any_fragment_is_a_link_or_a_clear_error(kind in "(s|run)=[0-9]{0,2}\\.?", data in "\\PC{0,300}") {
        if let Err(e) = link::decode(&format!("{kind}{data}")) {
            prop_assert!(e.starts_with("the link") && e.len() > 20, "{}", e);
        }
    }

    #[test]
    fn any_bytes_packed_into_a_link_give_a_clear_error(bytes in proptest::collection::vec(any::<u8>(), 0..2000)) {
        let text = String::from_utf8_lossy(&bytes);
        for fragment in [format!("s=1.{}", link::pack(&text)), format!("run=1.{}", link::pack(&text))] {
            let e = link::decode(&fragment).expect_err("random bytes are not a scenario or run");
            prop_assert!(e.starts_with("the link's"), "{}", e);
        }
        // Raw bytes where compressed data belongs.
        use base64::Engine as _;
        let raw = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&bytes);
        if let Err(e) = link::unpack(&raw) {
            prop_assert!(e.starts_with("the data is"), "{}", e);
        }
    }

    #[test]
    fn damaged_links_never_panic(seed in 0usize..PRESETS.len(), cut in 0usize..3000, flip in 0usize..3000, to in "[A-Za-z0-9_-]") {
        let scenario = PRESETS[seed].scenario();
        let events = common::run_demo(scenario.clone());
        let whole = link::run_fragment(&scenario, &events).unwrap();
        let mut damaged: Vec<char> = whole.chars().collect();
        let at = 6 + flip % (damaged.len() - 6);
        damaged[at] = to.chars().next().unwrap();
        let damaged: String = damaged.into_iter().collect();
        let cut_short = &whole[..(6 + cut).min(whole.len())];
        for fragment in [damaged.as_str(), cut_short] {
            match link::decode(fragment) {
                Ok(Some(Shared::Run(file))) => {
                    let starts = file.events.first().is_some_and(|e| matches!(e, Event::RunStarted { .. }));
                    prop_assert!(starts, "a run read from a link starts with run_started");
                }
                Ok(other) => prop_assert!(false, "{:?}", other.map(|_| ())),
                Err(e) => prop_assert!(e.starts_with("the link"), "{}", e),
            }
        }
    }
}
