//! Every decision a run records, worded once for the terminal and the Markdown transcript: a bid,
//! who was selected and how, the director's stop draw and choice, the selector's pick, a handoff,
//! a floor given by the class, a trading move, a call the model refused, the optimizer's note and
//! the spending cap. Each renderer adds only its own marks (the terminal's indent, the Markdown's
//! quote and escaping), so the two say the same thing. The page's panels take the same pieces from
//! each method's `words.rs`.

use crate::events::{Event, SelectorMatch};
use crate::methods::{bidding, director, handoff, negotiation, selector};

/// The words for a decision `event` records; `None` for what is not a decision (speech, the
/// opening, inventories, scores, the run's start and end).
pub fn decision(event: &Event) -> Option<String> {
    Some(match event {
        Event::Bid { agent, value, defaulted, attempts, .. } => {
            let note = bidding::words::bid_note(*value, *attempts, *defaulted);
            format!("{agent} bid: {value}{}", note.map(|n| format!(" ({n})")).unwrap_or_default())
        }
        Event::SpeakerSelected { agent, tie: true, tied, .. } => {
            format!("Selected: {agent} ({})", crate::events::draw_note(tied))
        }
        Event::SpeakerSelected { agent, .. } => format!("Selected: {agent}"),
        Event::StopDraw { stop, sample, probability, ended_by_class, .. } => format!(
            "Stop draw: {}: {}",
            director::words::drawn(*sample, *probability),
            director::words::verdict(*stop, *ended_by_class)
        ),
        Event::DirectorChoice { agent, fallback, raw, .. } => {
            let note = if *fallback {
                format!(" ({}; the reply was {raw:?})", director::words::fallback())
            } else {
                String::new()
            };
            format!("Next speaker: {agent}{note}")
        }
        Event::SelectorChoice { agent, candidates, matched, attempts, raw, .. } => {
            let how = selector::words::how_named(*matched, *attempts);
            let more = match (matched, selector::words::attempt_note(*matched, *attempts)) {
                (SelectorMatch::Fallback, _) => format!("; last reply {raw:?}"),
                (_, Some(n)) => format!("; {n}"),
                _ => String::new(),
            };
            format!("Selector named: {agent} (from {}) ({how}{more})", candidates.join(", "))
        }
        Event::Handoff { from, to, method, fallback, reason, .. } => {
            let note = if *fallback {
                format!(" ({})", handoff::words::fallback_note(reason.as_deref()))
            } else {
                String::new()
            };
            format!("Handoff ({method}): {from} → {to}{note}")
        }
        Event::FloorGiven { agent, instead_of, .. } => crate::events::floor_note(agent, instead_of),
        Event::FloorVote { by, agent, .. } => format!("{by} voted for {agent} to speak next"),
        Event::Action { player, action, valid, reason, .. } => {
            negotiation::words::move_line(player, action.as_ref(), *valid, reason)
        }
        Event::ModelCall { .. } => event.refused_call_note()?,
        Event::OptimizerIteration { note: Some(note), .. } => format!("Optimizer: {note}"),
        Event::SpendingCapReached { tokens, cost, cap, .. } => crate::view::cap_note(*tokens, *cost, cap),
        Event::SpendingCapSet { cap, .. } => {
            format!("Spending cap set to {} tokens, ${}", cap.tokens, crate::text::fixed(cap.cost, 4))
        }
        _ => return None,
    })
}

/// Whether a renderer shows `event`'s decision, given whether bids came before it this turn: a
/// selection is shown after bids or when it was drawn; round robin's plain turns add nothing the
/// next message does not show.
pub fn shown(event: &Event, after_bids: bool) -> bool {
    match event {
        Event::SpeakerSelected { tie, .. } => after_bids || *tie,
        _ => true,
    }
}
