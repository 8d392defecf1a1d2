//! The offline demo model: the default, needing no key. Deterministic from the run's seed, quick,
//! and believable enough to teach with.
//!
//! It reads the engine's [`Cue`] rather than the prompt text (users rewrite prompts freely), and
//! draws its randomness from a hash of (seed, agent, purpose, call number), so concurrent calls
//! get the same replies whatever order they arrive in. Each persona speaks in a voice picked
//! from its name; bids follow disagreement between stances; the director spreads the floor;
//! handoffs go to the most opposed debater; negotiators follow their strategy prompt, and the
//! optimizer writes prompts that reach the best score. A setting makes a share of replies
//! malformed so that retries and fallbacks can be seen.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use futures::future::LocalBoxFuture;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;

use super::{
    estimate_tokens, ChatModel, ChatRequest, ChatResponse, Cue, ModelError, NegotiationCue, OptimizerCue,
    Purpose, ResponseFormat, ToolCall, Usage,
};
use crate::clock::Clock;
use crate::game::negotiation::{inventory_value, optimum, Action};
use crate::scenario::{Scenario, Stance};

pub struct DemoModel {
    seed: u64,
    malformed_rate: f64,
    latency_ms: std::cell::Cell<u64>,
    topic_phrase: String,
    people: Vec<Person>,
    calls: RefCell<BTreeMap<(String, Purpose), u64>>,
    clock: Rc<dyn Clock>,
}

/// What the demo knows of an agent: its name, position on the topic (-1 against, +1 for) and
/// its voice.
#[derive(Clone, Debug)]
struct Person {
    name: String,
    role: String,
    stance: f64,
    voice: &'static Voice,
}

#[derive(Debug)]
struct Voice {
    openers: &'static [&'static str],
    gestures: &'static [&'static str],
    closers: &'static [&'static str],
}

const VOICES: [Voice; 6] = [
    Voice {
        openers: &["Let me tell you, folks,", "Believe me,", "Nobody knows this better than me:", "Frankly,"],
        gestures: &["*points at the crowd*", "*waves hand dismissively*", "*leans into the microphone*"],
        closers: &["It's going to be tremendous.", "Everybody says so.", "Big league."],
    },
    Voice {
        openers: &[
            "Here's the plan, and I have the numbers:",
            "Let's be clear about who pays:",
            "The data is plain:",
        ],
        gestures: &["*taps the podium*", "*holds up a chart*", "*counts on her fingers*"],
        closers: &["That's how we fix it.", "Working families deserve that.", "I have a plan for that."],
    },
    Voice {
        openers: &["Yo, picture this:", "Listen, I'm a visionary:", "Real talk:"],
        gestures: &["*adjusts sunglasses*", "*spreads arms wide*", "*steps forward confidently*"],
        closers: &["That's the vision.", "Nobody's thinking this big.", "History will remember it."],
    },
    Voice {
        openers: &["Look,", "Okay, so,", "Let me get this straight:"],
        gestures: &[
            "*raises an eyebrow at the camera*",
            "*slumps dramatically in the chair*",
            "*shuffles papers*",
        ],
        closers: &["And somehow that's the sane position.", "Only in America.", "I wish I were joking."],
    },
    Voice {
        openers: &["With respect,", "Consider the long view:", "Our position is firm:"],
        gestures: &["*folds hands calmly*", "*nods slowly*", "*glances at the notes*"],
        closers: &[
            "Stability matters most.",
            "We plan in decades, not news cycles.",
            "That is the responsible course.",
        ],
    },
    Voice {
        openers: &["Honestly,", "I keep coming back to this:", "Think about it:"],
        gestures: &["*leans back*", "*shrugs*", "*smiles*"],
        closers: &["That's where I stand.", "We can do better than that.", "Let's not pretend otherwise."],
    },
];

