//! The engine: runs a scenario turn by turn against a `ChatModel` and records everything in the
//! event log.
//!
//! A [`Run`] owns the run's one seeded RNG, the transcript and the log. Each speaker-selection
//! method lives in its own module under `methods/` and plays one turn at a time through the
//! helpers here (asking the model with retries, recording calls, adding messages), so the same
//! scenario, seed and model replies always give the same log, timings aside.

use std::rc::Rc;

use crate::clock::Clock;
use crate::events::{Event, FinishReason, MessageKind, ParseOutcome};
use crate::floor::{Floor, GivenFloor};
use crate::methods::MethodState;
use crate::model::{ChatMessage, ChatModel, ChatRequest, Cue, ModelError, Purpose};
use crate::prompts::fill;
use crate::scenario::{FieldError, Scenario, SpendingCap};
use crate::transcript::Transcript;

/// Whether the run goes on after a step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepOutcome {
    Continue,
    Finished(FinishReason),
    /// The spending cap is reached: nothing was played. Raise it
    /// ([`Run::set_spending_cap`]) and step again.
    Capped,
}

/// A run: its [`Floor`] and the speaker-selection method playing on it, and the control around
/// them (the opening, finishing, the spending cap).
/// Gives the class's floor to a run's next choice of speaker, from outside the run: a floor
/// given while a step is under way reaches that step's choice if it is still to be made.
#[derive(Clone, Debug)]
pub struct FloorDesk {
    given: GivenFloor,
    scenario: Rc<Scenario>,
}

impl FloorDesk {
    /// Gives `agent` the floor once (see [`Run::give_floor`]).
    pub fn give(&self, agent: &str) -> Result<(), String> {
        if let Some(why) = self.scenario.method.kind().fixed_floor() {
            return Err(why().into());
        }
        let index =
            self.scenario.agent_index(agent).ok_or_else(|| format!("\"{agent}\" is not in the cast"))?;
        self.given.give(index);
        Ok(())
    }

    /// The agent given the floor whose turn has not come yet, and whether the step under way
    /// has chosen its speaker already (then that agent speaks in the next turn, not this one).
    pub fn given(&self) -> Option<(&str, bool)> {
        let agent = self.given.agent()?;
        Some((self.scenario.agents[agent].name.as_str(), self.given.chosen()))
    }
}

pub struct Run {
    floor: Floor,
    /// The method's own state, from the end of the opening on.
    method: Option<MethodState>,
    started: bool,
    finished: Option<FinishReason>,
    /// The cap in force (the scenario's, until the user changes it).
    cap: SpendingCap,
    /// The cap's pause is recorded once until the cap changes.
    cap_noted: bool,
}

/// Seed 000's character descriptions: one request per agent, as a run's opening makes them, with
/// `description_of_conversation` filled in (see [`crate::floor::conversation_description`]).
pub fn description_requests(scenario: &Scenario, description_of_conversation: &str) -> Vec<ChatRequest> {
    let opening = &scenario.opening;
    let language = scenario.language_line();
    scenario
        .agents
        .iter()
        .map(|a| {
            let prompt = fill(
                &opening.describer_prompt,
                &[
                    ("description_of_conversation", description_of_conversation),
                    ("name", &a.name),
                    ("role", &a.role),
                    ("location", &a.location),
                    ("word_limit", &scenario.word_limit.to_string()),
                ],
            );
            let mut req = ChatRequest::new(
                a.name.clone(),
                Purpose::CharacterDescription,
                vec![ChatMessage::system(&opening.describer_system), ChatMessage::user(prompt)],
            )
            .with_cue(Cue::Describe {
                subject: a.name.clone(),
                topic: scenario.topic.clone(),
                word_limit: scenario.word_limit,
            })
            .in_language(language.as_deref());
            req.temperature = Some(1.0);
            req
        })
        .collect()
}

