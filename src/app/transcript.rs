//! The live transcript: speaker, turn and text; body movements between `*` set apart; injected
//! messages (the moderator's or audience's opening) marked. Rows are keyed, so a new message adds
//! one row and leaves the others alone.

use crate::i18n::{say, t, tf};
use std::sync::Arc;

use leptos::html::Ol;
use leptos::prelude::*;

use super::Controller;
use crate::ui::rows::chunked;
use crate::view::{Segment, TranscriptRow};

#[component]
pub fn Transcript() -> impl IntoView {
    let controller = expect_context::<Controller>();
    let count = Memo::new(move |_| controller.view.with(|v| v.transcript.len()));
    let described = Memo::new(move |_| controller.view.with(|v| v.descriptions.len()));
    let list = NodeRef::<Ol>::new();
    let follow = RwSignal::new(true);
    let last_top = StoredValue::new((0, 0));
    // Keep the newest message in sight unless the reader scrolled up to read (and bring it back
    // when the layout changes).
    // The comparison page's columns have no drawer.
    let layout = use_context::<super::stage::Layout>();
    // Who the class plays in the scenario in the editor (none in a comparison's column).
    let editor = use_context::<crate::ui::form::EditorState>();
    let seats = Memo::new(move |_| editor.map(|e| e.scenario.with(|s| s.seats.clone())).unwrap_or_default());
    Effect::new(move |_| {
        count.track();
        // What changes the transcript's height: the projector view, the class's row (live runs),
        // a seat's question (and its box), the drawer beside the stage, and
        // the stage shown again after the gallery (hidden, it had no height to scroll).
        controller.projector.track();
        controller.mode.track();
        controller.desk.question.track();
        controller.waiting.track();
        if let Some(layout) = layout {
            layout.tab.track();
            layout.stage.track();
        }
        if follow.get_untracked() {
            // After the new rows are laid out (the transcript may be gone by then).
            request_animation_frame(move || {
                if let Some(el) = list.try_get_untracked().flatten() {
                    el.set_scroll_top(el.scroll_height());
                }
            });
        }
    });
    view! {
        <div class="panel transcript-panel">
            <h2>
                {t(say::Transcript)} " " <span class="muted count" data-testid="message-count">
                    {move || match count.get() {
                        1 => t(say::MessagesOne).to_string(),
                        n => tf(say::MessagesMany, &[("n", &n)]),
                    }}
                </span>
            </h2>
            {move || {
                // Seed 000's generated descriptions, which the agents' headers carry: drawn again
                // when one is added, not at every event (which would also close the box).
                let count = described.get();
                (count > 0).then(|| {
                    let lines = controller.view.with_untracked(|v| {
                        v.descriptions
                            .iter()
                            .map(|(agent, text)| view! { <p data-testid="description">{format!("{agent}: {text}")}</p> })
                            .collect_view()
                    });
                    view! {
                        <details class="descriptions" data-testid="descriptions">
                            <summary>{tf(say::CharacterDescriptions, &[("n", &count)])}</summary>
                            {lines}
                        </details>
                    }
                })
            }}
            <ol
                class="transcript"
                data-testid="transcript"
                node_ref=list
                // Reachable by keyboard to scroll; what is said aloud comes from the log below.
                tabindex="0"
                aria-label=t(say::Transcript)
                on:scroll=move |_| {
                    if let Some(el) = list.get_untracked() {
                        let (top, height) = (el.scroll_top(), el.scroll_height());
                        let (last, last_height) = last_top.get_value();
                        let at_bottom = top + el.client_height() >= height - 40;
                        // Only the reader scrolling up stops the following: our own scrolls go
                        // down, and a list redrawn under the reader (rows replaced, the height
                        // changed) may put it back at the top without them asking.
                        if at_bottom {
                            follow.set(true);
                        } else if top < last && height == last_height {
                            follow.set(false);
                        }
                        last_top.set_value((top, height));
                    }
                }
            >
                {chunked(
                    count,
                    Arc::new(move |a, b| {
                        // A row changes when its trading move is read, and when the judge
                        // scores its speech.
                        controller.view.with(|v| {
                            v.transcript.iter().skip(a).take(b - a).map(|r| (r.id as u64) << 2 | (r.action.is_some() as u64) << 1 | r.score.is_some() as u64).collect()
                        })
                    }),
                    Arc::new(move |i| {
                        let row = controller.view.with_untracked(|v| v.transcript.get(i).cloned())?;
                        Some(view! { <Message row=row /> }.into_any())
                    }),
                    false,
                )}
            </ol>
            // Each finished speech and each turn's decision, once, for a screen reader; the
            // streaming text below is never announced.
            // (A comparison's columns, which have no drawer, say nothing: the page's run speaks.)
            {layout.map(|_| view! {
                <div class="visually-hidden" role="log" aria-live="polite" aria-relevant="additions" data-testid="announcer">
                    <For each=move || controller.heard.get() key=|(id, _)| *id let:heard>
                        <p lang=crate::text::script_lang(&heard.1)>{heard.1.clone()}</p>
                    </For>
                </div>
            })}
            {move || {
                controller
                    .live_text
                    .get()
                    .map(|(agent, text)| {
                        let speaker = agent.clone();
                        view! {
                            <p class="message streaming" data-testid="live-text" data-speaker=agent>
                                <span class="speaker">{speaker}</span>
                                <span class="tag">{t(say::LiveWriting)}</span>
                                <span class="text" lang=crate::text::script_lang(&text)>{text.clone()}</span>
                            </p>
                        }
                    })
            }}
            // What the class said while the turn under way is out: below it, where it will land.
            {move || {
                controller
                    .waiting
                    .get()
                    .into_iter()
                    .map(|(speaker, text)| view! {
                        <p class="message waiting" data-testid="waiting-interjection">
                            <span class="tag">{t(say::HeardAfterSpeech)}</span>
                            " "
                            <strong class="speaker">{crate::controls::speaker_words(&speaker).to_string()}</strong>
                            {t(say::SaidColon)}
                            <span class="text" lang=crate::text::script_lang(&text)>{text.clone()}</span>
                        </p>
                    })
                    .collect_view()
            }}
            {move || (count.get() == 0).then(|| view! {
                <p class="muted empty">
                    {move || if layout.is_none() {
                        // A column of a comparison: the page's buttons play every column.
                        t(say::EmptyCompare).to_string()
                    } else if controller.replaying.get() {
                        t(say::EmptyReplay).to_string()
                    } else if controller.mode.get() != super::Mode::Idle {
                        t(say::EmptyRunning).to_string()
                    } else {
                        // Seats kept from an earlier visit are said here, before Run waits on them.
                        seats.with(|seats| crate::controls::before_run(seats, crate::methods::selector::SELECTOR))
                    }}
                </p>
            })}
        </div>
    }
}

