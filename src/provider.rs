//! Real language models over HTTP: OpenAI-compatible chat completions and Anthropic Messages,
//! behind the engine's [`ChatModel`].
//!
//! Everything here is plain logic over a [`Transport`] (the browser's fetch in the app, a native
//! HTTP client in the terminal runner): building requests, streaming replies as server-sent
//! events, reading errors, retrying with backoff, timeouts, a limit on calls in flight, and
//! cancelling all of it when the user stops. The key is handed in by the caller for each model
//! and only ever written into request headers.

#[cfg(not(target_arch = "wasm32"))]
pub mod native;
pub mod pace;
pub mod secrets;
pub mod sse;
pub mod wire;

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, VecDeque};
use std::rc::Rc;
use std::task::Waker;

use futures::future::{select, Either, LocalBoxFuture};

pub use crate::catalog::{preset, Dialect, NetworkSettings, Protocol, ProviderPreset, PROVIDERS};
use crate::clock::Clock;
use crate::failure::Adaptation;
pub use crate::failure::{Failure, ProviderError};
use crate::i18n::{say, tf};
use crate::model::{ChatModel, ChatRequest, ChatResponse, ModelError, Purpose};
pub use secrets::Secrets;

/// What a 400 or 422 says about one field of the request, when it names one Agora sent: the
/// change that lets the call through, and the dialect with that change made.
pub fn adapt(
    dialect: Dialect,
    body: &serde_json::Value,
    status: u16,
    text: &str,
) -> Option<(Dialect, Adaptation)> {
    if status != 400 && status != 422 {
        return None;
    }
    let parsed: Option<serde_json::Value> = serde_json::from_str(text).ok();
    let message = parsed
        .as_ref()
        .and_then(|v| wire::error_message(v).or_else(|| wire::validation_message(v)))
        .unwrap_or_else(|| crate::text::clip(text.trim(), 200));
    // Model Studio's open Qwen3 models refuse a call that does not stream unless it says not to
    // reason first ("parameter.enable_thinking must be set to false for non-streaming calls").
    let lower = text.to_ascii_lowercase();
    let must_be_off = ["enable_thinking must be set to false", "enable_thinking必须设置为false"];
    if must_be_off.iter().any(|m| lower.contains(m)) {
        if body.get("enable_thinking").is_some() {
            return None;
        }
        let mut next = dialect;
        next.thinking_off = crate::catalog::ThinkingOff::EnableThinkingFalse;
        return (next != dialect).then(|| {
            (next, Adaptation { parameter: "enable_thinking".into(), change: "set to false".into(), message })
        });
    }
    let field = parsed.as_ref().and_then(wire::refused_field).or_else(|| {
        // The same words in a plain message: a field Agora sent, named where the message
        // says it is not supported or not permitted.
        let lower = text.to_ascii_lowercase();
        let refusal = [
            "unsupported",
            "not support",
            "not permitted",
            "extra",
            "unknown",
            "unrecognized",
            "not allowed",
            "invalid",
            "illegal",
            "only 1 is allowed",
        ]
        .iter()
        .any(|w| lower.contains(w));
        let sent = [
            "stream_options",
            "max_completion_tokens",
            "max_tokens",
            "temperature",
            "enable_thinking",
            "thinking",
        ];
        refusal
            .then(|| sent.into_iter().find(|f| lower.contains(f) && body.get(*f).is_some()).map(String::from))
            .flatten()
    })?;
    body.get(&field)?;
    let mut next = dialect;
    let change = match field.as_str() {
        "max_tokens" if !dialect.max_completion_tokens => {
            next.max_completion_tokens = true;
            "renamed to max_completion_tokens"
        }
        "max_completion_tokens" | "max_tokens" => {
            next.no_token_limit = true;
            "dropped"
        }
        "stream_options" => {
            next.no_stream_options = true;
            "dropped"
        }
        "temperature" => {
            next.no_temperature = true;
            "dropped"
        }
        // A model that always reasons (Kimi K3, Qwen's thinking models) refuses being told not to.
        "enable_thinking" | "thinking" => {
            next.no_thinking_switch = true;
            "dropped"
        }
        _ => return None,
    };
    (next != dialect).then(|| (next, Adaptation { parameter: field, change: change.to_string(), message }))
}

