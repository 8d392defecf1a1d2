//! The room's rules, message by message, as the teacher's page applies them.

use super::*;

fn room() -> (Room, Secret) {
    let secret = Secret::from_bytes([7; SECRET_BYTES]);
    let room = Room::new(secret.clone(), vec!["Ann".into(), "Bob".into(), "Cy".into()]);
    (room, secret)
}

/// A phone's message, signed with `secret`.
fn from(secret: &Secret, phone: &str, seq: u64, m: FromPhone) -> Envelope {
    secret.seal(phone, seq, serde_json::to_string(&m).unwrap())
}

fn join(room: &mut Room, secret: &Secret, phone: &str, name: &str, at: f64) -> String {
    let e = from(secret, phone, 1, FromPhone::Join { name: name.into(), token: None });
    match room.receive(phone, &e, at, || format!("token-{phone}")) {
        Ok(Happened::Joined { token, .. }) => token,
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_secret_reads_back_from_its_link_text_and_gives_a_short_code_everyone_shares() {
    let secret = Secret::from_bytes([42; SECRET_BYTES]);
    let text = secret.to_text();
    assert_eq!(text.len(), 22, "{text}");
    assert!(text.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
    assert_eq!(Secret::from_text(&text).unwrap(), secret);
    let code = secret.code();
    assert_eq!(code.len(), 6);
    assert!(code.chars().all(|c| !"0O1IL".contains(c)), "{code}");
    assert_eq!(Secret::from_text(&text).unwrap().code(), code);
    assert_ne!(Secret::from_bytes([43; SECRET_BYTES]).code(), code);
    for bad in ["", "not base64 ***", "AAAA"] {
        assert!(Secret::from_text(bad).unwrap_err().starts_with("the room's link is damaged"), "{bad}");
    }
}

#[test]
fn a_message_signed_with_another_secret_or_changed_on_the_way_is_refused_as_forged() {
    let (mut room, secret) = room();
    join(&mut room, &secret, "p1", "Ada", 0.0);
    let stranger = Secret::from_bytes([8; SECRET_BYTES]);
    let mut forged = from(&stranger, "p1", 2, FromPhone::Vote { agent: "Ann".into() });
    // Even with the room's own code (a stranger who guessed it).
    forged.room = room.code();
    assert_eq!(room.receive("p1", &forged, 1.0, String::new), Err(Refused::Forged { from: "p1".into() }));
    let mut changed = from(&secret, "p1", 2, FromPhone::Vote { agent: "Ann".into() });
    changed.body = changed.body.replace("Ann", "Bob");
    assert!(matches!(room.receive("p1", &changed, 1.0, String::new), Err(Refused::Forged { .. })));
    let mut renumbered = from(&secret, "p1", 2, FromPhone::Here);
    renumbered.seq = 9;
    assert!(matches!(room.receive("p1", &renumbered, 1.0, String::new), Err(Refused::Forged { .. })));
    assert!(room.votes.is_empty(), "nothing forged was counted");
    assert!(Refused::Forged { from: "p1".into() }.to_string().contains("not signed with the room's secret"));
    // The real one goes through, once.
    let real = from(&secret, "p1", 2, FromPhone::Vote { agent: "Ann".into() });
    assert_eq!(
        room.receive("p1", &real, 1.0, String::new),
        Ok(Happened::Voted { by: "Ada".into(), agent: "Ann".into() })
    );
    assert_eq!(room.receive("p1", &real, 2.0, String::new), Err(Refused::Replayed { from: "p1".into() }));
}

#[test]
fn a_seat_answers_its_own_open_question_once_and_no_other() {
    let (mut room, secret) = room();
    join(&mut room, &secret, "p1", "Ada", 0.0);
    join(&mut room, &secret, "p2", "Ben", 0.0);
    let take = |agent: &str| FromPhone::TakeSeat { agent: agent.into() };
    assert_eq!(
        room.receive("p1", &from(&secret, "p1", 2, take("Ann")), 1.0, String::new),
        Ok(Happened::SeatTaken { phone: "p1".into(), agent: "Ann".into() })
    );
    // A seat taken is not another's; a seat not in the run is nobody's.
    assert!(
        matches!(room.receive("p2", &from(&secret, "p2", 2, take("Ann")), 1.0, String::new), Err(Refused::Rule { why, .. }) if why.contains("taken"))
    );
    assert!(matches!(
        room.receive("p2", &from(&secret, "p2", 3, take("Zed")), 1.0, String::new),
        Err(Refused::Rule { .. })
    ));
    room.ask("Ann", 5);
    let answer = |q| FromPhone::Answer { question: q, answer: "<7>".into() };
    // Ben holds no seat: he cannot answer Ann's question.
    assert!(
        matches!(room.receive("p2", &from(&secret, "p2", 4, answer(5)), 2.0, String::new), Err(Refused::Rule { why, .. }) if why.contains("only a seat answers"))
    );
    // Another question than the open one, then the right one, then the same again.
    assert!(matches!(
        room.receive("p1", &from(&secret, "p1", 3, answer(4)), 2.0, String::new),
        Err(Refused::Rule { .. })
    ));
    assert_eq!(
        room.receive("p1", &from(&secret, "p1", 4, answer(5)), 2.0, String::new),
        Ok(Happened::Answered { agent: "Ann".into(), question: 5, answer: "<7>".into(), by: "Ada".into() })
    );
    assert!(
        matches!(room.receive("p1", &from(&secret, "p1", 5, answer(5)), 2.0, String::new), Err(Refused::Rule { why, .. }) if why.contains("no longer open"))
    );
    // The teacher gives the seat to Ben: Ada no longer holds it.
    room.assign("p2", "Ann").unwrap();
    assert_eq!(room.holder("Ann").map(|(id, _)| id.as_str()), Some("p2"));
    assert_eq!(room.students["p1"].seat, None);
    // When the teacher gives the seats, students cannot take them.
    room.rules.pick_seats = false;
    assert!(
        matches!(room.receive("p1", &from(&secret, "p1", 6, take("Bob")), 3.0, String::new), Err(Refused::Rule { why, .. }) if why.contains("teacher gives"))
    );
}

#[test]
fn a_phone_that_comes_back_with_its_token_gets_its_seat_and_vote_back_and_a_removed_one_does_not() {
    let (mut room, secret) = room();
    let token = join(&mut room, &secret, "p1", "Ada", 0.0);
    room.receive(
        "p1",
        &from(&secret, "p1", 2, FromPhone::TakeSeat { agent: "Bob".into() }),
        1.0,
        String::new,
    )
    .unwrap();
    room.receive("p1", &from(&secret, "p1", 3, FromPhone::Vote { agent: "Cy".into() }), 1.0, String::new)
        .unwrap();
    // Away when not heard from for a while.
    room.check_away(20_000.0);
    assert!(room.students["p1"].away);
    // Back on a new connection (a new id), with the token its phone kept.
    let back = from(&secret, "p9", 1, FromPhone::Join { name: "whoever".into(), token: Some(token.clone()) });
    assert_eq!(
        room.receive("p9", &back, 21_000.0, || "unused".into()),
        Ok(Happened::Rejoined { phone: "p9".into(), name: "Ada".into(), seat: Some("Bob".into()) })
    );
    assert!(!room.students["p9"].away && !room.students.contains_key("p1"));
    assert_eq!(room.tally(), [("Cy".to_string(), 1)]);
    // The transport lost it: away at once, and still away at the next look, however recently heard.
    room.left("p9");
    room.check_away(21_500.0);
    assert!(room.students["p9"].away);
    room.receive("p9", &from(&secret, "p9", 2, FromPhone::Here), 22_000.0, String::new).unwrap();
    assert!(!room.students["p9"].away, "a message brings it back");
    // Removed: the seat is free, and the token no longer brings anyone back.
    room.remove("p9");
    assert!(room.holder("Bob").is_none() && room.votes.is_empty());
    let again = from(&secret, "p10", 1, FromPhone::Join { name: "Ada".into(), token: Some(token) });
    assert!(
        matches!(room.receive("p10", &again, 22_000.0, || "new".into()), Ok(Happened::Joined { token, .. }) if token == "new")
    );
    assert_eq!(room.students["p10"].seat, None);
}

#[test]
fn a_phone_that_floods_the_room_is_slowed_and_votes_tally_by_the_seats_order() {
    let (mut room, secret) = room();
    join(&mut room, &secret, "p1", "Ada", 0.0);
    join(&mut room, &secret, "p2", "Ben", 0.0);
    join(&mut room, &secret, "p3", "Cat", 0.0);
    // Ten messages at once use the burst; the next is dropped until time refills it.
    let mut refused = 0;
    for seq in 2..20 {
        if let Err(Refused::Flooding { name }) =
            room.receive("p1", &from(&secret, "p1", seq, FromPhone::Here), 10.0, String::new)
        {
            assert_eq!(name, "Ada");
            refused += 1;
        }
    }
    assert_eq!(refused, 18 - 9, "a burst of ten, the join counted");
    assert!(
        room.receive("p1", &from(&secret, "p1", 30, FromPhone::Here), 1_010.0, String::new).is_ok(),
        "a second later it may speak"
    );
    for (phone, seq, agent) in [("p1", 31, "Cy"), ("p2", 2, "Bob"), ("p3", 2, "Cy"), ("p2", 3, "Cy")] {
        room.receive(
            phone,
            &from(&secret, phone, seq, FromPhone::Vote { agent: agent.into() }),
            2_000.0,
            String::new,
        )
        .unwrap();
    }
    // One vote a phone: Ben changed his mind.
    assert_eq!(room.tally(), [("Cy".to_string(), 3)]);
    room.new_turn();
    assert!(room.tally().is_empty());
    // A name and an interjection are trimmed and bounded; empty ones are refused.
    let long = "x".repeat(1000);
    assert!(
        matches!(room.receive("p2", &from(&secret, "p2", 4, FromPhone::Propose { text: long }), 3_000.0, String::new), Ok(Happened::Proposed { text, .. }) if text.len() == 400)
    );
    assert!(room
        .receive(
            "p2",
            &from(&secret, "p2", 5, FromPhone::Propose { text: "  ".into() }),
            3_000.0,
            String::new
        )
        .is_err());
    let e = from(&secret, "p4", 1, FromPhone::Join { name: " ".into(), token: None });
    assert!(room.receive("p4", &e, 3_000.0, String::new).is_err());
    // A message before joining, and one that is not a message of the room's.
    assert!(
        matches!(room.receive("p5", &from(&secret, "p5", 1, FromPhone::Here), 3_000.0, String::new), Err(Refused::Rule { why, .. }) if why.contains("join"))
    );
    let junk = secret.seal("p5", 2, "{\"kind\":\"dance\"}".into());
    assert!(matches!(room.receive("p5", &junk, 3_000.0, String::new), Err(Refused::Unreadable { .. })));
}

/// Sends `m` from the teacher's page (the transport's peer "teacher-peer") to `phone`.
fn tell(room: &mut Room, phone: &mut Phone, m: &ToPhone) -> Result<ToPhone, String> {
    let e = room.seal(serde_json::to_string(m).unwrap());
    phone.receive("teacher-peer", &e)
}

#[test]
fn a_phone_and_the_teachers_page_play_a_seat_from_joining_to_answering_and_come_back_after_a_drop() {
    let (mut room, secret) = room();
    let mut phone = Phone::new(secret.clone(), "peer-1".into(), None);
    let joined = room.receive("peer-1", &phone.join("Ada"), 0.0, || "t-1".into()).unwrap();
    assert_eq!(joined, Happened::Joined { phone: "peer-1".into(), name: "Ada".into(), token: "t-1".into() });
    let welcome = room.welcome("peer-1").unwrap();
    tell(&mut room, &mut phone, &welcome).unwrap();
    assert_eq!(
        (phone.name.as_str(), phone.token.as_deref(), phone.seats.len(), phone.pick_seats),
        ("Ada", Some("t-1"), 3, true)
    );
    // The transcript, in order: a piece that does not follow what it holds waits.
    tell(&mut room, &mut phone, &ToPhone::Events { from: 0, lines: "{\"a\":1}\n{\"a\":2}".into() }).unwrap();
    tell(&mut room, &mut phone, &ToPhone::Events { from: 5, lines: "{\"a\":6}".into() }).unwrap();
    tell(&mut room, &mut phone, &ToPhone::Events { from: 2, lines: "{\"a\":3}".into() }).unwrap();
    assert_eq!(phone.log.len(), 3);
    // A seat, its question and the answer, which the room takes once.
    let take = phone.send(&FromPhone::TakeSeat { agent: "Bob".into() });
    room.receive("peer-1", &take, 1.0, String::new).unwrap();
    tell(&mut room, &mut phone, &ToPhone::Seat { agent: Some("Bob".into()), taken: vec!["Bob".into()] })
        .unwrap();
    room.ask("Bob", 3);
    // A question for another seat is not this phone's.
    tell(&mut room, &mut phone, &ToPhone::Question { id: 2, agent: "Ann".into(), question: "{}".into() })
        .unwrap();
    assert!(phone.question.is_none());
    tell(
        &mut room,
        &mut phone,
        &ToPhone::Question { id: 3, agent: "Bob".into(), question: "{\"q\":1}".into() },
    )
    .unwrap();
    let answer = phone.answer("<6>".into()).unwrap();
    assert!(phone.answer("<7>".into()).is_err(), "one answer a question");
    assert_eq!(
        room.receive("peer-1", &answer, 2.0, String::new),
        Ok(Happened::Answered { agent: "Bob".into(), question: 3, answer: "<6>".into(), by: "Ada".into() })
    );
    // The phone locks its screen and comes back on a new connection with its token.
    let mut back = Phone::new(secret.clone(), "peer-2".into(), phone.token.clone());
    let rejoined = room.receive("peer-2", &back.join("Ada"), 30_000.0, || "unused".into()).unwrap();
    assert_eq!(
        rejoined,
        Happened::Rejoined { phone: "peer-2".into(), name: "Ada".into(), seat: Some("Bob".into()) }
    );
    let welcome = room.welcome("peer-2").unwrap();
    tell(&mut room, &mut back, &welcome).unwrap();
    assert_eq!(back.taken, ["Bob"]);
    // Removed: the phone forgets its token and seat.
    tell(&mut room, &mut back, &ToPhone::Removed).unwrap();
    assert!(back.removed && back.token.is_none() && back.seat.is_none());
}

#[test]
fn a_phone_ignores_what_its_teacher_did_not_sign_or_already_said() {
    let (mut room, secret) = room();
    let mut phone = Phone::new(secret.clone(), "peer-1".into(), None);
    let stranger = Secret::from_bytes([9; SECRET_BYTES]);
    let welcome = |room: &mut Room| {
        let w = ToPhone::Welcome {
            name: "Ada".into(),
            token: "t".into(),
            seats: vec![],
            taken: vec![],
            pick_seats: true,
        };
        room.seal(serde_json::to_string(&w).unwrap())
    };
    let mut forged = stranger.seal("teacher", 1, serde_json::to_string(&ToPhone::Removed).unwrap());
    forged.room = secret.code();
    assert!(phone.receive("teacher-peer", &forged).unwrap_err().contains("not from this room's teacher"));
    // Before a welcome, nothing but a welcome is taken.
    let early = room.seal(serde_json::to_string(&ToPhone::Removed).unwrap());
    assert!(phone.receive("teacher-peer", &early).is_err());
    phone.receive("teacher-peer", &welcome(&mut room)).unwrap();
    // Another student holds the secret and signs as the teacher: not from the teacher's peer.
    let posing = secret.seal("teacher", 99, serde_json::to_string(&ToPhone::Removed).unwrap());
    assert!(phone.receive("peer-9", &posing).is_err());
    assert!(!phone.removed);
    let real = room.seal(serde_json::to_string(&ToPhone::Tally { votes: vec![("Cy".into(), 2)] }).unwrap());
    assert!(phone.receive("teacher-peer", &real).is_ok());
    assert!(phone.receive("teacher-peer", &real).unwrap_err().contains("came again"));
    assert_eq!(phone.tally, [("Cy".to_string(), 2)]);
}

#[test]
fn a_student_who_holds_the_secret_cannot_speak_for_another() {
    let (mut room, secret) = room();
    join(&mut room, &secret, "p1", "Ada", 0.0);
    join(&mut room, &secret, "p2", "Ben", 0.0);
    room.receive(
        "p1",
        &from(&secret, "p1", 2, FromPhone::TakeSeat { agent: "Ann".into() }),
        1.0,
        String::new,
    )
    .unwrap();
    room.ask("Ann", 1);
    // Ben signs an answer in Ada's name, with the room's secret, and sends it from his own peer.
    let posing = from(&secret, "p1", 50, FromPhone::Answer { question: 1, answer: "<1>".into() });
    assert_eq!(room.receive("p2", &posing, 2.0, String::new), Err(Refused::Forged { from: "p2".into() }));
    assert!(matches!(
        room.receive("p1", &from(&secret, "p1", 3, FromPhone::Answer { question: 1, answer: "<9>".into() }), 2.0, String::new),
        Ok(Happened::Answered { by, .. }) if by == "Ada"
    ));
}
