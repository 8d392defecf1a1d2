//! What the app shows of a run, folded from the event log one event at a time.
//!
//! Every panel (transcript, bid board, director, handoffs, negotiation, call inspector,
//! statistics) reads a [`RunView`], and a `RunView` is nothing but the events applied in order,
//! so the screen can never disagree with the log. Rows are `Arc`s so a view can hand out its lists
//! cheaply; applying an event only appends or updates the rows it touches.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::events::{Event, FinishReason, MessageKind, ParseOutcome, SelectorMatch};
use crate::failure::Adaptation;
use crate::methods::{bidding, director, handoff, negotiation};
use crate::model::{EngineTime, Purpose, Refusal, Usage};
use crate::scenario::{Price, Scenario};

// Each method's rows and how its events fold into them live in the method's folder (`view.rs`);
// the run's view holds them and tallies the statistics every method shares.
pub use crate::methods::bidding::view::{BidCell, BidTurn};
pub use crate::methods::director::view::{DirectorPick, DirectorTurn};
pub use crate::methods::handoff::view::HandoffRow;
pub use crate::methods::negotiation::view::{ActionRow, GameResult, NegotiationView, OptimizerRow};
pub use crate::methods::selector::view::SelectorRow;

/// A piece of a message: said aloud, or a body movement written between `*`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Segment {
    Speech(String),
    Gesture(String),
}

/// Splits `text` into speech and `*gestures*`. An unmatched `*` is kept as speech.
pub fn segments(text: &str) -> Vec<Segment> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('*') {
        let Some(close) = rest[open + 1..].find('*') else { break };
        if open > 0 {
            out.push(Segment::Speech(rest[..open].to_string()));
        }
        let inner = &rest[open + 1..open + 1 + close];
        if inner.trim().is_empty() {
            out.push(Segment::Speech(format!("*{inner}*")));
        } else {
            out.push(Segment::Gesture(inner.to_string()));
        }
        rest = &rest[open + close + 2..];
    }
    if !rest.is_empty() {
        out.push(Segment::Speech(rest.to_string()));
    }
    out
}

#[derive(Clone, Debug, PartialEq)]
pub struct TranscriptRow {
    /// The message's position in the transcript, a stable key.
    pub id: usize,
    pub turn: u32,
    pub speaker: String,
    pub text: String,
    pub injected: bool,
    /// How the message came: the tag and note beside it (refused, filtered, empty,
    /// incomplete) come from here.
    pub kind: MessageKind,
    /// The model's words of refusal, for a refused or filtered message.
    pub refusal: String,
    pub segments: Vec<Segment>,
    /// Said by a person in the speaker's seat.
    pub you: bool,
    /// Which student said it, from their phone (empty otherwise).
    pub by: String,
    /// Why this speaker has the floor when the class gave it (see [`crate::events::floor_note`]).
    pub given: Option<String>,
    /// A trading move as a sentence (the text is the JSON the player sent).
    pub action: Option<String>,
    /// The trading game this message opens, when it is a game's first.
    pub game: Option<u32>,
    /// The judge's score of the speech as it landed (`judge.live`): the mean of its scores, and
    /// who scored it and why.
    pub score: Option<(String, String)>,
}

/// One model call for the inspector. The messages are rebuilt from the log on demand.
#[derive(Clone, Debug, PartialEq)]
pub struct CallRow {
    /// Position of the `model_call` event in the log.
    pub event: usize,
    pub turn: u32,
    pub agent: String,
    pub purpose: Purpose,
    pub attempt: u32,
    pub raw: String,
    pub parse: ParseOutcome,
    pub latency_ms: f64,
    pub usage: Usage,
    pub reasoning: String,
    pub truncated: bool,
    pub adapted: Vec<Adaptation>,
    pub refusal: Option<Refusal>,
    pub sampling: Option<crate::model::Sampling>,
}

/// Counts for one agent, or for the whole run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub calls: u32,
    /// Calls that decide who speaks (bids, director choices).
    pub orchestration_calls: u32,
    /// Calls whose reply became a message (see [`Purpose::is_speech`]).
    pub speech_calls: u32,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    /// Attempts after the first.
    pub retries: u32,
    /// Defaulted bids, fallback choices and handoffs, invalid actions.
    pub fallbacks: u32,
    /// Calls the model refused or the provider's filter withheld.
    pub refused: u32,
    /// Turns where the model answered nothing, with no refusal or filter.
    pub empty: u32,
    /// Tokens of the orchestration calls alone, to price them apart.
    pub orchestration_prompt_tokens: u64,
    pub orchestration_completion_tokens: u64,
}

