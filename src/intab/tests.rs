//! The grammars are checked the way a model meets them: a small GBNF reader below draws random
//! replies from each grammar (as random weights would), and every reply must be read by the
//! engine's own parser for that call and fit the call's token budget at one byte a token (the
//! worst case, a byte-level vocabulary).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;

use super::*;
use crate::model::{ChatMessage, NegotiationCue, OptimizerCue, Purpose, ResponseFormat, ToolSpec};

#[derive(Debug, Clone)]
enum Node {
    Lit(String),
    Class { negated: bool, ranges: Vec<(char, char)> },
    Rule(String),
    Seq(Vec<Node>),
    Alt(Vec<Node>),
    Repeat(Box<Node>, u32, u32),
}

struct Reader<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
}

impl Reader<'_> {
    fn skip_space(&mut self) {
        while self.chars.peek().is_some_and(|c| *c == ' ') {
            self.chars.next();
        }
    }

    fn escaped(&mut self) -> char {
        match self.chars.next().expect("an escape") {
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            c => c,
        }
    }

    fn alt(&mut self) -> Node {
        let mut alts = vec![self.seq()];
        while self.chars.peek() == Some(&'|') {
            self.chars.next();
            alts.push(self.seq());
        }
        if alts.len() == 1 {
            alts.pop().expect("one")
        } else {
            Node::Alt(alts)
        }
    }

    fn seq(&mut self) -> Node {
        let mut items = Vec::new();
        loop {
            self.skip_space();
            let item = match self.chars.peek().copied() {
                None | Some('|') | Some(')') | Some('\n') => break,
                Some('"') => {
                    self.chars.next();
                    let mut s = String::new();
                    loop {
                        match self.chars.next().expect("a closed literal") {
                            '"' => break,
                            '\\' => s.push(self.escaped()),
                            c => s.push(c),
                        }
                    }
                    Node::Lit(s)
                }
                Some('[') => {
                    self.chars.next();
                    let negated = self.chars.peek() == Some(&'^');
                    if negated {
                        self.chars.next();
                    }
                    let mut ranges = Vec::new();
                    loop {
                        let lo = match self.chars.next().expect("a closed class") {
                            ']' => break,
                            '\\' => self.escaped(),
                            c => c,
                        };
                        let hi = if self.chars.peek() == Some(&'-') {
                            self.chars.next();
                            match self.chars.next().expect("a range end") {
                                '\\' => self.escaped(),
                                c => c,
                            }
                        } else {
                            lo
                        };
                        ranges.push((lo, hi));
                    }
                    Node::Class { negated, ranges }
                }
                Some('(') => {
                    self.chars.next();
                    let inner = self.alt();
                    assert_eq!(self.chars.next(), Some(')'));
                    inner
                }
                Some(_) => {
                    let mut name = String::new();
                    while self.chars.peek().is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_') {
                        name.push(self.chars.next().expect("a name"));
                    }
                    assert!(!name.is_empty(), "unexpected {:?}", self.chars.peek());
                    Node::Rule(name)
                }
            };
            let item = match self.chars.peek() {
                Some('?') => {
                    self.chars.next();
                    Node::Repeat(Box::new(item), 0, 1)
                }
                Some('{') => {
                    self.chars.next();
                    let mut spec = String::new();
                    for c in self.chars.by_ref() {
                        if c == '}' {
                            break;
                        }
                        spec.push(c);
                    }
                    let (lo, hi) = spec.split_once(',').expect("{m,n}");
                    Node::Repeat(Box::new(item), lo.parse().expect("m"), hi.parse().expect("n"))
                }
                _ => item,
            };
            items.push(item);
        }
        Node::Seq(items)
    }
}

fn rules(grammar: &str) -> std::collections::HashMap<String, Node> {
    grammar
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let (name, body) = line.split_once("::=").expect("a rule");
            let mut r = Reader { chars: body.chars().peekable() };
            (name.trim().to_string(), r.alt())
        })
        .collect()
}

