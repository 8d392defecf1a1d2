//! Seats driven by a scripted person: each method reads the form's reply as it reads a model's,
//! and the log records who answered.

use std::cell::RefCell;
use std::rc::Rc;

use futures::executor::block_on;
use futures::future::LocalBoxFuture;

use super::*;
use crate::clock::FrozenClock;
use crate::demo::DemoModel;
use crate::engine::Run;
use crate::events::Event;
use crate::scenario::{HandoffVia, Method, Scenario};

/// A person who answers with `pick`, and remembers every question and every problem shown.
struct Person {
    pick: Box<dyn Fn(&Question) -> Answer>,
    asked: RefCell<Vec<Question>>,
    problems: RefCell<Vec<String>>,
}

impl Desk for Person {
    fn ask<'a>(
        &'a self,
        question: &'a Question,
        problem: Option<&'a str>,
    ) -> LocalBoxFuture<'a, Result<(Answer, String), ModelError>> {
        self.asked.borrow_mut().push(question.clone());
        if let Some(p) = problem {
            self.problems.borrow_mut().push(p.to_string());
        }
        let answer = (self.pick)(question);
        Box::pin(async move { Ok((answer, String::new())) })
    }
}

/// A run of `scenario` on the demo model, its seats answered at `desk`; the frozen clock's
/// waits end at once (a seat with a time limit times out at once).
fn seated(scenario: Scenario, desk: Rc<dyn Desk>) -> Run {
    let clock: Rc<dyn crate::clock::Clock> = Rc::new(FrozenClock);
    let demo: Rc<dyn ChatModel> = Rc::new(DemoModel::new(&scenario, clock.clone()));
    let model = Rc::new(Seated::new(demo, &scenario, desk, clock.clone()));
    Run::new(scenario, model, clock).unwrap()
}

fn seated_run(
    mut scenario: Scenario,
    seat: &str,
    pick: impl Fn(&Question) -> Answer + 'static,
) -> (Vec<Event>, Rc<Person>) {
    let person =
        Rc::new(Person { pick: Box::new(pick), asked: RefCell::default(), problems: RefCell::default() });
    scenario.seats = check_seats(&scenario, &[seat.to_string()]).unwrap();
    let mut run = seated(scenario, person.clone());
    block_on(run.run_to_end());
    (run.events().to_vec(), person)
}

fn preset(id: &str, turns: u32) -> Scenario {
    let mut s = crate::presets::find(id).unwrap().scenario();
    s.max_turns = turns;
    s
}

fn human_calls<'a>(events: &'a [Event], agent: &str) -> Vec<&'a Event> {
    events
        .iter()
        .filter(|e| matches!(e, Event::ModelCall { agent: a, human: true, .. } if a == agent))
        .collect()
}

#[test]
fn a_seated_bidder_bids_and_speaks_as_recorded() {
    let scenario = preset("rail-debate", 4);
    let me = scenario.agents[0].name.clone();
    let (events, person) = seated_run(scenario, &me, |q| match q.form {
        Form::Number { .. } => Answer::Number(10),
        _ => Answer::Text("The trains will run on time, I promise you.".into()),
    });
    // Every bid of the seat is the person's 10, read by the seed's bid parser.
    let bids: Vec<i64> = events
        .iter()
        .filter_map(|e| match e {
            Event::Bid { agent, value, .. } if *agent == me => Some(*value),
            _ => None,
        })
        .collect();
    assert_eq!(bids, vec![10; 4]);
    let said: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Event::Message { speaker, text, .. } if *speaker == me => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert!(!said.is_empty(), "a top bid wins the floor at least once");
    assert!(said.iter().all(|t| *t == "The trains will run on time, I promise you."));
    // The seat also writes its own character description in the opening (seed 000 asks a model).
    assert_eq!(human_calls(&events, &me).len(), 1 + 4 + said.len());
    // The Markdown marks the person's speeches, and only those.
    let markdown = crate::export::to_markdown(&events);
    assert_eq!(markdown.matches(&format!("**({me}, you):**")).count(), said.len());
    assert_eq!(markdown.matches(", you):**").count(), said.len());
    // Nobody else was asked at the desk, and the bid question is the seed's prompt.
    assert!(person.asked.borrow().iter().all(|q| q.agent == me));
    let asked = person.asked.borrow();
    assert_eq!(asked[0].purpose, Purpose::CharacterDescription, "the opening asks for a description");
    assert!(matches!(asked[0].form, Form::Text { .. }));
    let first = &asked[1];
    assert_eq!(first.form, Form::Number { lo: 1, hi: 10 });
    assert!(first.prompt.contains("On the scale of 1 to 10"), "{}", first.prompt);
    // The other agents' calls are the demo model's.
    assert!(events.iter().any(|e| matches!(e, Event::ModelCall { agent, human: false, .. } if *agent != me)));
}

