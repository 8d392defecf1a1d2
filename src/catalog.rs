//! The providers Agora knows, as plain data: where each lives, which protocol it speaks, what it
//! accepts, what a browser needs to know about it, and the network settings of a call. Scenarios
//! read this; the HTTP client (`provider`) acts on it. It imports nothing of Agora.

use serde::Serialize;

/// The two protocols Agora speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    OpenAi,
    Anthropic,
}

/// A provider Agora knows: where it lives, what it accepts, and what a browser needs to know
/// about it.
#[derive(Clone, Copy, Debug)]
pub struct ProviderPreset {
    pub id: &'static str,
    pub label: &'static str,
    pub protocol: Protocol,
    pub base_url: &'static str,
    pub needs_key: bool,
    /// How its requests differ from plain OpenAI chat completions.
    pub dialect: Dialect,
    /// What a user must do for calls from a web page to be let through, if anything.
    pub browser_note: &'static str,
}

/// How a provider's requests differ from plain OpenAI chat completions. Presets start from
/// what their provider documents; a refusal that names a field adds to it for the rest of the
/// session (see [`adapt`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Dialect {
    /// The token limit goes as `max_completion_tokens` (OpenAI's current models refuse
    /// `max_tokens`).
    pub max_completion_tokens: bool,
    /// No `stream_options` (strict validators refuse fields they do not know); usage is read
    /// from whatever the stream sends.
    pub no_stream_options: bool,
    /// No temperature (reasoning models accept only their default).
    pub no_temperature: bool,
    /// No token limit at all.
    pub no_token_limit: bool,
    /// How the provider is told to answer without reasoning first, where its models reason by
    /// default (the seeds' models answered at once; reasoning first costs time and tokens).
    pub thinking_off: ThinkingOff,
    /// Nothing said about reasoning at all, whatever `thinking_off` says (a model that always
    /// reasons refuses being told not to).
    pub no_thinking_switch: bool,
}

/// How a provider is told that a model should answer without reasoning first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ThinkingOff {
    /// Nothing is sent.
    #[default]
    Unsaid,
    /// `"enable_thinking": false` (Qwen3 on Alibaba Cloud Model Studio, SiliconFlow); Model
    /// Studio refuses a call that does not stream to an open Qwen3 model without it.
    EnableThinkingFalse,
    /// `"thinking": {"type": "disabled"}` (Zhipu's GLM-4.5 and later, Moonshot's Kimi K2.6).
    ThinkingDisabled,
}

impl Dialect {
    /// Everything either dialect leaves out or renames.
    pub fn with(self, other: Dialect) -> Dialect {
        Dialect {
            max_completion_tokens: self.max_completion_tokens || other.max_completion_tokens,
            no_stream_options: self.no_stream_options || other.no_stream_options,
            no_temperature: self.no_temperature || other.no_temperature,
            no_token_limit: self.no_token_limit || other.no_token_limit,
            thinking_off: if self.thinking_off == ThinkingOff::Unsaid {
                other.thinking_off
            } else {
                self.thinking_off
            },
            no_thinking_switch: self.no_thinking_switch || other.no_thinking_switch,
        }
    }
}

const NO_NOTE: &str = "";
const OPENAI_STYLE: Dialect = Dialect {
    max_completion_tokens: false,
    no_stream_options: false,
    no_temperature: false,
    no_token_limit: false,
    thinking_off: ThinkingOff::Unsaid,
    no_thinking_switch: false,
};

/// The provider id a scenario names to run on the model built into the browser (the Prompt API).
pub const BUILTIN: &str = "builtin";