fn draw(
    node: &Node,
    rules: &std::collections::HashMap<String, Node>,
    rng: &mut ChaCha8Rng,
    out: &mut String,
) {
    match node {
        Node::Lit(s) => out.push_str(s),
        Node::Class { negated: false, ranges } => {
            let (lo, hi) = ranges[rng.random_range(0..ranges.len())];
            out.push(char::from_u32(rng.random_range(lo as u32..=hi as u32)).expect("a char"));
        }
        Node::Class { negated: true, ranges } => loop {
            // Printable ASCII and a few letters beyond it, as a model might write.
            let pool = [' ', 'a', 'Z', '"', '\\', '{', '}', '<', 'é', '中', '7', ':', '\''];
            let c = pool[rng.random_range(0..pool.len())];
            if !ranges.iter().any(|(lo, hi)| (*lo..=*hi).contains(&c)) {
                out.push(c);
                break;
            }
        },
        Node::Rule(name) => draw(&rules[name], rules, rng, out),
        Node::Seq(items) => items.iter().for_each(|i| draw(i, rules, rng, out)),
        Node::Alt(alts) => draw(&alts[rng.random_range(0..alts.len())], rules, rng, out),
        Node::Repeat(item, lo, hi) => {
            // Half the time the longest reply allowed, the worst case for the budget.
            let n = if rng.random_bool(0.5) { *hi } else { rng.random_range(*lo..=*hi) };
            (0..n).for_each(|_| draw(item, rules, rng, out));
        }
    }
}

/// Replies drawn from the grammar of `request`'s call, checked against its budget.
/// The shape of `request`'s call as the browser gets it: the body the page writes with the shape
/// its `intab` chunk built, read back as the engine's module reads it. It must be the shape the
/// core builds from the request directly.
fn shaped(request: &ChatRequest) -> Shape {
    let body: Value = serde_json::from_str(&call_body(request, 7, None, Some(&shape_json(request))))
        .expect("the body is JSON");
    let out: Shape = serde_json::from_value(body["shape"].clone()).expect("a Shape");
    assert_eq!(out, shape(request), "the module's shape is the core's");
    out
}

fn replies(request: &ChatRequest) -> Vec<String> {
    let shape = shaped(request);
    let grammar = shape.grammar.expect("a grammar");
    let rules = rules(&grammar);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    (0..300)
        .map(|_| {
            let mut out = String::new();
            draw(&rules["root"], &rules, &mut rng, &mut out);
            assert!(
                out.len() as u32 <= shape.max_tokens,
                "{} bytes over a budget of {} tokens: {out}\n{grammar}",
                out.len(),
                shape.max_tokens
            );
            out
        })
        .collect()
}

