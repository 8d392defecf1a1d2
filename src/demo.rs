//! The offline demo model: the default, needing no key. Deterministic from the run's seed, quick,
//! and believable enough to teach with.
//!
//! It reads the engine's [`Cue`] rather than the prompt text (users rewrite prompts freely), and
//! draws its randomness from a hash of (seed, agent, purpose, call number), so concurrent calls
//! get the same replies whatever order they arrive in. A persona speaks in the voice its
//! description calls for (a cast of roles in a plain register), with claims that fit the kind of
//! topic; bids follow disagreement between stances and rise for whoever has been passed over;
//! the director and the selector spread the floor;
//! handoffs go to the most opposed debater; negotiators follow their strategy prompt, and the
//! optimizer writes prompts that reach the best score. A setting makes a share of replies
//! malformed so that retries and fallbacks can be seen.
//!
//! The cast (voices, speech) is in `demo/cast.rs`; how it answers each method's calls is in the
//! method's folder (`methods/<method>/demo.rs`).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use futures::future::LocalBoxFuture;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::clock::Clock;
use crate::methods::negotiation::demo::{negotiate, optimize};
use crate::model::{estimate_tokens, ChatModel, ChatRequest, ChatResponse, Cue, ModelError, Purpose, Usage};
use crate::scenario::Scenario;

pub(crate) mod cast;
pub(crate) mod topic;
pub(crate) mod zh;

pub use topic::other_script;

use cast::{fnv, Cast};

pub struct DemoModel {
    seed: u64,
    /// A hash of the topic: two topics on one seed make two debates.
    topic: u64,
    malformed_rate: f64,
    latency_ms: std::cell::Cell<u64>,
    cast: Cast,
    /// The size of each (agent, purpose)'s last prompt, and how many times in a row it was sent.
    calls: RefCell<BTreeMap<(String, Purpose), (usize, u64)>>,
    clock: Rc<dyn Clock>,
}

impl DemoModel {
    pub fn new(scenario: &Scenario, clock: Rc<dyn Clock>) -> Self {
        Self {
            seed: scenario.seed,
            topic: fnv(scenario.topic.trim().as_bytes()),
            malformed_rate: scenario.model.demo.malformed_rate,
            latency_ms: std::cell::Cell::new(scenario.model.demo.latency_ms),
            cast: Cast::new(scenario),
            calls: RefCell::new(BTreeMap::new()),
            clock,
        }
    }

    /// Changes the simulated latency of the calls made from now on (the app's speed setting).
    pub fn set_latency(&self, ms: u64) {
        self.latency_ms.set(ms);
    }

    /// A generator for this call alone. Its key is what the run's log fixes: the seed, the
    /// topic, the agent, the purpose, the size of the prompt (it grows with the conversation, so
    /// each turn's calls differ) and how many times in a row the same prompt was sent (a retry
    /// gets another reply). A run continued from its log, in a new model, draws the same.
    fn rng_for(&self, request: &ChatRequest) -> ChaCha8Rng {
        let size: usize = request.messages.iter().map(|m| m.content.len()).sum();
        let mut calls = self.calls.borrow_mut();
        let (last, again) = calls.entry((request.agent.clone(), request.purpose)).or_insert((usize::MAX, 0));
        *again = if *last == size { *again + 1 } else { 0 };
        *last = size;
        let mut key = Vec::new();
        key.extend_from_slice(&self.seed.to_le_bytes());
        key.extend_from_slice(&self.topic.to_le_bytes());
        key.extend_from_slice(request.agent.as_bytes());
        key.extend_from_slice(request.purpose.as_str().as_bytes());
        key.extend_from_slice(&(size as u64).to_le_bytes());
        key.extend_from_slice(&again.to_le_bytes());
        ChaCha8Rng::seed_from_u64(fnv(&key))
    }

    /// Its reply to `request`, at once (the latency is [`ChatModel::complete`]'s).
    pub fn answer(&self, request: &ChatRequest) -> ChatResponse {
        let mut rng = self.rng_for(request);
        let malformed = self.malformed_rate > 0.0 && rng.random::<f64>() < self.malformed_rate;
        let me = self.cast.person(&request.agent);
        let mut response = match (&request.cue, request.purpose) {
            (Cue::Bid { last_speaker, last_text, turns_since_spoke, turn }, _) => {
                ChatResponse::text(self.cast.bid(
                    me,
                    last_speaker.as_deref().map(|s| (s, last_text.as_str())),
                    // One who has not spoken yet has waited since the start (a bid a turn).
                    turns_since_spoke.unwrap_or(*turn),
                    malformed,
                    &mut rng,
                ))
            }
            (Cue::Speak { topic, word_limit, last_speaker, last_text, first }, _) => {
                ChatResponse::text(cast::closed(self.cast.speech(
                    me,
                    topic,
                    *word_limit,
                    cast::Heard::of(
                        request,
                        last_speaker.as_deref().map(|s| (s, last_text.as_str())),
                        *first,
                    ),
                    &mut rng,
                )))
            }
            (Cue::Director { .. }, _) => {
                ChatResponse::text(self.cast.direct(request, me, malformed, &mut rng))
            }
            (Cue::Handoff { .. }, _) => self.cast.handoff(request, me, malformed, &mut rng),
            (Cue::Select { candidates, last_speaker, waited, .. }, _) => ChatResponse::text(
                self.cast.select(candidates, last_speaker.as_deref(), waited, malformed, &mut rng),
            ),
            (Cue::Negotiate(cue), _) => ChatResponse::text(negotiate(cue, malformed, &mut rng)),
            (Cue::Optimize(cue), _) => ChatResponse::text(optimize(cue, malformed)),
            (Cue::Describe { topic, word_limit, .. }, Purpose::TopicSpecifier) => ChatResponse::text(
                cast::closed(self.cast.specify(topic, &request.agent, *word_limit, &mut rng)),
            ),
            (Cue::Describe { subject, topic, word_limit }, _) => {
                ChatResponse::text(cast::closed(self.cast.describe(subject, topic, *word_limit, &mut rng)))
            }
            (Cue::None, _) => ChatResponse::text("I have nothing to add."),
        };
        let prompt: u32 = request.messages.iter().map(|m| estimate_tokens(&m.content) + 4).sum();
        let completion = estimate_tokens(&response.content)
            + response.tool_calls.iter().map(|c| estimate_tokens(&c.arguments)).sum::<u32>();
        response.usage = Usage { prompt_tokens: prompt, completion_tokens: completion, ..Usage::default() };
        response
    }
}

impl ChatModel for DemoModel {
    fn complete<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, ModelError>> {
        let response = self.answer(request);
        let latency = self.latency_ms.get();
        let wait = (latency > 0).then(|| self.clock.sleep(latency));
        Box::pin(async move {
            if let Some(wait) = wait {
                wait.await;
            }
            Ok(response)
        })
    }
}

/// The speeches of the rail debate played to `turns` on the demo model, in `language` (empty for
/// the scenario's own): what the demo's own tests read as a class would hear it.
#[cfg(test)]
pub(crate) fn rail_debate_speeches(language: &str, seed: u64, turns: u32) -> Vec<String> {
    let mut s = crate::presets::find("rail-debate").unwrap().scenario();
    s.language = language.into();
    s.seed = seed;
    s.max_turns = turns;
    let clock = Rc::new(crate::clock::FrozenClock);
    let model = Rc::new(DemoModel::new(&s, clock.clone()));
    let mut run = crate::engine::Run::new(s, model, clock).unwrap();
    futures::executor::block_on(run.run_to_end());
    run.transcript().lines().iter().map(|l| l.text.clone()).collect()
}
