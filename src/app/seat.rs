//! A seat taken in the page: the question the run puts to the person, shown above the
//! transcript with the prompt a model would read and a form that fits it (a bid, a speech with
//! its words counted, a choice from the cast, a handoff, a trading action checked against the
//! game's rules before it is sent; drawn by the tools module, `crate::seat::draw`). The run
//! waits on the answer; Stop and Reset end the wait.

use futures::channel::oneshot;
use futures::future::LocalBoxFuture;
use leptos::prelude::*;

use crate::markup::Markup;
use crate::model::ModelError;
use crate::seat::{Answer, Desk, Question};
use crate::ui::MarkupAttribute;

/// A question open at the desk, and where its answer (and who gave it) goes.
type Open = (Question, oneshot::Sender<(Answer, String)>);

/// The page's desk: the questions open (several seats may be asked at once, as bids are), the
/// one the page's box shows (the first), and why its last answer could not be sent.
#[derive(Clone, Copy)]
pub struct PageDesk {
    pub question: RwSignal<Option<Question>>,
    pub problem: RwSignal<Option<String>>,
    /// The question the page's box was drawn for (as JSON) and its HTML: the tools module draws
    /// it a moment after the question is asked, which changes the height of what is around it.
    pub drawn: RwSignal<(String, String)>,
    /// Counts the times the keys asked the box to send what it holds (Enter, `crate::keys`).
    pub send_asked: RwSignal<u32>,
    open: StoredValue<Vec<Open>, LocalStorage>,
    /// Pause was pressed and the run not resumed: a seat's time limit stands still.
    held: RwSignal<bool>,
}

impl PageDesk {
    pub fn new() -> Self {
        Self {
            question: RwSignal::new(None),
            problem: RwSignal::new(None),
            drawn: RwSignal::new((String::new(), String::new())),
            send_asked: RwSignal::new(0),
            open: StoredValue::new_local(Vec::new()),
            held: RwSignal::new(false),
        }
    }

    /// Holds a seat's time limit (Pause) or lets it run again (Run, Step).
    pub fn hold(&self, held: bool) {
        self.held.set(held);
    }

    /// Shows the first open question in the page's box.
    fn show_first(&self) {
        let first = self.open.with_value(|o| o.first().map(|(q, _)| q.clone()));
        if self.question.with_untracked(|q| *q != first) {
            self.problem.set(None);
            self.question.set(first);
        }
    }

    /// Sends `answer` to the question of `agent`'s seat (none: the one the page's box shows) if
    /// its form takes it; otherwise shows why and keeps the question open. `by` names the student
    /// whose phone answered (empty for the page's own box).
    pub fn send(&self, agent: Option<&str>, answer: Answer, by: String) {
        let at = self.open.with_value(|o| o.iter().position(|(q, _)| agent.is_none_or(|a| q.agent == a)));
        let Some(at) = at else { return };
        let checked = self.open.with_value(|o| o[at].0.form.reply(&answer).map(|_| o[at].0.agent.clone()));
        match checked {
            Ok(agent) => {
                let Some((_, reply)) = self.open.try_update_value(|o| o.remove(at)) else { return };
                crate::app::room::ask(agent, None);
                let _ = reply.send((answer, by));
                self.show_first();
            }
            Err(why) if at == 0 => self.problem.set(Some(why)),
            Err(_) => {}
        }
    }

    /// Ends every wait (Stop, Reset): the seats' calls are cancelled like calls in flight.
    pub fn cancel(&self) {
        for (q, _) in self.open.try_update_value(std::mem::take).unwrap_or_default() {
            crate::app::room::ask(q.agent, None);
        }
        self.question.set(None);
        self.problem.set(None);
    }
}

impl Desk for PageDesk {
    fn ask<'a>(
        &'a self,
        question: &'a Question,
        problem: Option<&'a str>,
    ) -> LocalBoxFuture<'a, Result<(Answer, String), ModelError>> {
        let (tx, rx) = oneshot::channel();
        // The seat's earlier question, if still open, is replaced by this one (the same call asked again).
        self.open.update_value(|o| {
            o.retain(|(q, _)| q.agent != question.agent);
            o.push((question.clone(), tx));
        });
        crate::app::room::ask(question.agent.clone(), Some(question.to_json()));
        self.show_first();
        if self.question.with_untracked(|q| q.as_ref() == Some(question)) {
            self.problem.set(problem.map(str::to_string));
        }
        Box::pin(async move { rx.await.map_err(|_| ModelError::Cancelled) })
    }

    fn withdraw(&self, question: &Question) {
        self.open.update_value(|o| o.retain(|(q, _)| q.agent != question.agent));
        crate::app::room::ask(question.agent.clone(), None);
        self.show_first();
    }

    fn held(&self) -> bool {
        self.held.get_untracked()
    }
}

