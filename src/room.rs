//! A class in a room: the rules of the conversation between the teacher's page and the
//! students' phones, as plain data and logic (issue 40's core; the transport, the phone view and
//! the relay are around it). The teacher's page is the only place the run happens: a phone joins
//! with a name, takes a seat or sits in the audience, answers its seat's questions, proposes
//! interjections and votes for who speaks next; the page's [`Room`] checks every message and says
//! what it means for the run ([`Happened`]).
//!
//! Every message travels in an [`Envelope`] signed with the room's secret (HMAC-SHA256), which the
//! join link carries in its fragment and no server sees: a relay, or a stranger who guesses the
//! short room code, can neither read the secret nor sign a message. Each sender numbers its
//! messages, so a message replayed is refused too. Every student holds the secret as well, so the
//! signature alone does not say which student sent a message: the transport's own id of the peer
//! it came from must be the envelope's sender ([`Room::receive`] takes it), and a phone takes the
//! teacher's messages only from the peer that welcomed it ([`Phone::receive`]).

pub mod host;
pub mod qr;
pub mod screen;

use std::collections::BTreeMap;

use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// How many bytes of randomness a room's secret has.
pub const SECRET_BYTES: usize = 16;

/// The room's secret, as the join link carries it (URL-safe base64, no padding).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Secret(Vec<u8>);

impl Secret {
    /// A secret from `bytes` of randomness (the caller's: the page's crypto, a test's seed).
    pub fn from_bytes(bytes: [u8; SECRET_BYTES]) -> Secret {
        Secret(bytes.to_vec())
    }

    /// The secret as the link's fragment writes it.
    pub fn to_text(&self) -> String {
        use base64::Engine;
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&self.0)
    }

    /// The secret a link's fragment wrote, or why it is not one.
    pub fn from_text(text: &str) -> Result<Secret, String> {
        use base64::Engine;
        let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(text.trim())
            .map_err(|_| "the room's link is damaged: its secret is not readable".to_string())?;
        if bytes.len() != SECRET_BYTES {
            return Err("the room's link is damaged: its secret is the wrong length".into());
        }
        Ok(Secret(bytes))
    }

    /// The name the room meets under at the relays: from the secret, so the short code alone
    /// does not find it.
    pub fn topic(&self) -> String {
        let hash = Sha256::digest([b"agora-room:".as_slice(), &self.0].concat());
        hex(&hash[..12])
    }

    /// The short code people read off the projector: six letters and digits from the secret's
    /// hash (no 0, O, 1, I or L, which are misread), the same on every device.
    pub fn code(&self) -> String {
        const ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
        let hash = Sha256::digest(&self.0);
        hash.iter().take(6).map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char).collect()
    }

    fn mac(&self, room: &str, from: &str, seq: u64, body: &str) -> Vec<u8> {
        // Fields with their lengths, so no two different envelopes sign the same bytes.
        let mut m = Hmac::<Sha256>::new_from_slice(&self.0).expect("HMAC takes a key of any length");
        for part in [room.as_bytes(), from.as_bytes(), &seq.to_be_bytes(), body.as_bytes()] {
            m.update(&(part.len() as u64).to_be_bytes());
            m.update(part);
        }
        m.finalize().into_bytes().to_vec()
    }

    /// `body` (a message's JSON) from `from`, numbered `seq`, signed for the room.
    pub fn seal(&self, from: &str, seq: u64, body: String) -> Envelope {
        let room = self.code();
        let mac = hex(&self.mac(&room, from, seq, &body));
        Envelope { room, from: from.to_string(), seq, body, mac }
    }

    /// Whether `e` was signed with this room's secret.
    pub fn verify(&self, e: &Envelope) -> bool {
        let expected = self.mac(&e.room, &e.from, e.seq, &e.body);
        // Compared in time that does not depend on where they differ.
        let given = unhex(&e.mac).unwrap_or_default();
        given.len() == expected.len() && given.iter().zip(&expected).fold(0u8, |d, (a, b)| d | (a ^ b)) == 0
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if text.len() % 2 != 0 {
        return None;
    }
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok()).collect()
}