fn request(purpose: Purpose, cue: Cue) -> ChatRequest {
    ChatRequest::new("Ada", purpose, vec![ChatMessage::user("go")]).with_cue(cue)
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn a_bid_is_always_a_number_on_the_seed_scale_in_angle_brackets() {
    let pattern = crate::parse::compile(crate::prompts::BID_PATTERN);
    let cue = Cue::Bid { last_speaker: None, last_text: String::new(), turns_since_spoke: None, turn: 1 };
    let mut seen = std::collections::BTreeSet::new();
    for reply in replies(&request(Purpose::Bid, cue)) {
        let bid = crate::parse::integer(&reply, &pattern, false).expect("a bid");
        assert!((1..=10).contains(&bid), "{reply}");
        seen.insert(bid);
    }
    assert_eq!(seen.len(), 10, "every bid on the scale can be written");
}

#[test]
fn a_director_choice_is_an_index_within_the_speakers() {
    let pattern = crate::parse::compile(crate::prompts::BID_PATTERN);
    let cue = Cue::Director {
        topic: String::new(),
        word_limit: 50,
        speakers: names(&["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L"]),
        turns_taken: vec![0; 12],
        last_speaker: None,
        last_text: String::new(),
        next_speaker: None,
    };
    let mut seen = std::collections::BTreeSet::new();
    for reply in replies(&request(Purpose::DirectorChoice, cue)) {
        let index = crate::parse::integer(&reply, &pattern, false).expect("an index");
        assert!((0..12).contains(&index), "{reply}");
        seen.insert(index);
    }
    assert_eq!(seen.len(), 12);
}

#[test]
fn a_selector_reply_names_exactly_one_candidate() {
    let all = names(&["Mayor \"Bo\"", "Café owner", "Student", "Reporter"]);
    let candidates = all[..3].to_vec();
    let cue =
        Cue::Select { candidates: candidates.clone(), last_speaker: None, attempt: 1, waited: Vec::new() };
    for reply in replies(&request(Purpose::Selector, cue)) {
        match crate::methods::selector::turn::read_reply(&reply, &all) {
            crate::methods::selector::turn::Reading::Named(i, crate::events::SelectorMatch::Exact) => {
                assert!(i < 3, "{reply}")
            }
            other => panic!("{reply:?} read as {other:?}"),
        }
    }
}

fn handoff_cue() -> Cue {
    Cue::Handoff {
        topic: String::new(),
        word_limit: 50,
        options: names(&["Opponent", "Moderator"]),
        last_speaker: None,
        last_text: String::new(),
        first: true,
    }
}

#[test]
fn a_text_handoff_starts_with_the_name_and_ends_naming_another_agent() {
    let pattern = crate::parse::compile(&crate::prompts::fill(
        crate::prompts::HANDOFF_PATTERN,
        &[("names", "Proponent|Opponent|Moderator")],
    ));
    let mut req = request(Purpose::Handoff, handoff_cue());
    req.agent = "Proponent".into();
    req.max_tokens = Some(500);
    for reply in replies(&req) {
        assert!(reply.starts_with("Proponent: "), "{reply}");
        let named = pattern.captures(&reply).expect("a transition").get(1).expect("a name").as_str();
        assert!(named == "Opponent" || named == "Moderator", "{reply}");
    }
}

#[test]
fn a_handoff_by_tool_or_json_is_an_object_with_the_schema_fields() {
    let schema = json!({"type": "object", "properties": {
        "response": {"type": "string"},
        "next_agent_name": {"type": "string", "enum": ["Opponent", "Moderator"]},
    }});
    let mut by_tool = request(Purpose::Handoff, handoff_cue());
    by_tool.max_tokens = Some(500);
    by_tool.tools.push(ToolSpec {
        name: "handoff".into(),
        description: String::new(),
        parameters: schema.clone(),
    });
    assert_eq!(shaped(&by_tool).tool.as_deref(), Some("handoff"));
    let mut by_json = request(Purpose::Handoff, handoff_cue());
    by_json.response_format = ResponseFormat::JsonSchema { name: "DebateResponse".into(), schema };
    assert_eq!(shaped(&by_json).tool, None);
    for reply in replies(&by_tool).into_iter().chain(replies(&by_json)) {
        let v: Value = serde_json::from_str(&reply).unwrap_or_else(|e| panic!("{e}: {reply}"));
        assert!(!v["response"].as_str().expect("a response").trim().is_empty());
        assert!(["Opponent", "Moderator"].contains(&v["next_agent_name"].as_str().expect("a name")));
    }
}

#[test]
fn a_trading_move_is_always_an_action_the_game_reads() {
    let cue = Cue::Negotiate(NegotiationCue {
        player: "Alice".into(),
        resources: names(&["WOOD", "STONE", "GOLD"]),
        ..NegotiationCue::default()
    });
    let mut kinds = std::collections::BTreeSet::new();
    for reply in replies(&request(Purpose::NegotiationAction, cue)) {
        let action =
            crate::game::negotiation::parse_action(&reply).unwrap_or_else(|e| panic!("{e}: {reply}"));
        kinds.insert(format!("{action:?}").chars().take(5).collect::<String>());
    }
    assert_eq!(kinds.len(), 4, "all four actions can be written: {kinds:?}");
}

#[test]
fn the_optimizer_writes_a_prompt_for_each_player() {
    let players = names(&["Alice", "Bob"]);
    let cue = Cue::Optimize(OptimizerCue { players: players.clone(), ..OptimizerCue::default() });
    for reply in replies(&request(Purpose::Optimizer, cue)) {
        let read = crate::methods::negotiation::turn::read_prompts(
            &reply,
            &[players[0].clone(), players[1].clone()],
        )
        .unwrap_or_else(|e| panic!("{e}: {reply}"));
        assert!(read.iter().all(Option::is_some), "{reply}");
    }
}

#[test]
fn speech_is_free_text_within_a_budget_from_the_word_limit() {
    let cue = Cue::Speak {
        topic: String::new(),
        word_limit: 50,
        last_speaker: None,
        last_text: String::new(),
        first: true,
    };
    let s = shaped(&request(Purpose::Speak, cue.clone()));
    assert_eq!((s.grammar, s.max_tokens, s.streams), (None, 124, true));
    let mut capped = request(Purpose::Speak, cue);
    capped.max_tokens = Some(40);
    assert_eq!(shaped(&capped).max_tokens, 40, "a limit the request sets wins");
}

#[test]
fn a_scenario_names_a_listed_model_or_a_gguf_address() {
    assert_eq!(source("").as_deref(), Some(MODELS[0].url), "none named: the default");
    assert_eq!(source("qwen2.5-0.5b").as_deref(), Some(MODELS[1].url));
    assert_eq!(source("models/tiny.gguf").as_deref(), Some("models/tiny.gguf"));
    assert_eq!(
        source("https://example.org/m.GGUF?download=1").as_deref(),
        Some("https://example.org/m.GGUF?download=1")
    );
    assert_eq!(source("gpt-4o"), None);
    assert_eq!(source("javascript:alert(1).gguf"), None);
    assert_eq!(source("file:///etc/passwd.gguf"), None);
    assert_eq!(listed("llama3.2-1b").map(|m| m.licence), Some("Llama 3.2 Community License"));
    assert_eq!(label(MODELS[1].url), "Qwen2.5 0.5B Instruct (Q4_K_M)");
    assert_eq!(label("models/tiny.gguf"), "models/tiny.gguf");
}

#[test]
fn a_scenario_on_the_in_tab_model_needs_no_address_but_a_model_it_can_fetch() {
    let mut s = crate::presets::find("rail-debate").expect("a preset").scenario();
    s.model.provider = PROVIDER.into();
    s.model.name.clear();
    assert!(s.validate().is_ok(), "{:?}", s.validate());
    s.model.name = "tiny.gguf".into();
    assert!(s.validate().is_ok());
    s.model.name = "gpt-4o".into();
    let errors = s.validate().expect_err("not a model the tab can fetch");
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].field, "model.name");
    assert!(errors[0].message.contains("smollm2-360m"), "{}", errors[0].message);
}

