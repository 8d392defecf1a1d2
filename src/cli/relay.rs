//! `agora relay`: a small meeting point for a class's phones and the teacher's page, for networks
//! that block the public ones. The phones find the teacher's page through it and then talk peer to
//! peer, so it only ever passes on signalling (the offers and answers that open the connections).
//!
//! It speaks the part of Nostr (NIP-01) that signalling uses, over WebSocket: a client subscribes
//! (`["REQ", id, filter...]`, filtering on `kinds`, `ids`, `authors`, tags such as `#x`, `since`
//! and `until`), publishes (`["EVENT", event]`, acknowledged with `["OK", id, true, ""]` and passed
//! to every subscription it matches), and closes a subscription (`["CLOSE", id]`). It stores
//! nothing (a new subscription gets `EOSE` at once) and does not check the events' signatures:
//! what a class says to its teacher is signed with the room's secret (`crate::room`), which the
//! relay never sees.

use std::collections::HashMap;
use std::io::ErrorKind;
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};
use tungstenite::{Message, WebSocket};

/// The most a message may weigh, and the subscriptions a connection may hold.
const MAX_MESSAGE: usize = 64 * 1024;
const MAX_SUBSCRIPTIONS: usize = 32;

/// Every connection's outbox, and every subscription's filters.
#[derive(Default)]
struct Hub {
    outboxes: HashMap<u64, Sender<String>>,
    subscriptions: HashMap<(u64, String), Vec<Value>>,
}

impl Hub {
    /// Passes `event` to every subscription with a filter it matches.
    fn publish(&self, event: &Value) {
        for ((conn, id), filters) in &self.subscriptions {
            if filters.iter().any(|f| matches(f, event)) {
                if let Some(out) = self.outboxes.get(conn) {
                    let _ = out.send(json!(["EVENT", id, event]).to_string());
                }
            }
        }
    }
}

/// Whether `event` matches the NIP-01 `filter`.
fn matches(filter: &Value, event: &Value) -> bool {
    let Some(filter) = filter.as_object() else { return false };
    let field = |k: &str| event.get(k);
    filter.iter().all(|(key, want)| match key.as_str() {
        "kinds" | "ids" | "authors" => {
            let got = field(match key.as_str() {
                "kinds" => "kind",
                "ids" => "id",
                _ => "pubkey",
            });
            want.as_array().is_some_and(|list| got.is_some_and(|g| list.contains(g)))
        }
        "since" => {
            want.as_u64().zip(field("created_at").and_then(Value::as_u64)).is_some_and(|(w, g)| g >= w)
        }
        "until" => {
            want.as_u64().zip(field("created_at").and_then(Value::as_u64)).is_some_and(|(w, g)| g <= w)
        }
        tag if tag.starts_with('#') => {
            let name = &tag[1..];
            let tags = field("tags").and_then(Value::as_array).cloned().unwrap_or_default();
            want.as_array().is_some_and(|list| {
                tags.iter().any(|t| {
                    t.get(0).and_then(Value::as_str) == Some(name)
                        && t.get(1).is_some_and(|v| list.contains(v))
                })
            })
        }
        // "limit" and what NIP-01 does not define here change nothing for events passing through.
        _ => true,
    })
}

/// One message from a connection: the answers it gets straight back.
fn handle(hub: &Mutex<Hub>, conn: u64, text: &str) -> Vec<String> {
    let notice = |why: &str| vec![json!(["NOTICE", why]).to_string()];
    if text.len() > MAX_MESSAGE {
        return notice("the message is too large");
    }
    let Ok(Value::Array(parts)) = serde_json::from_str::<Value>(text) else {
        return notice("not a JSON array");
    };
    let mut hub = hub.lock().unwrap_or_else(|p| p.into_inner());
    match (parts.first().and_then(Value::as_str), parts.get(1)) {
        (Some("EVENT"), Some(event)) => {
            let id = event.get("id").and_then(Value::as_str).unwrap_or_default().to_string();
            let shaped = !id.is_empty()
                && event.get("kind").is_some_and(Value::is_u64)
                && event.get("tags").is_some_and(Value::is_array)
                && event.get("content").is_some_and(Value::is_string);
            if !shaped {
                return vec![json!([
                    "OK",
                    id,
                    false,
                    "invalid: an event needs an id, a kind, tags and content"
                ])
                .to_string()];
            }
            hub.publish(event);
            vec![json!(["OK", id, true, ""]).to_string()]
        }
        (Some("REQ"), Some(Value::String(id))) => {
            let open = hub.subscriptions.keys().filter(|(c, _)| *c == conn).count();
            if open >= MAX_SUBSCRIPTIONS && !hub.subscriptions.contains_key(&(conn, id.clone())) {
                return vec![json!(["CLOSED", id, "error: too many subscriptions"]).to_string()];
            }
            hub.subscriptions.insert((conn, id.clone()), parts[2..].to_vec());
            vec![json!(["EOSE", id]).to_string()]
        }
        (Some("CLOSE"), Some(Value::String(id))) => {
            hub.subscriptions.remove(&(conn, id.clone()));
            Vec::new()
        }
        _ => notice("unknown message: EVENT, REQ and CLOSE are served"),
    }
}

/// Serves one connection until it closes: what it sends, and what others publish to it.
fn serve(hub: Arc<Mutex<Hub>>, conn: u64, mut ws: WebSocket<TcpStream>, outbox: Receiver<String>) {
    loop {
        while let Ok(text) = outbox.try_recv() {
            if ws.send(Message::text(text)).is_err() {
                return;
            }
        }
        match ws.read() {
            Ok(Message::Text(text)) => {
                for answer in handle(&hub, conn, text.as_str()) {
                    if ws.send(Message::text(answer)).is_err() {
                        return;
                    }
                }
            }
            Ok(Message::Close(_)) => return,
            Ok(_) => {}
            Err(tungstenite::Error::Io(e))
                if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => return,
        }
    }
}

/// Listens on `host`:`port` and serves until stopped.
pub fn main(host: &str, port: u16) -> Result<i32, String> {
    let listener = TcpListener::bind(format!("{host}:{port}"))
        .map_err(|e| format!("cannot listen on {host}:{port}: {e}"))?;
    let at = listener.local_addr().map_err(|e| e.to_string())?;
    super::say(format_args!("agora relay: listening on ws://{at}"));
    let hub = Arc::new(Mutex::new(Hub::default()));
    for (conn, stream) in (0u64..).zip(listener.incoming()) {
        let Ok(stream) = stream else { continue };
        let hub = hub.clone();
        std::thread::spawn(move || {
            let Ok(ws) = tungstenite::accept(stream) else { return };
            // Short reads, so what others publish goes out between a connection's own messages.
            let _ = ws.get_ref().set_read_timeout(Some(Duration::from_millis(20)));
            let (tx, rx) = channel();
            hub.lock().unwrap_or_else(|p| p.into_inner()).outboxes.insert(conn, tx);
            serve(hub.clone(), conn, ws, rx);
            let mut hub = hub.lock().unwrap_or_else(|p| p.into_inner());
            hub.outboxes.remove(&conn);
            hub.subscriptions.retain(|(c, _), _| *c != conn);
        });
    }
    Ok(0)
}