/// One message on the wire: who sent it, its number, its JSON and its signature.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Envelope {
    /// The room's code.
    pub room: String,
    /// The sender: "teacher", or the phone's id.
    pub from: String,
    /// The sender's own count of its messages, each larger than the last.
    pub seq: u64,
    pub body: String,
    /// HMAC-SHA256 of the fields above with the room's secret, in hex.
    pub mac: String,
}

/// What a phone says to the teacher's page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FromPhone {
    /// In the room under this name; `token` when coming back (the phone kept it).
    Join { name: String, token: Option<String> },
    /// Takes a free seat (when the teacher lets students pick).
    TakeSeat { agent: String },
    /// The answer to the seat's question `question`, as the seat's box writes it.
    Answer { question: u64, answer: String },
    /// An interjection, for the teacher to accept or decline.
    Propose { text: String },
    /// Who should speak next.
    Vote { agent: String },
    /// Still here (a phone sends it now and then, so the page sees who is away).
    Here,
}

/// What the teacher's page says to the phones (to all of them, or to one over its own channel).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ToPhone {
    /// In: the phone's name and the token it keeps to come back, the run's seats, those taken,
    /// and whether students pick their own.
    Welcome { name: String, token: String, seats: Vec<String>, taken: Vec<String>, pick_seats: bool },
    /// The phone's seat, given, taken or gone, and every seat taken now.
    Seat { agent: Option<String>, taken: Vec<String> },
    /// The run's events from the `from`th on, as JSON lines: the live transcript.
    Events { from: usize, lines: String },
    /// The seat's question `id`, as JSON (the same box the page draws asks it).
    Question { id: u64, agent: String, question: String },
    /// The seat's question `id` is closed (answered, or out of time).
    Closed { id: u64 },
    /// This turn's votes for the next speaker.
    Tally { votes: Vec<(String, usize)> },
    /// Why a message of the phone's was refused.
    Refused { why: String },
    /// The teacher took the phone out of the room.
    Removed,
    /// The teacher closed the room: every phone is done.
    Ended,
}

/// A phone's side of the room: its numbering, the token it keeps, its seat and open question,
/// and how much of the run's log it holds.
#[derive(Clone, Debug)]
pub struct Phone {
    secret: Secret,
    /// This connection's id in the room (a new one after a reconnection; the token stays).
    pub id: String,
    sent: u64,
    heard: u64,
    /// Kept on the phone, to come back as the same student.
    pub token: Option<String>,
    pub name: String,
    pub seats: Vec<String>,
    pub taken: Vec<String>,
    pub pick_seats: bool,
    pub seat: Option<String>,
    /// The open question: its id, the seat's agent and the question's JSON.
    pub question: Option<(u64, String, String)>,
    /// The run's events so far, as JSON lines.
    pub log: Vec<String>,
    pub tally: Vec<(String, usize)>,
    pub removed: bool,
    /// The teacher closed the room.
    pub ended: bool,
    /// The transport's id of the teacher's page: the peer that welcomed this phone.
    teacher: Option<String>,
}

impl Phone {
    pub fn new(secret: Secret, id: String, token: Option<String>) -> Phone {
        Phone {
            secret,
            id,
            sent: 0,
            heard: 0,
            token,
            name: String::new(),
            seats: Vec::new(),
            taken: Vec::new(),
            pick_seats: false,
            seat: None,
            question: None,
            log: Vec::new(),
            tally: Vec::new(),
            removed: false,
            ended: false,
            teacher: None,
        }
    }

    /// The room's short code.
    pub fn code(&self) -> String {
        self.secret.code()
    }

