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
        .prop_flat_map(|s| (Just(s), settings()))
        .prop_map(|(mut s, settings)| {
            settings.apply(&mut s);
            s
        })
        .prop_filter("valid", |s| s.validate().is_ok())
}

/// Everything besides texts a scenario carries: provider, address, model names, temperature,
/// prices, network settings, and the method's own settings.
#[derive(Clone, Debug)]
struct Settings {
    provider: usize,
    model: String,
    agent_model: Option<String>,
    temperature: Option<f64>,
    price: Option<(f64, f64)>,
    network: (u32, u64, u64, u64, u32, bool),
    attempts: u32,
    number: u32,
    probability: f64,
    flag: bool,
    text: String,
}

fn settings() -> impl Strategy<Value = Settings> {
    (
        (
            0..agora::provider::PROVIDERS.len() + 1,
            "[a-z0-9./:-]{1,30}",
            proptest::option::of("[a-z0-9-]{1,20}"),
        ),
        (proptest::option::of(0.0f64..=2.0), proptest::option::of((0.0f64..100.0, 0.0f64..100.0))),
        (0u32..10, 0u64..5000, 0u64..60_000, 1u64..120_000, 1u32..16, any::<bool>()),
        (1u32..6, 1u32..2000, 0.0f64..=1.0, any::<bool>(), "\\PC{1,40}"),
    )
        .prop_map(
            |(
                (provider, model, agent_model),
                (temperature, price),
                network,
                (attempts, number, probability, flag, text),
            )| Settings {
                provider,
                model,
                agent_model,
                temperature,
                price,
                network,
                attempts,
                number,
                probability,
                flag,
                text,
            },
        )
}

impl Settings {
    fn apply(self, s: &mut Scenario) {
        use agora::scenario::{HandoffVia, Method, Price, PromptRole, SelectorFallback};
        let m = &mut s.model;
        // One past the presets is the demo model.
        if let Some(p) = agora::provider::PROVIDERS.get(self.provider) {
            m.provider = p.id.to_string();
            m.base_url =
                if p.base_url.is_empty() { "http://127.0.0.1:8000/v1".into() } else { String::new() };
            m.name = self.model;
        }
        m.temperature = self.temperature;
        m.price = self
            .price
            .map(|(input_per_million, output_per_million)| Price { input_per_million, output_per_million });
        let (max_retries, backoff_base_ms, backoff_max_ms, first_byte_timeout_ms, concurrency, stream) =
            self.network;
        m.network = agora::provider::NetworkSettings {
            max_retries,
            backoff_base_ms,
            backoff_max_ms,
            first_byte_timeout_ms,
            idle_timeout_ms: first_byte_timeout_ms / 2 + 1,
            rate_limit_wait_ms: backoff_max_ms * 3 + 7,
            rate_window_ms: backoff_base_ms + 11,
            concurrency,
            stream,
        };
        s.agents[0].model = self.agent_model;
        match &mut s.method {
            Method::Bidding(b) => {
                b.attempts = self.attempts;
                b.default_bid = self.number as i64 % 11;
                b.whole_reply_fallback = self.flag;
                b.template.push_str(&self.text);
            }
            Method::Director(d) => {
                d.attempts = self.attempts;
                d.stop_probability = self.probability;
                d.reflection.push_str(&self.text);
            }
            Method::Handoff(h) => {
                h.attempts = self.attempts;
                h.via = [HandoffVia::Text, HandoffVia::Tool, HandoffVia::Json][self.number as usize % 3];
                h.max_tokens = self.number;
                h.temperature = self.temperature;
                h.next_description.push_str(&self.text);
            }
            Method::Selector(x) => {
                x.attempts = self.attempts;
                x.allow_repeats = self.flag;
                x.fallback = [
                    SelectorFallback::PreviousSpeaker,
                    SelectorFallback::FirstCandidate,
                    SelectorFallback::RandomCandidate,
                ][self.number as usize % 3];
                x.prompt_role = if self.flag { PromptRole::User } else { PromptRole::System };
                x.temperature = self.temperature;
                x.max_tokens = (self.number > 0).then_some(self.number);
                x.prompt.push_str(&self.text);
                x.repeated_feedback.push_str(&self.text);
            }
            Method::Negotiation(n) => {
                n.iterations = self.attempts;
                n.max_tokens = self.number;
                n.temperature = self.probability;
                n.feedback.push_str(&self.text);
            }
            // Round robin has nothing to set; a method not listed keeps its seed settings.
            _ => {}
        }
    }
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
    fn any_fragment_is_a_link_or_a_clear_error(
        kind in "(s|run)=[0-9]{0,2}\\.?",
        // Any text, and text in the link's own alphabet, which gets past the base64 check.
        data in prop_oneof!["\\PC{0,300}", "[A-Za-z0-9_-]{0,600}"],
    ) {
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
    fn damaged_links_never_panic(seed in 0usize..PRESETS.len(), cut in any::<prop::sample::Index>(), flip in any::<prop::sample::Index>(), to in "[A-Za-z0-9_-]") {
        let scenario = PRESETS[seed].scenario();
        let events = common::run_demo(scenario.clone());
        let whole = link::run_fragment(&scenario, &events).unwrap();
        let mut damaged: Vec<char> = whole.chars().collect();
        // Anywhere in the whole link, not only its first few thousand characters.
        let at = 6 + flip.index(damaged.len() - 6);
        damaged[at] = to.chars().next().unwrap();
        let damaged: String = damaged.into_iter().collect();
        let cut_short = &whole[..6 + cut.index(whole.len() - 6)];
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