/// What the providers of mainland China and their international platforms need from a web page.
const QWEN_NOTE: &str = "Alibaba Cloud Model Studio; a key works only in the region it was made in. Some regions refuse calls from a web page: if the run says the call was blocked, pick GLM (Zhipu) or the model in the tab instead.";
const KIMI_NOTE: &str = "Moonshot may refuse calls from a web page: if the run says the call was blocked, pick GLM (Zhipu) or the model in the tab instead. Keys from the international and the mainland platform are not interchangeable.";
const GLM_NOTE: &str = "Zhipu's mainland platform works from this page (GLM-4-Flash is free). The international Z.ai platform refuses calls from web pages: use a Zhipu key here. A key is two parts joined by a dot.";
const SILICONFLOW_NOTE: &str = "Not yet tried from a web page: if the run says the call was blocked, pick GLM (Zhipu) or the model in the tab instead. Model names carry their maker (Qwen/Qwen3-8B).";
const QWEN_STYLE: Dialect = Dialect { thinking_off: ThinkingOff::EnableThinkingFalse, ..OPENAI_STYLE };
const GLM_STYLE: Dialect = Dialect { thinking_off: ThinkingOff::ThinkingDisabled, ..OPENAI_STYLE };

pub const PROVIDERS: [ProviderPreset; 20] = [
    ProviderPreset { id: "openai", label: "OpenAI", protocol: Protocol::OpenAi, base_url: "https://api.openai.com/v1", needs_key: true, dialect: Dialect { max_completion_tokens: true, ..OPENAI_STYLE }, browser_note: NO_NOTE },
    ProviderPreset { id: "anthropic", label: "Anthropic", protocol: Protocol::Anthropic, base_url: "https://api.anthropic.com/v1", needs_key: true, dialect: OPENAI_STYLE, browser_note: "Agora sends the anthropic-dangerous-direct-browser-access header that Anthropic requires for calls from a web page." },
    ProviderPreset { id: "gemini", label: "Google Gemini", protocol: Protocol::OpenAi, base_url: "https://generativelanguage.googleapis.com/v1beta/openai", needs_key: true, dialect: OPENAI_STYLE, browser_note: "Works from this page with a key from Google AI Studio, which has a free tier. A key limited to certain websites must list this page's address." },
    ProviderPreset { id: "openrouter", label: "OpenRouter", protocol: Protocol::OpenAi, base_url: "https://openrouter.ai/api/v1", needs_key: true, dialect: OPENAI_STYLE, browser_note: NO_NOTE },
    ProviderPreset { id: "groq", label: "Groq", protocol: Protocol::OpenAi, base_url: "https://api.groq.com/openai/v1", needs_key: true, dialect: OPENAI_STYLE, browser_note: NO_NOTE },
    ProviderPreset { id: "together", label: "Together", protocol: Protocol::OpenAi, base_url: "https://api.together.xyz/v1", needs_key: true, dialect: OPENAI_STYLE, browser_note: NO_NOTE },
    ProviderPreset { id: "mistral", label: "Mistral", protocol: Protocol::OpenAi, base_url: "https://api.mistral.ai/v1", needs_key: true, dialect: Dialect { no_stream_options: true, ..OPENAI_STYLE }, browser_note: NO_NOTE },
    ProviderPreset { id: "deepseek", label: "DeepSeek", protocol: Protocol::OpenAi, base_url: "https://api.deepseek.com/v1", needs_key: true, dialect: OPENAI_STYLE, browser_note: NO_NOTE },
    ProviderPreset { id: "qwen", label: "Qwen (Alibaba Cloud, international)", protocol: Protocol::OpenAi, base_url: "https://dashscope-intl.aliyuncs.com/compatible-mode/v1", needs_key: true, dialect: QWEN_STYLE, browser_note: QWEN_NOTE },
    ProviderPreset { id: "qwen-cn", label: "Qwen (Alibaba Cloud, mainland China)", protocol: Protocol::OpenAi, base_url: "https://dashscope.aliyuncs.com/compatible-mode/v1", needs_key: true, dialect: QWEN_STYLE, browser_note: QWEN_NOTE },
    ProviderPreset { id: "moonshot", label: "Kimi (Moonshot, international)", protocol: Protocol::OpenAi, base_url: "https://api.moonshot.ai/v1", needs_key: true, dialect: GLM_STYLE, browser_note: KIMI_NOTE },
    ProviderPreset { id: "moonshot-cn", label: "Kimi (Moonshot, mainland China)", protocol: Protocol::OpenAi, base_url: "https://api.moonshot.cn/v1", needs_key: true, dialect: GLM_STYLE, browser_note: KIMI_NOTE },
    ProviderPreset { id: "zai", label: "GLM (Z.ai, international)", protocol: Protocol::OpenAi, base_url: "https://api.z.ai/api/paas/v4", needs_key: true, dialect: GLM_STYLE, browser_note: GLM_NOTE },
    ProviderPreset { id: "zhipu", label: "GLM (Zhipu, mainland China)", protocol: Protocol::OpenAi, base_url: "https://open.bigmodel.cn/api/paas/v4", needs_key: true, dialect: GLM_STYLE, browser_note: GLM_NOTE },
    ProviderPreset { id: "siliconflow", label: "SiliconFlow (international)", protocol: Protocol::OpenAi, base_url: "https://api.siliconflow.com/v1", needs_key: true, dialect: QWEN_STYLE, browser_note: SILICONFLOW_NOTE },
    ProviderPreset { id: "siliconflow-cn", label: "SiliconFlow (mainland China)", protocol: Protocol::OpenAi, base_url: "https://api.siliconflow.cn/v1", needs_key: true, dialect: QWEN_STYLE, browser_note: SILICONFLOW_NOTE },
    ProviderPreset { id: "ollama", label: "Ollama (local)", protocol: Protocol::OpenAi, base_url: "http://localhost:11434/v1", needs_key: false, dialect: OPENAI_STYLE, browser_note: "Ollama refuses web pages unless started with OLLAMA_ORIGINS set to this page's origin (or *)." },
    ProviderPreset { id: "lmstudio", label: "LM Studio (local)", protocol: Protocol::OpenAi, base_url: "http://localhost:1234/v1", needs_key: false, dialect: OPENAI_STYLE, browser_note: "Turn on \"Enable CORS\" in LM Studio's server settings." },
    ProviderPreset { id: "llamacpp", label: "llama.cpp server (local)", protocol: Protocol::OpenAi, base_url: "http://localhost:8080/v1", needs_key: false, dialect: OPENAI_STYLE, browser_note: NO_NOTE },
    ProviderPreset { id: "custom", label: "Other OpenAI-compatible", protocol: Protocol::OpenAi, base_url: "", needs_key: false, dialect: OPENAI_STYLE, browser_note: "The server must allow calls from this page (CORS)." },
];

