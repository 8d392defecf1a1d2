//! A scenario: everything needed to start a run, as versioned serde data.
//!
//! Every constant of the seed notebooks is a setting here, and its default is the seed's value,
//! so a scenario file only has to say what differs. Prompt texts that depend on the method
//! (a debate's header is not a talk show's) are `Option`s resolved by [`Scenario::prompt`].

use serde::{Deserialize, Serialize};

use crate::prompts;

mod edit;
pub use edit::TopicFollow;
mod read;
mod templates;
pub use templates::{TemplatePart, TemplateRow};

/// Asserts that a scenario with `method` (every field away from its default) reads back as it
/// was written, for the tests in each method's folder.
impl MethodKind {
    /// The method's name in the language the page speaks ([`crate::i18n`]; files and logs keep
    /// [`MethodKind::label`]'s English).
    pub fn words(self) -> &'static str {
        use crate::i18n::{say, t};
        match self {
            MethodKind::RoundRobin => t(say::MethodRoundRobin),
            MethodKind::Random => t(say::MethodRandom),
            MethodKind::Bidding => t(say::MethodBidding),
            MethodKind::Director => t(say::MethodDirector),
            MethodKind::Handoff => t(say::MethodHandoff),
            MethodKind::Selector => t(say::MethodSelector),
            MethodKind::Negotiation => t(say::MethodNegotiation),
        }
    }
}

#[cfg(test)]
pub(crate) fn assert_reads_back(method: Method) {
    read::tests::reads_back(method)
}

/// The scenario format this build reads and writes.
pub const SCENARIO_VERSION: u32 = 1;
/// Limits that keep a scenario (from a file or a link) within what the app can show.
pub const MAX_AGENTS: usize = 16;
pub const MAX_NAME_CHARS: usize = 80;
pub const MAX_TEXT_CHARS: usize = 20_000;
pub const MAX_TURNS: u32 = 10_000;

#[derive(Clone, Debug, Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(PartialEq))]
pub struct Scenario {
    pub version: u32,
    pub title: String,
    pub summary: String,
    pub topic: String,
    /// The language every agent, the director and the judge are asked to speak (empty: the
    /// prompts' own, as in every seed). Each call then ends with [`Prompts::language`]'s line.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub language: String,
    /// Seed 000: 50 words.
    pub word_limit: u32,
    pub seed: u64,
    /// Seed 000: 10 turns. For the negotiation game: the turn limit of each game.
    pub max_turns: u32,
    pub agents: Vec<AgentSpec>,
    pub method: Method,
    pub opening: Opening,
    pub prompts: Prompts,
    pub model: ModelSettings,
    /// Names a person answers for instead of the model (agents, or the selector): see
    /// `crate::seat`. A link can carry them ("the class plays the moderator").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub seats: Vec<String>,
    /// How long a seat waits for its person, in seconds; 0 (the default) waits as long as it
    /// takes. A seat that times out answers nothing, which the method reads as an unreadable
    /// reply (its retries, then its fallback), and a speech is recorded as unanswered.
    #[serde(skip_serializing_if = "crate::model::is_zero")]
    pub seat_timeout_s: u32,
    /// Who judges a finished run, and on what rubric (`crate::judge`).
    #[serde(skip_serializing_if = "crate::judge::rubric::JudgeSpec::is_unset")]
    pub judge: crate::judge::rubric::JudgeSpec,
}

/// The longest a seat may be set to wait: a day.
pub const MAX_SEAT_TIMEOUT_S: u32 = 86_400;

/// Seed 000: 50 words and 10 turns.
pub const DEFAULT_WORD_LIMIT: u32 = 50;
pub const DEFAULT_MAX_TURNS: u32 = 10;

/// Which side of the proposition an agent is on. The handoff prompts state it, and the demo
/// model uses it to decide who disagrees with whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stance {
    For,
    Against,
    Neutral,
}

