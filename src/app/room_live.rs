//! The room over WebRTC, in the tools chunk: on the teacher's page, the [`Host`] and its panel
//! (`room_view`, drawn in the page's room box) with the page's half of the conversation handed
//! back as typed [`ForPage`] values; on a student's phone (phone.html), the [`Phone`] and its
//! screen. Both are typed Leptos views over signals; what each shows is decided by
//! `crate::room::screen` (native tests). The transport is trystero's (public/room/net.mjs,
//! bundled at build time), loaded the first time a room opens or a phone joins. None of this is
//! on the first page.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use leptos::prelude::*;

use crate::i18n::{say, t, tf};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use crate::room::host::{ForPage, Host, Send};
use crate::room::screen::{self, PhoneHead};
use crate::room::{Envelope, FromPhone, Phone, Secret, ToPhone, SECRET_BYTES};

/// How often a phone says it is still there, and how often the teacher's page looks for phones
/// gone quiet.
const HERE_EVERY: Duration = Duration::from_secs(5);

/// How long a phone that asked to join waits to be taken in before it makes its connections anew.
const REJOIN_AFTER_MS: f64 = 9000.0;

/// Where the room meets: the relay (empty: trystero's public Nostr relays) and the STUN/TURN
/// servers (empty: trystero's public ones; `none`: no server, for a network of its own). The
/// teacher's page keeps them (localStorage `agora.room`); the join link carries them.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Meeting {
    pub relay: String,
    pub ice: String,
}

const SETTINGS_KEY: &str = "agora.room";

use super::storage::storage;