/// Where a teacher gets a key for the provider `id`: its page of keys where its address is
/// known to stay, else its site (a page of keys moves with its console).
pub fn key_page(id: &str) -> Option<&'static str> {
    Some(match id {
        "openai" => "https://platform.openai.com/api-keys",
        "anthropic" => "https://console.anthropic.com/settings/keys",
        "gemini" => "https://aistudio.google.com/apikey",
        "openrouter" => "https://openrouter.ai/keys",
        "groq" => "https://console.groq.com/keys",
        "together" => "https://api.together.ai/settings/api-keys",
        "mistral" => "https://console.mistral.ai/api-keys",
        "deepseek" => "https://platform.deepseek.com/api_keys",
        "qwen" => "https://www.alibabacloud.com/product/modelstudio",
        "qwen-cn" => "https://bailian.console.aliyun.com/",
        "moonshot" => "https://platform.moonshot.ai/console/api-keys",
        "moonshot-cn" => "https://platform.moonshot.cn/console/api-keys",
        "zai" => "https://z.ai/",
        "zhipu" => "https://open.bigmodel.cn/",
        "siliconflow" => "https://cloud.siliconflow.com/account/ak",
        "siliconflow-cn" => "https://cloud.siliconflow.cn/account/ak",
        _ => return None,
    })
}

/// The preset with this id.
pub fn preset(id: &str) -> Option<&'static ProviderPreset> {
    PROVIDERS.iter().find(|p| p.id == id)
}

