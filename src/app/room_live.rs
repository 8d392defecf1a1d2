//! The room over WebRTC, as the tools module runs it: on the teacher's page, the [`Host`] with
//! its panel (drawn in `#room-panel`, one handler for its controls) and the page's half of the
//! conversation (`app::room`); on a student's phone (phone.html), the [`Phone`] with its screen.
//! The transport is trystero's (public/room/net.mjs, bundled at build time), loaded here the
//! first time a room opens or a phone joins. None of this is on the first page.

use std::cell::RefCell;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use crate::markup::Markup;
use crate::room::draw;
use crate::room::host::{ForPage, Host, Send};
use crate::room::{Envelope, FromPhone, Phone, Secret, ToPhone, SECRET_BYTES};

/// How often a phone says it is still there, and how often the teacher's page looks for phones
/// gone quiet.
const HERE_EVERY_MS: i32 = 5000;

/// Where the room meets: the relay (empty: trystero's public Nostr relays) and the STUN/TURN
/// servers (empty: trystero's public ones; `none`: no server, for a network of its own). The
/// teacher's page keeps them (localStorage `agora.room`); the join link carries them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Meeting {
    pub relay: String,
    pub ice: String,
}

const SETTINGS_KEY: &str = "agora.room";

use super::storage::storage;

