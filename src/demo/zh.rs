//! The demo model in Chinese, for a scenario whose `language` asks for it: the same listening as
//! in English (a speech answers the last speaker by name and takes up a clause of their own
//! words, agreeing or not as the stances say; a question from outside the cast is answered), the
//! same stances, a plain register for every voice, and the topic quoted whole, never cut into a
//! sentence. The director's lines, the opening's topic and descriptions likewise.

use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use super::cast::{fixed_part, Cast, Heard, Person, Side};
use super::topic::{Form, Lead, Topic};

/// Whether a scenario's `language` asks for Chinese ("Chinese", "zh-Hans", "简体中文", ...).
pub(crate) fn asks_for_chinese(language: &str) -> bool {
    let lower = language.to_ascii_lowercase();
    lower.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| matches!(w, "chinese" | "mandarin" | "zh"))
        || ["中文", "汉语", "漢語", "普通话", "普通話", "简体", "繁體", "华语", "華語"]
            .iter()
            .any(|w| language.contains(w))
}

// The claims a Chinese speech makes, as `FOR_POINTS` and the rest in English: `{it}` the topic's
// short name, `{who}` someone it names, `{a}` and `{b}` the options of a choice.
const FOR: [&str; 8] = [
    "{it}能给{who}带来实实在在的好处",
    "{who}已经等得够久了",
    "对{it}的担心，比起{who}能得到的好处，其实很小",
    "我见过这样的改变能为{who}做些什么",
    "拒绝它，就是又一次让{who}失望",
    "支持{it}的理由，要从{who}说起",
    "{it}会让{who}得到更公平的对待",
    "只要认真听听{who}的声音，答案就是行动",
];
const AGAINST: [&str; 8] = [
    "{it}对{payer}要求太多了",
    "没有人证明过{it}真的能帮到{who}",
    "代价最后总会落到{payer}身上",
    "{it}解决的不是真正的问题",
    "我们应该先为{who}把基础的事情做好",
    "听起来简单，可对{who}来说一点也不简单",
    "{who}应该得到比仓促决定更好的东西",
    "{it}的成本会压在{payer}肩上",
];
const NEUTRAL: [&str; 8] = [
    "{it}可能帮到{who}，也可能伤到他们，关键看细节",
    "做决定之前，我们应该先听听{who}怎么说",
    "先小范围试行，比任何演讲都更能说明问题",
    "双方都把自己的理由说得太绝对了",
    "真正的考验是{it}对{who}意味着什么",
    "我要看证据，不要口号",
    "如果{who}真正有发言权，这件事也许能成",
    "细节比标题更重要",
];
const CHOICE: [&str; 6] = [
    "{a}能为{who}做得更多",
    "{who}从{a}得到的，会比从{b}得到的多",
    "{b}看起来更省事，但{a}更长久",
    "问问{who}，大多数人会选{a}",
    "{b}会让{who}吃亏",
    "同样的钱和时间，花在{a}上更值得",
];
const CHOICE_OPEN: [&str; 6] = [
    "{a}和{b}会以不同的方式帮到{who}",
    "答案也许是两者兼顾",
    "我们应该问问{who}，他们真正会用哪一个",
    "没有计划的话，哪一个都行不通",
    "在{a}和{b}之间怎么选，要看{who}",
    "{who}需要把两边的代价放在一起比较",
];
const OPEN_FOR: [&str; 4] = [
    "任何好的答案都要先考虑{who}",
    "最大胆的答案对{who}最有利",
    "我们应该现在就行动，并问问{who}什么办法管用",
    "再等下去，{who}付出的代价最大",
];
const OPEN_AGAINST: [&str; 4] = [
    "明智的答案是慢一点，先保护好{who}",
    "第一条答案是不要伤害{who}",
    "忽视{who}的答案都是错的",
    "仓促的答案只会让{who}去收拾残局",
];
const OPEN_NEUTRAL: [&str; 4] = [
    "诚实的答案取决于{who}",
    "给出答案之前，我们需要{who}提供的事实",
    "好的答案不止一个",
    "最好的答案可能因地而异",
];
const SERIOUS: [&str; 4] = [
    "这件事需要谨慎，不需要口号",
    "我们首先欠{who}一个清楚的事实",
    "每一方付出的代价都是生命",
    "任何决定都必须有保护{who}的条件",
];
/// How a character description ends (as `HABITS` in English).
const HABITS_ZH: [&str; 5] = [
    "你从不放过表达观点的机会。",
    "你对每个论点都正面回应。",
    "你的每个主张都有例子支撑。",
    "你认真倾听，善于抓住对方论证的漏洞。",
    "你总是直截了当地说出自己会先做什么。",
];
/// Answers to someone in the cast who said "{q}".
const DISAGREE: [&str; 4] = [
    "{name}说“{q}”，我不同意",
    "{name}，你说“{q}”，这一点我无法认同",
    "我听到{name}说“{q}”，可事实恰恰相反",
    "{name}说“{q}”，这把问题说反了",
];
const AGREE: [&str; 3] = ["{name}说得对：“{q}”", "{name}说“{q}”，我同意", "和{name}一样，我也认为“{q}”"];
/// Answers to a question (a host's, the class's, another debater's).
const ANSWER_QUESTION: [&str; 2] = ["{name}问我怎么看，我的回答是", "{name}，这个问题问得好，我的回答是"];
/// Answers to someone near `me` but not on its side (a neutral and a supporter).
const HALF: [&str; 2] = ["{name}说“{q}”，这一点我只同意一半", "{name}说“{q}”，有道理，但还不够"];
/// Answers to a remark from outside the cast (the class, the audience, the moderator).
const ANSWER_REMARK: [&str; 2] = ["{name}说“{q}”，这一点很重要", "{name}提到“{q}”，我认真听了"];
/// A plain register's openings.
const OPENERS: [&str; 5] = ["", "说实话，", "我想说的是，", "请大家想一想，", "我的看法很简单，"];
/// Words of a question whose answer is not yes or no.
const ZH_OPEN: [&str; 8] = ["为什么", "怎么", "如何", "什么", "哪", "谁", "多少", "怎样"];
/// Words that join a clause to the one before: a quote does not start on one.
const JOINS: [&str; 10] = ["而且", "但是", "可是", "所以", "因为", "并且", "或者", "然后", "不过", "而"];
/// Words that only frame an answer to someone: a clause with one of them is not taken up.
const FRAMES: [&str; 9] = ["同意", "认同", "相反", "说反", "说得对", "回答", "认真听了", "很重要", "问得好"];