const FOR_POINTS: [&str; 6] = [
    "{topic} is exactly the bold move we need",
    "{topic} will create jobs and pay for itself",
    "the critics of {topic} said the same about every great project",
    "{topic} puts us ahead instead of behind",
    "we should go further and faster on {topic}",
    "{topic} is a promise to the next generation",
];
const AGAINST_POINTS: [&str; 6] = [
    "{topic} is a costly fantasy",
    "{topic} will bury taxpayers in debt",
    "nobody has shown {topic} can work at this scale",
    "{topic} solves the wrong problem",
    "we should fix what we have before dreaming about {topic}",
    "{topic} is a headline, not a plan",
];
const NEUTRAL_POINTS: [&str; 6] = [
    "{topic} has real benefits and real costs",
    "we need evidence before we commit to {topic}",
    "{topic} could work if the details are right",
    "both sides are overselling {topic}",
    "the question is who pays for {topic}, and when",
    "{topic} deserves a pilot before a promise",
];
const REPLIES_DISAGREE: [&str; 4] = [
    "{name} is wrong about that",
    "with all due respect to {name}, no",
    "{name} has it backwards",
    "I heard {name}, and I could not disagree more",
];
const REPLIES_AGREE: [&str; 3] =
    ["{name} makes a fair point", "I'm with {name} on this", "{name} is onto something"];

