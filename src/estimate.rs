//! What a run will cost before it starts: calls, tokens and money at the prices set.
//!
//! The scenario is played once on the offline demo model (no latency, no malformed replies),
//! which asks the same calls with the same prompts a real model would be asked, and answers
//! within the word limit as a hosted model does (for the model in the tab, whose small models
//! write most of their token budget, it writes three quarters of it). So the call count follows
//! the method (N + 1 a bidding turn, the director's three calls, the games and the optimizer),
//! and prompt tokens follow the history as it grows. A real model's replies differ in length, the director's stop
//! draw and the games may end sooner or later, and retries cost more: it is an estimate.

use std::rc::Rc;

use futures::future::LocalBoxFuture;
use futures::FutureExt;
use serde_json::Value;

use crate::clock::FrozenClock;
use crate::demo::DemoModel;
use crate::engine::Run;
use crate::events::{request_messages, Event};
use crate::intab::Reply;
use crate::model::{estimate_tokens, ChatModel, ChatRequest, ChatResponse, Cue, ModelError};
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
    /// prompts and what it wrote after them, each call's prompt less the longest start it
    /// shares with an earlier call's prompt and reply;
    /// for any other model, every prompt token.
    pub read_tokens: u64,
    pub completion_tokens: u64,
    /// At the scenario's prices, when it has them.
    pub cost: Option<f64>,
}

impl Estimate {
    /// Plays `scenario` on the demo model and counts; `None` if it cannot start.
    pub fn of(scenario: &Scenario) -> Option<Estimate> {
        Self::with(scenario, |s| Rc::new(DemoModel::new(s, Rc::new(FrozenClock))))
    }