/// The question waiting for the person, if any: the box is drawn by the tools module (see
/// `crate::seat::draw`), which also reads each click, input and key in it; what it reads as an
/// answer comes back here to be checked against the form and sent.
#[component]
pub fn SeatBox() -> impl IntoView {
    let desk = expect_context::<crate::app::driver::Controller>().desk;
    let drawn = desk.drawn;
    let asked = move || desk.question.with(|q| q.as_ref().map(Question::to_json)).unwrap_or_default();
    let html = move || {
        let json = asked();
        let (for_json, html) = drawn.get();
        if for_json == json {
            return Markup::from_tools_module(html);
        }
        let call = crate::app::tools::seat_box(json.clone());
        let show = move |out: Result<String, String>| {
            let html = out.unwrap_or_else(|e| crate::text::alert_html(&e).into_string());
            drawn.set((json, html));
        };
        crate::app::tools::spawn(call, show);
        Markup::new()
    };
    let asked_now = move || untrack(asked);
    let send = move |out: Result<String, String>| {
        if let Some(answer) = out.ok().and_then(|line| Answer::from_line(&line)) {
            desk.send(None, answer, String::new());
        }
    };
    let act = move |ev: web_sys::Event| {
        crate::app::tools::spawn(crate::app::tools::seat_event(asked_now(), ev), send)
    };
    let node = NodeRef::<leptos::html::Section>::new();
    // Enter, from the page's keys: the box sends what it holds, as its Send button would.
    Effect::new(move |seen: Option<u32>| {
        let asked = desk.send_asked.get();
        if let (Some(_), Some(root)) = (seen.filter(|s| *s != asked), node.get_untracked()) {
            let root: web_sys::Element = wasm_bindgen::JsCast::unchecked_into(root);
            crate::app::tools::spawn(crate::app::tools::seat_send(asked_now(), root), send);
        }
        asked
    });
    // A question that opens takes the keys (a digit bids, Enter sends): its text box when it
    // has one, unless the teacher is typing in a field elsewhere on the page.
    Effect::new(move |before: Option<String>| {
        let (json, _) = drawn.get();
        if !json.is_empty() && before.as_ref() != Some(&json) {
            request_animation_frame(move || take_the_keys(node));
        }
        json
    });
    // A digit typed on the box (not in one of its fields) is a bid and nothing else: the speech
    // box the answer opens next must not take its character.
    let keydown = move |ev: leptos::ev::KeyboardEvent| {
        let key = ev.key();
        let field = ev
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .is_some_and(|t| matches!(t.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"));
        let command = ev.ctrl_key() || ev.alt_key() || ev.meta_key();
        if !command && !field && key.len() == 1 && key.as_bytes()[0].is_ascii_digit() {
            ev.prevent_default();
        }
        act(ev.into())
    };
    view! {
        {move || desk.question.with(Option::is_some).then(|| view! {
            <section class="seat" data-testid="seat" aria-label="Your turn" tabindex="0" markup=html node_ref=node
                on:click=move |ev| act(ev.into()) on:input=act on:keydown=keydown></section>
        })}
        {move || desk.problem.get().map(|p| view! {
            <p class="notice error" data-testid="seat-problem" role="alert">{format!("Not sent: {p}.")}</p>
        })}
    }
}

/// Puts the focus in the seat's box `node` (its text box when it has one), unless the focus is in
/// a field elsewhere on the page, where someone is typing.
fn take_the_keys(node: NodeRef<leptos::html::Section>) {
    let Some(section) = node.get_untracked() else { return };
    let document = web_sys::window().and_then(|w| w.document());
    if let Some(active) = document.and_then(|d| d.active_element()) {
        let field = matches!(active.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT");
        if field && !section.contains(Some(&active)) {
            return;
        }
    }
    let text = section.query_selector("textarea").ok().flatten();
    let _ = match text.and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(t).ok()) {
        Some(text) => text.focus(),
        None => section.focus(),
    };
}