impl Stance {
    /// Seed 003's wording: "a proposition that you agree with".
    pub fn phrase(self) -> &'static str {
        match self {
            Stance::For => "agree with",
            Stance::Against => "disagree with",
            Stance::Neutral => "feel neutral about",
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct AgentSpec {
    pub name: String,
    /// "presidential candidate", "Host of the Daily Show", ...
    pub role: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub location: String,
    /// Fixed character description; replaced when the scenario generates descriptions.
    pub description: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stance: Option<Stance>,
    /// Replaces the whole system message built from the templates. For the negotiation game
    /// this is the player's strategy prompt, the one the optimizer rewrites.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system_prompt: Option<String>,
    /// A model for this agent in place of the scenario's (a cheap one for bids, say); real
    /// providers only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}

crate::json::settings! {
    /// How the conversation opens before the first turn.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct Opening {
        /// Who injects the opening message (seed 000: "Debate Moderator"; seed 004: "Audience member").
        pub speaker: String = set_string,
        /// The opening message; when empty the (specified) topic is used.
        pub text: String = set_string,
        /// Ask a model to make the topic more specific first (seed 000's topic specifier).
        pub specify_topic: bool = set_bool,
        /// Ask a model for each agent's description first (seed 000's character descriptions).
        pub describe_characters: bool = set_bool,
        pub specifier_system: String = set_string,
        pub specifier_prompt: String = set_string,
        pub describer_system: String = set_string,
        pub describer_prompt: String = set_string,
    }
}

impl Default for Opening {
    fn default() -> Self {
        Self {
            speaker: "Debate Moderator".into(),
            text: String::new(),
            specify_topic: false,
            describe_characters: false,
            specifier_system: prompts::SPECIFIER_SYSTEM.into(),
            specifier_prompt: prompts::SPECIFIER_PROMPT.into(),
            describer_system: prompts::DESCRIBER_SYSTEM.into(),
            describer_prompt: prompts::DESCRIBER_PROMPT.into(),
        }
    }
}

/// Templates shared by the talking methods. `None` means the seed's text for the method.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Prompts {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conversation_description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub header: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub history_header: Option<String>,
    /// The line that asks for the scenario's language (`None`: [`prompts::LANGUAGE_LINE`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
}

/// Which of the shared templates to resolve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromptKind {
    ConversationDescription,
    Header,
    System,
    HistoryHeader,
    Language,
}

pub use crate::methods::bidding::settings::BiddingSettings;
pub use crate::methods::director::settings::{ChoiceFallback, DirectorSettings};
pub use crate::methods::handoff::settings::{HandoffSettings, HandoffVia};
pub use crate::methods::negotiation::settings::{NegotiationSettings, MAX_QUANTITY, MAX_RESOURCES};
use crate::methods::registry::{each_method, MethodSettings};
pub use crate::methods::selector::settings::{PromptRole, SelectorFallback, SelectorSettings};

/// The methods as scenario data, from the registry: each method's variant, its `kind` in files
/// and its settings (each settings type has its seed's defaults, `validate` and `read`, in its
/// method's folder). Only each method's `settings` module is named here, a leaf that knows no
/// floor, event or seat: the scenario sits below the methods' turns, panels and seats, which read
/// it (tests/layers.rs keeps it so).
macro_rules! scenario_methods {
    ($($kind:ident $module:ident $id:literal $label:literal,)*) => {
        /// How the next speaker is chosen, with the method's settings: `{"kind": "bidding", ...}`.
        #[derive(Clone, Debug, PartialEq, Serialize)]
        #[serde(tag = "kind")]
        pub enum Method {
            $(#[serde(rename = $id)] $kind(crate::methods::$module::settings::Settings),)*
        }

        /// Which method a scenario uses, without its settings.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum MethodKind {
            $($kind,)*
        }

        impl Method {
            pub fn kind(&self) -> MethodKind {
                match self {
                    $(Method::$kind(_) => MethodKind::$kind,)*
                }
            }

            /// The method's prompt templates its settings send (see `MethodSettings::TEMPLATES`).
            fn templates(&self) -> Vec<(&'static str, &'static str)> {
                let (all, sends): (&[crate::methods::registry::TemplateName], &dyn Fn(&str) -> bool) = match self {
                    $(Method::$kind(s) => (<crate::methods::$module::settings::Settings as MethodSettings>::TEMPLATES, &|f| s.sends(f)),)*
                };
                all.iter().filter(|(f, _)| sends(f)).map(|(f, label)| (*f, label())).collect()
            }

            fn validate(&self, agents: &[String], err: &mut dyn FnMut(&str, String)) {
                match self {
                    $(Method::$kind(s) => s.validate(agents, err),)*
                }
            }

            /// How many scored games a run plays (see `MethodSettings::games`).
            pub fn games(&self) -> u32 {
                match self {
                    $(Method::$kind(s) => s.games(),)*
                }
            }

            fn read_settings(kind: MethodKind, f: &mut crate::json::Fields) -> Result<Method, String> {
                Ok(match kind {
                    $(MethodKind::$kind => Method::$kind(MethodSettings::read(f)?),)*
                })
            }
        }

        impl MethodKind {
            /// Every method, in the order the app offers them.
            pub const ALL: &[MethodKind] = &[$(MethodKind::$kind,)*];

            /// The `kind` scenario files write.
            pub fn id(self) -> &'static str {
                match self {
                    $(MethodKind::$kind => $id,)*
                }
            }

            /// The method's name on selects and headings.
            pub fn label(self) -> &'static str {
                match self {
                    $(MethodKind::$kind => $label,)*
                }
            }

            /// The method with its seed's settings.
            pub fn default_method(self) -> Method {
                match self {
                    $(MethodKind::$kind => Method::$kind(Default::default()),)*
                }
            }

            /// Whether the conversation opens with the scenario's injected message.
            pub fn injects_opening(self) -> bool {
                match self {
                    $(MethodKind::$kind => <crate::methods::$module::settings::Settings as MethodSettings>::INJECTS_OPENING,)*
                }
            }

            /// Whether any call of the method says the scenario's topic.
            pub fn reads_topic(self) -> bool {
                match self {
                    $(MethodKind::$kind => <crate::methods::$module::settings::Settings as MethodSettings>::READS_TOPIC,)*
                }
            }

            /// Whether the scenario's turn limit ends the run.
            pub fn ends_at_turn_limit(self) -> bool {
                match self {
                    $(MethodKind::$kind => <crate::methods::$module::settings::Settings as MethodSettings>::ENDS_AT_TURN_LIMIT,)*
                }
            }

            /// Whether the class can end the run from the page ("End the show").
            pub fn ends_on_request(self) -> bool {
                match self {
                    $(MethodKind::$kind => <crate::methods::$module::settings::Settings as MethodSettings>::ENDS_ON_REQUEST,)*
                }
            }

            /// Why the class cannot give the floor in this method, when it cannot.
            pub fn fixed_floor(self) -> Option<fn() -> &'static str> {
                match self {
                    $(MethodKind::$kind => <crate::methods::$module::settings::Settings as MethodSettings>::FIXED_FLOOR,)*
                }
            }

            /// Whether its calls read the shared templates.
            fn shared_templates(self) -> bool {
                match self {
                    $(MethodKind::$kind => <crate::methods::$module::settings::Settings as MethodSettings>::SHARED_TEMPLATES,)*
                }
            }

            /// Whether the shared templates default to the show's wording (seed 004).
            fn show_templates(self) -> bool {
                match self {
                    $(MethodKind::$kind => <crate::methods::$module::settings::Settings as MethodSettings>::SHOW_TEMPLATES,)*
                }
            }
        }
    };
}

