//! The demo model's cast: who each agent is to it (a stance on the topic, a voice picked from its
//! name and description) and the speech, descriptions and topic it writes for them. Each
//! method's folder adds how the cast answers that method's calls (`demo.rs`).

use rand::seq::IndexedRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::scenario::{Scenario, Stance};

use super::topic::{key_phrase, lean, other_script, Form, Lead, Named, Topic};

/// The agents as the demo model knows them, and the topic in a few words.
pub(crate) struct Cast {
    pub(super) people: Vec<Person>,
    pub(super) topic_phrase: String,
    /// The scenario's language asks for Chinese: every text the demo writes is Chinese
    /// (`demo/zh.rs`); the formats the methods read (bids, choices, handoffs) stay as asked.
    pub(crate) chinese: bool,
}

/// What the demo knows of an agent: its name, position on the topic (-1 against, +1 for) and
/// its voice.
#[derive(Clone, Debug)]
pub(crate) struct Person {
    pub(crate) name: String,
    pub(crate) role: String,
    pub(crate) stance: f64,
    pub(crate) voice: &'static Voice,
}

#[derive(Debug)]
pub(crate) struct Voice {
    openers: &'static [&'static str],
    pub(crate) gestures: &'static [&'static str],
    closers: &'static [&'static str],
}

/// The voices: five personas' (0 to 4, each given only to an agent whose description calls for
/// it) and three plain registers (5 to 7) for everyone else: a cast of roles (a proponent, a
/// teacher, a parent) speaks plainly, without another persona's catchphrases.
const VOICES: [Voice; 8] = [
    Voice {
        openers: &["Let me tell you, folks,", "Believe me,", "Nobody knows this better than me:", "Frankly,"],
        gestures: &["*points at the crowd*", "*waves hand dismissively*", "*leans into the microphone*"],
        closers: &["It's going to be tremendous.", "Everybody says so.", "Big league."],
    },
    Voice {
        openers: &[
            "Here's the plan, and I have the numbers:",
            "Let's be clear about who pays:",
            "The data is plain:",
        ],
        gestures: &["*taps the podium*", "*holds up a chart*", "*counts on her fingers*"],
        closers: &["That's how we fix it.", "Working families deserve that.", "I have a plan for that."],
    },
    Voice {
        openers: &["Yo, picture this:", "Listen, I'm a visionary:", "Real talk:"],
        gestures: &["*adjusts sunglasses*", "*spreads arms wide*", "*steps forward confidently*"],
        closers: &["That's the vision.", "Nobody's thinking this big.", "History will remember it."],
    },
    Voice {
        openers: &["Look,", "Okay, so,", "Let me get this straight:"],
        gestures: &[
            "*raises an eyebrow at the camera*",
            "*slumps dramatically in the chair*",
            "*shuffles papers*",
        ],
        closers: &["And somehow that's the sane position.", "Only in America.", "I wish I were joking."],
    },
    Voice {
        openers: &["With respect,", "Consider the long view:", "Our position is firm:"],
        gestures: &["*folds hands calmly*", "*nods slowly*", "*glances at the notes*"],
        closers: &[
            "Stability matters most.",
            "We plan in decades, not news cycles.",
            "That is the responsible course.",
        ],
    },
    Voice {
        openers: &["Honestly,", "I keep coming back to this:", "Think about it:"],
        gestures: &["*leans back*", "*shrugs*", "*smiles*"],
        closers: &["That's where I stand.", "We can do better than that.", "Let's not pretend otherwise."],
    },
    Voice {
        openers: &["In my view,", "Let me put it plainly:", "Here is what I see:"],
        gestures: &["*nods*", "*looks around the room*", "*sets down the pen*"],
        closers: &["That is my view.", "I think we can agree on that much.", "That is what matters here."],
    },
    Voice {
        openers: &["To be fair,", "From where I sit,", "My concern is simple:"],
        gestures: &["*leans forward*", "*turns to the others*", "*checks the notes*"],
        closers: &["That is the heart of it.", "I hope we can be honest about that.", "That is my position."],
    },
];

/// How many of the `VOICES` are personas' (the rest are plain registers).
const PERSONAS: usize = 5;

/// The voice everyone takes on a serious subject (war, illness, loss): no slogans.
const SOBER: Voice = Voice {
    openers: &["With respect,", "Let me be careful here:", "I want to be precise:"],
    gestures: &["*pauses*", "*speaks quietly*", "*looks down at the notes*"],
    closers: &[
        "People's lives depend on getting this right.",
        "We owe them that much.",
        "That is where I stand.",
    ],
};

/// The most words the demo writes in a speech, below a higher word limit.
pub(crate) const SPEECH_WORDS: u32 = 40;

/// Which side of the topic an agent is on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Side {
    For,
    Against,
    Open,
}

impl Side {
    pub(crate) fn of(stance: f64) -> Self {
        if stance > 0.33 {
            Side::For
        } else if stance < -0.33 {
            Side::Against
        } else {
            Side::Open
        }
    }
}

