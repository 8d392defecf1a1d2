//! What the room's two screens show, decided from the room's state: the teacher's panel (who has
//! joined and in which seat, who is away from a seat, the interjections proposed, the votes, the
//! messages refused) and a student's phone (who they are, the seats they may take, whom they may
//! vote for, the run's messages, whether they may still propose). Plain data with native tests;
//! the page draws it as typed views (`app::room_live`).

use super::host::{Host, Proposal};
use super::Phone;
use crate::events::Event;

/// A student as the teacher's panel lists them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RosterRow {
    /// Their phone's id in the room, which the panel's controls act on.
    pub phone: String,
    pub name: String,
    pub away: bool,
    /// The seat they play; none: the audience.
    pub seat: Option<String>,
}

/// Everyone who joined, by name (ignoring case), with their seat.
pub fn roster(host: &Host) -> Vec<RosterRow> {
    let mut rows: Vec<RosterRow> = host
        .room
        .students
        .iter()
        .map(|(id, s)| RosterRow {
            phone: id.clone(),
            name: s.name.clone(),
            away: s.away,
            seat: s.seat.clone(),
        })
        .collect();
    crate::text::sort_stable(&mut rows, |a, b| a.name.to_lowercase() < b.name.to_lowercase());
    rows
}

/// The seats whose student has gone quiet, as "Name (Agent)".
pub fn away_from_seats(host: &Host) -> Vec<String> {
    host.room
        .students
        .values()
        .filter(|s| s.away)
        .filter_map(|s| s.seat.as_ref().map(|seat| format!("{} ({seat})", s.name)))
        .collect()
}

/// What the teacher's panel shows of the room, besides its link: who is away from a seat, the
/// seats the class plays, who joined, the interjections proposed, the votes and the messages
/// refused. It changes only when one of these does (a phone's "still here" changes nothing).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Panel {
    pub away: Vec<String>,
    pub seats: Vec<String>,
    pub roster: Vec<RosterRow>,
    pub proposals: Vec<Proposal>,
    /// The votes for each agent, most first; the first is whom "Give the floor" names.
    pub tally: Vec<(String, usize)>,
    pub refused: Vec<String>,
}

/// The panel of `host`'s room.
pub fn panel(host: &Host) -> Panel {
    Panel {
        away: away_from_seats(host),
        seats: host.room.seats.clone(),
        roster: roster(host),
        proposals: host.proposals.clone(),
        tally: host.room.tally(),
        refused: host.refused.clone(),
    }
}

/// Whether a join link points at this computer alone (localhost, a loopback address), which no
/// phone can open.
pub fn only_here(link: &str) -> bool {
    let rest = link.split_once("://").map_or(link, |(_, r)| r);
    let authority = rest.split(['/', '#', '?']).next().unwrap_or_default();
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => authority.rsplit_once(':').map_or(authority, |(h, _)| h),
    };
    host.eq_ignore_ascii_case("localhost") || host.starts_with("127.") || host == "::1" || host == "0.0.0.0"
}

/// One message of the run, as a phone's transcript shows it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Said {
    pub turn: u32,
    pub speaker: String,
    pub text: String,
}

/// The messages of the run's log (its JSON lines), for the phone's transcript.
pub fn transcript(log: &[String]) -> Vec<Said> {
    log.iter()
        .filter_map(|line| match serde_json::from_str::<Event>(line) {
            Ok(Event::Message { turn, speaker, text, .. }) => Some(Said { turn, speaker, text }),
            _ => None,
        })
        .collect()
}

/// The run's agents, from the `run_started` at the head of the log.
pub fn agents(log: &[String]) -> Vec<String> {
    match log.first().map(|l| serde_json::from_str::<Event>(l)) {
        Some(Ok(Event::RunStarted { scenario, .. })) => scenario.agent_names(),
        _ => Vec::new(),
    }
}

