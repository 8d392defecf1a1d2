//! The teacher's side of a room as the page runs it: the [`Room`]'s rules, plus what the page
//! feeds it (the run's events as they are recorded, the question a seat is asked) and what it
//! hands back (envelopes for the phones, and what the run must do: an answer, an interjection
//! accepted, a vote, the floor given). Plain data and logic, so every exchange is tested natively;
//! the tools module carries the envelopes over WebRTC and draws the panel.

use super::{Envelope, FromPhone, Happened, Refused, Room, Secret, ToPhone};

/// Where an envelope goes: to one phone (by its transport id) or to every peer in the room.
#[derive(Clone, Debug, PartialEq)]
pub enum Send {
    To(String, Envelope),
    All(Envelope),
}

/// What the page does on the run for the room (the room's panel hands it to the page as it is).
#[derive(Clone, Debug, PartialEq)]
pub enum ForPage {
    /// `agent`'s seat's answer, as the seat's box writes it (`Answer::to_line`), and who gave it.
    Answer { agent: String, answer: String, by: String },
    /// An interjection the teacher accepted, said by the student who proposed it.
    Interject { by: String, text: String },
    /// A student's vote, to record in the log.
    Vote { by: String, agent: String },
    /// The teacher gave the floor (to the vote's winner).
    Floor { agent: String },
}

/// An interjection a student proposed, waiting for the teacher.
#[derive(Clone, Debug, PartialEq)]
pub struct Proposal {
    pub id: u64,
    pub by: String,
    pub text: String,
}

/// The question a seat is asked now.
#[derive(Clone, Debug, PartialEq)]
struct Asked {
    id: u64,
    agent: String,
    json: String,
}

/// The room on the teacher's page.
#[derive(Clone, Debug)]
pub struct Host {
    pub room: Room,
    /// The run's events so far, as JSON lines: what a phone that joins is sent first.
    pub log: Vec<String>,
    /// Each seat's open question.
    asked: Vec<Asked>,
    asked_count: u64,
    pub proposals: Vec<Proposal>,
    proposed_count: u64,
    /// Messages refused, newest last, for the teacher to see (a forged one above all).
    pub refused: Vec<String>,
}

/// How many refusals the panel keeps.
const KEPT_REFUSALS: usize = 5;

impl Host {
    pub fn new(secret: Secret, seats: Vec<String>, log: Vec<String>) -> Host {
        Host {
            room: Room::new(secret, seats),
            log,
            asked: Vec::new(),
            asked_count: 0,
            proposals: Vec::new(),
            proposed_count: 0,
            refused: Vec::new(),
        }
    }

    fn seal_all(&mut self, m: &ToPhone) -> Send {
        Send::All(self.room.seal(serde_json::to_string(m).unwrap_or_default()))
    }

    fn seal_one(&mut self, phone: &str, m: &ToPhone) -> Send {
        Send::To(phone.to_string(), self.room.seal(serde_json::to_string(m).unwrap_or_default()))
    }

    /// The run's events from the `from`th on (a new run starts at 0; an undone answer goes
    /// back): every phone gets them.
    pub fn events(&mut self, from: usize, lines: &[String]) -> Vec<Send> {
        if from > self.log.len() {
            return Vec::new();
        }
        self.log.truncate(from);
        self.log.extend(lines.iter().cloned());
        // A new run: its seats are the room's (the class may have changed them since).
        if let Some(Ok(crate::events::Event::RunStarted { scenario, .. })) =
            lines.first().filter(|_| from == 0).map(|l| serde_json::from_str(l))
        {
            self.room.seats = scenario.seats.clone();
            self.room.agents = scenario.agent_names();
        }
        // A turn's speech ends the votes for who speaks after it.
        let spoke =
            lines.iter().any(|l| l.contains("\"type\":\"message\"") && l.contains("\"kind\":\"agent\""));
        let mut out = vec![self.seal_all(&ToPhone::Events { from, lines: lines.join("\n") })];
        if spoke && !self.room.votes.is_empty() {
            self.room.new_turn();
            out.push(self.seal_all(&ToPhone::Tally { votes: Vec::new() }));
        }
        out
    }