/// The scenario's cast described for its topic by `model`, outside a run (the editor's "write
/// descriptions" offer): the same requests a run's opening sends, all at once; for each agent, its
/// name and the description, or why there is none.
pub async fn describe_cast(
    scenario: &Scenario,
    model: &dyn ChatModel,
) -> Vec<(String, Result<String, String>)> {
    let about = crate::floor::conversation_description(scenario, &scenario.topic);
    let requests = description_requests(scenario, &about);
    let replies = futures::future::join_all(requests.iter().map(|r| model.complete(r))).await;
    requests
        .iter()
        .zip(replies)
        .map(|(req, reply)| {
            let described = match reply {
                Err(e) => Err(e.to_string()),
                Ok(r) => match r.refusal {
                    Some(refusal) => Err(refusal.describe()),
                    None if r.content.trim().is_empty() => Err("the model answered with nothing".into()),
                    None => Ok(r.content.trim().to_string()),
                },
            };
            (req.agent.clone(), described)
        })
        .collect()
}

impl Run {
    /// Prepares a run; nothing is asked of the model until the first step. The errors name each
    /// field of the scenario that is wrong.
    pub fn new(
        scenario: Scenario,
        model: Rc<dyn ChatModel>,
        clock: Rc<dyn Clock>,
    ) -> Result<Run, Vec<FieldError>> {
        scenario.validate()?;
        let scenario_cap = scenario.model.spending_cap;
        let floor = Floor::new(scenario, model, clock);
        Ok(Run { floor, method: None, started: false, finished: None, cap: scenario_cap, cap_noted: false })
    }

    pub fn scenario(&self) -> &Scenario {
        &self.floor.scenario
    }

    pub fn events(&self) -> &[Event] {
        &self.floor.events
    }

    pub fn transcript(&self) -> &Transcript {
        &self.floor.transcript
    }

    pub fn turn(&self) -> u32 {
        self.floor.turn
    }

    pub fn finish_reason(&self) -> Option<FinishReason> {
        self.finished
    }

    /// Plays the next step: the opening (setup calls and the injected message) on the first call,
    /// then one turn per call.
    pub async fn step(&mut self) -> StepOutcome {
        if let Some(reason) = self.finished {
            return StepOutcome::Finished(reason);
        }
        self.floor.given.begin_step();
        let (tokens, spent) = self.floor.spent();
        if self.started && self.cap.reached(tokens, spent) {
            if !self.cap_noted {
                self.cap_noted = true;
                let cost = self.floor.scenario.model.price.map(|_| spent);
                let turn = self.floor.turn;
                self.floor.push(Event::SpendingCapReached { turn, tokens, cost, cap: self.cap });
            }
            return StepOutcome::Capped;
        }
        let opened = if self.started { None } else { Some(self.open().await) };
        // An opening that shows nothing (a method with no opening message, such as the trading
        // game, and no opening steps) is no step of its own: the first turn follows at once, so
        // the first Step shows the run begin. (One await of the turn: its future is the largest
        // the page has.)
        let opened = opened.filter(|o| !(matches!(o, Ok(None)) && self.floor.events.len() == 1));
        let result = match opened {
            Some(opened) => opened,
            None => self.play_turn().await,
        };
        match result {
            Ok(None) => StepOutcome::Continue,
            Ok(Some(reason)) => self.finish(reason),
            Err(ModelError::Cancelled) => self.finish(FinishReason::Stopped),
            Err(e) => {
                let turn = self.floor.turn;
                self.floor.push(Event::Error { turn, message: format!("turn {turn}: {e}") });
                self.finish(FinishReason::Error)
            }
        }
    }

    /// Steps until the run finishes ([`StepOutcome::Finished`]) or pauses at its spending cap
    /// ([`StepOutcome::Capped`]).
    pub async fn run_to_end(&mut self) -> StepOutcome {
        loop {
            match self.step().await {
                StepOutcome::Continue => {}
                end => return end,
            }
        }
    }

    fn finish(&mut self, reason: FinishReason) -> StepOutcome {
        self.floor.push(Event::RunFinished { reason });
        self.finished = Some(reason);
        StepOutcome::Finished(reason)
    }

    async fn play_turn(&mut self) -> Result<Option<FinishReason>, ModelError> {
        let Some(method) = &mut self.method else {
            return Err(ModelError::Unavailable("the run has no method: its opening did not finish".into()));
        };
        let floor = &mut self.floor;
        floor.turn += 1;
        match method.turn(floor).await {
            Ok(None)
                if floor.scenario.method.kind().ends_at_turn_limit()
                    && floor.turn >= floor.scenario.max_turns =>
            {
                Ok(Some(FinishReason::TurnLimit))
            }
            other => other,
        }
    }

