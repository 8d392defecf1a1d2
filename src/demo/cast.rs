//! The demo model's cast: who each agent is to it (a stance on the topic, a voice picked from its
//! name and description) and the speech, descriptions and topic it writes for them. Each
//! method's folder adds how the cast answers that method's calls (`demo.rs`).

use rand::seq::IndexedRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::scenario::{Scenario, Stance};

use super::topic::{key_phrase, lean, Topic};

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

const FOR_POINTS: [&str; 6] = [
    "{topic} is exactly the bold move we need",
    "{topic} will create jobs and pay for itself",
    "the critics of {topic} said the same about every great project",
    "{topic} puts us ahead instead of behind",
    "we should go further and faster on {topic}",
    "{topic} is a promise to the next generation",
];
const AGAINST_POINTS: [&str; 6] = [
    "{topic} is a costly fantasy",
    "{topic} will bury taxpayers in debt",
    "nobody has shown {topic} can work at this scale",
    "{topic} solves the wrong problem",
    "we should fix what we have before dreaming about {topic}",
    "{topic} is a headline, not a plan",
];
const NEUTRAL_POINTS: [&str; 6] = [
    "{topic} has real benefits and real costs",
    "we need evidence before we commit to {topic}",
    "{topic} could work if the details are right",
    "both sides are overselling {topic}",
    "the question is who pays for {topic}, and when",
    "{topic} deserves a pilot before a promise",
];
/// Claims about a school's rules and days: pupils, teachers and families, not jobs and taxes.
const SCHOOL_FOR: [&str; 6] = [
    "{topic} gives pupils more time to learn",
    "{topic} is what good schools are already doing",
    "teachers have asked for {topic} for years",
    "{topic} makes the school day calmer and fairer",
    "we should try {topic} this year, not someday",
    "{topic} helps the pupils who struggle most",
];
const SCHOOL_AGAINST: [&str; 6] = [
    "{topic} takes a choice away from families",
    "{topic} lands on teachers who are already stretched",
    "nobody has shown {topic} helps pupils learn",
    "{topic} solves the wrong problem",
    "we should fix the basics before {topic}",
    "{topic} sounds simple and will not be",
];
const SCHOOL_NEUTRAL: [&str; 6] = [
    "{topic} could help some pupils and hurt others",
    "we need to hear from teachers and parents before {topic}",
    "{topic} could work if the school plans it well",
    "both sides are overselling {topic}",
    "the question is who carries {topic} day to day",
    "{topic} deserves a trial term before a rule",
];
/// Claims about anything else (a technology, a trend, a right): no budgets, no building.
const GENERAL_FOR: [&str; 6] = [
    "{topic} is exactly the change we need",
    "{topic} makes life better for most people",
    "the critics of {topic} said the same about every change that worked",
    "{topic} puts us ahead instead of behind",
    "we should go further and faster on {topic}",
    "{topic} is a promise to the next generation",
];
const GENERAL_AGAINST: [&str; 6] = [
    "{topic} is a fantasy",
    "{topic} does more harm than good",
    "nobody has shown {topic} can work",
    "{topic} solves the wrong problem",
    "we should fix what we have before dreaming about {topic}",
    "{topic} is a headline, not a plan",
];
const GENERAL_NEUTRAL: [&str; 6] = [
    "{topic} has real benefits and real costs",
    "we need evidence before we commit to {topic}",
    "{topic} could work if the details are right",
    "both sides are overselling {topic}",
    "the question is who gains from {topic}, and who loses",
    "{topic} deserves a trial before a promise",
];
const SERIOUS_FOR: [&str; 4] = [
    "{topic} is a hard choice, but the right one",
    "walking away from {topic} would cost more lives than it saves",
    "{topic} keeps a commitment that others rely on",
    "{topic} is how we stand by people in danger",
];
const SERIOUS_AGAINST: [&str; 4] = [
    "{topic} risks more lives than it saves",
    "{topic} could deepen the suffering it means to end",
    "nobody has shown that {topic} brings peace closer",
    "{topic} needs limits and conditions we have not set",
];
const SERIOUS_NEUTRAL: [&str; 4] = [
    "{topic} deserves care, not slogans",
    "we owe the people affected by {topic} clear facts first",
    "the costs of {topic} are counted in lives, on every side",
    "{topic} needs conditions that protect civilians",
];
/// Illness, loss and other harm at home: sober, and nothing about lives on every side or peace.
const CARE_FOR: [&str; 4] = [
    "{topic} needs patience and people who listen",
    "what helps most with {topic} is steady, quiet support",
    "we should start from what the people affected by {topic} ask for",
    "{topic} is a reason to act with care, and soon",
];
const CARE_AGAINST: [&str; 4] = [
    "rushing {topic} could hurt the people it means to help",
    "{topic} needs more care than a quick rule gives",
    "nobody should be left to carry {topic} alone, and a rule will not change that",
    "good intentions about {topic} are not enough without listening first",
];
const CARE_NEUTRAL: [&str; 4] = [
    "{topic} deserves care, not slogans",
    "we owe the people affected by {topic} clear facts first",
    "{topic} is best met with honesty and time",
    "{topic} needs the views of those it touches most",
];
/// Answers to someone in the cast, who said `{quote}`.
const REPLIES_DISAGREE: [&str; 4] = [
    "{name} says {quote}, and that is wrong",
    "{name}, you say {quote}; I could not disagree more",
    "I heard {name} say {quote}, and no",
    "{name} says {quote}, but that has it backwards",
];
const REPLIES_AGREE: [&str; 3] =
    ["{name} is right to say {quote}", "{name} says {quote}, and I agree", "like {name}, I say {quote}"];
