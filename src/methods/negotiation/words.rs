//! The trading game's wording of a move, the same for every reader: the transcript on the page
//! and the Markdown export (the terminal prints the JSON a player sent, as seed 001 does).

use crate::game::negotiation::{Action, InvalidMove};
use crate::i18n::{fill, say, t, tf};

/// A move as a sentence: "Alice offers 1 STONE for 1 GOLD", "Bob accepts", and for a move the
/// rules refused, which rule it broke.
pub fn move_line(player: &str, action: Option<&Action>, valid: bool, reason: &str) -> String {
    let line = match action {
        Some(Action::Trade { sell_resource, buy_resource, quantity }) => tf(
            say::TradeOffers,
            &[("player", &player), ("n", quantity), ("sell", sell_resource), ("buy", buy_resource)],
        ),
        Some(Action::Accept) => tf(say::TradeAccepts, &[("player", &player)]),
        Some(Action::Reject) => tf(say::TradeRejects, &[("player", &player)]),
        Some(Action::End) => tf(say::TradeAsksToEnd, &[("player", &player)]),
        None => tf(say::TradeNoValidAction, &[("player", &player)]),
    };
    if valid {
        line
    } else {
        tf(say::TradeInvalid, &[("move", &line), ("why", &reason)])
    }
}

/// Why a move was refused, in the page's language: from the log's code when it has one, else
/// the log's English `reason` as it is.
pub fn why_invalid(invalid: Option<&InvalidMove>, reason: &str) -> String {
    let Some(invalid) = invalid else { return reason.to_string() };
    match invalid {
        // The provider's words and the JSON reader's stay as they were written.
        InvalidMove::Unreadable { .. } => tf(say::MvUnreadable, &[("detail", &reason)]),
        InvalidMove::NoObject => t(say::MvNoObject).into(),
        InvalidMove::NotClosed => t(say::MvNotClosed).into(),
        InvalidMove::NotJson { .. } => t(say::MvNotJson).into(),
        InvalidMove::NotAnObject => t(say::MvNotAnObject).into(),
        InvalidMove::NoAction => t(say::MvNoAction).into(),
        InvalidMove::NeedsField { field } => tf(say::MvNeedsField, &[("field", field)]),
        InvalidMove::NeedsQuantity => t(say::MvNeedsQuantity).into(),
        InvalidMove::UnknownAction { action } => tf(say::MvUnknownAction, &[("action", action)]),
        InvalidMove::UnknownResource { resource } => tf(say::MvUnknownResource, &[("resource", resource)]),
        InvalidMove::SameResource => t(say::MvSameResource).into(),
        InvalidMove::QuantityBelowOne => t(say::MvQuantityBelowOne).into(),
        InvalidMove::ProposerHasOnly { n, resource } => {
            tf(say::MvProposerHasOnly, &[("n", n), ("resource", resource)])
        }
        InvalidMove::OtherHasOnly { n, resource } => tf(say::MvOtherHasOnly, &[("n", n), ("resource", resource)]),
        InvalidMove::OwnProposal => t(say::MvOwnProposal).into(),
        InvalidMove::NoLongerAffordable => t(say::MvNoLongerAffordable).into(),
        InvalidMove::NoProposal => t(say::MvNoProposal).into(),
    }
}

/// The optimizer's note on the last game, as the event log keeps it (in English, whatever the
/// page's language): no rewrite follows it.
pub const LAST_GAME_NOTE: &str = "last iteration: no optimizer call";

/// How the log's note starts when the optimizer's reply could not be read (the rest says why).
pub const KEPT_NOTE: &str = "prompts kept: ";

/// Why the optimizer's reply changed nothing, when it was read.
pub const NO_NEW_PROMPT: &str = "no new prompt for either player";

/// An optimizer's note in the page's language (a note the log holds that is not ours stays as
/// it is; so does a provider's word for a refused reply).
pub fn optimizer_note(note: &str) -> String {
    if note == LAST_GAME_NOTE {
        return t(say::OptimizerLastGame).into();
    }
    let Some(why) = note.strip_prefix(KEPT_NOTE) else { return note.into() };
    let is = |m: InvalidMove| why == m.to_string();
    let said = if is(InvalidMove::NoObject) {
        t(say::MvNoObject)
    } else if is(InvalidMove::NotClosed) {
        t(say::MvNotClosed)
    } else if is(InvalidMove::NotAnObject) {
        t(say::MvNotAnObject)
    } else if why == NO_NEW_PROMPT {
        t(say::OptNoNewPrompt)
    } else if why.starts_with(&InvalidMove::NotJson { detail: String::new() }.to_string()) {
        t(say::MvNotJson)
    } else {
        why
    };
    tf(say::OptimizerKept, &[("why", &said)])
}

/// Why a game ended, from the game's own code for it (`both_ended`, `turn_limit`).
pub fn game_end(reason: &str) -> String {
    match reason {
        "both_ended" => t(say::GameBothEnded).to_string(),
        "turn_limit" => t(say::GameTurnLimit).to_string(),
        other => other.replace('_', " "),
    }
}