/// Models a provider is usually asked for, the cheapest usual one first: suggestions for the
/// model name (any name the provider serves works; "Check connection" lists them all).
pub fn usual_models(id: &str) -> &'static [&'static str] {
    match id {
        "openai" => &["gpt-4o-mini", "gpt-4.1-mini", "gpt-4o"],
        "anthropic" => &["claude-3-5-haiku-latest", "claude-sonnet-4-0"],
        "gemini" => &["gemini-2.0-flash", "gemini-2.5-flash"],
        "openrouter" => &["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku"],
        "groq" => &["llama-3.1-8b-instant", "llama-3.3-70b-versatile"],
        "together" => &["meta-llama/Llama-3.3-70B-Instruct-Turbo"],
        "mistral" => &["mistral-small-latest", "mistral-large-latest"],
        "deepseek" => &["deepseek-chat", "deepseek-reasoner"],
        "qwen" | "qwen-cn" => &["qwen-flash", "qwen-plus", "qwen3-max", "qwen3-32b"],
        "moonshot" | "moonshot-cn" => &["kimi-k2.6", "kimi-k3"],
        "zai" | "zhipu" => &["glm-4.7-flash", "glm-4-flash-250414", "glm-5.1"],
        "siliconflow" | "siliconflow-cn" => {
            &["Qwen/Qwen3-8B", "THUDM/GLM-4-9B-0414", "deepseek-ai/DeepSeek-V4-Flash"]
        }
        "ollama" => &["llama3.1", "qwen2.5"],
        _ => &[],
    }
}

/// How a provider's keys begin, where its keys have a fixed start.
fn key_start(id: &str) -> Option<&'static str> {
    match id {
        "openai" | "deepseek" | "qwen" | "qwen-cn" | "moonshot" | "moonshot-cn" | "siliconflow"
        | "siliconflow-cn" => Some("sk-"),
        "anthropic" => Some("sk-ant-"),
        "openrouter" => Some("sk-or-"),
        "groq" => Some("gsk_"),
        "gemini" => Some("AIza"),
        _ => None,
    }
}

impl ProviderPreset {
    /// The preset's name in the page's language (where it holds more than names).
    pub fn words(&self) -> &'static str {
        use crate::i18n::{say, t};
        match self.id {
            "qwen" => t(say::PresetQwen),
            "qwen-cn" => t(say::PresetQwenCn),
            "moonshot" => t(say::PresetKimi),
            "moonshot-cn" => t(say::PresetKimiCn),
            "zai" => t(say::PresetZai),
            "zhipu" => t(say::PresetZhipu),
            "siliconflow" => t(say::PresetSiliconFlow),
            "siliconflow-cn" => t(say::PresetSiliconFlowCn),
            "ollama" => t(say::PresetOllama),
            "lmstudio" => t(say::PresetLmStudio),
            "llamacpp" => t(say::PresetLlamaCpp),
            "custom" => t(say::PresetCustom),
            _ => self.label,
        }
    }
}

/// What looks wrong with `key` (as typed, before any call) for the provider `id`: a space or line
/// break inside it (a key copied in pieces), or a start that is not this provider's (another
/// provider's key, or something else pasted). Spaces around it are taken off anyway.
pub fn key_problem(id: &str, key: &str) -> Option<String> {
    use crate::i18n::{say, t, tf};
    let key = key.trim();
    if key.is_empty() {
        return None;
    }
    if key.chars().any(char::is_whitespace) {
        return Some(t(say::KeyHasSpace).into());
    }
    // Zhipu's keys are an id and a secret joined by a dot, with no fixed start.
    if matches!(id, "zhipu" | "zai") && !key.contains('.') {
        let label = preset(id).map_or(id, |p| p.words());
        return Some(tf(say::KeyTwoParts, &[("label", &label)]));
    }
    let start = key_start(id)?;
    // Anthropic's and OpenRouter's keys also start with "sk-".
    let other = ["sk-ant-", "sk-or-"].iter().find(|o| key.starts_with(**o) && !start.starts_with(**o));
    if key.starts_with(start) && other.is_none() {
        return None;
    }
    let label = preset(id).map_or(id, |p| p.words());
    Some(tf(say::KeyStartsWith, &[("label", &label), ("start", &start)]))
}