impl DemoModel {
    pub fn new(scenario: &Scenario, clock: Rc<dyn Clock>) -> Self {
        let n = scenario.agents.len();
        let people = scenario
            .agents
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let stance = match a.stance {
                    Some(Stance::For) => 1.0,
                    Some(Stance::Against) => -1.0,
                    Some(Stance::Neutral) => 0.0,
                    // Spread unlabelled agents across the range so some disagree.
                    None if n > 1 => -1.0 + 2.0 * i as f64 / (n - 1) as f64,
                    None => 0.0,
                };
                Person {
                    name: a.name.clone(),
                    role: a.role.clone(),
                    stance,
                    voice: voice_for(&a.name, &format!("{} {}", a.role, a.description)),
                }
            })
            .collect();
        Self {
            seed: scenario.seed,
            malformed_rate: scenario.model.demo.malformed_rate,
            latency_ms: std::cell::Cell::new(scenario.model.demo.latency_ms),
            topic_phrase: scenario.model.demo.topic_phrase.clone(),
            people,
            calls: RefCell::new(BTreeMap::new()),
            clock,
        }
    }

    /// Changes the simulated latency of the calls made from now on (the app's speed setting).
    pub fn set_latency(&self, ms: u64) {
        self.latency_ms.set(ms);
    }

    fn short_topic(&self, topic: &str) -> String {
        if self.topic_phrase.trim().is_empty() {
            short_topic(topic)
        } else {
            self.topic_phrase.trim().to_string()
        }
    }

    fn person(&self, name: &str) -> Option<&Person> {
        self.people.iter().find(|p| p.name.eq_ignore_ascii_case(name))
    }

    /// A generator for this call alone.
    fn rng_for(&self, request: &ChatRequest) -> ChaCha8Rng {
        let mut calls = self.calls.borrow_mut();
        let n = calls.entry((request.agent.clone(), request.purpose)).or_insert(0);
        *n += 1;
        let mut key = Vec::new();
        key.extend_from_slice(&self.seed.to_le_bytes());
        key.extend_from_slice(request.agent.as_bytes());
        key.extend_from_slice(request.purpose.as_str().as_bytes());
        key.extend_from_slice(&n.to_le_bytes());
        ChaCha8Rng::seed_from_u64(fnv(&key))
    }

    fn reply(&self, request: &ChatRequest) -> ChatResponse {
        let mut rng = self.rng_for(request);
        let malformed = self.malformed_rate > 0.0 && rng.random::<f64>() < self.malformed_rate;
        let me = self.person(&request.agent);
        let mut response = match (&request.cue, request.purpose) {
            (Cue::Bid { last_speaker, turns_since_spoke, .. }, _) => ChatResponse::text(self.bid(
                me,
                last_speaker.as_deref(),
                *turns_since_spoke,
                malformed,
                &mut rng,
            )),
            (Cue::Speak { topic, word_limit, last_speaker, .. }, _) => {
                ChatResponse::text(self.speech(me, topic, *word_limit, last_speaker.as_deref(), &mut rng))
            }
            (Cue::Director { .. }, _) => ChatResponse::text(self.direct(request, me, malformed, &mut rng)),
            (Cue::Handoff { .. }, _) => self.handoff(request, me, malformed, &mut rng),
            (Cue::Select { candidates, last_speaker, .. }, _) => {
                ChatResponse::text(self.select(candidates, last_speaker.as_deref(), malformed, &mut rng))
            }
            (Cue::Negotiate(cue), _) => ChatResponse::text(negotiate(cue, malformed, &mut rng)),
            (Cue::Optimize(cue), _) => ChatResponse::text(optimize(cue, malformed)),
            (Cue::Describe { subject, topic, word_limit }, Purpose::TopicSpecifier) => {
                ChatResponse::text(self.specify(topic, &subject.clone(), *word_limit, &mut rng))
            }
            (Cue::Describe { subject, topic, word_limit }, _) => {
                ChatResponse::text(self.describe(subject, topic, *word_limit, &mut rng))
            }
            (Cue::None, _) => ChatResponse::text("I have nothing to add."),
        };
        let prompt: u32 = request.messages.iter().map(|m| estimate_tokens(&m.content) + 4).sum();
        let completion = estimate_tokens(&response.content)
            + response.tool_calls.iter().map(|c| estimate_tokens(&c.arguments)).sum::<u32>();
        response.usage = Usage { prompt_tokens: prompt, completion_tokens: completion, ..Usage::default() };
        response
    }

    /// Seed 000's bid: how contradictory the last message is to this agent's ideas.
    /// An agent that has waited long to speak finds more to contradict, as a model reading the
    /// whole history does.
    fn bid(
        &self,
        me: Option<&Person>,
        last: Option<&str>,
        waited: Option<u32>,
        malformed: bool,
        rng: &mut ChaCha8Rng,
    ) -> String {
        let mine = me.map_or(0.0, |p| p.stance);
        let eagerness = match waited {
            None => 2.5,
            Some(w) => (w as f64 - 1.0).clamp(0.0, 3.0),
        };
        let value: i64 = match last.and_then(|l| self.person(l)) {
            Some(p) if me.is_some_and(|m| m.name == p.name) => rng.random_range(1..=2),
            Some(p) => {
                let gap = (mine - p.stance).abs(); // 0 (agree) to 2 (opposed)
                let base = 1.0 + gap * 3.5 + eagerness + rng.random_range(-1.5..=1.5);
                base.round().clamp(1.0, 10.0) as i64
            }
            // The opening came from outside: everyone is keen to answer it.
            None => rng.random_range(4..=8),
        };
        if malformed {
            let bad = [
                format!("<{value}.5>"),
                String::new(),
                format!("I would rate it {} out of ten.", number_word(value)),
                format!("{value}/10"),
            ];
            return bad.choose(rng).cloned().unwrap_or_default();
        }
        format!("<{value}>")
    }

    fn speech(
        &self,
        me: Option<&Person>,
        topic: &str,
        word_limit: u32,
        last: Option<&str>,
        rng: &mut ChaCha8Rng,
    ) -> String {
        let Some(me) = me else { return "I agree.".into() };
        let topic = self.short_topic(topic);
        let points = if me.stance > 0.33 {
            &FOR_POINTS
        } else if me.stance < -0.33 {
            &AGAINST_POINTS
        } else {
            &NEUTRAL_POINTS
        };
        let voice = me.voice;
        let gesture = voice.gestures.choose(rng).copied().filter(|_| rng.random_bool(0.6));
        let opener = voice.openers.choose(rng).copied().unwrap_or("");
        let reply = match last.and_then(|l| self.person(l)).filter(|p| p.name != me.name) {
            Some(other) if (other.stance - me.stance).abs() > 0.6 => {
                Some(REPLIES_DISAGREE.choose(rng).copied().unwrap_or("").replace("{name}", &other.name))
            }
            Some(other) => {
                Some(REPLIES_AGREE.choose(rng).copied().unwrap_or("").replace("{name}", &other.name))
            }
            None => None,
        };
        let point = points.choose(rng).copied().unwrap_or("").replace("{topic}", &topic);
        let closer = voice.closers.choose(rng).copied();
        // Drop the trimmings, least important first, until the message fits the word limit.
        let body = match &reply {
            Some(r) => format!("{}: {point}.", capitalize(r)),
            None => format!("{}.", capitalize(&point)),
        };
        let full = match &reply {
            Some(r) => format!("{opener} {r}: {point}."),
            None => format!("{opener} {point}."),
        };
        let drafts = [
            [gesture, Some(full.as_str()), closer],
            [gesture, Some(full.as_str()), None],
            [None, Some(full.as_str()), None],
            [None, Some(body.as_str()), None],
            [None, Some(&*format!("{}.", capitalize(&point))), None],
        ];
        let fits = |d: &[Option<&str>; 3]| {
            d.iter().flatten().map(|p| p.split_whitespace().count()).sum::<usize>() <= word_limit as usize
        };
        let chosen = drafts.iter().find(|d| fits(d)).unwrap_or(&drafts[drafts.len() - 1]);
        let text: Vec<&str> = chosen.iter().flatten().copied().collect();
        limit_words(&text.join(" "), word_limit)
    }

    fn direct(
        &self,
        request: &ChatRequest,
        me: Option<&Person>,
        malformed: bool,
        rng: &mut ChaCha8Rng,
    ) -> String {
        let Cue::Director { topic, word_limit, speakers, turns_taken, last_speaker, next_speaker } =
            &request.cue
        else {
            return String::new();
        };
        let topic = self.short_topic(topic);
        let gesture = me.map_or("*smiles*", |p| p.voice.gestures.choose(rng).copied().unwrap_or("*smiles*"));
        let text = match request.purpose {
            Purpose::DirectorChoice => {
                // Give the floor to whoever has had it least, never straight back to the last.
                let fewest = speakers
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| Some(*s) != last_speaker.as_ref() || speakers.len() == 1)
                    .map(|(i, _)| turns_taken.get(i).copied().unwrap_or(0))
                    .min()
                    .unwrap_or(0);
                let candidates: Vec<usize> = (0..speakers.len())
                    .filter(|&i| turns_taken.get(i).copied().unwrap_or(0) == fewest)
                    .filter(|&i| Some(&speakers[i]) != last_speaker.as_ref() || speakers.len() == 1)
                    .collect();
                let pick = candidates.choose(rng).copied().unwrap_or(0);
                if malformed {
                    let bad = [
                        format!("<{}>", speakers.len() + rng.random_range(0..3)),
                        speakers[pick].clone(),
                        "Let's hear from someone new!".to_string(),
                    ];
                    return bad.choose(rng).cloned().unwrap_or_default();
                }
                return format!("<{pick}>");
            }
            Purpose::DirectorPrompt => {
                let next = next_speaker.clone().unwrap_or_else(|| "everyone".into());
                let questions = [
                    format!("{next}, what does {topic} look like from where you're standing?"),
                    format!("{next}, be honest: who actually benefits from {topic}?"),
                    format!("{next}, is {topic} a trend or a cry for help?"),
                    format!("{next}, what would your neighbors say about {topic}?"),
                ];
                questions.choose(rng).cloned().unwrap_or_default()
            }
            Purpose::DirectorSummary => {
                let lines = [
                    format!("{gesture} So there you have it: {topic}, explained by people who should know better. Thank you all, and remember: if you sat through this whole show, you're already in training. Good night!"),
                    format!("{gesture} Tonight we learned that {topic} is either the future or a very long nap. Thanks to my correspondents, and stay seated, America!"),
                ];
                lines.choose(rng).cloned().unwrap_or_default()
            }
            _ => {
                let who = last_speaker.clone().unwrap_or_else(|| "our audience".into());
                let lines = [
                    format!("{gesture} Thank you, {who}. So {topic} is where we are now."),
                    format!("{gesture} Wow. {who}, that is a lot to process about {topic}."),
                    format!("{gesture} I love that, {who}, and I'm a little scared by it."),
                ];
                lines.choose(rng).cloned().unwrap_or_default()
            }
        };
        limit_words(&text, *word_limit)
    }

    /// `names` from the most opposed to `stance` to the least, ties in their order.
    fn most_opposed<'a>(&self, names: &'a [String], stance: f64) -> Vec<&'a String> {
        let mut ranked: Vec<&String> = names.iter().collect();
        ranked.sort_by(|a, b| {
            let gap = |n: &str| self.person(n).map_or(0.0, |p| (p.stance - stance).abs());
            gap(b).total_cmp(&gap(a))
        });
        ranked
    }

    /// The selector names whoever disagrees most with the last speaker (now and then the
    /// runner-up), written the ways models write a name: bare, in lower case, or in a sentence.
    /// A malformed reply names nobody, two agents, or the last speaker.
    fn select(
        &self,
        candidates: &[String],
        last: Option<&str>,
        malformed: bool,
        rng: &mut ChaCha8Rng,
    ) -> String {
        let stance = last.and_then(|l| self.person(l)).map_or(0.0, |p| p.stance);
        let ranked = self.most_opposed(candidates, stance);
        let pick = if ranked.len() > 1 && rng.random_bool(0.3) { ranked[1] } else { ranked[0] };
        if malformed {
            let mut bad = vec![String::new(), "Let's hear from someone new!".to_string()];
            if ranked.len() > 1 {
                bad.push(format!("{} or {}", ranked[0], ranked[1]));
            }
            if let Some(last) = last {
                bad.push(last.to_string());
            }
            return bad.choose(rng).cloned().unwrap_or_default();
        }
        match rng.random_range(0..20) {
            0..12 => pick.clone(),
            12..15 => pick.to_ascii_lowercase(),
            _ => format!("I'd pick {pick} to play next."),
        }
    }

    fn handoff(
        &self,
        request: &ChatRequest,
        me: Option<&Person>,
        malformed: bool,
        rng: &mut ChaCha8Rng,
    ) -> ChatResponse {
        let Cue::Handoff { topic, word_limit, options, last_speaker, .. } = &request.cue else {
            return ChatResponse::default();
        };
        let name = me.map_or(request.agent.clone(), |p| p.name.clone());
        let speech = self.speech(me, topic, (*word_limit).min(35), last_speaker.as_deref(), rng);
        let speech = format!("{name}: {speech}");
        // Hand off to the most opposed debater most of the time, so the exchange has tension.
        let ranked = self.most_opposed(options, me.map_or(0.0, |p| p.stance));
        let mut target = if rng.random_bool(0.7) || ranked.len() == 1 {
            ranked.first().map(|s| s.to_string()).unwrap_or_default()
        } else {
            ranked.get(1).map(|s| s.to_string()).unwrap_or_default()
        };
        let mut missing = false;
        if malformed {
            match rng.random_range(0..3) {
                0 => missing = true,
                1 => target = "moderator".into(),
                _ => target = name.to_ascii_lowercase(),
            }
        }
        if !request.tools.is_empty() {
            if missing {
                return ChatResponse::text(speech);
            }
            let args = json!({"response": speech, "next_agent_name": target}).to_string();
            return ChatResponse {
                content: String::new(),
                tool_calls: vec![ToolCall { name: "handoff".into(), arguments: args }],
                ..ChatResponse::default()
            };
        }
        if matches!(request.response_format, ResponseFormat::JsonSchema { .. } | ResponseFormat::JsonObject) {
            if missing {
                return ChatResponse::text(format!("{{\"response\": \"{speech}\""));
            }
            return ChatResponse::text(json!({"response": speech, "next_agent_name": target}).to_string());
        }
        if missing {
            return ChatResponse::text(speech);
        }
        ChatResponse::text(format!("{speech} Transition to {target}."))
    }

    fn describe(&self, subject: &str, topic: &str, word_limit: u32, rng: &mut ChaCha8Rng) -> String {
        let person = self.person(subject);
        let role = person.map_or("participant".to_string(), |p| {
            if p.role.is_empty() {
                "participant".into()
            } else {
                p.role.clone()
            }
        });
        let traits = ["fearless", "relentless", "unpredictable", "charming", "meticulous", "theatrical"];
        let a = traits.choose(rng).copied().unwrap_or("bold");
        let b = traits.choose(rng).copied().unwrap_or("sharp");
        let side = match person.map(|p| p.stance) {
            Some(s) if s > 0.33 => "a true believer in",
            Some(s) if s < -0.33 => "a sworn skeptic of",
            _ => "an open mind about",
        };
        limit_words(
            &format!("{subject}, you are a {a}, {b} {role} with {side} {}. You never miss a chance to make your point.", self.short_topic(topic)),
            word_limit,
        )
    }

    fn specify(&self, topic: &str, _subject: &str, word_limit: u32, rng: &mut ChaCha8Rng) -> String {
        let names: Vec<&str> = self.people.iter().map(|p| p.name.as_str()).collect();
        let frames = [
            "the problem to solve is how to deliver {topic} on budget, on time, and with the public on board",
            "tell us how {topic} will be paid for, who gains, and who loses",
            "explain what {topic} should look like in ten years, and what you would do first",
        ];
        let frame =
            frames.choose(rng).copied().unwrap_or("").replace("{topic}", topic.trim_end_matches(['?', '.']));
        limit_words(&format!("{}, {frame}.", names.join(", ")), word_limit)
    }
}

