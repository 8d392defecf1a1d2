//! `agora relay` on 127.0.0.1: what a subscription receives, what it does not, and that one
//! client going away or writing nonsense leaves the others served.

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{json, Value};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// The relay in a child process, stopped when dropped.
struct Relay {
    child: Child,
    url: String,
}

impl Drop for Relay {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn relay() -> Relay {
    let mut child = Command::new(env!("CARGO_BIN_EXE_agora"))
        .args(["relay", "--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("the relay starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url = line.trim().strip_prefix("agora relay: listening on ").expect(&line).to_string();
    assert!(url.starts_with("ws://127.0.0.1:"), "{url}");
    Relay { child, url }
}

type Client = WebSocket<MaybeTlsStream<TcpStream>>;

fn connect(url: &str) -> Client {
    let (ws, _) = tungstenite::connect(url).expect("a WebSocket to the relay");
    if let MaybeTlsStream::Plain(s) = ws.get_ref() {
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    }
    ws
}

fn send(ws: &mut Client, v: Value) {
    ws.send(Message::text(v.to_string())).unwrap();
}

/// The next text message, as JSON.
fn next(ws: &mut Client) -> Value {
    loop {
        match ws.read().expect("a message within five seconds") {
            Message::Text(t) => return serde_json::from_str(t.as_str()).unwrap(),
            _ => continue,
        }
    }
}

fn event(id: &str, kind: u64, room: &str, content: &str) -> Value {
    json!({"id": id, "pubkey": "p", "created_at": 1_800_000_000u64, "kind": kind, "tags": [["x", room]], "content": content, "sig": "s"})
}

#[test]
fn a_subscription_gets_the_events_its_filter_matches_and_no_others() {
    let relay = relay();
    let mut teacher = connect(&relay.url);
    let mut phone = connect(&relay.url);
    send(&mut teacher, json!(["REQ", "room", {"kinds": [20001], "#x": ["abc"], "since": 1_700_000_000u64}]));
    assert_eq!(next(&mut teacher), json!(["EOSE", "room"]));
    // Another room's, another kind's and an older event are not passed on; the room's is.
    for (id, kind, room) in [("e1", 20001, "other"), ("e2", 20002, "abc"), ("e3", 20001, "abc")] {
        send(&mut phone, json!(["EVENT", event(id, kind, room, "offer")]));
        assert_eq!(next(&mut phone), json!(["OK", id, true, ""]));
    }
    let mut old = event("e0", 20001, "abc", "stale");
    old["created_at"] = json!(1_600_000_000u64);
    send(&mut phone, json!(["EVENT", old]));
    assert_eq!(next(&mut phone)[2], json!(true));
    assert_eq!(next(&mut teacher), json!(["EVENT", "room", event("e3", 20001, "abc", "offer")]));
    // Closed (a connection's messages are served in order: the EOSE after the CLOSE says it is
    // done): what the old filter matched no longer comes, only what the new one does.
    send(&mut teacher, json!(["CLOSE", "room"]));
    send(&mut teacher, json!(["REQ", "again", {"ids": ["e5"]}]));
    assert_eq!(next(&mut teacher), json!(["EOSE", "again"]));
    send(&mut phone, json!(["EVENT", event("e4", 20001, "abc", "late")]));
    assert_eq!(next(&mut phone)[1], json!("e4"));
    send(&mut phone, json!(["EVENT", event("e5", 20001, "abc", "by id")]));
    assert_eq!(next(&mut teacher), json!(["EVENT", "again", event("e5", 20001, "abc", "by id")]));
}

#[test]
fn nonsense_and_a_client_that_leaves_do_not_stop_the_relay() {
    let relay = relay();
    let mut a = connect(&relay.url);
    let mut b = connect(&relay.url);
    send(&mut b, json!(["REQ", "s", {"#x": ["abc"]}]));
    assert_eq!(next(&mut b)[0], json!("EOSE"));
    a.send(Message::text("not json")).unwrap();
    assert_eq!(next(&mut a)[0], json!("NOTICE"));
    send(&mut a, json!(["EVENT", {"id": "bad"}]));
    assert_eq!(
        next(&mut a),
        json!(["OK", "bad", false, "invalid: an event needs an id, a kind, tags and content"])
    );
    send(&mut a, json!(["DANCE"]));
    assert_eq!(next(&mut a)[0], json!("NOTICE"));
    a.send(Message::text("x".repeat(70 * 1024))).unwrap();
    assert_eq!(next(&mut a), json!(["NOTICE", "the message is too large"]));
    // A phone drops off mid-conversation; a new one gets through.
    drop(a);
    let mut c = connect(&relay.url);
    send(&mut c, json!(["EVENT", event("e1", 20001, "abc", "hello")]));
    assert_eq!(next(&mut c), json!(["OK", "e1", true, ""]));
    assert_eq!(next(&mut b)[2]["content"], json!("hello"));
}
