//! The room as the page runs it, with real phones' sides ([`Phone`]) on the other end: every
//! envelope the host sends is delivered to the phones it is addressed to.

use super::*;
use crate::room::{Phone, SECRET_BYTES};

struct Class {
    host: Host,
    phones: Vec<Phone>,
    now: f64,
}

impl Class {
    fn new() -> Class {
        let secret = Secret::from_bytes([5; SECRET_BYTES]);
        let host =
            Host::new(secret, vec!["Ann".into(), "Bob".into()], vec!["{\"type\":\"run_started\"}".into()]);
        Class { host, phones: Vec::new(), now: 0.0 }
    }

    fn deliver(&mut self, sends: Vec<Send>) -> Vec<(String, ToPhone)> {
        let mut heard = Vec::new();
        for send in sends {
            let (to, e) = match send {
                Send::To(to, e) => (Some(to), e),
                Send::All(e) => (None, e),
            };
            for p in self.phones.iter_mut().filter(|p| to.as_ref().is_none_or(|t| *t == p.id)) {
                if let Ok(m) = p.receive("teacher-peer", &e) {
                    heard.push((p.id.clone(), m));
                }
            }
        }
        heard
    }

    /// Phone `i` says `m`; what the page must do.
    fn say(&mut self, i: usize, m: FromPhone) -> Vec<ForPage> {
        self.now += 1000.0;
        let text = phone_message(&mut self.phones[i], &m);
        let id = self.phones[i].id.clone();
        let (sends, page) = self.host.receive(&id, &text, self.now, || format!("token-{id}"));
        self.deliver(sends);
        page
    }

    fn join(&mut self, id: &str, name: &str, token: Option<String>) -> usize {
        self.phones.push(Phone::new(Secret::from_bytes([5; SECRET_BYTES]), id.into(), token));
        let i = self.phones.len() - 1;
        let m = FromPhone::Join { name: name.into(), token: self.phones[i].token.clone() };
        assert!(self.say(i, m).is_empty());
        i
    }
}

#[test]
fn a_phone_that_joins_is_welcomed_with_the_log_so_far_and_then_hears_each_new_event() {
    let mut c = Class::new();
    let ada = c.join("p1", "Ada", None);
    let p = &c.phones[ada];
    assert_eq!((p.name.as_str(), p.token.as_deref()), ("Ada", Some("token-p1")));
    assert_eq!(p.log, vec!["{\"type\":\"run_started\"}".to_string()]);
    let sends = c.host.events(1, &["{\"type\":\"bid\"}".into(), "{\"type\":\"bid\"}".into()]);
    c.deliver(sends);
    assert_eq!(c.phones[ada].log.len(), 3);
    // An answer undone takes the run back: the phone's log goes back with it.
    let sends = c.host.events(2, &["{\"type\":\"error\"}".into()]);
    c.deliver(sends);
    assert_eq!(c.phones[ada].log.last().unwrap(), "{\"type\":\"error\"}");
    assert_eq!(c.phones[ada].log.len(), 3);
    // A new run starts again from nothing.
    let sends = c.host.events(0, &["{\"type\":\"run_started\",\"seed\":2}".into()]);
    c.deliver(sends);
    assert_eq!(c.phones[ada].log, vec!["{\"type\":\"run_started\",\"seed\":2}".to_string()]);
}

#[test]
fn the_seat_holder_alone_gets_the_question_and_its_answer_reaches_the_page_with_its_name() {
    let mut c = Class::new();
    let ada = c.join("p1", "Ada", None);
    let ben = c.join("p2", "Ben", None);
    assert!(c.say(ada, FromPhone::TakeSeat { agent: "Ann".into() }).is_empty());
    assert_eq!(c.phones[ben].taken, vec!["Ann".to_string()], "every phone hears which seats are taken");
    let sends = c.host.asked("Ann", Some("{\"q\":1}"));
    let heard = c.deliver(sends);
    assert_eq!(heard.len(), 1, "{heard:?}");
    assert_eq!(c.phones[ada].question.as_ref().map(|q| q.2.as_str()), Some("{\"q\":1}"));
    assert!(c.phones[ben].question.is_none());
    // Ben has no seat: his answer is refused and he is told why; nothing reaches the run.
    let page = c.say(ben, FromPhone::Answer { question: 1, answer: "<3>".into() });
    assert!(page.is_empty());
    assert!(c.host.refused.last().unwrap().contains("only a seat answers"), "{:?}", c.host.refused);
    let env = c.phones[ada].answer("<7>".into()).unwrap();
    let (_, page) = c.host.receive("p1", &serde_json::to_string(&env).unwrap(), 9e3, String::new);
    assert_eq!(page, vec![ForPage::Answer { agent: "Ann".into(), answer: "<7>".into(), by: "Ada".into() }]);
    // Twice is refused: the question closed with the first answer.
    let again = c.say(ada, FromPhone::Answer { question: 1, answer: "<9>".into() });
    assert!(again.is_empty());
    assert!(c.host.refused.last().unwrap().contains("no longer open"));
}