    /// The question `agent`'s seat is asked now (its JSON, `crate::seat::Question::to_json`),
    /// or none: the phone holding the seat gets it; a question closed is closed on the phone too.
    pub fn asked(&mut self, agent: &str, question: Option<&str>) -> Vec<Send> {
        let mut out = Vec::new();
        if let Some(at) = self.asked.iter().position(|a| a.agent == agent) {
            let old = self.asked.remove(at);
            self.room.close(&old.agent);
            if let Some((phone, _)) = self.room.holder(&old.agent) {
                let phone = phone.clone();
                out.push(self.seal_one(&phone, &ToPhone::Closed { id: old.id }));
            }
        }
        if let Some(json) = question {
            self.asked_count += 1;
            let asked = Asked { id: self.asked_count, agent: agent.to_string(), json: json.to_string() };
            out.extend(self.put(&asked));
            self.asked.push(asked);
        }
        out
    }

    /// `asked` is open on its seat: the room takes the seat's answer to it, and the phone holding
    /// the seat, if any, gets it.
    fn put(&mut self, asked: &Asked) -> Option<Send> {
        self.room.ask(&asked.agent, asked.id);
        let phone = self.room.holder(&asked.agent)?.0.clone();
        let m = ToPhone::Question { id: asked.id, agent: asked.agent.clone(), question: asked.json.clone() };
        Some(self.seal_one(&phone, &m))
    }

    /// `agent`'s seat's open question, if it has one, put again (the seat has a new holder, or its
    /// phone came back).
    fn put_again(&mut self, agent: &str) -> Option<Send> {
        let asked = self.asked.iter().find(|a| a.agent == agent).cloned()?;
        self.put(&asked)
    }

    /// What a phone that has just joined or come back is sent: the welcome, its seat, the log so
    /// far, its seat's open question and the tally.
    fn catch_up(&mut self, phone: &str) -> Vec<Send> {
        let Some(welcome) = self.room.welcome(phone) else { return Vec::new() };
        let seat = self.room.students.get(phone).and_then(|s| s.seat.clone());
        let mut out = vec![
            self.seal_one(phone, &welcome),
            self.seal_one(phone, &ToPhone::Seat { agent: seat.clone(), taken: self.taken() }),
            self.seal_one(phone, &ToPhone::Events { from: 0, lines: self.log.join("\n") }),
        ];
        // The seat's question is open again for the phone that came back.
        if let Some(seat) = seat {
            out.extend(self.put_again(&seat));
        }
        out.push(self.seal_one(phone, &ToPhone::Tally { votes: self.room.tally() }));
        out
    }

    /// The seats taken, for every phone (students picking theirs see which are free).
    fn seats_changed(&mut self) -> Vec<Send> {
        let phones: Vec<(String, Option<String>)> =
            self.room.students.iter().map(|(id, s)| (id.clone(), s.seat.clone())).collect();
        let taken = self.taken();
        phones
            .into_iter()
            .map(|(id, agent)| self.seal_one(&id, &ToPhone::Seat { agent, taken: taken.clone() }))
            .collect()
    }

    fn taken(&self) -> Vec<String> {
        self.room.students.values().filter_map(|s| s.seat.clone()).collect()
    }

    /// A message from the transport's `peer` at `now_ms`: what goes back to the phones and what
    /// the page must do. `token` makes a new student's token.
    pub fn receive(
        &mut self,
        peer: &str,
        text: &str,
        now_ms: f64,
        token: impl FnOnce() -> String,
    ) -> (Vec<Send>, Vec<ForPage>) {
        let envelope: Envelope = match serde_json::from_str(text) {
            Ok(e) => e,
            Err(e) => return self.refuse(peer, Refused::Unreadable { why: e.to_string() }),
        };
        match self.room.receive(peer, &envelope, now_ms, token) {
            Ok(Happened::Joined { phone, .. }) | Ok(Happened::Rejoined { phone, .. }) => {
                (self.catch_up(&phone), Vec::new())
            }
            Ok(Happened::SeatTaken { agent, .. }) => {
                let mut out = self.seats_changed();
                out.extend(self.put_again(&agent));
                (out, Vec::new())
            }
            Ok(Happened::Answered { agent, answer, by, .. }) => {
                self.asked.retain(|a| a.agent != agent);
                (Vec::new(), vec![ForPage::Answer { agent, answer, by }])
            }
            Ok(Happened::Proposed { by, text }) => {
                self.proposed_count += 1;
                self.proposals.push(Proposal { id: self.proposed_count, by, text });
                (Vec::new(), Vec::new())
            }
            Ok(Happened::Voted { by, agent }) => {
                let tally = self.seal_all(&ToPhone::Tally { votes: self.room.tally() });
                (vec![tally], vec![ForPage::Vote { by, agent }])
            }
            Ok(Happened::Heard) => (Vec::new(), Vec::new()),
            Err(why) => self.refuse(peer, why),
        }
    }