#[test]
fn an_answer_outside_the_form_is_explained_and_asked_again() {
    let scenario = preset("rail-debate", 1);
    let me = scenario.agents[1].name.clone();
    let tries = Rc::new(RefCell::new(0));
    let t = tries.clone();
    let (events, person) = seated_run(scenario, &me, move |q| match q.form {
        Form::Number { .. } => {
            *t.borrow_mut() += 1;
            Answer::Number(if *t.borrow() == 1 { 11 } else { 3 })
        }
        _ => Answer::Text("Fine.".into()),
    });
    assert_eq!(person.problems.borrow().as_slice(), ["the number must be from 1 to 10"]);
    assert!(events.iter().any(|e| matches!(e, Event::Bid { agent, value: 3, .. } if *agent == me)));
}

#[test]
fn a_seated_director_chooses_the_next_speaker_by_name() {
    let scenario = preset("daily-show-director", 3);
    let Method::Director(settings) = &scenario.method else { panic!("a director preset") };
    let director = settings.director.clone();
    let (events, person) = seated_run(scenario, &director, |q| match &q.form {
        Form::Choice { options, by_index: true } => Answer::Choice(options.len() - 1),
        _ => Answer::Text("Let us hear from someone else.".into()),
    });
    let chosen: Vec<(&str, bool)> = events
        .iter()
        .filter_map(|e| match e {
            Event::DirectorChoice { agent, fallback, .. } => Some((agent.as_str(), *fallback)),
            _ => None,
        })
        .collect();
    assert!(!chosen.is_empty());
    let offered: Vec<Vec<String>> = person
        .asked
        .borrow()
        .iter()
        .filter_map(|q| match &q.form {
            Form::Choice { options, .. } => Some(options.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(offered.len(), chosen.len());
    for ((agent, fallback), options) in chosen.iter().zip(&offered) {
        assert!(!fallback);
        assert_eq!(*agent, options.last().unwrap());
    }
}

#[test]
fn a_seated_selector_names_a_candidate() {
    let scenario = preset("town-hall-selector", 3);
    let (events, _) = seated_run(scenario, "selector", |q| match &q.form {
        Form::Choice { options, by_index: false } => Answer::Choice(options.len() - 1),
        _ => Answer::Text("?".into()),
    });
    let picks: Vec<(&Vec<String>, &str)> = events
        .iter()
        .filter_map(|e| match e {
            Event::SelectorChoice { candidates, agent, attempts: 1.., .. } => {
                Some((candidates, agent.as_str()))
            }
            _ => None,
        })
        .collect();
    assert!(!picks.is_empty());
    for (candidates, agent) in picks {
        assert_eq!(agent, candidates.last().unwrap());
    }
}

#[test]
fn a_seated_handoff_is_read_in_every_mode() {
    for via in [HandoffVia::Text, HandoffVia::Tool, HandoffVia::Json] {
        let mut scenario = preset("ai-morality-handoff", 3);
        let Method::Handoff(settings) = &mut scenario.method else { panic!("a handoff preset") };
        settings.via = via;
        let me = scenario.agents[0].name.clone();
        let (events, person) = seated_run(scenario, &me, |q| match &q.form {
            Form::Handoff { options, .. } => {
                Answer::Handoff { speech: "I pass this on.".into(), to: options.len() - 1 }
            }
            _ => Answer::Text("?".into()),
        });
        let mine: Vec<(&str, bool)> = events
            .iter()
            .filter_map(|e| match e {
                Event::Handoff { from, to, fallback, .. } if *from == me => Some((to.as_str(), *fallback)),
                _ => None,
            })
            .collect();
        assert!(!mine.is_empty(), "{via:?}");
        let options = person.asked.borrow().iter().find_map(|q| match &q.form {
            Form::Handoff { options, .. } => Some(options.clone()),
            _ => None,
        });
        let last = options.unwrap().last().unwrap().clone();
        for (to, fallback) in mine {
            assert!(!fallback, "{via:?}");
            assert!(to.eq_ignore_ascii_case(&last), "{via:?}: {to} / {last}");
        }
        assert!(events.iter().any(|e| matches!(e, Event::Message { speaker, text, .. } if *speaker == me && text.contains("I pass this on."))), "{via:?}");
    }
}

#[test]
fn a_trading_action_against_the_rules_is_explained_before_it_is_sent() {
    let scenario = preset("trading-game", 4);
    let me = scenario.agents[0].name.clone();
    let tried = Rc::new(RefCell::new(0));
    let t = tried.clone();
    let (events, person) = seated_run(scenario, &me, move |q| match &q.form {
        Form::Trade { game, seat, .. } => {
            *t.borrow_mut() += 1;
            let held = game.inventories[*seat][0];
            let quantity = if *t.borrow() == 1 { held + 1 } else { 1 };
            Answer::Trade(Action::Trade {
                sell_resource: game.resources[0].clone(),
                buy_resource: game.resources[1].clone(),
                quantity,
            })
        }
        _ => Answer::Text("?".into()),
    });
    let problems = person.problems.borrow();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].starts_with("not allowed: the proposer has only"), "{}", problems[0]);
    // What was sent is a valid action, recorded as the person's.
    let mine: Vec<bool> = events
        .iter()
        .filter_map(|e| match e {
            Event::Action { player, valid, .. } if *player == me => Some(*valid),
            _ => None,
        })
        .collect();
    assert!(!mine.is_empty());
    assert!(mine.iter().all(|v| *v));
    assert!(!human_calls(&events, &me).is_empty());
}

#[test]
fn a_seat_must_be_in_the_scenario() {
    let scenario = preset("rail-debate", 1);
    let err = check_seats(&scenario, &["Nobody".into()]).unwrap_err();
    assert!(err.starts_with("no seat \"Nobody\" in this scenario; the seats are "), "{err}");
    let name = scenario.agents[0].name.to_uppercase();
    assert_eq!(check_seats(&scenario, &[name]).unwrap(), vec![scenario.agents[0].name.clone()]);
}

#[test]
fn a_recorded_seat_replays_as_it_was_answered() {
    let scenario = preset("rail-debate", 3);
    let me = scenario.agents[2].name.clone();
    let (events, _) = seated_run(scenario, &me, |q| match q.form {
        Form::Number { .. } => Answer::Number(9),
        _ => Answer::Text("Hear me out.".into()),
    });
    // Answered from the recording alone, the run comes out the same, the seat still marked.
    let script: Rc<dyn ChatModel> = Rc::new(crate::scripted::ScriptedModel::from_events(&events));
    let Some(Event::RunStarted { scenario: recorded, .. }) = events.first() else { panic!("a run starts") };
    assert_eq!(recorded.seats, vec![me.clone()]);
    let mut again = Run::new((**recorded).clone(), script, Rc::new(FrozenClock)).unwrap();
    block_on(again.run_to_end());
    let strip = |es: &[Event]| es.iter().map(Event::without_timings).collect::<Vec<_>>();
    assert_eq!(strip(again.events()), strip(&events));
    assert!(!human_calls(again.events(), &me).is_empty());
}

#[test]
fn a_scenario_names_its_seats_and_a_wrong_one_is_refused() {
    let mut scenario = preset("town-hall-selector", 2);
    scenario.seats = vec!["Selector".into(), scenario.agents[0].name.clone()];
    let text = scenario.to_json_pretty();
    assert!(text.contains("\"seats\""));
    assert_eq!(Scenario::from_json(&text).unwrap().seats, scenario.seats);
    scenario.seats.push("Selector".into());
    scenario.seats.push("Nobody".into());
    let errors: Vec<String> = scenario.validate().unwrap_err().iter().map(ToString::to_string).collect();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors[0].contains("seats[2]") && errors[0].contains("taken twice"), "{errors:?}");
    assert!(errors[1].contains("seats[3]") && errors[1].contains("not in the cast"), "{errors:?}");
    // Left out of a scenario without seats, so older files and links read the same.
    assert!(!preset("rail-debate", 1).to_json_pretty().contains("seats"));
}