each_method!(scenario_methods);

impl Method {
    /// The method's `kind` as scenario files write it.
    pub fn name(&self) -> &'static str {
        self.kind().id()
    }
}

impl MethodKind {
    pub fn from_id(id: &str) -> Option<MethodKind> {
        MethodKind::ALL.iter().copied().find(|k| k.id() == id)
    }

    /// A method named by `id` where the page lists methods by id (a comparison's values, a
    /// tournament's rows): English keeps the id, as it is typed; another language says the
    /// method in its own words. An id that is no method stays as it is.
    pub fn id_words(id: &str) -> &str {
        match MethodKind::from_id(id) {
            Some(kind) if crate::i18n::lang() != crate::i18n::Lang::En => kind.words(),
            _ => id,
        }
    }
}

crate::json::settings! {
    /// Which model answers, with its settings. The key is never part of a scenario: it stays with
    /// the user (see the app's model settings).
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct ModelSettings {
        /// "demo" for the offline demo model, or a provider id from [`crate::catalog::PROVIDERS`].
        #[serde(skip_serializing_if = "is_demo")]
        pub provider: String = set_string,
        /// Where the provider lives; empty for the preset's address.
        #[serde(skip_serializing_if = "String::is_empty")]
        pub base_url: String = set_string,
        /// The model every agent uses unless it names its own.
        #[serde(skip_serializing_if = "String::is_empty")]
        pub name: String = set_string,
        pub demo: DemoSettings = set_any,
        /// Seed 000: 0.2 for speech. `None` (written as `null`, since a left-out field means the
        /// default) sends no temperature at all.
        pub temperature: Option<f64> = set_any,
        /// Prices per million tokens, to show what a run costs.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub price: Option<Price> = set_any,
        #[serde(skip_serializing_if = "is_default_network")]
        pub network: crate::catalog::NetworkSettings = set_any,
        /// Where a run pauses before spending more; none by default.
        #[serde(skip_serializing_if = "SpendingCap::is_none")]
        pub spending_cap: SpendingCap = set_any,
        /// How the model in the tab writes free text (no other model reads these).
        #[serde(skip_serializing_if = "crate::intab::Writing::is_default")]
        pub writing: crate::intab::Writing = set_any,
    }
}

crate::json::settings! {
    /// The most a run may spend before it pauses: tokens, money at the prices set, or both (0 is
    /// no cap). It is checked before each turn, so a turn under way always finishes.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
    pub struct SpendingCap {
        pub tokens: u64 = set_u64,
        pub cost: f64 = set_f64,
    }
}