#[test]
fn the_page_sends_the_messages_seed_and_limits() {
    let mut req = request(Purpose::Bid, Cue::None);
    req.temperature = Some(0.7);
    let body: Value = serde_json::from_str(&call_body(&req, 42, None, None)).expect("JSON");
    assert_eq!(body["seed"], 42);
    assert_eq!(body["temperature"], 0.7);
    assert_eq!(body["messages"], json!([{"role": "user", "content": "go"}]));
    assert_eq!(body["reply"], json!({"kind": "number", "lo": 1, "hi": 10}));
    assert!(body.get("max_tokens").is_none(), "no limit of its own: the shape picks the budget");
    assert!(body.get("shape").is_none(), "no shape unless the page built one");
}

#[test]
fn the_engine_answer_is_read_whole_or_refused_with_the_field_it_lacks() {
    let full = json!({
        "content": "<think>hmm</think><7>", "prompt_tokens": 330, "completion_tokens": 4,
        "finish_reason": "stop", "ms": 1510.5,
        "timings": {"prompt_n": 330, "cache_n": 12, "prompt_ms": 1500.25, "predicted_n": 4, "predicted_ms": 10.5,
                    "prompt_per_second": 219.9},
    });
    let answer = EngineAnswer::read(full.clone()).unwrap();
    assert_eq!(
        answer.timings,
        Some(EngineTime {
            read_tokens: 330,
            reused_tokens: 12,
            read_ms: 1500.25,
            written_tokens: 4,
            written_ms: 10.5
        })
    );
    let bid = answer.into_response(&request(Purpose::Bid, Cue::None), None);
    assert_eq!((bid.content.as_str(), bid.reasoning.as_str()), ("<7>", "hmm"));
    assert_eq!((bid.usage.prompt_tokens, bid.usage.completion_tokens, bid.truncated), (330, 4, false));
    assert_eq!(bid.engine.map(|e| e.read_tokens), Some(330));

    // No timings reported: no engine time, not zeros.
    let mut untimed = full.clone();
    untimed["timings"] = Value::Null;
    untimed["finish_reason"] = json!("length");
    let answer = EngineAnswer::read(untimed).unwrap();
    assert_eq!(answer.timings, None);
    assert!(answer.into_response(&request(Purpose::Speak, Cue::None), None).truncated);

    // A handoff by tool comes back as the tool's call.
    let mut by_tool = request(Purpose::Handoff, handoff_cue());
    by_tool.tools.push(ToolSpec {
        name: "handoff".into(),
        description: String::new(),
        parameters: json!({}),
    });
    let mut args = full.clone();
    args["content"] = json!(r#"{"response": "Hi", "next_agent_name": "Opponent"}"#);
    let call = EngineAnswer::read(args).unwrap().into_response(&by_tool, None);
    assert_eq!((call.content.as_str(), call.tool_calls.len()), ("", 1));
    assert_eq!(call.tool_calls[0].name, "handoff");
    assert!(call.tool_calls[0].arguments.contains("Opponent"));

    // Anything missing or of the wrong kind is named.
    let mut no_count = full.clone();
    no_count["timings"].as_object_mut().unwrap().remove("prompt_n");
    assert_eq!(EngineAnswer::read(no_count).unwrap_err(), "the in-tab engine's timings has no `prompt_n`");
    let mut no_text = full.clone();
    no_text["content"] = json!(null);
    assert!(EngineAnswer::read(no_text).unwrap_err().contains("`content`"));
    let mut negative = full.clone();
    negative["prompt_tokens"] = json!(-1);
    assert!(EngineAnswer::read(negative).unwrap_err().contains("`prompt_tokens`"));
    assert!(EngineAnswer::read(Value::Null).unwrap_err().contains("must be a JSON object"));
}

#[test]
fn free_text_is_written_with_the_scenario_settings_and_held_replies_are_not() {
    let writing = Writing::default();
    let cast = names(&["Ada", "Bo", "Cy"]);
    let speak = Cue::Speak {
        topic: "rail".into(),
        word_limit: 40,
        last_speaker: None,
        last_text: String::new(),
        first: true,
    };
    let speech = request(Purpose::Speak, speak);
    let s = writing.sampling(&speech, &cast).expect("a speech is free text");
    assert_eq!((s.repeat_penalty, s.dry_multiplier, s.strip_name), (1.1, 0.8, true));
    // Every other speaker's line ends it; the speaker's own name does not.
    assert_eq!(s.stop, names(&["Bo:", "Cy:"]));
    let body: Value = serde_json::from_str(&call_body(&speech, 3, Some(&s), None)).unwrap();
    assert_eq!(body["writing"]["stop"], json!(["Bo:", "Cy:"]));
    assert_eq!(body["writing"]["repeat_penalty"], json!(1.1));

    // A handoff's text is held by its grammar, which says where it ends: the penalties only.
    let handoff = writing.sampling(&request(Purpose::Handoff, handoff_cue()), &cast).unwrap();
    assert_eq!((handoff.repeat_penalty, handoff.stop.len(), handoff.strip_name), (1.1, 0, false));
    assert_eq!(handoff.describe(), "Written with repetition penalty 1.10 and DRY 0.80.");

    // A bid is held by its grammar: no writing settings go with it.
    let bid = request(
        Purpose::Bid,
        Cue::Bid { last_speaker: None, last_text: String::new(), turns_since_spoke: None, turn: 1 },
    );
    assert_eq!(writing.sampling(&bid, &cast), None);
    assert!(serde_json::from_str::<Value>(&call_body(&bid, 3, None, None)).unwrap().get("writing").is_none());

    let off = Writing { stop_at_names: false, ..Writing::default() };
    assert!(off.sampling(&speech, &cast).unwrap().stop.is_empty());
}

#[test]
fn a_leading_own_name_comes_off_and_is_recorded() {
    let speech = request(Purpose::Speak, Cue::None);
    let answer = |content: &str| EngineAnswer {
        content: content.into(),
        prompt_tokens: 1,
        completion_tokens: 1,
        finish_reason: "stop".into(),
        timings: None,
    };
    let sampling = Writing::default().sampling(&speech, &names(&["Ada", "Bo"]));
    let r = answer("  Ada: Trains are good.").into_response(&speech, sampling.clone());
    assert_eq!(r.content, "Trains are good.");
    assert_eq!(r.sampling.as_ref().map(|s| s.stripped.as_str()), Some("Ada:"));
    assert!(r.sampling.unwrap().describe().contains("\"Ada:\" was taken off its start"));

    // Another name, or the name inside the text, stays.
    let r = answer("Adam said no.").into_response(&speech, sampling.clone());
    assert_eq!((r.content.as_str(), r.sampling.unwrap().stripped.as_str()), ("Adam said no.", ""));
    // With the setting off, the reply stays as written.
    let keep = Writing { strip_name: false, ..Writing::default() }.sampling(&speech, &[]);
    assert_eq!(answer("Ada: hi").into_response(&speech, keep).content, "Ada: hi");
}

#[test]
fn writing_settings_are_read_from_a_scenario_and_written_back_only_when_changed() {
    let mut scenario = crate::presets::find("rail-debate").expect("preset").scenario();
    let plain = serde_json::to_value(&scenario).unwrap();
    assert!(plain["model"].get("writing").is_none(), "the defaults are not written");
    scenario.model.writing.repeat_penalty = 1.3;
    scenario.model.writing.stop_at_names = false;
    let text = serde_json::to_string(&scenario).unwrap();
    let back: crate::scenario::Scenario = serde_json::from_str(&text).unwrap();
    assert_eq!(
        back.model.writing,
        Writing { repeat_penalty: 1.3, stop_at_names: false, ..Writing::default() }
    );
    let bad = text.replace("1.3", "7.0");
    assert!(serde_json::from_str::<crate::scenario::Scenario>(&bad)
        .unwrap_err()
        .to_string()
        .contains("repeat_penalty"));
}

/// A finished run of three agents, as the judge reads it.
fn judged_run() -> Vec<crate::events::Event> {
    use crate::events::{Event, MessageKind};
    let scenario: crate::scenario::Scenario = crate::json::read(
        r#"{"version": 1, "title": "t", "topic": "rail", "agents": [{"name": "Ann"}, {"name": "Bob \"B\""}, {"name": "Cy"}],
            "method": {"kind": "round_robin"}}"#,
    )
    .expect("a scenario");
    let mut events = vec![Event::RunStarted { seed: 1, scenario: Box::new(scenario) }];
    for (turn, who) in ["Ann", "Bob \"B\"", "Cy"].into_iter().enumerate() {
        events.push(Event::Message {
            turn: turn as u32 + 1,
            speaker: who.into(),
            text: "Rail pays for itself.".into(),
            kind: MessageKind::Agent,
            refusal: String::new(),
        });
    }
    events
}

