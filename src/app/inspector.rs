//! The call inspector (every model call: purpose, agent, attempt, the exact messages, the raw
//! reply, the parse result, latency, tokens) and the run statistics.

use std::sync::Arc;

use leptos::prelude::*;

use super::Controller;
use crate::events::request_messages;
use crate::model::Role;
use crate::text::fixed;
use crate::ui::rows::chunked;
use crate::view::{CallRow, Tally};

/// A toggle handler that keeps `open` equal to whether its `<details>` is open, so content can
/// be built only while it is shown.
fn track_open(open: RwSignal<bool>) -> impl FnMut(leptos::ev::Event) {
    move |ev| {
        use wasm_bindgen::JsCast;
        if let Some(d) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok()) {
            open.set(d.open());
        }
    }
}

#[component]
pub fn Inspector() -> impl IntoView {
    let controller = expect_context::<Controller>();
    let count = Memo::new(move |_| controller.view.with(|v| v.calls.len()));
    let open = RwSignal::new(false);
    view! {
        <details
            class="panel inspector"
            data-testid="inspector"
            on:toggle=track_open(open)
        >
            <summary>
                <h2>{move || format!("Call inspector ({} calls)", count.get())}</h2>
            </summary>
            <p class="muted">"Every call to the model, with exactly what was sent and what came back."</p>
            // Only an open inspector keeps its list of calls up to date.
            {move || open.get().then(|| view! {
                <ol class="calls">
                    {chunked(
                        count,
                        Arc::new(move |a, b| {
                            controller.view.with(|v| v.calls.iter().skip(a).take(b - a).map(|c| c.event as u64).collect())
                        }),
                        Arc::new(move |i| {
                            let call = controller.view.with_untracked(|v| v.calls.get(i).cloned())?;
                            Some(view! { <Call call=call /> }.into_any())
                        }),
                        false,
                    )}
                </ol>
            })}
        </details>
    }
}

#[component]
fn Call(call: Arc<CallRow>) -> impl IntoView {
    let price = expect_context::<Controller>()
        .view
        .with_untracked(|v| v.scenario.as_ref().and_then(|s| s.model.price));
    let controller = expect_context::<Controller>();
    let open = RwSignal::new(false);
    let event = call.event;
    // Messages are rebuilt from the log only when the call is opened.
    let messages = move || {
        open.get().then(|| {
            controller.with_events(|log| request_messages(log, event)).map(|messages| {
                messages
                    .into_iter()
                    .map(|m| {
                        view! {
                            <li class="sent">
                                <span class="role">{role_name(m.role)}</span>
                                <pre>{m.content}</pre>
                            </li>
                        }
                    })
                    .collect_view()
            })
        })
    };
    let parse = match (&call.parse.ok, &call.parse.value, &call.parse.error) {
        (true, Some(v), _) => format!("read: {v}"),
        (true, None, _) => "used as it is".to_string(),
        (false, _, e) => format!("could not be read: {}", e.clone().unwrap_or_default()),
    };
    let failed = !call.parse.ok;
    view! {
        <li class="call" class:failed=failed data-testid="call" data-purpose=call.purpose.as_str() data-agent=call.agent.clone()>
            <details on:toggle=track_open(open)>
                <summary>
                    <span class="muted">{format!("Turn {} · ", call.turn)}</span>
                    <strong>{call.agent.clone()}</strong>
                    {format!(
                        " · {} · attempt {} · {} ms · {} + {} tokens{} · ",
                        call.purpose.label(),
                        call.attempt,
                        fixed(call.latency_ms, 0),
                        call.usage.prompt_tokens,
                        call.usage.completion_tokens,
                        match call.usage.reasoning_tokens {
                            0 => String::new(),
                            n => format!(" ({n} of them reasoning)"),
                        },
                    )}
                    {price.map(|p| {
                        let cost = p.cost(call.usage.prompt_tokens as u64, call.usage.completion_tokens as u64);
                        format!("{} · ", money(cost))
                    })}
                    <span class="parse" data-testid="call-parse">{parse}</span>
                </summary>
                <h4>"Sent"</h4>
                <ol class="messages">{messages}</ol>
                {(!call.adapted.is_empty()).then(|| view! {
                    <ul class="adapted" data-testid="call-adapted">
                        {call.adapted.iter().map(|a| view! {
                            <li>{format!("The provider refused {} ({}); Agora {} and asked again.", a.parameter, a.message, a.done())}</li>
                        }).collect_view()}
                    </ul>
                })}
                // The notes below are always there, and hidden while empty: a conditional view
                // per note costs the first page more than the element.
                <pre class="reasoning" data-testid="call-reasoning">{call.reasoning.clone()}</pre>
                <h4>"Reply"</h4>
                <p class="note refusal" data-testid="call-refusal">{call.refusal.as_ref().map(|r| r.describe())}</p>
                <pre class="reply" data-testid="call-raw">{call.raw.clone()}</pre>
                <p class="note" data-testid="call-sampling">{call.sampling.as_ref().map(crate::model::Sampling::describe)}</p>
                <p class="note" data-testid="call-truncated">{call.truncated.then_some("The reply stopped at its token limit.")}</p>
            </details>
        </li>
    }
}

