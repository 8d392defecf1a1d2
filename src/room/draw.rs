//! The room's two screens as HTML, drawn by the tools module: the teacher's panel (the join link,
//! its QR code and the short code, who has joined and in which seat, the interjections proposed,
//! the votes) and a student's phone (joining, the seat's question, the live transcript, proposing
//! and voting). Every control carries `data-act` (and the student, seat or proposal it acts on),
//! read by one handler for each screen.

use super::host::Host;
use super::Phone;
use crate::events::Event;
use crate::markup;
use crate::markup::Markup;

/// The part of the teacher's panel that changes as students come and go.
pub fn panel(host: &Host, link: &str) -> Markup {
    let room = &host.room;
    let qr =
        super::qr::svg(link, "QR code of the room's join link").unwrap_or_else(|e| markup!("<p>{}</p>", e));
    let mut h = markup!(
        "<h3>Class room <span class=\"room-code\" data-testid=\"room-code\">{}</span></h3><div class=\"room-join\"><div class=\"room-qr\" data-testid=\"room-qr\">{}</div><p>Students open <a data-testid=\"room-link\" href=\"{}\" target=\"_blank\" rel=\"noopener\">the join link</a> on their phones (or scan the code), type a name and are in. The link holds the room's secret: share it with the class only.</p></div>",
        room.code(),
        qr,
        link
    );
    let away: Vec<String> = room
        .students
        .values()
        .filter(|s| s.away)
        .filter_map(|s| s.seat.as_ref().map(|seat| format!("{} ({seat})", s.name)))
        .collect();
    if !away.is_empty() {
        h.push(markup!(
            "<p class=\"notice\" data-testid=\"room-seat-away\" role=\"status\">Away from their seat: {}. Their seat's time limit runs as usual; reopening the link brings them back.</p>",
            away.join(", ")
        ));
    }
    if room.seats.is_empty() {
        h.push_static("<p class=\"hint\">No seat is played by the class yet: tick the agents above for students to play them; the rest of the class is the audience.</p>");
    }
    h.push(markup!(
        "<div class=\"room-manage\"><h4>Joined ({})</h4><ul class=\"room-students\" data-testid=\"room-students\">",
        room.students.len()
    ));
    let mut students: Vec<_> = room.students.iter().collect();
    crate::text::sort_stable(&mut students, |(_, a), (_, b)| a.name.to_lowercase() < b.name.to_lowercase());
    for (id, s) in students {
        h.push(markup!(
            "<li data-testid=\"room-student\" data-name=\"{}\"><strong>{}</strong>{} <select data-act=\"assign\" data-phone=\"{}\" aria-label=\"Seat of {}\"><option value=\"\">audience</option>",
            s.name,
            s.name,
            if s.away { markup!(" <span class=\"tag\" data-testid=\"room-away\">away</span>") } else { Markup::new() },
            id,
            s.name
        ));
        for seat in &room.seats {
            let selected = if s.seat.as_ref() == Some(seat) { " selected" } else { "" };
            h.push(markup!("<option value=\"{}\"{}>{}</option>", seat, Markup::from_static(selected), seat));
        }
        h.push(markup!("</select> <button data-act=\"remove\" data-phone=\"{}\">Remove</button></li>", id));
    }
    h.push_static("</ul>");
    if !host.proposals.is_empty() {
        h.push_static("<h4>Interjections proposed</h4><ul data-testid=\"room-proposals\">");
        for p in &host.proposals {
            h.push(markup!(
                "<li data-testid=\"room-proposal\"><strong>{}</strong>: {} <button data-act=\"accept\" data-id=\"{}\">Accept</button> <button data-act=\"decline\" data-id=\"{}\">Decline</button></li>",
                p.by,
                p.text,
                p.id,
                p.id
            ));
        }
        h.push_static("</ul>");
    }
    h.push_static("</div>");
    let tally = room.tally();
    if !tally.is_empty() {
        h.push_static(
            "<h4>Votes for the next speaker</h4><ol class=\"room-tally\" data-testid=\"room-tally\">",
        );
        for (agent, n) in &tally {
            h.push(markup!("<li>{}: {}</li>", agent, n));
        }
        h.push(markup!(
            "</ol><button class=\"primary\" data-act=\"floor\" data-testid=\"room-give-floor\">Give the floor to {}</button>",
            tally[0].0
        ));
    }
    if !host.refused.is_empty() {
        h.push_static("<ul class=\"notice error\" data-testid=\"room-refused\" role=\"alert\">");
        for why in &host.refused {
            h.push(markup!("<li>{}</li>", why));
        }
        h.push_static("</ul>");
    }
    h
}