impl Tally {
    pub fn tokens(&self) -> u64 {
        self.prompt_tokens + self.completion_tokens
    }

    /// What the calls cost at `price`.
    pub fn cost(&self, price: &Price) -> f64 {
        price.cost(self.prompt_tokens, self.completion_tokens)
    }

    /// What the orchestration calls (bids, director choices) cost at `price`.
    pub fn orchestration_cost(&self, price: &Price) -> f64 {
        price.cost(self.orchestration_prompt_tokens, self.orchestration_completion_tokens)
    }
}

/// What a run paused at its spending cap says: what it spent, against which cap.
pub fn cap_note(tokens: u64, cost: Option<f64>, cap: &crate::scenario::SpendingCap) -> String {
    let spent = match cost {
        Some(c) => format!("{tokens} tokens (${})", crate::text::fixed(c, 4)),
        None => format!("{tokens} tokens"),
    };
    let mut limits = Vec::new();
    if cap.tokens > 0 {
        limits.push(format!("{} tokens", cap.tokens));
    }
    if cap.cost > 0.0 {
        limits.push(format!("${}", crate::text::fixed(cap.cost, 4)));
    }
    format!(
        "Paused at the spending cap: the run has used {spent}, and its cap is {}. Raise the cap to go on.",
        limits.join(" or ")
    )
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    pub per_agent: BTreeMap<String, Tally>,
    pub total: Tally,
    /// The in-tab engine's own time over the run's calls (zero on other models).
    pub engine: EngineTime,
    /// The judge's calls, counted apart from the run's (`crate::judge`).
    pub judge: Tally,
}

impl Stats {
    fn tally(&mut self, agent: &str, f: impl Fn(&mut Tally)) {
        f(self.per_agent.entry(agent.to_string()).or_default());
        f(&mut self.total);
    }
}

/// Everything a run shows, built from its events.
#[derive(Clone, Debug, Default)]
pub struct RunView {
    pub scenario: Option<Arc<Scenario>>,
    pub seed: u64,
    /// How many events have been applied.
    pub applied: usize,
    /// A person in a seat has answered at least once in this run.
    pub answered: bool,
    pub turn: u32,
    pub transcript: Vec<Arc<TranscriptRow>>,
    pub bid_turns: Vec<Arc<BidTurn>>,
    /// Every turn's speaker, whichever method chose them.
    pub picks: Vec<Arc<Pick>>,
    pub director: Vec<Arc<DirectorTurn>>,
    pub handoffs: Vec<Arc<HandoffRow>>,
    pub selections: Vec<Arc<SelectorRow>>,
    /// (from, to) to how many times.
    pub handoff_counts: BTreeMap<(String, String), u32>,
    pub negotiation: Option<NegotiationView>,
    pub calls: Vec<Arc<CallRow>>,
    pub stats: Stats,
    pub errors: Vec<String>,
    /// Why the run is paused at its spending cap, while it is.
    pub capped: Option<String>,
    pub topic_specified: Option<String>,
    pub descriptions: BTreeMap<String, String>,
    pub finished: Option<FinishReason>,
    /// The newest `verdict` event (`crate::judge`).
    pub verdict: Option<Arc<Event>>,
    /// The note of a `floor_given` event, until the message it is about.
    given: Option<String>,
    /// The student whose phone last answered a call, and for which agent, until that agent's
    /// message.
    answered_by: Option<(String, String)>,
    /// The trading game just started, until its first message.
    game_opening: Option<u32>,
}

impl RunView {
    /// Whether the speaker of the last turn chosen has spoken (true before any turn): the next
    /// turn is then the one under way.
    pub fn turn_spoken(&self) -> bool {
        self.turn == 0
            || self.transcript.iter().rev().find(|r| !r.injected).is_some_and(|r| r.turn >= self.turn)
    }

    /// Why the run ended, in words, once it has: a stop draw's ending names its odds, or the
    /// class that ended the show.
    pub fn ending(&self) -> Option<String> {
        let reason = self.finished?;
        Some(match (reason, self.director.last()) {
            (FinishReason::DirectorStopped, Some(d)) => {
                crate::methods::director::words::ended(d.probability, d.ended_by_class)
            }
            _ => reason.words().to_string(),
        })
    }