#[test]
fn a_question_answered_at_the_teachers_keyboard_closes_on_the_phone() {
    let mut c = Class::new();
    let ada = c.join("p1", "Ada", None);
    c.say(ada, FromPhone::TakeSeat { agent: "Bob".into() });
    let sends = c.host.asked("Bob", Some("{}"));
    c.deliver(sends);
    assert!(c.phones[ada].question.is_some());
    let sends = c.host.asked("Bob", None);
    let heard = c.deliver(sends);
    assert_eq!(heard, vec![("p1".to_string(), ToPhone::Closed { id: 1 })]);
    assert!(c.phones[ada].question.is_none());
}

#[test]
fn a_phone_back_from_a_lost_connection_gets_its_seat_and_open_question_again() {
    let mut c = Class::new();
    let ada = c.join("p1", "Ada", None);
    c.say(ada, FromPhone::TakeSeat { agent: "Ann".into() });
    let sends = c.host.asked("Ann", Some("{\"q\":1}"));
    c.deliver(sends);
    let token = c.phones[ada].token.clone();
    // The screen locked: a new connection, a new id, the same token.
    let back = c.join("p9", "whatever", token);
    let p = &c.phones[back];
    assert_eq!((p.name.as_str(), p.seat.as_deref()), ("Ada", Some("Ann")));
    assert_eq!(p.question.as_ref().map(|q| q.0), Some(1));
    let env = c.phones[back].answer("<4>".into()).unwrap();
    let (_, page) = c.host.receive("p9", &serde_json::to_string(&env).unwrap(), 1e5, String::new);
    assert_eq!(page, vec![ForPage::Answer { agent: "Ann".into(), answer: "<4>".into(), by: "Ada".into() }]);
}

#[test]
fn votes_reach_the_page_and_every_phones_tally_and_the_floor_goes_to_the_winner() {
    let mut c = Class::new();
    let ada = c.join("p1", "Ada", None);
    let ben = c.join("p2", "Ben", None);
    let cy = c.join("p3", "Cy", None);
    assert_eq!(
        c.say(ada, FromPhone::Vote { agent: "Bob".into() }),
        vec![ForPage::Vote { by: "Ada".into(), agent: "Bob".into() }]
    );
    c.say(ben, FromPhone::Vote { agent: "Bob".into() });
    c.say(cy, FromPhone::Vote { agent: "Ann".into() });
    let expected = vec![("Bob".to_string(), 2), ("Ann".to_string(), 1)];
    assert!(c.phones.iter().all(|p| p.tally == expected), "{:?}", c.phones[0].tally);
    assert_eq!(c.host.winner().as_deref(), Some("Bob"));
    let (page, cleared) = c.host.give_floor().unwrap();
    assert_eq!(page, ForPage::Floor { agent: "Bob".into() });
    c.deliver(vec![cleared]);
    assert!(c.phones.iter().all(|p| p.tally.is_empty()));
    assert!(c.host.give_floor().is_none(), "no votes since");
    // A vote for someone not in the run is refused.
    assert!(c.say(ada, FromPhone::Vote { agent: "Zed".into() }).is_empty());
}

#[test]
fn an_interjection_waits_for_the_teacher_who_accepts_or_declines_it() {
    let mut c = Class::new();
    let ada = c.join("p1", "Ada", None);
    assert!(c.say(ada, FromPhone::Propose { text: "  What about freight?  ".into() }).is_empty());
    c.say(ada, FromPhone::Propose { text: "Second thought".into() });
    assert_eq!(c.host.proposals.len(), 2);
    let first = c.host.proposals[0].id;
    assert_eq!(
        c.host.decide(first, true),
        Some(ForPage::Interject { by: "Ada".into(), text: "What about freight?".into() })
    );
    let second = c.host.proposals[0].id;
    assert_eq!(c.host.decide(second, false), None);
    assert!(c.host.proposals.is_empty());
    assert_eq!(c.host.decide(second, true), None, "decided once");
}

#[test]
fn a_forged_message_is_refused_and_listed_for_the_teacher_and_a_removed_student_cannot_come_back() {
    let mut c = Class::new();
    let ada = c.join("p1", "Ada", None);
    let stranger = Secret::from_bytes([6; SECRET_BYTES]);
    let mut forged =
        stranger.seal("p1", 5, serde_json::to_string(&FromPhone::Vote { agent: "Ann".into() }).unwrap());
    forged.room = c.host.room.code();
    let (back, page) = c.host.receive("p1", &serde_json::to_string(&forged).unwrap(), 5.0, String::new);
    assert!(back.is_empty() && page.is_empty());
    assert!(c.host.refused.last().unwrap().contains("not signed with the room's secret"));
    let (_, page) = c.host.receive("p1", "not json", 6.0, String::new);
    assert!(page.is_empty());
    assert!(c.host.refused.last().unwrap().starts_with("a message could not be read"));
    c.say(ada, FromPhone::TakeSeat { agent: "Ann".into() });
    let sends = c.host.remove("p1");
    c.deliver(sends);
    assert!(c.phones[ada].removed);
    assert!(c.host.room.holder("Ann").is_none());
    // Its old token is no longer anyone's: it joins as a new student, without the seat.
    let back = c.join("p4", "Ada again", Some("token-p1".into()));
    assert_eq!(c.phones[back].seat, None);
    assert_eq!(c.phones[back].name, "Ada again");
}