// The claims a speech makes, `{it}` the topic as a sentence may name it (its phrase, or "this
// motion"), `{who}` someone the topic names (or its kind suggests). Every verb after `{it}` or
// `{who}` is a modal's, so a plural or a singular reads alike.
const FOR_POINTS: [&str; 8] = [
    "{it} would make a real difference for {who}",
    "{who} should not have to wait any longer",
    "the doubts about {it} are small next to what {who} would gain",
    "I have seen what a change like this can do for {who}",
    "saying no would fail {who} again",
    "the case for {it} starts with {who}",
    "{it} would give {who} a fairer deal",
    "if we listen to {who}, the answer is to act",
];
const AGAINST_POINTS: [&str; 8] = [
    "{it} would ask too much of {payer}",
    "nobody has shown that {it} would help {who}",
    "{payer} would end up paying for it, one way or another",
    "{it} would fix the wrong problem",
    "I would rather we fixed the basics for {who} first",
    "the costs of {it} would land on {payer}",
    "it sounds simple, and it would not be simple for {who}",
    "{who} deserve better than a rushed decision",
];
const NEUTRAL_POINTS: [&str; 8] = [
    "{it} could help {who} or hurt them, depending on the details",
    "we should hear from {who} before we decide",
    "a small trial would tell us more than any speech",
    "both sides are overselling their case",
    "the real test is what {it} would mean for {who}",
    "I want evidence, not slogans",
    "it could work if {who} had a real say in it",
    "the details matter more than the headline",
];
/// Claims for the option an agent chose, `{a}` that option and `{b}` the other.
const CHOICE_POINTS: [&str; 6] = [
    "{a} would do more for {who}",
    "{who} would get more from {a} than from {b}",
    "{b} may sound easier, but {a} would last longer",
    "ask {who}, and most would pick {a}",
    "{b} would leave {who} worse off",
    "the money and time would go further on {a}",
];
/// Claims of one who weighs both options.
const CHOICE_OPEN: [&str; 6] = [
    "{a} and {b} would each help {who} in different ways",
    "the answer may be a little of both",
    "we should ask {who} which they would really use",
    "neither would work without a plan",
    "the choice between {a} and {b} depends on {who}",
    "{who} need the costs of both, side by side",
];
/// Claims that answer a question with no yes or no ("How should we ...?").
const OPEN_FOR: [&str; 4] = [
    "any good answer starts with {who}",
    "the boldest answer would serve {who} best",
    "we should act now, and ask {who} what works",
    "waiting would cost {who} the most",
];
const OPEN_AGAINST: [&str; 4] = [
    "the wise answer is to go slowly and protect {who}",
    "the first answer is to do no harm to {who}",
    "any answer that ignores {who} is the wrong one",
    "a quick answer would leave {who} to pick up the pieces",
];
const OPEN_NEUTRAL: [&str; 4] = [
    "the honest answer depends on {who}",
    "we need facts from {who} before any answer",
    "there is more than one good answer here",
    "the best answer may differ from place to place",
];
/// On war: sober claims about lives and peace.
const SERIOUS_FOR: [&str; 4] = [
    "{it} would be a hard choice, but the right one",
    "walking away now would cost more lives than it saves",
    "{it} would keep a commitment that {who} rely on",
    "this is how we stand by {who}",
];
const SERIOUS_AGAINST: [&str; 4] = [
    "{it} would risk more lives than it saves",
    "{it} could deepen the suffering it means to end",
    "nobody has shown that {it} would bring peace closer",
    "{it} would need limits and conditions we have not set",
];
const SERIOUS_NEUTRAL: [&str; 4] = [
    "this deserves care, not slogans",
    "we owe {who} clear facts first",
    "the costs are counted in lives, on every side",
    "any decision needs conditions that protect {who}",
];
/// Illness, loss and other harm at home: sober, and nothing about lives on every side or peace.
const CARE_FOR: [&str; 4] = [
    "{who} need patience and people who listen",
    "what helps {who} most is steady, quiet support",
    "we should start from what {who} ask for",
    "this is a reason to act with care, and soon",
];
const CARE_AGAINST: [&str; 4] = [
    "rushing this could hurt the people it means to help",
    "{who} need more care than a quick rule gives",
    "nobody should be left to carry this alone, and a rule will not change that",
    "good intentions are not enough without listening to {who} first",
];
const CARE_NEUTRAL: [&str; 4] = [
    "this deserves care, not slogans",
    "we owe {who} clear facts first",
    "this is best met with honesty and time",
    "we need the views of {who} most of all",
];
/// Answers to someone in the cast, who said `{quote}`.
const REPLIES_DISAGREE: [&str; 4] = [
    "{name} says {quote}, and that is wrong",
    "{name}, you say {quote}; I could not disagree more",
    "I heard {name} say {quote}, and no",
    "{name} says {quote}, but that has it backwards",
];
/// Answers to someone near `me` but not on its side (a neutral and a supporter).
const REPLIES_HALF: [&str; 3] = [
    "{name} says {quote}; I only half agree",
    "{name} has a point with {quote}, but not the whole point",
    "{name} says {quote}, and that is only part of it",
];
const REPLIES_AGREE: [&str; 3] =
    ["{name} is right to say {quote}", "{name} says {quote}, and I agree", "like {name}, I say {quote}"];
/// Words that only frame an answer to someone (see `Cast::answer`): not what is taken up.
const FRAME_WORDS: &str = "says say asks heard wrong agree disagree backwards answer question straight deserves matters seriously right differently hear puts way point tell stand motion before choose choice option proposal yes depends only part whole half partly gets misses";
/// Answers to a question whose answer is not yes or no, `{who}` who asked it.
const ANSWERS_QUESTION: [&str; 3] = [
    "{who} asks {quote}, and here is my answer",
    "to the question {quote}, here is what I think",
    "{who} asks {quote}, and it deserves a straight answer",
];
/// Answers to a yes/no question, `{yes}` the answer.
const ANSWERS_YES_NO: [&str; 3] = [
    "{who} asks {quote}, and my answer is {yes}",
    "{who} asks {quote}: {yes}",
    "to the question {quote}, {yes}",
];
/// Answers to a remark from outside the cast.
const ANSWERS_AGREE: [&str; 2] = ["{who} says {quote}, and I agree", "{who} is right: {quote}, and more"];
const ANSWERS_DISAGREE: [&str; 2] =
    ["{who} says {quote}, but I see it differently", "{who} says {quote}; I hear that, and I disagree"];
const ANSWERS_OPEN: [&str; 2] =
    ["{who} says {quote}, and that matters", "{who} puts it this way, {quote}, and I take that seriously"];
/// Answers to a request from outside the cast ("Show the class who pays").
const ANSWERS_REQUEST: [&str; 2] =
    ["{who} asks for this: {quote}; here it is", "{who} says {quote}, so here is my answer"];
/// Words that open a request rather than a claim.
const REQUESTS: &str = "show tell explain give say name argue answer convince describe compare prove list talk speak make persuade focus remember consider think imagine please";
/// Words that open a question a yes or a no answers.
const YES_NO_OPENERS: &str = "should must can could would will shall do does did may might is are was were has have isn't aren't don't doesn't won't can't";

