//! The model that runs inside the tab (llama.cpp compiled to WebAssembly, through wllama), as
//! plain data and logic: the models Agora offers to download, how a scenario names one, and the
//! shape of each call. The shape is what makes a small model usable for orchestration: every
//! call whose reply the engine parses (a bid, the director's index, a handoff, a selector's
//! name, a trading action, the optimizer's prompts) is held by a grammar built from the request
//! to exactly the format the engine reads, so even random weights cannot write a malformed one.
//! Speech is free text within a token budget that follows the scenario's word limit.

use serde_json::Value;

use crate::json::Fields;
use crate::model::{
    ChatRequest, ChatResponse, Cue, EngineTime, Purpose, ResponseFormat, Sampling, ToolCall, Usage,
};
pub mod builtin;
pub mod panel;

pub use crate::reply::{Reply, BID_RANGE};

/// The provider id a scenario names to run on the in-tab model.
pub const PROVIDER: &str = "browser";

/// A model Agora offers to download into the tab.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TabModel {
    /// What a scenario writes as its model name.
    pub id: &'static str,
    pub label: &'static str,
    pub url: &'static str,
    /// The download, in megabytes (as published by the file's host).
    pub download_mb: u32,
    /// Roughly what it takes in memory once loaded with Agora's context, in megabytes.
    pub memory_mb: u32,
    pub licence: &'static str,
    pub licence_url: &'static str,
    /// Which machine it suits, for the engine's panel.
    pub suits: &'static str,
}

/// Small instruction-tuned models at quantisations a school laptop can hold.
pub const MODELS: [TabModel; 5] = [
    TabModel {
        id: "smollm2-360m",
        label: "SmolLM2 360M Instruct (Q8_0)",
        url: "https://huggingface.co/HuggingFaceTB/SmolLM2-360M-Instruct-GGUF/resolve/main/smollm2-360m-instruct-q8_0.gguf",
        download_mb: 386,
        memory_mb: 600,
        licence: "Apache 2.0",
        licence_url: "https://huggingface.co/HuggingFaceTB/SmolLM2-360M-Instruct",
        suits: "the smallest and quickest: any laptop or Chromebook, and the only one for a phone",
    },
    TabModel {
        id: "qwen2.5-0.5b",
        label: "Qwen2.5 0.5B Instruct (Q4_K_M)",
        url: "https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q4_k_m.gguf",
        download_mb: 491,
        memory_mb: 800,
        licence: "Apache 2.0",
        licence_url: "https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct",
        suits: "a laptop with 4 GB of memory or more",
    },
    TabModel {
        id: "lfm2-1.2b",
        label: "LFM2 1.2B (Q4_K_M)",
        url: "https://huggingface.co/LiquidAI/LFM2-1.2B-GGUF/resolve/main/LFM2-1.2B-Q4_K_M.gguf",
        download_mb: 731,
        memory_mb: 1100,
        licence: "LFM Open License v1.0",
        licence_url: "https://huggingface.co/LiquidAI/LFM2-1.2B/blob/main/LICENSE",
        suits: "a laptop with 8 GB and no graphics card to speak of: built to write quickly on a CPU",
    },
    TabModel {
        id: "gemma3-1b",
        label: "Gemma 3 1B Instruct (Q4_K_M)",
        url: "https://huggingface.co/lmstudio-community/gemma-3-1b-it-GGUF/resolve/main/gemma-3-1b-it-Q4_K_M.gguf",
        download_mb: 806,
        memory_mb: 1200,
        licence: "Gemma Terms of Use",
        licence_url: "https://ai.google.dev/gemma/terms",
        suits: "a laptop with 8 GB, quickest where the browser offers WebGPU",
    },
    TabModel {
        id: "llama3.2-1b",
        label: "Llama 3.2 1B Instruct (Q4_K_M)",
        url: "https://huggingface.co/bartowski/Llama-3.2-1B-Instruct-GGUF/resolve/main/Llama-3.2-1B-Instruct-Q4_K_M.gguf",
        download_mb: 808,
        memory_mb: 1300,
        licence: "Llama 3.2 Community License",
        licence_url: "https://huggingface.co/meta-llama/Llama-3.2-1B-Instruct",
        suits: "a laptop with 8 GB, quickest where the browser offers WebGPU",
    },
];

/// The context the engine is loaded with, in tokens: a ten-turn debate with its prompts fits with
/// room to spare, and the listed models' caches stay within a few hundred megabytes.
pub const CONTEXT_TOKENS: u32 = 4096;