impl ChatModel for DemoModel {
    fn complete<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, ModelError>> {
        let response = self.reply(request);
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

/// A negotiating player. With "STOCKPILE THESE RESOURCES: X, Y" it gathers X and Y and gives away
/// the rest; without a list it only makes trades that raise its own value. Proposals move one
/// unit at a time, and a proposal that was not accepted is not repeated.
fn negotiate(cue: &NegotiationCue, malformed: bool, rng: &mut ChaCha8Rng) -> String {
    if malformed {
        let bad = [
            "{\"action\": \"TRADE\", \"sell_resource\": \"WOOD\"".to_string(),
            "I think we should trade some wood.".to_string(),
            format!("{{\"action\": \"TRADE\", \"sell_resource\": \"{}\", \"buy_resource\": \"{}\", \"quantity\": 99}}", cue.resources[0], cue.resources[1]),
        ];
        return bad.choose(rng).cloned().unwrap_or_default();
    }
    let stockpile = stockpile(&cue.strategy, &cue.resources);
    let index = |name: &str| cue.resources.iter().position(|r| r.eq_ignore_ascii_case(name));
    let value = |inv: &[i64]| inventory_value(inv, &cue.value_scale);
    let mine = &cue.inventory;
    let last_other = cue.history.last().filter(|(p, _)| *p != cue.player).map(|(_, a)| a.clone());

    // Answer a proposal from the other player.
    if let Some(Some(Action::Trade { sell_resource, buy_resource, quantity })) = &last_other {
        if let (Some(get), Some(give)) = (index(sell_resource), index(buy_resource)) {
            let affordable = get != give && *quantity > 0 && mine[give] >= *quantity;
            let good = if stockpile.is_empty() {
                let mut after = mine.clone();
                after[give] -= quantity;
                after[get] += quantity;
                value(&after) >= value(mine)
            } else {
                stockpile.contains(&get) && !stockpile.contains(&give)
            };
            let action = if affordable && good { Action::Accept } else { Action::Reject };
            return action.to_json();
        }
        return Action::Reject.to_json();
    }

    // Proposals of mine that the other player did not accept.
    let mut failed: Vec<(usize, usize)> = Vec::new();
    for pair in cue.history.windows(2) {
        if let ((p, Some(Action::Trade { sell_resource, buy_resource, .. })), (_, answer)) =
            (&pair[0], &pair[1])
        {
            if *p == cue.player && *answer != Some(Action::Accept) {
                if let (Some(s), Some(b)) = (index(sell_resource), index(buy_resource)) {
                    failed.push((s, b));
                }
            }
        }
    }
    let mut best: Option<(i64, usize, usize)> = None;
    for sell in 0..mine.len() {
        for buy in 0..mine.len() {
            if sell == buy || mine[sell] < 1 || failed.contains(&(sell, buy)) {
                continue;
            }
            let mut after = mine.clone();
            after[sell] -= 1;
            after[buy] += 1;
            let gain = value(&after) - value(mine);
            let wanted = if stockpile.is_empty() {
                gain > 0
            } else {
                stockpile.contains(&buy) && !stockpile.contains(&sell)
            };
            if wanted && best.is_none_or(|(g, _, _)| gain > g) {
                best = Some((gain, sell, buy));
            }
        }
    }
    match best {
        Some((_, sell, buy)) => Action::Trade {
            sell_resource: cue.resources[sell].clone(),
            buy_resource: cue.resources[buy].clone(),
            quantity: 1,
        }
        .to_json(),
        None => Action::End.to_json(),
    }
}

/// The resources a strategy prompt tells the player to stockpile (none for "N/A").
fn stockpile(strategy: &str, resources: &[String]) -> Vec<usize> {
    let upper = strategy.to_ascii_uppercase();
    let list = upper.split_once(':').map_or(upper.as_str(), |(_, rest)| rest);
    resources
        .iter()
        .enumerate()
        .filter(|(_, r)| {
            list.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| w == r.to_ascii_uppercase())
        })
        .map(|(i, _)| i)
        .collect()
}

/// The optimizer: finds the best split of the resources by search and tells each player to
/// stockpile what it holds in that split. At the optimum it keeps the prompts.
fn optimize(cue: &OptimizerCue, malformed: bool) -> String {
    if malformed {
        return "{\"reasoning\": \"The feedback says the score is not optimal, but without more detail there is no direct recommendation.\", \"answer\": \"\", \"suggestion\": {}}".into();
    }
    let mut out = serde_json::Map::new();
    if cue.overall >= cue.optimum || cue.start_inventories.len() != 2 {
        for (p, prompt) in cue.players.iter().zip(&cue.prompts) {
            out.insert(p.clone(), prompt.clone().into());
        }
        return serde_json::Value::Object(out).to_string();
    }
    let start = [cue.start_inventories[0].clone(), cue.start_inventories[1].clone()];
    let (_, split) = optimum(&start, &cue.value_scale);
    for (p, holding) in cue.players.iter().zip(split.iter()) {
        let keep: Vec<&str> =
            cue.resources.iter().zip(holding).filter(|(_, q)| **q > 0).map(|(r, _)| r.as_str()).collect();
        out.insert(p.clone(), format!("STOCKPILE THESE RESOURCES: {}", keep.join(", ")).into());
    }
    serde_json::Value::Object(out).to_string()
}

/// Picks a voice that fits the description, or one from the name when nothing fits.
fn voice_for(name: &str, about: &str) -> &'static Voice {
    let about = about.to_ascii_lowercase();
    let cues: [(&[&str], usize); 5] = [
        (&["host", "correspondent", "comedian", "satir"], 3),
        (&["plan", "policy", "numbers", "who pays"], 1),
        (&["creative", "visionary", "artist", "performance"], 2),
        (&["brash", "confident", "controversial", "deal"], 0),
        (&["measured", "strategic", "stability", "calm"], 4),
    ];
    let index = cues.iter().find(|(words, _)| words.iter().any(|w| about.contains(w))).map_or_else(
        || if about.trim().is_empty() { 5 } else { (fnv(name.as_bytes()) % VOICES.len() as u64) as usize },
        |(_, i)| *i,
    );
    &VOICES[index]
}