    /// Plays `scenario` on the demo model `demo` makes for it (the page's answers through its
    /// module, `app::demo`) and counts; `None` if it cannot start or does not answer at once.
    pub fn with(scenario: &Scenario, demo: impl FnOnce(&Scenario) -> Rc<dyn ChatModel>) -> Option<Estimate> {
        let mut scenario = scenario.clone();
        scenario.model.demo.malformed_rate = 0.0;
        scenario.model.demo.latency_ms = 0;
        // The whole run, not the part under a cap.
        scenario.model.spending_cap = Default::default();
        let clock = Rc::new(FrozenClock);
        let demo = demo(&scenario);
        // Comparing every prompt with the earlier ones costs milliseconds a run, and the page
        // makes an estimate at each edit: only the model in the tab keeps prompts, so only its
        // estimate needs them.
        let keeps_prompts = scenario.model.is_in_tab();
        let model: Rc<dyn ChatModel> = if keeps_prompts { Rc::new(ToBudget(demo)) } else { demo };
        let mut run = Run::new(scenario.clone(), model, clock).ok()?;
        // Nothing in a demo run at zero latency waits, so it completes in one poll.
        run.run_to_end().now_or_never()?;
        let mut estimate = Estimate::default();
        let events = run.events();
        let mut prompts: Vec<String> = Vec::new();
        for (i, e) in events.iter().enumerate() {
            match e {
                Event::ModelCall { usage, raw, .. } => {
                    estimate.calls += 1;
                    estimate.prompt_tokens += usage.prompt_tokens as u64;
                    estimate.completion_tokens += usage.completion_tokens as u64;
                    if !keeps_prompts {
                        estimate.read_tokens += usage.prompt_tokens as u64;
                        continue;
                    }
                    let mut prompt: String = request_messages(events, i)
                        .unwrap_or_default()
                        .iter()
                        .flat_map(|m| [m.content.as_str(), "\u{1}"])
                        .collect();
                    let kept = prompts.iter().map(|p| shared_start(p, &prompt)).max().unwrap_or(0);
                    let new = 1.0 - kept as f64 / prompt.len().max(1) as f64;
                    estimate.read_tokens += (usage.prompt_tokens as f64 * new).round() as u64;
                    // The engine keeps what it wrote after the prompt too, so a later prompt that
                    // holds the reply as its next message reads it no more.
                    prompt.push_str(raw);
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

    /// The token count as said: "38 K" from ten thousand up.
    pub fn tokens_said(&self) -> String {
        let tokens = self.prompt_tokens + self.completion_tokens;
        if tokens >= 10_000 {
            format!("{} K", (tokens + 500) / 1000)
        } else {
            tokens.to_string()
        }
    }

    /// "about 41 calls, 38 K tokens, $0.0210 for 10 turns".
    pub fn describe(&self) -> String {
        let tokens = self.tokens_said();
        let cost = self.cost.map(|c| format!(", ${}", crate::text::fixed(c, 4))).unwrap_or_default();
        let turns = if self.turns == 1 { "1 turn".to_string() } else { format!("{} turns", self.turns) };
        format!("about {} calls, {tokens} tokens{cost} for {turns}", self.calls)
    }
}

/// The share of its token budget a small model in the tab writes of a speech, a director's text
/// or a handoff: SmolLM2-135M over five presets of 8 turns wrote 52 to 100 % (three quarters on
/// average), where the seeds' word limits would have it write about a third.
const SHARE_OF_BUDGET: usize = 75;

/// The demo model writing each text to [`SHARE_OF_BUDGET`] of its token budget, as the small
/// models that run in the tab do (the word limit the seeds ask for is a request they seldom
/// keep). Every later prompt holds the longer texts too, so what is read again grows with them.
struct ToBudget(Rc<dyn ChatModel>);

impl ChatModel for ToBudget {
    fn complete<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, ModelError>> {
        let reply = Reply::of(request);
        // A held reply's free text is bounded in characters (one a token, so that its form
        // always closes); free text in tokens, about four characters each. The opening's
        // descriptions are the exception: short by nature, they end well inside the budget.
        let room = reply.text_tokens(request.max_tokens).map(|t| t as usize * SHARE_OF_BUDGET / 100);
        let bytes = match (&reply, &request.cue) {
            (_, Cue::Describe { .. }) => None,
            (Reply::Text { .. }, _) => room.map(|t| t * 4),
            _ => room,
        };
        Box::pin(self.0.complete(request).map(move |answer| {
            let mut answer = answer?;
            if let Some(bytes) = bytes {
                lengthen(&mut answer, &reply, bytes);
            }
            Ok(answer)
        }))
    }
}

/// Makes `answer`'s text about `bytes` long (four to a token, as the demo counts) by saying its
/// words again, where the form of `reply` holds free text: the whole of a text, a handoff's
/// speech before its transition, an object's longest text.
fn lengthen(answer: &mut ChatResponse, reply: &Reply, bytes: usize) {
    let object = |json: &mut String| {
        let Ok(Value::Object(mut fields)) = serde_json::from_str::<Value>(json) else { return };
        let room = bytes.saturating_sub(json.len());
        if let Some(Value::String(text)) =
            fields.values_mut().filter(|v| v.is_string()).max_by_key(|v| v.as_str().map_or(0, str::len))
        {
            *text = said_again(text, text.len() + room);
        }
        *json = Value::Object(fields).to_string();
    };
    match (reply, answer.tool_calls.first_mut()) {
        (Reply::Text { .. }, _) => answer.content = said_again(&answer.content, bytes),
        (Reply::Handoff { .. }, _) => {
            let at = answer.content.rfind(" Transition to ").unwrap_or(answer.content.len());
            let (speech, transition) = answer.content.split_at(at);
            answer.content = said_again(speech, bytes.saturating_sub(transition.len())) + transition;
        }
        (_, Some(call)) => object(&mut call.arguments),
        _ => object(&mut answer.content),
    }
    answer.usage.completion_tokens = estimate_tokens(&answer.content)
        + answer.tool_calls.iter().map(|c| estimate_tokens(&c.arguments)).sum::<u32>();
}

/// `text`, then its words again from the start, up to `bytes`.
fn said_again(text: &str, bytes: usize) -> String {
    let mut out = text.to_string();
    for word in text.split_whitespace().cycle() {
        if out.len() + 1 + word.len() > bytes {
            break;
        }
        out.push(' ');
        out.push_str(word);
    }
    out
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
        assert_eq!((e.turns, e.calls), (4, 4 * (3 + 1)));
        // The model in the tab writes its speeches to their budget (two tokens a word of the
        // limit, and room to finish); the twelve bids are a token each either way. A hosted
        // model is taken to keep the word limit, as the demo does.
        let budget = u64::from(
            Reply::Text { word_limit: Some(s.word_limit), streams: true }.text_tokens(None).unwrap(),
        );
        let written = budget * SHARE_OF_BUDGET as u64 / 100;
        assert!(
            (4 * (written - 3) + 12..=4 * written + 12).contains(&e.completion_tokens),
            "{written} {e:?}"
        );
        // (The budget is two tokens a word: a speech kept to the limit writes at most half of it.)
        assert!(hosted.completion_tokens < 4 * budget / 2 + 12, "{budget} {hosted:?}");
        // And every later prompt holds the longer speeches.
        assert!(e.prompt_tokens > hosted.prompt_tokens + 4 * written, "{e:?} {hosted:?}");
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
    fn a_reply_is_lengthened_only_where_its_form_holds_free_text() {
        let handoff = Reply::Handoff { agent: "Ada".into(), options: vec!["Bo".into()], word_limit: 40 };
        let mut a = ChatResponse::text("Ada: Trains are fast. Transition to Bo.");
        lengthen(&mut a, &handoff, 400);
        assert!(a.content.starts_with("Ada: Trains are fast. Ada: Trains are fast. Ada:"), "{}", a.content);
        assert!(a.content.ends_with(" Transition to Bo."));
        assert!((390..=400).contains(&a.content.len()), "{}", a.content.len());
        assert_eq!(a.usage.completion_tokens, estimate_tokens(&a.content));
        // A handoff by tool: the speech grows inside the call's arguments, the choice stays.
        let tool = Reply::Object { schema: Value::Null, tool: Some("handoff".into()), word_limit: 40 };
        let args = r#"{"next_agent_name":"Bo","response":"Ada: Trains are fast."}"#;
        let mut a = ChatResponse {
            tool_calls: vec![crate::model::ToolCall { name: "handoff".into(), arguments: args.into() }],
            ..ChatResponse::default()
        };
        lengthen(&mut a, &tool, 400);
        let fields: Value = serde_json::from_str(&a.tool_calls[0].arguments).unwrap();
        assert_eq!(fields["next_agent_name"], "Bo");
        assert!(fields["response"].as_str().unwrap().starts_with("Ada: Trains are fast. Ada: Trains"));
        assert!((390..=400).contains(&a.tool_calls[0].arguments.len()), "{}", a.tool_calls[0].arguments);
        assert_eq!(a.usage.completion_tokens, estimate_tokens(&a.tool_calls[0].arguments));
        // A bid, a choice or a trading action has no free text to lengthen.
        assert_eq!(Reply::Number { lo: 1, hi: 10 }.text_tokens(Some(50)), None);
        assert_eq!(Reply::Text { word_limit: None, streams: false }.text_tokens(Some(50)), Some(50));
    }

    #[test]
    fn the_model_in_the_tab_reads_no_reply_it_wrote_itself() {
        // Two agents hand the floor to each other: each prompt is the agent's system message,
        // then the conversation so far, in which its own last reply follows its last prompt.
        let mut s = crate::presets::find("ai-morality-handoff").unwrap().scenario();
        s.agents.truncate(2);
        s.model.provider = crate::intab::PROVIDER.into();
        let turns = |n: u32| Estimate::of(&Scenario { max_turns: n, ..s.clone() }).unwrap();
        let (opening, e) = (turns(2), turns(6));
        let speech = e.completion_tokens / 6;
        // After each agent's first call, a call reads the other's last speech and the framing
        // of two messages, not its own reply again (that would be a second speech a call).
        let later = e.read_tokens - opening.read_tokens;
        assert!(later <= 4 * (speech + 8) && later >= 4 * speech, "{speech} {later} {e:?}");
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