impl Cast {
    pub(crate) fn new(scenario: &Scenario) -> Self {
        let n = scenario.agents.len();
        let people = scenario
            .agents
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let stance = match a.stance {
                    Some(Stance::For) => 1.0,
                    Some(Stance::Against) => -1.0,
                    Some(Stance::Neutral) => 0.0,
                    // Spread unlabelled agents across the range so some disagree.
                    None if n > 1 => -1.0 + 2.0 * i as f64 / (n - 1) as f64,
                    None => 0.0,
                };
                Person {
                    name: a.name.clone(),
                    role: a.role.clone(),
                    stance,
                    voice: voice_for(&a.name, &format!("{} {}", a.role, a.description)),
                }
            })
            .collect();
        Self {
            people,
            topic_phrase: scenario.model.demo.topic_phrase.clone(),
            chinese: super::zh::asks_for_chinese(&scenario.language),
        }
    }

    /// The topic as the demo's sentences use it (see `Topic`).
    pub(crate) fn topic(&self, topic: &str) -> Topic {
        Topic::read(topic, &self.topic_phrase)
    }

    /// What `me` says back to the last message (`name` said `text`): their name or who they
    /// are, a few of their words in quotes, and whether `me` agrees, as the stances (or, from
    /// outside the cast, the words) say; a question is answered as one. The long form and the
    /// short one, or None when there is nothing to take up.
    fn answer(
        &self,
        me: &Person,
        topic: &Topic,
        (name, text): (&str, &str),
        heard: &Heard,
        most: usize,
        rng: &mut ChaCha8Rng,
    ) -> Option<(String, String)> {
        let phrase = self.taken_up(topic, name, text, most)?;
        let asked = phrase.ends_with('?');
        // What is asked starts after anything quoted before it and after the name it is put to
        // ("‘Should we…?’ Samantha Bee, what did the others get right?" asks "what").
        let question = phrase.rsplit(['’', '”']).next().unwrap_or(&phrase).trim_start();
        let question = match question.split_once(", ") {
            Some((to, rest)) if to == me.name || to.eq_ignore_ascii_case("everyone") => rest,
            _ => question,
        };
        let first = question.split_whitespace().next().unwrap_or("").to_ascii_lowercase();
        let first = first.trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '\'');
        // A question is quoted as it was asked of me, not with the lines that led up to it.
        let quoted = if asked { question } else { phrase.as_str() };
        let quote = format!("“{}”", quoted.replace('“', "‘").replace('”', "’"));
        let side = Side::of(me.stance);
        // A yes or a no, with the reason the speech goes on to give: a question that doubts
        // (who pays, what it costs) is answered yes by a critic and no by a supporter.
        let yes = match (side, lean(&phrase)) {
            (Side::Open, _) => "it depends",
            (Side::For, Some(l)) if l < 0.0 => "no",
            (Side::Against, Some(l)) if l < 0.0 => "yes",
            (Side::For, _) => "yes",
            (Side::Against, _) => "no",
        };
        let yes_no = asked && YES_NO_OPENERS.split(' ').any(|w| w == first);
        let outside = self.person(name).is_none();
        let frames: &[&str] = match self.person(name) {
            _ if yes_no => &ANSWERS_YES_NO,
            _ if asked => &ANSWERS_QUESTION,
            None if REQUESTS.split(' ').any(|w| w == first) => &ANSWERS_REQUEST,
            Some(other) if (0.6..1.2).contains(&(other.stance - me.stance).abs()) => &REPLIES_HALF,
            Some(other) if (other.stance - me.stance).abs() > 0.6 => &REPLIES_DISAGREE,
            Some(_) => &REPLIES_AGREE,
            None => match lean(&phrase) {
                Some(l) if (l - me.stance).abs() > 0.6 => &ANSWERS_DISAGREE,
                Some(_) => &ANSWERS_AGREE,
                None => &ANSWERS_OPEN,
            },
        };
        let frame = frames.choose(rng).copied().unwrap_or("{quote}");
        let fill = |f: &str| {
            f.replace("{name}", name)
                .replace("{who}", &who(name))
                .replace("{quote}", &quote)
                .replace("{yes}", yes)
        };
        // The short form, where words are few: agreement alone, or the answer alone, not one the
        // class heard lately.
        let shorts: &[&str] = match self.person(name) {
            _ if yes_no => &["my answer to {who} is {yes}", "to {who}, {yes}"],
            _ if asked => &["to the question {quote}", "{who} asks {quote}"],
            _ if outside => &["{who} has a point", "I hear {who}", "{who} raises something real"],
            Some(other) if (0.6..1.2).contains(&(other.stance - me.stance).abs()) => &[
                "{name} is half right",
                "I only partly agree with {name}",
                "{name} gets part of it",
                "{name} is not all wrong",
            ],
            Some(other) if (other.stance - me.stance).abs() > 0.6 => &[
                "{name} is wrong",
                "I cannot agree with {name}",
                "{name} has it backwards",
                "{name} misses the point",
            ],
            _ => &["{name} is right", "I am with {name}", "{name} has a point", "{name} sees it clearly"],
        };
        let short = heard.unheard(shorts, fixed_part).choose(rng).copied().unwrap_or(shorts[0]);
        Some((fill(frame), fill(short)))
    }

    /// The words of `text` (said by `name`) worth taking up, as they said them: their own, not
    /// the topic cut into pieces (a piece of it is kept whole or left out), not a voice's stock
    /// opener or closer, not the names and verbs of the answer they gave someone else.
    pub(crate) fn taken_up(&self, topic: &Topic, name: &str, text: &str, most: usize) -> Option<String> {
        let (mut own, pieces) = topic.held(text);
        for voice in VOICES.iter().chain([&SOBER]) {
            for line in voice.openers.iter().chain(voice.closers) {
                own = own.replace(*line, "");
            }
        }
        let mut ignore: Vec<String> = FRAME_WORDS.split(' ').map(String::from).collect();
        for person in self.people.iter().map(|p| p.name.as_str()).chain([name]) {
            ignore.extend(super::topic::content_words(person));
        }
        Some(Topic::restore(&key_phrase(&own, name, &ignore, most)?, &pieces))
    }

    /// Whom `speaker` puts the topic to: the cast but the speaker (a director who opens the show
    /// does not address itself), or the whole cast when that leaves no one.
    pub(crate) fn addressed_by(&self, speaker: &str) -> Vec<&str> {
        let others: Vec<&str> = self
            .people
            .iter()
            .map(|p| p.name.as_str())
            .filter(|n| !n.eq_ignore_ascii_case(speaker))
            .collect();
        if others.is_empty() {
            self.people.iter().map(|p| p.name.as_str()).collect()
        } else {
            others
        }
    }

    pub(crate) fn person(&self, name: &str) -> Option<&Person> {
        self.people.iter().find(|p| p.name.eq_ignore_ascii_case(name))
    }

    /// A speech for `me` on `topic`, answering `last` (who spoke last, and what they said).
    pub(crate) fn speech(
        &self,
        me: Option<&Person>,
        topic: &str,
        word_limit: u32,
        heard: Heard,
        rng: &mut ChaCha8Rng,
    ) -> String {
        let Some(me) = me else { return if self.chinese { "我同意。" } else { "I agree." }.into() };
        let topic = self.topic(topic);
        if self.chinese {
            return self.speech_zh(me, &topic, word_limit, heard, rng);
        }
        let last = heard.last;
        let side = Side::of(me.stance);
        let (claimed, who) = claim(&topic, side, &heard, |p| p.en, rng);
        let point = claimed.replace("{it}", "it");
        let alone = claimed.replace("{it}", &topic.it_en());
        let voice = if topic.serious { &SOBER } else { me.voice };
        let gesture = voice.gestures.choose(rng).copied().filter(|_| chance(rng, 0.6));
        let opener = heard.unheard(voice.openers, |o| o.to_string()).choose(rng).copied().unwrap_or("");
        let answered = last
            .filter(|(name, _)| !name.eq_ignore_ascii_case(&me.name))
            // Fewer words quoted where a speech has few.
            .and_then(|last| self.answer(me, &topic, last, &heard, if word_limit < 30 { 4 } else { 7 }, rng));
        // The topic whole in a speaker's first speech, by its short name after; a short motion's
        // own clause is checked and says more than "this motion", so it is said every time.
        let short_motion = matches!(&topic.form, Form::Motion(_, c) if c.split_whitespace().count() <= 8);
        let stance_full = stance_en(&topic, side, heard.first || short_motion, &who);
        let stance_short = stance_en(&topic, side, false, &who);
        // A closer now and then, and not one the class heard lately: a catchphrase said in every
        // speech is a sentence said again and again.
        let closer =
            heard.unheard(voice.closers, |c| c.to_string()).choose(rng).copied().filter(|_| chance(rng, 0.6));
        let said = |reply: Option<&str>, stance: &str, opener: &str| {
            let sentence = format!("{stance}: {point}.");
            match reply {
                Some(r) => format!("{}. {}", join(opener, r), capitalize(&sentence)),
                None => join(opener, &sentence),
            }
        };
        let (full, short) = match &answered {
            Some((f, s)) => (Some(f.as_str()), Some(s.as_str())),
            None => (None, None),
        };
        // Where words are few, the claim alone comes before the stance alone: claims vary, and a
        // stance said in every short speech would be the same sentence again and again.
        let drafts: [[Option<String>; 3]; 9] = [
            [gesture.map(String::from), Some(said(full, &stance_full, opener)), closer.map(String::from)],
            [gesture.map(String::from), Some(said(full, &stance_full, opener)), None],
            [None, Some(said(full, &stance_full, "")), None],
            [None, Some(said(full, &stance_short, "")), None],
            // Their words taken up, with a claim (claims vary; a stance said alone would repeat).
            [
                None,
                full.filter(|_| word_limit >= 30)
                    .map(|r| format!("{}. {}.", capitalize(r), capitalize(&alone))),
                None,
            ],
            [None, Some(said(short, &stance_short, "")), None],
            [None, Some(said(None, &stance_short, "")), None],
            [None, Some(format!("{}.", capitalize(&alone))), None],
            [None, Some(format!("{}.", capitalize(&stance_short))), None],
        ];
        // A speech a class reads at a glance: at most SPEECH_WORDS words however high the limit
        // (a projector's large type holds it with the speech before it in view).
        let most = word_limit.min(SPEECH_WORDS) as usize;
        let fits = |d: &[Option<String>; 3]| {
            d.iter().flatten().count() > 0
                && d.iter().flatten().map(|p| p.split_whitespace().count()).sum::<usize>() <= most
        };
        let chosen = drafts.iter().find(|d| fits(d)).unwrap_or(&drafts[drafts.len() - 1]);
        let text: Vec<&str> = chosen.iter().flatten().map(String::as_str).collect();
        limit_words(&text.join(" "), word_limit)
    }

    /// `names` from the most opposed to `stance` to the least, ties in their order.
    pub(crate) fn most_opposed<'a>(&self, names: &'a [String], stance: f64) -> Vec<&'a String> {
        let gap = |n: &str| self.person(n).map_or(0.0, |p| (p.stance - stance).abs());
        let mut ranked: Vec<(&String, f64)> = names.iter().map(|n| (n, gap(n))).collect();
        crate::text::sort_small(&mut ranked, |a, b| a.1.total_cmp(&b.1).is_gt());
        ranked.into_iter().map(|(n, _)| n).collect()
    }

    pub(crate) fn describe(
        &self,
        subject: &str,
        topic: &str,
        word_limit: u32,
        rng: &mut ChaCha8Rng,
    ) -> String {
        let topic = self.topic(topic);
        if self.chinese {
            return self.describe_zh(subject, &topic, rng);
        }
        let person = self.person(subject);
        let role = person.map_or("participant".to_string(), |p| {
            if p.role.is_empty() || other_script(&p.role) {
                "participant".into()
            } else {
                p.role.clone()
            }
        });
        let traits = ["fearless", "relentless", "unpredictable", "charming", "meticulous", "theatrical"];
        let a = traits.choose(rng).copied().unwrap_or("bold");
        let others: Vec<&str> = traits.iter().copied().filter(|t| *t != a).collect();
        let b = others.choose(rng).copied().unwrap_or("sharp");
        let article = if a.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
        let side = Side::of(person.map_or(0.0, |p| p.stance));
        let (full, short) = leaning_en(&topic, side);
        let habit = HABITS.choose(rng).copied().unwrap_or(HABITS[0]);
        // Trimmed whole, never cut mid-phrase: the habit goes first, then the topic named whole,
        // then the second trait, then where they stand.
        let drafts = [
            format!("{subject}, you are {article} {a}, {b} {role} {full}. {habit}"),
            format!("{subject}, you are {article} {a}, {b} {role} {full}."),
            format!("{subject}, you are {article} {a}, {b} {role} {short}. {habit}"),
            format!("{subject}, you are {article} {a}, {b} {role} {short}."),
            format!("{subject}, you are {article} {a} {role} {short}."),
            format!("{subject}, you are {article} {a}, {b} {role}."),
        ];
        let fits = |d: &String| d.split_whitespace().count() <= word_limit as usize;
        let chosen = drafts.iter().find(|d| fits(d)).unwrap_or(&drafts[5]);
        limit_words(chosen, word_limit)
    }

    pub(crate) fn specify(
        &self,
        topic: &str,
        speaker: &str,
        word_limit: u32,
        rng: &mut ChaCha8Rng,
    ) -> String {
        let names = self.addressed_by(speaker);
        let t = self.topic(topic);
        if self.chinese {
            return self.specify_zh(&t, &names);
        }
        let who = t.gainers().first().map_or("everyone", |p| p.en);
        let quoted = quote_en(&t.whole);
        let (put, ask) = match &t.form {
            Form::Either(Some(_)) => {
                let (a, b) = t.options_en().unwrap_or_default();
                (format!("the choice before us: {a} or {b}."), "Tell us which you would choose, and why.")
            }
            Form::Phrase(_) => {
                let frames = [
                    "tell us how {it} would work, who gains, and who loses.",
                    "say what {it} would cost, and who would pay for it.",
                    "tell us what {it} would mean for {who}, and what you would do first.",
                ];
                let frame = frames.choose(rng).copied().unwrap_or(frames[0]);
                (frame.replace("{it}", &t.it_en()).replace("{who}", who), "")
            }
            Form::YesNo | Form::Open | Form::Either(None) => {
                (format!("the question before us: {quoted}"), "Tell us where you stand, and why.")
            }
            _ => (format!("the motion before us: {quoted}."), "Tell us where you stand, and why."),
        };
        let names = names.join(", ");
        let fits = |s: &str| s.split_whitespace().count() <= word_limit as usize;
        let full = format!("{names}, {put} {ask}");
        let text = if fits(full.trim_end()) {
            full.trim_end().to_string()
        } else if fits(&format!("{names}, {put}")) {
            format!("{names}, {put}")
        } else {
            // A topic too long to repeat within the limit is not cut off mid-sentence.
            format!("{names}, you have the proposal before you: tell us where you stand on it, and why.")
        };
        limit_words(&text, word_limit)
    }
}