/// A topic short enough to say in a sentence: the part before a modal verb ("artificial
/// intelligence should ..."), or the title before a dash, or the topic itself when short.
fn short_topic(topic: &str) -> String {
    let mut t = topic.trim().trim_end_matches(['?', '.', '!']);
    if let Some((_, after)) = t.rsplit_once(": ") {
        t = after;
    }
    if let Some((before, _)) = t.split_once(" - ") {
        t = before;
    }
    let words: Vec<&str> = t.split_whitespace().collect();
    if let Some(modal) = words.iter().position(|w| {
        ["should", "must", "will", "can", "is", "are"].contains(&w.to_ascii_lowercase().as_str())
    }) {
        if modal > 0 && modal <= 4 {
            return words[..modal].join(" ").to_ascii_lowercase();
        }
    }
    if words.len() <= 6 {
        let mut chars = t.chars();
        match chars.next() {
            Some(c) if !t.starts_with("AI") && !t.starts_with("US") => {
                c.to_ascii_lowercase().to_string() + chars.as_str()
            }
            _ => t.to_string(),
        }
    } else {
        "this question".into()
    }
}

fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_ascii_uppercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

/// Cuts a text to `limit` words, closing an open `*gesture*` and ending with punctuation.
pub fn limit_words(text: &str, limit: u32) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() <= limit as usize {
        return words.join(" ");
    }
    let mut out = words[..limit as usize].join(" ");
    if out.matches('*').count() % 2 == 1 {
        out.push('*');
    }
    if !out.ends_with(['.', '!', '?', '*']) {
        out = out.trim_end_matches([',', ':', ';']).to_string();
        out.push('.');
    }
    out
}