/// The messages of the run's log (its JSON lines), as the phone's transcript.
pub fn transcript(log: &[String]) -> Markup {
    let mut h = Markup::new();
    for line in log {
        if let Ok(Event::Message { turn, speaker, text, .. }) = serde_json::from_str::<Event>(line) {
            h.push(markup!(
                "<li data-testid=\"phone-message\" data-turn=\"{}\"><strong>{}</strong> {}</li>",
                turn,
                speaker,
                text
            ));
        }
    }
    h
}

/// The run's agents, from the `run_started` at the head of the log.
pub fn agents(log: &[String]) -> Vec<String> {
    match log.first().map(|l| serde_json::from_str::<Event>(l)) {
        Some(Ok(Event::RunStarted { scenario, .. })) => scenario.agent_names(),
        _ => Vec::new(),
    }
}

/// Who the student is and what they can do besides answering: their seat (or the free seats to
/// pick), the votes and the buttons to vote.
pub fn phone_head(p: &Phone) -> Markup {
    if p.ended {
        return markup!("<p class=\"notice\" data-testid=\"phone-ended\">The teacher closed the room. Thank you for taking part.</p>");
    }
    if p.removed {
        return markup!("<p class=\"notice error\" data-testid=\"phone-removed\">The teacher took you out of the room.</p>");
    }
    let mut h = match &p.seat {
        Some(agent) => markup!(
            "<p data-testid=\"phone-who\"><strong>{}</strong>, you play <strong>{}</strong>.</p>",
            p.name,
            agent
        ),
        None => {
            markup!("<p data-testid=\"phone-who\"><strong>{}</strong>, you are in the audience.</p>", p.name)
        }
    };
    let free: Vec<&String> = p.seats.iter().filter(|s| !p.taken.contains(s)).collect();
    if p.pick_seats && p.seat.is_none() && !free.is_empty() {
        h.push_static(
            "<div class=\"row\" role=\"group\" aria-label=\"Take a seat\"><span>Take a seat:</span>",
        );
        for s in free {
            h.push(markup!("<button data-act=\"take\" data-agent=\"{}\">{}</button>", s, s));
        }
        h.push_static("</div>");
    }
    let agents = agents(&p.log);
    if !agents.is_empty() {
        h.push_static("<div class=\"row\" role=\"group\" aria-label=\"Vote\" data-testid=\"phone-vote\"><span>Who should speak next?</span>");
        for a in &agents {
            let n = p.tally.iter().find(|(x, _)| x == a).map_or(0, |(_, n)| *n);
            h.push(markup!("<button data-act=\"vote\" data-agent=\"{}\">{} ({})</button>", a, a, n));
        }
        h.push_static("</div>");
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::room::{Secret, SECRET_BYTES};

    #[test]
    fn the_panel_lists_each_student_with_their_seat_and_escapes_what_students_type() {
        let mut host = Host::new(Secret::from_bytes([1; SECRET_BYTES]), vec!["Ann".into()], Vec::new());
        let mut phone = Phone::new(Secret::from_bytes([1; SECRET_BYTES]), "p1".into(), None);
        let m = crate::room::FromPhone::Join { name: "<b>Eve</b>".into(), token: None };
        let text = super::super::host::phone_message(&mut phone, &m);
        host.receive("p1", &text, 0.0, || "t".into());
        host.assign("p1", "Ann").unwrap();
        let html = panel(&host, "https://x.test/phone.html#k=abc").into_string();
        assert!(html.contains("&lt;b&gt;Eve&lt;/b&gt;") && !html.contains("<b>Eve"), "{html}");
        assert!(html.contains("<option value=\"Ann\" selected>Ann</option>"), "{html}");
        assert!(html.contains(&host.room.code()));
        assert!(html.contains("<svg"), "the QR code is drawn");
    }

    #[test]
    fn the_phone_shows_the_messages_of_the_log_and_votes_for_the_runs_agents() {
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
        let log = vec![started, said];
        let html = transcript(&log).into_string();
        assert_eq!(html.matches("phone-message").count(), 1);
        assert!(html.contains("Trains &lt;win&gt;"), "{html}");
        assert_eq!(agents(&log), s.agent_names());
        let mut p = Phone::new(Secret::from_bytes([1; SECRET_BYTES]), "p1".into(), None);
        p.name = "Ada".into();
        p.log = log;
        let head = phone_head(&p).into_string();
        assert_eq!(head.matches("data-act=\"vote\"").count(), s.agents.len(), "{head}");
        assert!(head.contains("you are in the audience"));
    }
}