    /// `m`, signed and numbered for the teacher's page.
    pub fn send(&mut self, m: &FromPhone) -> Envelope {
        self.sent += 1;
        self.secret.seal(&self.id, self.sent, serde_json::to_string(m).unwrap_or_default())
    }

    /// Joining as `name`, or coming back with the kept token.
    pub fn join(&mut self, name: &str) -> Envelope {
        let m = FromPhone::Join { name: name.to_string(), token: self.token.clone() };
        self.send(&m)
    }

    /// The answer to the open question, if there is one.
    pub fn answer(&mut self, answer: String) -> Result<Envelope, String> {
        let (question, _, _) = self.question.take().ok_or("no question is open for your seat")?;
        Ok(self.send(&FromPhone::Answer { question, answer }))
    }

    /// Reads a message from the transport's `peer`: refused unless it is the teacher's page (the
    /// peer whose welcome came first), signed with the room's secret and numbered after the last
    /// one heard.
    pub fn receive(&mut self, peer: &str, e: &Envelope) -> Result<ToPhone, String> {
        let from_teacher = match &self.teacher {
            Some(t) => t == peer,
            None => e.body.contains("\"kind\":\"welcome\""),
        };
        if !from_teacher || e.from != "teacher" || e.room != self.secret.code() || !self.secret.verify(e) {
            return Err("a message not from this room's teacher was ignored".into());
        }
        if self.ended {
            return Err("the room has ended".into());
        }
        self.teacher = Some(peer.to_string());
        if e.seq <= self.heard {
            return Err("a message from the teacher came again and was ignored".into());
        }
        self.heard = e.seq;
        let m: ToPhone =
            serde_json::from_str(&e.body).map_err(|err| format!("a message could not be read: {err}"))?;
        match &m {
            ToPhone::Welcome { name, token, seats, taken, pick_seats } => {
                (self.name, self.token) = (name.clone(), Some(token.clone()));
                (self.seats, self.taken, self.pick_seats) = (seats.clone(), taken.clone(), *pick_seats);
            }
            ToPhone::Seat { agent, taken } => (self.seat, self.taken) = (agent.clone(), taken.clone()),
            ToPhone::Events { from, lines } => {
                // What follows what it holds, or the run gone back (a new run, an answer undone); a
                // gap waits for the next catch-up.
                if *from <= self.log.len() {
                    self.log.truncate(*from);
                    self.log.extend(lines.lines().map(String::from));
                }
            }
            ToPhone::Question { id, agent, question } => {
                if self.seat.as_deref() == Some(agent) {
                    self.question = Some((*id, agent.clone(), question.clone()));
                }
            }
            ToPhone::Closed { id } => {
                if self.question.as_ref().is_some_and(|(q, _, _)| q == id) {
                    self.question = None;
                }
            }
            ToPhone::Tally { votes } => self.tally = votes.clone(),
            ToPhone::Refused { .. } => {}
            ToPhone::Removed => {
                (self.removed, self.token, self.seat, self.question) = (true, None, None, None);
            }
            ToPhone::Ended => (self.ended, self.token, self.seat, self.question) = (true, None, None, None),
        }
        Ok(m)
    }
}

/// A student in the room, as the teacher's page knows them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Student {
    pub name: String,
    /// The seat they play, if any.
    pub seat: Option<String>,
    /// Not heard from within the room's away time.
    pub away: bool,
    /// What they must send to come back as themselves (kept on their phone).
    #[serde(skip)]
    token: String,
    #[serde(skip)]
    last_seq: u64,
    #[serde(skip)]
    last_heard_ms: f64,
    /// Messages they may still send now (a bucket refilled over time).
    #[serde(skip)]
    allowance: f64,
}