#[component]
fn Message(row: std::sync::Arc<TranscriptRow>) -> impl IntoView {
    let parts = row
        .segments
        .iter()
        .map(|s| match s {
            Segment::Speech(t) => view! { <span>{t.clone()}</span> }.into_any(),
            Segment::Gesture(t) => view! { <em class="gesture">{format!("*{t}*")}</em> }.into_any(),
        })
        .collect_view();
    let note = row.kind.note(&row.refusal);
    view! {
        <li class="message" class:injected=row.injected data-testid="message" data-speaker=row.speaker.clone() data-turn=row.turn data-kind=row.kind.tag()>
            {row.game.map(|g| view! { <p class="game-start" data-testid="game-start">{tf(say::GameN, &[("n", &g)])}</p> })}
            <div class="meta">
                <strong class="speaker">{crate::controls::speaker_words(&row.speaker).to_string()}</strong>
                {row.kind.label().map(|tag| view! { <span class="tag">{tag}</span> })}
                {row.you.then(|| view! { <span class="tag" data-testid="you">{if row.by.is_empty() { t(say::You).to_string() } else { row.by.clone() }}</span> })}
                <span class="turn muted">{tf(say::TurnN, &[("turn", &row.turn)])}</span>
                {row.score.clone().map(|(mean, why)| view! { <span class="tag score" data-testid="speech-score" title=why>{tf(say::JudgeScore, &[("mean", &mean)])}</span> })}
            </div>
            {match row.action.clone() {
                // What the player sent (and the other player read) one click away.
                Some(line) => view! {
                    <p class="text" data-testid="message-move">{line}</p>
                    <details class="raw"><summary>{t(say::SentAsIs)}</summary><code data-testid="message-text">{row.text.clone()}</code></details>
                }.into_any(),
                None => view! {
                    <p class="text" data-testid="message-text" lang=crate::text::script_lang(&row.text)>{parts}</p>
                }.into_any(),
            }}
            {note.filter(|_| !row.injected).map(|n| view! { <p class="note" data-testid="message-note">{n}</p> })}
            {row.given.clone().map(|n| view! { <p class="note" data-testid="message-given">{n}</p> })}
        </li>
    }
}