/// Reads a failed response: its status, its Retry-After header (when the browser lets it be
/// read) and its body.
pub fn classify(status: u16, retry_after: Option<&str>, body: &str) -> Failure {
    let parsed: Option<serde_json::Value> = serde_json::from_str(body).ok();
    let message = parsed
        .as_ref()
        .and_then(wire::error_message)
        .unwrap_or_else(|| crate::text::clip(body.trim(), 200))
        .replace('\n', " ");
    let lower = body.to_ascii_lowercase();
    let quota = ["insufficient_quota", "quota", "billing", "spending limit", "credit"]
        .iter()
        .any(|w| lower.contains(w));
    match status {
        401 | 403 => Failure::Auth { status, message },
        402 => Failure::Quota(message),
        429 => {
            // Gemini's free tier calls its limit per minute a "quota" too: a limit that
            // waiting lifts is a rate, whatever word it uses.
            let said = pace::read_refusal(body);
            if said.spent || (quota && !said.per_minute) {
                Failure::Quota(message)
            } else {
                Failure::RateLimited {
                    retry_after_ms: retry_after.and_then(parse_retry_after).or(said.retry_ms),
                    limit: said.limit,
                    message,
                }
            }
        }
        500..=599 => Failure::Server { status, message },
        _ => Failure::Rejected { status, message },
    }
}

/// What a connection check found, in words: how many models the provider offers, and which of
/// the scenario's models (its own and its agents') it does not; and whether it offers them all.
pub fn connection_report(scenario: &crate::scenario::Scenario, names: &[String]) -> (String, bool) {
    let label = preset(&scenario.model.provider).map_or("the provider", |p| p.label);
    let wanted =
        std::iter::once(&scenario.model.name).chain(scenario.agents.iter().filter_map(|a| a.model.as_ref()));
    let missing: Vec<&str> =
        wanted.filter(|w| !w.is_empty() && !names.contains(w)).map(String::as_str).collect();
    let offered = match names.len() {
        0 => format!("Connected to {label}, but it lists no models."),
        1 => format!("Connected to {label}: 1 model."),
        n => format!("Connected to {label}: {n} models."),
    };
    let text = match missing.as_slice() {
        [] => offered,
        [one] => format!("{offered} The model \"{one}\" is not among them: pick one from the list."),
        many => {
            format!("{offered} These models are not among them: {}. Pick from the list.", many.join(", "))
        }
    };
    (text, missing.is_empty())
}

/// Retry-After in seconds, whole or with a fraction, as milliseconds (the date form is not worth
/// reading: providers send seconds). Read without a float parser, which with its table of powers
/// of five costs the page about 14 KB gzipped.
fn parse_retry_after(value: &str) -> Option<u64> {
    let (whole, fraction) = value.trim().split_once('.').unwrap_or((value.trim(), ""));
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !digits(whole) || !digits(fraction) {
        return None;
    }
    let ms = fraction.bytes().chain(*b"000").take(3).fold(0, |n, b| n * 10 + u64::from(b - b'0'));
    whole.parse::<u64>().ok()?.checked_mul(1000)?.checked_add(ms)
}

/// How long to wait before retry number `attempt` (0-based): Retry-After when known, else
/// exponential backoff with jitter (`jitter` in 0..1), capped.
pub fn backoff_ms(settings: &NetworkSettings, attempt: u32, retry_after_ms: Option<u64>, jitter: f64) -> u64 {
    if let Some(ms) = retry_after_ms {
        return ms.min(settings.backoff_max_ms.max(ms.min(120_000)));
    }
    let exp = settings.backoff_base_ms.saturating_mul(1u64 << attempt.min(20)).min(settings.backoff_max_ms);
    (exp as f64 * (0.5 + 0.5 * jitter.clamp(0.0, 1.0))) as u64
}

/// What a 400 says the model or provider does not support, when the request used it.
fn refused_feature(request: &ChatRequest, message: &str) -> Option<&'static str> {
    let m = message.to_ascii_lowercase();
    let unsupported = ["not support", "unsupported", "not available", "does not accept", "invalid"]
        .iter()
        .any(|w| m.contains(w));
    if !unsupported {
        return None;
    }
    if !request.tools.is_empty() && (m.contains("tool") || m.contains("function")) {
        return Some("tool calls");
    }
    if request.response_format != crate::model::ResponseFormat::Text
        && (m.contains("response_format") || m.contains("json"))
    {
        return Some("JSON output");
    }
    None
}