/// What a message from a phone means for the run and the room.
#[derive(Clone, Debug, PartialEq)]
pub enum Happened {
    /// A new student (the token is theirs to keep, sent back to them alone).
    Joined {
        phone: String,
        name: String,
        token: String,
    },
    /// A student back from a lost connection, in their seat if they had one.
    Rejoined {
        phone: String,
        name: String,
        seat: Option<String>,
    },
    SeatTaken {
        phone: String,
        agent: String,
    },
    /// The seat's answer to its open question, and who gave it.
    Answered {
        agent: String,
        question: u64,
        answer: String,
        by: String,
    },
    Proposed {
        by: String,
        text: String,
    },
    Voted {
        by: String,
        agent: String,
    },
    /// Nothing but a sign of life.
    Heard,
}

/// Why a message was refused; the page says so (a forged one on the teacher's screen).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// Not signed with the room's secret: a relay or a stranger, not a student.
    Forged { from: String },
    /// A message already received, sent again.
    Replayed { from: String },
    /// Too many messages too fast.
    Flooding { name: String },
    /// A rule of the room: answering another seat, twice, for a closed question, …
    Rule { name: String, why: String },
    /// Not a message of the room's.
    Unreadable { why: String },
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Forged { from } => {
                write!(f, "a message not signed with the room's secret (from \"{from}\") was refused")
            }
            Refused::Replayed { from } => write!(f, "a message from \"{from}\" came again and was refused"),
            Refused::Flooding { name } => {
                write!(f, "{name} sent too many messages: the extra ones were dropped")
            }
            Refused::Rule { name, why } => write!(f, "{name}: {why}"),
            Refused::Unreadable { why } => write!(f, "a message could not be read: {why}"),
        }
    }
}

/// The room's settings, each with its default.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    /// Students pick free seats themselves; otherwise the teacher assigns them.
    pub pick_seats: bool,
    /// Messages a phone may send in a burst, and how many more each second allows.
    pub burst: f64,
    pub per_second: f64,
    /// A phone not heard from for this long is away.
    pub away_after_ms: f64,
    /// The longest name and interjection, in characters.
    pub max_name: usize,
    pub max_text: usize,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            pick_seats: true,
            burst: 10.0,
            per_second: 2.0,
            away_after_ms: 15_000.0,
            max_name: 40,
            max_text: 400,
        }
    }
}

/// The teacher's side of a room: who joined, who holds which seat, the questions open, the votes.
#[derive(Clone, Debug)]
pub struct Room {
    secret: Secret,
    pub rules: Rules,
    /// The seats the class plays (some of the run's agents, or its selector).
    pub seats: Vec<String>,
    /// The run's agents, whom the class votes for (the seats until a run says).
    pub agents: Vec<String>,
    /// By phone id.
    pub students: BTreeMap<String, Student>,
    /// Each seat's open question, by its id.
    open: BTreeMap<String, u64>,
    /// This turn's votes, by phone id.
    pub votes: BTreeMap<String, String>,
    /// The teacher's own messages, numbered.
    sent: u64,
}

impl Room {
    pub fn new(secret: Secret, seats: Vec<String>) -> Room {
        Room {
            secret,
            rules: Rules::default(),
            agents: seats.clone(),
            seats,
            students: BTreeMap::new(),
            open: BTreeMap::new(),
            votes: BTreeMap::new(),
            sent: 0,
        }
    }

    pub fn code(&self) -> String {
        self.secret.code()
    }

    /// A message from the teacher's page to the phones, signed and numbered.
    pub fn seal(&mut self, body: String) -> Envelope {
        self.sent += 1;
        self.secret.seal("teacher", self.sent, body)
    }

    /// What the teacher's page says to `phone` when it has joined or come back.
    pub fn welcome(&self, phone: &str) -> Option<ToPhone> {
        let s = self.students.get(phone)?;
        Some(ToPhone::Welcome {
            name: s.name.clone(),
            token: s.token.clone(),
            seats: self.seats.clone(),
            taken: self.students.values().filter_map(|s| s.seat.clone()).collect(),
            pick_seats: self.rules.pick_seats,
        })
    }