/// A claim for `side` on `topic`: one the conversation has not heard lately, with the person it
/// names (`word` gives their name in the speech's language). The claim, and whom it named.
pub(crate) fn claim(
    topic: &Topic,
    side: Side,
    heard: &Heard,
    word: impl Fn(&Named) -> &'static str,
    rng: &mut ChaCha8Rng,
) -> (String, String) {
    let points: &[&str] = match (&topic.form, topic.serious, topic.war, side) {
        (Form::Either(_), _, _, Side::Open) => &CHOICE_OPEN,
        (Form::Either(_), _, _, _) => &CHOICE_POINTS,
        (Form::Open, false, _, Side::For) => &OPEN_FOR,
        (Form::Open, false, _, Side::Against) => &OPEN_AGAINST,
        (Form::Open, false, _, Side::Open) => &OPEN_NEUTRAL,
        (_, true, true, Side::For) => &SERIOUS_FOR,
        (_, true, true, Side::Against) => &SERIOUS_AGAINST,
        (_, true, true, Side::Open) => &SERIOUS_NEUTRAL,
        (_, true, false, Side::For) => &CARE_FOR,
        (_, true, false, Side::Against) => &CARE_AGAINST,
        (_, true, false, Side::Open) => &CARE_NEUTRAL,
        (_, false, _, Side::For) => &FOR_POINTS,
        (_, false, _, Side::Against) => &AGAINST_POINTS,
        (_, false, _, Side::Open) => &NEUTRAL_POINTS,
    };
    let who = topic.gainers().choose(rng).map_or("everyone", &word).to_string();
    let payer = topic.payers().choose(rng).map_or("everyone", &word).to_string();
    let point = heard.unheard(points, fixed_part).choose(rng).copied().unwrap_or("");
    let (a, b) = match (side, topic.options_en()) {
        (Side::Against, Some((a, b))) => (b, a),
        (_, Some(ab)) => ab,
        _ => Default::default(),
    };
    // "{it}" stays for the speech to fill: "it" after a stance that named the topic, the
    // topic's short name where the claim stands alone.
    let text = point.replace("{who}", &who).replace("{payer}", &payer).replace("{a}", &a).replace("{b}", &b);
    (text, who)
}