/// A person who never answers: the seat's time runs out on every question.
#[derive(Default)]
struct Away {
    asked: RefCell<Vec<Question>>,
    withdrawn: RefCell<usize>,
}

impl Desk for Away {
    fn ask<'a>(
        &'a self,
        question: &'a Question,
        _problem: Option<&'a str>,
    ) -> LocalBoxFuture<'a, Result<(Answer, String), ModelError>> {
        self.asked.borrow_mut().push(question.clone());
        Box::pin(futures::future::pending())
    }

    fn withdraw(&self, _question: &Question) {
        *self.withdrawn.borrow_mut() += 1;
    }
}

/// A run with `seat` taken by nobody who answers, and a time limit (every question times out).
fn run_away(mut scenario: Scenario, seat: &str, timeout_s: u32) -> (Vec<Event>, Rc<Away>) {
    let away = Rc::new(Away::default());
    scenario.seats = vec![seat.to_string()];
    scenario.seat_timeout_s = timeout_s;
    let mut run = seated(scenario, away.clone());
    block_on(run.run_to_end());
    (run.events().to_vec(), away)
}

#[test]
fn a_seat_that_times_out_takes_the_seeds_retry_and_default_bid() {
    let mut scenario = preset("rail-debate", 3);
    scenario.opening.describe_characters = false;
    let me = scenario.agents[0].name.clone();
    let default_bid = match &scenario.method {
        Method::Bidding(b) => b.default_bid,
        _ => unreachable!(),
    };
    let (events, away) = run_away(scenario, &me, 30);
    let bids: Vec<(i64, u32, bool)> = events
        .iter()
        .filter_map(|e| match e {
            Event::Bid { agent, value, attempts, defaulted, .. } if *agent == me => {
                Some((*value, *attempts, *defaulted))
            }
            _ => None,
        })
        .collect();
    assert_eq!(bids.len(), 3);
    let calls = human_calls(&events, &me);
    // Each bid went through the seed's attempts and fell to its default...
    for (value, attempts, defaulted) in &bids {
        assert_eq!((*value, *defaulted), (default_bid, true));
        assert!(*attempts > 1, "the unanswered bid is retried as an unreadable reply");
    }
    assert_eq!(calls.len() as u32, bids.iter().map(|b| b.1).sum::<u32>());
    for call in &calls {
        let Event::ModelCall { refusal, parse, .. } = call else { unreachable!() };
        assert_eq!(refusal.as_ref().map(|r| r.kind), Some(RefusalKind::Unanswered));
        assert!(parse.error.as_deref().is_some_and(|e| e.contains("did not answer in time")), "{parse:?}");
    }
    // ...but the person waited once per question: a retry of the same question is not asked again.
    assert_eq!(away.asked.borrow().len(), 3);
    assert_eq!(*away.withdrawn.borrow(), 3);
}