    /// Seed 000's preparation: the optional topic specifier and character descriptions, then the
    /// opening message injected into the conversation.
    async fn open(&mut self) -> Result<Option<FinishReason>, ModelError> {
        self.started = true;
        let floor = &mut self.floor;
        let scenario = floor.scenario.clone();
        floor.push(Event::RunStarted { seed: scenario.seed, scenario: Box::new((*scenario).clone()) });
        let opening = &scenario.opening;
        let names = scenario.agent_names().join(", ");

        let mut opening_text = opening.text.trim().to_string();
        let mut descriptions: Vec<String> = scenario.agents.iter().map(|a| a.description.clone()).collect();
        if opening.describe_characters {
            let requests = description_requests(&scenario, &floor.conversation_description());
            let replies = {
                let this = &*floor;
                futures::future::join_all(requests.iter().map(|r| this.ask(r))).await
            };
            for ((req, reply), description) in requests.iter().zip(replies).zip(&mut descriptions) {
                let reply = reply?;
                // A refused description leaves the scenario's own in place.
                if let Some(refusal) = &reply.response.refusal {
                    floor.record_call(req, 1, &reply, ParseOutcome::failed(refusal.describe()));
                    continue;
                }
                let text = reply.response.content.trim().to_string();
                floor.record_call(req, 1, &reply, ParseOutcome::used());
                floor.push(Event::CharacterDescribed { agent: req.agent.clone(), description: text.clone() });
                *description = text;
            }
        }

        if opening.specify_topic {
            let prompt = fill(
                &opening.specifier_prompt,
                &[
                    ("description_of_conversation", &floor.conversation_description()),
                    ("word_limit", &scenario.word_limit.to_string()),
                    ("names", &names),
                    ("names_tuple", &crate::prompts::python_tuple(&scenario.agent_names())),
                    ("topic", &scenario.topic),
                ],
            );
            let mut req = ChatRequest::new(
                opening.speaker.clone(),
                Purpose::TopicSpecifier,
                vec![ChatMessage::system(&opening.specifier_system), ChatMessage::user(prompt)],
            )
            .with_cue(Cue::Describe {
                subject: scenario.topic.clone(),
                topic: scenario.topic.clone(),
                word_limit: scenario.word_limit,
            })
            .in_language(floor.language.as_deref());
            req.temperature = Some(1.0);
            let reply = floor.ask(&req).await?;
            // A refused specification leaves the topic as the scenario gives it.
            if let Some(refusal) = &reply.response.refusal {
                floor.record_call(&req, 1, &reply, ParseOutcome::failed(refusal.describe()));
            } else {
                let specified = reply.response.content.trim().to_string();
                floor.record_call(&req, 1, &reply, ParseOutcome::used());
                floor.push(Event::TopicSpecified {
                    original: scenario.topic.clone(),
                    specified: specified.clone(),
                });
                if opening_text.is_empty() {
                    opening_text = specified;
                }
            }
        }

        let cast = scenario
            .agents
            .iter()
            .zip(descriptions)
            .map(|(agent, description)| floor.persona(agent, description))
            .collect();
        floor.cast = cast;

        let state = MethodState::new(floor);
        if floor.scenario.method.kind().injects_opening() {
            if opening_text.is_empty() {
                opening_text = floor.topic.clone();
            }
            floor.add_message(&opening.speaker, &opening_text, MessageKind::Injected);
        }
        self.method = Some(state);
        Ok(None)
    }

    /// Changes the spending cap (raising it lets a capped run go on); the change is recorded.
    pub fn set_spending_cap(&mut self, cap: SpendingCap) {
        if cap != self.cap {
            self.cap = cap;
            self.cap_noted = false;
            let turn = self.floor.turn;
            self.floor.push(Event::SpendingCapSet { turn, cap });
        }
    }

    /// Ends the run at the user's request; the log closes with `run_finished: stopped`.
    pub fn stop(&mut self) {
        if self.finished.is_none() {
            self.finish(FinishReason::Stopped);
        }
    }

