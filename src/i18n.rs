//! The page's words in the languages it speaks: English, and Simplified Chinese (zh-Hans).
//!
//! Every word the page shows a person is a [`say`] key (its English text declared once below) read through [`t`], or a sentence put together by [`fill`]. English is the program's own
//! table; the Chinese one ([`zh`]) is a [`Table`] the page fetches as a chunk of its own only when a
//! visitor reads Chinese, so an English visit carries none of it, and installs with [`speak`]
//! before it draws anything. The terminal never installs one: it speaks English.
//!
//! Measured before choosing a table of our own (a wasm32 release build of one formatted sentence,
//! `opt-level = "z"`, LTO, gzip -9): fluent-bundle 0.16 with unic-langid weighs 65 KB against
//! 11 KB for the same sentence by [`fill`], 54 KB more on the first page for its parser and
//! plural rules, which neither language here needs; leptos_i18n compiles every locale's strings
//! into the program, and its lazy loading asks a server function for them, which a static site
//! has not got.

pub mod zh;

use std::cell::Cell;
use std::fmt::{Display, Write};

/// A language the page speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lang {
    #[default]
    En,
    ZhHans,
}

impl Lang {
    /// In the order the language switch lists them.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::ZhHans];

    /// Its BCP 47 tag: what `<html lang>` says and what the device keeps.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::ZhHans => "zh-Hans",
        }
    }

    /// The language a kept tag names (as [`Lang::code`] writes it).
    pub fn from_code(code: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|l| l.code() == code)
    }

    /// Its own name, as a reader of it looks for it in a list.
    pub fn name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::ZhHans => "简体中文",
        }
    }

    /// The first of a browser's languages (`navigator.languages`, most wanted first) the page
    /// speaks; English when none is. Chinese written in simplified characters is `zh`, `zh-CN`,
    /// `zh-SG`, `zh-MY` or any `zh-Hans-*`; `zh-TW`, `zh-HK`, `zh-MO` and `zh-Hant-*` are written in
    /// traditional characters, which this page does not offer, so the next language is looked at.
    pub fn from_browser<S: AsRef<str>>(tags: &[S]) -> Lang {
        let is = |part: &str, of: &[&str]| of.iter().any(|o| part.eq_ignore_ascii_case(o));
        for tag in tags {
            let mut parts = tag.as_ref().split(['-', '_']);
            match parts.next() {
                Some(lang) if is(lang, &["en"]) => return Lang::En,
                Some(lang) if is(lang, &["zh"]) => {
                    let mut traditional = false;
                    for part in parts {
                        if is(part, &["hans"]) {
                            return Lang::ZhHans;
                        }
                        traditional |= is(part, &["hant", "tw", "hk", "mo"]);
                    }
                    if !traditional {
                        return Lang::ZhHans;
                    }
                }
                _ => {}
            }
        }
        Lang::En
    }
}

/// A thing the page says: its key and its English words (declared by `words!`).
pub trait Words: Copy {
    const KEY: Key;
    const EN: &'static str;
}

/// A language's words: how the page says each [`Key`], and the presets' cards.
#[derive(Clone, Copy)]
pub struct Table {
    pub lang: Lang,
    pub say: fn(Key) -> &'static str,
    /// A preset's title and summary, by the preset's id.
    pub card: fn(&str) -> Option<(&'static str, &'static str)>,
    /// A preset's words in this language, by the preset's id ([`crate::presets::put_words`]).
    pub preset: fn(&str) -> Option<PresetWords>,
}

/// A preset's words in another language: what its agents read and the class hears (the topic,
/// the opening line and who says it, each agent's role and description in the cast's order).
/// Names stay as they are: the methods and the seeds' prompts address agents by name.
#[derive(Clone, Copy, Debug)]
pub struct PresetWords {
    pub topic: &'static str,
    /// The demo model's short phrase for the topic (empty: none).
    pub phrase: &'static str,
    /// Who opens and what they say (used where the preset's opening names them).
    pub opening: (&'static str, &'static str),
    /// Each agent's role and description (a description used where the preset gives one).
    pub agents: &'static [(&'static str, &'static str)],
}

/// A preset's words in the language spoken now, if that language has them.
pub fn preset_words(id: &str) -> Option<PresetWords> {
    TABLE.get().and_then(|table| (table.preset)(id))
}

thread_local! {
    static TABLE: Cell<Option<Table>> = const { Cell::new(None) };
}

/// Speaks `table`'s language from now on (`None`: English again).
pub fn speak(table: Option<Table>) {
    TABLE.set(table);
}

/// The language spoken now.
pub fn lang() -> Lang {
    TABLE.get().map_or(Lang::En, |t| t.lang)
}

/// What follows a number to make it a percentage in the language spoken now: " %" in English
/// (the page's sentences always had it), "%" in Chinese, which never spaces it.
pub fn percent_sign() -> &'static str {
    match lang() {
        Lang::En => " %",
        _ => "%",
    }
}

/// How the language spoken now says `what`.
#[inline(always)]
pub fn t<W: Words>(_what: W) -> &'static str {
    said(W::KEY, W::EN)
}

/// `key` in the language spoken now, `en` in English: one function for every key, so a call
/// site costs a call with two constants.
#[inline(never)]
fn said(key: Key, en: &'static str) -> &'static str {
    match TABLE.get() {
        Some(table) => (table.say)(key),
        None => en,
    }
}

/// A value for a hole of a sentence: its name and what goes there, written where it lands (a
/// number is not formatted into a string of its own first).
pub type Arg<'a> = (&'a str, &'a dyn Display);

/// `template` with each `{name}` replaced by its value in `args`: the words of a sentence stay in
/// the order its language puts them.
pub fn fill(template: &str, args: &[Arg]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let hole = after.find('}').and_then(|close| {
            let name = &after[..close];
            args.iter().find(|(n, _)| *n == name).map(|(_, value)| (*value, close))
        });
        match hole {
            Some((value, close)) => {
                // Writing into a String cannot fail.
                let _ = write!(out, "{value}");
                rest = &after[close + 1..];
            }
            _ => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// `t(what)` filled with `args` (see [`fill`]).
#[inline(always)]
pub fn tf<W: Words>(what: W, args: &[Arg]) -> String {
    fill(t(what), args)
}

/// A preset's card in the language spoken now: its title and summary, else the scenario's own.
pub fn card<'a>(id: &str, title: &'a str, summary: &'a str) -> (&'a str, &'a str) {
    TABLE.get().and_then(|table| (table.card)(id)).unwrap_or((title, summary))
}

/// Declares the keys with their English words: each key a unit struct in [`say`] whose English
/// is a constant, so the words land in the chunk that says them (a table of every English
/// sentence would put them all on the first page), and each a [`Key`] the other languages'
/// tables match on (exhaustively: a key without Chinese does not compile).
macro_rules! words {
    ($($key:ident = $en:literal,)*) => {
        /// The things the page says, one unit struct each, for [`t`] and [`tf`].
        pub mod say {
            $(
                #[derive(Clone, Copy, Debug)]
                pub struct $key;
                impl super::Words for $key {
                    const KEY: super::Key = super::Key::$key;
                    const EN: &'static str = $en;
                }
            )*
        }

        /// Which thing is said, for a language's table.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Key {
            $($key,)*
        }

        impl Key {
            /// Every key, in the order declared.
            pub const ALL: &[Key] = &[$(Key::$key,)*];

            /// The English words (for checks: the page reads each key's own constant).
            pub fn en(self) -> &'static str {
                match self {
                    $(Key::$key => $en,)*
                }
            }
        }
    };
}