/// The model Agora picks when a scenario names none.
pub const DEFAULT_MODEL: &str = "smollm2-360m";

/// Where the model a scenario names comes from: one of [`MODELS`] by id, or a GGUF file by its
/// address (absolute, or relative to the page). `None` when the name is neither.
pub fn source(name: &str) -> Option<String> {
    if let Some(m) = listed(name) {
        return Some(m.url.to_string());
    }
    let name = name.trim();
    let path = name.split(['?', '#']).next().unwrap_or("");
    let gguf = path.to_ascii_lowercase().ends_with(".gguf");
    let scheme_ok = !name.contains(':') || name.starts_with("https://") || name.starts_with("http://");
    (gguf && scheme_ok && !name.chars().any(char::is_whitespace)).then(|| name.to_string())
}

/// How a model's address is shown (the page and the engine's panel both): the listed model's
/// name, or the address itself.
pub fn label(url: &str) -> String {
    MODELS.iter().find(|m| m.url == url).map_or_else(|| url.to_string(), |m| m.label.to_string())
}

/// The listed model with this id (the default when none is named).
pub fn listed(name: &str) -> Option<&'static TabModel> {
    let name = name.trim();
    let name = if name.is_empty() { DEFAULT_MODEL } else { name };
    MODELS.iter().find(|m| m.id == name)
}

/// Asks each method's folder for the form of the reply a call of its own must take.
macro_rules! method_replies {
    ($($kind:ident $module:ident $id:literal $label:literal,)*) => {
        fn method_reply(request: &ChatRequest) -> Option<Reply> {
            $(if let Some(reply) = crate::methods::$module::intab::reply(request) {
                return Some(reply);
            })*
            None
        }
    };
}

crate::methods::registry::each_method!(method_replies);

impl Reply {
    /// The reply `request` asks for: the form its method holds it to (each method's folder says,
    /// in `intab.rs`), or free text.
    pub fn of(request: &ChatRequest) -> Reply {
        if let (Purpose::Judge, ResponseFormat::JsonSchema { schema, .. }) =
            (request.purpose, &request.response_format)
        {
            return Reply::Schema { schema: schema.clone() };
        }
        if let Some(reply) = method_reply(request) {
            return reply;
        }
        match &request.cue {
            Cue::Speak { word_limit, .. }
            | Cue::Director { word_limit, .. }
            | Cue::Describe { word_limit, .. } => {
                Reply::Text { word_limit: Some(*word_limit), streams: request.purpose.is_speech() }
            }
            _ => Reply::Text { word_limit: None, streams: request.purpose.is_speech() },
        }
    }

    /// The tool a reply of this form calls, if it is a tool's arguments.
    pub fn tool(&self) -> Option<&str> {
        match self {
            Reply::Object { tool, .. } => tool.as_deref(),
            _ => None,
        }
    }

    /// The most tokens of text a reply of this form may be written in, for a request that sets
    /// `limit` (if any): free text, a handoff's speech, an object's texts; `None` for a reply of
    /// a fixed form (a bid, a choice, a trading action).
    pub fn text_tokens(&self, limit: Option<u32>) -> Option<u32> {
        let of_words = |w: Option<u32>| limit.unwrap_or(w.map_or(256, speech_tokens));
        match self {
            Reply::Text { word_limit, .. } => Some(of_words(*word_limit)),
            Reply::Handoff { word_limit, .. } | Reply::Object { word_limit, .. } => {
                Some(of_words(Some(*word_limit)))
            }
            Reply::Prompts { .. } => Some(limit.unwrap_or(600)),
            Reply::Schema { .. } => Some(limit.unwrap_or(1024)),
            Reply::Number { .. } | Reply::Name { .. } | Reply::Action { .. } => None,
        }
    }