/// The value kept under `key` (the type's default when none is, or it is not readable).
fn kept<T: serde::de::DeserializeOwned + Default>(key: &str) -> T {
    storage()
        .and_then(|s| s.get_item(key).ok().flatten())
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

fn keep_value<T: serde::Serialize>(key: &str, value: &T) {
    if let (Some(s), Ok(text)) = (storage(), serde_json::to_string(value)) {
        let _ = s.set_item(key, &text);
    }
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
        let m: Meeting = kept(SETTINGS_KEY);
        Meeting { relay: m.relay.trim().into(), ice: m.ice.trim().into() }
    }

    fn save(&self) {
        keep_value(SETTINGS_KEY, self);
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

/// What the transport tells: a peer met, a peer gone, a message from a peer, whether the meeting
/// point answers.
struct Hooks {
    joined: Box<dyn Fn(String)>,
    left: Box<dyn Fn(String)>,
    heard: Box<dyn Fn(String, String)>,
    reach: Box<dyn Fn(bool)>,
}

/// The room's transport: this page's id in it, and sending to one peer or all.
struct Net {
    id: String,
    handle: JsValue,
}

impl Net {
    async fn join(meeting: &Meeting, topic: &str, hooks: Hooks) -> Result<Net, String> {
        let failed = |e: JsValue| tf(say::RoomCouldNotStart, &[("why", &super::intab::words(&e))]);
        let m = JsFuture::from(super::intab::import_module("room/net.js")).await.map_err(failed)?;
        let join: js_sys::Function = js_sys::Reflect::get(&m, &"join".into())
            .ok()
            .and_then(|f| f.dyn_into().ok())
            .ok_or("the room's connection module is damaged: reload the page")?;
        let Hooks { joined, left, heard, reach } = hooks;
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

    /// Leaves the room and joins it anew under a new id (see room/net.mjs, `rejoin`), which
    /// `on_id` hears before anyone is met under it.
    fn rejoin(&self, on_id: impl Fn(String) + 'static) {
        if let Some(rejoin) = js_sys::Reflect::get(&self.handle, &"rejoin".into())
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        {
            let on_id = Closure::<dyn Fn(String)>::new(on_id).into_js_value();
            let _ = rejoin.call1(&JsValue::NULL, &on_id);
        }
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

/// Runs `tick` every `every` for as long as the current owner lives.
fn every(every: Duration, tick: impl Fn() + 'static) {
    if let Ok(handle) = set_interval_with_handle(tick, every) {
        on_cleanup(move || handle.clear());
    }
}

// ---- The teacher's page --------------------------------------------------------------------

/// The teacher's room as its panel draws it.
#[derive(Clone, Copy)]
struct Panel {
    /// The room: its students, seats, proposals and votes (none before it first opens).
    host: RwSignal<Option<Host>>,
    /// How phones join the open room (none before it first opens).
    join: RwSignal<Option<Join>>,
    /// Closed by the teacher: the phones were told, the transport left; the host still keeps
    /// the run's log and seats for a room opened again.
    closed: RwSignal<bool>,
    /// Whether the room's meeting point answers.
    reach: RwSignal<Reach>,
    /// Why the room could not open.
    failed: RwSignal<Option<String>>,
}

/// Where the room stands with the meeting points phones find it through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reach {
    /// None has answered yet, and it is early to say that none will.
    Connecting,
    /// One is open: phones can join.
    Open,
    /// None has been open for a while (a network that blocks them, or a relay not running).
    Blocked,
}

/// How phones join a room: its code, the join link (the phone page, the room's secret and where
/// it meets) and that link as a QR code.
#[derive(Clone, Debug, PartialEq)]
struct Join {
    code: String,
    link: String,
    qr: Result<crate::room::qr::Qr, String>,
    meeting: Meeting,
}

/// The teacher's room besides what its panel draws: the transport and the page's half.
struct Teacher {
    panel: Panel,
    net: Option<Net>,
    /// What the room asks of the run, handed to the page.
    page: Rc<dyn Fn(ForPage)>,
}

thread_local! {
    static TEACHER: RefCell<Option<Teacher>> = const { RefCell::new(None) };
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

fn deliver(sends: Vec<Send>) {
    with_teacher(|t| {
        let Some(net) = &t.net else { return };
        for s in sends {
            match s {
                Send::To(to, e) => net.envelope(&e, Some(&to)),
                Send::All(e) => net.envelope(&e, None),
            }
        }
    });
}

/// Starts leaving the room's transport, if it has one; the next room waits until it has left
/// ([`left`]).
fn leave_net() {
    if let Some(leaving) = with_teacher(|t| t.net.take()).flatten().and_then(|net| net.leave()) {
        LEAVING.with(|l| *l.borrow_mut() = Some(leaving));
    }
}

/// Hands what the room asks of the run to the page.
fn to_page(what: ForPage) {
    if let Some(page) = with_teacher(|t| t.page.clone()) {
        page(what);
    }
}

impl Panel {
    /// Runs `f` on the room, if there is one, and sends the phones what it gives (nothing once
    /// the room is closed: its transport is gone, while the run's log still comes in for a room
    /// opened again).
    fn act<R>(self, f: impl FnOnce(&mut Host) -> (Vec<Send>, R)) -> Option<R> {
        let (sends, out) = self.host.try_update(|h| h.as_mut().map(f)).flatten()?;
        deliver(sends);
        Some(out)
    }

    /// Opens a room with `seats` and the run's `log` so far: a new secret, link and code (or
    /// says why it cannot).
    fn open(self, seats: Vec<String>, log: Vec<String>) {
        let secret = match random_bytes() {
            Ok(bytes) => Secret::from_bytes(bytes),
            Err(e) => return self.failed.set(Some(e)),
        };
        let meeting = Meeting::saved();
        let base = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.base_uri().ok().flatten())
            .unwrap_or_default();
        let page = base.split(['#', '?']).next().unwrap_or_default();
        let dir = &page[..page.rfind('/').map_or(0, |i| i + 1)];
        let topic = secret.topic();
        let link = format!("{dir}phone.html#k={}{}", secret.to_text(), meeting.fragment());
        let qr = crate::room::qr::code(&link);
        self.join.set(Some(Join { code: secret.code(), link, qr, meeting: meeting.clone() }));
        self.host.set(Some(Host::new(secret, seats, log)));
        self.closed.set(false);
        self.reach.set(Reach::Connecting);
        self.failed.set(None);
        leptos::task::spawn_local(async move {
            left().await;
            let hooks = Hooks {
                joined: Box::new(|_| {}),
                left: Box::new(move |peer| {
                    self.act(|h| {
                        h.room.left(&peer);
                        (Vec::new(), ())
                    });
                }),
                heard: Box::new(move |peer, text| self.heard(peer, text)),
                reach: Box::new(move |ok| {
                    self.reach.try_set(if ok { Reach::Open } else { Reach::Blocked });
                }),
            };
            match Net::join(&meeting, &topic, hooks).await {
                Ok(net) => {
                    with_teacher(|t| t.net = Some(net));
                }
                Err(e) => drop(self.failed.try_set(Some(e))),
            }
        });
    }

    /// A message from a phone.
    fn heard(self, peer: String, text: String) {
        // A closed room hears nothing more, while its transport is still leaving.
        if self.closed.try_get_untracked() != Some(false) {
            return;
        }
        // The room's secret came from the same source, so it is there.
        let token = || random_bytes().map(|b| Secret::from_bytes(b).to_text()).unwrap_or_default();
        let asked = self.act(|h| h.receive(&peer, &text, now_ms(), token));
        for p in asked.unwrap_or_default() {
            to_page(p);
        }
    }

    /// Tells every phone the room has ended and leaves the transport.
    fn close(self) {
        if self.closed.get_untracked() || self.act(|h| (h.close(), ())).is_none() {
            return;
        }
        self.closed.set(true);
        leave_net();
    }

    /// The room again, with a new link (where the settings now say): the phones join anew.
    fn reopen(self) {
        let Some((seats, log)) =
            self.host.with_untracked(|h| h.as_ref().map(|h| (h.room.seats.clone(), h.log.clone())))
        else {
            return;
        };
        leave_net();
        self.open(seats, log);
    }
}

/// The room's panel on the teacher's page, opened at once with `seats` and the run's log so far
/// (JSON lines); `page` carries out what the room asks of the run. The room closes with the
/// panel's owner.
pub fn room_view(seats: Vec<String>, lines: &str, page: Rc<dyn Fn(ForPage)>) -> AnyView {
    let panel = Panel {
        host: RwSignal::new(None),
        join: RwSignal::new(None),
        closed: RwSignal::new(false),
        reach: RwSignal::new(Reach::Connecting),
        failed: RwSignal::new(None),
    };
    TEACHER.with(|t| *t.borrow_mut() = Some(Teacher { panel, net: None, page }));
    panel.open(seats, json_lines(lines));
    every(HERE_EVERY, move || {
        panel.act(|h| {
            h.check_away(now_ms());
            (Vec::new(), ())
        });
    });
    on_cleanup(|| {
        leave_net();
        TEACHER.with(|t| t.borrow_mut().take());
    });
    view! {
        {move || panel.failed.get().map(|e| view! { <p class="notice error" role="alert">{e}</p> })}
        {move || if panel.closed.get() {
            view! {
                <p class="hint" role="status" data-testid="room-closed">
                    {t(say::RoomClosed)}
                </p>
                <button data-testid="room-open" on:click=move |_| panel.reopen()>{t(say::RoomOpen)}</button>
            }
            .into_any()
        } else {
            view! {
                {move || (panel.reach.get() == Reach::Blocked).then(|| unreachable_for_teacher(panel.join.with(|j| j.as_ref().map(|j| j.meeting.relay.clone()).unwrap_or_default())))}
                <Live panel />
                <p class="room-close">
                    <button
                        data-testid="room-close"
                        title=t(say::RoomCloseTitle)
                        on:click=move |_| panel.close()
                    >
                        {t(say::RoomClose)}
                    </button>
                </p>
                <Settings panel />
            }
            .into_any()
        }}
    }
    .into_any()
}

/// The part of the teacher's panel that changes as students come and go.
#[component]
fn Live(panel: Panel) -> impl IntoView {
    // One memo for all of it: a phone's "still here" every few seconds draws nothing again.
    let shown = Memo::new(move |_| panel.host.with(|h| h.as_ref().map(screen::panel).unwrap_or_default()));
    let join = panel.join;
    let assign = move |phone: String, seat: String| {
        panel.act(|h| (h.assign(&phone, &seat).unwrap_or_default(), ()));
    };
    let decide = move |id: u64, accept: bool| {
        if let Some(p) = panel.act(|h| (Vec::new(), h.decide(id, accept))).flatten() {
            to_page(p);
        }
    };
    let give_floor = move |_| {
        if let Some((p, cleared)) = panel.act(|h| (Vec::new(), h.give_floor())).flatten() {
            deliver(vec![cleared]);
            to_page(p);
        }
    };
    // What became of the last "Copy the link".
    let copied = RwSignal::new("");
    let code_view = move || {
        join.with(|j| {
            let j = j.as_ref()?;
            let qr = match &j.qr {
                Ok(qr) => {
                    let side = format!("0 0 {0} {0}", qr.side);
                    view! {
                        <svg viewBox=side shape-rendering="crispEdges" role="img" aria-label=t(say::RoomQrLabel)>
                            <rect width=qr.side height=qr.side fill="#fff" />
                            <path d=qr.path.clone() fill="#000" />
                        </svg>
                    }
                    .into_any()
                }
                Err(e) => view! { <p>{e.clone()}</p> }.into_any(),
            };
            let link = j.link.clone();
            let here = crate::room::screen::only_here(&j.link).then(|| view! {
                <p class="notice" role="status" data-testid="room-only-here">
                    {t(say::RoomOnlyHere)}
                </p>
            });
            Some(view! {
                <h3>{t(say::RoomHeading)} <span class="room-code" data-testid="room-code">{j.code.clone()}</span></h3>
                <div class="room-join">
                    <div class="room-qr" data-testid="room-qr">{qr}</div>
                    <div>
                        <p>
                            {t(say::RoomHowToJoin)}
                        </p>
                        <p class="room-address">
                            <a data-testid="room-link" href=j.link.clone() target="_blank" rel="noopener"><code>{j.link.clone()}</code></a>
                            " "
                            <button data-testid="room-copy" on:click=move |_| copy_link(link.clone(), copied)>{t(say::RoomCopy)}</button>
                            " "
                            <span class="muted" role="status">{move || copied.get()}</span>
                        </p>
                        {here}
                    </div>
                </div>
            })
        })
    };
    let roster_view = move || {
        let p = shown.get();
        let seats = p.seats;
        p.roster
            .into_iter()
            .map(|row| {
                let phone = row.phone.clone();
                let phone_out = row.phone.clone();
                let options = seats
                    .iter()
                    .map(|seat| {
                        let selected = row.seat.as_ref() == Some(seat);
                        view! { <option value=seat.clone() selected=selected>{seat.clone()}</option> }
                    })
                    .collect_view();
                view! {
                    <li data-testid="room-student" data-name=row.name.clone()>
                        <strong>{row.name.clone()}</strong>
                        {row.away.then(|| view! { " " <span class="tag" data-testid="room-away">{t(say::RoomAway)}</span> })}
                        " "
                        <select aria-label=tf(say::RoomSeatOf, &[("name", &row.name)]) on:change=move |ev| assign(phone.clone(), event_target_value(&ev))>
                            <option value="" selected=row.seat.is_none()>{t(say::RoomAudience)}</option>
                            {options}
                        </select>
                        " "
                        <button on:click=move |_| {
                            panel.act(|h| (h.remove(&phone_out), ()));
                        }>{t(say::RoomRemove)}</button>
                    </li>
                }
            })
            .collect_view()
    };
    view! {
        {code_view}
        {move || shown.with(|p| {
            (!p.away.is_empty()).then(|| view! {
                <p class="notice" data-testid="room-seat-away" role="status">
                    {tf(say::RoomSeatAway, &[("names", &p.away.join(t(say::ListComma)))])}
                </p>
            })
        })}
        {move || shown.with(|p| p.seats.is_empty()).then(|| view! {
            <p class="hint">
                {t(say::RoomNoSeat)}
            </p>
        })}
        <div class="room-manage">
            <h4>{move || tf(say::RoomJoined, &[("n", &shown.with(|p| p.roster.len()))])}</h4>
            <ul class="room-students" data-testid="room-students">{roster_view}</ul>
            {move || shown.with(|p| p.roster.is_empty()).then(|| match panel.reach.get() {
                Reach::Connecting => Some(view! { <p class="hint" role="status" data-testid="room-waiting">{t(say::RoomConnecting)}</p> }),
                Reach::Open => Some(view! { <p class="hint" role="status" data-testid="room-waiting">{t(say::RoomNoneYet)}</p> }),
                // The alert above says why.
                Reach::Blocked => None,
            })}
            {move || {
                let proposals = shown.with(|p| p.proposals.clone());
                (!proposals.is_empty()).then(|| view! {
                    <h4>{t(say::RoomProposals)}</h4>
                    <ul data-testid="room-proposals">
                        {proposals.into_iter().map(|p| view! {
                            <li data-testid="room-proposal">
                                <strong>{p.by}</strong>
                                ": "
                                {p.text}
                                " "
                                <button data-testid="room-accept" on:click=move |_| decide(p.id, true)>{t(say::RoomAccept)}</button>
                                " "
                                <button data-testid="room-decline" on:click=move |_| decide(p.id, false)>{t(say::RoomDecline)}</button>
                            </li>
                        }).collect_view()}
                    </ul>
                })
            }}
        </div>
        // On the projector the proposals stay the teacher's to read (a class sees only what was
        // accepted): the projector says how many wait.
        {move || {
            let waiting = shown.with(|p| p.proposals.len());
            (waiting > 0).then(|| view! {
                <p class="room-proposed-count" role="status" data-testid="room-proposed-count">
                    {if waiting == 1 {
                        t(say::RoomProposedOne).to_string()
                    } else {
                        tf(say::RoomProposedMany, &[("n", &waiting)])
                    }}
                </p>
            })
        }}
        {move || {
            let tally = shown.with(|p| p.tally.clone());
            let first = tally.first()?.0.clone();
            Some(view! {
                <h4>{t(say::RoomVotes)}</h4>
                <ol class="room-tally" data-testid="room-tally">
                    {tally.into_iter().map(|(agent, n)| view! { <li>{format!("{agent}: {n}")}</li> }).collect_view()}
                </ol>
                <button class="primary" data-testid="room-give-floor" on:click=give_floor>
                    {tf(say::RoomGiveFloor, &[("name", &first)])}
                </button>
            })
        }}
        {move || {
            let refused = shown.with(|p| p.refused.clone());
            (!refused.is_empty()).then(|| view! {
                <ul class="notice error room-refused" data-testid="room-refused" role="alert">
                    {refused.into_iter().map(|why| view! { <li>{why}</li> }).collect_view()}
                </ul>
            })
        }}
    }
}

/// Puts the join link on the clipboard, and says whether it went.
fn copy_link(link: String, said: RwSignal<&'static str>) {
    let clipboard = web_sys::window().map(|w| w.navigator().clipboard());
    leptos::task::spawn_local(async move {
        let copied = match clipboard {
            Some(c) => JsFuture::from(c.write_text(&link)).await.is_ok(),
            None => false,
        };
        let _ = said.try_set(if copied { t(say::RoomCopied) } else { t(say::RoomNotCopied) });
    });
}

/// Where the room meets, and "Use these (a new link)".
#[component]
fn Settings(panel: Panel) -> impl IntoView {
    let meeting = panel.join.with_untracked(|j| j.as_ref().map(|j| j.meeting.clone()).unwrap_or_default());
    let relay = RwSignal::new(meeting.relay);
    let ice = RwSignal::new(meeting.ice);
    let use_these = move |_| {
        Meeting { relay: relay.get_untracked().trim().into(), ice: ice.get_untracked().trim().into() }.save();
        panel.reopen();
    };
    view! {
        <details class="room-settings">
            <summary>{t(say::RoomWhere)}</summary>
            <label class="field">
                <span>{t(say::RoomRelay)}</span>
                <input name="relay" data-testid="room-relay" bind:value=relay />
            </label>
            <label class="field">
                <span>{t(say::RoomIce)}</span>
                <input name="ice" data-testid="room-ice" bind:value=ice />
            </label>
            <button data-testid="room-settings-use" on:click=use_these>{t(say::RoomUseThese)}</button>
        </details>
    }
}

/// What the teacher's panel says when the room's meeting point cannot be reached: what that
/// usually means and what to do, with the command that starts a meeting point of one's own.
fn unreachable_for_teacher(relay: String) -> impl IntoView {
    const COMMAND: &str = "agora relay --host 0.0.0.0 --port 7447";
    if relay.is_empty() {
        view! {
            <div class="notice error room-reach" role="alert" data-testid="room-unreachable">
                <p>
                    <strong>{t(say::RoomUnreachable)}</strong>
                    {t(say::RoomUnreachablePublic)}
                </p>
                <p>
                    <strong>{t(say::RoomQuickFix)}</strong>
                    {t(say::RoomQuickFixText)}
                </p>
                <details>
                    <summary>{t(say::RoomOwnRelay)}</summary>
                    <p>
                        {t(say::RoomOwnRelayA)} <code>{COMMAND}</code>
                        {t(say::RoomOwnRelayB)}
                        <code>"ws://192.168.1.20:7447"</code>
                        {t(say::RoomOwnRelayC)}
                    </p>
                </details>
            </div>
        }
        .into_any()
    } else {
        view! {
            <div class="notice error room-reach" role="alert" data-testid="room-unreachable">
                <p>
                    <strong>{t(say::RoomUnreachable)}</strong>
                    {tf(say::RoomRelaySilent, &[("relay", &relay)])}
                </p>
                <p>
                    {t(say::RoomStartRelayA)} <code>{COMMAND}</code>
                    {t(say::RoomStartRelayB)}
                </p>
            </div>
        }
        .into_any()
    }
}

/// The run's events from the `from`th on (JSON lines), for every phone.
pub fn events(from: usize, lines: &str) {
    if let Some(panel) = with_teacher(|t| t.panel) {
        panel.act(|h| (h.events(from, &json_lines(lines)), ()));
    }
}

/// The question `agent`'s seat is asked now (none: closed).
pub fn ask(agent: Option<String>, question: Option<String>) {
    if let Some(panel) = with_teacher(|t| t.panel) {
        panel.act(|h| (h.asked(&agent.unwrap_or_default(), question.as_deref()), ()));
    }
}

// ---- A student's phone ---------------------------------------------------------------------

/// Something the phone tells its student: that what they did went, or why it did not.
#[derive(Clone, Debug, PartialEq)]
struct Note {
    text: String,
    fine: bool,
}

impl Note {
    fn fine(text: impl Into<String>) -> Option<Note> {
        Some(Note { text: text.into(), fine: true })
    }

    fn refused(text: impl Into<String>) -> Option<Note> {
        Some(Note { text: text.into(), fine: false })
    }
}

/// A student's phone as its screen draws it.
#[derive(Clone, Copy)]
struct Screen {
    /// The phone's side of the room (none until its connection is ready).
    phone: RwSignal<Option<Phone>>,
    /// The teacher's page took the phone in.
    welcomed: RwSignal<bool>,
    /// Said while the phone waits to be taken in ("Joining…").
    joining: RwSignal<Option<&'static str>>,
    note: RwSignal<Option<Note>>,
    /// Whom this phone voted for this turn.
    voted: RwSignal<Option<String>>,
    reachable: RwSignal<bool>,
    /// The name box and the proposal box.
    name: RwSignal<String>,
    proposal: RwSignal<String>,
    /// The student asked to join: a phone that meets the teacher's page (again) asks through it.
    asked_name: RwSignal<bool>,
    /// When the phone last asked to join (ms since the epoch).
    asked_at: StoredValue<f64>,
}

thread_local! {
    static PHONE_NET: RefCell<Option<Net>> = const { RefCell::new(None) };
    /// The phone's screen, mounted for as long as the page is open.
    static PHONE_VIEW: RefCell<Option<Box<dyn std::any::Any>>> = const { RefCell::new(None) };
}

/// Where the phone keeps its name and token for this room, to come back as itself.
fn kept_key(code: &str) -> String {
    format!("agora.phone.{code}")
}

/// A phone's name and token for a room, as it keeps them.
#[derive(Default, serde::Serialize, serde::Deserialize)]
#[serde(default)]
struct Kept {
    name: String,
    token: Option<String>,
}

impl Screen {
    /// Sends what `f` makes of the phone (none: nothing to send) to `to` (none: every peer).
    fn send(self, to: Option<&str>, f: impl FnOnce(&mut Phone) -> Option<Envelope>) {
        let Some(e) = self.phone.try_update(|p| p.as_mut().and_then(f)).flatten() else { return };
        PHONE_NET.with(|n| {
            if let Some(net) = n.borrow().as_ref() {
                net.envelope(&e, to);
            }
        });
    }

    /// Asks to join (or come back, with the kept token) under the name typed, through `to`.
    fn ask_to_join(self, to: Option<&str>) {
        let name = self.name.get_untracked().trim().to_string();
        self.asked_at.set_value(now_ms());
        self.send(to, |p| {
            p.name = name.clone();
            Some(p.join(&name))
        });
    }

    fn join(self) {
        if self.name.with_untracked(|n| n.trim().is_empty()) {
            self.note.set(Note::refused(t(say::PhoneTypeName)));
            return;
        }
        self.asked_name.set(true);
        self.note.set(None);
        self.joining.set(Some(t(say::PhoneJoining)));
        self.ask_to_join(None);
    }

    fn propose(self) {
        let text = self.proposal.get_untracked();
        if text.trim().is_empty() {
            return;
        }
        self.send(None, |p| Some(p.send(&FromPhone::Propose { text })));
        self.proposal.set(String::new());
        self.note.set(Note::fine(t(say::PhoneProposed)));
    }

    fn vote(self, agent: String) {
        self.voted.set(Some(agent.clone()));
        self.send(None, |p| Some(p.send(&FromPhone::Vote { agent })));
    }

    /// Sends `answer` to the question the seat is asked, if its form takes it; otherwise says
    /// why and keeps the question open.
    fn answer(self, answer: crate::seat::Answer) {
        let question = self
            .phone
            .with_untracked(|p| p.as_ref().and_then(|p| p.question.as_ref().map(|(_, _, q)| q.clone())));
        let Some(q) = question else { return };
        match crate::seat::Question::from_json(&q).and_then(|q| q.form.reply(&answer).map(|_| ())) {
            Ok(()) => {
                self.send(None, |p| p.answer(answer.to_line()).ok());
                self.note.set(None);
            }
            Err(why) => self.note.set(Note::refused(tf(say::PhoneNotSent, &[("why", &why)]))),
        }
    }

    /// A message from a peer.
    fn heard(self, peer: String, text: String) {
        let Ok(e) = serde_json::from_str::<Envelope>(&text) else { return };
        let Some(Ok(m)) = self.phone.try_update(|p| p.as_mut().map(|p| p.receive(&peer, &e))).flatten()
        else {
            return;
        };
        let (code, name, token) = self
            .phone
            .with_untracked(|p| p.as_ref().map(|p| (p.code(), p.name.clone(), p.token.clone())))
            .unwrap_or_default();
        match m {
            ToPhone::Welcome { .. } => {
                self.welcomed.set(true);
                self.joining.set(None);
                self.note.set(None);
                keep_value(&kept_key(&code), &Kept { name, token });
            }
            ToPhone::Refused { why } => {
                // Refused before being taken in (a name in use): the name box again.
                if !self.welcomed.get_untracked() {
                    self.joining.set(None);
                    self.asked_name.set(false);
                }
                self.note.set(Note::refused(why));
            }
            ToPhone::Removed | ToPhone::Ended => {
                self.asked_name.set(false);
                keep_value(&kept_key(&code), &Kept::default());
            }
            _ => {}
        }
    }

    /// A new peer in the room: it may be the teacher's page (again), so a phone that has a name
    /// asks to join (or come back) through it.
    fn met(self, peer: String) {
        let removed = self.phone.with_untracked(|p| p.as_ref().is_some_and(|p| p.removed));
        if self.asked_name.get_untracked() && !removed {
            self.ask_to_join(Some(&peer));
        }
    }
}

/// Starts the phone's screen in phone.html from the join link.
pub async fn phone_start() -> Result<String, String> {
    // The phone speaks its own browser's language (or the one chosen on it), whatever the
    // teacher's page speaks; asked here, in the room's chunk, so the first page carries none of it.
    let lang = super::lang::chosen();
    if lang != crate::i18n::Lang::En {
        super::lang::install(lang).await;
    }
    let hash = web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
    let (secret, meeting) = Meeting::from_fragment(&hash);
    let secret = Secret::from_text(&secret)?;
    let topic = secret.topic();
    let code = secret.code();
    let kept: Kept = kept(&kept_key(&code));
    let rejoin = kept.token.is_some() && !kept.name.is_empty();
    let s = Screen {
        phone: RwSignal::new(None),
        welcomed: RwSignal::new(false),
        joining: RwSignal::new(rejoin.then(|| t(say::PhoneComingBack))),
        note: RwSignal::new(None),
        voted: RwSignal::new(None),
        reachable: RwSignal::new(true),
        name: RwSignal::new(kept.name),
        proposal: RwSignal::new(String::new()),
        asked_name: RwSignal::new(rejoin),
        asked_at: StoredValue::new(now_ms()),
    };
    let main = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector("main").ok().flatten())
        .and_then(|m| m.dyn_into::<web_sys::HtmlElement>().ok())
        .ok_or("the page has no place for the room")?;
    main.set_text_content(None);
    let mounted = leptos::mount::mount_to(main, move || view! { <PhoneScreen s code /> });
    PHONE_VIEW.with(|v| *v.borrow_mut() = Some(Box::new(mounted)));
    let hooks = Hooks {
        joined: Box::new(move |peer| s.met(peer)),
        left: Box::new(|_| {}),
        heard: Box::new(move |peer, text| s.heard(peer, text)),
        reach: Box::new(move |ok| {
            // A relay that answers again: the phone meets the room as usual before it would
            // give up on its connections.
            if ok {
                s.asked_at.set_value(now_ms());
            }
            s.reachable.set(ok)
        }),
    };
    let net = Net::join(&meeting, &topic, hooks).await?;
    let phone = Phone::new(secret, net.id.clone(), kept.token);
    PHONE_NET.with(|n| *n.borrow_mut() = Some(net));
    s.phone.set(Some(phone));
    // Join pressed before the connection was ready: it joins now.
    if !rejoin && s.asked_name.get_untracked() {
        s.ask_to_join(None);
    }
    Ok(String::new())
}

/// A student's phone: joining, who they are, their seat's question, the run's messages,
/// proposing and voting.
#[component]
fn PhoneScreen(s: Screen, code: String) -> impl IntoView {
    let head = Memo::new(move |_| s.phone.with(|p| p.as_ref().map(screen::phone_head)));
    let question = Memo::new(move |_| {
        s.phone.with(|p| p.as_ref().and_then(|p| p.question.as_ref().map(|(_, _, q)| q.clone())))
    });
    let said = Memo::new(move |_| {
        s.phone.with(|p| p.as_ref().map(|p| screen::transcript(&p.log)).unwrap_or_default())
    });
    let voted =
        move || s.voted.get().filter(|_| s.phone.with(|p| p.as_ref().is_some_and(|p| !p.tally.is_empty())));
    every(HERE_EVERY, move || {
        let here = s.phone.with_untracked(|p| p.as_ref().is_some_and(|p| p.token.is_some() && !p.removed));
        if here {
            s.send(None, |p| Some(p.send(&FromPhone::Here)));
        }
        // Asked to join and not taken in: the ask went down a connection the teacher's page does
        // not count, or none reached it. The room joined anew under a new id (the token, if any,
        // stays); meeting the teacher's page asks again.
        // (Not while no relay answers: nothing would be met either way.)
        let waiting =
            s.asked_name.get_untracked() && !s.welcomed.get_untracked() && s.reachable.get_untracked();
        if waiting && now_ms() - s.asked_at.get_value() > REJOIN_AFTER_MS {
            s.asked_at.set_value(now_ms());
            PHONE_NET.with(|n| {
                if let Some(net) = n.borrow().as_ref() {
                    net.rejoin(move |id| {
                        s.phone.update(|p| {
                            if let Some(p) = p {
                                p.id = id;
                            }
                        })
                    });
                }
            });
        }
    });
    // The conversation scrolls in its own box, kept at its newest message unless the student
    // scrolled back to read (the seat's question above it stays in view).
    let log = NodeRef::<leptos::html::Ol>::new();
    let at_end = StoredValue::new(true);
    Effect::new(move |_| {
        said.track();
        if let Some(el) = log.get().filter(|_| at_end.get_value()) {
            el.set_scroll_top(el.scroll_height());
        }
    });
    let scrolled = move |_| {
        if let Some(el) = log.get_untracked() {
            at_end.set_value(el.scroll_top() + el.client_height() + 24 >= el.scroll_height());
        }
    };
    let problem = Signal::derive(move || s.note.get().filter(|n| !n.fine).map(|n| n.text));
    view! {
        <h1>{t(say::PhoneHeading)} <span class="room-code" data-testid="phone-code">{code}</span></h1>
        {move || (!s.reachable.get()).then(|| view! {
            <p class="notice error" role="alert" data-testid="phone-unreachable">
                {t(say::PhoneUnreachable)}
            </p>
        })}
        {move || match (s.welcomed.get(), s.joining.get()) {
            (true, _) => None,
            (false, Some(joining)) => Some(view! { <p data-testid="phone-joining">{joining}</p> }.into_any()),
            (false, None) => Some(view! {
                <form on:submit=move |ev| { ev.prevent_default(); s.join() }>
                    <label class="field">
                        <span>{t(say::PhoneYourName)}</span>
                        <input name="name" data-testid="phone-name" maxlength="40" autocomplete="nickname" bind:value=s.name />
                    </label>
                    <button class="primary" type="submit" data-testid="phone-join">{t(say::PhoneJoin)}</button>
                </form>
            }.into_any()),
        }}
        {move || s.note.get().map(|n| if n.fine {
            view! { <p class="notice" role="status" data-testid="phone-note">{n.text}</p> }.into_any()
        } else {
            view! { <p class="notice error" role="alert" data-testid="phone-note">{n.text}</p> }.into_any()
        })}
        {move || s.welcomed.get().then(|| head.get().map(|head| match head {
            PhoneHead::Ended => view! {
                <p class="notice" data-testid="phone-ended">{t(say::PhoneEnded)}</p>
            }.into_any(),
            PhoneHead::Removed => view! {
                <p class="notice error" data-testid="phone-removed">{t(say::PhoneRemoved)}</p>
            }.into_any(),
            PhoneHead::In { name, seat, free_seats, votes } => view! {
                <p data-testid="phone-who">
                    <strong>{name}</strong>
                    {match seat {
                        Some(agent) => view! { {t(say::PhoneYouPlay)} <strong>{agent}</strong> {t(say::PhoneFullStop)} }.into_any(),
                        None => view! { {t(say::PhoneYouAudience)} }.into_any(),
                    }}
                </p>
                {(!free_seats.is_empty()).then(|| view! {
                    <div class="row" role="group" aria-label=t(say::PhoneTakeSeat)>
                        <span>{t(say::PhoneTakeSeatColon)}</span>
                        {free_seats.into_iter().map(|agent| {
                            let take = FromPhone::TakeSeat { agent: agent.clone() };
                            view! {
                                <button data-testid=format!("take-{agent}") on:click=move |_| s.send(None, |p| Some(p.send(&take)))>{agent.clone()}</button>
                            }
                        }).collect_view()}
                    </div>
                })}
                {(!votes.is_empty()).then(|| view! {
                    <div class="row" role="group" aria-label=t(say::PhoneVote) data-testid="phone-vote">
                        <span>{t(say::PhoneWhoNext)}</span>
                        {votes.into_iter().map(|(agent, n)| {
                            let label = format!("{agent} ({n})");
                            view! {
                                <button data-testid=format!("vote-{agent}") on:click=move |_| s.vote(agent.clone())>{label}</button>
                            }
                        }).collect_view()}
                    </div>
                })}
            }.into_any(),
        }))}
        {move || voted().map(|v| view! { <p class="hint" data-testid="phone-voted">{tf(say::PhoneVoted, &[("name", &v)])}</p> })}
        {move || question.get().map(|json| match crate::seat::Question::from_json(&json) {
            Ok(question) => {
                // The box answered goes once its own click handler has returned.
                let answer = Callback::new(move |a| queue_microtask(move || s.answer(a)));
                view! { <super::seat::SeatForm question answer send_asked=Signal::stored(0) take_keys=false problem /> }.into_any()
            }
            Err(why) => view! { <p class="notice error" role="alert">{why}</p> }.into_any(),
        })}
        <h2>{t(say::PhoneConversation)}</h2>
        <ol class="phone-log" data-testid="phone-log" node_ref=log on:scroll=scrolled>
            {move || said.get().into_iter().map(|m| view! {
                <li data-testid="phone-message" data-turn=m.turn>
                    <strong>{m.speaker}</strong>
                    " "
                    {m.text}
                </li>
            }).collect_view()}
        </ol>
        {move || (s.welcomed.get() && head.with(|h| h.as_ref().is_some_and(PhoneHead::may_propose))).then(|| view! {
            <form class="row" on:submit=move |ev| { ev.prevent_default(); s.propose() }>
                <label class="field grow">
                    <span>{t(say::PhonePropose)}</span>
                    <input name="propose" data-testid="phone-propose" maxlength="400" bind:value=s.proposal />
                </label>
                <button type="submit" data-testid="phone-propose-send">{t(say::PhoneProposeSend)}</button>
            </form>
        })}
    }
}