crate::json::settings! {
    /// Retries, backoff and timeouts of real calls. Defaults suit hosted providers.
    /// Declared with the reader of each field (`settings!`), so the two cannot drift.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct NetworkSettings {
        /// Retries after a 429, a 5xx, a timeout or a broken stream (not after 401/403 or a quota).
        pub max_retries: u32 = set_u32,
        pub backoff_base_ms: u64 = set_u64,
        pub backoff_max_ms: u64 = set_u64,
        /// How long to wait for the response to start.
        pub first_byte_timeout_ms: u64 = set_u64,
        /// How long a stream may go silent between chunks.
        pub idle_timeout_ms: u64 = set_u64,
        /// How long in all one call may wait out a key's rate limit (429s that say so) before
        /// the run pauses on it; those waits use none of `max_retries`.
        pub rate_limit_wait_ms: u64 = set_u64,
        /// The span a key's rate limit counts calls over (every provider Agora knows counts
        /// a minute; a local server may count less).
        pub rate_window_ms: u64 = set_u64,
        /// Calls in flight at once (all bids of a turn go out together up to this).
        pub concurrency: u32 = set_u32,
        /// Stream speech so text appears as it is written.
        pub stream: bool = set_bool,
    }
}

impl Default for NetworkSettings {
    fn default() -> Self {
        Self {
            max_retries: 3,
            backoff_base_ms: 1000,
            backoff_max_ms: 30_000,
            first_byte_timeout_ms: 60_000,
            idle_timeout_ms: 30_000,
            rate_limit_wait_ms: 600_000,
            rate_window_ms: 60_000,
            concurrency: 8,
            stream: true,
        }
    }
}

#[cfg(test)]
mod key_tests {
    use super::*;

    #[test]
    fn a_key_with_a_space_inside_is_flagged_for_every_provider() {
        for p in PROVIDERS {
            let problem = key_problem(p.id, "sk-abc def").expect(p.id);
            assert!(problem.contains("space"), "{}: {problem}", p.id);
        }
        assert_eq!(key_problem("openai", "  sk-abcdef \n"), None, "spaces around it are taken off");
    }

    #[test]
    fn another_providers_key_is_flagged_by_its_start() {
        assert_eq!(key_problem("openai", "sk-proj-abc"), None);
        assert!(key_problem("openai", "sk-ant-api03-abc")
            .unwrap()
            .starts_with("OpenAI keys start with \"sk-\""));
        assert!(key_problem("anthropic", "sk-proj-abc").unwrap().contains("\"sk-ant-\""));
        assert_eq!(key_problem("anthropic", "sk-ant-api03-abc"), None);
        assert!(key_problem("groq", "AIzaSyabc").is_some());
        assert_eq!(key_problem("gemini", "AIzaSyabc"), None);
        assert_eq!(key_problem("openrouter", "sk-or-v1-abc"), None);
        assert!(key_problem("deepseek", "sk-or-v1-abc").is_some());
        assert_eq!(key_problem("qwen", "sk-0123abcd"), None);
        assert!(key_problem("qwen-cn", "AIzaSyabc").unwrap().contains("\"sk-\""));
        assert_eq!(key_problem("zhipu", "0123abcd.EfGh4567"), None);
        assert!(key_problem("zai", "sk-0123abcd").unwrap().contains("joined by a dot"));
        // Servers of one's own take any key.
        assert_eq!(key_problem("custom", "anything"), None);
        assert_eq!(key_problem("mistral", "abcDEF123"), None);
    }

    #[test]
    fn every_hosted_provider_suggests_models() {
        for p in PROVIDERS.iter().filter(|p| p.needs_key) {
            assert!(!usual_models(p.id).is_empty(), "{}", p.id);
        }
    }
}
