//! The call inspector (every model call: purpose, agent, attempt, the exact messages, the raw
//! reply, the parse result, latency, tokens) and the run statistics.

use std::sync::Arc;

use leptos::prelude::*;

use super::Controller;
use crate::events::request_messages;
use crate::i18n::{say, t, tf};
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
                <h2>{move || tf(say::InspectorTitle, &[("n", &count.get())])}</h2>
            </summary>
            <p class="muted">{t(say::InspectorHint)}</p>
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
    // What was read is the model's own words (a bid, a name, a speech), set apart from ours.
    let (parse, read) = match (&call.parse.ok, &call.parse.value, &call.parse.error) {
        (true, Some(v), _) => (t(say::CallRead).to_string(), v.to_string()),
        (true, None, _) => (t(say::CallUsedAsIs).to_string(), String::new()),
        (false, _, e) => (tf(say::CallUnread, &[("why", &e.as_deref().unwrap_or_default())]), String::new()),
    };
    let failed = !call.parse.ok;
    view! {
        <li class="call" class:failed=failed data-testid="call" data-purpose=call.purpose.as_str() data-agent=call.agent.clone()>
            <details on:toggle=track_open(open)>
                <summary>
                    <span class="muted">{tf(say::CallTurn, &[("n", &call.turn)])}</span>
                    <strong>{call.agent.clone()}</strong>
                    {tf(
                        say::CallLine,
                        &[
                            ("purpose", &call.purpose.words()),
                            ("attempt", &call.attempt),
                            ("ms", &fixed(call.latency_ms, 0)),
                            ("sent", &call.usage.prompt_tokens),
                            ("got", &call.usage.completion_tokens),
                            ("reasoning", &match call.usage.reasoning_tokens {
                                0 => String::new(),
                                n => tf(say::CallReasoning, &[("n", &n)]),
                            }),
                        ],
                    )}
                    {price.map(|p| {
                        let cost = p.cost(call.usage.prompt_tokens as u64, call.usage.completion_tokens as u64);
                        format!("{} · ", money(cost))
                    })}
                    <span class="parse" data-testid="call-parse">{parse}<span class="read">{read}</span></span>
                </summary>
                <h4>{t(say::CallSent)}</h4>
                <ol class="messages">{messages}</ol>
                {(!call.adapted.is_empty()).then(|| view! {
                    <ul class="adapted" data-testid="call-adapted">
                        {call.adapted.iter().map(|a| view! {
                            <li>{tf(say::CallAdapted, &[("parameter", &a.parameter), ("message", &a.message), ("done", &a.done())])}</li>
                        }).collect_view()}
                    </ul>
                })}
                // The notes below are always there, and hidden while empty: a conditional view
                // per note costs the first page more than the element.
                <pre class="reasoning" data-testid="call-reasoning">{call.reasoning.clone()}</pre>
                <h4>{t(say::CallReply)}</h4>
                <p class="note refusal" data-testid="call-refusal">{call.refusal.as_ref().map(|r| r.describe())}</p>
                <pre class="reply" data-testid="call-raw">{call.raw.clone()}</pre>
                <p class="note" data-testid="call-sampling">{call.sampling.as_ref().map(crate::model::Sampling::describe)}</p>
                <p class="note" data-testid="call-truncated">{call.truncated.then(|| t(say::CallTruncated))}</p>
            </details>
        </li>
    }
}