    /// Why this turn's latest call by `agent` for `purpose` (the one whose reply was read, or
    /// given up on) came out as it did: its refusal, if it was refused, and its reasoning.
    fn reasoning_of(&self, turn: u32, agent: &str, purpose: Purpose) -> String {
        let Some(call) = self
            .calls
            .iter()
            .rev()
            .take_while(|c| c.turn == turn)
            .find(|c| c.purpose == purpose && c.agent == agent)
        else {
            return String::new();
        };
        match &call.refusal {
            Some(r) if call.reasoning.is_empty() => r.describe(),
            Some(r) => format!("{}\n\n{}", r.describe(), call.reasoning),
            None => call.reasoning.clone(),
        }
    }

    pub fn from_events(events: &[Event]) -> RunView {
        let mut view = RunView::default();
        for e in events {
            view.apply(e);
        }
        view
    }

    /// The agents of the scenario, in order.
    pub fn agents(&self) -> Vec<String> {
        self.scenario.as_ref().map(|s| s.agent_names()).unwrap_or_default()
    }

    /// Folds in the next event of the log.
    pub fn apply(&mut self, event: &Event) {
        let index = self.applied;
        self.applied += 1;
        match event {
            Event::RunStarted { seed, scenario } => {
                *self = RunView {
                    applied: 1,
                    seed: *seed,
                    scenario: Some(Arc::new((**scenario).clone())),
                    ..RunView::default()
                };
            }
            Event::TopicSpecified { specified, .. } => self.topic_specified = Some(specified.clone()),
            Event::CharacterDescribed { agent, description } => {
                self.descriptions.insert(agent.clone(), description.clone());
            }
            Event::ModelCall {
                turn,
                agent,
                purpose,
                attempt,
                raw,
                parse,
                latency_ms,
                usage,
                reasoning,
                truncated,
                adapted,
                engine,
                refusal,
                sampling,
                human,
                by,
                ..
            } => {
                if *human {
                    self.answered = true;
                    self.answered_by = (!by.is_empty()).then(|| (agent.clone(), by.clone()));
                }
                if let Some(t) = engine {
                    self.stats.engine.add(t);
                }
                let count = |t: &mut Tally| {
                    t.calls += 1;
                    t.orchestration_calls += purpose.is_orchestration() as u32;
                    t.speech_calls += purpose.is_speech() as u32;
                    t.prompt_tokens += usage.prompt_tokens as u64;
                    t.completion_tokens += usage.completion_tokens as u64;
                    t.retries += (*attempt > 1) as u32;
                    t.refused += refusal.is_some() as u32;
                    if purpose.is_orchestration() {
                        t.orchestration_prompt_tokens += usage.prompt_tokens as u64;
                        t.orchestration_completion_tokens += usage.completion_tokens as u64;
                    }
                };
                // The judge's calls are costed apart from choosing and speaking.
                if *purpose == Purpose::Judge {
                    count(&mut self.stats.judge);
                } else {
                    self.stats.tally(agent, count);
                }
                if *purpose == Purpose::DirectorReflection {
                    let shown = match refusal {
                        Some(r) => format!("({})", r.describe()),
                        None => raw.clone(),
                    };
                    director::view::set_reflection(&mut self.director, *turn, shown);
                }
                self.calls.push(Arc::new(CallRow {
                    event: index,
                    turn: *turn,
                    agent: agent.clone(),
                    purpose: *purpose,
                    attempt: *attempt,
                    raw: raw.clone(),
                    parse: parse.clone(),
                    latency_ms: *latency_ms,
                    usage: *usage,
                    reasoning: reasoning.clone(),
                    truncated: *truncated,
                    adapted: adapted.clone(),
                    refusal: refusal.clone(),
                    sampling: sampling.as_deref().cloned(),
                }));
            }
            Event::Bid { turn, agent, raw, value, attempts, defaulted } => {
                if *defaulted {
                    self.stats.tally(agent, |t| t.fallbacks += 1);
                }
                let cell = BidCell {
                    agent: agent.clone(),
                    value: *value,
                    raw: raw.clone(),
                    attempts: *attempts,
                    defaulted: *defaulted,
                    why: self.reasoning_of(*turn, agent, Purpose::Bid),
                };
                bidding::view::add_bid(&mut self.bid_turns, *turn, cell);
            }
            Event::SpeakerSelected { turn, agent, tie, tied } => {
                self.turn = *turn;
                let pick = Pick { turn: *turn, agent: agent.clone(), tie: *tie, tied: tied.clone() };
                self.picks.push(Arc::new(pick));
                bidding::view::mark_winner(&mut self.bid_turns, *turn, agent, *tie, tied);
            }
            Event::FloorGiven { turn, agent, instead_of } => {
                let note = crate::events::floor_note(agent, instead_of);
                bidding::view::mark_given(&mut self.bid_turns, *turn, agent, note.clone());
                self.given = Some(note);
            }
            Event::Message { turn, speaker, text, kind, refusal } => {
                if *kind == MessageKind::Empty {
                    self.stats.tally(speaker, |t| t.empty += 1);
                }
                self.transcript.push(Arc::new(TranscriptRow {
                    id: self.transcript.len(),
                    turn: *turn,
                    speaker: speaker.clone(),
                    text: text.clone(),
                    injected: *kind == MessageKind::Injected,
                    kind: *kind,
                    refusal: refusal.clone(),
                    segments: segments(text),
                    you: self
                        .scenario
                        .as_ref()
                        .is_some_and(|s| crate::seat::said_by_person(&s.seats, speaker, *kind)),
                    by: match self.answered_by.take() {
                        Some((agent, by)) if agent == *speaker => by,
                        _ => String::new(),
                    },
                    given: if *kind == MessageKind::Injected { None } else { self.given.take() },
                    action: None,
                    game: self.game_opening.take(),
                    score: None,
                }));
            }
            Event::StopDraw { turn, sample, probability, stop, ended_by_class } => {
                director::view::add_stop_draw(
                    &mut self.director,
                    *turn,
                    *sample,
                    *probability,
                    *stop,
                    *ended_by_class,
                )
            }
            Event::DirectorChoice { turn, raw, index, agent, fallback } => {
                let attempts = self
                    .calls
                    .iter()
                    .rev()
                    .take_while(|c| c.turn == *turn)
                    .filter(|c| c.purpose == Purpose::DirectorChoice)
                    .count() as u32;
                let director = self.calls.last().map(|c| c.agent.clone()).unwrap_or_default();
                let why = self.reasoning_of(*turn, &director, Purpose::DirectorChoice);
                if *fallback {
                    self.stats.tally(&director, |t| t.fallbacks += 1);
                }
                let pick = DirectorPick {
                    director: director.clone(),
                    raw: raw.clone(),
                    index: *index,
                    agent: agent.clone(),
                    fallback: *fallback,
                    attempts,
                    why,
                };
                director::view::set_choice(&mut self.director, *turn, pick);
            }
            Event::Handoff { turn, from, to, method, raw, fallback, reason, missed } => {
                if *fallback {
                    self.stats.tally(from, |t| t.fallbacks += 1);
                }
                let row = HandoffRow {
                    turn: *turn,
                    from: from.clone(),
                    to: to.clone(),
                    method: method.clone(),
                    raw: raw.clone(),
                    fallback: *fallback,
                    reason: reason.as_ref().map(|r| handoff::words::why_missed(missed.as_ref(), r)),
                    why: self.reasoning_of(*turn, from, Purpose::Handoff),
                };
                handoff::view::add_handoff(&mut self.handoffs, &mut self.handoff_counts, row);
            }
            Event::SelectorChoice { turn, candidates, raw, agent, matched, attempts } => {
                let selector = crate::methods::selector::SELECTOR;
                if *matched == SelectorMatch::Fallback {
                    self.stats.tally(selector, |t| t.fallbacks += 1);
                }
                self.selections.push(Arc::new(SelectorRow {
                    turn: *turn,
                    candidates: candidates.clone(),
                    raw: raw.clone(),
                    agent: agent.clone(),
                    matched: *matched,
                    attempts: *attempts,
                    why: self.reasoning_of(*turn, selector, Purpose::Selector),
                }));
            }
            Event::GameStarted { iteration, prompts, optimum } => {
                self.game_opening = Some(*iteration);
                let game = self.negotiation.get_or_insert_with(NegotiationView::default);
                game.start_game(*iteration, *optimum, prompts);
            }
            Event::Action {
                turn,
                player,
                raw,
                action,
                valid,
                reason,
                invalid,
                pending,
                end_requested_by,
            } => {
                let reason = &negotiation::words::why_invalid(invalid.as_ref(), reason);
                if !valid {
                    self.stats.tally(player, |t| t.fallbacks += 1);
                }
                // The move's message came just before it: it reads as a sentence from now on.
                if let Some(said) =
                    self.transcript.last_mut().filter(|r| r.turn == *turn && r.speaker == *player)
                {
                    let line = negotiation::words::move_line(player, action.as_ref(), *valid, reason);
                    Arc::make_mut(said).action = Some(line);
                }
                let game = self.negotiation.get_or_insert_with(NegotiationView::default);
                let row = ActionRow {
                    turn: *turn,
                    iteration: game.iteration,
                    player: player.clone(),
                    raw: raw.clone(),
                    action: action.clone(),
                    valid: *valid,
                    reason: reason.clone(),
                };
                game.add_action(row, pending, end_requested_by);
            }
            Event::Inventory { resources, inventories, values, .. } => {
                let game = self.negotiation.get_or_insert_with(NegotiationView::default);
                game.set_inventories(resources, inventories, values);
            }
            Event::GameEnd { iteration, scores, overall, optimum, reason, feedback, .. } => {
                let game = self.negotiation.get_or_insert_with(NegotiationView::default);
                game.end_game(GameResult {
                    iteration: *iteration,
                    scores: scores.clone(),
                    overall: *overall,
                    optimum: *optimum,
                    reason: reason.clone(),
                    feedback: feedback.clone(),
                });
            }
            Event::OptimizerIteration { iteration, prompts, overall, next_prompts, note } => {
                let game = self.negotiation.get_or_insert_with(NegotiationView::default);
                game.optimizer.push(OptimizerRow {
                    iteration: *iteration,
                    prompts: prompts.clone(),
                    overall: *overall,
                    next_prompts: next_prompts.clone(),
                    note: note.clone(),
                });
            }
            Event::Error { message, .. } => self.errors.push(message.clone()),
            Event::SpendingCapReached { tokens, cost, cap, .. } => {
                self.capped = Some(cap_note(*tokens, *cost, cap))
            }
            Event::SpendingCapSet { .. } => self.capped = None,
            Event::RunFinished { reason } => self.finished = Some(*reason),
            // The room's panel shows the votes as they come (`crate::room`).
            Event::FloorVote { .. } => {}
            Event::Verdict { .. } => self.verdict = Some(Arc::new(event.clone())),
            Event::SpeechScored { turn, agent, judge, mean, reasoning, not_judged, .. } => {
                let said = self.transcript.iter_mut().rev().find(|r| r.turn == *turn && r.speaker == *agent);
                if let Some(said) = said {
                    Arc::make_mut(said).score = Some(match mean {
                        Some(m) => (crate::text::fixed(*m, 1), format!("Scored by {judge}: {reasoning}")),
                        None => ("–".into(), format!("Not scored by {judge}: {not_judged}")),
                    });
                }
            }
        }
    }
}