#[test]
fn a_seat_that_times_out_on_its_speech_is_recorded_as_unanswered() {
    let mut scenario = preset("rail-debate", 4);
    scenario.opening.describe_characters = false;
    scenario.method = Method::RoundRobin(Default::default());
    let me = scenario.agents[1].name.clone();
    let (events, _) = run_away(scenario, &me, 5);
    let mine: Vec<(&str, MessageKind)> = events
        .iter()
        .filter_map(|e| match e {
            Event::Message { speaker, text, kind, .. } if *speaker == me => Some((text.as_str(), *kind)),
            _ => None,
        })
        .collect();
    assert!(!mine.is_empty());
    assert!(mine.iter().all(|m| *m == ("", MessageKind::Unanswered)), "{mine:?}");
    // The others went on speaking after the seat's turn passed.
    let said = events.iter().filter(|e| matches!(e, Event::Message { kind: MessageKind::Agent, .. })).count();
    assert!(said >= 2, "{said}");
    let markdown = crate::export::to_markdown(&events);
    assert!(markdown.contains("the person in the seat did not answer in time"), "{markdown}");
}

#[test]
fn without_a_time_limit_a_seat_waits_for_its_answer() {
    let mut scenario = preset("rail-debate", 2);
    scenario.opening.describe_characters = false;
    let me = scenario.agents[0].name.clone();
    let (events, away) = {
        let away = Rc::new(Away::default());
        scenario.seats = vec![me.clone()];
        let mut run = seated(scenario, away.clone());
        // The run cannot end while the seat waits: one poll leaves it waiting on the person.
        let mut step = Box::pin(run.run_to_end());
        let waker = futures::task::noop_waker();
        let mut cx = std::task::Context::from_waker(&waker);
        assert!(std::future::Future::poll(step.as_mut(), &mut cx).is_pending());
        drop(step);
        (run.events().to_vec(), away)
    };
    assert_eq!(away.asked.borrow().len(), 1);
    assert_eq!(*away.withdrawn.borrow(), 0);
    assert!(!events.iter().any(|e| matches!(e, Event::ModelCall { human: true, .. })));
}