/// The proposal waiting for an answer, in a sentence.
pub fn pending(by: &str, quantity: i64, sell: &str, buy: &str) -> String {
    fill(t(say::TradePending), &[("player", &by), ("n", &quantity), ("sell", &sell), ("buy", &buy)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::Event;

    #[test]
    fn a_refused_move_is_said_in_the_pages_language_from_the_logs_code() {
        let line = r#"{"type":"action","turn":8,"player":"Bob","raw":"{}","action":{"action":"TRADE","sell_resource":"WOOD","buy_resource":"STONE","quantity":99},"valid":false,"reason":"the proposer has only 0 WOOD","invalid":{"code":"proposer_has_only","n":0,"resource":"WOOD"}}"#;
        let events = crate::events::from_json_lines(line).unwrap();
        let [Event::Action { action, valid, reason, invalid, .. }] = &events[..] else { panic!("one action") };
        let (action, valid, reason, invalid) = (action.clone(), *valid, reason.clone(), invalid.clone());
        // English says what the log's reason says, with or without the code.
        assert_eq!(why_invalid(invalid.as_ref(), &reason), reason);
        assert_eq!(why_invalid(None, &reason), reason);
        crate::i18n::speak(Some(crate::i18n::zh::TABLE));
        let said = move_line("Bob", action.as_ref(), valid, &why_invalid(invalid.as_ref(), &reason));
        let old = why_invalid(None, &reason);
        crate::i18n::speak(None);
        assert_eq!(said, "Bob 提出用 99 个 WOOD 换 99 个 STONE — 无效：提出方只有 0 个 WOOD");
        // A log written before the code was kept still says why, in its English words.
        assert_eq!(old, "the proposer has only 0 WOOD");
    }

    #[test]
    fn the_optimizers_notes_are_said_in_chinese_and_kept_as_they_are_in_english() {
        use crate::methods::negotiation::turn::read_prompts;
        let players = ["Alice".to_string(), "Bob".to_string()];
        let mut notes: Vec<String> = ["no json", "{ \"Alice\": ", "{\"Alice\": }", "{\"Carol\": \"be bold\"}"]
            .iter()
            .map(|reply| format!("{KEPT_NOTE}{}", read_prompts(reply, &players).unwrap_err()))
            .collect();
        notes.push(LAST_GAME_NOTE.into());
        for note in &notes {
            // English says the log's note, a JSON reader's message left to the inspector.
            assert!(note.starts_with(&optimizer_note(note)), "{note}");
            crate::i18n::speak(Some(crate::i18n::zh::TABLE));
            let zh = optimizer_note(note);
            crate::i18n::speak(None);
            assert!(!zh.chars().any(|c| c.is_ascii_alphabetic()) || zh.contains("JSON"), "{note}: {zh}");
            assert!(zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{note}: {zh}");
        }
        // A note that is not ours (an older build's, a provider's words) stays as it is.
        assert_eq!(optimizer_note("prompts kept: the model declined"), "prompts kept: the model declined");
    }

    #[test]
    fn every_refusal_the_game_gives_reads_back_from_the_log_and_says_the_same_in_english() {
        use crate::game::negotiation::{parse_action, Action, Game};
        let mut game = Game::new(vec!["WOOD".into(), "STONE".into()], [vec![1, 0], vec![0, 1]]);
        let trade = |sell: &str, buy: &str, quantity| Action::Trade {
            sell_resource: sell.into(),
            buy_resource: buy.into(),
            quantity,
        };
        let mut refused: Vec<InvalidMove> = [
            "no object here",
            "{ \"action\": ",
            "{\"action\": }",
            "{\"move\": 1}",
            "{\"action\": \"TRADE\", \"quantity\": 1, \"sell_resource\": \"WOOD\"}",
            "{\"action\": \"TRADE\", \"sell_resource\": \"WOOD\", \"buy_resource\": \"STONE\"}",
            "{\"action\": \"DANCE\"}",
        ]
        .iter()
        .map(|reply| parse_action(reply).unwrap_err())
        .collect();
        for (player, action) in [
            (0, trade("WOOD", "GOLD", 1)),
            (0, trade("WOOD", "WOOD", 1)),
            (0, trade("WOOD", "STONE", 0)),
            (0, trade("WOOD", "STONE", 2)),
            (1, trade("STONE", "WOOD", 2)),
            (0, Action::Accept),
        ] {
            refused.push(game.apply(player, &action).unwrap_err());
        }
        game.apply(0, &trade("WOOD", "STONE", 1)).unwrap();
        refused.push(game.apply(0, &Action::Accept).unwrap_err());
        assert_eq!(refused.len(), 14);
        for invalid in refused {
            let json = serde_json::to_string(&invalid).unwrap();
            let back: InvalidMove = serde_json::from_str(&json).unwrap();
            assert_eq!(std::mem::discriminant(&back), std::mem::discriminant(&invalid), "{json}");
            // The details the log does not keep (a reader's message) stay in `reason`.
            if !matches!(invalid, InvalidMove::NotJson { .. }) {
                assert_eq!(why_invalid(Some(&back), &invalid.to_string()), invalid.to_string(), "{json}");
            }
            crate::i18n::speak(Some(crate::i18n::zh::TABLE));
            let zh = why_invalid(Some(&back), &invalid.to_string());
            crate::i18n::speak(None);
            assert!(zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{json}: {zh}");
        }
    }
}
