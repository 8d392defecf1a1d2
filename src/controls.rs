//! What the run controls show in each state of a run: which buttons are offered and enabled, what
//! the primary button says and the status line beside them. Plain data in, plain data out, so
//! the page draws exactly what these decide and native tests pin every state down.

use crate::events::FinishReason;
use crate::i18n::{fill, say, t, tf};
use crate::session::Status;

/// Everything about the run on screen that the controls depend on.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunState {
    pub mode: Status,
    /// Why the run on screen ended, once its log says so.
    pub finished: Option<FinishReason>,
    /// The last turn whose speaker was chosen.
    pub turn: u32,
    /// Whether that turn's speaker has spoken (or no turn has begun): the next turn is then the
    /// one under way while the run goes on.
    pub spoken: bool,
    /// How the run ended, in words (the view's `ending`).
    pub ending: String,
    /// A seat's question is open: the run waits for a person.
    pub waiting: bool,
    /// The run on screen is a replay.
    pub replaying: bool,
    /// The scenario in the editor has errors.
    pub blocked: bool,
    /// A step is being played.
    pub busy: bool,
    /// The replay's steps shown so far.
    pub applied: usize,
    /// The run on screen has a seat a person plays.
    pub seated: bool,
    /// That person has answered at least once in it.
    pub answered: bool,
}

/// The controls for a [`RunState`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Controls {
    /// The primary button's word: Run, Resume, or Play in a replay.
    pub run_label: &'static str,
    pub run: bool,
    pub pause: bool,
    pub step: bool,
    pub stop: bool,
    /// "Undo my last answer" is offered.
    pub undo_answer: bool,
    /// A replay's "Step back" and "Continue live from here": offered (`Some`), and enabled.
    pub step_back: Option<bool>,
    pub continue_live: Option<bool>,
    /// The status line.
    pub status: String,
}

/// Whether a run in `mode` is one the class can still act in: going on or paused, not a replay.
pub fn live(mode: Status, replaying: bool) -> bool {
    matches!(mode, Status::Running | Status::Paused | Status::PausedOnError) && !replaying
}

/// What the controls show for `s`.
pub fn controls(s: &RunState) -> Controls {
    let replay = s.replaying.then_some(!s.busy && s.applied > 0);
    Controls {
        run_label: match (s.replaying, s.mode) {
            (true, _) => t(say::Play),
            (false, Status::Paused | Status::PausedOnError) => t(say::Resume),
            _ => t(say::Run),
        },
        run: !s.blocked && s.mode != Status::Running,
        pause: s.mode == Status::Running,
        step: !s.blocked && !s.busy && s.mode != Status::Running,
        stop: !matches!(s.mode, Status::Idle | Status::Finished),
        undo_answer: s.seated && s.answered && live(s.mode, s.replaying),
        step_back: replay,
        continue_live: replay,
        status: status(s),
    }
}

/// The status line: where the run stands and, in a replay, that it is one. A run going on names
/// the turn under way (its bids, its question to the class); a paused or finished one, the last
/// turn whose speaker was chosen.
pub fn status(s: &RunState) -> String {
    let turn = s.turn;
    let under_way = if s.spoken { s.turn + 1 } else { s.turn.max(1) };
    let at = |template: &str, turn: u32| fill(template, &[("turn", &turn), ("why", &s.ending)]);
    let state = match (s.mode, s.finished) {
        (Status::Idle, _) => t(say::StatusReady).to_string(),
        (Status::Paused | Status::PausedOnError, Some(FinishReason::Error)) => {
            at(t(say::StatusPausedAfterError), turn)
        }
        (_, Some(_)) => at(t(say::StatusFinishedWhy), turn),
        (Status::Finished, None) => at(t(say::StatusFinished), turn),
        (Status::Running, None) if s.waiting => at(t(say::StatusWaiting), under_way),
        (Status::Running, None) => at(t(say::StatusRunning), under_way),
        (_, None) => at(t(say::StatusPaused), turn),
    };
    if s.replaying {
        tf(say::StatusReplay, &[("state", &state)])
    } else {
        state
    }
}

