//! A seat taken in the page: the question the run puts to the person, shown above the
//! transcript with the prompt a model would read and a form that fits it (a bid, a speech with
//! its words counted, a choice from the cast, a handoff, a trading action checked against the
//! game's rules before it is sent). The run waits on the answer; Stop and Reset end the wait.

use futures::channel::oneshot;
use futures::future::LocalBoxFuture;
use leptos::prelude::*;

use crate::game::negotiation::{inventory_value, resource_value, Action};
use crate::model::ModelError;
use crate::seat::{words, Answer, Desk, Form, Question};
use crate::text::html_escape;

/// The page's desk: what is being asked, why the last answer could not be sent, and where the
/// answer goes.
#[derive(Clone, Copy)]
pub struct PageDesk {
    pub question: RwSignal<Option<Question>>,
    pub problem: RwSignal<Option<String>>,
    reply: StoredValue<Option<oneshot::Sender<Answer>>, LocalStorage>,
    /// Pause was pressed and the run not resumed: a seat's time limit stands still.
    held: RwSignal<bool>,
}

impl PageDesk {
    pub fn new() -> Self {
        Self {
            question: RwSignal::new(None),
            problem: RwSignal::new(None),
            reply: StoredValue::new_local(None),
            held: RwSignal::new(false),
        }
    }

    /// Holds a seat's time limit (Pause) or lets it run again (Run, Step).
    pub fn hold(&self, held: bool) {
        self.held.set(held);
    }

    /// Sends `answer` if the form takes it; otherwise shows why and keeps the question open.
    pub fn send(&self, answer: Answer) {
        let checked = self.question.with_untracked(|q| q.as_ref().map(|q| q.form.reply(&answer)));
        match checked {
            Some(Ok(_)) => {
                if let Some(reply) = self.reply.try_update_value(Option::take).flatten() {
                    self.question.set(None);
                    self.problem.set(None);
                    let _ = reply.send(answer);
                }
            }
            Some(Err(why)) => self.problem.set(Some(why)),
            None => {}
        }
    }

    /// Ends the wait (Stop, Reset): the seat's call is cancelled like a call in flight.
    pub fn cancel(&self) {
        self.reply.set_value(None);
        self.question.set(None);
        self.problem.set(None);
    }
}

impl Desk for PageDesk {
    fn ask<'a>(
        &'a self,
        question: &'a Question,
        problem: Option<&'a str>,
    ) -> LocalBoxFuture<'a, Result<Answer, ModelError>> {
        let (tx, rx) = oneshot::channel();
        self.reply.set_value(Some(tx));
        self.problem.set(problem.map(str::to_string));
        self.question.set(Some(question.clone()));
        Box::pin(async move { rx.await.map_err(|_| ModelError::Cancelled) })
    }

    fn withdraw(&self) {
        self.cancel();
    }

    fn held(&self) -> bool {
        self.held.get_untracked()
    }
}