/// Calls, tokens, retries and fallbacks per agent and in total; orchestration apart from speech.
#[component]
pub fn Stats() -> impl IntoView {
    let controller = expect_context::<Controller>();
    let rows = move || {
        controller.view.with(|v| {
            let mut rows: Vec<(String, Tally)> =
                v.stats.per_agent.iter().map(|(a, t)| (a.clone(), t.clone())).collect();
            if !rows.is_empty() {
                rows.push(("Total".to_string(), v.stats.total.clone()));
            }
            rows
        })
    };
    let price = move || controller.view.with(|v| v.scenario.as_ref().and_then(|s| s.model.price));
    let costs = move || {
        let price = price()?;
        controller.view.with(|v| {
            let total = v.stats.total.cost(&price);
            let orchestration = v.stats.total.orchestration_cost(&price);
            let per_turn = if v.turn > 0 { total / v.turn as f64 } else { 0.0 };
            Some(format!(
                "Cost: {} for the run · {} orchestration (bids, director choices) · {} everything else · {} a turn",
                money(total),
                money(orchestration),
                money(total - orchestration),
                money(per_turn)
            ))
        })
    };
    // The in-tab engine's own measure, from the log: one call at a time, so its time is the run's.
    let engine_speed = move || {
        let ((read, write, secs), turns) =
            controller.view.with(|v| Some((v.stats.engine.rates()?, v.turn.max(1))))?;
        Some(format!(
            "In-tab engine: {} tokens a second written, {} read · {} s of engine time, {} s a turn",
            fixed(write, 1),
            fixed(read, 0),
            fixed(secs, 1),
            fixed(secs / f64::from(turns), 1)
        ))
    };
    view! {
        <div class="panel" data-testid="stats" tabindex="0" role="region" aria-label="Run statistics">
            <h2>"Run statistics"</h2>
            {move || costs().or_else(engine_speed).map(|c| view! { <p class="muted" data-testid="cost">{c}</p> })}
            <table class="stats">
                <thead>
                    <tr>
                        <th scope="col">"Agent"</th>
                        <th scope="col" title="all calls">"Calls"</th>
                        <th scope="col" title="bids and director choices: deciding who speaks">"Orchestration"</th>
                        <th scope="col" title="calls whose reply became a message">"Speech"</th>
                        <th scope="col">"Tokens"</th>
                        <th scope="col" title="attempts after the first">"Retries"</th>
                        <th scope="col" title="defaulted bids, fallback choices and handoffs, invalid actions">"Fallbacks"</th>
                        <th scope="col" title="calls the model refused, the provider's content filter withheld, or a person in a seat left unanswered">"Refused"</th>
                        <th scope="col" title="turns where the model answered nothing">"Empty"</th>
                    </tr>
                </thead>
                <tbody>
                    {move || {
                        rows()
                            .into_iter()
                            .map(|(agent, t)| {
                                view! {
                                    <tr
                                        class:total=agent == "Total"
                                        data-testid="stats-row"
                                        data-agent=agent.clone()
                                        data-calls=t.calls
                                        data-retries=t.retries
                                        data-fallbacks=t.fallbacks
                                        data-refused=t.refused
                                        data-empty=t.empty
                                    >
                                        <th scope="row">{agent.clone()}</th>
                                        <td>{t.calls}</td>
                                        <td>{t.orchestration_calls}</td>
                                        <td>{t.speech_calls}</td>
                                        <td>{t.tokens()}</td>
                                        <td>{t.retries}</td>
                                        <td>{t.fallbacks}</td>
                                        <td>{t.refused}</td>
                                        <td>{t.empty}</td>
                                    </tr>
                                }
                            })
                            .collect_view()
                    }}
                </tbody>
            </table>
        </div>
    }
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::System => "system",
        Role::User => "user",
        Role::Assistant => "assistant",
    }
}

/// An amount of money at a precision that shows fractions of a cent.
pub fn money(amount: f64) -> String {
    format!("${}", fixed(amount, 4))
}