/// What the empty stage says before a run starts: how to start it and, when the class plays
/// someone (ticked now or kept from an earlier visit), who, so Run does not wait on the class
/// unannounced. `seats` are the scenario's seats, the selector's under its own name.
pub fn before_run(seats: &[String], selector: &str) -> String {
    let start = t(say::BeforeRunStart);
    let names: Vec<&str> =
        seats.iter().map(|s| if s == selector { t(say::TheSelector) } else { s.as_str() }).collect();
    let asked = match names.as_slice() {
        [] => return start.to_string(),
        [one] => tf(say::BeforeRunOne, &[("name", one)]),
        [rest @ .., last] => {
            tf(say::BeforeRunMany, &[("names", &rest.join(t(say::ListComma))), ("last", last)])
        }
    };
    tf(say::TwoSentences, &[("first", &asked), ("second", &start)])
}

/// What the interjection row says of `waiting` interjections made while a turn is under way
/// (none: nothing). The transcript shows each below the speech under way, where it will land.
pub fn heard_later(waiting: usize) -> Option<String> {
    match waiting {
        0 => None,
        1 => Some(t(say::HeardLaterOne).into()),
        n => Some(tf(say::HeardLaterMany, &[("n", &n)])),
    }
}

/// The name the page shows for a message's speaker: the interjection row's two voices and the
/// debates' moderator who opens them (recorded under their English names, which the models
/// read) in the page's language, any other as it is.
pub fn speaker_words(name: &str) -> &str {
    match name {
        "Audience member" => t(say::AudienceMember),
        "Moderator" => t(say::Moderator),
        "Debate Moderator" => t(say::DebateModerator),
        other => other,
    }
}

/// What the editor says under the topic when a new topic had the opening line or the cast's
/// descriptions (which named the old one) written afresh: nothing when it had neither.
pub fn topic_follow_words(follow: crate::scenario::TopicFollow) -> Option<String> {
    match (follow.opening, follow.descriptions) {
        (false, 0) => None,
        (true, 0) => Some(t(say::EdTopicFollowOpening).into()),
        (false, n) => Some(tf(say::EdTopicFollowDescriptions, &[("n", &n)])),
        (true, n) => Some(tf(say::EdTopicFollowBoth, &[("n", &n)])),
    }
}

/// The language a Chinese page offers a scenario without one.
pub const OFFERED_LANGUAGE: &str = "简体中文";