/// What the page draws for a form: every form is the same few parts, so the page carries one
/// view for all of them (a view per form cost about 13 KB gzipped on the first page).
struct Layout {
    /// A text box, with the word limit it is counted against.
    text: Option<Option<u32>>,
    /// Buttons that each send an answer at once (a bid, a choice).
    buttons: Vec<(String, Answer)>,
    /// Labelled lists to pick from (the next speaker; the action, what to give and what for).
    picks: Vec<(&'static str, Vec<String>)>,
    /// A quantity to type (a trade).
    quantity: bool,
    /// Rows of (resource, held, worth) and the total worth (a trade).
    holdings: Vec<(String, i64, i64)>,
}

const ACTIONS: [&str; 4] = ["TRADE", "ACCEPT", "REJECT", "END"];

fn layout(form: &Form) -> Layout {
    let mut l =
        Layout { text: None, buttons: Vec::new(), picks: Vec::new(), quantity: false, holdings: Vec::new() };
    match form {
        Form::Text { word_limit } => l.text = Some(*word_limit),
        Form::Number { lo, hi } => {
            l.buttons = (*lo..=*hi).map(|n| (n.to_string(), Answer::Number(n))).collect()
        }
        Form::Choice { options, .. } => {
            l.buttons = options.iter().enumerate().map(|(i, o)| (o.clone(), Answer::Choice(i))).collect()
        }
        Form::Handoff { options, word_limit, .. } => {
            l.text = Some(Some(*word_limit));
            l.picks.push(("Hand the floor to", options.clone()));
        }
        Form::Trade { game, seat, values } => {
            l.picks.push(("Action", ACTIONS.map(String::from).to_vec()));
            l.picks.push(("Give (TRADE)", game.resources.clone()));
            l.picks.push(("For (TRADE)", game.resources.clone()));
            l.quantity = true;
            let held = &game.inventories[*seat];
            l.holdings = game
                .resources
                .iter()
                .zip(held)
                .map(|(r, n)| (r.clone(), *n, resource_value(*n, values)))
                .collect();
            l.holdings.push(("Total".into(), held.iter().sum(), inventory_value(held, values)));
        }
    }
    l
}

/// The answer the form's parts hold when Send is pressed.
fn answer(form: &Form, text: String, picks: &[usize], quantity: &str) -> Answer {
    let pick = |i: usize| picks.get(i).copied().unwrap_or(0);
    match form {
        Form::Handoff { .. } => Answer::Handoff { speech: text, to: pick(0) },
        Form::Trade { game, .. } => Answer::Trade(match ACTIONS.get(pick(0)).copied() {
            Some("ACCEPT") => Action::Accept,
            Some("REJECT") => Action::Reject,
            Some("END") => Action::End,
            _ => Action::Trade {
                sell_resource: game.resources.get(pick(1)).cloned().unwrap_or_default(),
                buy_resource: game.resources.get(pick(2)).cloned().unwrap_or_default(),
                quantity: quantity.trim().parse().unwrap_or(0),
            },
        }),
        _ => Answer::Text(text),
    }
}

/// What the word counter under the text box says.
fn word_note(text: &str, limit: Option<u32>) -> String {
    let n = words(text);
    match limit {
        Some(limit) if n > limit as usize => format!("{n} / {limit} words: over the limit"),
        Some(limit) => format!("{n} / {limit} words"),
        None => format!("{n} words"),
    }
}

/// The box's contents for a question, as HTML. Drawn as text rather than as Leptos views: the
/// box is the same few parts for every form, and typed views of them cost 2 KB more on
/// the first page. The answer is read back from the controls when a button is pressed.
fn draw(q: &Question) -> String {
    let l = layout(&q.form);
    let mut h = format!(
        "<h2>Your turn: {} ({})</h2><details class=\"seat-prompt\"><summary>The prompt a model would read</summary><pre data-testid=\"seat-prompt\">{}</pre></details>",
        html_escape(&q.agent),
        q.purpose.label(),
        html_escape(&q.prompt)
    );
    if !l.holdings.is_empty() {
        h.push_str("<table class=\"seat-inventory\" data-testid=\"seat-inventory\"><tr><th>Resource</th><th>You hold</th><th>Worth</th></tr>");
        for (r, n, w) in &l.holdings {
            h.push_str(&format!("<tr><td>{}</td><td>{n}</td><td>{w}</td></tr>", html_escape(r)));
        }
        h.push_str("</table>");
    }
    h.push_str("<div class=\"seat-choices\" role=\"group\" aria-label=\"Answers\">");
    for (i, (label, _)) in l.buttons.iter().enumerate() {
        h.push_str(&format!("<button data-testid=\"seat-choice-{i}\">{}</button>", html_escape(label)));
    }
    h.push_str("</div>");
    if let Some(limit) = l.text {
        h.push_str(&format!(
            "<textarea data-testid=\"seat-text\" aria-label=\"Your words\" rows=\"4\"></textarea><p class=\"hint\" data-testid=\"seat-words\">{}</p>",
            word_note("", limit)
        ));
    }
    h.push_str("<div class=\"row\">");
    for (i, (label, options)) in l.picks.iter().enumerate() {
        h.push_str(&format!(
            "<label class=\"field\"><span>{label}</span><select data-testid=\"seat-pick-{i}\">"
        ));
        for (j, o) in options.iter().enumerate() {
            // A trade's second list starts on a different resource from the first.
            let selected = if i == 2 && j == 1 { " selected" } else { "" };
            h.push_str(&format!("<option value=\"{j}\"{selected}>{}</option>", html_escape(o)));
        }
        h.push_str("</select></label>");
    }
    if l.quantity {
        h.push_str("<label class=\"field\"><span>Quantity (TRADE)</span><input data-testid=\"seat-quantity\" inputmode=\"numeric\" value=\"1\"></label>");
    }
    h.push_str("</div>");
    if l.text.is_some() || !l.picks.is_empty() {
        h.push_str("<button class=\"primary\" data-testid=\"seat-send\">Send</button>");
    }
    h
}

/// The question waiting for the person, if any.
#[component]
pub fn SeatBox() -> impl IntoView {
    use wasm_bindgen::JsCast;
    let desk = expect_context::<crate::app::driver::Controller>().desk;
    let root = NodeRef::<leptos::html::Section>::new();
    // A control of the box, by its test id.
    let control = move |id: &str| {
        root.get_untracked().and_then(|r| r.query_selector(&format!("[data-testid={id}]")).ok().flatten())
    };
    let value = move |id: &str| {
        control(id)
            .and_then(|e| js_sys::Reflect::get(&e, &"value".into()).ok())
            .and_then(|v| v.as_string())
            .unwrap_or_default()
    };
    let form = move || desk.question.with_untracked(|q| q.as_ref().map(|q| q.form.clone()));
    let click = move |ev: leptos::ev::MouseEvent| {
        let id =
            ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()?.get_attribute("data-testid"));
        let (Some(id), Some(form)) = (id, form()) else { return };
        if let Some(i) = id.strip_prefix("seat-choice-").and_then(|i| i.parse::<usize>().ok()) {
            if let Some((_, a)) = layout(&form).buttons.into_iter().nth(i) {
                desk.send(a);
            }
        } else if id == "seat-send" {
            let picks: Vec<usize> =
                (0..3).map(|i| value(&format!("seat-pick-{i}")).parse().unwrap_or(0)).collect();
            desk.send(answer(&form, value("seat-text"), &picks, &value("seat-quantity")));
        }
    };
    let input = move |_| {
        if let (Some(limit), Some(count)) = (form().and_then(|f| layout(&f).text), control("seat-words")) {
            count.set_text_content(Some(&word_note(&value("seat-text"), limit)));
        }
    };
    // Typing a digit gives the bid at once (0 for 10), as the buttons do.
    let keys = move |ev: leptos::ev::KeyboardEvent| {
        if let (Some(Form::Number { .. }), Ok(d)) = (form(), ev.key().parse::<u32>()) {
            desk.send(Answer::Number(if d == 0 { 10 } else { d }));
        }
    };
    view! {
        {move || desk.question.with(|q| q.as_ref().map(draw)).map(|html| view! {
            <section class="seat" data-testid="seat" aria-label="Your turn" tabindex="0" node_ref=root inner_html=html on:click=click on:input=input on:keydown=keys></section>
        })}
        {move || desk.problem.get().map(|p| view! {
            <p class="notice error" data-testid="seat-problem" role="alert">{format!("Not sent: {p}.")}</p>
        })}
    }
}