    /// How the call is made, for a request that sets `limit` as its most tokens (if any).
    pub fn shape(&self, limit: Option<u32>) -> Shape {
        let held = |grammar: String, budget: u32| Shape {
            grammar: Some(grammar),
            // Never less than the grammar's longest reply, or a reply could be cut inside it.
            max_tokens: limit.map_or(budget, |l| l.max(budget)),
            tool: None,
            streams: false,
        };
        match self {
            Reply::Text { streams, .. } => Shape {
                grammar: None,
                max_tokens: self.text_tokens(limit).unwrap_or(256),
                tool: None,
                streams: *streams,
            },
            Reply::Number { lo, hi } => held(format!("root ::= \"<\" ({}) \">\"", numbers(*lo, *hi)), 8),
            Reply::Name { options } => held(format!("root ::= {}", one_of(options)), 24),
            Reply::Object { schema, tool, .. } => {
                let budget = self.text_tokens(limit).unwrap_or(256);
                Shape { tool: tool.clone(), ..held(object_grammar(schema, budget), budget) }
            }
            Reply::Handoff { agent, options, .. } => {
                let budget = self.text_tokens(limit).unwrap_or(256);
                // The seed's text form: the speaker's name, a sentence or two, then the
                // transition the handoff pattern reads.
                let prefix = format!("{agent}: ");
                let fixed = prefix.len()
                    + 1
                    + " Transition to .".len()
                    + options.iter().map(String::len).max().unwrap_or(0);
                let grammar = format!(
                    "root ::= {} [!-~] [ -~]{{0,{}}} \" Transition to \" {} \".\"",
                    literal(&prefix),
                    text_budget(budget, fixed as u32),
                    one_of(options)
                );
                Shape { streams: true, ..held(grammar, budget) }
            }
            Reply::Action { resources } => {
                let names: Vec<String> = resources.iter().map(|r| json_text(r)).collect();
                let longest = names.iter().map(String::len).max().unwrap_or(0) as u32;
                let resource = one_of(&names);
                let grammar = format!(
                    "root ::= \"{{\\\"action\\\": \" (\"\\\"ACCEPT\\\"\" | \"\\\"REJECT\\\"\" | \"\\\"END\\\"\" | trade) \"}}\"\n\
                     trade ::= \"\\\"TRADE\\\", \\\"sell_resource\\\": \" {resource} \", \\\"buy_resource\\\": \" {resource} \", \\\"quantity\\\": \" [1-9] [0-9]?"
                );
                Shape { streams: true, ..held(grammar, 72 + 2 * longest) }
            }
            Reply::Schema { schema } => {
                let budget = self.text_tokens(limit).unwrap_or(1024);
                let (grammar, longest) = schema_grammar(schema, budget);
                held(grammar, budget.max(longest))
            }
            Reply::Prompts { players } => {
                let budget = self.text_tokens(limit).unwrap_or(600);
                let count = players.len().max(1) as u32;
                let each = text_budget(budget, 16 * count + 8) / count;
                let fields: Vec<String> =
                    players.iter().map(|p| format!("{} \": \" text", literal(&json_text(p)))).collect();
                held(
                    format!(
                        "root ::= \"{{\" {} \"}}\"\n{}",
                        fields.join(" \", \" "),
                        string_rule("text", each)
                    ),
                    budget,
                )
            }
        }
    }
}

/// How one call is made on the in-tab model.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shape {
    /// A GBNF grammar the reply must follow; `None` for free text.
    pub grammar: Option<String>,
    /// The most tokens the reply may have.
    pub max_tokens: u32,
    /// The reply is the arguments of this tool, to be returned as a call to it.
    pub tool: Option<String>,
    /// Text the reply streams into the transcript as it is written.
    pub streams: bool,
}

/// Characters of free text inside a structured reply: each is at least one token, so the reply
/// always closes within its budget.
fn text_budget(max_tokens: u32, reserved: u32) -> u32 {
    max_tokens.saturating_sub(reserved).clamp(8, 1200)
}

/// The budget of a speech: the word limit at about two tokens a word, with room to finish.
fn speech_tokens(word_limit: u32) -> u32 {
    (word_limit.saturating_mul(2) + 24).clamp(32, 1024)
}

crate::json::settings! {
    /// How the model in the tab writes free text (speeches, comments, descriptions). A small
    /// model left to itself repeats a line over and over, and goes on to write the other
    /// speakers' lines after its own; these stop both. Replies held by a grammar (bids, choices)
    /// and every hosted provider's request are untouched.
    #[derive(Clone, Debug, PartialEq, serde::Serialize)]
    pub struct Writing {
        /// llama.cpp's repetition penalty over the last 64 tokens (1 is none).
        pub repeat_penalty: f64 = set_f64,
        /// llama.cpp's DRY ("don't repeat yourself") multiplier, which grows the penalty with
        /// the length of a repeated run of tokens (0 is none).
        pub dry_multiplier: f64 = set_f64,
        /// End a reply where the model starts another speaker's line ("Name:").
        pub stop_at_names: bool = set_bool,
        /// Take a leading "own name:" off a reply (the seeds' prompts end with it, and a small
        /// model often writes it again).
        pub strip_name: bool = set_bool,
    }
}