/// The clauses of `text` a speaker can take up: split at punctuation, what they quoted of others
/// left out (so each is a piece of the text as written), without framing words or a name (in
/// Chinese words, Latin letters are a name too: "Debate Moderator").
fn clauses<'a>(text: &'a str, names: &[&str]) -> Vec<&'a str> {
    let chinese = super::topic::other_script(text);
    let mut out = Vec::new();
    // A piece that runs up to a quote or on from one is part of a sentence around the quote,
    // not a clause of its own ("…的成本会压在…" after a quoted topic).
    let (mut start, mut quoted, mut after_quote) = (0, false, false);
    for (at, c) in text.char_indices() {
        // Sentences and their halves at a colon or semicolon, not at a comma: the part after a
        // comma is half a sentence ("会比从地铁得到的多").
        let stop =
            matches!(c, '。' | '！' | '？' | '；' | '：' | '.' | '!' | '?' | ';' | ':' | '“' | '”' | '*');
        if stop {
            if !quoted && !after_quote && c != '“' {
                out.push(text[start..at].trim());
            }
            match c {
                '“' => quoted = true,
                '”' => quoted = false,
                _ => {}
            }
            after_quote = c == '”';
            start = at + c.len_utf8();
        }
    }
    if !quoted && !after_quote {
        out.push(text[start..].trim());
    }
    out.into_iter()
        // A clause is taken up from after a speaker's opening words ("说实话，") and a word
        // that joined it to the one before.
        .map(|c| OPENERS.iter().filter(|o| !o.is_empty()).find_map(|o| c.strip_prefix(o)).unwrap_or(c))
        .map(|c| JOINS.iter().find_map(|j| c.strip_prefix(j)).unwrap_or(c))
        .filter(|c| (4..=28).contains(&c.chars().count()))
        .filter(|c| !FRAMES.iter().any(|f| c.contains(f)) && !names.iter().any(|n| c.contains(n)))
        .filter(|c| !(chinese && c.chars().any(|ch| ch.is_ascii_alphabetic())))
        .collect()
}