/// A clock whose sleeps end at once and are added up.
#[derive(Default)]
struct Tally(RefCell<u64>);

impl crate::clock::Clock for Tally {
    fn now_ms(&self) -> f64 {
        *self.0.borrow() as f64
    }
    fn sleep(&self, ms: u64) -> LocalBoxFuture<'static, ()> {
        *self.0.borrow_mut() += ms;
        Box::pin(async {})
    }
}

/// A person who has gone, in a run held (paused) for the first `held` times the limit looks.
struct HeldAway {
    held: RefCell<u32>,
}

impl Desk for HeldAway {
    fn ask<'a>(
        &'a self,
        _q: &'a Question,
        _p: Option<&'a str>,
    ) -> LocalBoxFuture<'a, Result<(Answer, String), ModelError>> {
        Box::pin(futures::future::pending())
    }

    fn held(&self) -> bool {
        let mut left = self.held.borrow_mut();
        *left = left.saturating_sub(1);
        *left > 0
    }
}

#[test]
fn a_seats_time_limit_does_not_run_while_the_run_is_held() {
    // Not held: the limit is the time slept.
    let clock = Tally::default();
    block_on(super::time_limit(&clock, &HeldAway { held: RefCell::new(0) }, 3_000));
    assert_eq!(*clock.0.borrow(), 3_000);
    // Held for the first four half-second looks: two more seconds pass before the limit ends.
    let clock = Tally::default();
    block_on(super::time_limit(&clock, &HeldAway { held: RefCell::new(5) }, 3_000));
    assert_eq!(*clock.0.borrow(), 5_000);
    // An odd limit ends on its own remainder.
    let clock = Tally::default();
    block_on(super::time_limit(&clock, &HeldAway { held: RefCell::new(0) }, 1_200));
    assert_eq!(*clock.0.borrow(), 1_200);
}