#[test]
fn the_teacher_assigns_a_seat_and_its_open_question_follows() {
    let mut c = Class::new();
    let ada = c.join("p1", "Ada", None);
    let sends = c.host.asked("Bob", Some("{\"q\":2}"));
    assert!(sends.is_empty(), "nobody holds Bob's seat yet");
    let sends = c.host.assign("p1", "Bob").unwrap();
    c.deliver(sends);
    assert_eq!(c.phones[ada].seat.as_deref(), Some("Bob"));
    assert_eq!(c.phones[ada].question.as_ref().map(|q| q.2.as_str()), Some("{\"q\":2}"));
    let sends = c.host.assign("p1", "").unwrap();
    c.deliver(sends);
    assert_eq!(c.phones[ada].seat, None);
    assert!(c.host.assign("p1", "Zed").is_err());
}

#[test]
fn a_new_run_gives_the_room_its_seats_and_the_agents_the_class_votes_for() {
    let mut c = Class::new();
    let ada = c.join("p1", "Ada", None);
    let mut s = crate::presets::find("rail-debate").unwrap().scenario();
    s.seats = vec!["Donald Trump".into()];
    let started = crate::events::Event::RunStarted { seed: 1, scenario: Box::new(s.clone()) }.to_json();
    let sends = c.host.events(0, &[started]);
    c.deliver(sends);
    assert_eq!(c.host.room.seats, s.seats);
    assert_eq!(c.host.room.agents, s.agent_names());
    // Elizabeth Warren is no seat of the class's, but the class may want her to speak.
    let page = c.say(ada, FromPhone::Vote { agent: "Elizabeth Warren".into() });
    assert_eq!(page, vec![ForPage::Vote { by: "Ada".into(), agent: "Elizabeth Warren".into() }]);
    assert!(c.say(ada, FromPhone::TakeSeat { agent: "Elizabeth Warren".into() }).is_empty());
    assert!(c.host.refused.last().unwrap().contains("not a seat"), "{:?}", c.host.refused);
}

#[test]
fn two_seats_asked_at_once_each_reach_their_own_phone_and_both_answers_come_back() {
    let mut c = Class::new();
    let ada = c.join("p1", "Ada", None);
    let ben = c.join("p2", "Ben", None);
    c.say(ada, FromPhone::TakeSeat { agent: "Ann".into() });
    c.say(ben, FromPhone::TakeSeat { agent: "Bob".into() });
    let mut sends = c.host.asked("Ann", Some("{\"for\":\"Ann\"}"));
    sends.extend(c.host.asked("Bob", Some("{\"for\":\"Bob\"}")));
    c.deliver(sends);
    assert_eq!(c.phones[ada].question.as_ref().map(|q| q.2.as_str()), Some("{\"for\":\"Ann\"}"));
    assert_eq!(c.phones[ben].question.as_ref().map(|q| q.2.as_str()), Some("{\"for\":\"Bob\"}"));
    // Ben answers first; Ann's question stays open.
    let env = c.phones[ben].answer("<2>".into()).unwrap();
    let (_, page) = c.host.receive("p2", &serde_json::to_string(&env).unwrap(), 9e3, String::new);
    assert_eq!(page, vec![ForPage::Answer { agent: "Bob".into(), answer: "<2>".into(), by: "Ben".into() }]);
    let env = c.phones[ada].answer("<5>".into()).unwrap();
    let (_, page) = c.host.receive("p1", &serde_json::to_string(&env).unwrap(), 9e3, String::new);
    assert_eq!(page, vec![ForPage::Answer { agent: "Ann".into(), answer: "<5>".into(), by: "Ada".into() }]);
}

#[test]
fn closing_the_room_tells_every_phone_it_has_ended_and_keeps_the_log_for_the_next_room() {
    let mut c = Class::new();
    let ada = c.join("p1", "Ada", None);
    let ben = c.join("p2", "Ben", None);
    c.say(ada, FromPhone::TakeSeat { agent: "Ann".into() });
    let sends = c.host.asked("Ann", Some("{}"));
    c.deliver(sends);
    let sends = c.host.close();
    let heard = c.deliver(sends);
    assert_eq!(heard, vec![("p1".to_string(), ToPhone::Ended), ("p2".to_string(), ToPhone::Ended)]);
    for i in [ada, ben] {
        let p = &c.phones[i];
        assert!(p.ended && p.token.is_none() && p.seat.is_none() && p.question.is_none(), "{p:?}");
    }
    assert!(c.host.room.students.is_empty());
    // The run goes on after the room closed: its log is kept for a room opened again.
    let sends = c.host.events(1, &["{\"type\":\"bid\"}".into()]);
    assert!(c.deliver(sends).is_empty(), "no phone hears the run once the room has ended");
    assert_eq!(c.host.log.len(), 2);
}