impl SpendingCap {
    pub fn is_none(&self) -> bool {
        self.tokens == 0 && self.cost <= 0.0
    }

    /// Whether `tokens` and `cost` spent so far reach the cap.
    pub fn reached(&self, tokens: u64, cost: f64) -> bool {
        (self.tokens > 0 && tokens >= self.tokens) || (self.cost > 0.0 && cost >= self.cost)
    }
}

fn is_demo(provider: &str) -> bool {
    provider == "demo"
}

fn is_default_network(n: &crate::catalog::NetworkSettings) -> bool {
    *n == crate::catalog::NetworkSettings::default()
}

/// Prices in any currency per million tokens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Price {
    pub input_per_million: f64,
    pub output_per_million: f64,
}

impl Price {
    /// What these tokens cost at these prices.
    pub fn cost(&self, prompt_tokens: u64, completion_tokens: u64) -> f64 {
        (prompt_tokens as f64 * self.input_per_million + completion_tokens as f64 * self.output_per_million)
            / 1e6
    }
}

impl Default for ModelSettings {
    fn default() -> Self {
        Self {
            provider: "demo".into(),
            base_url: String::new(),
            name: String::new(),
            demo: DemoSettings::default(),
            temperature: Some(0.2),
            price: None,
            network: Default::default(),
            spending_cap: SpendingCap::default(),
            writing: Default::default(),
        }
    }
}

impl ModelSettings {
    pub fn is_demo(&self) -> bool {
        is_demo(&self.provider)
    }

    /// Whether the model runs inside the browser tab (see [`crate::intab`]).
    pub fn is_in_tab(&self) -> bool {
        self.provider == crate::intab::PROVIDER
    }

    /// Whether the model is the one built into the browser (the Prompt API, `app::builtin`).
    pub fn is_builtin(&self) -> bool {
        self.provider == crate::catalog::BUILTIN
    }

    /// Whether calls go over the network to a provider: not the demo, the tab's engine or the
    /// browser's own model.
    pub fn is_hosted(&self) -> bool {
        !self.is_demo() && !self.is_in_tab() && !self.is_builtin()
    }

    /// The base URL calls go to: the one set, else the provider's.
    pub fn effective_base_url(&self) -> String {
        if !self.base_url.trim().is_empty() {
            return self.base_url.trim().to_string();
        }
        crate::catalog::preset(&self.provider).map(|p| p.base_url.to_string()).unwrap_or_default()
    }
}

crate::json::settings! {
    /// The offline demo model's knobs.
    #[derive(Clone, Debug, Default, PartialEq, Serialize)]
    pub struct DemoSettings {
        /// Share of replies (0 to 1) that come out malformed, to show retries and fallbacks.
        pub malformed_rate: f64 = set_f64,
        /// Simulated latency of every call, in milliseconds.
        pub latency_ms: u64 = set_u64,
        /// A short name for the topic to use inside sentences ("competitive sitting"); when empty
        /// the demo model shortens the topic itself.
        #[serde(skip_serializing_if = "String::is_empty")]
        pub topic_phrase: String = set_string,
    }
}

/// A problem with one field of a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    /// Where: "agents[2].name", "method.stop_probability", ...
    pub field: String,
    pub message: String,
}

impl FieldError {
    /// The errors in one line, for a place that shows them together (the terminal, a notice).
    pub fn join(errors: &[FieldError]) -> String {
        errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
    }
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl Scenario {
    /// Whether two scenarios are the same, compared by what they write (the browser build
    /// compares scenarios this way: a derived equality is 1 KB of the first page).
    pub fn same_as(&self, other: &Scenario) -> bool {
        serde_json::to_string(self).ok() == serde_json::to_string(other).ok()
    }

    /// Reads a scenario from JSON and validates it; the error is one line naming the problem.
    pub fn from_json(text: &str) -> Result<Scenario, String> {
        let scenario = Scenario::parse(text)?;
        scenario.validate().map_err(|errors| FieldError::join(&errors))?;
        Ok(scenario)
    }

    /// Reads a scenario of this build's version from JSON without checking its fields: a draft
    /// being edited may be incomplete, and the editor shows what is wrong with it.
    pub fn parse(text: &str) -> Result<Scenario, String> {
        // Windows editors save with a byte-order mark; it is not part of the JSON.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        // Through a JSON value, so every settings reader exists once in the browser build.
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("not a valid scenario: {e}"))?;
        match value.get("version").and_then(serde_json::Value::as_u64) {
            Some(v) if v == SCENARIO_VERSION as u64 => {}
            Some(v) => {
                return Err(format!(
                    "version {v} is not supported (this build reads version {SCENARIO_VERSION})"
                ))
            }
            None => return Err("not a valid scenario: no version".into()),
        }
        serde_json::from_value(value).map_err(|e| format!("not a valid scenario: {e}"))
    }