/// The longest stretch of `line` between its `{...}` holes: what a class would hear again, whoever
/// it named.
pub(crate) fn fixed_part(line: &str) -> String {
    line.split(['{', '}'])
        .enumerate()
        .filter(|(i, _)| i % 2 == 0)
        .map(|(_, p)| p)
        .max_by_key(|p| p.len())
        .unwrap_or("")
        .to_string()
}

/// `text` quoted whole in an English sentence.
fn quote_en(text: &str) -> String {
    format!("“{text}”")
}

/// Where `side` stands on `topic`, to start a sentence (lowercase where the words allow):
/// with the topic named whole when `first`, else by its short name.
fn stance_en(topic: &Topic, side: Side, first: bool, who: &str) -> String {
    let quoted = quote_en(&topic.whole);
    match &topic.form {
        Form::Phrase(_) => {
            let it = topic.it_en();
            match side {
                Side::For => format!("I am for {it}"),
                Side::Against => format!("I am against {it}"),
                Side::Open => format!("I am open on {it}, but not yet convinced"),
            }
        }
        Form::Motion(lead, clause) if first && !topic.foreign => {
            let (yes, no, unsure) = match lead {
                Lead::Would => ("I would", "I would not", "I am not sure I would"),
                Lead::Believe => ("I believe that", "I do not believe that", "I am not yet sure that"),
                Lead::Regret => ("I regret", "I do not regret", "I am not sure I regret"),
                Lead::Support => ("I support", "I do not support", "I am not sure I support"),
                Lead::Oppose => ("I oppose", "I do not oppose", "I am not sure I oppose"),
            };
            let head = match side {
                Side::For => yes,
                Side::Against => no,
                Side::Open => unsure,
            };
            format!("{head} {clause}")
        }
        Form::Either(_) => {
            let (a, b) = topic.options_en().unwrap_or_default();
            let lead = if first && topic.options_en().is_some_and(|o| o.0 == "the first option") {
                format!("of the two options in {quoted}, ")
            } else {
                String::new()
            };
            match side {
                Side::For => format!("{lead}I choose {a} over {b}"),
                Side::Against => format!("{lead}I choose {b} over {a}"),
                Side::Open => format!("{lead}I see a case for both {a} and {b}"),
            }
        }
        Form::YesNo => {
            let answer = match side {
                Side::For => "yes",
                Side::Against => "no",
                Side::Open => "that it depends",
            };
            if first {
                format!("my answer to {quoted} is {answer}")
            } else {
                format!("my answer is {answer}")
            }
        }
        Form::Open if first => format!("my answer to {quoted} starts with {who}"),
        Form::Open => format!("my answer starts with {who}"),
        _ if first => match side {
            Side::For => format!("I agree with {quoted}"),
            Side::Against => format!("I disagree with {quoted}"),
            Side::Open => format!("I only half agree with {quoted}"),
        },
        _ => match side {
            Side::For => "I am for this motion".into(),
            Side::Against => "I am against this motion".into(),
            Side::Open => "I am still weighing this motion".into(),
        },
    }
}

