//! The demo model in Chinese, for a scenario whose `language` asks for it: the same listening as
//! in English (a speech answers the last speaker by name and takes up a clause of their own
//! words, agreeing or not as the stances say; a question from outside the cast is answered), the
//! same stances, a plain register for every voice, and the topic quoted whole, never cut into a
//! sentence. The director's lines, the opening's topic and descriptions likewise.

use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use super::cast::{Cast, Heard, Person};

/// Whether a scenario's `language` asks for Chinese ("Chinese", "zh-Hans", "简体中文", ...).
pub(crate) fn asks_for_chinese(language: &str) -> bool {
    let lower = language.to_ascii_lowercase();
    lower.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| matches!(w, "chinese" | "mandarin" | "zh"))
        || ["中文", "汉语", "漢語", "普通话", "普通話", "简体", "繁體", "华语", "華語"]
            .iter()
            .any(|w| language.contains(w))
}

/// The topic as a proposal to quote: a question's particle and mark dropped, "是否" read as its
/// positive ("中学生是否应该穿校服？" → "中学生应该穿校服").
pub(crate) fn proposal(topic: &str) -> String {
    let mut t = topic.trim().trim_end_matches(['？', '?', '。', '.', '！', '!']).trim_end().to_string();
    for particle in ["吗", "呢", "么"] {
        if let Some(rest) = t.strip_suffix(particle) {
            t = rest.to_string();
            break;
        }
    }
    t.replace("是否", "").trim().to_string()
}

/// What a person on each side says, "{t}" the proposal.
const FOR: [&str; 6] = [
    "我支持“{t}”：越早行动，越多人受益",
    "“{t}”值得去做，而且现在就该开始",
    "我赞成“{t}”，因为它解决的是大家每天都会遇到的问题",
    "这件事早该做了，拖下去只会更难",
    "“{t}”对大多数人是好事，我们不该再犹豫",
    "支持“{t}”的理由很简单：它让更多人有机会",
];
const AGAINST: [&str; 6] = [
    "我反对“{t}”：代价太高，受影响的人太多",
    "“{t}”听起来简单，做起来一点也不简单",
    "我不赞成“{t}”，我们应该先把基础的事情做好",
    "这件事的代价，最后还是落在普通人身上",
    "“{t}”解决的不是真正的问题",
    "反对“{t}”的理由很简单：它拿走了大家的选择",
];
const NEUTRAL: [&str; 6] = [
    "关于“{t}”，我们应该先听听受影响的人怎么说",
    "“{t}”可以先试行一段时间，再做决定",
    "“{t}”有利有弊，我们需要更多事实",
    "这件事不能只凭感觉，要看证据",
    "在“{t}”这件事上，我想先看看数据",
    "“{t}”能不能成，关键在于怎么做",
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
const ANSWER_QUESTION: [&str; 3] =
    ["{name}问我怎么看，我的回答是", "{name}，这个问题问得好，我的回答很明确", "回答{name}的问题"];
/// Answers to a remark from outside the cast (the class, the audience, the moderator).
const ANSWER_REMARK: [&str; 2] = ["{name}说“{q}”，这一点很重要", "{name}提到“{q}”，我认真听了"];
/// A plain register's openings.
const OPENERS: [&str; 5] = ["", "说实话，", "我想说的是，", "请大家想一想，", "我的看法很简单，"];
/// Words that join a clause to the one before: a quote does not start on one.
const JOINS: [&str; 10] = ["而且", "但是", "可是", "所以", "因为", "并且", "或者", "然后", "不过", "而"];
/// Words that only frame an answer to someone: a clause with one of them is not taken up.
const FRAMES: [&str; 9] = ["同意", "认同", "相反", "说反", "说得对", "回答", "认真听", "很重要", "问得好"];

/// The clauses of `text` a speaker can take up: split at punctuation, what they quoted of others
/// left out (so each is a piece of the text as written), without framing words or a name (in
/// Chinese words, Latin letters are a name too: "Debate Moderator").
fn clauses<'a>(text: &'a str, names: &[&str]) -> Vec<&'a str> {
    let chinese = super::topic::other_script(text);
    let mut out = Vec::new();
    let (mut start, mut quoted) = (0, false);
    for (at, c) in text.char_indices() {
        let stop = matches!(
            c,
            '，' | '。' | '！' | '？' | '；' | '：' | ',' | '.' | '!' | '?' | ';' | ':' | '“' | '”' | '*'
        );
        if stop {
            if !quoted {
                out.push(text[start..at].trim());
            }
            match c {
                '“' => quoted = true,
                '”' => quoted = false,
                _ => {}
            }
            start = at + c.len_utf8();
        }
    }
    if !quoted {
        out.push(text[start..].trim());
    }
    out.into_iter()
        // A clause joined to the one before is taken up from after its joining word.
        .map(|c| JOINS.iter().find_map(|j| c.strip_prefix(j)).unwrap_or(c))
        .filter(|c| (4..=28).contains(&c.chars().count()))
        .filter(|c| !FRAMES.iter().any(|f| c.contains(f)) && !names.iter().any(|n| c.contains(n)))
        .filter(|c| !(chinese && c.chars().any(|ch| ch.is_ascii_alphabetic())))
        .collect()
}