    pub fn to_json_pretty(&self) -> String {
        crate::json::indent(&serde_json::to_string(self).expect("a scenario always serializes"))
    }

    /// The names a seat can be taken for (`crate::seat`): the agents, and the selector when the
    /// method has one.
    pub fn seat_names(&self) -> Vec<String> {
        let mut names = self.agent_names();
        if matches!(self.method, Method::Selector(_)) {
            names.push(crate::methods::selector::settings::SELECTOR.to_string());
        }
        names
    }

    pub fn agent_names(&self) -> Vec<String> {
        self.agents.iter().map(|a| a.name.clone()).collect()
    }

    pub fn agent_index(&self, name: &str) -> Option<usize> {
        self.agents.iter().position(|a| a.name == name)
    }

    /// Switches to `kind`'s method with its seed's settings, fitted to the conversation the
    /// scenario is: the shared templates it was reading stay (a debate switched to the director
    /// stays a debate, not seed 004's show), and a director is not one of the speakers. The
    /// director is an agent whose role hosts or moderates; else a moderator is added to the cast
    /// (named as the scenario's opening speaker, "Debate Moderator" in the debates), who sums up
    /// as a moderator rather than as seed 004's satirist. Switching away from the director takes
    /// that added moderator out again.
    pub fn switch_method(&mut self, kind: MethodKind) {
        const SHARED: [PromptKind; 3] =
            [PromptKind::ConversationDescription, PromptKind::Header, PromptKind::System];
        let reading = SHARED.map(|k| self.prompt(k).to_string());
        let was_show = reading[0] == prompts::SHOW_DESCRIPTION;
        if let Method::Director(d) = &self.method {
            let director = d.director.clone();
            if kind != MethodKind::Director && self.agents.len() > 2 {
                self.agents.retain(|a| !(a.name == director && a.role == prompts::MODERATOR_ROLE));
            }
        }
        self.method = kind.default_method();
        // Each kept as the scenario's own text only where the new method's seed text differs.
        for (k, text) in SHARED.into_iter().zip(reading) {
            fn own(p: &mut Prompts, k: PromptKind) -> &mut Option<String> {
                match k {
                    PromptKind::ConversationDescription => &mut p.conversation_description,
                    PromptKind::Header => &mut p.header,
                    _ => &mut p.system,
                }
            }
            *own(&mut self.prompts, k) = None;
            if self.prompt(k) != text {
                *own(&mut self.prompts, k) = Some(text);
            }
        }
        let Method::Director(d) = &mut self.method else { return };
        let hosts = |a: &&AgentSpec| {
            let role = a.role.to_ascii_lowercase();
            role.contains("host") || role.contains("moderator")
        };
        if let Some(host) = self.agents.iter().find(hosts) {
            d.director = host.name.clone();
        } else if self.agents.len() < MAX_AGENTS {
            let speaker = self.opening.speaker.trim();
            let taken = |name: &str| self.agents.iter().any(|a| a.name == name);
            let name =
                if speaker.is_empty() || speaker.eq_ignore_ascii_case("audience member") || taken(speaker) {
                    "Moderator".to_string()
                } else {
                    speaker.to_string()
                };
            if !taken(&name) {
                self.agents.push(AgentSpec {
                    description: "Keeps the conversation moving with a sharp question to each participant, and takes no side.".into(),
                    name: name.clone(),
                    role: prompts::MODERATOR_ROLE.into(),
                    ..AgentSpec::default()
                });
                d.director = name;
            }
        }
        if !was_show {
            d.summary = prompts::MODERATOR_SUMMARY.into();
        }
    }

    /// A shared template: the scenario's text, or the seed's text for this method.
    pub fn prompt(&self, kind: PromptKind) -> &str {
        let show = self.method.kind().show_templates();
        let (own, seed) = match kind {
            PromptKind::ConversationDescription => (
                &self.prompts.conversation_description,
                if show { prompts::SHOW_DESCRIPTION } else { prompts::DEBATE_DESCRIPTION },
            ),
            PromptKind::Header => {
                (&self.prompts.header, if show { prompts::SHOW_HEADER } else { prompts::DEBATE_HEADER })
            }
            PromptKind::System => {
                (&self.prompts.system, if show { prompts::SHOW_SYSTEM } else { prompts::DEBATE_SYSTEM })
            }
            PromptKind::HistoryHeader => (&self.prompts.history_header, prompts::HISTORY_HEADER),
            PromptKind::Language => (&self.prompts.language, prompts::LANGUAGE_LINE),
        };
        own.as_deref().unwrap_or(seed)
    }

