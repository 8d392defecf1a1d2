//! The floor: what a speaker-selection method works with during a turn (the scenario, the cast,
//! the transcript, the run's one seeded RNG, the model and the event log), and the helpers every
//! method plays through: asking the model with retries, recording each call, adding messages.
//! The engine's run owns a floor and hands it to the method each turn.

use std::rc::Rc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::clock::Clock;
use crate::events::{Event, MessageKind, ParseOutcome, Request};
use crate::model::{
    ChatMessage, ChatModel, ChatRequest, ChatResponse, Cue, HistorySpan, ModelError, Purpose,
};
use crate::prompts::fill;
use crate::scenario::{PromptKind, Scenario};
use crate::transcript::Transcript;

/// An agent as the run sees it once its description is settled.
#[derive(Clone, Debug)]
pub struct Persona {
    pub name: String,
    pub description: String,
    pub header: String,
    pub system: String,
}

/// A reply and how long it took.
#[derive(Clone, Debug)]
pub struct Reply {
    pub response: ChatResponse,
    pub latency_ms: f64,
}

/// Every attempt of one request, and the value read from the first usable reply.
#[derive(Clone, Debug)]
pub struct Asked<T> {
    pub attempts: Vec<(Reply, ParseOutcome)>,
    pub value: Option<T>,
}

impl<T> Asked<T> {
    /// The raw text of the last reply (nothing, if it was refused).
    pub fn last_raw(&self) -> String {
        self.attempts.last().map(|(r, _)| r.response.answered_raw()).unwrap_or_default()
    }
}

/// The floor the class gave, held by the run's [`Floor`] and by whoever holds the run, so that
/// it can be given while a turn is under way: the turn's choice of speaker reads it when it is
/// made. Also tells whether the turn under way has chosen its speaker (then a floor given now
/// waits for the next turn).
#[derive(Clone, Debug, Default)]
pub struct GivenFloor(Rc<GivenCell>);

#[derive(Debug, Default)]
struct GivenCell {
    agent: std::cell::Cell<Option<usize>>,
    chosen: std::cell::Cell<bool>,
}

impl GivenFloor {
    /// The agent (its index in the scenario) given the floor whose turn has not come yet.
    pub fn agent(&self) -> Option<usize> {
        self.0.agent.get()
    }

    pub(crate) fn give(&self, agent: usize) {
        self.0.agent.set(Some(agent));
    }

    /// Whether the turn under way has chosen its speaker already.
    pub fn chosen(&self) -> bool {
        self.0.chosen.get()
    }

    /// A step begins: its speaker is not chosen yet.
    pub(crate) fn begin_step(&self) {
        self.0.chosen.set(false);
    }

    /// The turn's speaker is chosen now: the floor given, if any, is used up.
    fn choose(&self) -> Option<usize> {
        self.0.chosen.set(true);
        self.0.agent.take()
    }
}

/// Told of each event as it is recorded.
pub(crate) type Listener = Box<dyn FnMut(&Event)>;

/// The last call of an agent and purpose, which its next call is recorded against.
#[derive(Default)]
struct Base {
    /// Its `model_call` event.
    event: usize,
    messages: Vec<ChatMessage>,
    history: Option<HistorySpan>,
    /// The history's message holds only the text around the history span: its buffer went on
    /// to the next prompt (see [`Floor::draft`]).
    cut: bool,
}

impl Base {
    /// What the log needs to encode `request` against this base; with the part of the history
    /// both copied when they copied it at the same place.
    fn against(&self, request: &ChatRequest) -> (Option<(usize, &[ChatMessage])>, Option<HistorySpan>) {
        let known = match (self.history, request.history) {
            (Some(old), Some(new))
                if old.message == new.message && old.start == new.start && old.len <= new.len =>
            {
                Some(old)
            }
            _ => None,
        };
        (Some((self.event, self.messages.as_slice())), known)
    }
}

/// What seed 000's `send` asks an agent to go on from: the history, then its name.
const SPEECH_CUE: &str = "{history}\n{name}: ";

/// How many replaced prompts' buffers a floor keeps for its next prompts: one turn's calls.
const SPARE_BUFFERS: usize = 16;
/// The smallest buffer worth keeping for a next prompt.
const SPARE_MIN_BYTES: usize = 4096;

