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

/// The page's desk: what is being asked, why the last answer could not be sent, and where the
/// answer goes.
#[derive(Clone, Copy)]
pub struct PageDesk {
    pub question: RwSignal<Option<Question>>,
    pub problem: RwSignal<Option<String>>,
    reply: StoredValue<Option<oneshot::Sender<Answer>>, LocalStorage>,
}

impl PageDesk {
    pub fn new() -> Self {
        Self {
            question: RwSignal::new(None),
            problem: RwSignal::new(None),
            reply: StoredValue::new_local(None),
        }
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

/// The question waiting for the person, if any.
#[component]
pub fn SeatBox() -> impl IntoView {
    let desk = expect_context::<crate::app::driver::Controller>().desk;
    move || {
        desk.question.get().map(|q| {
            let what = q.purpose.label();
            let l = layout(&q.form);
            let text = RwSignal::new(String::new());
            let picks: Vec<RwSignal<usize>> = l.picks.iter().map(|_| RwSignal::new(0)).collect();
            // A trade's second list starts on a different resource from the first.
            if let Some(p) = picks.get(2) {
                p.set(1);
            }
            let quantity = RwSignal::new("1".to_string());
            let form = q.form.clone();
            let chosen = picks.clone();
            let send = move |_| {
                let picked: Vec<usize> = chosen.iter().map(|p| p.get_untracked()).collect();
                desk.send(answer(&form, text.get_untracked(), &picked, &quantity.get_untracked()))
            };
            let has_send = l.text.is_some() || !l.picks.is_empty();
            let no_holdings = l.holdings.is_empty();
            // Typing a digit gives the bid at once (0 for 10), as the buttons do.
            let digits = matches!(q.form, Form::Number { .. });
            let keys = move |ev: leptos::ev::KeyboardEvent| {
                if let (true, Ok(d)) = (digits, ev.key().parse::<u32>()) {
                    desk.send(Answer::Number(if d == 0 { 10 } else { d }));
                }
            };
            view! {
                <section class="seat" data-testid="seat" aria-label="Your turn" tabindex="0" on:keydown=keys>
                    <h2>{format!("Your turn: {} ({what})", q.agent)}</h2>
                    <details class="seat-prompt">
                        <summary>"The prompt a model would read"</summary>
                        <pre data-testid="seat-prompt">{q.prompt.clone()}</pre>
                    </details>
                    <table class="seat-inventory" data-testid="seat-inventory" hidden=no_holdings>
                        <tr><th>"Resource"</th><th>"You hold"</th><th>"Worth"</th></tr>
                        {l.holdings.into_iter().map(|(r, n, w)| view! { <tr><td>{r}</td><td>{n}</td><td>{w}</td></tr> }).collect_view()}
                    </table>
                    <div class="seat-choices" role="group" aria-label="Answers">
                        {l.buttons.into_iter().enumerate().map(|(i, (label, a))| view! {
                            <button data-testid=format!("seat-choice-{i}") on:click=move |_| desk.send(a.clone())>{label}</button>
                        }).collect_view()}
                    </div>
                    {l.text.map(|limit| view! {
                        <textarea data-testid="seat-text" aria-label="Your words" rows="4" on:input=move |ev| text.set(event_target_value(&ev))></textarea>
                        <p class="hint" data-testid="seat-words">{move || {
                            let n = text.with(|t| words(t));
                            match limit {
                                Some(limit) if n > limit as usize => format!("{n} / {limit} words: over the limit"),
                                Some(limit) => format!("{n} / {limit} words"),
                                None => format!("{n} words"),
                            }
                        }}</p>
                    })}
                    <div class="row">
                        {l.picks.into_iter().zip(picks).enumerate().map(|(i, ((label, options), pick))| view! {
                            <label class="field">
                                <span>{label}</span>
                                <select data-testid=format!("seat-pick-{i}") on:change=move |ev| pick.set(event_target_value(&ev).parse().unwrap_or(0))>
                                    {options.into_iter().enumerate().map(|(j, o)| view! {
                                        <option value=j.to_string() selected=move || pick.get_untracked() == j>{o}</option>
                                    }).collect_view()}
                                </select>
                            </label>
                        }).collect_view()}
                        {l.quantity.then(|| view! {
                            <label class="field">
                                <span>"Quantity (TRADE)"</span>
                                <input data-testid="seat-quantity" inputmode="numeric" prop:value=move || quantity.get() on:input=move |ev| quantity.set(event_target_value(&ev)) />
                            </label>
                        })}
                    </div>
                    <button class="primary" data-testid="seat-send" hidden=!has_send on:click=send>"Send"</button>
                    {move || desk.problem.get().map(|p| view! {
                        <p class="notice error" data-testid="seat-problem" role="alert">{format!("Not sent: {p}.")}</p>
                    })}
                </section>
            }
        })
    }
}
