//! A seat taken in the page: the question the run puts to the person, shown above the
//! transcript with the prompt a model would read and a form that fits it (a bid, a speech with
//! its words counted, a choice from the cast, a handoff, a trading action checked against the
//! game's rules before it is sent; its parts are `crate::seat::form`'s). The run waits on the
//! answer; Stop and Reset end the wait.

use crate::i18n::{say, t, tf};
use futures::channel::oneshot;
use futures::future::LocalBoxFuture;
use leptos::prelude::*;

use crate::model::ModelError;
use crate::seat::{Answer, Desk, Question};

/// A question open at the desk, and where its answer (and who gave it) goes.
type Open = (Question, oneshot::Sender<(Answer, String)>);

/// The page's desk: the questions open (several seats may be asked at once, as bids are), the
/// one the page's box shows (the first), and why its last answer could not be sent.
#[derive(Clone, Copy)]
pub struct PageDesk {
    pub question: RwSignal<Option<Question>>,
    pub problem: RwSignal<Option<String>>,
    /// Counts the times the keys asked the box to send what it holds (Enter, `crate::keys`).
    pub send_asked: RwSignal<u32>,
    /// Counts the times the page's skip link asked for the focus in the box.
    pub focus_asked: RwSignal<u32>,
    /// The box's text box has the focus the page gave it when it opened, and nothing has been
    /// typed or clicked there since: the page's shortcuts still work there (`crate::keys`).
    pub by_itself: RwSignal<bool>,
    open: StoredValue<Vec<Open>, LocalStorage>,
    /// Pause was pressed and the run not resumed: a seat's time limit stands still.
    held: RwSignal<bool>,
}