/// The page's words for the voices from outside the cast that a scenario names in English: a
/// Chinese speech names them so, not in English.
const ROLES: [(&str, &str); 9] = [
    // The handoff debate's three sides, whose English names are what its seed reads.
    ("Proponent", "正方"),
    ("Opponent", "反方"),
    ("Neutral", "中立方"),
    ("Audience member", "观众"),
    ("Debate Moderator", "辩论主持人"),
    ("Moderator", "主持人"),
    ("Host", "主持人"),
    ("Teacher", "老师"),
    ("Student", "学生"),
];

/// How a Chinese sentence names `name`: a role's Chinese word, a person's name as written.
pub(crate) fn name_zh(name: &str) -> &str {
    ROLES.iter().find(|(en, _)| en.eq_ignore_ascii_case(name.trim())).map_or(name, |(_, zh)| zh)
}

impl Topic {
    /// The topic's short name in a Chinese sentence.
    pub(crate) fn it_zh(&self) -> String {
        match &self.form {
            Form::Phrase(p) => format!("“{p}”"),
            Form::Motion(..) | Form::Statement => "这个议题".into(),
            Form::YesNo => "这个提议".into(),
            Form::Open => "这个问题".into(),
            Form::Either(_) => "这个选择".into(),
        }
    }

    /// The topic in a Chinese sentence the first time it is named: whole, in quotes.
    pub(crate) fn named_zh(&self) -> String {
        match &self.form {
            Form::Phrase(_) => self.it_zh(),
            _ => format!("“{}”", self.whole),
        }
    }

    /// The two options in a Chinese sentence, or "第一个选项" and "第二个选项".
    pub(crate) fn options_zh(&self) -> Option<(String, String)> {
        match &self.form {
            Form::Either(Some((a, b))) if self.foreign => Some((a.clone(), b.clone())),
            Form::Either(Some((a, b))) => Some((format!("“{a}”"), format!("“{b}”"))),
            Form::Either(None) => Some(("第一个选项".into(), "第二个选项".into())),
            _ => None,
        }
    }
}