/// Where an agent on `side` stands, as a character description says it: naming the topic whole
/// (its phrase, its motion's clause, its options, or the whole in quotes), and by its short
/// name where words are few.
fn leaning_en(topic: &Topic, side: Side) -> (String, String) {
    let it = topic.it_en();
    let quoted = quote_en(&topic.whole);
    let pick = |f: String, a: String, o: String| match side {
        Side::For => f,
        Side::Against => a,
        Side::Open => o,
    };
    let short = match &topic.form {
        Form::Either(_) => {
            let (x, y) = topic.options_en().unwrap_or_default();
            pick(
                format!("who would choose {x} over {y}"),
                format!("who would choose {y} over {x}"),
                format!("who sees a case for both {x} and {y}"),
            )
        }
        Form::YesNo => pick(
            "whose answer to the question is yes".into(),
            "whose answer to the question is no".into(),
            "who has not yet made up their mind on the question".into(),
        ),
        Form::Open => pick(
            "who wants a bold answer to the question".into(),
            "who urges caution on the question".into(),
            "with an open mind about the question".into(),
        ),
        Form::Phrase(_) => pick(
            format!("who firmly believes in {it}"),
            format!("who deeply doubts {it}"),
            format!("with an open mind about {it}"),
        ),
        _ => pick(
            format!("who firmly backs {it}"),
            format!("who stands against {it}"),
            format!("with an open mind about {it}"),
        ),
    };
    let full = match &topic.form {
        Form::Motion(lead, clause) if !topic.foreign => {
            let (yes, no) = match lead {
                Lead::Would => ("who would", "who would not"),
                Lead::Believe => ("who believes that", "who does not believe that"),
                Lead::Regret => ("who regrets", "who does not regret"),
                Lead::Support => ("who supports", "who does not support"),
                Lead::Oppose => ("who opposes", "who does not oppose"),
            };
            pick(
                format!("{yes} {clause}"),
                format!("{no} {clause}"),
                format!("with an open mind about {quoted}"),
            )
        }
        Form::YesNo => pick(
            format!("whose answer to {quoted} is yes"),
            format!("whose answer to {quoted} is no"),
            format!("who has not yet made up their mind on {quoted}"),
        ),
        Form::Open => pick(
            format!("who wants a bold answer to {quoted}"),
            format!("who urges caution on {quoted}"),
            format!("with an open mind about {quoted}"),
        ),
        Form::Statement | Form::Motion(..) => pick(
            format!("who agrees with {quoted}"),
            format!("who disagrees with {quoted}"),
            format!("with an open mind about {quoted}"),
        ),
        Form::Either(None) => pick(
            format!("who favours the first option in {quoted}"),
            format!("who favours the second option in {quoted}"),
            format!("who sees a case for both options in {quoted}"),
        ),
        _ => short.clone(),
    };
    (full, short)
}

/// `text` after an opener ("Believe me,"), or alone with a capital when there is none.
fn join(opener: &str, text: &str) -> String {
    if opener.is_empty() {
        capitalize(text)
    } else {
        format!("{opener} {text}")
    }
}

impl Topic {
    /// The topic and the parts of it a sentence may say, longest first: what an answer leaves
    /// out when it quotes the last speaker.
    pub(crate) fn pieces(&self) -> Vec<String> {
        let mut out = vec![self.whole.clone()];
        if let Some(bare) = self.whole.strip_suffix(['?', '？']) {
            out.push(bare.to_string());
        }
        match &self.form {
            Form::Phrase(p) | Form::Motion(_, p) => out.push(p.clone()),
            Form::Either(Some((a, b))) => out.extend([a.clone(), b.clone()]),
            _ => {}
        }
        out.sort_by_key(|p| std::cmp::Reverse(p.len()));
        out
    }

    /// `text` with each of the topic's `pieces` held as one token, so a clause taken up from it
    /// keeps a piece whole or leaves it out, never cuts it (a phrase with commas, a long
    /// clause); `restore` gives the pieces back.
    pub(crate) fn held(&self, text: &str) -> (String, Vec<String>) {
        // A piece in quotes is held with its quotes: the clause around it is taken up whole.
        let pieces: Vec<String> = self.pieces().into_iter().flat_map(|p| [format!("“{p}”"), p]).collect();
        let mut out = text.to_string();
        for (i, piece) in pieces.iter().enumerate() {
            out = out.replace(piece.as_str(), &format!("\u{1}{i}\u{1}"));
        }
        (out, pieces)
    }

    /// `text` with the tokens of `held` put back as the pieces they stand for.
    pub(crate) fn restore(text: &str, pieces: &[String]) -> String {
        let mut out = text.to_string();
        for (i, piece) in pieces.iter().enumerate() {
            out = out.replace(&format!("\u{1}{i}\u{1}"), piece);
        }
        out
    }

    /// The topic in an English sentence the first time it is named: its phrase, or the whole
    /// topic in quotes.
    pub(crate) fn named_en(&self) -> String {
        match &self.form {
            Form::Phrase(_) => self.it_en(),
            _ => quote_en(&self.whole),
        }
    }