    /// Who holds `agent`'s seat.
    pub fn holder(&self, agent: &str) -> Option<(&String, &Student)> {
        self.students.iter().find(|(_, s)| s.seat.as_deref() == Some(agent))
    }

    /// The teacher gives `agent`'s seat to `phone` (and takes it from whoever had it).
    pub fn assign(&mut self, phone: &str, agent: &str) -> Result<(), String> {
        if !self.seats.iter().any(|s| s == agent) {
            return Err(format!("{agent} is not a seat of this run"));
        }
        if !self.students.contains_key(phone) {
            return Err("that student is not in the room".into());
        }
        for s in self.students.values_mut() {
            if s.seat.as_deref() == Some(agent) {
                s.seat = None;
            }
        }
        if let Some(s) = self.students.get_mut(phone) {
            s.seat = Some(agent.to_string());
        }
        Ok(())
    }

    /// The teacher removes a student: their seat is free again and their token no longer works.
    pub fn remove(&mut self, phone: &str) -> Option<Student> {
        self.votes.remove(phone);
        self.students.remove(phone)
    }

    /// `agent`'s seat is asked question `id` (one open question a seat).
    pub fn ask(&mut self, agent: &str, id: u64) {
        self.open.insert(agent.to_string(), id);
    }

    /// The question of `agent`'s seat is closed (answered here, at the teacher's keyboard, or
    /// out of time).
    pub fn close(&mut self, agent: &str) {
        self.open.remove(agent);
    }

    /// A new turn: the votes start again.
    pub fn new_turn(&mut self) {
        self.votes.clear();
    }

    /// The votes for each agent, most first (ties by the run's order).
    pub fn tally(&self) -> Vec<(String, usize)> {
        let mut counts: Vec<(String, usize)> = self
            .agents
            .iter()
            .map(|a| (a.clone(), self.votes.values().filter(|v| *v == a).count()))
            .filter(|(_, n)| *n > 0)
            .collect();
        crate::text::sort_stable(&mut counts, |(_, a), (_, b)| a > b);
        counts
    }

    /// Marks the students not heard from since `now_ms - away_after_ms` as away (a message
    /// from them brings them back).
    pub fn check_away(&mut self, now_ms: f64) {
        for s in self.students.values_mut() {
            s.away |= now_ms - s.last_heard_ms > self.rules.away_after_ms;
        }
    }

    /// The transport lost `phone` (a locked screen, a dropped Wi-Fi): away until it is back.
    pub fn left(&mut self, phone: &str) {
        if let Some(s) = self.students.get_mut(phone) {
            s.away = true;
        }
    }