/// What a method works with during a turn, and nothing more: the scenario, the cast, the
/// transcript, the run's one RNG, the model (asked through the helpers here, which time and
/// record every call) and the event log.
pub struct Floor {
    pub(crate) scenario: Rc<Scenario>,
    model: Rc<dyn ChatModel>,
    clock: Rc<dyn Clock>,
    pub(crate) rng: ChaCha8Rng,
    pub(crate) events: Vec<Event>,
    pub(crate) transcript: Transcript,
    pub(crate) turn: u32,
    pub(crate) cast: Vec<Persona>,
    /// The topic as the agents discuss it. The specifier's version only opens the conversation,
    /// as in seed 000, where the headers are written from the original topic.
    pub(crate) topic: String,
    /// The line every call ends with when the scenario has a language ([`Scenario::language_line`]).
    pub(crate) language: Option<String>,
    /// The last call of each (agent, purpose): its event index and messages, the base the next
    /// such call is recorded against.
    last_calls: std::collections::BTreeMap<(String, Purpose), Base>,
    /// Buffers of bases that were replaced, for the next prompts (see [`Floor::buffer`]).
    spare: std::cell::RefCell<Vec<String>>,
    /// The agent the class gave the floor to, until a method's next choice of speaker takes it
    /// (see [`Floor::floor_for`]); shared with the session, so a floor given while the turn is
    /// under way (a seat's bid awaited) reaches that turn's choice.
    pub(crate) given: GivenFloor,
    /// The class pressed "End the show": the director's next stop draw stops.
    pub(crate) end_requested: bool,
    /// Told of every event as it is recorded, so a view can follow a turn as it happens.
    listener: Option<Listener>,
    /// Tokens spent so far, and their cost at the scenario's prices.
    spent_tokens: u64,
    spent_cost: f64,
}

impl Floor {
    pub(crate) fn new(scenario: Scenario, model: Rc<dyn ChatModel>, clock: Rc<dyn Clock>) -> Floor {
        Floor {
            rng: ChaCha8Rng::seed_from_u64(scenario.seed),
            topic: scenario.topic.clone(),
            language: scenario.language_line(),
            transcript: Transcript::new(scenario.prompt(PromptKind::HistoryHeader)),
            scenario: Rc::new(scenario),
            model,
            clock,
            events: Vec::new(),
            turn: 0,
            cast: Vec::new(),
            last_calls: Default::default(),
            spare: Default::default(),
            given: GivenFloor::default(),
            end_requested: false,
            listener: None,
            spent_tokens: 0,
            spent_cost: 0.0,
        }
    }

    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The conversation description with the topic and participants filled in.
    pub(crate) fn conversation_description(&self) -> String {
        conversation_description(&self.scenario, &self.topic)
    }

    pub(crate) fn persona(&self, agent: &crate::scenario::AgentSpec, description: String) -> Persona {
        let s = &self.scenario;
        let description_of_conversation = self.conversation_description();
        let word_limit = s.word_limit.to_string();
        let role = if agent.role.is_empty() { "participant" } else { agent.role.as_str() };
        let vars = [
            ("description_of_conversation", description_of_conversation.as_str()),
            ("name", agent.name.as_str()),
            ("role", role),
            ("location", agent.location.as_str()),
            ("description", description.as_str()),
            ("topic", self.topic.as_str()),
            ("word_limit", word_limit.as_str()),
        ];
        let header = fill(s.prompt(PromptKind::Header), &vars);
        let system = match &agent.system_prompt {
            Some(own) => own.clone(),
            None => {
                let mut with_header = vars.to_vec();
                with_header.push(("header", header.as_str()));
                fill(s.prompt(PromptKind::System), &with_header)
            }
        };
        Persona { name: agent.name.clone(), description, header, system }
    }

    /// Tokens spent so far, and their cost at the scenario's prices (0 without prices).
    pub fn spent(&self) -> (u64, f64) {
        (self.spent_tokens, self.spent_cost)
    }

    pub(crate) fn push(&mut self, event: Event) {
        if let Event::ModelCall { usage, .. } = &event {
            let (prompt, completion) = (usage.prompt_tokens as u64, usage.completion_tokens as u64);
            self.spent_tokens += prompt + completion;
            if let Some(price) = &self.scenario.model.price {
                self.spent_cost += price.cost(prompt, completion);
            }
        }
        if let Some(listener) = &mut self.listener {
            listener(&event);
        }
        self.events.push(event);
    }

    /// Calls `listener` with every event from now on, as it is recorded (the events so far are in
    /// [`Run::events`]).
    pub fn set_listener(&mut self, listener: impl FnMut(&Event) + 'static) {
        self.listener = Some(Box::new(listener));
    }

    /// Swaps in the recorded log after a run has caught up with a recording (see
    /// [`crate::replay::continue_live`]), so the timings measured when it was recorded are kept.
    /// Refused unless the two logs match but for timings.
    pub(crate) fn adopt_recorded_log(&mut self, recorded: &[Event]) -> bool {
        let same = recorded.len() == self.events.len()
            && recorded.iter().zip(&self.events).all(|(a, b)| a.same_but_timings(b));
        if same {
            self.events = recorded.to_vec();
        }
        same
    }