/// The most fields one call may have changed before it is given up (a reasoning model may
/// refuse the token limit's name and the temperature, one after the other).
const MAX_ADAPTATIONS: usize = 3;

/// The most a reply may hold; a chat reply is a few kilobytes.
const MAX_REPLY_BYTES: usize = 32 << 20;

/// An HTTP request ready to send: a POST with its body, or a GET when the body is empty.
#[derive(Clone, Debug, PartialEq)]
pub struct HttpRequest {
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl HttpRequest {
    pub fn method(&self) -> &'static str {
        if self.body.is_empty() {
            "GET"
        } else {
            "POST"
        }
    }
}

/// A response whose body arrives in chunks.
pub trait HttpBody {
    fn status(&self) -> u16;
    fn header(&self, name: &str) -> Option<String>;
    /// The next chunk; `None` at the end.
    fn chunk(&mut self) -> LocalBoxFuture<'_, Result<Option<Vec<u8>>, Failure>>;
}

/// Sends requests: the browser's fetch, or a native client.
pub trait Transport {
    fn send(&self, request: HttpRequest) -> LocalBoxFuture<'static, Result<Box<dyn HttpBody>, Failure>>;
    /// Aborts every request in flight.
    fn abort_all(&self);
}

/// A signal to give up: set by Stop, seen by every wait.
#[derive(Clone, Default)]
pub struct Cancel(Rc<(Cell<bool>, RefCell<Vec<Waker>>)>);

impl Cancel {
    pub fn cancel(&self) {
        self.0 .0.set(true);
        for w in self.0 .1.borrow_mut().drain(..) {
            w.wake();
        }
    }
    pub fn reset(&self) {
        self.0 .0.set(false);
    }
    pub fn is_cancelled(&self) -> bool {
        self.0 .0.get()
    }
    /// Resolves once cancelled.
    pub fn cancelled(&self) -> impl std::future::Future<Output = ()> + 'static {
        let this = self.clone();
        futures::future::poll_fn(move |cx| {
            if this.is_cancelled() {
                std::task::Poll::Ready(())
            } else {
                this.0 .1.borrow_mut().push(cx.waker().clone());
                std::task::Poll::Pending
            }
        })
    }
}

/// At most `n` calls in flight; the rest wait their turn in order.
#[derive(Default)]
struct Limiter {
    in_flight: Cell<u32>,
    waiting: RefCell<VecDeque<Waker>>,
}

impl Limiter {
    async fn acquire(&self, limit: u32) {
        futures::future::poll_fn(|cx| {
            if self.in_flight.get() < limit.max(1) {
                self.in_flight.set(self.in_flight.get() + 1);
                std::task::Poll::Ready(())
            } else {
                self.waiting.borrow_mut().push_back(cx.waker().clone());
                std::task::Poll::Pending
            }
        })
        .await
    }
    fn release(&self) {
        self.in_flight.set(self.in_flight.get().saturating_sub(1));
        // Every waiter looks again, in order: waking one alone loses the slot when that one's
        // call was dropped meanwhile (a stopped run, a column that finished), and the rest wait
        // for ever.
        let waiting: Vec<Waker> = self.waiting.borrow_mut().drain(..).collect();
        for w in waiting {
            w.wake();
        }
    }
}

thread_local! {
    static SHARED_LIMITER: RefCell<Option<Rc<Limiter>>> = const { RefCell::new(None) };
}

/// From now on, the models made in this thread count their calls in flight together: a
/// comparison's columns share the provider's limit as one run's calls do.
pub fn share_limits() {
    SHARED_LIMITER.with(|l| *l.borrow_mut() = Some(Rc::default()));
}

/// Which endpoint and model answer, and with what key.
#[derive(Clone, Debug, Default)]
pub struct Endpoint {
    pub provider: String,
    pub base_url: String,
    pub model: String,
    /// A model per agent, where the scenario overrides the default.
    pub agent_models: BTreeMap<String, String>,
    pub key: Option<String>,
}

