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

/// The question waiting for the person, if any: the box is drawn by the tools module (see
/// `crate::seat::draw`), which also reads each click, input and key in it; what it reads as an
/// answer comes back here to be checked against the form and sent.
#[component]
pub fn SeatBox() -> impl IntoView {
    let desk = expect_context::<crate::app::driver::Controller>().desk;
    // The question the box was drawn for (as JSON) and its HTML.
    let drawn = RwSignal::new((String::new(), String::new()));
    let asked = move || desk.question.with(|q| q.as_ref().map(Question::to_json)).unwrap_or_default();
    let html = move || {
        let json = asked();
        let (for_json, html) = drawn.get();
        if for_json == json {
            return Markup::from_tools_module(html);
        }
        let args = vec![json.clone().into()];
        let show = move |out: Result<String, String>| {
            let html = out.unwrap_or_else(|e| crate::text::alert_html(&e).into_string());
            // Once drawn, the question takes the keys (public/boot/keys.js).
            drawn.set((json, html));
        };
        crate::app::tools::spawn_call("seat_box", args, Box::new(show));
        Markup::new()
    };
    let act = move |ev: web_sys::Event| {
        let json = desk.question.with_untracked(|q| q.as_ref().map(Question::to_json)).unwrap_or_default();
        let send = move |out: Result<String, String>| {
            if let Some(answer) = out.ok().and_then(|line| Answer::from_line(&line)) {
                desk.send(answer);
            }
        };
        crate::app::tools::spawn_call("seat_event", vec![json.into(), ev.into()], Box::new(send));
    };
    view! {
        {move || desk.question.with(Option::is_some).then(|| view! {
            <section class="seat" data-testid="seat" aria-label="Your turn" tabindex="0" markup=html
                on:click=move |ev| act(ev.into()) on:input=act on:keydown=move |ev| act(ev.into())></section>
        })}
        {move || desk.problem.get().map(|p| view! {
            <p class="notice error" data-testid="seat-problem" role="alert">{format!("Not sent: {p}.")}</p>
        })}
    }
}