impl PageDesk {
    pub fn new() -> Self {
        Self {
            question: RwSignal::new(None),
            problem: RwSignal::new(None),
            send_asked: RwSignal::new(0),
            focus_asked: RwSignal::new(0),
            by_itself: RwSignal::new(false),
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

/// The question waiting for the person, if any, in the box that asks it ([`SeatForm`]); its
/// answer is checked against the form and sent.
#[component]
pub fn SeatBox() -> impl IntoView {
    let desk = expect_context::<crate::app::driver::Controller>().desk;
    let answer = Callback::new(move |answer: Answer| desk.send(None, answer, String::new()));
    view! {
        {move || desk.question.get().map(|question| view! {
            <SeatForm question answer send_asked=desk.send_asked take_keys=true problem=desk.problem focus_asked=desk.focus_asked by_itself=desk.by_itself />
        })}
        {move || desk.problem.get().map(|p| view! {
            <p class="notice error" id="seat-problem" data-testid="seat-problem" role="alert">{tf(say::SeatNotSent, &[("why", &p)])}</p>
        })}
    }
}

/// The box that asks `question` of a person (on the stage, or on a student's phone): the prompt
/// a model would read and the form's parts (`crate::seat::form`). A button that answers by itself
/// (a bid, a choice) and Send hand the answer to `answer`, as does a digit typed on a bid and each
/// change of `send_asked` (Enter, from the page's keys) when the box has a Send button. With
/// `take_keys`, the box takes the focus when it opens (its text box when it has one), unless the
/// focus is in a field elsewhere on the page, where someone is typing. When `problem` says why
/// an answer was not sent, the focus goes back to the text box it is about. Each change of
/// `focus_asked` (the page's "Skip to the open question") puts the focus in the box.
#[component]
pub fn SeatForm(
    question: Question,
    answer: Callback<Answer>,
    #[prop(into)] send_asked: Signal<u32>,
    take_keys: bool,
    #[prop(optional, into)] problem: Option<Signal<Option<String>>>,
    #[prop(optional, into)] focus_asked: Option<Signal<u32>>,
    /// Set while the text box holds the focus `take_keys` gave it and nothing was typed or
    /// clicked there since.
    #[prop(optional)]
    by_itself: Option<RwSignal<bool>>,
) -> impl IntoView {
    use crate::seat::form::{first_pick, layout, word_note};
    use crate::seat::Form;
    let parts = layout(&question.form);
    let sends = parts.sends();
    let bids = matches!(question.form, Form::Number { .. });
    let form = StoredValue::new(question.form);
    let text = RwSignal::new(String::new());
    let picks: [RwSignal<usize>; 3] = std::array::from_fn(|i| RwSignal::new(first_pick(i)));
    let quantity = RwSignal::new("1".to_string());
    let held = move || {
        let picks = picks.map(|p| p.get_untracked());
        form.with_value(|f| {
            crate::seat::form::answer(f, text.get_untracked(), &picks, &quantity.get_untracked())
        })
    };
    let section = NodeRef::<leptos::html::Section>::new();
    let text_box = NodeRef::<leptos::html::Textarea>::new();
    Effect::new(move |seen: Option<u32>| {
        let asked = send_asked.get();
        if sends && seen.is_some_and(|s| s != asked) {
            answer.run(held());
        }
        asked
    });
    let touched = move || {
        if let Some(flag) = by_itself {
            flag.set(false);
        }
    };
    touched();
    if take_keys {
        request_animation_frame(move || {
            if take_the_keys(section, text_box) {
                if let Some(flag) = by_itself {
                    flag.set(true);
                }
            }
        });
    }
    if let Some(focus_asked) = focus_asked {
        Effect::new(move |seen: Option<u32>| {
            let asked = focus_asked.get();
            if seen.is_some_and(|s| s != asked) {
                touched();
                let _ = match text_box.try_get_untracked().flatten() {
                    Some(text) => text.focus(),
                    None => section.try_get_untracked().flatten().map_or(Ok(()), |s| s.focus()),
                };
            }
            asked
        });
    }
    if let Some(problem) = problem {
        Effect::new(move |_| {
            if problem.with(Option::is_some) {
                if let Some(text) = text_box.try_get_untracked().flatten() {
                    touched();
                    let _ = text.focus();
                }
            }
        });
    }
    // A digit typed on a bid's box gives the bid at once (0 for 10), as its buttons do, and
    // nothing else: the speech box the answer opens next must not take its character. A digit
    // with Ctrl, Alt or Meta is the browser's (Ctrl+1 picks a tab).
    let keydown = move |ev: leptos::ev::KeyboardEvent| {
        let command = ev.ctrl_key() || ev.alt_key() || ev.meta_key();
        let digit = ev.key().parse::<u32>().ok().filter(|_| !command && ev.key().len() == 1);
        let in_field = ev
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .is_some_and(|t| matches!(t.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"));
        if let Some(d) = digit.filter(|_| !in_field) {
            ev.prevent_default();
            if bids {
                answer.run(Answer::Number(if d == 0 { 10 } else { d }));
            }
        }
    };
    let holdings = (!parts.holdings.is_empty()).then(|| {
        let rows = parts
            .holdings
            .into_iter()
            .map(|(resource, n, worth)| view! { <tr><td>{resource}</td><td>{n}</td><td>{worth}</td></tr> })
            .collect_view();
        view! {
            <table class="seat-inventory" data-testid="seat-inventory">
                <tr><th>{t(say::SeatResource)}</th><th>{t(say::SeatYouHold)}</th><th>{t(say::SeatWorth)}</th></tr>
                {rows}
            </table>
        }
    });
    let buttons = parts
        .buttons
        .into_iter()
        .enumerate()
        .map(|(i, (label, a))| {
            view! { <button data-testid=format!("seat-choice-{i}") on:click=move |_| answer.run(a.clone())>{label}</button> }
        })
        .collect_view();
    let limit = parts.text;
    let text_part = limit.map(|_| {
        view! {
            <textarea data-testid="seat-text" aria-label=t(say::SeatYourWords) aria-describedby="seat-problem" rows="4" node_ref=text_box
                prop:value=text on:input=move |ev| { touched(); text.set(event_target_value(&ev)) }
                on:pointerdown=move |_| touched() on:blur=move |_| touched()></textarea>
        }
    });
    let words = limit.map(|limit| {
        view! { <p class="hint" data-testid="seat-words">{move || text.with(|t| word_note(t, limit))}</p> }
    });
    let lists = parts
        .picks
        .into_iter()
        .enumerate()
        .map(|(i, (label, options))| {
            let pick = picks[i.min(2)];
            let options = options
                .into_iter()
                .enumerate()
                .map(|(j, o)| view! { <option value=j.to_string() selected=j == first_pick(i)>{o}</option> })
                .collect_view();
            view! {
                <label class="field"><span>{label}</span>
                    <select data-testid=format!("seat-pick-{i}")
                        on:change=move |ev| pick.set(event_target_value(&ev).parse().unwrap_or(0))>{options}</select>
                </label>
            }
        })
        .collect_view();
    let quantity_part = parts.quantity.then(|| {
        view! {
            <label class="field"><span>{t(say::SeatQuantity)}</span>
                <input data-testid="seat-quantity" inputmode="numeric" prop:value=quantity
                    on:input=move |ev| quantity.set(event_target_value(&ev)) />
            </label>
        }
    });
    let send = sends.then(|| {
        view! { <button class="primary" data-testid="seat-send" on:click=move |_| answer.run(held())>{t(say::SeatSend)}</button> }
    });
    view! {
        <section class="seat" data-testid="seat" aria-label=t(say::YourTurn) tabindex="0" node_ref=section on:keydown=keydown>
            <h2>{tf(say::YourTurnOf, &[("agent", &question.agent), ("purpose", &question.purpose.words())])}</h2>
            <details class="seat-prompt">
                <summary>{t(say::SeatPromptSummary)}</summary>
                <pre data-testid="seat-prompt">{question.prompt}</pre>
            </details>
            {holdings}
            <div class="seat-choices" role="group" aria-label=t(say::SeatAnswers)>{buttons}</div>
            {text_part}
            <div class="row">{lists}{quantity_part}</div>
            // The word count beside Send, in one row that stays in view as the box scrolls.
            <div class="seat-foot">{words}{send}</div>
        </section>
    }
}

/// Puts the focus in the seat's box (its text box when it has one), unless the focus is in a
/// field elsewhere on the page, where someone is typing. Whether the text box took it.
fn take_the_keys(section: NodeRef<leptos::html::Section>, text_box: NodeRef<leptos::html::Textarea>) -> bool {
    // A frame later the box may be gone (its question answered meanwhile): then nothing to do.
    let Some(section) = section.try_get_untracked().flatten() else { return false };
    let document = web_sys::window().and_then(|w| w.document());
    if let Some(active) = document.and_then(|d| d.active_element()) {
        let field = matches!(active.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT");
        if field && !section.contains(Some(&active)) {
            return false;
        }
    }
    match text_box.try_get_untracked().flatten() {
        Some(text) => text.focus().is_ok(),
        None => {
            let _ = section.focus();
            false
        }
    }
}