/// Where `side` stands on `topic`, in Chinese: the topic named whole when `first`.
fn stance_zh(topic: &Topic, side: Side, first: bool, who: &str) -> String {
    let quoted = format!("“{}”", topic.whole);
    match &topic.form {
        Form::Phrase(_) => {
            let it = topic.it_zh();
            match side {
                Side::For => format!("我支持{it}"),
                Side::Against => format!("我反对{it}"),
                Side::Open => format!("对{it}，我持开放态度，但还没有被说服"),
            }
        }
        Form::Motion(lead, clause) if first && topic.foreign => {
            let (yes, no, unsure) = match lead {
                Lead::Would => ("我会", "我不会", "我还不确定是否会"),
                Lead::Believe => ("我认为", "我不认为", "我还不能确定"),
                Lead::Regret => ("我后悔", "我并不后悔", "我还说不清是否后悔"),
                Lead::Support => ("我支持", "我不支持", "我还不确定是否支持"),
                Lead::Oppose => ("我反对", "我不反对", "我还不确定是否反对"),
            };
            let head = match side {
                Side::For => yes,
                Side::Against => no,
                Side::Open => unsure,
            };
            format!("{head}{clause}")
        }
        Form::Either(_) => {
            let (a, b) = topic.options_zh().unwrap_or_default();
            let lead = if first && matches!(topic.form, Form::Either(None)) {
                format!("{quoted}这个问题有两个选项，")
            } else {
                String::new()
            };
            match side {
                Side::For => format!("{lead}我选{a}，不选{b}"),
                Side::Against => format!("{lead}我选{b}，不选{a}"),
                Side::Open => format!("{lead}我觉得{a}和{b}各有道理"),
            }
        }
        Form::YesNo => {
            let answer = match side {
                Side::For => "我的回答是肯定的",
                Side::Against => "我的回答是否定的",
                Side::Open => "我的回答是要看情况",
            };
            if first {
                format!("对于{quoted}这个问题，{answer}")
            } else {
                answer.to_string()
            }
        }
        Form::Open if first => format!("对于{quoted}这个问题，我的回答要从{who}说起"),
        Form::Open => format!("我的回答要从{who}说起"),
        _ if first => match side {
            Side::For => format!("我赞同{quoted}这个说法"),
            Side::Against => format!("我不赞同{quoted}这个说法"),
            Side::Open => format!("{quoted}这个说法，我只同意一半"),
        },
        _ => match side {
            Side::For => "我支持这个议题".into(),
            Side::Against => "我反对这个议题".into(),
            Side::Open => "对这个议题，我还在权衡".into(),
        },
    }
}