impl Default for Writing {
    fn default() -> Self {
        Writing { repeat_penalty: 1.1, dry_multiplier: 0.8, stop_at_names: true, strip_name: true }
    }
}

impl Writing {
    pub fn is_default(&self) -> bool {
        *self == Writing::default()
    }

    pub(crate) fn read(mut f: Fields) -> Result<Writing, String> {
        use crate::json::ReadPresent;
        let mut w = Writing::default();
        w.read_present(&mut f)?;
        if !(1.0..=2.0).contains(&w.repeat_penalty) || !(0.0..=4.0).contains(&w.dry_multiplier) {
            return Err(
                "model.writing: repeat_penalty goes from 1 to 2 and dry_multiplier from 0 to 4".into()
            );
        }
        Ok(w)
    }

    /// How `request` is written on the model in the tab, given the names of the cast. Free text
    /// gets every setting; the free text inside a grammar's form (a text or JSON handoff, the
    /// optimizer's prompts) only the penalties, since the grammar says where it ends; a reply
    /// of a fixed form (a bid, a choice, a trading action) none.
    pub fn sampling(&self, request: &ChatRequest, cast: &[String]) -> Option<Sampling> {
        let free = match Reply::of(request) {
            Reply::Text { .. } => true,
            Reply::Handoff { .. } | Reply::Object { .. } | Reply::Prompts { .. } | Reply::Schema { .. } => {
                false
            }
            Reply::Number { .. } | Reply::Name { .. } | Reply::Action { .. } => return None,
        };
        // "Name:" anywhere, not only after a line break: a small model also opens its reply
        // with another speaker's name.
        let stop = if free && self.stop_at_names {
            cast.iter().filter(|n| **n != request.agent).map(|n| format!("{n}:")).collect()
        } else {
            Vec::new()
        };
        Some(Sampling {
            repeat_penalty: self.repeat_penalty,
            dry_multiplier: self.dry_multiplier,
            stop,
            strip_name: free && self.strip_name,
            stripped: String::new(),
        })
    }
}

crate::json::deserialize_with_fields!(Writing, "model.writing");

/// The shape of `request`'s call (see the module's documentation).
pub fn shape(request: &ChatRequest) -> Shape {
    Reply::of(request).shape(request.max_tokens)
}

/// The call the page hands the engine's module: the messages, the call's `seed`, the request's
/// own token limit and temperature if it sets them, the [`Reply`] it must take, and for the
/// in-tab engine its [`Shape`] as JSON (the grammar and the token budget, built by the page's
/// `intab` chunk: the built-in model reads the reply itself). Written by hand: a `json!` tree here costs the first page kilobytes.
pub fn call_body(
    request: &ChatRequest,
    seed: u32,
    sampling: Option<&Sampling>,
    shape: Option<&str>,
) -> String {
    let mut body = format!(
        "{{\"messages\":{},\"seed\":{seed},\"reply\":{}",
        serde_json::to_string(&request.messages).unwrap_or_default(),
        serde_json::to_string(&Reply::of(request)).unwrap_or_default(),
    );
    if let Some(t) = request.max_tokens {
        body.push_str(&format!(",\"max_tokens\":{t}"));
    }
    if let Some(t) = request.temperature {
        body.push_str(&format!(",\"temperature\":{}", crate::json::temperature(t)));
    }
    if let Some(s) = sampling {
        body.push_str(&format!(",\"writing\":{}", serde_json::to_string(s).unwrap_or_default()));
    }
    if let Some(shape) = shape {
        body.push_str(&format!(",\"shape\":{shape}"));
    }
    body.push('}');
    body
}

/// The engine module's answer to one call (`complete` in public/intab/engine.js), read whole: a
/// field missing or of the wrong kind is an error that names it, never a zero. Only the timings
/// may be absent (`null` when the engine reported none), and then the call has no engine time.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineAnswer {
    pub content: String,
    pub prompt_tokens: u32,
    pub completion_tokens: u32,
    /// `length` when the reply stopped at its token budget.
    pub finish_reason: String,
    pub timings: Option<EngineTime>,
}