/// The JSON object kept under `key` (an empty one when none is, or it is not readable).
fn kept_json(key: &str) -> serde_json::Value {
    storage()
        .and_then(|s| s.get_item(key).ok().flatten())
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

/// The text field `field` of `v` ("" when it has none).
fn text_of(v: &serde_json::Value, field: &str) -> String {
    v.get(field).and_then(|x| x.as_str()).unwrap_or_default().to_string()
}

/// The `value` of an input or a list.
fn value_of(el: &web_sys::Element) -> String {
    js_sys::Reflect::get(el, &"value".into()).ok().and_then(|v| v.as_string()).unwrap_or_default()
}

/// The `value` of the input named `name` ("" when there is none).
fn input(name: &str) -> String {
    element(&format!("input[name={name}]")).map(|e| value_of(&e)).unwrap_or_default()
}

/// The JSON lines of a log's text, blank lines left out.
fn json_lines(text: &str) -> Vec<String> {
    text.lines().filter(|l| !l.trim().is_empty()).map(String::from).collect()
}

fn encode(text: &str) -> String {
    js_sys::encode_uri_component(text).into()
}

fn decode(text: &str) -> String {
    js_sys::decode_uri_component(text).ok().map(String::from).unwrap_or_default()
}

impl Meeting {
    fn saved() -> Meeting {
        let v = kept_json(SETTINGS_KEY);
        Meeting { relay: text_of(&v, "relay").trim().into(), ice: text_of(&v, "ice").trim().into() }
    }

    fn save(&self) {
        let text = serde_json::json!({"relay": self.relay, "ice": self.ice}).to_string();
        if let Some(s) = storage() {
            let _ = s.set_item(SETTINGS_KEY, &text);
        }
    }

    /// The link's fragment after the secret.
    fn fragment(&self) -> String {
        let mut f = String::new();
        if !self.relay.is_empty() {
            f += &format!("&relay={}", encode(&self.relay));
        }
        if !self.ice.is_empty() {
            f += &format!("&ice={}", encode(&self.ice));
        }
        f
    }

    /// The secret's text and the meeting a join link's fragment holds.
    pub fn from_fragment(hash: &str) -> (String, Meeting) {
        let mut out = (String::new(), Meeting::default());
        for part in hash.trim_start_matches('#').split('&') {
            let (k, v) = part.split_once('=').unwrap_or((part, ""));
            match k {
                "k" => out.0 = v.to_string(),
                "relay" => out.1.relay = decode(v),
                "ice" => out.1.ice = decode(v),
                _ => {}
            }
        }
        out
    }

    fn options(&self, topic: &str) -> JsValue {
        let list = |text: &str| -> js_sys::Array {
            text.split([',', ' ']).filter(|s| !s.is_empty()).map(JsValue::from).collect()
        };
        let o = js_sys::Object::new();
        let set = |k: &str, v: JsValue| {
            let _ = js_sys::Reflect::set(&o, &k.into(), &v);
        };
        set("topic", topic.into());
        set("relays", list(&self.relay).into());
        set(
            "ice",
            match self.ice.as_str() {
                "" => JsValue::NULL,
                "none" => js_sys::Array::new().into(),
                servers => list(servers).into(),
            },
        );
        o.into()
    }
}

/// The room's transport: this page's id in it, and sending to one peer or all.
struct Net {
    id: String,
    handle: JsValue,
}

impl Net {
    async fn join(
        meeting: &Meeting,
        topic: &str,
        joined: fn(String),
        left: fn(String),
        heard: fn(String, String),
        reach: fn(bool),
    ) -> Result<Net, String> {
        let failed =
            |e: JsValue| format!("the room's connection could not start ({})", super::intab::words(&e));
        let m = JsFuture::from(super::intab::import_module("room/net.js")).await.map_err(failed)?;
        let join: js_sys::Function = js_sys::Reflect::get(&m, &"join".into())
            .ok()
            .and_then(|f| f.dyn_into().ok())
            .ok_or("the room's connection module is damaged: reload the page")?;
        let joined = Closure::<dyn Fn(String)>::new(joined).into_js_value();
        let left = Closure::<dyn Fn(String)>::new(left).into_js_value();
        let heard = Closure::<dyn Fn(String, String)>::new(heard).into_js_value();
        let reach = Closure::<dyn Fn(bool)>::new(reach).into_js_value();
        let args: js_sys::Array = [meeting.options(topic), joined, left, heard, reach].iter().collect();
        let handle = join.apply(&JsValue::NULL, &args).map_err(failed)?;
        let id =
            js_sys::Reflect::get(&handle, &"id".into()).ok().and_then(|v| v.as_string()).unwrap_or_default();
        Ok(Net { id, handle })
    }

    fn send(&self, text: &str, to: Option<&str>) {
        if let Some(send) = js_sys::Reflect::get(&self.handle, &"send".into())
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        {
            let to = to.map_or(JsValue::UNDEFINED, JsValue::from);
            let _ = send.call2(&JsValue::NULL, &text.into(), &to);
        }
    }

    /// Starts leaving the room; done when the promise settles, once every connection and relay
    /// subscription is closed (a room joined before then would share them, and the relays with
    /// them): see [`left`].
    fn leave(&self) -> Option<js_sys::Promise> {
        js_sys::Reflect::get(&self.handle, &"leave".into())
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
            .and_then(|leave| leave.call0(&JsValue::NULL).ok())
            .and_then(|p| p.dyn_into::<js_sys::Promise>().ok())
    }

    fn envelope(&self, e: &Envelope, to: Option<&str>) {
        self.send(&serde_json::to_string(e).unwrap_or_default(), to);
    }
}

/// Bytes from the browser's secure random numbers; none where it has none (a room's secret must
/// never be guessable, so it is not made up from anything else).
fn random_bytes() -> Result<[u8; SECRET_BYTES], String> {
    let bytes = js_sys::Uint8Array::new_with_length(SECRET_BYTES as u32);
    let crypto = js_sys::Reflect::get(&js_sys::global(), &"crypto".into()).unwrap_or(JsValue::UNDEFINED);
    let fill = js_sys::Reflect::get(&crypto, &"getRandomValues".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .ok_or("this browser gives no secure random numbers, so a room cannot be opened safely")?;
    fill.call1(&crypto, &bytes).map_err(|e| super::intab::words(&e))?;
    let mut out = [0u8; SECRET_BYTES];
    bytes.copy_to(&mut out);
    Ok(out)
}

fn now_ms() -> f64 {
    js_sys::Date::now()
}

fn element(selector: &str) -> Option<web_sys::Element> {
    web_sys::window()?.document()?.query_selector(selector).ok().flatten()
}

/// Draws `html` in `selector` unless it already shows it (a redraw would lose what is typed).
fn show(selector: &str, html: Markup) {
    if let Some(el) = element(selector) {
        let hash = short_hash(html.as_str());
        if el.get_attribute("data-drawn").as_deref() != Some(&hash) {
            crate::ui::set_markup(&el, &html);
            let _ = el.set_attribute("data-drawn", &hash);
        }
    }
}

fn short_hash(text: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(text.as_bytes()).iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// Runs `f` on every `[data-act]` click (and `change`) inside `selector`: the act, the element.
fn on_acts(selector: &str, f: fn(&str, &web_sys::Element, &web_sys::Event)) {
    let Some(root) = element(selector) else { return };
    let handler = Closure::<dyn Fn(web_sys::Event)>::new(move |ev: web_sys::Event| {
        let Some(target) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
        let Some(el) = target.closest("[data-act]").ok().flatten() else { return };
        let act = el.get_attribute("data-act").unwrap_or_default();
        // A list changes its value; a button is clicked.
        let is_select = el.tag_name() == "SELECT";
        if (ev.type_() == "change") == is_select {
            f(&act, &el, &ev);
        }
    })
    .into_js_value();
    for kind in ["click", "change", "input", "keydown"] {
        let _ = root.add_event_listener_with_callback(kind, handler.unchecked_ref());
    }
}

fn every(ms: i32, f: fn()) {
    let tick = Closure::<dyn Fn()>::new(f).into_js_value();
    if let Some(w) = web_sys::window() {
        let _ = w.set_interval_with_callback_and_timeout_and_arguments_0(tick.unchecked_ref(), ms);
    }
}

// ---- The teacher's page --------------------------------------------------------------------

struct Teacher {
    host: Host,
    net: Option<Net>,
    link: String,
    /// Where the room meets, to name it when it cannot be reached.
    meeting: Meeting,
    /// Closed by the teacher: the phones were told, the transport left; the host still keeps
    /// the run's log and seats for a room opened again.
    closed: bool,
}

thread_local! {
    static TEACHER: RefCell<Option<Teacher>> = const { RefCell::new(None) };
    /// The panel's handlers and timer are in place (a room started again keeps them).
    static STARTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// A closed room's transport, still leaving: the next room waits for it.
    static LEAVING: RefCell<Option<js_sys::Promise>> = const { RefCell::new(None) };
}

/// Waits until the room closed last has left its relays and connections.
async fn left() {
    if let Some(promise) = LEAVING.with(|l| l.borrow_mut().take()) {
        let _ = JsFuture::from(promise).await;
    }
}

fn with_teacher<R>(f: impl FnOnce(&mut Teacher) -> R) -> Option<R> {
    TEACHER.with(|t| t.borrow_mut().as_mut().map(f))
}

fn deliver(net: &Option<Net>, sends: Vec<Send>) {
    let Some(net) = net else { return };
    for s in sends {
        match s {
            Send::To(to, e) => net.envelope(&e, Some(&to)),
            Send::All(e) => net.envelope(&e, None),
        }
    }
}

/// Hands what the room asks of the run to the page (`app::room` listens).
fn to_page(what: &ForPage) {
    let init = web_sys::CustomEventInit::new();
    init.set_detail(&js_sys::JSON::parse(&what.to_json()).unwrap_or(JsValue::NULL));
    if let (Some(w), Ok(ev)) =
        (web_sys::window(), web_sys::CustomEvent::new_with_event_init_dict("agora-room", &init))
    {
        let _ = w.dispatch_event(&ev);
    }
}

fn draw_teacher() {
    if let Some(Some(html)) = with_teacher(|t| (!t.closed).then(|| draw::panel(&t.host, &t.link))) {
        show("#room-panel [data-part=live]", html);
    }
}

fn settings_html(m: &Meeting) -> Markup {
    crate::markup!(
        "<div data-part=\"reach\"></div><div data-part=\"live\"></div><p class=\"room-close\"><button data-act=\"close\" data-testid=\"room-close\" title=\"Every phone is told the room has ended; a new room has a new link\">Close the room</button></p><details class=\"room-settings\"><summary>Where the room meets</summary><label class=\"field\"><span>Relay (empty: public Nostr relays; or your own, such as agora relay's ws://host:7447)</span><input name=\"relay\" data-testid=\"room-relay\" value=\"{}\"></label><label class=\"field\"><span>STUN/TURN servers (empty: public ones; none: only the local network)</span><input name=\"ice\" data-testid=\"room-ice\" value=\"{}\"></label><button data-act=\"settings\" data-testid=\"room-settings-use\">Use these (a new link)</button></details>",
        m.relay,
        m.ice
    )
}

fn teacher_act(act: &str, el: &web_sys::Element, _ev: &web_sys::Event) {
    let attr = |k: &str| el.get_attribute(k).unwrap_or_default();
    let mut page = None;
    let mut restart = false;
    let mut closing = false;
    with_teacher(|t| {
        let sends = match act {
            "assign" => t.host.assign(&attr("data-phone"), &value_of(el)).unwrap_or_default(),
            "remove" => t.host.remove(&attr("data-phone")),
            "accept" | "decline" => {
                page = attr("data-id").parse().ok().and_then(|id| t.host.decide(id, act == "accept"));
                Vec::new()
            }
            "floor" => match t.host.give_floor() {
                Some((p, cleared)) => {
                    page = Some(p);
                    vec![cleared]
                }
                None => Vec::new(),
            },
            "settings" => {
                Meeting { relay: input("relay").trim().into(), ice: input("ice").trim().into() }.save();
                restart = true;
                Vec::new()
            }
            "reopen" => {
                restart = true;
                Vec::new()
            }
            "close" => {
                deliver(&t.net, t.host.close());
                (t.closed, closing) = (true, true);
                let leaving = t.net.take().and_then(|net| net.leave());
                LEAVING.with(|l| *l.borrow_mut() = leaving);
                Vec::new()
            }
            _ => return,
        };
        deliver(&t.net, sends);
    });
    if let Some(p) = page {
        to_page(&p);
    }
    if closing {
        return show(
            "#room-panel",
            crate::markup!("<p class=\"hint\" role=\"status\" data-testid=\"room-closed\">The room is closed: the phones were told. A new room has a new link and code.</p><button data-act=\"reopen\" data-testid=\"room-open\">Open a room for phones</button>"),
        );
    }
    if restart {
        // The room starts again (where the new settings say), with a new link: the phones join anew.
        let old = TEACHER.with(|t| t.borrow_mut().take());
        if let Some(old) = old {
            let seats = serde_json::to_string(&old.host.room.seats).unwrap_or_default();
            let log = old.host.log.join("\n");
            let leaving = old.net.as_ref().and_then(Net::leave);
            wasm_bindgen_futures::spawn_local(async move {
                if let Some(promise) = leaving {
                    let _ = JsFuture::from(promise).await;
                }
                if let Err(e) = open(&seats, &log).await {
                    show(
                        "#room-panel [data-part=live]",
                        crate::markup!("<p class=\"notice error\" role=\"alert\">{}</p>", e),
                    );
                }
            });
        }
        return;
    }
    draw_teacher();
}

fn teacher_heard(peer: String, text: String) {
    let mut page = Vec::new();
    with_teacher(|t| {
        // A closed room hears nothing more, while its transport is still leaving.
        if t.closed {
            return;
        }
        // The room's secret came from the same source, so it is there.
        let token = || random_bytes().map(|b| Secret::from_bytes(b).to_text()).unwrap_or_default();
        let (sends, p) = t.host.receive(&peer, &text, now_ms(), token);
        deliver(&t.net, sends);
        page = p;
    });
    for p in &page {
        to_page(p);
    }
    draw_teacher();
}

/// Opens the room on the teacher's page: its seats (a JSON list) and the run's log so far.
pub async fn open(seats: &str, lines: &str) -> Result<String, String> {
    if TEACHER.with(|t| t.borrow().as_ref().is_some_and(|t| !t.closed)) {
        draw_teacher();
        return Ok(String::new());
    }
    let seats: Vec<String> = serde_json::from_str(seats).unwrap_or_default();
    let secret = Secret::from_bytes(random_bytes()?);
    let meeting = Meeting::saved();
    let base = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .unwrap_or_default();
    let page = base.split(['#', '?']).next().unwrap_or_default();
    let dir = &page[..page.rfind('/').map_or(0, |i| i + 1)];
    let link = format!("{dir}phone.html#k={}{}", secret.to_text(), meeting.fragment());
    let topic = secret.topic();
    let log = json_lines(lines);
    let host = Host::new(secret, seats, log);
    TEACHER.with(|t| {
        *t.borrow_mut() = Some(Teacher { host, net: None, link, meeting: meeting.clone(), closed: false })
    });
    show("#room-panel", settings_html(&meeting));
    let first = !STARTED.replace(true);
    if first {
        on_acts("#room-panel", teacher_act);
    }
    draw_teacher();
    let gone = |peer: String| {
        with_teacher(|t| t.host.room.left(&peer));
        draw_teacher();
    };
    left().await;
    let reach = |ok: bool| {
        let warning = with_teacher(|t| (!ok && !t.closed).then(|| unreachable_for_teacher(&t.meeting.relay)));
        show("#room-panel [data-part=reach]", warning.flatten().unwrap_or_default());
    };
    let net = Net::join(&meeting, &topic, |_| {}, gone, teacher_heard, reach).await?;
    with_teacher(|t| t.net = Some(net));
    if first {
        every(HERE_EVERY_MS, || {
            with_teacher(|t| t.host.check_away(now_ms()));
            draw_teacher();
        });
    }
    Ok(String::new())
}

/// What the teacher's panel says when the room's meeting point cannot be reached: what that
/// usually means and what to do, with the command that starts a meeting point of one's own.
fn unreachable_for_teacher(relay: &str) -> Markup {
    const COMMAND: &str = "agora relay --host 0.0.0.0 --port 7447";
    if relay.is_empty() {
        crate::markup!(
            "<div class=\"notice error\" role=\"alert\" data-testid=\"room-unreachable\"><p><strong>Phones cannot reach this room:</strong> the public meeting points Agora uses to connect phones do not answer from this computer. This usually means the network blocks them, as school and office firewalls often do. Still trying every few seconds.</p><p><strong>Quick fix:</strong> connect this computer and the phones to another network, such as a phone's hotspot: the room connects by itself once it can, with the same code.</p><details><summary>Or run a meeting point on your own network (for IT staff)</summary><p>On a computer that this one and the phones can all reach, run <code>{}</code> in a terminal, then enter that computer's network address as the Relay under \"Where the room meets\" below (for example <code>ws://192.168.1.20:7447</code>) and press \"Use these (a new link)\": the room gets a new link and code, which the students scan again.</p></details></div>",
            COMMAND
        )
    } else {
        crate::markup!(
            "<div class=\"notice error\" role=\"alert\" data-testid=\"room-unreachable\"><p><strong>Phones cannot reach this room:</strong> its meeting point {} does not answer from this computer. Either nothing runs there, or the network blocks it. Still trying every few seconds.</p><p>Start it on that computer with <code>{}</code> in a terminal (the port as in the address) and check that this computer and the phones can reach it, or empty \"Relay\" under \"Where the room meets\" below to use the public meeting points.</p></div>",
            relay,
            COMMAND
        )
    }
}

/// The run's events from the `from`th on (JSON lines), for every phone.
pub fn events(from: usize, lines: &str) {
    with_teacher(|t| {
        let sends = t.host.events(from, &json_lines(lines));
        deliver(&t.net, sends);
    });
}

/// The question `agent`'s seat is asked now (none: closed).
pub fn ask(agent: Option<String>, question: Option<String>) {
    with_teacher(|t| {
        let sends = t.host.asked(&agent.unwrap_or_default(), question.as_deref());
        deliver(&t.net, sends);
    });
}

// ---- A student's phone ---------------------------------------------------------------------

struct Student {
    phone: Phone,
    net: Net,
    /// What the student should know: why something did not go (the teacher's refusal), or, when
    /// `fine`, that it went.
    note: String,
    fine: bool,
    /// Whom this phone voted for this turn.
    voted: Option<String>,
    asked_name: bool,
    welcomed: bool,
}

thread_local! {
    static STUDENT: RefCell<Option<Student>> = const { RefCell::new(None) };
    /// A name typed and Join pressed before the phone's connection was ready: it joins then.
    static JOIN_WHEN_READY: RefCell<Option<String>> = const { RefCell::new(None) };
    /// The question the phone's seat box shows (as JSON), and the box (a mounted Leptos view).
    static PHONE_SEAT: RefCell<Option<(String, Box<dyn std::any::Any>)>> = const { RefCell::new(None) };
}

fn with_student<R>(f: impl FnOnce(&mut Student) -> R) -> Option<R> {
    STUDENT.with(|s| s.borrow_mut().as_mut().map(f))
}

/// Where the phone keeps its name and token for this room, to come back as itself.
fn kept_key(code: &str) -> String {
    format!("agora.phone.{code}")
}

fn keep(code: &str, name: &str, token: Option<&str>) {
    if let Some(s) = storage() {
        let _ = s.set_item(&kept_key(code), &serde_json::json!({"name": name, "token": token}).to_string());
    }
}

fn send_from_phone(m: &FromPhone, to: Option<&str>) {
    with_student(|s| s.net.envelope(&s.phone.send(m), to));
}

/// Asks to join (or come back, with the kept token) under the phone's name, through `to` (none:
/// every peer, the teacher's page among them).
fn ask_to_join(to: Option<&str>) {
    with_student(|s| {
        let name = s.phone.name.clone();
        s.net.envelope(&s.phone.join(&name), to);
    });
}

fn draw_phone() {
    let Some((head, question, log, note, fine, voted, welcomed, out)) = with_student(|s| {
        let p = &s.phone;
        let question = p.question.as_ref().map(|(_, _, q)| q.clone());
        let voted = s.voted.clone().filter(|_| !p.tally.is_empty());
        let out = p.removed || p.ended;
        (
            draw::phone_head(p),
            question,
            draw::transcript(&p.log),
            s.note.clone(),
            s.fine,
            voted,
            s.welcomed,
            out,
        )
    }) else {
        return;
    };
    if !welcomed {
        return;
    }
    show("[data-part=join]", Markup::new());
    let mut head = head;
    if let Some(v) = voted {
        head.push(crate::markup!("<p class=\"hint\" data-testid=\"phone-voted\">You voted for {}.</p>", v));
    }
    show("[data-part=head]", head);
    show_seat(question);
    // The conversation scrolls in its own box, kept at its newest message unless the student
    // scrolled back to read (the seat's question above it stays in view).
    let at_end = element("[data-part=log]")
        .is_none_or(|el| el.scroll_top() + el.client_height() + 24 >= el.scroll_height());
    show("[data-part=log]", log);
    if let Some(el) = element("[data-part=log]").filter(|_| at_end) {
        el.set_scroll_top(el.scroll_height());
    }
    let note = match (note.is_empty(), fine) {
        (true, _) => Markup::new(),
        (false, true) => {
            crate::markup!("<p class=\"notice\" role=\"status\" data-testid=\"phone-note\">{}</p>", note)
        }
        (false, false) => {
            crate::markup!("<p class=\"notice error\" role=\"alert\" data-testid=\"phone-note\">{}</p>", note)
        }
    };
    show("[data-part=note]", note);
    // Out of the room (taken out, or the room closed): nothing more to propose.
    let audience = if out {
        Markup::new()
    } else {
        crate::markup!(
            "<div class=\"row\"><label class=\"field grow\"><span>Propose an interjection (the teacher decides)</span><input name=\"propose\" data-testid=\"phone-propose\" maxlength=\"400\"></label><button data-act=\"propose\">Propose</button></div>"
        )
    };
    show("[data-part=audience]", audience);
}

fn phone_act(act: &str, el: &web_sys::Element, _: &web_sys::Event) {
    let attr = |k: &str| el.get_attribute(k).unwrap_or_default();
    match act {
        "join" => {
            let name = input("name");
            if name.trim().is_empty() {
                with_student(|s| (s.note, s.fine) = ("Type your name first.".into(), false));
            } else {
                let name = name.trim().to_string();
                let ready = with_student(|s| {
                    s.phone.name = name.clone();
                    s.asked_name = true;
                    s.note.clear();
                });
                if ready.is_none() {
                    JOIN_WHEN_READY.with(|w| *w.borrow_mut() = Some(name));
                }
                ask_to_join(None);
                show("[data-part=join]", crate::markup!("<p data-testid=\"phone-joining\">Joining…</p>"));
            }
        }
        "take" => send_from_phone(&FromPhone::TakeSeat { agent: attr("data-agent") }, None),
        "vote" => {
            with_student(|s| s.voted = Some(attr("data-agent")));
            send_from_phone(&FromPhone::Vote { agent: attr("data-agent") }, None)
        }
        "propose" => {
            let text = input("propose");
            if !text.trim().is_empty() {
                send_from_phone(&FromPhone::Propose { text }, None);
                if let Some(box_) = element("input[name=propose]") {
                    let _ = js_sys::Reflect::set(&box_, &"value".into(), &"".into());
                }
                with_student(|s| (s.note, s.fine) = ("Proposed: the teacher decides.".into(), true));
            }
        }
        _ => {}
    }
    draw_phone();
}

/// The box that asks the phone's seat `question` (as JSON; none: nothing is asked), drawn in
/// `[data-part=seat]` as the stage draws it and kept while the question stays the same (a redraw
/// would lose what is typed).
fn show_seat(question: Option<String>) {
    use leptos::prelude::*;
    let same = PHONE_SEAT.with(|s| s.borrow().as_ref().map(|(q, _)| q.clone()) == question);
    if same {
        return;
    }
    // The box answered is unmounted after its own click handler has returned.
    let old = PHONE_SEAT.with(|s| s.borrow_mut().take());
    queue_microtask(move || drop(old));
    let (Some(json), Some(parent)) = (question, element("[data-part=seat]")) else { return };
    let Ok(parent) = parent.dyn_into::<web_sys::HtmlElement>() else { return };
    let shown = match crate::seat::Question::from_json(&json) {
        Ok(question) => {
            let answer = Callback::new(|answer| queue_microtask(move || phone_answer(answer)));
            let handle = leptos::mount::mount_to(parent, move || {
                view! { <super::seat::SeatForm question answer send_asked=Signal::stored(0) take_keys=false /> }
            });
            Box::new(handle) as Box<dyn std::any::Any>
        }
        Err(why) => Box::new(leptos::mount::mount_to(parent, move || {
            view! { <p class="notice error" role="alert">{why}</p> }
        })),
    };
    PHONE_SEAT.with(|s| *s.borrow_mut() = Some((json, shown)));
}

/// Sends the phone's `answer` to the question its seat is asked, if the form takes it; otherwise
/// says why and keeps the question open.
fn phone_answer(answer: crate::seat::Answer) {
    let question = with_student(|s| s.phone.question.as_ref().map(|(_, _, q)| q.clone())).flatten();
    let Some(q) = question else { return };
    match crate::seat::Question::from_json(&q).and_then(|q| q.form.reply(&answer).map(|_| ())) {
        Ok(()) => {
            with_student(|s| {
                if let Ok(e) = s.phone.answer(answer.to_line()) {
                    s.net.envelope(&e, None);
                }
                s.note.clear();
            });
        }
        Err(why) => {
            with_student(|s| (s.note, s.fine) = (format!("Not sent: {why}."), false));
        }
    }
    draw_phone();
}

fn phone_heard(peer: String, text: String) {
    let Ok(e) = serde_json::from_str::<Envelope>(&text) else { return };
    with_student(|s| {
        if let Ok(m) = s.phone.receive(&peer, &e) {
            match m {
                ToPhone::Welcome { .. } => {
                    s.welcomed = true;
                    s.note.clear();
                    keep(&s.phone.code(), &s.phone.name, s.phone.token.as_deref());
                }
                ToPhone::Refused { why } => (s.note, s.fine) = (why, false),
                ToPhone::Removed | ToPhone::Ended => {
                    s.asked_name = false;
                    keep(&s.phone.code(), "", None);
                }
                _ => {}
            }
        }
    });
    draw_phone();
}

/// A new peer in the room: it may be the teacher's page (again), so a phone that has a name asks
/// to join (or come back) through it.
fn phone_met(peer: String) {
    if with_student(|s| s.asked_name && !s.phone.removed).unwrap_or(false) {
        ask_to_join(Some(&peer));
    }
}

/// Starts the phone's screen in phone.html from the join link.
pub async fn phone_start() -> Result<String, String> {
    let hash = web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
    let (secret, meeting) = Meeting::from_fragment(&hash);
    let secret = Secret::from_text(&secret)?;
    let topic = secret.topic();
    let code = secret.code();
    let kept = kept_json(&kept_key(&code));
    let kept_name = text_of(&kept, "name");
    let token = kept.get("token").and_then(|v| v.as_str()).map(String::from);
    show(
        "main",
        crate::markup!(
            "<h1>Agora class room <span class=\"room-code\" data-testid=\"phone-code\">{}</span></h1><div data-part=\"reach\"></div><div data-part=\"join\"><label class=\"field\"><span>Your name</span><input name=\"name\" data-testid=\"phone-name\" maxlength=\"40\" autocomplete=\"nickname\" value=\"{}\"></label><button class=\"primary\" data-act=\"join\" data-testid=\"phone-join\">Join</button></div><div data-part=\"note\"></div><div data-part=\"head\"></div><div data-part=\"seat\"></div><h2>The conversation</h2><ol class=\"phone-log\" data-part=\"log\" data-testid=\"phone-log\"></ol><div data-part=\"audience\"></div>",
            code,
            kept_name
        ),
    );
    on_acts("main", phone_act);
    let rejoin = token.is_some() && !kept_name.is_empty();
    let reach = |ok: bool| {
        show(
            "[data-part=reach]",
            if ok {
                Markup::new()
            } else {
                crate::markup!("<p class=\"notice error\" role=\"alert\" data-testid=\"phone-unreachable\">This phone cannot reach the class room. The network probably blocks it, as school networks often do: try another network (mobile data, or a hotspot), or tell your teacher that the class room cannot connect. Still trying…</p>")
            },
        )
    };
    let net = Net::join(&meeting, &topic, phone_met, |_| {}, phone_heard, reach).await?;
    let mut phone = Phone::new(secret, net.id.clone(), token);
    phone.name = kept_name;
    STUDENT.with(|s| {
        *s.borrow_mut() = Some(Student {
            phone,
            net,
            note: String::new(),
            fine: false,
            voted: None,
            asked_name: rejoin,
            welcomed: false,
        })
    });
    if rejoin {
        show("[data-part=join]", crate::markup!("<p data-testid=\"phone-joining\">Coming back…</p>"));
    } else if let Some(name) = JOIN_WHEN_READY.with(|w| w.borrow_mut().take()) {
        with_student(|s| (s.phone.name, s.asked_name) = (name, true));
        ask_to_join(None);
    }
    every(HERE_EVERY_MS, || {
        let here = with_student(|s| s.phone.token.is_some() && !s.phone.removed).unwrap_or(false);
        if here {
            send_from_phone(&FromPhone::Here, None);
        }
    });
    Ok(String::new())
}