    /// The topic's short name in an English sentence: its phrase, or "this motion", "the
    /// proposal", "the question", "this choice".
    pub(crate) fn it_en(&self) -> String {
        match &self.form {
            Form::Phrase(p) if self.foreign || other_script(p) => quote_en(p),
            Form::Phrase(p) => p.clone(),
            Form::Motion(..) | Form::Statement => "this motion".into(),
            Form::YesNo => "the proposal".into(),
            Form::Open => "the question".into(),
            Form::Either(_) => "this choice".into(),
        }
    }

    /// The two options of an either/or topic in an English sentence (quoted when written in
    /// another script), or "the first option" and "the second option" where the demo could not
    /// find them whole.
    pub(crate) fn options_en(&self) -> Option<(String, String)> {
        match &self.form {
            Form::Either(Some((a, b))) if self.foreign => Some((quote_en(a), quote_en(b))),
            Form::Either(Some((a, b))) => Some((a.clone(), b.clone())),
            Form::Either(None) => Some(("the first option".into(), "the second option".into())),
            _ => None,
        }
    }
}

/// What a speaker heard: the last speech (who, what), and the end of the conversation as its
/// prompt gives it (a few thousand bytes, so reading it costs the same in a long run).
#[derive(Clone, Default)]
pub(crate) struct Heard<'a> {
    pub last: Option<(&'a str, &'a str)>,
    pub recent: std::borrow::Cow<'a, str>,
    /// This is the speaker's first speech: it names the topic whole.
    pub first: bool,
}

/// `text` with no stop after a quote that ends its own sentence: "“…吗？”。" is "“…吗？”", and
/// "…say about “Should we?”?" is "…say about “Should we?”". A topic quoted whole brings its own.
pub(crate) fn closed(text: String) -> String {
    const DOUBLED: [(&str, &str); 8] = [
        ("？”。", "？”"),
        ("！”。", "！”"),
        ("。”。", "。”"),
        ("？”？", "？”"),
        ("?”?", "?”"),
        ("?”.", "?”"),
        ("!”.", "!”"),
        ("?’?", "?’"),
    ];
    if !text.contains(['”', '’']) {
        return text;
    }
    DOUBLED.iter().fold(text, |t, (twice, once)| t.replace(twice, once))
}

/// How much of the end of a prompt the demo reads for what was said lately: some fifteen speeches.
const RECENT_BYTES: usize = 4096;
/// How much a host reads back for the questions it has asked: a show of some sixty speeches,
/// so a guest is never asked the same thing twice in one.
pub(crate) const HOST_RECENT_BYTES: usize = 16 * 1024;

impl<'a> Heard<'a> {
    /// The last speech from a cue, and the end of `request`'s messages: of its last message
    /// where that holds the conversation (seed 000's prompt), else of the last few (a method
    /// that sends each speech as a message of its own).
    pub(crate) fn of(
        request: &'a crate::model::ChatRequest,
        last: Option<(&'a str, &'a str)>,
        first: bool,
    ) -> Self {
        Self::reading(request, last, first, RECENT_BYTES)
    }

    /// As [`Heard::of`], reading back `bytes` of the prompt.
    pub(crate) fn reading(
        request: &'a crate::model::ChatRequest,
        last: Option<(&'a str, &'a str)>,
        first: bool,
        bytes: usize,
    ) -> Self {
        let tail = |text: &'a str, most: usize| {
            let mut from = text.len().saturating_sub(most);
            while !text.is_char_boundary(from) {
                from += 1;
            }
            &text[from..]
        };
        let messages = &request.messages;
        let last_text = messages.last().map_or("", |m| m.content.as_str());
        if last_text.len() >= bytes || messages.len() <= 2 {
            return Heard { last, recent: std::borrow::Cow::Borrowed(tail(last_text, bytes)), first };
        }
        let mut parts: Vec<&str> = Vec::new();
        let mut size = 0;
        for m in messages.iter().rev().take((bytes / 170).max(24)) {
            if size >= bytes {
                break;
            }
            let piece = tail(&m.content, bytes - size);
            size += piece.len();
            parts.push(piece);
        }
        parts.reverse();
        Heard { last, recent: std::borrow::Cow::Owned(parts.join("\n")), first }
    }

    /// The questions a host may put next, `ask` writing each to its guest: none this guest has
    /// been asked in what the host reads back, and of those the ones nobody was asked lately;
    /// when the guest has been asked them all, the one asked longest ago.
    pub(crate) fn not_asked<'p>(&self, questions: &[&'p str], ask: impl Fn(&str) -> String) -> Vec<&'p str> {
        let to_guest = self.unheard(questions, ask);
        let to_anyone = self.unheard(questions, fixed_part);
        let both: Vec<&str> = to_guest.iter().copied().filter(|q| to_anyone.contains(q)).collect();
        if both.is_empty() {
            to_guest
        } else {
            both
        }
    }

    /// The lines of `points` the conversation has not heard lately, `said` writing each as it
    /// would be said; when every one was, the one heard longest ago. A speaker does not repeat a
    /// stock line the class just heard.
    pub(crate) fn unheard<'p>(&self, points: &[&'p str], said: impl Fn(&str) -> String) -> Vec<&'p str> {
        let heard_at = |p: &str| {
            let line = said(p);
            // From its second character: a line may open a sentence with a capital.
            let tail = line.char_indices().nth(1).map_or("", |(i, _)| &line[i..]);
            if tail.is_empty() {
                None
            } else {
                self.recent.rfind(tail)
            }
        };
        let at: Vec<(&'p str, Option<usize>)> = points.iter().map(|&p| (p, heard_at(p))).collect();
        let fresh: Vec<&'p str> = at.iter().filter(|(_, a)| a.is_none()).map(|(p, _)| *p).collect();
        if !fresh.is_empty() {
            return fresh;
        }
        at.iter().min_by_key(|(_, a)| *a).map(|(p, _)| *p).into_iter().collect()
    }
}

/// How a character description ends: one of these, so a cast's introductions do not all close
/// alike.
const HABITS: [&str; 5] = [
    "You never miss a chance to make your point.",
    "You answer every argument head on.",
    "You back every claim with an example.",
    "You listen closely and pounce on a weak argument.",
    "You say plainly what you would do first.",
];