impl EngineAnswer {
    pub fn read(value: Value) -> Result<EngineAnswer, String> {
        let mut f = Fields::new(value, "the in-tab engine's answer")?;
        let timings = match f.opt_object("timings", "the in-tab engine's timings")? {
            None => None,
            Some(mut t) => Some(EngineTime {
                read_tokens: t.u32("prompt_n")?,
                reused_tokens: t.u32("cache_n")?,
                read_ms: t.f64("prompt_ms")?,
                written_tokens: t.u32("predicted_n")?,
                written_ms: t.f64("predicted_ms")?,
            }),
        };
        Ok(EngineAnswer {
            content: f.string("content")?,
            prompt_tokens: f.u32("prompt_tokens")?,
            completion_tokens: f.u32("completion_tokens")?,
            finish_reason: f.string("finish_reason")?,
            timings,
        })
    }

    /// The reply as a run records it: the text is the arguments of the tool call when `request`
    /// asked for one (a handoff by tool), the reasoning is taken apart from the answer, and a
    /// leading "own name:" comes off when `sampling` says so (and is recorded there).
    pub fn into_response(mut self, request: &ChatRequest, mut sampling: Option<Sampling>) -> ChatResponse {
        if let Some(s) = sampling.as_mut().filter(|s| s.strip_name) {
            let text = self.content.trim_start();
            if let Some(rest) = text.strip_prefix(request.agent.as_str()).and_then(|r| r.strip_prefix(':')) {
                s.stripped = format!("{}:", request.agent);
                self.content = rest.trim_start().to_string();
            }
        }
        let mut response = ChatResponse {
            usage: Usage {
                prompt_tokens: self.prompt_tokens,
                completion_tokens: self.completion_tokens,
                reasoning_tokens: 0,
            },
            truncated: self.finish_reason == "length",
            engine: self.timings,
            sampling,
            ..ChatResponse::default()
        };
        match Reply::of(request).tool() {
            Some(name) => {
                response.tool_calls.push(ToolCall { name: name.to_string(), arguments: self.content })
            }
            None => response.content = self.content,
        }
        response.separate_reasoning();
        response
    }
}

/// The shape of `request`'s call as JSON, as the page's `intab` chunk hands it to the engine's
/// module inside the call's body ([`call_body`]).
pub fn shape_json(request: &ChatRequest) -> String {
    serde_json::to_string(&shape(request)).unwrap_or_default()
}

/// A GBNF literal for `text`.
fn literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Alternatives: exactly one of `items`, each as a literal.
fn one_of(items: &[String]) -> String {
    let alts: Vec<String> = items.iter().map(|i| literal(i)).collect();
    format!("({})", alts.join(" | "))
}

/// The whole numbers from `lo` to `hi` as alternatives.
fn numbers(lo: u32, hi: u32) -> String {
    let alts: Vec<String> = (lo..=hi).map(|n| format!("\"{n}\"")).collect();
    alts.join(" | ")
}

/// `text` as a JSON string.
fn json_text(text: &str) -> String {
    Value::String(text.to_string()).to_string()
}

/// A rule `name` for a JSON string of 1 to `max` characters that does not start with a space
/// (printable ASCII: a character is then at most one token, so the bound holds in tokens too).
fn string_rule(name: &str, max: u32) -> String {
    format!("{name} ::= \"\\\"\" [!#-\\[\\]-~] [ !#-\\[\\]-~]{{0,{}}} \"\\\"\"", max.max(2) - 1)
}

/// A grammar for a flat JSON object with the schema's properties in order: a property with an
/// `enum` is one of its values, an integer is digits, anything else a bounded string.
fn object_grammar(schema: &Value, budget: u32) -> String {
    let empty = serde_json::Map::new();
    let props = schema.get("properties").and_then(Value::as_object).unwrap_or(&empty);
    let mut reserved = 8;
    let mut free_fields = 0;
    let mut parts = Vec::new();
    let mut rules = Vec::new();
    for (i, (key, spec)) in props.iter().enumerate() {
        reserved += key.len() as u32 + 6;
        let value = if let Some(options) = spec.get("enum").and_then(Value::as_array) {
            let names: Vec<String> = options.iter().filter_map(Value::as_str).map(json_text).collect();
            reserved += names.iter().map(|n| n.len() as u32).max().unwrap_or(0);
            one_of(&names)
        } else if spec.get("type").and_then(Value::as_str) == Some("integer") {
            reserved += 6;
            "[0-9] [0-9]?".to_string()
        } else {
            free_fields += 1;
            "text".to_string()
        };
        let sep = if i == 0 { "" } else { ", " };
        parts.push(format!("{} {value}", literal(&format!("{sep}{}: ", json_text(key)))));
    }
    if let Some(each) = text_budget(budget, reserved).checked_div(free_fields) {
        rules.push(string_rule("text", each));
    }
    format!("root ::= \"{{\" {} \"}}\"\n{}", parts.join(" "), rules.join("\n"))
}