/// Whether the stage offers to have the scenario's agents speak the page's language: on a
/// Chinese page, while no run is under way, when the scenario names no language of its own (its
/// agents then speak its prompts' English).
pub fn offers_language(page: crate::i18n::Lang, mode: Status, language: &str) -> bool {
    page == crate::i18n::Lang::ZhHans
        && matches!(mode, Status::Idle | Status::Finished)
        && language.trim().is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_chinese_page_at_rest_offers_chinese_to_a_scenario_without_a_language() {
        use crate::i18n::Lang;
        assert!(offers_language(Lang::ZhHans, Status::Idle, ""));
        assert!(offers_language(Lang::ZhHans, Status::Finished, "  "));
        assert!(!offers_language(Lang::En, Status::Idle, ""));
        assert!(!offers_language(Lang::ZhHans, Status::Running, ""));
        assert!(!offers_language(Lang::ZhHans, Status::Paused, ""));
        assert!(!offers_language(Lang::ZhHans, Status::Idle, "English"));
        assert!(!offers_language(Lang::ZhHans, Status::Idle, OFFERED_LANGUAGE));
    }

    #[test]
    fn a_new_topic_says_what_it_had_written_afresh() {
        use crate::scenario::TopicFollow;
        assert_eq!(topic_follow_words(TopicFollow::default()), None);
        let opening = topic_follow_words(TopicFollow { opening: true, descriptions: 0 }).unwrap();
        assert!(opening.starts_with("The opening line named the old topic"), "{opening}");
        let both = topic_follow_words(TopicFollow { opening: true, descriptions: 4 }).unwrap();
        assert!(both.contains("The opening line and 4 of the cast's descriptions"), "{both}");
        crate::i18n::speak(Some(crate::i18n::zh::TABLE));
        let zh = topic_follow_words(TopicFollow { opening: false, descriptions: 2 }).unwrap();
        crate::i18n::speak(None);
        assert!(zh.starts_with("有 2 个角色描述"), "{zh}");
    }

    #[test]
    fn interjections_made_during_a_turn_say_when_they_are_heard() {
        assert_eq!(heard_later(0), None);
        assert!(heard_later(1)
            .unwrap()
            .starts_with("Heard after this turn's speech: the agent answering now"));
        assert!(heard_later(3).unwrap().contains("these 3 interjections"));
        assert_eq!(speaker_words("Ms. Lee"), "Ms. Lee");
        assert_eq!(speaker_words("Audience member"), "Audience member");
        crate::i18n::speak(Some(crate::i18n::zh::TABLE));
        let (audience, moderator) = (speaker_words("Audience member"), speaker_words("Moderator"));
        let opener = speaker_words("Debate Moderator");
        crate::i18n::speak(None);
        assert_eq!((audience, moderator, opener), ("观众", "主持人", "辩论主持人"));
    }

    #[test]
    fn the_empty_stage_says_who_the_class_plays() {
        assert_eq!(before_run(&[], "selector"), "Press Run or Step to start the conversation.");
        let seats = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        assert_eq!(
            before_run(&seats(&["Donald Trump"]), "selector"),
            "The class plays Donald Trump: the stage asks the class each time Donald Trump is to answer. Press Run or Step to start the conversation."
        );
        assert!(before_run(&seats(&["A", "B", "C"]), "selector").starts_with("The class plays A, B and C:"));
        assert!(before_run(&seats(&["selector", "A"]), "selector")
            .starts_with("The class plays the selector and A:"));
    }

    fn at(mode: Status) -> RunState {
        RunState { mode, turn: 3, spoken: true, ..RunState::default() }
    }

    /// The buttons enabled, in the row's order (Run, Pause, Step, Stop), as letters.
    fn enabled(c: &Controls) -> String {
        [(c.run, 'R'), (c.pause, 'P'), (c.step, 'S'), (c.stop, 'X')]
            .iter()
            .map(|(on, letter)| if *on { *letter } else { '-' })
            .collect()
    }

    #[test]
    fn each_state_enables_its_own_buttons_and_names_the_primary_one() {
        for (mode, buttons, label, status) in [
            (Status::Idle, "R-S-", "Run", "Ready"),
            (Status::Running, "-P-X", "Run", "Running · turn 4"),
            (Status::Paused, "R-SX", "Resume", "Paused · turn 3"),
            (Status::PausedOnError, "R-SX", "Resume", "Paused · turn 3"),
            (Status::Finished, "R-S-", "Run", "Finished after turn 3"),
        ] {
            let c = controls(&at(mode));
            assert_eq!(enabled(&c), buttons, "{mode:?}");
            assert_eq!(c.run_label, label, "{mode:?}");
            assert_eq!(c.status, status, "{mode:?}");
            assert!(!c.undo_answer && c.step_back.is_none() && c.continue_live.is_none(), "{mode:?}");
        }
    }

    #[test]
    fn a_scenario_with_errors_and_a_step_in_flight_hold_run_and_step_back() {
        let blocked = controls(&RunState { blocked: true, ..at(Status::Paused) });
        assert_eq!(enabled(&blocked), "---X");
        let busy = controls(&RunState { busy: true, ..at(Status::Paused) });
        assert_eq!(enabled(&busy), "R--X");
    }

    #[test]
    fn the_status_says_why_a_run_ended_that_it_waits_for_a_person_and_that_it_is_a_replay() {
        let ended = RunState {
            finished: Some(FinishReason::TurnLimit),
            ending: "turn limit reached".into(),
            ..at(Status::Finished)
        };
        assert_eq!(status(&ended), "Finished after turn 3: turn limit reached");
        let failed = RunState { finished: Some(FinishReason::Error), ..at(Status::PausedOnError) };
        assert_eq!(
            status(&failed),
            "Paused after an error · turn 3 · Resume or Step plays the failed turn again"
        );
        assert_eq!(status(&RunState { waiting: true, ..at(Status::Running) }), "Waiting for you · turn 4");
        // The bids of turn 4 are in and its speaker chosen: turn 4 is still under way until they speak.
        let chosen = RunState { waiting: true, turn: 4, spoken: false, ..at(Status::Running) };
        assert_eq!(status(&chosen), "Waiting for you · turn 4");
        // Before any turn: the opening and the first bids are turn 1's.
        let opening = RunState { turn: 0, spoken: true, ..at(Status::Running) };
        assert_eq!(status(&opening), "Running · turn 1");
        assert_eq!(status(&RunState { waiting: true, ..at(Status::Paused) }), "Paused · turn 3");
        assert_eq!(status(&RunState { replaying: true, ..at(Status::Paused) }), "Paused · turn 3 · replay");
    }

    #[test]
    fn a_replay_plays_and_offers_step_back_and_continue_once_a_step_is_shown() {
        let start = controls(&RunState { replaying: true, ..at(Status::Paused) });
        assert_eq!(start.run_label, "Play");
        assert_eq!((start.step_back, start.continue_live), (Some(false), Some(false)));
        let shown = controls(&RunState { replaying: true, applied: 2, ..at(Status::Paused) });
        assert_eq!((shown.step_back, shown.continue_live), (Some(true), Some(true)));
        let busy = controls(&RunState { replaying: true, applied: 2, busy: true, ..at(Status::Paused) });
        assert_eq!(busy.step_back, Some(false));
    }

    #[test]
    fn undo_is_offered_only_in_a_live_run_with_a_seat_once_it_has_answered() {
        for (mode, replaying, seated, offered) in [
            (Status::Running, false, true, true),
            (Status::Paused, false, true, true),
            (Status::PausedOnError, false, true, true),
            (Status::Running, false, false, false),
            (Status::Finished, false, true, false),
            (Status::Idle, false, true, false),
            (Status::Paused, true, true, false),
        ] {
            let c = controls(&RunState { replaying, seated, answered: true, ..at(mode) });
            assert_eq!(c.undo_answer, offered, "{mode:?} replaying {replaying} seated {seated}");
        }
        // Before the first answer there is nothing to undo.
        let c = controls(&RunState { seated: true, answered: false, ..at(Status::Running) });
        assert!(!c.undo_answer);
    }

    #[test]
    fn in_chinese_the_controls_and_status_read_as_chinese_sentences() {
        crate::i18n::speak(Some(crate::i18n::zh::TABLE));
        let running = status(&at(Status::Running));
        let paused = controls(&at(Status::Paused));
        let replay = status(&RunState { replaying: true, ..at(Status::Paused) });
        let seats = before_run(&["Donald Trump".into(), "Elizabeth Warren".into(), "Kanye West".into()], "");
        let one = before_run(&["Speaker Selector".into()], "Speaker Selector");
        crate::i18n::speak(None);
        assert_eq!(running, "运行中 · 第 4 轮");
        assert_eq!(paused.run_label, "继续");
        assert_eq!(replay, "已暂停 · 第 3 轮 · 回放");
        assert_eq!(
            seats,
            "全班扮演 Donald Trump、Elizabeth Warren 和 Kanye West：每次轮到其中一位发言，舞台都会请全班作答。按“运行”或“单步”开始对话。"
        );
        assert!(one.starts_with("全班扮演 点名者："), "{one}");
        // English again once the table is put away.
        assert_eq!(status(&at(Status::Running)), "Running · turn 4");
    }
}