impl Endpoint {
    /// Where the scenario's calls go, with which model for each agent, and `key`.
    pub fn of(scenario: &crate::scenario::Scenario, key: Option<String>) -> Endpoint {
        let m = &scenario.model;
        // Inserted one by one: collecting into a map sorts with the standard stable sort,
        // whose code for this one type weighs about 1.5 KB gzipped on the page.
        let mut agent_models = BTreeMap::new();
        for a in &scenario.agents {
            if let Some(model) = &a.model {
                agent_models.insert(a.name.clone(), model.clone());
            }
        }
        Endpoint {
            provider: m.provider.clone(),
            base_url: m.effective_base_url(),
            model: m.name.clone(),
            agent_models,
            key,
        }
    }
}

/// Told of streamed text as it arrives: (agent, the text so far).
pub type TextSink = Rc<dyn Fn(&str, &str)>;
/// A call that waits before it goes: for whom, how long and why.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wait<'a> {
    pub agent: &'a str,
    pub ms: u64,
    pub why: WaitWhy<'a>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WaitWhy<'a> {
    /// The call failed and goes again: what failed, in words.
    Retry(&'a str),
    /// The call keeps within the calls a minute the key allows.
    Paced { provider: &'a str, per_minute: u32 },
}

impl Wait<'_> {
    /// The wait in the page's words.
    pub fn words(&self) -> String {
        let s = self.ms.div_ceil(1000);
        match self.why {
            WaitWhy::Retry(what) => tf(say::WaitRetry, &[("what", &what), ("agent", &self.agent), ("s", &s)]),
            WaitWhy::Paced { provider, per_minute } => tf(
                say::WaitPaced,
                &[("provider", &provider), ("n", &per_minute), ("agent", &self.agent), ("s", &s)],
            ),
        }
    }
}

/// Told of each wait before a call goes again or keeps within a key's limit.
pub type RetrySink = Rc<dyn Fn(&Wait)>;
/// Told of what the user should know about the provider: a feature it refused, say.
pub type NoticeSink = Rc<dyn Fn(&str)>;

/// A [`ChatModel`] backed by a real provider.
pub struct HttpModel {
    endpoint: Endpoint,
    preset: &'static ProviderPreset,
    settings: NetworkSettings,
    transport: Rc<dyn Transport>,
    clock: Rc<dyn Clock>,
    cancel: Cancel,
    limiter: Rc<Limiter>,
    on_text: Option<TextSink>,
    jitter_state: Cell<u64>,
    on_retry: Option<RetrySink>,
    /// Told of what the user should know about the provider (a feature it refused).
    on_notice: Option<NoticeSink>,
    /// Keys taken out of everything that comes back before anyone else sees it.
    secrets: Secrets,
    /// What each model has been found to refuse (by address and model), for the rest of the
    /// session: shared with later runs through [`HttpModel::with_learned`].
    learned: Learned,
}

/// What providers have taught this session, by base URL and model name: the fields they refuse
/// and the pace their rate limits allow.
#[derive(Debug, Default)]
pub struct Lessons(Vec<(String, Lesson)>);

/// What one model at one address has taught.
#[derive(Debug, Default)]
struct Lesson {
    /// What it accepts, once a refusal changed it from the preset's.
    dialect: Option<Dialect>,
    pace: Option<pace::Pace>,
}

/// [`Lessons`] shared by the models a session makes.
pub type Learned = Rc<RefCell<Lessons>>;

impl Lessons {
    /// Calls a minute `model` at `base_url` has been kept to, once a refusal taught it.
    pub fn per_minute(&self, base_url: &str, model: &str) -> Option<u32> {
        let key = lessons_key(base_url, model);
        self.0.iter().find(|(k, _)| *k == key).and_then(|(_, l)| l.pace.as_ref()?.per_minute())
    }
}

fn lessons_key(base_url: &str, model: &str) -> String {
    format!("{} {model}", base_url.trim_end_matches('/'))
}

impl HttpModel {
    pub fn new(
        endpoint: Endpoint,
        settings: NetworkSettings,
        transport: Rc<dyn Transport>,
        clock: Rc<dyn Clock>,
    ) -> Result<Self, String> {
        let preset = preset(&endpoint.provider)
            .ok_or_else(|| format!("unknown provider \"{}\"", endpoint.provider))?;
        if endpoint.base_url.trim().is_empty() {
            return Err("a base URL is needed".into());
        }
        if !(endpoint.base_url.starts_with("http://") || endpoint.base_url.starts_with("https://")) {
            return Err(format!(
                "the base URL must start with http:// or https:// (got \"{}\")",
                endpoint.base_url
            ));
        }
        if endpoint.model.trim().is_empty() {
            return Err("a model name is needed".into());
        }
        if preset.needs_key && endpoint.key.as_deref().is_none_or(|k| k.trim().is_empty()) {
            return Err(format!("{} needs an API key", preset.label));
        }
        let seed = clock.now_ms().to_bits() | 1;
        let secrets = Secrets::new(endpoint.key.as_deref());
        Ok(Self {
            endpoint,
            preset,
            settings,
            transport,
            clock,
            cancel: Cancel::default(),
            limiter: SHARED_LIMITER.with(|l| l.borrow().clone()).unwrap_or_default(),
            on_text: None,
            jitter_state: Cell::new(seed),
            on_retry: None,
            on_notice: None,
            secrets,
            learned: Learned::default(),
        })
    }

    /// More keys to keep out of what the provider sends back (the key in use always is): any
    /// other key the user has given, so a server that repeats one cannot leak it.
    pub fn with_secrets<I, S>(mut self, keys: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.secrets = self.secrets.with(keys);
        self
    }

    pub fn on_text(mut self, sink: TextSink) -> Self {
        self.on_text = Some(sink);
        self
    }

    pub fn on_retry(mut self, sink: RetrySink) -> Self {
        self.on_retry = Some(sink);
        self
    }

    pub fn on_notice(mut self, sink: NoticeSink) -> Self {
        self.on_notice = Some(sink);
        self
    }

    /// Aborts every request in flight and every backoff wait.
    pub fn cancel_all(&self) {
        self.cancel.cancel();
        self.transport.abort_all();
    }

    fn jitter(&self) -> f64 {
        // xorshift: jitter only spreads retries out, so it need not come from the run's RNG.
        let mut x = self.jitter_state.get();
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.jitter_state.set(x);
        (x >> 11) as f64 / (1u64 << 53) as f64
    }

    fn model_for(&self, agent: &str) -> &str {
        self.endpoint.agent_models.get(agent).map_or(&self.endpoint.model, String::as_str)
    }

    /// Remembers what refusals taught across runs: pass the same map to every run of a
    /// session, so a refused field is changed at once and not refused again.
    pub fn with_learned(mut self, learned: Learned) -> Self {
        self.learned = learned;
        self
    }

    fn learned_key(&self, model: &str) -> String {
        lessons_key(&self.endpoint.base_url, model)
    }

    /// What `model` accepts: the preset's dialect, plus what its refusals taught this session.
    fn dialect_for(&self, model: &str) -> Dialect {
        let key = self.learned_key(model);
        let learned = self.learned.borrow();
        learned.0.iter().find(|(k, _)| *k == key).and_then(|(_, l)| l.dialect).unwrap_or(self.preset.dialect)
    }

    /// The HTTP request for a call; only the headers the provider needs, so the CORS preflight
    /// asks for as little as possible.
    pub fn http_request(&self, request: &ChatRequest, stream: bool) -> HttpRequest {
        let model = self.model_for(&request.agent);
        let body =
            wire::body(self.preset.protocol, self.dialect_for(model), request, model, stream).to_string();
        let path = match self.preset.protocol {
            Protocol::OpenAi => "chat/completions",
            Protocol::Anthropic => "messages",
        };
        self.to_provider(path, body)
    }

    /// A request to `path` under the base URL with the provider's headers: a POST of `body`,
    /// or a GET when it is empty (which needs no content type).
    fn to_provider(&self, path: &str, body: String) -> HttpRequest {
        let base = self.endpoint.base_url.trim_end_matches('/');
        let mut headers = Vec::new();
        if !body.is_empty() {
            headers.push(("content-type".to_string(), "application/json".to_string()));
        }
        let key = self.endpoint.key.as_deref().filter(|k| !k.trim().is_empty());
        match self.preset.protocol {
            Protocol::OpenAi => {
                if let Some(key) = key {
                    headers.push(("authorization".into(), format!("Bearer {}", key.trim())));
                }
            }
            Protocol::Anthropic => {
                if let Some(key) = key {
                    headers.push(("x-api-key".into(), key.trim().to_string()));
                }
                headers.push(("anthropic-version".into(), "2023-06-01".into()));
                headers.push(("anthropic-dangerous-direct-browser-access".into(), "true".into()));
            }
        }
        HttpRequest { url: format!("{base}/{path}"), headers, body }
    }

    /// Asks the provider which models it offers (`GET {base}/models`): the names, sorted, or
    /// what is wrong (key refused, address unreachable, an answer that is not a model list).
    pub async fn list_models(&self) -> Result<Vec<String>, String> {
        let describe =
            |f: Failure| self.secrets.scrub(&f.describe(self.preset, &self.endpoint.base_url)).into_owned();
        let first_byte = self.settings.first_byte_timeout_ms;
        let sent = self.transport.send(self.to_provider("models", String::new()));
        let mut body =
            self.within(sent, first_byte, Failure::FirstByteTimeout(first_byte)).await.map_err(describe)?;
        let status = body.status();
        let text = self.read_all(&mut *body).await.map_err(describe)?;
        if !(200..300).contains(&status) {
            return Err(describe(classify(status, body.header("retry-after").as_deref(), &text)));
        }
        wire::model_names(&text).map_err(|e| self.secrets.scrub(&e).into_owned())
    }

    /// Waits for `future`, giving up after `ms` or when cancelled.
    async fn within<T>(
        &self,
        future: LocalBoxFuture<'_, Result<T, Failure>>,
        ms: u64,
        timeout: Failure,
    ) -> Result<T, Failure> {
        let stop = Box::pin(self.cancel.cancelled());
        let timer = self.clock.sleep(ms);
        match select(future, select(timer, stop)).await {
            Either::Left((result, _)) => result,
            Either::Right((Either::Left(_), _)) => Err(timeout),
            Either::Right((Either::Right(_), _)) => Err(Failure::Cancelled),
        }
    }

    /// One attempt: send, then read the reply (streamed or whole).
    async fn attempt(&self, request: &ChatRequest) -> Result<ChatResponse, Failure> {
        let stream = self.settings.stream && request.purpose == Purpose::Speak && request.tools.is_empty();
        // The dialect this request is written in: a refusal is read against it, since calls in
        // flight at once may each learn the same thing.
        let dialect = self.dialect_for(self.model_for(&request.agent));
        let http = self.http_request(request, stream);
        let first_byte = self.settings.first_byte_timeout_ms;
        let mut body = self
            .within(self.transport.send(http.clone()), first_byte, Failure::FirstByteTimeout(first_byte))
            .await?;
        let status = body.status();
        if !(200..300).contains(&status) {
            let retry_after = body.header("retry-after");
            let text = self.read_all(&mut *body).await.unwrap_or_default();
            let sent: serde_json::Value = serde_json::from_str(&http.body).unwrap_or_default();
            if let Some(change) = adapt(dialect, &sent, status, &text) {
                return Err(Failure::Adaptable(Box::new(change)));
            }
            return Err(classify(status, retry_after.as_deref(), &text));
        }
        let streamed = body.header("content-type").is_some_and(|t| t.contains("text/event-stream"));
        if !streamed {
            let text = self.read_all(&mut *body).await?;
            return wire::parse_reply(self.preset.protocol, &text);
        }
        let mut decoder = sse::SseDecoder::new();
        let mut received = 0usize;
        let mut reply = wire::StreamReply::new(self.preset.protocol);
        let idle = self.settings.idle_timeout_ms;
        loop {
            let chunk = self.within(body.chunk(), idle, Failure::IdleTimeout(idle)).await;
            let ended = matches!(chunk, Ok(None));
            let events = match chunk {
                Ok(Some(bytes)) => {
                    received += bytes.len();
                    if received > MAX_REPLY_BYTES {
                        return Err(Failure::Malformed(format!(
                            "the stream is larger than {} MB",
                            MAX_REPLY_BYTES >> 20
                        )));
                    }
                    decoder.feed(&bytes)
                }
                Ok(None) => decoder.finish(),
                Err(Failure::Cancelled) => return Err(Failure::Cancelled),
                // A stream that breaks off keeps what it said, marked incomplete.
                Err(_) if !reply.response.content.is_empty() => break,
                Err(e) => return Err(e),
            };
            for event in &events {
                if reply.feed(event)?.is_some() {
                    if let Some(sink) = &self.on_text {
                        // The answer as it arrives; a <think> block in front is not shown.
                        let (_, answer) = crate::model::split_thinking(&reply.response.content);
                        sink(&request.agent, &self.secrets.scrub(answer));
                    }
                }
            }
            if ended || reply.done {
                break;
            }
        }
        let done = reply.done;
        let mut response = reply.finish();
        if !done {
            if response.content.is_empty() && response.tool_calls.is_empty() && response.refusal.is_none() {
                return Err(Failure::Malformed("the stream ended before any reply".into()));
            }
            response.incomplete = true;
        }
        Ok(response)
    }

    async fn read_all(&self, body: &mut dyn HttpBody) -> Result<String, Failure> {
        let mut bytes = Vec::new();
        let idle = self.settings.idle_timeout_ms;
        while let Some(chunk) = self.within(body.chunk(), idle, Failure::IdleTimeout(idle)).await? {
            bytes.extend_from_slice(&chunk);
            if bytes.len() > MAX_REPLY_BYTES {
                return Err(Failure::Malformed(format!(
                    "the reply is larger than {} MB",
                    MAX_REPLY_BYTES >> 20
                )));
            }
        }
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    async fn complete_with_retries(&self, request: &ChatRequest) -> Result<ChatResponse, ModelError> {
        self.limiter.acquire(self.settings.concurrency).await;
        let mut attempt = 0;
        // The request without the tools or JSON format the provider refused, once it has.
        let mut plain: Option<ChatRequest> = None;
        // Fields the provider refused and Agora changed for this call.
        let mut adapted: Vec<Adaptation> = Vec::new();
        let model = self.model_for(&request.agent).to_string();
        // How long this call has waited out the key's rate limit so far.
        let mut waited_for_rate = 0u64;
        let result = loop {
            if self.cancel.is_cancelled() {
                break Err(Failure::Cancelled);
            }
            if let Err(stopped) = self.keep_pace(&request.agent, &model).await {
                break Err(stopped);
            }
            match self.attempt(plain.as_ref().unwrap_or(request)).await {
                Ok(mut response) => {
                    response.adapted = std::mem::take(&mut adapted);
                    break Ok(response);
                }
                // Each field at most once a call: the same refusal again is an error.
                Err(Failure::Adaptable(change)) if adapted.len() < MAX_ADAPTATIONS => {
                    let (dialect, adaptation) = *change;
                    let known = self.dialect_for(&model);
                    let merged = known.with(dialect);
                    let new = merged != known;
                    self.lesson(&model, |l| l.dialect = Some(merged));
                    if let (true, Some(sink)) = (new, &self.on_notice) {
                        sink(&self.secrets.scrub(&format!(
                            "{} refused {} for {model} ({}). Agora {} and asked again, and will for the rest of this session.",
                            self.preset.label, adaptation.parameter, adaptation.message, adaptation.done()
                        )));
                    }
                    adapted.push(adaptation);
                }
                Err(Failure::Rejected { status: 400, message })
                    if plain.is_none() && refused_feature(request, &message).is_some() =>
                {
                    let feature = refused_feature(request, &message).unwrap_or_default();
                    if let Some(sink) = &self.on_notice {
                        sink(&self.secrets.scrub(&format!(
                            "{} refused {feature} for this model ({message}). Agora asked without them, so the method falls back as the seed does when none come; choose a model that supports {feature}, or the text method.",
                            self.preset.label
                        )));
                    }
                    let mut stripped = request.clone();
                    stripped.tools.clear();
                    stripped.response_format = crate::model::ResponseFormat::Text;
                    plain = Some(stripped);
                }
                // A key's limit is waited out, up to the time the settings allow in all, and
                // what it taught paces the calls after it: a free tier slows a run, never ends it.
                Err(failure @ Failure::RateLimited { retry_after_ms, limit, .. })
                    if waited_for_rate < self.settings.rate_limit_wait_ms =>
                {
                    self.pace_of(&model, |p| p.refused(self.clock.now_ms(), limit));
                    // The wait the provider names, and room for its clock to differ from ours.
                    let wait = match retry_after_ms {
                        Some(_) => {
                            backoff_ms(&self.settings, 0, retry_after_ms, 0.0) + pace::MARGIN_MS as u64
                        }
                        None => backoff_ms(&self.settings, attempt.min(3), None, self.jitter()),
                    };
                    waited_for_rate += wait.max(1);
                    attempt += 1;
                    if let Err(stopped) = self.retry_after(&request.agent, &failure, wait).await {
                        break Err(stopped);
                    }
                }
                Err(failure @ Failure::RateLimited { .. }) => break Err(failure),
                Err(failure) if failure.retryable() && attempt < self.settings.max_retries => {
                    let wait = backoff_ms(&self.settings, attempt, None, self.jitter());
                    attempt += 1;
                    if let Err(stopped) = self.retry_after(&request.agent, &failure, wait).await {
                        break Err(stopped);
                    }
                }
                Err(failure) => break Err(failure),
            }
        };
        self.limiter.release();
        match result {
            Ok(mut response) => {
                self.scrub_response(&mut response);
                Ok(response)
            }
            Err(Failure::Cancelled) => Err(ModelError::Cancelled),
            Err(mut failure) => {
                failure.map_text(|t| self.secrets.scrub(t).into_owned());
                let base_url = self.secrets.scrub(&self.endpoint.base_url).into_owned();
                Err(ModelError::Provider(Box::new(ProviderError {
                    failure,
                    provider: self.preset,
                    base_url,
                })))
            }
        }
    }

    /// What this session has seen of `model`'s rate limit, to read or to teach.
    fn pace_of<T>(&self, model: &str, f: impl FnOnce(&mut pace::Pace) -> T) -> T {
        let window = self.settings.rate_window_ms as f64;
        self.lesson(model, |l| f(l.pace.get_or_insert_with(|| pace::Pace::over(window))))
    }

    /// What this session has learnt of `model`, to read or to add to.
    fn lesson<T>(&self, model: &str, f: impl FnOnce(&mut Lesson) -> T) -> T {
        let key = self.learned_key(model);
        let mut lessons = self.learned.borrow_mut();
        // A list, not a map: a session talks to a model or two, and a map of its own would be
        // more code on the page than the lookups it saves.
        let at = match lessons.0.iter().position(|(k, _)| *k == key) {
            Some(at) => at,
            None => {
                lessons.0.push((key, Lesson::default()));
                lessons.0.len() - 1
            }
        };
        f(&mut lessons.0[at].1)
    }

    /// Waits, when the key's limit has been learnt, for the next moment a call to `model` may
    /// go without being refused; says so while it waits.
    async fn keep_pace(&self, agent: &str, model: &str) -> Result<(), Failure> {
        let (wait, per_minute) = self.pace_of(model, |p| (p.reserve(self.clock.now_ms()), p.per_minute()));
        let Some(per_minute) = per_minute.filter(|_| wait > 0) else { return Ok(()) };
        if let Some(sink) = &self.on_retry {
            sink(&Wait { agent, ms: wait, why: WaitWhy::Paced { provider: self.preset.label, per_minute } });
        }
        self.sleep_or_stop(wait).await
    }

    /// Says what failed and that `agent`'s call goes again in `ms`, then waits for it.
    async fn retry_after(&self, agent: &str, failure: &Failure, ms: u64) -> Result<(), Failure> {
        if let Some(sink) = &self.on_retry {
            let what = failure.retry_note(self.preset, &self.endpoint.base_url);
            let what = self.secrets.scrub(&what);
            sink(&Wait { agent, ms, why: WaitWhy::Retry(&what) });
        }
        self.sleep_or_stop(ms).await
    }

    /// Waits `ms`, or until Stop: then [`Failure::Cancelled`].
    async fn sleep_or_stop(&self, ms: u64) -> Result<(), Failure> {
        let stop = Box::pin(self.cancel.cancelled());
        match select(self.clock.sleep(ms), stop).await {
            Either::Left(_) => Ok(()),
            Either::Right(_) => Err(Failure::Cancelled),
        }
    }

    /// Takes every key out of a reply: its text and its tool calls.
    fn scrub_response(&self, response: &mut ChatResponse) {
        self.secrets.scrub_in_place(&mut response.content);
        self.secrets.scrub_in_place(&mut response.reasoning);
        if let Some(r) = &mut response.refusal {
            self.secrets.scrub_in_place(&mut r.text);
        }
        for a in &mut response.adapted {
            self.secrets.scrub_in_place(&mut a.message);
        }
        for call in &mut response.tool_calls {
            self.secrets.scrub_in_place(&mut call.name);
            self.secrets.scrub_in_place(&mut call.arguments);
        }
    }
}

impl ChatModel for HttpModel {
    fn complete<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, ModelError>> {
        Box::pin(self.complete_with_retries(request))
    }
}

#[cfg(test)]
mod tests;