/// A grammar for JSON following `schema`, nested (the judge's verdict and its comparison of two
/// runs): an object has every property, in the schema's order (so a verdict keyed by the agents'
/// names scores every agent, once); an array of objects whose first
/// property is an `enum` has one item for each of its values, in order (so every agent is scored,
/// once); an `enum` is one of its values; an integer with a `minimum` and `maximum` is one of
/// that range, another at most three digits; anything else a bounded string. The strings share
/// what the budget leaves. With the grammar, the length of its longest reply.
fn schema_grammar(schema: &Value, budget: u32) -> (String, u32) {
    let (mut reserved, mut strings) = (0u32, 0u32);
    let root = schema_value(schema, None, &mut reserved, &mut strings);
    let mut grammar = format!("root ::= {root}");
    let mut longest = reserved;
    if let Some(each) = text_budget(budget, reserved).checked_div(strings) {
        grammar.push('\n');
        grammar.push_str(&string_rule("text", each));
        longest += strings * each.max(2);
    }
    (grammar, longest)
}

/// The rule for one value of a schema (see [`schema_grammar`]), its first property fixed to
/// `first` when it is an array's item; counts the characters it fixes and the strings it leaves free.
fn schema_value(s: &Value, first: Option<&str>, reserved: &mut u32, strings: &mut u32) -> String {
    let enum_of = |s: &Value| -> Option<Vec<String>> {
        Some(s.get("enum")?.as_array()?.iter().filter_map(Value::as_str).map(String::from).collect())
    };
    if let Some(options) = enum_of(s).filter(|o| !o.is_empty()) {
        let names: Vec<String> = options.iter().map(|o| json_text(o)).collect();
        *reserved += names.iter().map(|n| n.len() as u32).max().unwrap_or(0);
        return one_of(&names);
    }
    let empty = serde_json::Map::new();
    let properties = |s: &Value| s.get("properties").and_then(Value::as_object).unwrap_or(&empty).clone();
    match s.get("type").and_then(Value::as_str) {
        Some("object") => {
            let mut parts = Vec::new();
            for (i, (key, spec)) in properties(s).iter().enumerate() {
                let sep = if i == 0 { "" } else { ", " };
                let label = format!("{sep}{}: ", json_text(key));
                *reserved += label.len() as u32;
                let value = match (i, first) {
                    (0, Some(fixed)) => {
                        *reserved += json_text(fixed).len() as u32;
                        literal(&json_text(fixed))
                    }
                    _ => schema_value(spec, None, reserved, strings),
                };
                parts.push(format!("{} {value}", literal(&label)));
            }
            *reserved += 2;
            format!("\"{{\" {} \"}}\"", parts.join(" "))
        }
        Some("array") => {
            let item = s.get("items").unwrap_or(&Value::Null);
            let keys = properties(item).values().next().and_then(enum_of).unwrap_or_default();
            *reserved += 2;
            let items: Vec<String> = if keys.is_empty() {
                vec![schema_value(item, None, reserved, strings)]
            } else {
                keys.iter()
                    .map(|k| {
                        *reserved += 2;
                        schema_value(item, Some(k), reserved, strings)
                    })
                    .collect()
            };
            format!("\"[\" {} \"]\"", items.join(" \", \" "))
        }
        Some("integer") => {
            let bound = |k: &str| s.get(k).and_then(Value::as_u64).and_then(|n| u32::try_from(n).ok());
            match (bound("minimum"), bound("maximum")) {
                (Some(lo), Some(hi)) if lo <= hi && hi - lo <= 100 => {
                    *reserved += hi.to_string().len() as u32;
                    format!("({})", numbers(lo, hi))
                }
                _ => {
                    *reserved += 3;
                    "(\"0\" | [1-9] [0-9]? [0-9]?)".into()
                }
            }
        }
        _ => {
            *strings += 1;
            *reserved += 2;
            "text".into()
        }
    }
}

#[cfg(test)]
mod tests;