/// What the methods' decision panels (the app's `panels`) read of the run.
impl RunView {
    /// Every turn's speaker, whichever method chose them.
    pub fn picks(&self) -> &[Arc<Pick>] {
        &self.picks
    }
    pub fn bid_turns(&self) -> &[Arc<BidTurn>] {
        &self.bid_turns
    }
    pub fn director(&self) -> &[Arc<DirectorTurn>] {
        &self.director
    }
    pub fn handoffs(&self) -> &[Arc<HandoffRow>] {
        &self.handoffs
    }
    /// (from, to) to how many times.
    pub fn handoff_counts(&self) -> &BTreeMap<(String, String), u32> {
        &self.handoff_counts
    }
    pub fn selections(&self) -> &[Arc<SelectorRow>] {
        &self.selections
    }
    pub fn negotiation(&self) -> Option<&NegotiationView> {
        self.negotiation.as_ref()
    }
    /// The run has ended (a turn without its speaker then never gets one).
    pub fn finished(&self) -> bool {
        self.finished.is_some()
    }
    /// Bids per agent across the last `turns` turns, for the small history chart: for each agent,
    /// its bid in each of those turns, oldest first.
    pub fn bid_history(&self, turns: usize) -> Vec<(String, Vec<i64>)> {
        crate::methods::bidding::view::bid_history(self.bid_turns(), self.agents(), turns)
    }
}

/// Who was given the floor in a turn, as its `speaker_selected` event says: when the run's RNG
/// chose (a tie, or a random draw), `tied` lists whom it chose among.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pick {
    pub turn: u32,
    pub agent: String,
    pub tie: bool,
    pub tied: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gestures_are_split_from_speech() {
        assert_eq!(
            segments("*waves* Hello *bows deeply*"),
            vec![
                Segment::Gesture("waves".into()),
                Segment::Speech(" Hello ".into()),
                Segment::Gesture("bows deeply".into())
            ]
        );
        assert_eq!(segments("5 * 3 = 15"), vec![Segment::Speech("5 * 3 = 15".into())]);
        assert_eq!(
            segments("a ** b"),
            vec![Segment::Speech("a ".into()), Segment::Speech("**".into()), Segment::Speech(" b".into())]
        );
        assert_eq!(segments(""), vec![]);
    }
}