/// What the top of a student's phone says and offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PhoneHead {
    /// The teacher closed the room.
    Ended,
    /// The teacher took this phone out of the room.
    Removed,
    /// In the room: the student's name and seat (none: the audience), the seats they may take,
    /// and each agent they may vote for with its votes so far.
    In { name: String, seat: Option<String>, free_seats: Vec<String>, votes: Vec<(String, usize)> },
}

impl PhoneHead {
    /// Whether the student may still propose an interjection.
    pub fn may_propose(&self) -> bool {
        matches!(self, PhoneHead::In { .. })
    }
}

/// What the top of the phone shows for `p`: a seat to take only while the student has none and
/// the room lets students pick, and a vote for each of the run's agents while a run goes on
/// (none before one starts, nor once it has finished: a vote then would count for nothing).
pub fn phone_head(p: &Phone) -> PhoneHead {
    if p.ended {
        return PhoneHead::Ended;
    }
    if p.removed {
        return PhoneHead::Removed;
    }
    let free_seats = if p.pick_seats && p.seat.is_none() {
        p.seats.iter().filter(|s| !p.taken.contains(s)).cloned().collect()
    } else {
        Vec::new()
    };
    let finished = p.log.iter().rev().any(|l| l.contains("\"type\":\"run_finished\""));
    let votes = agents(&p.log)
        .into_iter()
        .filter(|_| !finished)
        .map(|a| {
            let n = p.tally.iter().find(|(x, _)| *x == a).map_or(0, |(_, n)| *n);
            (a, n)
        })
        .collect();
    PhoneHead::In { name: p.name.clone(), seat: p.seat.clone(), free_seats, votes }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::room::{FromPhone, Secret, SECRET_BYTES};

    fn secret() -> Secret {
        Secret::from_bytes([1; SECRET_BYTES])
    }

    /// A phone that joined `host` as `name` from transport id `id`.
    fn join(host: &mut Host, id: &str, name: &str) {
        let mut phone = Phone::new(secret(), id.into(), None);
        let m = FromPhone::Join { name: name.into(), token: None };
        let text = super::super::host::phone_message(&mut phone, &m);
        host.receive(id, &text, 0.0, || format!("t-{id}"));
    }

    #[test]
    fn the_roster_lists_each_student_by_name_with_their_seat_and_who_is_away() {
        let mut host = Host::new(secret(), vec!["Ann".into(), "Ben".into()], Vec::new());
        join(&mut host, "p1", "zoe");
        join(&mut host, "p2", "Adam");
        join(&mut host, "p3", "<b>Eve</b>");
        host.assign("p1", "Ann").unwrap();
        let rows = roster(&host);
        let names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["<b>Eve</b>", "Adam", "zoe"], "sorted ignoring case, typed as sent");
        assert_eq!(rows[2].seat.as_deref(), Some("Ann"));
        assert_eq!(rows[2].phone, "p1");
        assert!(rows.iter().all(|r| !r.away));
        assert!(away_from_seats(&host).is_empty());
        // Only zoe holds a seat: only her going quiet is a seat away.
        host.check_away(1e9);
        assert!(roster(&host).iter().all(|r| r.away));
        assert_eq!(away_from_seats(&host), ["zoe (Ann)"]);
    }

    #[test]
    fn a_phones_still_here_leaves_the_panel_as_it_was_and_a_vote_changes_it() {
        let mut host = Host::new(secret(), vec!["Ann".into()], Vec::new());
        let mut phone = Phone::new(secret(), "p1".into(), None);
        let text = super::super::host::phone_message(
            &mut phone,
            &FromPhone::Join { name: "Ada".into(), token: None },
        );
        host.receive("p1", &text, 0.0, || "t".into());
        let before = panel(&host);
        assert_eq!(before.roster.len(), 1);
        assert_eq!(before.seats, ["Ann"]);
        let text = super::super::host::phone_message(&mut phone, &FromPhone::Here);
        host.receive("p1", &text, 1000.0, || "t".into());
        assert_eq!(panel(&host), before, "nothing to draw again");
        let text = super::super::host::phone_message(&mut phone, &FromPhone::Vote { agent: "Ann".into() });
        host.receive("p1", &text, 2000.0, || "t".into());
        assert_eq!(panel(&host).tally, [("Ann".to_string(), 1)]);
    }

    #[test]
    fn a_link_to_this_computer_alone_is_told_apart_from_one_phones_can_open() {
        for here in [
            "http://127.0.0.1:8080/phone.html#k=abc",
            "http://localhost/agora/phone.html#k=abc",
            "http://[::1]:8080/phone.html#k=a",
            "http://LOCALHOST:80/phone.html",
        ] {
            assert!(only_here(here), "{here}");
        }
        for away in [
            "https://teacher.github.io/agora/phone.html#k=abc",
            "http://192.168.1.20:8080/phone.html#k=abc",
            "http://127example.org/phone.html",
            "https://school.example/phone.html#k=127.0.0.1",
        ] {
            assert!(!only_here(away), "{away}");
        }
    }

    #[test]
    fn the_phone_shows_the_logs_messages_and_votes_for_the_runs_agents() {
        let s = crate::presets::find("rail-debate").unwrap().scenario();
        let started = Event::RunStarted { seed: 1, scenario: Box::new(s.clone()) }.to_json();
        let said = Event::Message {
            turn: 1,
            speaker: "Ada".into(),
            text: "Trains <win>".into(),
            kind: crate::events::MessageKind::Agent,
            refusal: String::new(),
        }
        .to_json();
        let log = vec![started, said, "not json".into()];
        assert_eq!(transcript(&log), [Said { turn: 1, speaker: "Ada".into(), text: "Trains <win>".into() }]);
        assert_eq!(agents(&log), s.agent_names());
        let mut p = Phone::new(secret(), "p1".into(), None);
        p.name = "Ada".into();
        p.log = log;
        p.tally = vec![(s.agent_names()[1].clone(), 2)];
        let PhoneHead::In { name, seat, free_seats, votes } = phone_head(&p) else { panic!("in the room") };
        assert_eq!((name.as_str(), seat, free_seats.len()), ("Ada", None, 0));
        assert_eq!(votes.len(), s.agents.len());
        assert_eq!(votes[1], (s.agent_names()[1].clone(), 2));
        assert_eq!(votes[0].1, 0);
        assert!(phone_head(&p).may_propose());
        // Once the run has finished there is nothing left to vote on.
        p.log.push(Event::RunFinished { reason: crate::events::FinishReason::Stopped }.to_json());
        assert!(matches!(phone_head(&p), PhoneHead::In { votes, .. } if votes.is_empty()));
    }

    #[test]
    fn a_phone_is_offered_only_free_seats_and_only_while_it_has_none() {
        let mut p = Phone::new(secret(), "p1".into(), None);
        (p.seats, p.taken, p.pick_seats) = (vec!["A".into(), "B".into(), "C".into()], vec!["B".into()], true);
        let free = |p: &Phone| match phone_head(p) {
            PhoneHead::In { free_seats, .. } => free_seats,
            other => panic!("{other:?}"),
        };
        assert_eq!(free(&p), ["A", "C"]);
        p.seat = Some("A".into());
        assert!(free(&p).is_empty(), "a student in a seat is offered no other");
        (p.seat, p.pick_seats) = (None, false);
        assert!(free(&p).is_empty(), "the teacher assigns the seats");
        // The log's votes come with a run: none before one starts.
        assert!(matches!(phone_head(&p), PhoneHead::In { votes, .. } if votes.is_empty()));
    }

    #[test]
    fn a_phone_out_of_the_room_offers_nothing() {
        let mut p = Phone::new(secret(), "p1".into(), None);
        p.removed = true;
        assert_eq!(phone_head(&p), PhoneHead::Removed);
        assert!(!phone_head(&p).may_propose());
        p.ended = true;
        assert_eq!(phone_head(&p), PhoneHead::Ended);
        assert!(!phone_head(&p).may_propose());
    }
}