/// Words that only frame an answer to someone (see `Cast::answer`): not what is taken up.
const FRAME_WORDS: &str = "says say asks heard wrong agree disagree backwards answer question straight deserves matters seriously right differently hear puts way point tell stand motion before";
/// Answers to a question from outside the cast (the class, the audience, the moderator).
const ANSWERS_QUESTION: [&str; 3] = [
    "{who} asks {quote}, and here is my answer",
    "to the question {quote}, my answer is clear",
    "{who} asks {quote}, and it deserves a straight answer",
];
/// Answers to a remark from outside the cast.
const ANSWERS_AGREE: [&str; 2] = ["{who} says {quote}, and I agree", "{who} is right: {quote}, and more"];
const ANSWERS_DISAGREE: [&str; 2] =
    ["{who} says {quote}, but I see it differently", "{who} says {quote}; I hear that, and I disagree"];
const ANSWERS_OPEN: [&str; 2] =
    ["{who} says {quote}, and that matters", "{who} puts it this way, {quote}, and I take that seriously"];

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

    /// A noun phrase for the topic, to say mid-sentence.
    pub(crate) fn short_topic(&self, topic: &str) -> String {
        self.topic(topic).noun
    }

    /// What `me` says back to the last message (`name` said `text`): their name or who they
    /// are, a few of their words in quotes, and whether `me` agrees, as the stances (or, from
    /// outside the cast, the words) say. None when there is nothing to take up.
    fn answer(
        &self,
        me: &Person,
        name: &str,
        text: &str,
        noun: &str,
        most: usize,
        rng: &mut ChaCha8Rng,
    ) -> Option<(String, String)> {
        // What they said of their own: not a voice's stock opener or closer, not the names and
        // verbs of the answer they gave someone else.
        let mut own = text.to_string();
        for voice in VOICES.iter().chain([&SOBER]) {
            for line in voice.openers.iter().chain(voice.closers) {
                own = own.replace(*line, "");
            }
        }
        let mut ignore: Vec<String> = FRAME_WORDS.split(' ').map(String::from).collect();
        for person in self.people.iter().map(|p| p.name.as_str()).chain([name]) {
            ignore.extend(super::topic::content_words(person));
        }
        let noun_words = noun.split_whitespace().count();
        let phrase = key_phrase(&own, name, &ignore, most + noun_words)?;
        let asked = phrase.ends_with('?');
        // The clause as they said it (`key_phrase` never hands back one cut short).
        let quote = format!("“{phrase}”");
        let frames: &[&str] = match self.person(name) {
            _ if asked => &ANSWERS_QUESTION,
            Some(other) if (other.stance - me.stance).abs() > 0.6 => &REPLIES_DISAGREE,
            Some(_) => &REPLIES_AGREE,
            None => match lean(&phrase) {
                Some(l) if (l - me.stance).abs() > 0.6 => &ANSWERS_DISAGREE,
                Some(_) => &ANSWERS_AGREE,
                None => &ANSWERS_OPEN,
            },
        };
        let frame = frames.choose(rng).copied().unwrap_or("{quote}");
        let fill =
            |f: &str| f.replace("{name}", name).replace("{who}", &who(name)).replace("{quote}", &quote);
        // The short form, where words are few: agreement alone, or the question alone.
        let short = match self.person(name) {
            _ if asked => "to the question {quote}",
            Some(other) if (other.stance - me.stance).abs() > 0.6 => "{name} is wrong",
            Some(_) => "{name} is right",
            None => "{who} has a point",
        };
        Some((fill(frame), fill(short)))
    }

    /// Whom `speaker` puts the topic to: the cast but the speaker (a director who opens the show
    /// does not address itself), or the whole cast when that leaves no one.
    fn addressed_by(&self, speaker: &str) -> Vec<&str> {
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
        if self.chinese {
            return self.speech_zh(me, topic, word_limit, heard, rng);
        }
        let last = heard.last;
        let topic = self.topic(topic);
        use super::topic::Kind;
        let points: &[&str] = match (topic.serious, me.stance) {
            (false, s) => match (topic.kind, s) {
                (Kind::Public, s) if s > 0.33 => &FOR_POINTS,
                (Kind::Public, s) if s < -0.33 => &AGAINST_POINTS,
                (Kind::Public, _) => &NEUTRAL_POINTS,
                (Kind::School, s) if s > 0.33 => &SCHOOL_FOR,
                (Kind::School, s) if s < -0.33 => &SCHOOL_AGAINST,
                (Kind::School, _) => &SCHOOL_NEUTRAL,
                (Kind::General, s) if s > 0.33 => &GENERAL_FOR,
                (Kind::General, s) if s < -0.33 => &GENERAL_AGAINST,
                (Kind::General, _) => &GENERAL_NEUTRAL,
            },
            (true, s) if s > 0.33 && topic.war => &SERIOUS_FOR,
            (true, s) if s < -0.33 && topic.war => &SERIOUS_AGAINST,
            (true, _) if topic.war => &SERIOUS_NEUTRAL,
            (true, s) if s > 0.33 => &CARE_FOR,
            (true, s) if s < -0.33 => &CARE_AGAINST,
            (true, _) => &CARE_NEUTRAL,
        };
        let voice = if topic.serious { &SOBER } else { me.voice };
        let gesture = voice.gestures.choose(rng).copied().filter(|_| chance(rng, 0.6));
        let opener = voice.openers.choose(rng).copied().unwrap_or("");
        let answered = last
            .filter(|(name, _)| !name.eq_ignore_ascii_case(&me.name))
            // Fewer words quoted where a speech has few.
            .and_then(|(name, text)| {
                self.answer(me, name, text, &topic.noun, if word_limit < 30 { 4 } else { 7 }, rng)
            });
        let reply = answered.as_ref().map(|a| a.0.clone());
        let short = answered.as_ref().map(|a| a.1.clone());
        let point = topic.fill(heard.unheard(points, |p| topic.fill(p)).choose(rng).copied().unwrap_or(""));
        let closer = voice.closers.choose(rng).copied();
        // Drop the trimmings, least important first, until the message fits the word limit:
        // the answer to the last speaker goes last but one.
        let body = match &reply {
            Some(r) => format!("{}: {point}.", capitalize(r)),
            None => format!("{}.", capitalize(&point)),
        };
        let full = match &reply {
            Some(r) => format!("{opener} {r}: {point}."),
            None => format!("{opener} {point}."),
        };
        let brief = match &short {
            Some(r) => format!("{}: {point}.", capitalize(r)),
            None => format!("{}.", capitalize(&point)),
        };
        let drafts = [
            [gesture, Some(full.as_str()), closer],
            [gesture, Some(full.as_str()), None],
            [None, Some(full.as_str()), None],
            [None, Some(body.as_str()), None],
            [None, Some(brief.as_str()), None],
            [None, Some(&*format!("{}.", capitalize(&point))), None],
        ];
        let fits = |d: &[Option<&str>; 3]| {
            d.iter().flatten().map(|p| p.split_whitespace().count()).sum::<usize>() <= word_limit as usize
        };
        let chosen = drafts.iter().find(|d| fits(d)).unwrap_or(&drafts[drafts.len() - 1]);
        let text: Vec<&str> = chosen.iter().flatten().copied().collect();
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
        if self.chinese {
            return self.describe_zh(subject, topic, rng);
        }
        let person = self.person(subject);
        let role = person.map_or("participant".to_string(), |p| {
            if p.role.is_empty() {
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
        let side = match person.map(|p| p.stance) {
            Some(s) if s > 0.33 => "who firmly believes in",
            Some(s) if s < -0.33 => "who deeply doubts",
            _ => "with an open mind about",
        };
        let habit = HABITS.choose(rng).copied().unwrap_or(HABITS[0]);
        limit_words(
            &format!(
                "{subject}, you are {article} {a}, {b} {role} {side} {}. {habit}",
                self.short_topic(topic)
            ),
            word_limit,
        )
    }

    pub(crate) fn specify(
        &self,
        topic: &str,
        speaker: &str,
        word_limit: u32,
        rng: &mut ChaCha8Rng,
    ) -> String {
        let names = self.addressed_by(speaker);
        if self.chinese {
            return self.specify_zh(topic, &names);
        }
        let t = self.topic(topic);
        let put = if t.question {
            Some(format!("{}, the question before us: {}", names.join(", "), t.clause))
        } else if t.noun == "what is proposed" || t.serious {
            Some(format!("{}, the motion before us: {}.", names.join(", "), t.clause))
        } else {
            None
        };
        let text = if let Some(put) = put {
            // The request to answer only where the words allow it.
            let full = format!("{put} Tell us where you stand, and why.");
            let fits = |s: &str| s.split_whitespace().count() <= word_limit as usize;
            if fits(&full) {
                full
            } else if fits(&put) {
                put
            } else {
                // A topic too long to repeat within the limit is not cut off mid-sentence.
                format!(
                    "{}, you have the proposal before you: tell us where you stand on it, and why.",
                    names.join(", ")
                )
            }
        } else {
            let frames = [
                "tell us how {topic} would work, who gains, and who loses",
                "say what {topic} would cost, and who would pay for it",
                "explain what {topic} should look like in ten years, and what you would do first",
            ];
            let frame = t.fill(frames.choose(rng).copied().unwrap_or(""));
            format!("{}, {frame}.", names.join(", "))
        };
        limit_words(&text, word_limit)
    }
}

/// What a speaker heard: the last speech (who, what), and the end of the conversation as its
/// prompt gives it (a few thousand bytes, so reading it costs the same in a long run).
#[derive(Clone, Copy, Default)]
pub(crate) struct Heard<'a> {
    pub last: Option<(&'a str, &'a str)>,
    pub recent: &'a str,
}

/// How much of the end of a prompt the demo reads for what was said lately: some fifteen speeches.
const RECENT_BYTES: usize = 4096;

impl<'a> Heard<'a> {
    /// The last speech from a cue, and the end of `request`'s last message.
    pub(crate) fn of(request: &'a crate::model::ChatRequest, last: Option<(&'a str, &'a str)>) -> Self {
        let text = request.messages.last().map_or("", |m| m.content.as_str());
        let mut from = text.len().saturating_sub(RECENT_BYTES);
        while !text.is_char_boundary(from) {
            from += 1;
        }
        Heard { last, recent: &text[from..] }
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
        let heard = |recent| Heard { last: None, recent };
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