impl Cast {
    /// `me`'s speech on `topic` in Chinese, answering `last` (who spoke last, and what they said).
    pub(crate) fn speech_zh(
        &self,
        me: &Person,
        topic: &str,
        word_limit: u32,
        heard: Heard,
        rng: &mut ChaCha8Rng,
    ) -> String {
        let t = self.proposal_zh(topic);
        let points: &[&str] = match me.stance {
            s if s > 0.33 => &FOR,
            s if s < -0.33 => &AGAINST,
            _ => &NEUTRAL,
        };
        let point = heard
            .unheard(points, |p| p.replace("{t}", &t))
            .choose(rng)
            .copied()
            .unwrap_or("")
            .replace("{t}", &t);
        let last = heard.last;
        let opener = OPENERS.choose(rng).copied().unwrap_or("");
        let names: Vec<&str> = self.people.iter().map(|p| p.name.as_str()).collect();
        let reply = last.filter(|(name, _)| !name.eq_ignore_ascii_case(&me.name)).and_then(|(name, text)| {
            let mut heard = names.clone();
            heard.push(name);
            // A question is answered as one, without quoting it back.
            if text.trim_end().ends_with(['？', '?']) {
                let frame = ANSWER_QUESTION.choose(rng).copied().unwrap_or("{name}");
                let answer = frame.replace("{name}", name);
                return Some((answer.clone(), answer));
            }
            let q = clauses(text, &heard).pop()?;
            // The frames, and where words are few the answer without the quote: disagreeing with
            // a castmate far from `me`, agreeing with one near, hearing someone outside the cast.
            let (frames, short): (&[&str], &str) = match self.person(name) {
                Some(other) if (other.stance - me.stance).abs() > 0.6 => (&DISAGREE, "{name}，我不同意"),
                Some(_) => (&AGREE, "{name}说得对"),
                None => (&ANSWER_REMARK, "{name}，我听到了"),
            };
            let frame = frames.choose(rng).copied().unwrap_or("{q}");
            let fill = |f: &str| f.replace("{name}", name).replace("{q}", q);
            Some((fill(frame), fill(short)))
        });
        // The seeds' limits are in English words; a Chinese sentence says as much in about three
        // characters a word (a name in Latin letters counts as one).
        let most = (word_limit as usize * 3).max(30);
        let size = |s: &str| {
            let latin = s.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).count();
            s.chars().filter(|c| !c.is_ascii_alphanumeric()).count() + latin
        };
        let drafts = match &reply {
            Some((r, short)) => [
                format!("{opener}{r}：{point}。"),
                format!("{r}：{point}。"),
                format!("{short}：{point}。"),
                format!("{point}。"),
            ],
            None => [
                format!("{opener}{point}。"),
                format!("{point}。"),
                format!("{point}。"),
                format!("{point}。"),
            ],
        };
        let chosen = drafts.iter().find(|d| size(d) <= most).unwrap_or(&drafts[3]);
        chosen.clone()
    }

    /// The director's question to `next` about `topic`.
    pub(crate) fn director_prompt_zh(&self, next: &str, topic: &str, rng: &mut ChaCha8Rng) -> String {
        let t = self.proposal_zh(topic);
        let lines = [
            format!("{next}，从你的角度看，“{t}”是什么样子？"),
            format!("{next}，说实话：谁真正从“{t}”中受益？"),
            format!("{next}，你的邻居会怎么看“{t}”？"),
            format!("{next}，“{t}”是一时的潮流，还是真正的需要？"),
        ];
        lines.choose(rng).cloned().unwrap_or_default()
    }

    /// The director's closing words: a moderator's, or a show host's.
    pub(crate) fn director_summary_zh(&self, topic: &str, moderator: bool, rng: &mut ChaCha8Rng) -> String {
        let t = self.proposal_zh(topic);
        if moderator {
            return format!("关于“{t}”，正反两方的理由我们都听到了，决定权在你们。谢谢大家，晚安。");
        }
        let lines = [
            format!("今晚的节目就到这里：“{t}”，由最该懂行的人讲给你听。谢谢各位，晚安！"),
            format!("今晚我们知道了，“{t}”要么是未来，要么是一场很长的午觉。谢谢大家，晚安！"),
        ];
        lines.choose(rng).cloned().unwrap_or_default()
    }

    /// The director's remark after `who` spoke.
    pub(crate) fn director_comment_zh(&self, who: Option<&str>, topic: &str, rng: &mut ChaCha8Rng) -> String {
        let t = self.proposal_zh(topic);
        let who = who.unwrap_or("我们的观众");
        let lines = [
            format!("谢谢你，{who}。所以，“{t}”就是我们现在面对的问题。"),
            format!("哇。{who}，关于“{t}”，这可够我消化一阵子的。"),
            format!("{who}，我喜欢这个说法，也有点被它吓到了。"),
        ];
        lines.choose(rng).cloned().unwrap_or_default()
    }

    /// The proposal as the Chinese sentences quote it: the scenario's own short phrase for it when
    /// that is Chinese (a show's long headline is not argued for word for word), else the topic.
    fn proposal_zh(&self, topic: &str) -> String {
        if self.topic_phrase.chars().any(crate::text::unspaced) {
            self.topic_phrase.trim().to_string()
        } else {
            proposal(topic)
        }
    }

    /// Seed 000's character description of `subject`, in Chinese.
    pub(crate) fn describe_zh(&self, subject: &str, topic: &str, rng: &mut ChaCha8Rng) -> String {
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
        let t = self.proposal_zh(topic);
        let side = match person.map(|p| p.stance) {
            Some(s) if s > 0.33 => format!("坚定支持“{t}”"),
            Some(s) if s < -0.33 => format!("深深怀疑“{t}”"),
            _ => format!("对“{t}”保持开放的态度"),
        };
        let habit = HABITS_ZH.choose(rng).copied().unwrap_or(HABITS_ZH[0]);
        format!("{subject}，你是一位{a}、{b}的{role}，{side}。{habit}")
    }

    /// Seed 000's more specific topic, put to the cast, in Chinese.
    pub(crate) fn specify_zh(&self, topic: &str, names: &[&str]) -> String {
        format!(
            "{}，今天我们要讨论的是：“{}”。你们的立场是什么，理由又是什么？",
            names.join("、"),
            topic.trim()
        )
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
                .map(|p| p.split("{t}").max_by_key(|piece| piece.len()).unwrap_or("").to_string())
                .filter(|piece| piece.chars().count() >= 8)
                .collect();
            let mut repeats = Vec::new();
            for (i, speech) in said.iter().enumerate() {
                let before = &said[i.saturating_sub(8)..i];
                for line in stock.iter().filter(|l| speech.contains(l.as_str())) {
                    if before.iter().any(|b| b.contains(line.as_str())) {
                        repeats.push(format!("speech {i}: {line}"));
                    }
                }
            }
            assert!(repeats.is_empty(), "seed {seed}: {repeats:?}\n{}", said.join("\n"));
        }
    }

    #[test]
    fn a_question_becomes_the_proposal_it_asks_about() {
        assert_eq!(proposal("城市应该修建高速铁路吗？"), "城市应该修建高速铁路");
        assert_eq!(proposal("中学生是否应该穿校服？"), "中学生应该穿校服");
        assert_eq!(proposal("垃圾分类应该强制执行"), "垃圾分类应该强制执行");
        assert_eq!(proposal("Should we build it?"), "Should we build it");
    }

    #[test]
    fn the_clauses_taken_up_are_pieces_of_the_text_without_quotes_frames_or_names() {
        let text =
            "说实话，Ann说“越早行动越好”，我不同意：“城市应该修建铁路”听起来简单，做起来一点也不简单。";
        let got = clauses(text, &["Ann"]);
        assert_eq!(got, vec!["听起来简单", "做起来一点也不简单"]);
        // Never from a joining word on.
        assert_eq!(
            clauses("这件事值得去做，而且现在就该开始。", &[]),
            vec!["这件事值得去做", "现在就该开始"]
        );
        assert!(got.iter().all(|c| text.contains(c)));
    }
}
