//! What a run will cost before it starts: calls, tokens and money at the prices set.
//!
//! The scenario is played once on the offline demo model (no latency, no malformed replies),
//! which asks the same calls with the same prompts a real model would be asked, and answers
//! within the word limit as a real model should. So the call count follows the method (N + 1 a
//! bidding turn, the director's three calls, the games and the optimizer), and prompt tokens
//! follow the history as it grows. A real model's replies differ in length, the director's stop
//! draw and the games may end sooner or later, and retries cost more: it is an estimate.

use std::rc::Rc;

use futures::FutureExt;

use crate::clock::FrozenClock;
use crate::engine::Run;
use crate::events::{request_messages, Event};
use crate::model::demo::DemoModel;
use crate::scenario::Scenario;

/// The length in bytes of the start `a` and `b` share.
fn shared_start(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
}

/// The expected size of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Estimate {
    pub turns: u32,
    pub calls: u32,
    pub prompt_tokens: u64,
    /// The prompt tokens the engine reads: for the model in the tab, which keeps earlier
    /// prompts, each call's prompt less the longest start it shares with an earlier call's;
    /// for any other model, every prompt token.
    pub read_tokens: u64,
    pub completion_tokens: u64,
    /// At the scenario's prices, when it has them.
    pub cost: Option<f64>,
}

impl Estimate {
    /// Plays `scenario` on the demo model and counts; `None` if it cannot start.
    pub fn of(scenario: &Scenario) -> Option<Estimate> {
        let mut scenario = scenario.clone();
        scenario.model.demo.malformed_rate = 0.0;
        scenario.model.demo.latency_ms = 0;
        // The whole run, not the part under a cap.
        scenario.model.spending_cap = Default::default();
        let clock = Rc::new(FrozenClock);
        let model = Rc::new(DemoModel::new(&scenario, clock.clone()));
        let mut run = Run::new(scenario.clone(), model, clock).ok()?;
        // Nothing in a demo run at zero latency waits, so it completes in one poll.
        run.run_to_end().now_or_never()?;
        let mut estimate = Estimate::default();
        let events = run.events();
        // Comparing every prompt with the earlier ones costs milliseconds a run, and the page
        // makes an estimate at each edit: only the model in the tab keeps prompts, so only its
        // estimate needs them.
        let keeps_prompts = scenario.model.is_in_tab();
        let mut prompts: Vec<String> = Vec::new();
        for (i, e) in events.iter().enumerate() {
            match e {
                Event::ModelCall { usage, .. } => {
                    estimate.calls += 1;
                    estimate.prompt_tokens += usage.prompt_tokens as u64;
                    estimate.completion_tokens += usage.completion_tokens as u64;
                    if !keeps_prompts {
                        estimate.read_tokens += usage.prompt_tokens as u64;
                        continue;
                    }
                    let prompt: String = request_messages(events, i)
                        .unwrap_or_default()
                        .iter()
                        .flat_map(|m| [m.content.as_str(), "\u{1}"])
                        .collect();
                    let kept = prompts.iter().map(|p| shared_start(p, &prompt)).max().unwrap_or(0);
                    let new = 1.0 - kept as f64 / prompt.len().max(1) as f64;
                    estimate.read_tokens += (usage.prompt_tokens as f64 * new).round() as u64;
                    prompts.push(prompt);
                }
                e => estimate.turns = estimate.turns.max(e.turn().unwrap_or(0)),
            }
        }
        estimate.cost =
            scenario.model.price.map(|p| p.cost(estimate.prompt_tokens, estimate.completion_tokens));
        Some(estimate)
    }

    /// How long the run takes on an engine that answers one call at a time and keeps what it
    /// read before, reading new prompt tokens at `read_per_s` tokens a second and writing at
    /// `write_per_s` (measured on this machine): (seconds in all, seconds a turn). `None`
    /// without both speeds.
    pub fn duration(&self, read_per_s: f64, write_per_s: f64) -> Option<(f64, f64)> {
        if read_per_s <= 0.0 || write_per_s <= 0.0 {
            return None;
        }
        let all = self.read_tokens as f64 / read_per_s + self.completion_tokens as f64 / write_per_s;
        Some((all, all / f64::from(self.turns.max(1))))
    }