    /// Adds a message to the transcript and the log.
    pub(crate) fn add_message(&mut self, speaker: &str, text: &str, kind: MessageKind) {
        self.add_message_with(speaker, text, kind, String::new());
    }

    /// Adds an agent's message made of `replies` (one, or the director's reflection and
    /// prompt): marked refused, filtered, empty or incomplete as they were.
    pub(crate) fn add_said(&mut self, speaker: &str, text: &str, replies: &[&ChatResponse]) {
        let (kind, refusal) = MessageKind::of_replies(text, replies);
        self.add_message_with(speaker, text, kind, refusal);
    }

    fn add_message_with(&mut self, speaker: &str, text: &str, kind: MessageKind, refusal: String) {
        self.transcript.push(speaker, text);
        self.push(Event::Message {
            turn: self.turn,
            speaker: speaker.to_string(),
            text: text.to_string(),
            kind,
            refusal,
        });
    }

    /// One call, timed.
    pub(crate) async fn ask(&self, request: &ChatRequest) -> Result<Reply, ModelError> {
        let started = self.clock.now_ms();
        let mut response = self.model.complete(request).await?;
        // Whatever the model thought is kept apart before anything reads the answer.
        response.separate_reasoning();
        let latency_ms = ((self.clock.now_ms() - started) * 1000.0).round() / 1000.0;
        Ok(Reply { response, latency_ms })
    }

    /// Asks up to `attempts` times until `read` accepts a reply. Nothing is recorded, so several
    /// of these can run at once; pass the result to [`Run::record_asked`] afterwards, in a fixed
    /// order, to keep the log independent of which reply arrived first.
    pub(crate) async fn ask_until<T: Serialize>(
        &self,
        request: &ChatRequest,
        attempts: u32,
        read: impl Fn(&ChatResponse) -> Result<T, String>,
    ) -> Result<Asked<T>, ModelError> {
        let mut asked = Asked { attempts: Vec::new(), value: None };
        for _ in 0..attempts.max(1) {
            let reply = self.ask(request).await?;
            // A refused or filtered reply is unreadable whatever text came with it.
            match reply.response.readable().and_then(&read) {
                Ok(value) => {
                    let shown = serde_json::to_value(&value).unwrap_or_default();
                    asked.attempts.push((reply, ParseOutcome::ok(shown)));
                    asked.value = Some(value);
                    break;
                }
                Err(error) => {
                    let error = match reply.response.why_no_answer() {
                        Some(_) if reply.response.refusal.is_some() => error,
                        Some(why) => no_answer(request, &why, &error),
                        None => error,
                    };
                    asked.attempts.push((reply, ParseOutcome::failed(error)))
                }
            }
        }
        Ok(asked)
    }

    pub(crate) fn record_asked<T>(&mut self, request: &ChatRequest, asked: &Asked<T>) {
        if self.push_attempts(request, asked) {
            self.keep_copy(request);
        }
    }

    /// [`Floor::record_asked`] for a request that is not needed afterwards: its messages become
    /// the next call's base without a copy.
    pub(crate) fn record_asked_owned<T>(&mut self, request: ChatRequest, asked: &Asked<T>) {
        if self.push_attempts(&request, asked) {
            self.keep_base(request);
        }
    }

    /// Records one call; the request's messages are kept (copied) as the next such call's base.
    pub(crate) fn record_call(
        &mut self,
        request: &ChatRequest,
        attempt: u32,
        reply: &Reply,
        parse: ParseOutcome,
    ) {
        self.push_call(request, attempt, reply, parse);
        self.keep_copy(request);
    }

    /// [`Floor::record_call`] for a request that is not needed afterwards.
    pub(crate) fn record_call_owned(
        &mut self,
        request: ChatRequest,
        attempt: u32,
        reply: &Reply,
        parse: ParseOutcome,
    ) {
        self.push_call(&request, attempt, reply, parse);
        self.keep_base(request);
    }

    /// Pushes an event for each attempt at `request`: the first against the agent's last such
    /// call, each retry against the attempt before it (which asked the same). Whether there was
    /// any.
    fn push_attempts<T>(&mut self, request: &ChatRequest, asked: &Asked<T>) -> bool {
        for (i, (reply, parse)) in asked.attempts.iter().enumerate() {
            if i == 0 {
                self.push_call(request, 1, reply, parse.clone());
            } else {
                let previous = Some((self.events.len() - 1, request.messages.as_slice()));
                let encoded = Request::encode_knowing(&request.messages, previous, request.history);
                self.push_encoded(request, encoded, i as u32 + 1, reply, parse.clone());
            }
        }
        !asked.attempts.is_empty()
    }