#[test]
fn the_box_shows_and_answers_the_question_it_is_handed_as_json() {
    use crate::game::negotiation::{Action, Game};
    let ask = |form: Form| Question {
        agent: "Ann \"A\" O'Neil".into(),
        purpose: Purpose::Handoff,
        prompt: "Line one\n  <b>two</b> & three".into(),
        form,
    };
    let cast: Vec<String> = vec!["Ann".into(), "Bo, Jr.".into(), "Cy".into()];
    let game = Game::new(vec!["WOOD".into(), "STONE".into(), "GOLD".into()], [vec![5, 0, 1], vec![0, 4, 2]]);
    let questions = [
        ask(Form::Text { word_limit: Some(50) }),
        ask(Form::Text { word_limit: None }),
        ask(Form::Number { lo: 1, hi: 10 }),
        ask(Form::Choice { options: cast.clone(), by_index: true }),
        ask(Form::Choice { options: cast.clone(), by_index: false }),
        ask(Form::Handoff {
            agent: "Ann".into(),
            options: cast.clone(),
            word_limit: 40,
            via: HandoffReply::Text,
        }),
        ask(Form::Handoff {
            agent: "Ann".into(),
            options: cast.clone(),
            word_limit: 40,
            via: HandoffReply::Json,
        }),
        ask(Form::Handoff {
            agent: "Ann".into(),
            options: cast.clone(),
            word_limit: 40,
            via: HandoffReply::Tool("handoff".into()),
        }),
        ask(Form::Trade { game: game.clone(), seat: 1, values: vec![1, 5, 10] }),
    ];
    for q in &questions {
        let back = Question::from_json(&q.to_json()).unwrap_or_else(|e| panic!("{e}: {}", q.to_json()));
        assert_eq!(form::layout(&back.form), form::layout(&q.form), "{q:?}");
        assert_eq!((&back.agent, back.purpose, &back.prompt), (&q.agent, q.purpose, &q.prompt));
        // The same controls give the same answer, which the real form takes.
        let typed = form::answer(&back.form, "Over to you.".into(), &[2, 0, 2], "1");
        assert_eq!(typed, form::answer(&q.form, "Over to you.".into(), &[2, 0, 2], "1"));
        if !matches!(q.form, Form::Number { .. } | Form::Choice { .. }) {
            assert!(q.form.reply(&typed).is_ok(), "{q:?}: {typed:?}");
        }
        for i in 0..12 {
            assert_eq!(form::button_answer(&back.form, i), form::button_answer(&q.form, i));
        }
    }
    // The trade the box reads from its lists is the player's own: 1 STONE for 1 GOLD (seat 1
    // holds 4 STONE), which the real game allows.
    let Form::Trade { .. } = &questions[8].form else { unreachable!() };
    let trade = form::answer(&questions[8].form, String::new(), &[0, 1, 2], "1");
    assert_eq!(
        trade,
        Answer::Trade(Action::Trade {
            sell_resource: "STONE".into(),
            buy_resource: "GOLD".into(),
            quantity: 1
        })
    );
    assert!(Question::from_json("{\"form\": {\"kind\": \"poem\"}}").is_err());
    assert!(Question::from_json("not json").is_err());
}

#[test]
fn an_answer_travels_as_one_line_and_back() {
    use crate::game::negotiation::Action;
    let answers = [
        Answer::Text("Two lines\nand  spaces ".into()),
        Answer::Text(String::new()),
        Answer::Number(10),
        Answer::Choice(2),
        Answer::Handoff { speech: "I pass to Bo. Bo?".into(), to: 1 },
        Answer::Trade(Action::Trade {
            sell_resource: "WOOD".into(),
            buy_resource: "GOLD".into(),
            quantity: 3,
        }),
        Answer::Trade(Action::Accept),
        Answer::Trade(Action::End),
    ];
    for a in answers {
        assert_eq!(Answer::from_line(&a.to_line()), Some(a.clone()), "{}", a.to_line());
    }
    for bad in ["", "x 1", "n ten", "h speech", "a {not json"] {
        assert_eq!(Answer::from_line(bad), None, "{bad}");
    }
}