fn number_word(n: i64) -> &'static str {
    ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
        .get(n.clamp(0, 10) as usize)
        .copied()
        .unwrap_or("ten")
}

/// FNV-1a: a hash that stays the same across Rust versions, so demo runs stay reproducible.
fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in bytes {
        h ^= *b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_limits_hold_and_gestures_close() {
        assert_eq!(limit_words("one two three", 5), "one two three");
        assert_eq!(limit_words("*waves the flag* then talks a lot", 2), "*waves the*");
        assert_eq!(limit_words("a b c, d", 3), "a b c.");
    }

    #[test]
    fn strategies_name_the_resources_to_keep() {
        let r: Vec<String> = ["WOOD", "STONE", "GOLD"].map(String::from).to_vec();
        assert_eq!(stockpile("STOCKPILE THESE RESOURCES: N/A", &r), Vec::<usize>::new());
        assert_eq!(stockpile("STOCKPILE THESE RESOURCES: GOLD, wood", &r), vec![0, 2]);
    }

    #[test]
    fn the_optimizer_points_each_player_at_the_best_split() {
        let cue = OptimizerCue {
            players: vec!["Alice".into(), "Bob".into()],
            resources: ["WOOD", "STONE", "GOLD"].map(String::from).to_vec(),
            start_inventories: vec![vec![4, 3, 2], vec![1, 5, 2]],
            value_scale: vec![1, 2, 4, 7, 12, 20, 33, 54, 88, 143, 250],
            prompts: vec!["STOCKPILE THESE RESOURCES: N/A".into(); 2],
            overall: 28,
            optimum: 73,
            iteration: 1,
        };
        let reply: serde_json::Value = serde_json::from_str(&optimize(&cue, false)).unwrap();
        assert_eq!(reply["Alice"], "STOCKPILE THESE RESOURCES: WOOD, GOLD");
        assert_eq!(reply["Bob"], "STOCKPILE THESE RESOURCES: STONE");
    }
}