/// The rows of the statistics: what each is called, what it counts (a tooltip), and its figure.
type Said = fn() -> &'static str;
type Measure = (Said, Option<Said>, fn(&Tally) -> u64);
const MEASURES: [Measure; 8] = [
    (|| t(say::StatsCalls), Some(|| t(say::StatsCallsTitle)), |t| t.calls.into()),
    (
        || t(say::StatsOrchestration),
        Some(|| t(say::StatsOrchestrationTitle)),
        |t| t.orchestration_calls.into(),
    ),
    (|| t(say::StatsSpeech), Some(|| t(say::StatsSpeechTitle)), |t| t.speech_calls.into()),
    (|| t(say::StatsTokens), None, Tally::tokens),
    (|| t(say::StatsRetries), Some(|| t(say::StatsRetriesTitle)), |t| t.retries.into()),
    (|| t(say::StatsFallbacks), Some(|| t(say::StatsFallbacksTitle)), |t| t.fallbacks.into()),
    (|| t(say::StatsRefused), Some(|| t(say::StatsRefusedTitle)), |t| t.refused.into()),
    (|| t(say::StatsEmpty), Some(|| t(say::StatsEmptyTitle)), |t| t.empty.into()),
];

/// Calls, tokens, retries and fallbacks per agent and in total; orchestration apart from speech.
#[component]
pub fn Stats() -> impl IntoView {
    let controller = expect_context::<Controller>();
    let rows = move || {
        controller.view.with(|v| {
            // The total's row has no agent.
            let mut rows: Vec<(Option<String>, Tally)> =
                v.stats.per_agent.iter().map(|(a, t)| (Some(a.clone()), t.clone())).collect();
            if !rows.is_empty() {
                rows.push((None, v.stats.total.clone()));
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
            Some(tf(
                say::StatsCost,
                &[
                    ("total", &money(total)),
                    ("orchestration", &money(orchestration)),
                    ("rest", &money(total - orchestration)),
                    ("turn", &money(per_turn)),
                ],
            ))
        })
    };
    // The in-tab engine's own measure, from the log: one call at a time, so its time is the run's.
    let engine_speed = move || {
        let ((read, write, secs), turns) =
            controller.view.with(|v| Some((v.stats.engine.rates()?, v.turn.max(1))))?;
        Some(tf(
            say::StatsEngine,
            &[
                ("written", &fixed(write, 1)),
                ("read", &fixed(read, 0)),
                ("secs", &fixed(secs, 1)),
                ("turn", &fixed(secs / f64::from(turns), 1)),
            ],
        ))
    };
    view! {
        <div class="panel scrolls" data-testid="stats" tabindex="0" role="region" aria-label=t(say::StatsTitle)>
            <h2>{t(say::StatsTitle)}</h2>
            {move || costs().or_else(engine_speed).map(|c| view! { <p class="muted" data-testid="cost">{c}</p> })}
            // Agents across and measures down: a cast of a few fits a drawer beside the stage,
            // where nine measures across did not.
            <table class="stats">
                <thead>
                    <tr>
                        <th scope="col">{t(say::StatsAgent)}</th>
                        {move || {
                            rows()
                                .into_iter()
                                .map(|(agent, tally)| {
                                    let is_total = agent.is_none();
                                    let id = agent.clone().unwrap_or_else(|| "Total".into());
                                    let name = agent.unwrap_or_else(|| t(say::StatsTotal).into());
                                    view! {
                                        <th
                                            scope="col"
                                            class:total=is_total
                                            data-testid="stats-agent"
                                            data-agent=id
                                            data-calls=tally.calls
                                            data-retries=tally.retries
                                            data-fallbacks=tally.fallbacks
                                            data-refused=tally.refused
                                            data-empty=tally.empty
                                        >
                                            {name}
                                        </th>
                                    }
                                })
                                .collect_view()
                        }}
                    </tr>
                </thead>
                <tbody>
                    {MEASURES
                        .iter()
                        .map(|&(name, what, of)| {
                            let cells = move || {
                                rows()
                                    .into_iter()
                                    .map(|(agent, tally)| view! { <td class:total=agent.is_none()>{of(&tally)}</td> })
                                    .collect_view()
                            };
                            view! {
                                <tr>
                                    <th scope="row" title=what.map(|w| w())>{name()}</th>
                                    {cells}
                                </tr>
                            }
                        })
                        .collect_view()}
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