words! {
    // The start screen.
    Tagline = "Multi-agent dialogue simulations, every decision visible.",
    LanguageSwitch = "Language",
    LanguageSwitchTitle = "The page's language, kept on this device (the page reloads; a run under way is kept, paused)",
    Scenarios = "Scenarios",
    PickScenario = "Pick a scenario",
    PageTitle = "Agora: multi-agent dialogue simulations",
    FirstAgent = "(first agent)",
    EstimateLine = "Estimate: about {calls} calls, {tokens} tokens{cost} for {turns}{time}.",
    EstimateCost = ", ${cost}",
    EstimateOneTurn = "1 turn",
    EstimateTurns = "{n} turns",
    EstimatePace = "{provider} allows this key about {n} calls a minute (learnt from its answers this session), so about {turns} turns a minute: the run takes at least {minutes} min.",
    EstimateTime = ", roughly {s} s a turn with this model on this machine (at the speeds of {from})",
    EstimateFromLastRun = "the last run",
    EstimateFromWarmUp = "the warm-up",
    Opening = "Opening…",
    TryAgain = "Try again",
    Unfetched = "The rest of the app could not be fetched: check the connection, then try again.",
    OpenScenario = "Open \u{201c}{title}\u{201d}",
    PastRuns = "Past runs",
    PastRunsEmpty = "Runs you play are kept here (the last {n}), to replay or continue.",
    PastBatch = " {method} · a batch of {n} runs · {saved}",
    PastComparison = " {method} · {n} columns · {saved}",
    PastRun = " {method} · {turns} turns · {ended} · {saved}",
    PastUnfinished = "unfinished",
    PastOpen = "Open",
    PastReplay = "Replay",
    PastDelete = "Delete",
    PastDeleteLabel = "Delete the run of {title}",
    PastCouldNotOpen = "Could not open it: {why}.",
    PastUnreadable = "{why}; it is left as it is.",
    OpenSavedRun = "Open a saved run",
    OpenSavedRunTitle = "A run or comparison saved from the page, a tournament's CSV or JSON, or an AutoGen team",
    // The model badge.
    ModelDemo = "Model: offline demo (no key needed)",
    ModelDemoShort = "Demo model",
    ModelNamed = "Model: {model} · {provider}",
    InThisBrowser = "in this browser",
    // The methods' names.
    MethodRoundRobin = "Round robin",
    MethodRandom = "Random",
    MethodBidding = "Bidding",
    MethodDirector = "Director",
    MethodHandoff = "Handoff",
    MethodSelector = "Selector",
    MethodNegotiation = "Negotiation game",
    // The stage's bar.
    BackToScenarios = "\u{2190} Scenarios",
    BackToScenariosTitle = "All scenarios and past runs (the run on screen stays as it is)",
    // The run controls.
    RunControls = "Run controls",
    Run = "Run",
    Resume = "Resume",
    Play = "Play",
    Pause = "Pause",
    Step = "Step",
    Stop = "Stop",
    Reset = "Reset",
    UndoAnswer = "Undo my last answer",
    UndoReset = "Undo reset",
    UndoResetTitle = "Bring back the run Reset cleared, as it was",
    UndoAnswerTitle = "Go back to the start of the step in which you last answered, and answer again (the run as it was stays in past runs)",
    StepBack = "Step back",
    StepBackTitle = "Take the replay back one step (\u{2190} in the projector view)",
    ContinueLive = "Continue live from here",
    ContinueLiveTitle = "Go on from the step on screen with the model, as a new live run",
    Speed = "Speed",
    SpeedReadAloud = "Read aloud: 150 words/min",
    SpeedSlow = "Slow: about 2 s a turn",
    SpeedQuick = "Quick: about 1 s a turn",
    SpeedFast = "Fast: about 0.3 s a turn",
    SpeedInstant = "Instant: no pauses",
    Share = "Share",
    ShareTitle = "Links, saving and opening files",
    Projector = "Projector view",
    ProjectorLeave = "Leave projector view",
    ProjectorTitle = "Large type for a class (P); \u{2192} steps, \u{2190} steps back in a replay, Space plays, Esc leaves",
    RunRegion = "Run",
    Decisions = "Decisions",
    // The drawer's tabs.
    TabScenario = "Scenario",
    TabClass = "Class",
    TabFiles = "Share & files",
    TabStats = "Statistics",
    TabJudge = "Judge",
    TabBatch = "Batch",
    TabCompare = "Compare",
    TabInspector = "Inspector",
    TabsLabel = "Panels beside the stage",
    ClosePanel = "Close the panel",
    // Notes any method's panel shows.
    Why = "why",
    Reply = "reply",
    EmptyReplyShown = "(empty)",
    RawReplyTitle = "Raw reply: {raw}",
    TurnTitle = "Turn {turn}",
    ListAnd = " and ",
    DrawNote = "drawn by lot among {names} (the run's seed decides: a rerun draws the same)",
    FloorNoteSame = "floor given to {agent} by the class (the method chose them too)",
    FloorNoteOther = "floor given to {agent} by the class (the method chose {other})",
    // What a screen reader hears.
    HeardFloorBid = "Turn {turn}: {agent} takes the floor with a bid of {bid}{drawn}.",
    HeardFloor = "Turn {turn}: {agent} takes the floor{drawn}.",
    HeardDrawn = " ({note})",
    HeardCutOff = "{speaker} (cut off): {text}",
    HeardSpeech = "{speaker}: {text}",
    // The bid board.
    BidBoard = "Bid board",
    BidGist = "Highest bid (most disagreement) speaks",
    BidExplain = "Each agent rates how contradictory the last message is to its ideas (1 to 10); the highest bid speaks.",
    BidsAppear = "Bids appear here each turn.",
    BidSpeaks = " · {name} speaks",
    BoardCut = "The run stopped before these bids chose a speaker.",
    BidChartLabel = "Bids per agent across the recent turns",
    BidDefaulted = "no valid bid after {n} attempts: defaulted to {value}",
    BidReadOnAttempt = "read on attempt {n}",
    // The director.
    DirectorPanel = "Director",
    DirectorGist = "The host picks who speaks, or ends the show",
    DirectorExplain = "Each turn the director first draws a number: below the stop probability, the show ends with a summary; otherwise the director picks who speaks next.",
    DirectorItsReply = "(its reply \u{201c}{raw}\u{201d} picks the one numbered {index} on its list){attempts}",
    DirectorNoIndex = "(its reply \u{201c}{raw}\u{201d} names no number on its list){attempts}",
    DirectorStopIfBelow = "stop if the draw is below {p}",
    DirectorAttempts = "after {n} attempts",
    DirectorFallback = "fallback: no valid index",
    DirectorDrew = "drew {sample} against {p}",
    VerdictClass = "stop: the class ended the show",
    VerdictStop = "stop",
    VerdictGoOn = "go on",
    OutcomeClass = "the class ended the show",
    OutcomeEnds = "the show ends",
    OutcomeGoesOn = "the show goes on",
    ChanceEvery = "Set to end the show at every turn",
    ChanceRatio = "A {k} in {d} chance to end the show each turn",
    ChancePercent = "A {p} chance to end the show each turn",
    DrawSentence = "{chance}: {drawn}, {outcome}",
    ChoiceFallback = "{director} named no one the rules take, so {agent} speaks next",
    ChoiceNext = "{agent} speaks next",
    ChoiceAsks = "{director} asks {agent} next",
    EndedEvery = "the director ended the show on its stop draw, set to stop at every turn",
    EndedOne = "1 chance in {d}",
    EndedMany = "{k} chances in {d}",
    EndedPercent = "a {p} chance",
    Ended = "the director ended the show on its stop draw, {chance} each turn",
    // A question to the class.
    YourTurn = "Your turn",
    YourTurnOf = "Your turn: {agent} ({purpose})",
    SeatPromptSummary = "The prompt a model would read",
    SeatResource = "Resource",
    SeatYouHold = "You hold",
    SeatWorth = "Worth",
    SeatAnswers = "Answers",
    SeatYourWords = "Your words",
    SeatQuantity = "Quantity (TRADE)",
    SeatSend = "Send",
    SeatNotSent = "Not sent: {why}.",
    SeatHandTo = "Hand the floor to",
    SeatAction = "Action",
    SeatGive = "Give (TRADE)",
    SeatFor = "For (TRADE)",
    SeatTotal = "Total",
    SeatEmpty = "the answer is empty",
    SeatNumberRange = "the number must be from {lo} to {hi}",
    SeatSpeechEmpty = "the speech is empty",
    SeatNotAllowed = "not allowed: {why}",
    SeatDoesNotFit = "the answer does not fit the question",
    SeatChooseOneOf = "choose one of {options}",
    WordsOver = "{n} / {limit} words: over the limit",
    WordsOf = "{n} / {limit} words",
    WordsN = "{n} words",
    // What a call was for.
    PurposeBid = "bid",
    PurposeSpeak = "speak",
    PurposeDirectorReflection = "director reflection",
    PurposeDirectorChoice = "director choice",
    PurposeDirectorPrompt = "director prompt",
    PurposeDirectorSummary = "director summary",
    PurposeHandoff = "handoff",
    PurposeNegotiationAction = "negotiation action",
    PurposeOptimizer = "optimizer",
    PurposeCharacterDescription = "character description",
    PurposeTopicSpecifier = "topic specifier",
    PurposeSelector = "selector",
    PurposeJudge = "judge",
    // Interjections and the floor.
    Interject = "Interject",
    InterjectAs = "Interject as",
    AudienceMember = "Audience member",
    Moderator = "Moderator",
    DebateModerator = "Debate Moderator",
    InterjectMessage = "Message (every agent hears it from the next call on)",
    InterjectPlaceholder = "What the class says",
    HeardLaterOne = "Heard after this turn's speech: the agent answering now does not hear the interjection; every call after it does.",
    HeardLaterMany = "Heard after this turn's speech: the agent answering now does not hear these {n} interjections; every call after it does.",
    GiveFloor = "Give the floor",
    GiveFloorTo = "Give the floor to",
    GiveFloorWhyNot = "Give the floor: {why}.",
    FloorFixedTrading = "the trading game's turn order is fixed (the players alternate), so the floor cannot be given",
    EndShow = "End the show",
    EndShowTitle = "The director's next turn closes the show (its stop draw is still made and recorded)",
    EndsAtNextTurn = " The show ends at the director's next turn.",
    // The transcript.
    Transcript = "Transcript",
    MessagesOne = "(1 message)",
    MessagesMany = "({n} messages)",
    CharacterDescriptions = "Character descriptions ({n})",
    EmptyCompare = "Press Play all or Step all to start the conversations.",
    EmptyReplay = "Press Play or Step to watch the recorded conversation.",
    EmptyRunning = "The conversation begins with the first speech.",
    TurnN = "turn {turn}",
    HeardAfterSpeech = "heard after this speech",
    SaidColon = ": ",
    LiveWriting = "writing…",
    You = "you",
    JudgeScore = "judge {mean}",
    GameN = "Game {n}",
    SentAsIs = "sent",
    KindInjected = "outside the cast",
    KindIncomplete = "incomplete",
    KindRefused = "refused",
    KindFiltered = "filtered",
    KindEmpty = "empty",
    KindUnanswered = "unanswered",
    PanelLoading = "Loading this panel…",
    PanelFailed = "This panel could not be fetched: check the connection, then open the tab again.",
    // The status line.
    StatusReady = "Ready",
    StatusPausedAfterError = "Paused after an error · turn {turn} · Resume or Step plays the failed turn again",
    StatusFinishedWhy = "Finished after turn {turn}: {why}",
    StatusFinished = "Finished after turn {turn}",
    StatusWaiting = "Waiting for you · turn {turn}",
    StatusRunning = "Running · turn {turn}",
    StatusPaused = "Paused · turn {turn}",
    StatusReplay = "{state} · replay",
    // What the empty stage says.
    BeforeRunStart = "Press Run or Step to start the conversation.",
    BeforeRunOne = "The class plays {name}: the stage asks the class each time {name} is to answer.",
    BeforeRunMany = "The class plays {names} and {last}: the stage asks the class each time one of them is to answer.",
    TheSelector = "the selector",
    TwoSentences = "{first} {second}",
    ListComma = ", ",
    // The handoff panel.
    HandoffPanel = "Handoffs",
    HandoffGist = "Each speaker names who speaks next",
    HandoffExplain = "Each speaker ends by handing the floor to the next (by name, by a tool call or in JSON, as the scenario sets); a reply that names no one passes it at random.",
    HandoffGraphLabel = "Who handed off to whom, with counts",
    HandoffNone = "no handoff",
    HandoffFallbackNote = "fallback to a random agent: {why}",
    HandoffFallbackReason = "fallback: {why}",
    HandoffByText = "{from} hands the floor to {to}, by name in its words",
    HandoffByTool = "{from} hands the floor to {to}, by a tool call",
    HandoffByJson = "{from} hands the floor to {to}, in a JSON reply",
    HandoffTextNamedNoOne = "{from}'s words named no one the rules take: {to} has the floor, drawn at random",
    HandoffToolNamedNoOne = "{from}'s tool call named no one the rules take: {to} has the floor, drawn at random",
    HandoffJsonNamedNoOne = "{from}'s JSON reply named no one the rules take: {to} has the floor, drawn at random",
    TurnDot = "Turn {turn} · ",
    // The selector's panel.
    SelectorGist = "A model call names who speaks next",
    SelectorExplain = "Each turn a separate call reads the conversation and the roles, and names who should speak next from the candidates.",
    SelectorExact = "named exactly",
    SelectorLoose = "named, case or spacing aside",
    SelectorMention = "the only name mentioned",
    SelectorOnlyCandidate = "the only candidate: no call",
    SelectorFallback = "fallback: no candidate named in {n} attempts",
    SelectorAttempt = "attempt {n}",
    SelectorNamed = "The selector named {agent} to speak next",
    SelectorNamedLoosely = "The selector named {agent} to speak next (case or spacing aside)",
    SelectorMentioned = "The selector's reply mentioned only {agent}, who speaks next",
    SelectorOnlyOne = "{agent} was the only one who could speak next: no call was needed",
    SelectorNamedNoOne = "The selector named no candidate in {n} attempts, so {agent} speaks next by the fallback",
    SelectorCandidates = "Candidates: {names}",
    // Random and round robin.
    RandomGist = "Each speaker is drawn at random",
    RandomExplain = "Each turn the next speaker is drawn at random (the run's seed fixes the draws, so a rerun draws the same); no model is asked.",
    RandomOnlyOne = "the only one who could speak",
    RoundRobinGist = "Agents speak in a fixed order",
    RoundRobinExplain = "Agents speak in a fixed order; there is no decision to show.",
    // The trading game.
    TradingGame = "Trading game",
    TradingGist = "Trades that raise both players' total value",
    TradingRules = "Two players take turns: TRADE offers one resource for another, the other player ACCEPTs or REJECTs, and the game ends when one asks to END and the other agrees. Each player sees only its own inventory; more of one resource is worth more (the value scale), and the goal is the highest value of both inventories together. Between games an optimizer reads the score and rewrites each player's strategy.",
    TradingActions = "Actions",
    TradingValue = "value",
    TradingOverall = "Overall {overall} of the optimum {optimum}",
    TradingSent = "sent",
    TradeOffers = "{player} offers {n} {sell} for {n} {buy}",
    TradeAccepts = "{player} accepts",
    TradeRejects = "{player} rejects",
    TradeAsksToEnd = "{player} asks to end the game",
    TradeNoValidAction = "{player} wrote no valid action",
    TradeInvalid = "{move} — invalid: {why}",
    TradePending = "{player} offers {n} {sell} for {n} {buy}, waiting for an answer",
    TradeEndAsked = "{player} asked to end the game; the game ends when the other player ends too",
    TradeNonePending = "No proposal pending",
    GameResultLine = "Game {n}: {scores} · overall {overall} of {optimum} ({why})",
    GameBothEnded = "both ended",
    GameTurnLimit = "turn limit",
    OptimizerHeading = "Prompt optimization",
    OptimizerChartLabel = "Overall score per game against the optimum",
    OptimizerDashed = "Each bar is a game's overall score (both players' holdings together, on the value scale), numbered by game under it; the dashed line is the optimum, {optimum}.",
    OptimizerGame = "Game {n} · overall {overall}",
    // The class's room: the teacher's panel.
    RoomCouldNotStart = "the room's connection could not start ({why})",
    RoomClosed = "The room is closed: any phone still in it was told. A new room has a new link and code.",
    RoomOpen = "Open a room for phones",
    RoomCloseTitle = "Every phone is told the room has ended; a new room has a new link",
    RoomClose = "Close the room",
    RoomQrLabel = "QR code of the room's join link",
    RoomOnlyHere = "This page is open at an address only this computer reaches, so phones cannot open the link: open Agora at this computer's network address, or at its published address, and open the room there.",
    RoomHeading = "Class room ",
    RoomHowToJoin = "Students scan the code or open the join link on their phones, type a name and are in. The link holds the room's secret: share it with the class only.",
    RoomCopy = "Copy the link",
    RoomCopied = "Copied.",
    RoomNotCopied = "This browser did not copy it: select the link above.",
    RoomAway = "away",
    RoomSeatOf = "Seat of {name}",
    RoomAudience = "audience",
    RoomRemove = "Remove",
    RoomSeatAway = "Away from their seat: {names}. Their seat's time limit runs as usual; reopening the link brings them back.",
    RoomNoSeat = "No seat is played by the class yet: tick the agents above for students to play them; the rest of the class is the audience.",
    RoomJoined = "Joined ({n})",
    RoomProposals = "Interjections proposed",
    RoomAccept = "Accept",
    RoomDecline = "Decline",
    RoomProposedOne = "1 interjection proposed: leave the projector view (Esc) to read it.",
    RoomProposedMany = "{n} interjections proposed: leave the projector view (Esc) to read them.",
    RoomVotes = "Votes for the next speaker",
    RoomGiveFloor = "Give the floor to {name}",
    RoomWhere = "Where the room meets",
    RoomRelay = "Relay (empty: public Nostr relays; or your own, such as agora relay's ws://host:7447)",
    RoomIce = "STUN/TURN servers (empty: public ones; none: only the local network)",
    RoomUseThese = "Use these (a new link)",
    RoomUnreachable = "Phones cannot reach this room:",
    RoomUnreachablePublic = " the public meeting points Agora uses to connect phones do not answer from this computer. This usually means the network blocks them, as school and office firewalls often do. Still trying every few seconds.",
    RoomQuickFix = "Quick fix:",
    RoomQuickFixText = " connect this computer and the phones to another network, such as a phone's hotspot: the room connects by itself once it can, with the same code.",
    RoomOwnRelay = "Or run a meeting point on your own network (for IT staff)",
    RoomOwnRelayA = "On a computer that this one and the phones can all reach, run ",
    RoomOwnRelayB = " in a terminal, then enter that computer's network address as the Relay under \"Where the room meets\" below (for example ",
    RoomOwnRelayC = ") and press \"Use these (a new link)\": the room gets a new link and code, which the students scan again.",
    RoomRelaySilent = " its meeting point {relay} does not answer from this computer. Either nothing runs there, or the network blocks it. Still trying every few seconds.",
    RoomStartRelayA = "Start it on that computer with ",
    RoomStartRelayB = " in a terminal (the port as in the address) and check that this computer and the phones can reach it, or empty \"Relay\" under \"Where the room meets\" below to use the public meeting points.",
    // A student's phone.
    PhoneTypeName = "Type your name first.",
    PhoneJoining = "Joining…",
    PhoneComingBack = "Coming back…",
    PhoneProposed = "Proposed: the teacher decides.",
    PhoneNotSent = "Not sent: {why}.",
    PhoneHeading = "Agora class room ",
    PhoneUnreachable = "This phone cannot reach the class room. The network probably blocks it, as school networks often do: try another network (mobile data, or a hotspot), or tell your teacher that the class room cannot connect. Still trying…",
    PhoneYourName = "Your name",
    PhoneJoin = "Join",
    PhoneEnded = "The teacher closed the room. Thank you for taking part.",
    PhoneRemoved = "The teacher took you out of the room.",
    PhoneYouPlay = ", you play ",
    PhoneYouAudience = ", you are in the audience.",
    PhoneTakeSeat = "Take a seat",
    PhoneTakeSeatColon = "Take a seat:",
    PhoneVote = "Vote",
    PhoneWhoNext = "Who should speak next?",
    PhoneVoted = "You voted for {name}.",
    PhoneConversation = "The conversation",
    PhonePropose = "Propose an interjection (the teacher decides)",
    PhoneProposeSend = "Propose",
    // In parts around the reason, so the first page (where a phone that cannot open its room
    // says so) needs no `fill`.
    PhoneRoomFailed = "This room cannot be opened: ",
    PhoneRoomFailedEnd = ". Ask your teacher for the link again.",
    PhoneFullStop = ".",
    RoomOpenTitle = "Students join from their phones with a link or QR code and play seats, interject and vote",
    // Why a call to a provider failed.
    FailRetry429 = "{provider} answered 429 (too many requests: {message}).",
    FailRetryServer = "{provider} had a server error ({status}: {message}).",
    FailAuth = "{provider} refused the key ({status}: {message}). Check the key in the model settings; the run is paused and nothing recorded is lost.",
    FailRateLimited = "{provider} kept answering 429 (too many requests: {message}) for longer than Agora waits for a key's limit.",
    // A call that waits before it goes: a retry, or a key's limit kept.
    WaitRetry = "{what} Trying {agent}'s call again in {s} s.",
    WaitPaced = "{provider} allows this key about {n} calls a minute: {agent}'s call waits {s} s to stay within it, and the run goes on.",
    FailQuota = "{provider} says the quota or spending limit is used up ({message}); retrying will not help until it is raised.",
    FailServer = "{provider} had a server error ({status}: {message}) after every retry.",
    FailRejected = "{provider} rejected the request ({status}: {message}).",
    FailFirstByte = "{provider} did not start answering within {s} s.",
    FailIdle = "{provider}'s stream went silent for {s} s.",
    FailNetwork = "No answer from {url} ({detail}). {hint}",
    FailHintLocal = "Is the server running, and does it allow calls from this page (CORS)?",
    FailHintRemote = "Either the browser is offline or the server does not allow calls from web pages (CORS); a proxy that adds CORS headers, or a provider that allows them, fixes the latter.",
    FailUnreachable = "Could not reach {url} ({detail}). Is a server running at that address, and can this machine reach it (the address, the port, a proxy or firewall)?",
    FailMalformed = "{provider} sent something unreadable: {message}.",
    FailStream = "{provider} reported an error in the middle of its reply: {message}.",
    FailAdaptable = "{provider} refused {parameter} ({message}).",
    FailStopped = "stopped",
    OptimizerLastGame = "last iteration: no optimizer call",
    // The scenario editor (the Scenario tab).
    EdTitle = "Edit the scenario",
    EdLocked = "Reset the run to edit.",
    EdFieldTitle = "Title",
    EdFieldTopic = "Topic",
    EdDemoSays = "The demo model writes from patterns to show how speakers are chosen: it cannot reason about your topic. For real speech on it:",
    EdRealBuiltin = "The browser's built-in model (no key; speaks English, Spanish, Japanese, German and French, not Chinese)",
    EdTopicUnread = "The negotiation game does not read the topic: its players trade by the game's rules alone, and the topic only names the run.",
    EdInTabPace = "On this device: about {s} s a turn for this scenario (at the speed {model} ran here when it last loaded).",
    EdInTabPaceUnknown = "Once it has loaded here, its pace on this device shows here.",
    MdKeyPage = "Get a key at ",
    MdKeyPageEnd = ", then paste it into the key field below.",
    EdRealNoBuiltin = "This browser offers no built-in model.",
    EdRealInTab = "A model in this tab (a one-time download you can make the day before; then it works offline)",
    EdRealKey = "A provider's key (free tiers: Google AI Studio's Gemini, Groq, OpenRouter's free models; in mainland China, Zhipu's GLM-4-Flash and SiliconFlow's free models)",
    EdTopicFollowOpening = "The opening line named the old topic: the run now opens by putting this topic to the cast (Opening steps).",
    EdTopicFollowDescriptions = "{n} of the cast's descriptions named the old topic: the run writes them afresh for this topic (Opening steps).",
    EdTopicFollowBoth = "The opening line and {n} of the cast's descriptions named the old topic: the run writes them afresh for this topic (Opening steps).",
    EdFieldLanguage = "Language every call asks for (empty: the prompts' own)",
    EdWordLimit = "Word limit",
    EdTurnLimit = "Turn limit",
    EdSeed = "Seed",
    EdSeedGpu = "The model in the tab runs on the GPU, where the same seed may not repeat a run exactly: choose \"The CPU only\" in its settings for that.",
    EdOpeningBy = "Opening by",
    EdOpeningText = "Opening message (empty: the topic)",
    EdTemplates = "Prompt templates (advanced)",
    EdTemplatesHint = "The texts the models read, with the default wording until you change it; {name} and the like are filled in for each call.",
    EdJudge = "The judge (advanced)",
    EdJudgeHint = "Who judges a finished run (empty: the run's own model, or the demo judge on the demo model), and what it scores: each dimension a whole number from its least to its most, with the words the judge reads.",
    EdOpeningSteps = "Opening steps (before the first turn; within the word limit above)",
    EdSpecify = "A model makes the topic more specific first",
    EdItsPrompts = "Its prompts",
    EdDescribe = "A model writes each agent's description first",
    EdTemplatesFailed = "The templates could not be opened: {why}",
    EdSpeakerSelection = "Speaker selection",
    EdMethod = "Method",
    EdAgents = "Agents",
    EdAddAgent = "Add agent",
    EdWriteDescriptions = "Write descriptions for this topic",
    EdWriteDescriptionsStepOn = " The scenario's model writes each agent's description for the topic, as the opening step does at every run while it is on.",
    EdWriteDescriptionsHint = " The scenario's model writes each agent's description for the topic; you choose whether to use them.",
    EdWriting = "Writing a description of each agent…",
    EdUsedNone = "The descriptions were already these; a run uses them as they are.",
    EdUsedOne = "One agent's description is now the one written; a run uses these as they are (the opening's \"A model writes each agent's description first\" is off).",
    EdUsedMany = "{n} agents' descriptions are now the ones written; a run uses these as they are (the opening's \"A model writes each agent's description first\" is off).",
    EdDescribeFailed = "No descriptions were written: {why}.",
    EdNameColon = ": ",
    EdDescribeNone = "none ({why}); keeps its own",
    EdUseDescriptions = "Use these descriptions",
    Dismiss = "Dismiss",
    EdName = "Name",
    EdRole = "Role",
    EdLocation = "Location",
    EdStance = "Stance",
    StanceUnstated = "unstated",
    StanceFor = "for",
    StanceAgainst = "against",
    StanceNeutral = "neutral",
    EdDescription = "Description",
    EdSystemPrompt = "System prompt (empty: built from the templates)",
    EdAgentModel = "Model for this agent (empty: the scenario's)",
    EdMoveUp = "Move up",
    EdMoveDown = "Move down",
    EdRemove = "Remove",
    SeatsLabel = "Played by you",
    SeatsIntro = "Played by you (the class answers for them):",
    SeatsSelector = "the selector",
    SeatsTimeout = "A seat waits at most (seconds, 0: no limit)",
    // The model's settings (in the Scenario tab).
    KeyOtherOrigin = "This scenario sends its calls to {target}, but your key was entered for {bound}. Send your key to {target}?",
    KeyNotSent = "Not sent: your key was entered for {bound}, and this scenario calls {target}. Change the base URL, or enter a key for it.",
    MdModel = "Model",
    MdProvider = "Provider",
    MdDemo = "Offline demo (no key)",
    MdInTab = "In this browser (no key)",
    MdBuiltin = "The browser's built-in model (no key)",
    MdDemoHint = "The offline demo model answers every call: deterministic from the seed, no key needed.",
    MdMalformed = "Share of malformed replies (0 to 1)",
    MdBaseUrl = "Base URL",
    MdModelName = "Model name",
    MdKey = "API key",
    MdKeyOptional = "API key (if the server wants one)",
    MdRemember = "Remember on this device",
    MdForget = "Forget the key",
    MdKeyKept = "The key is kept in this browser's local storage until you forget it.",
    MdKeyMemory = "The key is held in memory only: it is gone when this tab closes.",
    MdKeyNever = " It is sent only to the provider, never put in links, exports or logs.",
    MdConcurrency = "Calls in flight",
    MdRetries = "Retries",
    MdFirstByte = "First-byte timeout (ms)",
    MdSilence = "Silence timeout (ms)",
    MdPriceIn = "Price in / M tokens",
    MdPriceOut = "Price out / M tokens",
    MdStream = "Stream speech as it is written",
    MdAsking = "Asking the provider for its models…",
    MdCheck = "Check connection",
    MdCapTokens = "Spending cap in tokens (0: none)",
    MdCapMoney = "Spending cap in money (0: none)",
    PresetQwen = "Qwen (Alibaba Cloud, international)",
    PresetQwenCn = "Qwen (Alibaba Cloud, mainland China)",
    PresetKimi = "Kimi (Moonshot, international)",
    PresetKimiCn = "Kimi (Moonshot, mainland China)",
    PresetZai = "GLM (Z.ai, international)",
    PresetZhipu = "GLM (Zhipu, mainland China)",
    PresetSiliconFlow = "SiliconFlow (international)",
    PresetSiliconFlowCn = "SiliconFlow (mainland China)",
    PresetOllama = "Ollama (local)",
    PresetLmStudio = "LM Studio (local)",
    PresetLlamaCpp = "llama.cpp server (local)",
    PresetCustom = "Other OpenAI-compatible",
    NoteAnthropic = "Agora sends the anthropic-dangerous-direct-browser-access header that Anthropic requires for calls from a web page.",
    NoteGemini = "Works from this page with a key from Google AI Studio, which has a free tier. A key limited to certain websites must list this page's address.",
    NoteQwen = "Alibaba Cloud Model Studio; a key works only in the region it was made in. Some regions refuse calls from a web page: if the run says the call was blocked, pick GLM (Zhipu) or the model in the tab instead.",
    NoteKimi = "Moonshot may refuse calls from a web page: if the run says the call was blocked, pick GLM (Zhipu) or the model in the tab instead. Keys from the international and the mainland platform are not interchangeable.",
    NoteGlm = "Zhipu's mainland platform works from this page (GLM-4-Flash is free). The international Z.ai platform refuses calls from web pages: use a Zhipu key here. A key is two parts joined by a dot.",
    NoteSiliconFlow = "Not yet tried from a web page: if the run says the call was blocked, pick GLM (Zhipu) or the model in the tab instead. Model names carry their maker (Qwen/Qwen3-8B).",
    NoteOllama = "Ollama refuses web pages unless started with OLLAMA_ORIGINS set to this page's origin (or *).",
    NoteLmStudio = "Turn on \"Enable CORS\" in LM Studio's server settings.",
    NoteCustom = "The server must allow calls from this page (CORS).",
    // Each method's settings in the editor.
    SetAttemptsPerBid = "Attempts per bid",
    SetDefaultBid = "Default bid",
    SetDirector = "Director",
    SetStopProbability = "Stop probability",
    SetAttemptsPerChoice = "Attempts per choice",
    SetNoValidIndex = "When no valid index comes",
    SetFirstSpeakerFallback = "the first speaker",
    SetRandomSpeaker = "a random speaker",
    SetHandoffVia = "Handoff read from",
    SetViaText = "text: \"Transition to X\"",
    SetViaTool = "a handoff tool call",
    SetViaJson = "structured JSON",
    SetFirstSpeaker = "First speaker",
    SetAttemptsPerTurn = "Attempts per turn",
    SetNamedAgain = "The last speaker may be named again",
    SetNoCandidate = "When no candidate is named",
    SetPreviousSpeaker = "the previous speaker (AutoGen)",
    SetFirstCandidate = "the first candidate",
    SetRandomCandidate = "a random candidate",
    SetPromptRole = "Prompt sent as",
    SetRoleSystem = "a system message (AutoGen, OpenAI models)",
    SetRoleUser = "a user message (AutoGen, other models)",
    SetDrawnAgain = "The last speaker may be drawn again",
    SetFirstInventory = "First player's inventory",
    SetSecondInventory = "Second player's inventory",
    SetWholeNumbers = "write whole numbers separated by commas",
    SetResources = "Resources (comma separated)",
    SetQuantities = "Quantities in resource order, for the first and second agent.",
    SetGames = "Games (optimizer iterations)",
    SetTurnLimitEach = "The turn limit above applies to each game.",
    // Links and files (the Files tab), and the stage's notices.
    LinkOpenedScenario = "Opened \"{title}\" from the link: ready to run.",
    LinkOpenedRun = "Opened a recorded run of \"{title}\" from the link: press Play or Step to replay it.",
    LinkOpenedComparison = "Opened a comparison from the link: its columns are below.",
    LinkBroken = "This link could not be opened: {why}. Nothing was changed.",
    LinkPutBack = "Put my scenario back",
    LinkNone = "No link: {why}.",
    LinkReady = "Link ready ({n} characters). It holds no key. ",
    LinkCopying = "Copying…",
    LinkCopied = "Copied to the clipboard.",
    LinkCopyFromBox = "Copy it from the box below.",
    LinkScenarioTitle = "A link that opens this scenario, ready to run",
    LinkScenario = "Copy link to scenario",
    LinkRunTitle = "A link that replays the run on screen, with no key needed",
    LinkRun = "Copy link with run",
    LinkBox = "Share link",
    LinksAt = "Links open at",
    LinksAtTitle = "The published page's address, when you prepare on a copy of your own; an address that is not http or https is not used",
    LinksAtBad = "Not an http or https address, so not used.",
    SkipToQuestion = "Skip to the open question",
    EngineLine = "Engine: {device}, {rate} tokens/s{warm}",
    EngineWarmup = " in the warm-up",
    FixFields = "Fix the scenario's highlighted fields to run it.",
    FileCouldNotOpen = "Could not open {name}: {why}",
    FileNotText = "the file could not be read as text",
    SaveRun = "Save run (JSON)",
    SaveMarkdown = "Save transcript (Markdown)",
    SaveNotebook = "Save as notebook",
    SaveTrace = "Save trace (OpenTelemetry)",
    SaveAutogen = "Save as AutoGen team",
    // The call inspector and the statistics.
    InspectorTitle = "Call inspector ({n} calls)",
    InspectorHint = "Every call to the model, with exactly what was sent and what came back.",
    CallRead = "read: ",
    CallUsedAsIs = "used as it is",
    CallUnread = "could not be read: {why}",
    CallTurn = "Turn {n} · ",
    CallLine = " · {purpose} · attempt {attempt} · {ms} ms · {sent} + {got} tokens{reasoning} · ",
    CallReasoning = " ({n} of them reasoning)",
    CallSent = "Sent",
    CallAdapted = "The provider refused {parameter} ({message}); Agora {done} and asked again.",
    CallReply = "Reply",
    CallTruncated = "The reply stopped at its token limit.",
    StatsTitle = "Run statistics",
    StatsCost = "Cost: {total} for the run · {orchestration} orchestration (bids, director choices) · {rest} everything else · {turn} a turn",
    StatsEngine = "In-tab engine: {written} tokens a second written, {read} read · {secs} s of engine time, {turn} s a turn",
    StatsAgent = "Agent",
    StatsCalls = "Calls",
    StatsCallsTitle = "all calls",
    StatsOrchestration = "Orchestration",
    StatsOrchestrationTitle = "bids and director choices: deciding who speaks",
    StatsSpeech = "Speech",
    StatsSpeechTitle = "calls whose reply became a message",
    StatsTokens = "Tokens",
    StatsRetries = "Retries",
    StatsRetriesTitle = "attempts after the first",
    StatsFallbacks = "Fallbacks",
    StatsFallbacksTitle = "defaulted bids, fallback choices and handoffs, invalid actions",
    StatsRefused = "Refused",
    StatsRefusedTitle = "calls the model refused, the provider's content filter withheld, or a person in a seat left unanswered",
    StatsEmpty = "Empty",
    StatsEmptyTitle = "turns where the model answered nothing",
    StatsTotal = "Total",
    // The judge and the text statistics.
    JudgedBy = "Judged by {judge}",
    JudgedBySameModel = ", the agents' own model: it may favour what it wrote",
    JudgedInTab = ". A small model in the tab judges poorly: name a judge in the scenario's judge settings for scores to trust",
    JudgedEnd = ".",
    JudgeAgain = "Judge again",
    JudgeThisRun = "Judge this run",
    JudgeDemo = "the demo judge (text statistics, no model)",
    JudgeCannotAsk = "The judge cannot be asked: {why}",
    Judging = "Judging: {judge} reads the run…",
    JudgeCouldNotAsk = "The judge could not be asked: {why}",
    SpeechNotScored = "A speech could not be scored: {why}",
    Verdict = "Verdict",
    VerdictBy = "Verdict by {judge}",
    VerdictSameModel = " · the agents' own model: it may favour what it wrote",
    TheConversation = "The conversation",
    JudgeStrongest = "Strongest: ",
    JudgeWeakest = "Weakest: ",
    JudgeTurn = "turn {n}",
    JudgeSpeeches = "Speeches",
    JudgeSpeechesTitle = "judges favour long answers: compare scores with length",
    JudgeWordsEach = "Words each",
    JudgeReasons = "The judge's reasons",
    TextStatsTitle = "What was said: text statistics",
    TextStatsHint = "Counted from the words, with no model: they do not tell agreement from disagreement or a good point from a bad one.",
    TextTakesUp = "Takes up the previous speaker",
    TextTakesUpTitle = "the share of a speech's content words the previous speaker used too: shared words, not engagement",
    TextRepeats = "Repeats itself",
    TextRepeatsTitle = "the share of its three-word phrases it had said before: the same point in other words is not counted",
    TextTopic = "Words of the topic",
    TextTopicTitle = "the share of its content words found in the topic or its own description: synonyms do not count",
    TextLength = "Length",
    TextLengthTitle = "words per speech against the word limit",
    // Batches (the Batch tab).
    BatchAlreadyRunning = "a batch is already running",
    BatchNothingToResume = "there is no interrupted batch to resume",
    BatchCannotKeep = "The batch's runs cannot be saved as they finish ({why}): a reload would lose them.",
    BatchSeedNotJudged = "Seed {seed} was not judged: {why}",
    BatchRowNotWritten = "The batch stopped: a row could not be written ({why}).",
    BatchCapped = "Stopped at the spending cap: the finished runs are below.",
    BatchNotSaved = "The finished runs could not be saved as they went ({why}): a reload would lose them.",
    BatchCancelled = "Cancelled: the finished runs are below.",
    BatchNotInPast = "This batch is not in past runs: {why}.",
    BatchSeedNotOpened = "Could not open the run of seed {seed}: {why}.",
    BatchLogNotKept = "The log of seed {seed} was not kept (the batch was too large to keep every log).",
    BatchRunningCancelFirst = "a batch is running: cancel it first",
    BatchEstimateDemo = "{n} runs on the offline demo model: nothing leaves the page.",
    BatchEstimateCost = ", about ${cost}",
    BatchEstimate = "{n} runs: about {calls} calls and {tokens} tokens{cost} in all (the spending cap applies to the whole batch).",
    BatchOfOther = "The batch on screen is of another scenario: “{title}”, seeds {seeds} (not the one being edited).",
    BatchOf = "The batch of “{title}”, seeds {seeds}.",
    BatchInterrupted = "The batch of {title} (seeds {seeds}) stopped after {done} of {total} runs when the page was left. Resume plays the {left} runs left; the finished ones are below.",
    BatchResume = "Resume the batch",
    BatchEndHere = "End it here",
    BatchTimeLeft = " · about {secs} s left",
    BatchProgress = "{done} of {total} runs{left}",
    BatchTitle = "Batch: many seeds",
    BatchHint = "Plays the scenario once per seed, one run after another, and sums the runs up: each figure's mean over the runs with its interval. The same batch runs in a terminal too (see the README).",
    BatchSeeds = "Seeds ",
    BatchJudgeTitle = "Each run is judged as it finishes, by the scenario's judge: a judge: column per dimension and agent",
    BatchJudge = " Judge each run",
    BatchRun = "Run batch",
    BatchCancel = "Cancel",
    BatchCsv = "Download CSV",
    BatchReportFailed = "The batch's report could not be drawn: {why}.",
    BatchSeedRow = "seed {seed}",
    BatchTurns = "{n} turns",
    BatchFiguresBefore = "The figures in full (as ",
    BatchFiguresAfter = " prints them)",
    // Comparisons (the Compare tab).
    VaryMethod = "the method",
    VarySeed = "the seed",
    VaryModel = "the model",
    VarySetting = "a setting",
    CompareTitle = "Compare side by side",
    CompareVary = "Columns differ in ",
    CompareSetting = "Setting ",
    CompareSettingTitle = "Its path in the scenario file: max_turns, word_limit, method.stop_probability",
    CompareOpen = "Compare",
    CompareClose = "Close the comparison",
    CompareMethods = "Two to four methods",
    CompareValues = "Values ",
    CompareValuesHint = "Two to four, with commas: seeds (3, 8), models (demo, or a provider and its model: openai/gpt-4o-mini, browser/<model> for the model in the tab), or the setting's values (4, 8).",
    CompareFrame = "Comparison",
    CompareFailed = "The comparison could not be opened: {why}",
    // The templates' rows, the judge's settings and a tournament's leaderboard.
    TplBackToDefault = "Back to the default text",
    TplJudgeUnreadable = "The judge's settings cannot be read ({why}): fix them in the scenario's file.",
    TplAddDimension = "Add a dimension",
    TplJudgeProvider = "Judge's provider",
    TplJudgeModel = "Judge's model",
    TplJudgeAddress = "Judge's address",
    TplRunsOwn = "the run's own",
    TplProvidersOwn = "the provider's",
    TplLeast = "Least score",
    TplMost = "Most score",
    TplJudgeReads = "What the judge reads",
    BoardWon = "Won",
    BoardTied = "Tied",
    BoardLost = "Lost",
    BoardEachDimension = "Each dimension",
    BoardLabel = "Tournament",
    BoardTitle = "A tournament's leaderboard",
    BoardRating = "Rating",
    BoardInterval = "95 % interval",
    BoardClose = "Close",
    JudgeAfterRun = "The judge reads a finished run: play the scenario to its end, then judge it here.",
    // The comparison screen (after Compare) and its strip.
    CmpTitle = "{title}: compared by {vary}",
    CmpComparedBy = "compared by {vary}",
    VaryWordMethod = "method",
    VaryWordSeed = "seed",
    VaryWordModel = "model",
    CmpFiguresFailed = "The figures could not be drawn: {why}.",
    CmpNotInPast = "This comparison is not in past runs: {why}.",
    CmpNotKept = "This comparison could not be saved as it goes ({why}): a reload would lose it.",
    CmpLinkWith = "Link with its runs copied to the clipboard ({n} characters).",
    CmpLinkWithout = "Link without its runs (too long for a link: save the file for them) copied to the clipboard ({n} characters).",
    CmpNoLink = "No link: {why}.",
    CmpPairsNeedTwo = "Judge side by side compares finished columns: play at least two to their end.",
    CmpJudgingPairs = "Judging {n} pairs of columns side by side…",
    CmpIntabReady = "The columns on the model in the tab run on this page's engine, which holds {model}.",
    CmpIntabNeeded = "The columns on the model in the tab run on this page's engine: load the model in the Scenario tab's model settings first. ",
    CmpModelSettings = "Model settings",
    CmpStepAll = "Step all",
    CmpPlayAll = "Play all",
    CmpPauseAll = "Pause all",
    CmpCopyLink = "Copy link",
    CmpSaveJson = "Save (JSON)",
    CmpFiguresCsv = "Figures (CSV)",
    CmpJudgeEach = "Judge each column",
    CmpJudgeEachTitle = "Each finished column's judge (the scenario's) scores its conversation; the scores join the strip",
    CmpSideBySide = "Judge side by side",
    CmpSideBySideTitle = "The judge compares each pair of finished columns, asked in both orders",
    CmpLinkCopied = "The link copied",
    CmpFinished = "Finished: {why}.",
    PairA = "A: {name}",
    PairB = "B: {name}",
    PairTie = "tie",
    PairNotAsked = "not asked",
    NotJudged = "not judged",
    PairTieDisagreed = "tie (the orders disagreed)",
    PairSameCaption = "A: {a} · B: {b} (word for word the same conversation: a tie, the judge not asked)",
    PairCaption = "A: {a} · B: {b} (the orders agreed on {agreed} of {n})",
    PairAskedA = "Asked A first",
    PairAskedB = "Asked B first",
    PairOutcome = "Outcome",
    PairHeading = "Side by side",
    PairJudgedBy = "Judged by {judge}, each pair in both orders: a preference counts only when both orders agree.",
    PairOwnModel = " The judge is the agents' own model: it may favour what it wrote.",
    StripTurns = "Turns",
    StripFloor = "Floor: {agent}",
    StripLongestRun = "Longest run of one speaker",
    StripTurnsOne = "{n} turn",
    StripTurnsMany = "{n} turns",
    StripEveryoneBy = "Everyone had spoken by",
    StripNotYet = "not yet",
    StripTurnN = "turn {n}",
    StripCalls = "Calls choosing / speaking",
    StripTokens = "Tokens choosing / speaking",
    StripCost = "Cost choosing / all",
    StripNotPriced = "not priced",
    StripTakesUp = "Takes up the previous speaker: {agent}",
    StripRepeats = "Repeats itself: {agent}",
    StripDidNotSpeak = "did not speak",
    StripJudgeAgent = "Judge: {dimension}, {agent}",
    StripJudgeWhole = "Judge: {dimension} (the conversation)",
    StripGameScore = "Game {game}: overall score",
    StripOfOptimum = "{overall} of {optimum}",
    StripNotPlayed = "not played",
    // Who the judge scored highest.
    JudgeLeader = "Scored highest: {names}, with a mean of {mean} on the {min}–{max} scale.",
    JudgeLeaderShare = "Scored highest: {names}, with a mean of {share} % of each scale.",
    JudgeLeaderTied = " (tied)",
    // What looks wrong with a key as typed.
    KeyHasSpace = "The key has a space or a line break inside it: copy it again, in one piece.",
    KeyTwoParts = "{label} keys are two parts joined by a dot (id.secret): this looks like another provider's key, or part of one.",
    KeyStartsWith = "{label} keys start with \"{start}\": this looks like another provider's key, or not a key.",
    CmpColumnLabel = "{vary}: {value}",
    // What is wrong with a scenario's field (Scenario::validate and each method's settings).
    VVersion = "version {v} is not supported (this build reads version {this})",
    VTitleRequired = "a title is required",
    VTopicRequired = "a topic is required",
    VLonger = "longer than {n} characters",
    VLanguage = "one line of at most {n} characters (\"Chinese\", \"简体中文\")",
    VAtLeastOne = "must be at least 1",
    VBetween = "must be between {min} and {max}",
    VTwoAgents = "at least two agents are needed",
    VNotInCast = "\"{name}\" is not in the cast",
    VTakenTwice = "\"{name}\" is taken twice",
    VAtMostSeconds = "at most {n} seconds",
    VMaxAgents = "at most {n} agents are allowed",
    VNameRequired = "a name is required",
    VUsedTwice = "\"{name}\" is used twice",
    VTextLonger = "a text is longer than {n} characters",
    VInTabModel = "name a listed model ({ids}) or the address of a .gguf file",
    VUnknownProvider = "unknown provider \"{provider}\"",
    VBaseUrlNeeded = "a base URL is needed",
    VBaseUrlHttp = "must be an http:// or https:// address",
    VModelNeeded = "a model name is needed",
    VModelLong = "model names are at most {n} characters",
    VAtMost = "at most {n}",
    VPrices = "prices must be zero or more",
    VCapZero = "must be zero (no cap) or more",
    VCapNeedsPrice = "a cap in money needs the prices per million tokens",
    VNotAgent = "\"{name}\" is not one of the agents",
    VTwoPlayers = "the negotiation game needs exactly two players",
    VTwoResources = "at least two resources are needed",
    VMaxResources = "at most {n} resources are allowed",
    VResourceBad = "resource {n} is empty or repeated",
    VOneInventoryEach = "one inventory per player is needed",
    VQuantityEach = "needs one quantity per resource",
    VQuantities = "quantities must be 0 to {max}",
    VOneValue = "needs at least one value",
    VSelectorTwo = "the selector needs at least two agents to choose between",
    VMaxTokens = "must be at least 1 (or empty for the provider's default)",
    VPatternGroup = "the pattern needs a capture group",
    VPatternBad = "not a valid pattern: {why}",
    VNotNumber = "\"{text}\" is not a valid number",
    // A batch's summary in sentences, and how its runs ended.
    EndTurnLimit = "reached the turn limit",
    EndDirector = "ended by the director's stop draw",
    EndGames = "played all their games",
    EndByHand = "stopped by hand",
    EndError = "ended on an error",
    EndCap = "stopped at the spending cap",
    EndUnfinished = "did not finish",
    BsNone = "No run has finished yet.",
    BsOne = "The run {what}",
    BsBoth = "Both runs {what}",
    BsAll = "All {n} runs {what}",
    BsSome = "{n} of {total} {what}",
    BsJoin = "; ",
    BsEnded = "{list}.",
    BsRunsOne = "1 run",
    BsRunsMany = "{n} runs",
    BsTail = " on average, {min} to {max} across runs",
    BsFloor = "{agent} held the floor in {head} of turns{tail}.",
    BsLongestOne = "The longest stretch of one speaker was {head} turn{tail}.",
    BsLongestMany = "The longest stretch of one speaker was {head} turns{tail}.",
    BsNobodyAll = "In no run did everyone get to speak.",
    BsEveryoneBy = "Everyone had spoken by turn {head}{tail}.",
    BsEveryoneSome = "Everyone spoke in {n} of {runs}, by turn {head}{tail}.",
    BsCalls = "Each run made {head} calls to the model{tail}.",
    BsChoosingTokens = "Choosing the speakers took {head} tokens a run{tail}.",
    BsSpeechTokens = "The speeches and the rest took {head} tokens a run{tail}.",
    BsCost = "Each run cost ${head}{tail}.",
    BsRetries = "Unreadable replies were asked again {head} times a run{tail}.",
    BsFallbacks = "A default stood in for an unreadable reply {head} times a turn{tail}.",
    BsAllRead = "Every reply was read the first time: no retries and no fallbacks.",
    BsDefaultBids = "{pct} % of bids were unreadable and took the default bid.",
    BsRefused = "{refused} calls were refused or went unanswered, and {empty} speeches came back empty.",
    BsEfficiency = "The last game's overall score reached {head} of the best possible{tail}.",
    BsGame = "Game {game} scored {head} overall{tail} ({runs}).",
    BsJudge = "The judge scored the conversation's {dimension} {head}{tail} ({runs}).",
    // A batch's charts: captions, axes and bars.
    ChRange = "{mean} ({min} to {max})",
    ChFloorCaption = "Share of the floor per agent: mean over runs, the line from the least to the most",
    ChAgent = "agent",
    ChShareTurns = "share of the turns",
    ChInARow = "{v} in a row",
    ChLongestCaption = "Longest run of one speaker: how many runs had each",
    ChLongestStretch = "longest stretch",
    ChNumberRuns = "number of runs",
    ChTurnsLabel = "{v} turns",
    ChNever = "never",
    ChEveryoneCaption = "Turns until everyone had spoken: how many runs took each",
    ChAllSpokenBy = "all had spoken by",
    ChGameLabel = "game {n}",
    ChGameText = "{mean} ({min} to {max}) of {optimum}",
    ChGamesCaption = "Overall score per game (each an optimizer iteration): mean, and the range over runs",
    ChGame = "game",
    ChOverall = "overall score (the right end is the optimum)",
    ChJudgeAgentCaption = "The judge's {dimension} score per agent: mean over the runs judged, the line from the least to the most",
    ChScore = "score",
    ChJudgeWholeCaption = "The judge's scores of the conversation: mean over the runs judged, the line from the least to the most",
    ChDimension = "dimension",
    ChSeed = "seed {seed}",
    ChCostCaption = "Cost per run",
    ChRun = "run",
    ChCostDollars = "cost in dollars",
    // What a screen reader hears of a decision.
    HeardSentence = "{line}.",
    HeardHandoffWhy = "{sentence} ({why})",
    HeardOptimizer = "Optimizer: {note}",
    // The default rubric's dimensions, as the page shows them (the name the judge reads stays as it is).
    DimResponsiveness = "responsiveness",
    DimArgument = "argument",
    DimEvidence = "evidence",
    DimCivility = "civility",
    DimGoal = "goal",
    DimBalance = "balance",
    DimProgress = "progress",
    DimRepetition = "repetition",
    DimOverall = "overall",
    // The editor's names for each prompt template and the judge's rubrics.
    TlConversationDescription = "Conversation description",
    TlAgentHeader = "Agent header",
    TlAgentSystem = "Agent system message",
    TlHistoryHeader = "History header",
    TlSpecifierSystem = "Topic specifier's system message",
    TlSpecifierPrompt = "Topic specifier's prompt",
    TlDescriberSystem = "Character describer's system message",
    TlDescriberPrompt = "Character describer's prompt",
    TlJudgePrompt = "Judge's prompt",
    TlJudgePairwise = "Judge's prompt comparing two conversations",
    TlJudgeSpeech = "Judge's prompt scoring one speech as it lands",
    TlLanguageLine = "Language line (ends every call)",
    TlBidPrompt = "Bid prompt",
    TlBidFormat = "Bid format instructions",
    TlSelectorPrompt = "Selector prompt ({roles}, {participants}, {history})",
    TlNoNameFeedback = "Feedback when no name is given",
    TlManyNamesFeedback = "Feedback when several names are given",
    TlRepeatedFeedback = "Feedback when the last speaker is named",
    TlRules = "Rules",
    TlNameMessage = "Name message",
    TlInventoryMessage = "Inventory message",
    TlTranscriptMessage = "Transcript message",
    TlFeedbackOptimum = "Feedback at the optimum",
    TlFeedbackBelow = "Feedback below the optimum",
    TlOptimizerSystem = "Optimizer system message",
    TlOptimizerPrompt = "Optimizer prompt",
    TlTextInstructions = "Instructions (text and JSON handoffs)",
    TlToolInstructions = "Instructions (tool handoffs)",
    TlToolDescription = "The handoff tool's description",
    TlResponseDescription = "The \"response\" field's description",
    TlNextDescription = "The \"next_agent_name\" field's description",
    TlReflection = "Director's reflection",
    TlContinuation = "Director's continuation",
    TlChoice = "Director's choice of the next speaker",
    TlDirectorPrompt = "Director's prompt to the next speaker",
    TlSummary = "Director's summary",
    TlChoiceFormat = "Choice format instructions",
    TlScoredEach = "Scored for each agent",
    TlScoredWhole = "Scored for the conversation",
    TlLiveScoring = " Score each speech as it lands, beside it in the transcript (a judge's call a speech)",
    // A Chinese page whose scenario speaks English offers to have it speak Chinese.
    LangOfferText = "This scenario's prompts are in English, so its agents speak English.",
    LangOfferButton = "Have them speak Chinese",
    LangOfferTitle = "Sets the scenario's language to 简体中文: every call then ends with a line asking for it (the editor's language field takes it back)",
    // Why the trading game refused a move.
    MvUnreadable = "{detail}",
    MvNoObject = "the reply has no JSON object",
    MvNotClosed = "the JSON object is not closed",
    MvNotJson = "not valid JSON",
    MvNotAnObject = "the JSON is not an object",
    MvNoAction = "no \"action\" field",
    MvNeedsField = "a TRADE needs \"{field}\"",
    MvNeedsQuantity = "a TRADE needs a whole-number \"quantity\"",
    MvUnknownAction = "unknown action \"{action}\"",
    MvUnknownResource = "unknown resource \"{resource}\"",
    MvSameResource = "a trade must exchange two different resources",
    MvQuantityBelowOne = "the quantity must be at least 1",
    MvProposerHasOnly = "the proposer has only {n} {resource}",
    MvOtherHasOnly = "the other player has only {n} {resource}",
    MvOwnProposal = "a player cannot accept its own proposal",
    MvNoLongerAffordable = "the trade is no longer affordable",
    MvNoProposal = "there is no proposal to accept",
    // Why a handoff reply handed the floor to no one.
    HmNoAnswer = "{reason}",
    HmNamesNoOne = "the reply names no next speaker",
    HmNotAnAgent = "\"{name}\" is not an agent",
    HmToItself = "\"{name}\" handed off to itself",
    HmNoToolCall = "the reply made no handoff tool call",
    HmArgumentsNotJson = "the tool call's arguments are not valid JSON",
    HmNotJson = "the reply is not valid JSON",
    HmNoField = "no \"{field}\" field",
    // What the comparison's judging buttons say they did.
    CmpJudgeNeedsOne = "Judge each scores finished columns: play at least one to its end.",
    CmpJudgingEach = "Asked the judge to score {n} finished columns: each column's scores join the strip's judge rows (its last rows) as they come.",
    CmpPairsDone = "Compared {n} pairs of columns: the results are under the strip.",
    // Why the optimizer kept the players' prompts.
    OptimizerKept = "prompts kept: {why}",
    OptNoNewPrompt = "no new prompt for either player",
    // A tournament's leaderboard.
    BoardBy = "Judged by {judge}, seeds {seeds}. Ratings are Bradley–Terry strengths on the Elo scale (1000 is the average method; 400 points are ten to one odds), with 95 % intervals from resampling the seeds.",
    BoardAgreement = "The two orders of asking agreed on {share} % of {n} judgements; a preference counts only when they agree, else it is a tie.",
    BoardNoAgreement = "No judgement was made in both orders.",
    BoardRange = " {low} to {high}",
    BoardNotLeaderboard = "this is not the leaderboard `agora tournament` writes ({why})",
    BoardNoPairs = "the tournament has no judged pairs of methods yet",
    LangOfferDone = "Done: the agents will speak 简体中文 (the editor's language field takes it back).",
    // Issue 56: what a figure and a verdict mean.
    PairOverall = " Overall is the judge's own answer to which conversation was better as a whole: asked beside the rows, not counted from them, so the two can differ.",
    HandoffGraphCaption = "Each arrow runs from the agent who handed over the floor to the one who took it; the number on it is how many times.",
    RoomConnecting = "Connecting to the meeting points that let phones find this room…",
    RoomNoneYet = "No phone has joined yet: students join with the code or the link above.",
    LangOfferDoneWords = "Done: the agents will speak 简体中文, and the scenario's title, topic, opening and cast are in Chinese too (the editor's language field takes the language back).",
    // Why a run ended.
    FinishTurnLimit = "turn limit reached",
    FinishDirector = "the director ended the show",
    FinishGameOver = "all games played",
    FinishStopped = "stopped",
    FinishError = "an error ended the run",
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `{name}`s a template asks for, sorted.
    fn holes(template: &str) -> Vec<&str> {
        let mut names: Vec<&str> = template
            .split('{')
            .skip(1)
            .filter_map(|s| s.split_once('}').map(|(name, _)| name))
            .filter(|name| !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase()))
            .collect();
        names.sort_unstable();
        names.dedup();
        names
    }

    #[test]
    fn a_browser_language_picks_simplified_chinese_or_english() {
        for tags in [&["zh-CN"][..], &["zh"], &["zh-Hans-TW"], &["zh-SG", "en"], &["fr", "zh-cn"], &["zh_CN"]]
        {
            assert_eq!(Lang::from_browser(tags), Lang::ZhHans, "{tags:?}");
        }
        for tags in [&["en-US", "zh-CN"][..], &["zh-TW"], &["zh-Hant"], &["zh-HK", "fr"], &["de"], &[]] {
            assert_eq!(Lang::from_browser(tags), Lang::En, "{tags:?}");
        }
        assert_eq!(Lang::from_browser(&["zh-TW", "zh-CN"]), Lang::ZhHans, "the next language is looked at");
        for l in Lang::ALL {
            assert_eq!(Lang::from_code(l.code()), Some(l));
        }
        assert_eq!(Lang::from_code("zh"), None);
    }

    #[test]
    fn fill_puts_each_value_where_its_name_is_and_leaves_other_braces() {
        assert_eq!(fill("{a} to {b}, {a}", &[("a", &"X"), ("b", &"Y")]), "X to Y, X");
        assert_eq!(fill("{\"json\": {n}}", &[("n", &1)]), "{\"json\": 1}");
        assert_eq!(fill("{missing} stays", &[("n", &1)]), "{missing} stays");
        assert_eq!(fill("no close {a", &[("a", &"X")]), "no close {a");
        assert_eq!(fill("值 {n} 个", &[("n", &3u32)]), "值 3 个");
        for n in [0i64, 7, -7, 10, 1_234_567, i64::MIN, i64::MAX] {
            assert_eq!(fill("{n}", &[("n", &n)]), n.to_string());
        }
        assert_eq!(fill("{n}", &[("n", &u64::MAX)]), u64::MAX.to_string());
        assert_eq!(fill("{n}", &[("n", &String::from("text"))]), "text");
    }

    #[test]
    fn every_key_has_chinese_words_with_the_same_holes_in_chinese_characters() {
        for &key in Key::ALL {
            let (en, zh) = (key.en(), (zh::TABLE.say)(key));
            assert!(!zh.trim().is_empty(), "{key:?} has no Chinese");
            assert_eq!(holes(en), holes(zh), "{key:?}: the Chinese asks for other values than the English");
            // Punctuation-only keys (a list's comma) are the language's own; every other is
            // written in Chinese, with no English word left in it.
            let letters: String = zh.chars().filter(|c| c.is_alphabetic()).collect();
            if !letters.is_empty() {
                let unfilled =
                    fill(zh, &holes(zh).iter().map(|h| (*h, &"" as &dyn Display)).collect::<Vec<_>>());
                // What stands between backticks is a command to type, kept as it is.
                let unfilled: String = unfilled.split('`').step_by(2).collect();
                let latin = unfilled
                    .split(|c: char| !c.is_ascii_alphabetic())
                    .find(|w| w.len() > 1 && !zh::KEPT_LATIN.contains(w));
                assert!(latin.is_none(), "{key:?}: an English word ({latin:?}) in the Chinese: {zh}");
            }
        }
    }

    #[test]
    fn the_table_in_use_decides_every_word_and_english_is_the_default() {
        assert_eq!(t(say::Run), "Run");
        let rail = crate::presets::CARDS.iter().find(|c| c.id == "rail-debate").unwrap();
        assert_eq!(card(rail.id, rail.title, rail.summary).0, rail.title);
        speak(Some(zh::TABLE));
        assert_eq!(lang(), Lang::ZhHans);
        assert_eq!(t(say::Run), (zh::TABLE.say)(Key::Run));
        assert_ne!(t(say::Run), "Run");
        assert_ne!(card(rail.id, rail.title, rail.summary).0, rail.title, "a preset's title is the card's");
        assert_eq!(card("my-own", "Mine", "mine").0, "Mine");
        assert_eq!(
            tf(say::StatusRunning, &[("turn", &3)]),
            fill((zh::TABLE.say)(Key::StatusRunning), &[("turn", &"3")])
        );
        speak(None);
        assert_eq!(lang(), Lang::En);
        assert_eq!(t(say::Run), "Run");
    }

    #[test]
    fn a_provider_presets_words_in_english_are_the_catalogues_own() {
        use crate::provider::preset;
        let label = |id| preset(id).map(|p| p.label);
        let note = |id| preset(id).map(|p| p.browser_note);
        for (key, said) in [
            (Key::PresetQwen, label("qwen")),
            (Key::PresetQwenCn, label("qwen-cn")),
            (Key::PresetKimi, label("moonshot")),
            (Key::PresetKimiCn, label("moonshot-cn")),
            (Key::PresetZai, label("zai")),
            (Key::PresetZhipu, label("zhipu")),
            (Key::PresetSiliconFlow, label("siliconflow")),
            (Key::PresetSiliconFlowCn, label("siliconflow-cn")),
            (Key::PresetOllama, label("ollama")),
            (Key::PresetLmStudio, label("lmstudio")),
            (Key::PresetLlamaCpp, label("llamacpp")),
            (Key::PresetCustom, label("custom")),
            (Key::NoteAnthropic, note("anthropic")),
            (Key::NoteGemini, note("gemini")),
            (Key::NoteQwen, note("qwen-cn")),
            (Key::NoteKimi, note("moonshot-cn")),
            (Key::NoteGlm, note("zhipu")),
            (Key::NoteSiliconFlow, note("siliconflow-cn")),
            (Key::NoteOllama, note("ollama")),
            (Key::NoteLmStudio, note("lmstudio")),
            (Key::NoteCustom, note("custom")),
            (Key::JudgeDemo, Some(crate::judge::demo::LABEL)),
        ] {
            assert_eq!(Some(key.en()), said, "{key:?}");
        }
    }

    #[test]
    fn every_preset_has_a_chinese_card() {
        for card in crate::presets::CARDS {
            let (title, summary) =
                (zh::TABLE.card)(card.id).unwrap_or_else(|| panic!("{}: no Chinese card", card.id));
            assert!(!title.is_empty() && !summary.is_empty(), "{}", card.id);
            assert_ne!(title, card.title, "{}", card.id);
        }
    }
}