#[test]
fn a_verdict_on_the_model_in_the_tab_scores_every_agent_on_every_dimension_on_its_scale() {
    let settings = crate::judge::JudgeSettings::default();
    let events = judged_run();
    let request = crate::judge::request(&events, &settings).expect("a request");
    assert!(matches!(Reply::of(&request), Reply::Schema { .. }));
    let mut seen = std::collections::BTreeSet::new();
    for reply in replies(&request) {
        let judged =
            crate::judge::read_verdict(&reply, &events, &settings).unwrap_or_else(|e| panic!("{e}: {reply}"));
        assert_eq!(judged.agents.len(), 3);
        assert_eq!(judged.agents[1].agent, "Bob \"B\"");
        assert_eq!(judged.agents[0].scores.len(), settings.agent_rubric.len());
        seen.extend(judged.agents[0].scores.iter().map(|s| s.score));
        assert!(judged.conversation.is_some());
    }
    assert_eq!(seen.len(), 5, "every score on the 1 to 5 scale can be written: {seen:?}");
    // A token limit below what the verdict's fixed parts take: the call is still given room for
    // the whole reply (`replies` checks every reply against it), so no reply is cut inside it.
    let tight = crate::judge::JudgeSettings { max_tokens: 50, ..settings.clone() };
    let request = crate::judge::request(&events, &tight).expect("a request");
    for reply in replies(&request) {
        crate::judge::read_verdict(&reply, &events, &tight).unwrap_or_else(|e| panic!("{e}: {reply}"));
    }
}

#[test]
fn a_comparison_on_the_model_in_the_tab_names_a_side_for_every_dimension() {
    let settings = crate::judge::JudgeSettings::default();
    let events = judged_run();
    let request = crate::judge::pairwise::request(&events, &events, &settings).expect("a request");
    let mut sides = std::collections::BTreeSet::new();
    for reply in replies(&request) {
        let read = crate::judge::pairwise::read(&reply, &settings).unwrap_or_else(|e| panic!("{e}: {reply}"));
        assert_eq!(read.len(), crate::judge::pairwise::dimensions(&settings).len());
        sides.extend(read.iter().map(|s| s.as_str()));
    }
    assert_eq!(sides.len(), 3, "A, B and tie can each be written");
}