    /// Reads a message that came to the teacher's page at `now_ms` from the transport's `peer`;
    /// `token` makes a new student's token (the page's randomness). What it means, or why it was
    /// refused.
    pub fn receive(
        &mut self,
        peer: &str,
        e: &Envelope,
        now_ms: f64,
        token: impl FnOnce() -> String,
    ) -> Result<Happened, Refused> {
        // Another student signs with the same secret: the sender named must be the peer it came from.
        if e.from != peer || e.room != self.code() || !self.secret.verify(e) {
            return Err(Refused::Forged { from: peer.to_string() });
        }
        let message: FromPhone =
            serde_json::from_str(&e.body).map_err(|err| Refused::Unreadable { why: err.to_string() })?;
        let rules = self.rules.clone();
        if let Some(s) = self.students.get_mut(&e.from) {
            if e.seq <= s.last_seq {
                return Err(Refused::Replayed { from: e.from.clone() });
            }
            s.allowance = (s.allowance + (now_ms - s.last_heard_ms).max(0.0) / 1000.0 * rules.per_second)
                .min(rules.burst);
            s.last_seq = e.seq;
            s.last_heard_ms = now_ms;
            s.away = false;
            if s.allowance < 1.0 {
                return Err(Refused::Flooding { name: s.name.clone() });
            }
            s.allowance -= 1.0;
        }
        let rule = |name: &str, why: &str| Refused::Rule { name: name.to_string(), why: why.to_string() };
        match message {
            FromPhone::Join { name, token: kept } => {
                let name: String = name.trim().chars().take(rules.max_name).collect();
                if name.is_empty() {
                    return Err(rule("someone", "a name is needed to join"));
                }
                // Coming back with the token it was given: the same student, seat and all.
                if let Some(kept) = kept {
                    let back = self.students.iter().find(|(_, s)| s.token == kept).map(|(id, _)| id.clone());
                    if let Some(mut s) = back.as_ref().and_then(|old| self.students.remove(old)) {
                        let old = back.unwrap_or_default();
                        if let Some(v) = self.votes.remove(&old) {
                            self.votes.insert(e.from.clone(), v);
                        }
                        (s.last_seq, s.last_heard_ms, s.away) = (e.seq, now_ms, false);
                        let seat = s.seat.clone();
                        let name = s.name.clone();
                        self.students.insert(e.from.clone(), s);
                        return Ok(Happened::Rejoined { phone: e.from.clone(), name, seat });
                    }
                }
                // The same connection asking again (its first word may not have reached the page):
                // welcomed again, as it is.
                if let Some(s) = self.students.get(&e.from) {
                    let (name, seat) = (s.name.clone(), s.seat.clone());
                    return Ok(Happened::Rejoined { phone: e.from.clone(), name, seat });
                }
                let token = token();
                self.students.insert(
                    e.from.clone(),
                    Student {
                        name: name.clone(),
                        seat: None,
                        away: false,
                        token: token.clone(),
                        last_seq: e.seq,
                        last_heard_ms: now_ms,
                        allowance: rules.burst - 1.0,
                    },
                );
                Ok(Happened::Joined { phone: e.from.clone(), name, token })
            }
            other => {
                let Some(student) = self.students.get(&e.from) else {
                    return Err(rule("someone", "join the room first"));
                };
                let name = student.name.clone();
                match other {
                    FromPhone::TakeSeat { agent } => {
                        if !rules.pick_seats {
                            return Err(rule(&name, "the teacher gives the seats in this room"));
                        }
                        if !self.seats.contains(&agent) {
                            return Err(rule(&name, &format!("{agent} is not a seat of this run")));
                        }
                        match self.holder(&agent) {
                            Some((id, _)) if *id == e.from => {}
                            Some(_) => return Err(rule(&name, &format!("{agent}'s seat is taken"))),
                            None => {}
                        }
                        if let Some(s) = self.students.get_mut(&e.from) {
                            s.seat = Some(agent.clone());
                        }
                        Ok(Happened::SeatTaken { phone: e.from.clone(), agent })
                    }
                    FromPhone::Answer { question, answer } => {
                        let Some(agent) = student.seat.clone() else {
                            return Err(rule(&name, "only a seat answers: take one first"));
                        };
                        match self.open.get(&agent) {
                            Some(open) if *open == question => {}
                            _ => {
                                return Err(rule(
                                    &name,
                                    "that question is no longer open (answered, or out of time)",
                                ))
                            }
                        }
                        self.open.remove(&agent);
                        Ok(Happened::Answered { agent, question, answer, by: name })
                    }
                    FromPhone::Propose { text } => {
                        let text: String = text.trim().chars().take(rules.max_text).collect();
                        if text.is_empty() {
                            return Err(rule(&name, "an interjection needs some words"));
                        }
                        Ok(Happened::Proposed { by: name, text })
                    }
                    FromPhone::Vote { agent } => {
                        if !self.agents.contains(&agent) {
                            return Err(rule(&name, &format!("{agent} is not in this run")));
                        }
                        self.votes.insert(e.from.clone(), agent.clone());
                        Ok(Happened::Voted { by: name, agent })
                    }
                    // A join is read above.
                    FromPhone::Here | FromPhone::Join { .. } => Ok(Happened::Heard),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