    /// A copy of the request's messages becomes the base of the next call of its agent and
    /// purpose (the call just pushed). The copy reuses the old base's buffers: a prompt is the
    /// whole history, and a fresh copy of it for every call would be most of a long run's engine
    /// time.
    fn keep_copy(&mut self, request: &ChatRequest) {
        let kept = self.last_calls.entry((request.agent.clone(), request.purpose)).or_default();
        kept.event = self.events.len() - 1;
        kept.messages.clone_from(&request.messages);
        kept.history = request.history;
        kept.cut = false;
    }

    /// The request's messages become the base of the next call of its agent and purpose (the
    /// call just pushed).
    fn keep_base(&mut self, request: ChatRequest) {
        let index = self.events.len() - 1;
        let base = Base { event: index, messages: request.messages, history: request.history, cut: false };
        let replaced = self.last_calls.insert((request.agent, request.purpose), base);
        let mut spare = self.spare.borrow_mut();
        for message in replaced.into_iter().flat_map(|base| base.messages) {
            // Small ones cost the allocator little, and would crowd the history-sized ones out.
            if spare.len() < SPARE_BUFFERS && message.content.capacity() >= SPARE_MIN_BYTES {
                spare.push(message.content);
            }
        }
    }

    /// Where the next prompt of `agent` for `purpose` is built: its last one, when that one's
    /// message `message` holds the history, to continue in place ([`crate::prompts::Draft::fill`])
    /// as the transcript only grows, else a spare buffer. Copying the whole history into every
    /// prompt afresh was most of a long run's engine time. The base keeps what the log compares
    /// the next call with: the text around the history.
    pub(crate) fn draft(&mut self, agent: &str, purpose: Purpose, message: usize) -> crate::prompts::Draft {
        match self.last_to_continue(agent, purpose, message) {
            Some((text, span)) => crate::prompts::Draft { text, prior: Some((span.start, span.len)) },
            None => crate::prompts::Draft { text: self.buffer(), prior: None },
        }
    }

    /// The last prompt of `agent` for `purpose`, taken out of its base, with where it holds the
    /// history; its base is cut around the history.
    fn last_to_continue(
        &mut self,
        agent: &str,
        purpose: Purpose,
        message: usize,
    ) -> Option<(String, HistorySpan)> {
        let base = self.last_calls.get_mut(&(agent.to_string(), purpose))?;
        let span = base.history.filter(|h| h.message == message && !base.cut)?;
        let held = base.messages.get_mut(message)?;
        let end = span.start + span.len;
        let around = format!("{}{}", held.content.get(..span.start)?, held.content.get(end..)?);
        base.cut = true;
        Some((std::mem::replace(&mut held.content, around), span))
    }

    /// An empty string to build a prompt in, with the room of an earlier prompt when there is
    /// one. Every prompt repeats the history: without this, each turn of a long run asks the
    /// allocator for a few history-sized buffers and frees as many, and on a native heap that
    /// returns them to the system every turn, faulting fresh pages is most of the turn's time.
    pub(crate) fn buffer(&self) -> String {
        let mut spare = self.spare.borrow_mut();
        // The roomiest, so a buffer that already fits is not passed over for one that must grow.
        let roomiest = (0..spare.len()).max_by_key(|&i| spare[i].capacity());
        let mut buffer = roomiest.map(|i| spare.swap_remove(i)).unwrap_or_default();
        buffer.clear();
        buffer
    }

    /// Pushes the call's event, its messages encoded against the last call of the same agent and
    /// purpose.
    fn push_call(&mut self, request: &ChatRequest, attempt: u32, reply: &Reply, parse: ParseOutcome) {
        let key = (request.agent.clone(), request.purpose);
        let (previous, known, cut) = match self.last_calls.get(&key) {
            Some(base) => {
                let (previous, known) = base.against(request);
                (previous, known, base.history.filter(|_| base.cut))
            }
            None => (None, None, None),
        };
        let encoded = Request::encode_around(&request.messages, previous, known, cut);
        self.push_encoded(request, encoded, attempt, reply, parse);
    }