    /// The line every call of a run ends with, when the scenario has a language.
    pub fn language_line(&self) -> Option<String> {
        let language = self.language.trim();
        (!language.is_empty())
            .then(|| prompts::fill(self.prompt(PromptKind::Language), &[("language", language)]))
    }

    /// Every problem found, each naming its field. An empty list means the scenario can run.
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        use crate::i18n::{say, t, tf};
        let mut errors = Vec::new();
        let mut err =
            |field: &str, message: String| errors.push(FieldError { field: field.to_string(), message });
        if self.version != SCENARIO_VERSION {
            err("version", tf(say::VVersion, &[("v", &self.version), ("this", &SCENARIO_VERSION)]));
        }
        if self.title.trim().is_empty() {
            err("title", t(say::VTitleRequired).into());
        }
        if self.topic.trim().is_empty() {
            err("topic", t(say::VTopicRequired).into());
        }
        for (field, text) in [("title", &self.title), ("topic", &self.topic)] {
            if text.chars().count() > MAX_TEXT_CHARS {
                err(field, tf(say::VLonger, &[("n", &MAX_TEXT_CHARS)]));
            }
        }
        if self.language.chars().count() > MAX_NAME_CHARS || self.language.contains('\n') {
            err("language", tf(say::VLanguage, &[("n", &MAX_NAME_CHARS)]));
        }
        if self.word_limit == 0 {
            err("word_limit", t(say::VAtLeastOne).into());
        }
        if self.max_turns == 0 || self.max_turns > MAX_TURNS {
            err("max_turns", tf(say::VBetween, &[("min", &1), ("max", &MAX_TURNS)]));
        }
        if self.agents.len() < 2 {
            err("agents", t(say::VTwoAgents).into());
        }
        let seats = self.seat_names();
        for (i, seat) in self.seats.iter().enumerate() {
            if !seats.contains(seat) {
                err(&format!("seats[{i}]"), tf(say::VNotInCast, &[("name", seat)]));
            } else if self.seats[..i].contains(seat) {
                err(&format!("seats[{i}]"), tf(say::VTakenTwice, &[("name", seat)]));
            }
        }
        if self.seat_timeout_s > MAX_SEAT_TIMEOUT_S {
            err("seat_timeout_s", tf(say::VAtMostSeconds, &[("n", &MAX_SEAT_TIMEOUT_S)]));
        }
        if self.agents.len() > MAX_AGENTS {
            err("agents", tf(say::VMaxAgents, &[("n", &MAX_AGENTS)]));
        }
        for (i, agent) in self.agents.iter().enumerate() {
            let name = agent.name.trim();
            if name.is_empty() {
                err(&format!("agents[{i}].name"), t(say::VNameRequired).into());
            } else if agent.name.chars().count() > MAX_NAME_CHARS {
                err(&format!("agents[{i}].name"), tf(say::VLonger, &[("n", &MAX_NAME_CHARS)]));
            } else if self.agents[..i].iter().any(|a| a.name.trim().eq_ignore_ascii_case(name)) {
                err(&format!("agents[{i}].name"), tf(say::VUsedTwice, &[("name", &name)]));
            }
            let texts = [&agent.role, &agent.location, &agent.description];
            if texts.iter().any(|t| t.chars().count() > MAX_TEXT_CHARS)
                || agent.system_prompt.as_ref().is_some_and(|t| t.chars().count() > MAX_TEXT_CHARS)
            {
                err(&format!("agents[{i}]"), tf(say::VTextLonger, &[("n", &MAX_TEXT_CHARS)]));
            }
        }
        if self.opening.speaker.trim().is_empty() {
            err("opening.speaker", t(say::VNameRequired).into());
        }
        if !(0.0..=1.0).contains(&self.model.demo.malformed_rate) {
            err("model.demo.malformed_rate", tf(say::VBetween, &[("min", &0), ("max", &1)]));
        }
        let m = &self.model;
        if m.is_in_tab() {
            if crate::intab::source(&m.name).is_none() {
                let ids: Vec<&str> = crate::intab::MODELS.iter().map(|m| m.id).collect();
                err("model.name", tf(say::VInTabModel, &[("ids", &ids.join(", "))]));
            }
        } else if m.is_hosted() {
            if crate::catalog::preset(&m.provider).is_none() {
                err("model.provider", tf(say::VUnknownProvider, &[("provider", &m.provider)]));
            }
            let url = m.effective_base_url();
            if url.is_empty() {
                err("model.base_url", t(say::VBaseUrlNeeded).into());
            } else if !(url.starts_with("http://") || url.starts_with("https://"))
                || url.chars().count() > MAX_NAME_CHARS * 4
            {
                err("model.base_url", t(say::VBaseUrlHttp).into());
            }
            if m.name.trim().is_empty() {
                err("model.name", t(say::VModelNeeded).into());
            }
        }
        if m.name.chars().count() > MAX_NAME_CHARS
            || self
                .agents
                .iter()
                .any(|a| a.model.as_ref().is_some_and(|n| n.chars().count() > MAX_NAME_CHARS))
        {
            err("model.name", tf(say::VModelLong, &[("n", &MAX_NAME_CHARS)]));
        }
        if m.network.concurrency == 0 || m.network.concurrency > 64 {
            err("model.network.concurrency", tf(say::VBetween, &[("min", &1), ("max", &64)]));
        }
        if m.network.max_retries > 10 {
            err("model.network.max_retries", tf(say::VAtMost, &[("n", &10)]));
        }
        if let Some(p) = m.price {
            if !(p.input_per_million >= 0.0
                && p.output_per_million >= 0.0
                && (p.input_per_million + p.output_per_million).is_finite())
            {
                err("model.price", t(say::VPrices).into());
            }
        }
        let cap = &self.model.spending_cap;
        if !(cap.cost.is_finite() && cap.cost >= 0.0) {
            err("model.spending_cap.cost", t(say::VCapZero).into());
        } else if cap.cost > 0.0 && self.model.price.is_none() {
            err("model.spending_cap.cost", t(say::VCapNeedsPrice).into());
        }
        self.method.validate(&self.agent_names(), &mut err);
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn minimal() -> Scenario {
        Scenario::from_json(
            r#"{"version":1,"title":"t","topic":"rail","agents":[{"name":"A"},{"name":"B"}],
                "method":{"kind":"bidding"}}"#,
        )
        .unwrap()
    }

    #[test]
    fn missing_settings_take_the_seed_defaults() {
        let s = minimal();
        assert_eq!(s.word_limit, 50);
        assert_eq!(s.max_turns, 10);
        let Method::Bidding(b) = &s.method else { panic!("bidding expected") };
        assert_eq!(b.attempts, 2);
        assert_eq!(b.default_bid, 0);
        assert_eq!(b.pattern, r"<(\d+)>");
        assert_eq!(s.opening.speaker, "Debate Moderator");
        assert!(s.prompt(PromptKind::ConversationDescription).contains("presidential debate"));
    }

    #[test]
    fn validation_names_every_bad_field() {
        let mut s = minimal();
        s.agents[1].name = "a".into();
        s.max_turns = 0;
        s.method = Method::Director(DirectorSettings { stop_probability: 1.5, ..Default::default() });
        let errors = s.validate().unwrap_err();
        let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["max_turns", "agents[1].name", "method.stop_probability"]);
    }

    #[test]
    fn drafts_parse_without_field_checks_but_not_across_versions() {
        let draft =
            r#"{"version":1,"title":"","topic":"x","agents":[{"name":""}],"method":{"kind":"round_robin"}}"#;
        let s = Scenario::parse(draft).unwrap();
        assert_eq!(s.agents.len(), 1);
        assert!(s.validate().is_err());
        assert!(Scenario::parse(&draft.replace("\"version\":1", "\"version\":2"))
            .unwrap_err()
            .contains("version 2"));
    }

    #[test]
    fn unknown_version_and_bad_json_are_one_clear_line() {
        let e = Scenario::from_json(r#"{"version":7,"title":"t","topic":"x","agents":[{"name":"A"},{"name":"B"}],"method":{"kind":"round_robin"}}"#).unwrap_err();
        assert!(e.contains("version 7 is not supported"), "{e}");
        let e = Scenario::from_json("{not json").unwrap_err();
        assert!(e.starts_with("not a valid scenario"), "{e}");
    }

    #[test]
    fn negotiation_needs_two_players_and_matching_inventories() {
        let mut s = minimal();
        s.method = Method::Negotiation(NegotiationSettings {
            inventories: vec![vec![1, 2], vec![1, 2, 3]],
            ..Default::default()
        });
        s.agents.push(AgentSpec { name: "C".into(), ..Default::default() });
        let errors = s.validate().unwrap_err();
        assert!(errors.iter().any(|e| e.message.contains("exactly two players")));
        assert!(errors.iter().any(|e| e.field == "method.inventories[0]"));
    }

    #[test]
    fn the_trading_game_is_kept_small_enough_to_solve_at_once() {
        let mut s = minimal();
        let at_limit = NegotiationSettings {
            resources: (0..MAX_RESOURCES).map(|i| format!("R{i}")).collect(),
            inventories: vec![vec![MAX_QUANTITY; MAX_RESOURCES]; 2],
            ..Default::default()
        };
        s.method = Method::Negotiation(at_limit.clone());
        assert_eq!(s.validate(), Ok(()));
        // The largest game allowed is solved: each player can hold more of every resource than
        // the scale counts, so each resource is worth the top of the scale (250) to both.
        let (best, split) = crate::game::negotiation::optimum(
            &[at_limit.inventories[0].clone(), at_limit.inventories[1].clone()],
            &at_limit.value_scale,
        );
        assert_eq!(best, 250 * MAX_RESOURCES as i64 * 2);
        assert_eq!(split[0].iter().sum::<i64>(), MAX_QUANTITY * MAX_RESOURCES as i64);

        let mut more = at_limit.clone();
        more.resources.push("EXTRA".into());
        more.inventories.iter_mut().for_each(|inv| inv.push(1));
        s.method = Method::Negotiation(more);
        let errors = s.validate().unwrap_err();
        assert_eq!(errors[0].field, "method.resources");
        assert!(errors[0].message.contains("at most 10"), "{}", errors[0].message);

        let mut heavy = at_limit;
        heavy.inventories[1][0] = MAX_QUANTITY + 1;
        s.method = Method::Negotiation(heavy);
        let errors = s.validate().unwrap_err();
        assert_eq!(errors[0].field, "method.inventories[1]");
    }

    #[test]
    fn methods_read_their_kind_and_refuse_unknown_ones() {
        let e = Scenario::from_json(r#"{"version":1,"title":"t","topic":"x","agents":[{"name":"A"},{"name":"B"}],"method":{"kind":"telepathy"}}"#).unwrap_err();
        assert!(e.contains("unknown method kind \"telepathy\""), "{e}");
        let e = Scenario::from_json(r#"{"version":1,"title":"t","topic":"x","agents":[{"name":"A"},{"name":"B"}],"method":{"attempts":2}}"#).unwrap_err();
        assert!(e.contains("needs a \"kind\""), "{e}");
        let s = Scenario::from_json(r#"{"version":1,"title":"t","topic":"x","agents":[{"name":"A"},{"name":"B"}],"method":{"kind":"director","stop_probability":0.5}}"#).unwrap();
        let Method::Director(d) = &s.method else { panic!("director expected") };
        assert_eq!((d.stop_probability, d.attempts), (0.5, 2));
        assert!(s.to_json_pretty().contains("\"kind\": \"director\""));
    }

    #[test]
    fn a_pattern_without_a_group_is_refused() {
        let mut s = minimal();
        s.method = Method::Bidding(BiddingSettings { pattern: "<\\d+>".into(), ..Default::default() });
        assert_eq!(s.validate().unwrap_err()[0].field, "method.pattern");
    }

    #[test]
    fn a_debate_switched_to_the_director_gets_its_moderator_and_stays_a_debate() {
        let mut s = crate::presets::find("rail-debate").unwrap().scenario();
        let debaters = s.agent_names();
        s.switch_method(MethodKind::Director);
        let Method::Director(d) = &s.method else { panic!("director expected") };
        assert_eq!(d.director, "Debate Moderator", "the scenario's moderator, not a debater");
        assert_eq!(s.agents.len(), debaters.len() + 1);
        assert_eq!(s.agents.last().unwrap().role, prompts::MODERATOR_ROLE);
        assert_eq!(d.summary, prompts::MODERATOR_SUMMARY, "a moderator's closing, not the show's");
        assert_eq!(s.prompt(PromptKind::ConversationDescription), prompts::DEBATE_DESCRIPTION);
        assert_eq!(s.prompt(PromptKind::System), prompts::DEBATE_SYSTEM);
        assert!(s.validate().is_ok());
        // Back to bidding: the moderator leaves the cast and nothing is left set by hand.
        s.switch_method(MethodKind::Bidding);
        assert_eq!(s.agent_names(), debaters);
        assert_eq!(s.prompts, Prompts::default());
    }

    #[test]
    fn a_show_keeps_its_host_as_director_and_its_framing_in_other_methods() {
        let mut s = crate::presets::find("daily-show-director").unwrap().scenario();
        let cast = s.agent_names();
        s.switch_method(MethodKind::Bidding);
        assert_eq!(s.prompt(PromptKind::ConversationDescription), prompts::SHOW_DESCRIPTION);
        s.switch_method(MethodKind::Director);
        let Method::Director(d) = &s.method else { panic!("director expected") };
        assert_eq!(d.director, cast[0], "the host");
        assert_eq!(s.agent_names(), cast);
        assert_eq!(d.summary, prompts::DIRECTOR_SUMMARY, "the show's own summary");
        assert_eq!(s.prompts, Prompts::default());
    }
}