/// How a speaker from outside the cast is named in a sentence: a role ("Audience member",
/// "Debate Moderator") with "the", a person by their name.
fn who(name: &str) -> String {
    let lower = name.to_ascii_lowercase();
    let role =
        ["audience", "moderator", "member", "class", "teacher", "student"].iter().any(|r| lower.contains(r));
    if role {
        format!("the {lower}")
    } else {
        name.to_string()
    }
}

/// Picks a persona's voice when the description calls for one (a word of it starts with one of
/// the persona's cues), otherwise a plain register, the same for the same name.
fn voice_for(name: &str, about: &str) -> &'static Voice {
    let about = format!(" {}", about.to_ascii_lowercase());
    let cues: [(&[&str], usize); 5] = [
        (&["host", "correspondent", "comedian", "satir"], 3),
        (&["plan", "policy", "numbers", "who pays"], 1),
        (&["creative", "visionary", "artist", "performance"], 2),
        (&["brash", "confident", "controversial", "deal"], 0),
        (&["measured", "strategic", "stability", "calm"], 4),
    ];
    let starts = |cue: &str| about.contains(&format!(" {cue}"));
    let index = cues.iter().find(|(words, _)| words.iter().any(|w| starts(w))).map_or_else(
        || PERSONAS + (fnv(name.as_bytes()) % (VOICES.len() - PERSONAS) as u64) as usize,
        |(_, i)| *i,
    );
    &VOICES[index]
}

pub(crate) fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_ascii_uppercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

/// `text` with a capital at the start of each sentence ("Wow. everyone ..." → "Wow. Everyone").
pub(crate) fn sentence_case(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut start = true;
    for c in text.chars() {
        if start && c.is_ascii_lowercase() {
            out.push(c.to_ascii_uppercase());
        } else {
            out.push(c);
        }
        if !c.is_whitespace() {
            start = matches!(c, '.' | '!' | '?');
        }
    }
    out
}

/// Cuts a text to `limit` words, closing an open `*gesture*` and ending with punctuation.
pub fn limit_words(text: &str, limit: u32) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() <= limit as usize {
        return words.join(" ");
    }
    let mut out = words[..limit as usize].join(" ");
    if out.matches('*').count() % 2 == 1 {
        out.push('*');
    }
    if !out.ends_with(['.', '!', '?', '*']) {
        out = out.trim_end_matches([',', ':', ';']).to_string();
        out.push('.');
    }
    out
}

/// True with probability `p` (0 to 1), drawing exactly what rand's `random_bool` draws (one
/// `u64` against `p` scaled to 2^64; nothing at `p` = 1), so logs stay as they were. Its own
/// check of `p` formats the float in a panic message, and that formatting code alone weighs
/// about 5 KB gzipped in the browser build.
pub(crate) fn chance(rng: &mut impl Rng, p: f64) -> bool {
    if p >= 1.0 {
        return true;
    }
    let threshold = (p.max(0.0) * 18_446_744_073_709_551_616.0) as u64;
    rng.random::<u64>() < threshold
}

/// FNV-1a: a hash that stays the same across Rust versions, so demo runs stay reproducible.
pub(crate) fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in bytes {
        h ^= *b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;

    #[test]
    fn a_stock_point_is_not_made_again_while_the_class_still_hears_it() {
        // The fixed part of each point: its longest stretch between placeholders.
        let stock: Vec<&str> = FOR_POINTS
            .iter()
            .chain(&AGAINST_POINTS)
            .chain(&NEUTRAL_POINTS)
            .filter_map(|p| {
                p.split(['{', '}']).filter(|piece| piece.len() >= 14).max_by_key(|piece| piece.len())
            })
            .collect();
        assert!(stock.len() >= 12, "{stock:?}");
        for seed in 1..=6 {
            let said = crate::demo::rail_debate_speeches("", seed, 30);
            let mut repeats = Vec::new();
            for (i, speech) in said.iter().enumerate() {
                // Quoted words are someone else's, said again on purpose.
                let own: String = speech.split(['“', '”']).step_by(2).collect();
                for line in stock.iter().filter(|l| own.contains(*l)) {
                    if said[i.saturating_sub(8)..i].iter().any(|b| b.contains(line)) {
                        repeats.push(format!("speech {i}: {line}"));
                    }
                }
            }
            assert!(repeats.is_empty(), "seed {seed}: {repeats:?}\n{}", said.join("\n"));
        }
    }

    #[test]
    fn a_speaker_picks_the_lines_not_heard_lately_else_the_one_heard_longest_ago() {
        let points = ["{t} pays for itself", "{t} creates jobs", "{t} is overdue"];
        let fill = |p: &str| p.replace("{t}", "rail");
        let heard = |recent: &'static str| Heard { last: None, recent: recent.into(), first: false };
        // A line said at the start of a sentence, with its capital, is heard too.
        let recent = "Ann: Rail pays for itself.\nBo: I doubt rail is overdue.";
        assert_eq!(heard(recent).unheard(&points, fill), vec!["{t} creates jobs"]);
        let recent = "Ann: rail is overdue.\nBo: rail creates jobs.\nAnn: Rail pays for itself.";
        assert_eq!(heard(recent).unheard(&points, fill), vec!["{t} is overdue"]);
        assert_eq!(heard("").unheard(&points, fill), points.to_vec());
    }

    #[test]
    fn chance_draws_what_random_bool_draws() {
        for p in [0.0, 1e-9, 0.3, 0.5, 0.6, 0.7, 0.999_999, 1.0] {
            let (mut a, mut b) = (ChaCha8Rng::seed_from_u64(11), ChaCha8Rng::seed_from_u64(11));
            for _ in 0..2000 {
                assert_eq!(chance(&mut a, p), b.random_bool(p), "p = {p}");
            }
            assert_eq!(a.random::<u64>(), b.random::<u64>(), "the same draws consumed at p = {p}");
        }
    }

    #[test]
    fn word_limits_hold_and_gestures_close() {
        assert_eq!(limit_words("one two three", 5), "one two three");
        assert_eq!(limit_words("*waves the flag* then talks a lot", 2), "*waves the*");
        assert_eq!(limit_words("a b c, d", 3), "a b c.");
    }
}