    fn refuse(&mut self, peer: &str, why: Refused) -> (Vec<Send>, Vec<ForPage>) {
        self.refused.push(why.to_string());
        if self.refused.len() > KEPT_REFUSALS {
            self.refused.remove(0);
        }
        // A student hears why; a forger or a stranger hears nothing.
        let back = match &why {
            Refused::Rule { why, .. } if self.room.students.contains_key(peer) => {
                vec![self.seal_one(peer, &ToPhone::Refused { why: why.clone() })]
            }
            Refused::Flooding { .. } => {
                vec![self.seal_one(peer, &ToPhone::Refused { why: "slow down: too many messages".into() })]
            }
            _ => Vec::new(),
        };
        (back, Vec::new())
    }

    /// The teacher gives `agent`'s seat to `phone` ("" takes it back into the audience).
    pub fn assign(&mut self, phone: &str, agent: &str) -> Result<Vec<Send>, String> {
        if agent.is_empty() {
            if let Some(s) = self.room.students.get_mut(phone) {
                s.seat = None;
            }
        } else {
            self.room.assign(phone, agent)?;
        }
        let mut out = self.seats_changed();
        out.extend(self.put_again(agent));
        Ok(out)
    }

    /// The teacher takes `phone` out of the room: told so, its seat free, its token dead.
    pub fn remove(&mut self, phone: &str) -> Vec<Send> {
        if self.room.students.contains_key(phone) {
            let told = self.seal_one(phone, &ToPhone::Removed);
            self.room.remove(phone);
            let mut out = vec![told];
            out.extend(self.seats_changed());
            return out;
        }
        Vec::new()
    }

    /// The teacher closes the room: every phone is told it has ended. The host goes on keeping
    /// the run's log and seats, for a room opened again with a new link.
    pub fn close(&mut self) -> Vec<Send> {
        let told = self.seal_all(&ToPhone::Ended);
        self.room.students.clear();
        self.proposals.clear();
        vec![told]
    }

    /// The teacher accepts (`true`) or declines proposal `id`.
    pub fn decide(&mut self, id: u64, accept: bool) -> Option<ForPage> {
        let at = self.proposals.iter().position(|p| p.id == id)?;
        let p = self.proposals.remove(at);
        accept.then_some(ForPage::Interject { by: p.by, text: p.text })
    }

    /// The agent most voted for, if anyone voted.
    pub fn winner(&self) -> Option<String> {
        self.room.tally().first().map(|(agent, _)| agent.clone())
    }

    /// The teacher gives the floor to the vote's winner: the votes start again.
    pub fn give_floor(&mut self) -> Option<(ForPage, Send)> {
        let agent = self.winner()?;
        self.room.new_turn();
        let cleared = self.seal_all(&ToPhone::Tally { votes: Vec::new() });
        Some((ForPage::Floor { agent }, cleared))
    }

    /// Who is away (not heard from lately), as of `now_ms`.
    pub fn check_away(&mut self, now_ms: f64) {
        self.room.check_away(now_ms);
    }
}

/// A phone's message, signed: for the phone's own code and tests.
pub fn phone_message(phone: &mut super::Phone, m: &FromPhone) -> String {
    serde_json::to_string(&phone.send(m)).unwrap_or_default()
}

#[cfg(test)]
mod tests;