impl Cast {
    /// `me`'s speech on `topic` in Chinese, answering `last` (who spoke last, and what they said).
    pub(crate) fn speech_zh(
        &self,
        me: &Person,
        topic: &Topic,
        word_limit: u32,
        heard: Heard,
        rng: &mut ChaCha8Rng,
    ) -> String {
        let side = Side::of(me.stance);
        let points: &[&str] = match (&topic.form, topic.serious, side) {
            (Form::Either(_), _, Side::Open) => &CHOICE_OPEN,
            (Form::Either(_), _, _) => &CHOICE,
            (Form::Open, false, Side::For) => &OPEN_FOR,
            (Form::Open, false, Side::Against) => &OPEN_AGAINST,
            (Form::Open, false, Side::Open) => &OPEN_NEUTRAL,
            (_, true, _) => &SERIOUS,
            (_, false, Side::For) => &FOR,
            (_, false, Side::Against) => &AGAINST,
            (_, false, Side::Open) => &NEUTRAL,
        };
        let who = topic.gainers().choose(rng).map_or("大家", |p| p.zh).to_string();
        let payer = topic.payers().choose(rng).map_or("大家", |p| p.zh).to_string();
        let (a, b) = match (side, topic.options_zh()) {
            (Side::Against, Some((a, b))) => (b, a),
            (_, Some(ab)) => ab,
            _ => Default::default(),
        };
        let point = heard
            .unheard(points, fixed_part)
            .choose(rng)
            .copied()
            .unwrap_or("")
            // After a stance that named the topic, "它".
            .replace("{it}", "它")
            .replace("{who}", &who)
            .replace("{payer}", &payer)
            .replace("{a}", &a)
            .replace("{b}", &b);
        let last = heard.last;
        let opener = heard.unheard(&OPENERS, |o| o.to_string()).choose(rng).copied().unwrap_or("");
        let names: Vec<&str> = self.people.iter().map(|p| p.name.as_str()).collect();
        let reply = last.filter(|(name, _)| !name.eq_ignore_ascii_case(&me.name)).and_then(|(name, text)| {
            let mut known = names.clone();
            known.push(name);
            let called = name_zh(name);
            // A question is answered as one, without quoting it back: yes or no where it asks
            // for one, then the reason.
            if text.trim_end().ends_with(['？', '?']) {
                let yes_no = !ZH_OPEN.iter().any(|w| text.contains(w))
                    && (text.contains('吗')
                        || text.contains("是否")
                        || text.contains("是不是")
                        || text.contains("会不会"));
                let lean = crate::demo::topic::lean(text).unwrap_or(0.0);
                let tail = match side {
                    Side::For if lean < 0.0 => "否定的",
                    Side::Against if lean < 0.0 => "肯定的",
                    Side::For => "肯定的",
                    Side::Against => "否定的",
                    Side::Open => "要看情况",
                };
                let frame =
                    ANSWER_QUESTION.choose(rng).copied().unwrap_or("{name}").replace("{name}", called);
                if yes_no {
                    return Some((format!("{frame}{tail}"), format!("我的回答是{tail}")));
                }
                let full = frame.trim_end_matches("我的回答是").trim_end_matches(['：', '，']).to_string();
                return Some((full.clone(), full));
            }
            let (held, pieces) = topic.held(text);
            let q =
                Topic::restore(clauses(&held, &known).pop()?, &pieces).replace('“', "‘").replace('”', "’");
            let q = q.as_str();
            // The frames, and where words are few the answer without the quote: disagreeing with
            // a castmate far from `me`, agreeing with one near, hearing someone outside the cast.
            let (frames, shorts): (&[&str], &[&str]) = match self.person(name) {
                Some(other) if (0.6..1.2).contains(&(other.stance - me.stance).abs()) => (
                    &HALF,
                    &["{name}只说对了一半", "我只部分同意{name}", "{name}说对了一部分", "{name}也不全错"],
                ),
                Some(other) if (other.stance - me.stance).abs() > 0.6 => (
                    &DISAGREE,
                    &["{name}，我不同意", "我不能认同{name}", "{name}把问题说反了", "{name}没说到点子上"],
                ),
                Some(_) => (&AGREE, &["{name}说得对", "我和{name}站在一起", "{name}说到点子上了"]),
                None => (&ANSWER_REMARK, &["{name}，我听到了", "{name}说的有道理", "{name}提醒得对"]),
            };
            let frame = frames.choose(rng).copied().unwrap_or("{q}");
            let short = heard.unheard(shorts, fixed_part).choose(rng).copied().unwrap_or(shorts[0]);
            let fill = |f: &str| f.replace("{name}", called).replace("{q}", q);
            Some((fill(frame), fill(short)))
        });
        // The topic whole in a speaker's first speech; a short motion's own clause every time.
        let short_motion = matches!(&topic.form, Form::Motion(_, c) if c.chars().count() <= 16);
        let stance_full = stance_zh(topic, side, heard.first || short_motion, &who);
        let stance_short = stance_zh(topic, side, false, &who);
        // The seeds' limits are in English words; a Chinese sentence says as much in about three
        // characters a word (a name in Latin letters counts as one).
        // At most as much as an English speech of the demo's.
        let most = (word_limit.min(super::cast::SPEECH_WORDS) as usize * 3).max(30);
        let size = |s: &str| {
            let latin = s.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).count();
            s.chars().filter(|c| !c.is_ascii_alphanumeric()).count() + latin
        };
        let drafts: Vec<String> = match &reply {
            Some((r, short)) => vec![
                format!("{opener}{r}。{stance_full}：{point}。"),
                format!("{r}。{stance_full}：{point}。"),
                format!("{r}。{stance_short}：{point}。"),
                format!("{short}。{stance_short}：{point}。"),
                format!("{stance_short}：{point}。"),
                format!("{stance_short}。"),
            ],
            None => vec![
                format!("{opener}{stance_full}：{point}。"),
                format!("{stance_full}：{point}。"),
                format!("{stance_short}：{point}。"),
                format!("{stance_short}。"),
            ],
        };
        let fallback = drafts.last().cloned().unwrap_or_default();
        drafts.into_iter().find(|d| size(d) <= most).unwrap_or(fallback)
    }

    /// The director's question to `next` about `topic`, one the class has not heard lately.
    pub(crate) fn director_prompt_zh(
        &self,
        next: &str,
        topic: &Topic,
        heard: &Heard,
        nobody_spoke: bool,
        rng: &mut ChaCha8Rng,
    ) -> String {
        let it = topic.it_zh();
        let who = topic.gainers().choose(rng).map_or("大家", |p| p.zh);
        let mut lines = vec![
            "{next}，{it}对{who}意味着什么？",
            "{next}，说实话：到底谁会从中受益？",
            "{next}，你会对不同意你的{who}说些什么？",
            "{next}，反对你的最有力的理由是什么？",
            "{next}，什么能让你改变主意？",
            "{next}，如果由你决定，你会先做什么？",
            "{next}，谁来买单，谁会得益？",
            "{next}，其他人有没有说对的地方？",
            "{next}，你的邻居会怎么看{it}？",
        ];
        // Nobody has said anything to get right yet.
        if nobody_spoke {
            lines.retain(|l| !l.contains("其他人"));
        }
        let fill = |l: &str| l.replace("{next}", name_zh(next)).replace("{it}", &it).replace("{who}", who);
        let line = heard.not_asked(&lines, fill).choose(rng).copied().unwrap_or(lines[0]);
        fill(line)
    }

    /// The director's closing words: a moderator's, or a show host's, leaving the class with a
    /// clause of the last words said.
    pub(crate) fn director_summary_zh(
        &self,
        topic: &Topic,
        said: Option<(&str, &str)>,
        moderator: bool,
        nobody_spoke: bool,
        rng: &mut ChaCha8Rng,
    ) -> String {
        let it = if nobody_spoke { topic.named_zh() } else { topic.it_zh() };
        let last_words = self
            .taken_up_zh(topic, said)
            .map_or(String::new(), |(name, q)| format!("{name}最后说的“{q}”，留给大家回去想一想。"));
        if moderator {
            return format!("关于{it}，各方的理由我们都听到了。{last_words}决定权在你们。谢谢大家，晚安。");
        }
        let lines = [
            format!("今晚的节目就到这里：{it}，由最该懂行的人讲给你听。{last_words}谢谢各位，晚安！"),
            format!("节目到此结束。关于{it}，讨论还会继续。{last_words}谢谢大家，晚安！"),
        ];
        lines.choose(rng).cloned().unwrap_or_default()
    }

    /// A clause of what `said` (who, what) worth taking up, with the name a Chinese sentence
    /// gives its speaker: not a question, not the topic cut into pieces.
    fn taken_up_zh(&self, topic: &Topic, said: Option<(&str, &str)>) -> Option<(String, String)> {
        let (name, text) = said?;
        if text.trim_end().ends_with(['？', '?']) {
            return None;
        }
        let mut names: Vec<&str> = self.people.iter().map(|p| p.name.as_str()).collect();
        names.push(name);
        let (held, pieces) = topic.held(text);
        let q = Topic::restore(clauses(&held, &names).pop()?, &pieces).replace('“', "‘").replace('”', "’");
        Some((name_zh(name).to_string(), q))
    }

    /// The director's remark after `who` spoke, one the class has not heard lately.
    pub(crate) fn director_comment_zh(
        &self,
        said: Option<(&str, &str)>,
        topic: &Topic,
        heard: &Heard,
        nobody_spoke: bool,
        rng: &mut ChaCha8Rng,
    ) -> String {
        let it = if nobody_spoke { topic.named_zh() } else { topic.it_zh() };
        // A voice from outside the cast (the audience, the class) is thanked as everyone.
        let who =
            said.filter(|(name, _)| self.person(name).is_some()).map_or("各位", |(name, _)| name_zh(name));
        // The remark takes up a clause just said, where there is one worth taking up.
        let quote = self.taken_up_zh(topic, said).map(|(_, q)| q);
        let quoting = [
            "谢谢你，{who}。“{q}”，这句话值得记住。",
            "“{q}”——{who}的这句话，我们先记下。",
            "{who}说“{q}”，大家可以好好想一想。",
        ];
        let plain = [
            "谢谢你，{who}。这就是我们在{it}上走到的地方。",
            "哇。{who}，关于{it}，这可够我消化一阵子的。",
            "{who}，我喜欢这个说法，也有点被它吓到了。",
            "记下了，{who}。接下来听听不同的声音。",
            "{who}，这个角度我之前没想到。",
            "{who}，我猜{people}听到这里会有话要说。",
            "好，{who}。别忘了，最后承担结果的是{people}。",
            "{who}，这件事{people}最有发言权。",
        ];
        // Before anyone of the cast has spoken, a welcome: there is nothing to remark on.
        let opening = ["各位晚上好。今晚的话题：{it}。", "欢迎收看。今晚我们要聊的是{it}。"];
        let lines: &[&str] = if nobody_spoke {
            &opening
        } else if quote.is_some() {
            &quoting
        } else {
            &plain
        };
        let line = heard.unheard(lines, fixed_part).choose(rng).copied().unwrap_or(lines[0]);
        let people = topic.gainers().choose(rng).map_or("大家", |p| p.zh);
        line.replace("{who}", who)
            .replace("{it}", &it)
            .replace("{q}", quote.as_deref().unwrap_or(""))
            .replace("{people}", people)
    }

    /// Seed 000's character description of `subject`, in Chinese.
    pub(crate) fn describe_zh(&self, subject: &str, topic: &Topic, rng: &mut ChaCha8Rng) -> String {
        let person = self.person(subject);
        // A role written in another script (an English preset's "presidential candidate") is not
        // spliced into the Chinese sentence.
        let role = person
            .map(|p| p.role.trim())
            .filter(|r| r.chars().any(crate::text::unspaced))
            .unwrap_or("参与者");
        let traits = ["无所畏惧", "锲而不舍", "出人意料", "风趣迷人", "一丝不苟", "富有戏剧性"];
        let a = traits.choose(rng).copied().unwrap_or("大胆");
        let others: Vec<&str> = traits.iter().copied().filter(|t| *t != a).collect();
        let b = others.choose(rng).copied().unwrap_or("敏锐");
        let side = Side::of(person.map_or(0.0, |p| p.stance));
        let it = topic.it_zh();
        let quoted = format!("“{}”", topic.whole);
        let leaning = match (&topic.form, side) {
            (Form::Either(_), _) => {
                let (x, y) = topic.options_zh().unwrap_or_default();
                match side {
                    Side::For => format!("主张选{x}而不是{y}"),
                    Side::Against => format!("主张选{y}而不是{x}"),
                    Side::Open => format!("认为{x}和{y}各有道理"),
                }
            }
            (Form::Motion(lead, clause), Side::For | Side::Against) if topic.foreign => {
                let yes = side == Side::For;
                let head = match lead {
                    Lead::Would => {
                        if yes {
                            "会"
                        } else {
                            "不会"
                        }
                    }
                    Lead::Believe => {
                        if yes {
                            "认为"
                        } else {
                            "不认为"
                        }
                    }
                    Lead::Regret => {
                        if yes {
                            "后悔"
                        } else {
                            "并不后悔"
                        }
                    }
                    Lead::Support => {
                        if yes {
                            "支持"
                        } else {
                            "不支持"
                        }
                    }
                    Lead::Oppose => {
                        if yes {
                            "反对"
                        } else {
                            "不反对"
                        }
                    }
                };
                format!("{head}{clause}")
            }
            (Form::YesNo, Side::For) => format!("对{quoted}这个问题的回答是肯定的"),
            (Form::YesNo, Side::Against) => format!("对{quoted}这个问题的回答是否定的"),
            (Form::YesNo | Form::Open, Side::Open) => format!("对{quoted}这个问题还没有拿定主意"),
            (Form::Open, Side::For) => format!("希望{quoted}这个问题有一个大胆的答案"),
            (Form::Open, Side::Against) => format!("在{quoted}这个问题上主张谨慎"),
            (Form::Phrase(_), Side::For) => format!("坚定支持{it}"),
            (Form::Phrase(_), Side::Against) => format!("深深怀疑{it}"),
            (Form::Phrase(_), Side::Open) => format!("对{it}保持开放的态度"),
            (_, Side::For) => format!("赞同{quoted}这个说法"),
            (_, Side::Against) => format!("不赞同{quoted}这个说法"),
            (_, Side::Open) => format!("对{quoted}这个说法保持开放的态度"),
        };
        let habit = HABITS_ZH.choose(rng).copied().unwrap_or(HABITS_ZH[0]);
        format!("{subject}，你是一位{a}、{b}的{role}，{leaning}。{habit}")
    }

    /// Seed 000's more specific topic, put to the cast, in Chinese.
    pub(crate) fn specify_zh(&self, topic: &Topic, names: &[&str]) -> String {
        let names = names.iter().map(|n| name_zh(n)).collect::<Vec<_>>().join("、");
        match topic.options_zh() {
            Some((a, b)) if matches!(topic.form, Form::Either(Some(_))) => {
                format!("{names}，今天我们要在{a}和{b}之间做出选择。你们会选哪一个，理由是什么？")
            }
            _ => format!("{names}，今天我们要讨论“{}”。你们的立场是什么，理由又是什么？", topic.whole),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_is_asked_for_by_its_names_in_english_and_chinese() {
        for yes in ["Chinese", "chinese (简体中文)", "zh-Hans", "zh", "简体中文", "普通话", "Mandarin"]
        {
            assert!(asks_for_chinese(yes), "{yes}");
        }
        for no in ["", "English", "Deutsch", "Zhuang? no", "French"] {
            assert!(!asks_for_chinese(no), "{no}");
        }
    }

    #[test]
    fn a_stock_line_is_not_said_again_while_the_class_still_hears_it() {
        for seed in 1..=6 {
            let said = crate::demo::rail_debate_speeches("Chinese (简体中文)", seed, 30);
            assert!(said.len() >= 25, "seed {seed}: {} speeches", said.len());
            // The stock lines as said: the proposal filled in, whatever it was.
            let stock: Vec<String> = FOR
                .iter()
                .chain(&AGAINST)
                .chain(&NEUTRAL)
                .map(|p| fixed_part(p))
                .filter(|piece| piece.chars().count() >= 8)
                .collect();
            let mut repeats = Vec::new();
            for (i, speech) in said.iter().enumerate() {
                let before = &said[i.saturating_sub(8)..i];
                // Quoted words are someone else's, said again on purpose.
                let own: String = speech.split(['“', '”']).step_by(2).collect();
                for line in stock.iter().filter(|l| own.contains(l.as_str())) {
                    if before.iter().any(|b| b.contains(line.as_str())) {
                        repeats.push(format!("speech {i}: {line}"));
                    }
                }
            }
            assert!(repeats.is_empty(), "seed {seed}: {repeats:?}\n{}", said.join("\n"));
        }
    }

    #[test]
    fn a_role_named_in_english_is_said_in_the_pages_words() {
        assert_eq!(name_zh("Audience member"), "观众");
        assert_eq!(name_zh("Debate Moderator"), "辩论主持人");
        assert_eq!(name_zh("Ms. Lee"), "Ms. Lee");
    }

    #[test]
    fn the_clauses_taken_up_are_pieces_of_the_text_without_quotes_frames_or_names() {
        let text =
            "说实话，Ann说“越早行动越好”，我不同意：城市应该修建铁路，做起来一点也不简单。“铁路”听起来简单。";
        let got = clauses(text, &["Ann"]);
        // A sentence whole (not its half after a comma); what runs up to or on from a quote is
        // part of the sentence around it, not taken up alone.
        assert_eq!(got, vec!["城市应该修建铁路，做起来一点也不简单"]);
        assert!(got.iter().all(|c| text.contains(c)));
        // Never from a speaker's opening words or a joining word on.
        assert_eq!(
            clauses("说实话，这件事值得去做。而且现在就该开始。", &[]),
            vec!["这件事值得去做", "现在就该开始"]
        );
    }
}