    /// "about 41 calls, 38 K tokens, $0.0210 for 10 turns".
    pub fn describe(&self) -> String {
        let tokens = self.prompt_tokens + self.completion_tokens;
        let tokens =
            if tokens >= 10_000 { format!("{} K", (tokens + 500) / 1000) } else { tokens.to_string() };
        let cost = self.cost.map(|c| format!(", ${}", crate::text::fixed(c, 4))).unwrap_or_default();
        let turns = if self.turns == 1 { "1 turn".to_string() } else { format!("{} turns", self.turns) };
        format!("about {} calls, {tokens} tokens{cost} for {turns}", self.calls)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Price;

    #[test]
    fn an_engine_that_answers_one_call_at_a_time_takes_the_sum_of_its_reading_and_writing() {
        let e = Estimate {
            turns: 4,
            calls: 20,
            prompt_tokens: 30000,
            read_tokens: 8000,
            completion_tokens: 600,
            cost: None,
        };
        // Only the tokens not kept from earlier calls are read: 8000 / 400 + 600 / 20 = 20 + 30
        // s; a quarter of it a turn.
        assert_eq!(e.duration(400.0, 20.0), Some((50.0, 12.5)));
        assert_eq!(e.duration(0.0, 20.0), None, "no measurement, no estimate");
    }

    #[test]
    fn a_bidding_debate_costs_n_plus_one_calls_a_turn_and_its_tokens_at_the_prices_set() {
        let mut s = crate::presets::find("rail-debate").unwrap().scenario();
        s.max_turns = 4;
        // Without the opening's calls (the topic specifier and one description per agent).
        s.opening.specify_topic = false;
        s.opening.describe_characters = false;
        s.model.price = Some(Price { input_per_million: 2.0, output_per_million: 10.0 });
        // A hosted model reads every prompt token.
        let hosted = Estimate::of(&s).unwrap();
        assert_eq!(hosted.read_tokens, hosted.prompt_tokens);
        s.model.provider = crate::intab::PROVIDER.into();
        let e = Estimate::of(&s).unwrap();
        assert_eq!(
            (e.calls, e.prompt_tokens, e.completion_tokens),
            (hosted.calls, hosted.prompt_tokens, hosted.completion_tokens)
        );
        assert_eq!((e.turns, e.calls), (4, 4 * (3 + 1)));
        // The history grows, so later prompts are longer: more than 4 times the first turn's.
        let first = Estimate::of(&crate::scenario::Scenario { max_turns: 1, ..s.clone() }).unwrap();
        assert!(e.prompt_tokens > 4 * first.prompt_tokens, "{e:?} {first:?}");
        // Each bid and speech shares the start of its prompt with an earlier call (the system
        // message and the history), so far fewer tokens are new than are sent.
        assert!(e.read_tokens > first.prompt_tokens && e.read_tokens * 5 < e.prompt_tokens * 3, "{e:?}");
        // The longer the conversation, the larger the kept share.
        let long = Estimate::of(&crate::scenario::Scenario { max_turns: 10, ..s.clone() }).unwrap();
        let share = |e: &Estimate| e.read_tokens as f64 / e.prompt_tokens as f64;
        assert!(share(&long) < share(&e) - 0.1, "{long:?} {e:?}");
        let cost = (e.prompt_tokens as f64 * 2.0 + e.completion_tokens as f64 * 10.0) / 1e6;
        assert!((e.cost.unwrap() - cost).abs() < 1e-12);
        assert!(e.describe().starts_with("about 16 calls, "), "{}", e.describe());
        assert!(e.describe().ends_with(&format!(", ${} for 4 turns", crate::text::fixed(cost, 4))));
    }

    #[test]
    fn the_estimate_follows_the_method_and_ignores_the_demo_s_malformed_replies() {
        let mut s = crate::presets::find("ai-morality-handoff").unwrap().scenario();
        s.model.demo.malformed_rate = 0.9;
        let e = Estimate::of(&s).unwrap();
        assert_eq!((e.turns, e.calls), (10, 10), "one call a turn, no retries");
        assert!(!e.describe().contains('$'), "no prices, no cost");
        let trading = Estimate::of(&crate::presets::find("trading-game").unwrap().scenario()).unwrap();
        assert!(trading.calls > trading.turns, "the optimizer's calls are counted: {trading:?}");
    }
}