#[test]
fn the_floor_given_while_a_seat_answers_reaches_the_turn_whose_speaker_is_not_chosen_yet() {
    let mut scenario = preset("rail-debate", 4);
    scenario.opening.specify_topic = false;
    scenario.opening.describe_characters = false;
    let me = scenario.agents[0].name.clone();
    let other = scenario.agents.last().unwrap().name.clone();
    scenario.seats = check_seats(&scenario, std::slice::from_ref(&me)).unwrap();
    // The class gives the floor to `other` while the seat's first bid is awaited (turn 1's
    // speaker not chosen yet), and again while the seat's first speech is awaited (chosen).
    let desk: Rc<RefCell<Option<crate::engine::FloorDesk>>> = Rc::default();
    // What the floor row said after each floor given: (agent, after the speech under way).
    type Notes = RefCell<Vec<Option<(String, bool)>>>;
    let seen: Rc<Notes> = Rc::default();
    let (d, s, to) = (desk.clone(), seen.clone(), other.clone());
    let bids = std::cell::Cell::new(0);
    let person = Rc::new(Person {
        pick: Box::new(move |q| {
            let desk = d.borrow();
            let desk = desk.as_ref().unwrap();
            let note = |s: &RefCell<Vec<_>>| {
                s.borrow_mut().push(desk.given().map(|(a, after)| (a.to_string(), after)))
            };
            match q.form {
                Form::Number { .. } => {
                    bids.set(bids.get() + 1);
                    if bids.get() == 1 {
                        desk.give(&to).unwrap();
                        note(&s);
                    }
                    Answer::Number(10)
                }
                _ => {
                    if s.borrow().len() == 1 {
                        desk.give(&to).unwrap();
                        note(&s);
                    }
                    Answer::Text("On time and on budget.".into())
                }
            }
        }),
        asked: RefCell::default(),
        problems: RefCell::default(),
    });
    let mut run = seated(scenario, person);
    *desk.borrow_mut() = Some(run.floor_desk());
    block_on(run.run_to_end());
    let events = run.events();
    // Both notes as the class saw them: this turn, then after the speech under way.
    assert_eq!(*seen.borrow(), [Some((other.clone(), false)), Some((other.clone(), true))]);
    let given: Vec<(u32, &str)> = events
        .iter()
        .filter_map(|e| match e {
            Event::FloorGiven { turn, agent, .. } => Some((*turn, agent.as_str())),
            _ => None,
        })
        .collect();
    let spoke = |turn: u32| {
        events.iter().find_map(|e| match e {
            Event::Message { turn: t, speaker, .. } if *t == turn => Some(speaker.as_str()),
            _ => None,
        })
    };
    assert_eq!(given[0], (1, other.as_str()), "the first floor reaches the turn whose bid was awaited");
    assert_eq!(spoke(1), Some(other.as_str()));
    // The seat's first speech is in the first turn it won after that; the floor given during it
    // is the next turn's.
    let first_speech = events
        .iter()
        .find_map(|e| match e {
            Event::Message { turn, speaker, .. } if *speaker == me => Some(*turn),
            _ => None,
        })
        .expect("the seat spoke");
    assert_eq!(given[1], (first_speech + 1, other.as_str()));
    assert_eq!(spoke(first_speech + 1), Some(other.as_str()));
}

#[test]
fn the_word_counter_counts_a_chinese_answer_by_its_characters() {
    assert_eq!(super::form::word_note("Rail is the future, folks.", Some(50)), "5 / 50 words");
    // Twelve characters and a comma, with no space: twelve words, not one.
    assert_eq!(
        super::form::word_note("我认为，应该禁止上课用手机", Some(10)),
        "12 / 10 words: over the limit"
    );
}