    /// Seed 000's `inject`: a message from outside the cast (a moderator, the audience) that
    /// every agent hears. Takes effect from the next turn.
    pub fn inject(&mut self, speaker: &str, text: &str) {
        self.floor.add_message(speaker, text, MessageKind::Injected);
    }

    /// A student's vote, from their phone, for `agent` to speak next: recorded between steps
    /// (a `floor_vote` event), as an interjection is; what it decides is the teacher's (Give the
    /// floor).
    pub fn vote(&mut self, by: &str, agent: &str) -> Result<(), String> {
        if self.finished.is_some() {
            return Err("the run has finished".into());
        }
        if !self.floor.scenario.agents.iter().any(|a| a.name == agent) {
            return Err(format!("{agent} is not in this run"));
        }
        let turn = self.floor.turn;
        self.floor.push(Event::FloorVote { turn, by: by.to_string(), agent: agent.to_string() });
        Ok(())
    }

    /// Gives `agent` the floor once: the method's next choice of speaker is still made and
    /// recorded, and `agent` speaks instead (a `floor_given` event beside the choice).
    pub fn give_floor(&mut self, agent: &str) -> Result<(), String> {
        if self.finished.is_some() {
            return Err("the run has finished".into());
        }
        self.floor_desk().give(agent)
    }

    /// The floor the class gives, for the holder of the run to give while a step has the run.
    pub fn floor_desk(&self) -> FloorDesk {
        FloorDesk { given: self.floor.given.clone(), scenario: self.floor.scenario.clone() }
    }

    /// "End the show": the director's next stop draw stops the run, whatever it draws (the draw
    /// is still made and recorded, with `ended_by_class`).
    pub fn end_show(&mut self) -> Result<(), String> {
        if !self.floor.scenario.method.kind().ends_on_request() {
            return Err("only a director's show can be ended this way".into());
        }
        if self.finished.is_some() {
            return Err("the run has finished".into());
        }
        self.floor.end_requested = true;
        Ok(())
    }

    /// Whether "End the show" waits for the director's next turn (never once the run is over).
    pub fn show_ending(&self) -> bool {
        self.floor.end_requested && self.finished.is_none()
    }

    /// The agent given the floor whose turn has not come yet (none once the run is over).
    pub fn floor_given(&self) -> Option<&str> {
        self.floor
            .given
            .agent()
            .filter(|_| self.finished.is_none())
            .map(|i| self.floor.scenario.agents[i].name.as_str())
    }

    /// Tokens spent so far, and their cost at the scenario's prices (0 without prices).
    pub fn spent(&self) -> (u64, f64) {
        self.floor.spent()
    }

    /// Each agent's system message as its calls will send it (the scenario's descriptions, before
    /// any opening step writes new ones).
    pub fn system_messages(&self) -> Vec<(String, String)> {
        let agents = self.floor.scenario.agents.clone();
        agents.iter().map(|a| (a.name.clone(), self.floor.persona(a, a.description.clone()).system)).collect()
    }

    /// Calls `listener` with every event from now on, as it is recorded (the events so far are in
    /// [`Run::events`]).
    pub fn set_listener(&mut self, listener: impl FnMut(&Event) + 'static) {
        self.floor.set_listener(listener);
    }

    /// Swaps in the recorded log after a run has caught up with a recording (see
    /// [`crate::replay::continue_live`]), so the timings measured when it was recorded are kept.
    /// Refused unless the two logs match but for timings.
    pub(crate) fn adopt_recorded_log(&mut self, recorded: &[Event]) -> bool {
        self.floor.adopt_recorded_log(recorded)
    }
}

/// The whole event log of `scenario` on the demo model with a frozen clock, for the unit tests of
/// the modules that read or show event logs (the integration tests have `common::run_demo`).
#[cfg(test)]
pub(crate) fn demo_events(scenario: &Scenario) -> Vec<Event> {
    let clock = Rc::new(crate::clock::FrozenClock);
    let model = Rc::new(crate::demo::DemoModel::new(scenario, clock.clone()));
    let mut run = Run::new(scenario.clone(), model, clock).expect("the test scenario is valid");
    futures::executor::block_on(run.run_to_end());
    run.events().to_vec()
}