    fn push_encoded(
        &mut self,
        request: &ChatRequest,
        encoded: Request,
        attempt: u32,
        reply: &Reply,
        parse: ParseOutcome,
    ) {
        self.push(Event::ModelCall {
            turn: self.turn,
            agent: request.agent.clone(),
            purpose: request.purpose,
            attempt,
            request: encoded,
            tools: request.tools.clone(),
            raw: reply.response.raw(),
            tool_calls: reply.response.tool_calls.clone(),
            parse,
            latency_ms: reply.latency_ms,
            usage: reply.response.usage,
            incomplete: reply.response.incomplete,
            reasoning: reply.response.reasoning.clone(),
            truncated: reply.response.truncated,
            adapted: reply.response.adapted.clone(),
            engine: reply.response.engine,
            refusal: reply.response.refusal.clone(),
            human: reply.response.human,
            by: reply.response.by.clone(),
            sampling: reply.response.sampling.clone().map(Box::new),
        });
    }

    /// Seed 000's `send`: the agent's system message, then the history ending with its name.
    pub(crate) fn speech_request(&mut self, agent: usize, cue: Cue) -> ChatRequest {
        let name = self.cast[agent].name.clone();
        let draft = self.draft(&name, Purpose::Speak, 1);
        let persona = &self.cast[agent];
        let history = self.transcript.joined();
        let (user, _) = draft.fill(SPEECH_CUE, &[("history", history), ("name", name.as_str())], "history");
        let mut req = ChatRequest::new(
            persona.name.clone(),
            Purpose::Speak,
            vec![ChatMessage::system(&persona.system), ChatMessage::user(user)],
        )
        .with_cue(cue)
        .in_language(self.language.as_deref());
        req.history = Some(HistorySpan { message: 1, start: 0, len: history.len() });
        req.temperature = self.scenario.model.temperature;
        req
    }

    /// The cue for `agent` about to speak.
    pub(crate) fn speak_cue(&self, agent: usize) -> Cue {
        let last = self.transcript.last();
        Cue::Speak {
            topic: self.topic.clone(),
            word_limit: self.scenario.word_limit,
            last_speaker: last.map(|l| l.speaker.clone()),
            last_text: last.map(|l| l.text.clone()).unwrap_or_default(),
            first: !self.has_asked(&self.cast[agent].name, Purpose::Speak),
        }
    }

    /// Whether `agent` has been asked for `purpose` before in this run (as the log says).
    pub(crate) fn has_asked(&self, agent: &str, purpose: Purpose) -> bool {
        self.last_calls.keys().any(|(a, p)| a == agent && *p == purpose)
    }

    /// Who speaks after the method chose `chosen`: the agent the class gave the floor to, if it
    /// did (recorded beside the method's choice, and used once), or `chosen`.
    pub(crate) fn floor_for(&mut self, chosen: usize) -> usize {
        let Some(given) = self.given.choose() else {
            return chosen;
        };
        let (agent, instead_of) = (self.cast[given].name.clone(), self.cast[chosen].name.clone());
        self.push(Event::FloorGiven { turn: self.turn, agent, instead_of });
        given
    }

    /// The agent speaks: one call, recorded, and its reply added to the conversation.
    pub(crate) async fn speak(&mut self, agent: usize) -> Result<String, ModelError> {
        let req = self.speech_request(agent, self.speak_cue(agent));
        let reply = self.ask(&req).await?;
        let text = reply.response.said().to_string();
        self.record_call_owned(req, 1, &reply, ParseOutcome::of_speech(&reply.response));
        let name = self.cast[agent].name.clone();
        self.add_said(&name, &text, &[&reply.response]);
        Ok(text)
    }
}

/// Why a reply had nothing to read, with what to do about it: a token limit that reasoning used
/// up names the setting to raise.
fn no_answer(request: &ChatRequest, why: &str, error: &str) -> String {
    let hint = match (why.contains("token limit"), request.max_tokens) {
        (true, Some(n)) => format!(
            "; this call allows {n} tokens: raise the method's token limit (reasoning models need room to think)"
        ),
        (true, None) => "; this call sets no limit, so the provider's own default cut it".to_string(),
        (false, _) => String::new(),
    };
    format!("{why}{hint} ({error})")
}

/// The conversation description of `s` (its prompt), with `topic` and the participants filled in.
pub fn conversation_description(s: &crate::scenario::Scenario, topic: &str) -> String {
    let people: String = s
        .agents
        .iter()
        .map(|a| {
            let mut line = format!("\n- {}", a.name);
            if !a.role.is_empty() {
                line.push_str(": ");
                line.push_str(&a.role);
            }
            if !a.location.is_empty() {
                line.push_str(", located in ");
                line.push_str(&a.location);
            }
            line
        })
        .collect();
    fill(
        s.prompt(PromptKind::ConversationDescription),
        &[("topic", topic), ("names", &s.agent_names().join(", ")), ("people", &people)],
    )
}
