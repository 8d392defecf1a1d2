//! The demo model on a class's own topics, read from outside its code. A generator here writes
//! the forms a class writes, in English and Chinese (questions, either/or choices, motions,
//! whether-clauses, statements, phrases, relative clauses, lists and long sentences), and runs
//! each through every preset. The checks know only the topic and what the generator built it
//! from (its two options, its motion's clause), never how the demo reads it:
//! - no fragment of a topic: its words appear whole, or as an option or a motion's clause;
//! - an either/or topic is argued as a choice, never answered yes or no;
//! - two topics on one seed make two debates (under 20 % of speeches the same, topics blanked);
//! - no sentence more than twice from one speaker in ten turns, no host question asked twice;
//! - every candidate speaks in at least 18 of 20 ten-turn bidding debates on a class's topic;
//! - a Chinese debate names the voices from outside the cast in Chinese, not in English.

mod common;

use agora::events::{Event, MessageKind};
use agora::presets::{self, PRESETS};
use agora::scenario::Scenario;

/// The forms a class writes.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Shape {
    YesNo,
    Either,
    Motion,
    Whether,
    Statement,
    Phrase,
    Relative,
    List,
    Long,
    Open,
}

/// A generated topic: its text, its shape, and the parts a speech may say apart from the whole
/// (a choice's two options, a motion's clause).
#[derive(Clone, Debug)]
struct Generated {
    text: String,
    shape: Shape,
    parts: Vec<String>,
    chinese: bool,
}

fn gen(text: String, shape: Shape, parts: Vec<String>, chinese: bool) -> Generated {
    Generated { text, shape, parts, chinese }
}

const SUBJECTS: [&str; 12] = [
    "schools",
    "our city",
    "the government",
    "companies",
    "parents",
    "teachers",
    "hospitals",
    "zoos",
    "universities",
    "local councils",
    "employers",
    "supermarkets",
];
const ACTIONS: [&str; 12] = [
    "ban phones in class",
    "pay for school meals",
    "replace homework with project days",
    "charge drivers to enter the centre",
    "open on Sundays",
    "publish every salary",
    "offer free bus passes to pupils",
    "let pupils choose their own teachers",
    "move to a four-day week",
    "plant a tree for every child",
    "stop selling sugary drinks",
    "pay interns a living wage",
];
/// Pairs of options a sentence holds as things.
const THINGS: [(&str, &str); 8] = [
    ("the metro", "shared bikes"),
    ("more roads", "more bike lanes"),
    ("libraries", "laptops"),
    ("sport", "music"),
    ("nurses", "new hospitals"),
    ("solar panels", "wind farms"),
    ("exams", "coursework"),
    ("school trips", "new textbooks"),
];
/// Pairs of options a sentence holds as actions.
const DOINGS: [(&str, &str); 5] = [
    ("live in the city", "live in the countryside"),
    ("work from home", "work in an office"),
    ("rent a flat", "buy a house"),
    ("raise taxes", "cut spending"),
    ("learn to code", "learn a second language"),
];
const PHRASES: [&str; 12] = [
    "High-speed rail",
    "AI in schools",
    "free school meals",
    "a four-day school week",
    "longer summer holidays",
    "electric buses",
    "school uniforms",
    "space tourism",
    "nuclear power",
    "homework",
    "lab-grown meat",
    "cities without cars",
];

const SUBJECTS_ZH: [&str; 10] =
    ["学校", "城市", "政府", "公司", "家长", "老师", "医院", "大学", "社区", "商场"];
const ACTIONS_ZH: [&str; 10] = [
    "禁止学生带手机",
    "取消周末补习班",
    "实行四天工作制",
    "提供免费午餐",
    "用项目日代替家庭作业",
    "向进城的汽车收费",
    "延长暑假",
    "开设编程课",
    "公布所有人的工资",
    "允许学生用人工智能写作业",
];
const THINGS_ZH: [(&str, &str); 6] = [
    ("地铁", "共享单车"),
    ("图书馆", "电脑教室"),
    ("公交", "私家车"),
    ("体育课", "音乐课"),
    ("太阳能", "风能"),
    ("考试", "平时作业"),
];
const PHRASES_ZH: [&str; 8] = [
    "高速铁路",
    "校园里的人工智能",
    "免费午餐",
    "四天工作制",
    "更长的暑假",
    "电动公交车",
    "校服",
    "太空旅游",
];

fn cap(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| f.to_uppercase().collect::<String>() + c.as_str())
}

/// At least 500 topics, English and Chinese, of every shape.
fn generated() -> Vec<Generated> {
    let mut out = Vec::new();
    for (i, s) in SUBJECTS.iter().enumerate() {
        for k in 0..3 {
            let a = ACTIONS[(i * 5 + k * 7) % ACTIONS.len()];
            out.push(gen(format!("Should {s} {a}?"), Shape::YesNo, vec![], false));
            out.push(gen(format!("This House would {a}"), Shape::Motion, vec![a.into()], false));
            let clause = format!("{s} should {a}");
            out.push(gen(
                format!("This House believes that {clause}"),
                Shape::Motion,
                vec![clause.clone()],
                false,
            ));
            out.push(gen(format!("Whether {clause}"), Shape::Whether, vec![clause.clone()], false));
            out.push(gen(format!("{}.", cap(&clause)), Shape::Statement, vec![], false));
            out.push(gen(format!("How should {s} {a}?"), Shape::Open, vec![], false));
            out.push(gen(
                format!("{}, which say they cannot afford it, and whether they should {a}", cap(s)),
                Shape::Relative,
                vec![],
                false,
            ));
            out.push(gen(
                format!(
                    "Whether {s}, which already face rising costs and falling budgets, should be made to {a} by next year"
                ),
                Shape::Whether,
                vec![format!(
                    "{s}, which already face rising costs and falling budgets, should be made to {a} by next year"
                )],
                false,
            ));
        }
        let (a, b) = THINGS[i % THINGS.len()];
        out.push(gen(format!("Should {s} fund {a} or {b}?"), Shape::Either, vec![a.into(), b.into()], false));
        out.push(gen(
            format!("{} or {b}: which should {s} choose?", cap(a)),
            Shape::Either,
            vec![a.into(), b.into()],
            false,
        ));
        let (a, b) = THINGS[(i + 3) % THINGS.len()];
        out.push(gen(
            format!("Should {s} spend more on {a} or {b}?"),
            Shape::Either,
            vec![a.into(), b.into()],
            false,
        ));
        let (a, b) = DOINGS[i % DOINGS.len()];
        out.push(gen(format!("Is it better to {a} or {b}?"), Shape::Either, vec![a.into(), b.into()], false));
        out.push(gen(format!("Phones, tablets and laptops in {s}"), Shape::List, vec![], false));
        out.push(gen(
            format!(
                "A four-day week for {s}, as trialled in some places, and what it means for working parents who need childcare"
            ),
            Shape::Long,
            vec![],
            false,
        ));
        out.push(gen(PHRASES[i].to_string(), Shape::Phrase, vec![], false));
        out.push(gen(
            format!("This House regrets {}", PHRASES[(i + 4) % 12].to_lowercase()),
            Shape::Motion,
            vec![PHRASES[(i + 4) % 12].to_lowercase()],
            false,
        ));
    }
    for (i, s) in SUBJECTS_ZH.iter().enumerate() {
        for k in 0..3 {
            let a = ACTIONS_ZH[(i * 3 + k * 7) % ACTIONS_ZH.len()];
            out.push(gen(format!("{s}是否应该{a}？"), Shape::YesNo, vec![], true));
            out.push(gen(format!("{s}应该{a}吗？"), Shape::YesNo, vec![], true));
            let clause = format!("{s}应该{a}");
            out.push(gen(format!("本院认为{clause}"), Shape::Motion, vec![clause.clone()], true));
            out.push(gen(format!("{clause}。"), Shape::Statement, vec![], true));
            out.push(gen(format!("{s}应该如何{a}？"), Shape::Open, vec![], true));
            out.push(gen(
                format!("在预算越来越紧、家长意见不一的情况下，{s}是否还应该{a}？"),
                Shape::Long,
                vec![],
                true,
            ));
        }
        let (a, b) = THINGS_ZH[i % THINGS_ZH.len()];
        out.push(gen(format!("{s}应该优先发展{a}还是{b}？"), Shape::Either, vec![a.into(), b.into()], true));
        out.push(gen(
            format!("{s}应该把钱花在{a}还是{b}上？"),
            Shape::Either,
            vec![a.into(), b.into()],
            true,
        ));
        out.push(gen(
            "住在城市好还是住在农村好？".into(),
            Shape::Either,
            vec!["住在城市".into(), "住在农村".into()],
            true,
        ));
        out.push(gen(
            "人工智能是机遇还是威胁？".into(),
            Shape::Either,
            vec!["机遇".into(), "威胁".into()],
            true,
        ));
        out.push(gen(PHRASES_ZH[i % PHRASES_ZH.len()].into(), Shape::Phrase, vec![], true));
        out.push(gen(format!("手机、平板和电脑进入{s}"), Shape::List, vec![], true));
    }
    out
}

/// `preset` on `topic`: the opening and the cast's descriptions written afresh for it (as the
/// page offers when the topic changes), the agents speaking Chinese for a Chinese topic.
fn scenario(preset: &str, topic: &Generated, seed: u64, turns: u32) -> Scenario {
    let mut s = presets::find(preset).unwrap().scenario();
    s.topic = topic.text.clone();
    s.seed = seed;
    s.max_turns = turns;
    s.model.demo.topic_phrase.clear();
    if s.opening.speaker.is_empty() {
        s.opening.speaker = "Debate Moderator".into();
    }
    s.opening.text.clear();
    s.opening.specify_topic = true;
    s.opening.describe_characters = true;
    if topic.chinese {
        s.language = "简体中文".into();
    }
    s
}

/// Every text the demo wrote: the opening, the descriptions and the speeches, with who wrote it.
fn written(events: &[Event]) -> Vec<(String, String)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Message { speaker, text, kind, .. } if *kind != MessageKind::Injected => {
                Some((speaker.clone(), text.clone()))
            }
            Event::TopicSpecified { specified, .. } => Some((String::new(), specified.clone())),
            Event::CharacterDescribed { description, .. } => Some((String::new(), description.clone())),
            _ => None,
        })
        .collect()
}

/// The words of an English text, lowercased, without punctuation.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '\''))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

const SMALL: &[&str] = &[
    "the", "a", "an", "and", "or", "of", "to", "in", "on", "for", "with", "at", "by", "is", "are", "be",
    "it", "should", "would", "that", "which", "this", "we", "our", "their", "they", "more", "every",
];

/// The pieces of `topic` that `text` holds apart from the whole and its parts: runs of three
/// words or more (two of them not small words) in English, of five Chinese characters or more.
fn fragments(topic: &Generated, text: &str) -> Vec<String> {
    let mut allowed: Vec<String> = vec![topic.text.trim_end_matches(['.', '。']).to_string()];
    allowed.extend(topic.parts.iter().cloned());
    allowed.sort_by_key(|p| std::cmp::Reverse(p.len()));
    if topic.chinese {
        let mut rest = text.to_string();
        for a in &allowed {
            rest = rest.replace(a.as_str(), "〇");
        }
        let t: Vec<char> = topic.text.chars().collect();
        let mut found = Vec::new();
        let mut i = 0;
        while i < t.len() {
            let mut next = i + 1;
            for j in (i + 5..=t.len()).rev() {
                let piece: String = t[i..j].iter().collect();
                if piece.chars().all(|c| c as u32 >= 0x2E80) && rest.contains(&piece) {
                    found.push(piece);
                    next = j;
                    break;
                }
            }
            i = next;
        }
        return found;
    }
    // Blank the whole and the parts, case aside (a sentence may lowercase the topic's first word).
    let mut rest = text.to_lowercase();
    for a in &allowed {
        rest = rest.replace(&a.to_lowercase(), " ⟨⟩ ");
    }
    let t = words(&topic.text);
    let r = words(&rest);
    let mut found = Vec::new();
    let mut i = 0;
    while i < t.len() {
        let mut next = i + 1;
        for j in (i + 3..=t.len()).rev() {
            let run = &t[i..j];
            if run.iter().filter(|w| !SMALL.contains(&w.as_str())).count() < 2 {
                continue;
            }
            if r.windows(run.len()).any(|w| w == run) {
                found.push(run.join(" "));
                next = j;
                break;
            }
        }
        i = next;
    }
    found
}

/// Words that answer a question yes or no, or take a side on a whole proposal.
const YES_NO: &[&str] = &[
    "answer is yes",
    "answer is no",
    "is yes",
    "is no.",
    "I agree with “",
    "I disagree with “",
    "this motion",
    "回答是肯定",
    "回答是否定",
    "我赞同“",
    "我不赞同“",
    "支持“",
    "反对“",
    "这个议题",
];

#[test]
fn five_hundred_topics_of_every_form_through_every_preset() {
    let topics = generated();
    let english = topics.iter().filter(|t| !t.chinese).count();
    let chinese = topics.len() - english;
    println!("{} topics: {english} English, {chinese} Chinese", topics.len());
    assert!(topics.len() >= 500 && english >= 200 && chinese >= 200, "{english} + {chinese}");
    for shape in [
        Shape::YesNo,
        Shape::Either,
        Shape::Motion,
        Shape::Whether,
        Shape::Statement,
        Shape::Phrase,
        Shape::Relative,
        Shape::List,
        Shape::Long,
        Shape::Open,
    ] {
        assert!(topics.iter().any(|t| t.shape == shape), "{shape:?}");
    }
    let mut problems = Vec::new();
    let mut runs = 0;
    for (n, topic) in topics.iter().enumerate() {
        for preset in PRESETS {
            let seed = 1 + (n as u64 % 5);
            let events = common::run_demo(scenario(preset.id, topic, seed, 10));
            runs += 1;
            let said = written(&events);
            for (who, text) in &said {
                for f in fragments(topic, text) {
                    problems
                        .push(format!("{} / {:?}: fragment «{f}» in {who}: {text}", preset.id, topic.text));
                }
                if preset.id != "trading-game" && (text.contains('{') || text.contains("“”")) {
                    problems.push(format!("{} / {:?}: a hole in {text}", preset.id, topic.text));
                }
            }
            if topic.shape == Shape::Either && preset.id != "trading-game" {
                for (who, text) in common::speeches(&events) {
                    if let Some(w) = YES_NO.iter().find(|w| text.contains(*w)) {
                        problems.push(format!(
                            "{} / {:?}: a choice answered «{w}» by {who}: {text}",
                            preset.id, topic.text
                        ));
                    }
                }
            }
            if preset.id == "trading-game" {
                // Its messages are the game's actions, said as often as the game calls for them.
                continue;
            }
            // No sentence more than twice from one speaker.
            let mut count: std::collections::BTreeMap<(String, String), usize> = Default::default();
            for (who, text) in common::speeches(&events) {
                // The handoff's own format ("Transition to Ann.") is the method's, not speech.
                for sentence in sentences(&text).into_iter().filter(|s| !s.starts_with("Transition to")) {
                    *count.entry((who.clone(), sentence)).or_default() += 1;
                }
            }
            for ((who, sentence), times) in count {
                if times > 2 {
                    problems.push(format!(
                        "{} / {:?}: {who} said «{sentence}» {times} times",
                        preset.id, topic.text
                    ));
                }
            }
            if preset.id == "daily-show-director" {
                let host = presets::find(preset.id).unwrap().scenario();
                let host = match &host.method {
                    agora::scenario::Method::Director(d) => d.director.clone(),
                    _ => unreachable!(),
                };
                let mut asked = std::collections::BTreeSet::new();
                for (who, text) in common::speeches(&events) {
                    if who != host {
                        continue;
                    }
                    for q in sentences(&text).into_iter().filter(|s| s.ends_with(['?', '？'])) {
                        // Whoever it was put to, the same question is the same.
                        let q = q.split_once([',', '，']).map_or(q.clone(), |(_, rest)| rest.to_string());
                        if !asked.insert(q.clone()) {
                            problems.push(format!(
                                "{} / {:?}: the host asked again «{q}»",
                                preset.id, topic.text
                            ));
                        }
                    }
                }
            }
            if topic.chinese {
                for (who, text) in common::speeches(&events) {
                    for role in ["Audience member", "Debate Moderator", "Moderator"] {
                        if text.contains(role) {
                            problems.push(format!(
                                "{} / {:?}: «{role}» in {who}'s Chinese: {text}",
                                preset.id, topic.text
                            ));
                        }
                    }
                }
            }
        }
    }
    println!("{runs} runs, {} problems", problems.len());
    let mut kinds: std::collections::BTreeMap<String, (usize, Vec<&String>)> = Default::default();
    for p in &problems {
        let kind = ["fragment", "a hole", "answered", "times", "asked again", "Chinese"]
            .iter()
            .find(|k| p.contains(*k))
            .map_or("other", |k| k)
            .to_string();
        let e = kinds.entry(kind).or_default();
        e.0 += 1;
        if e.1.len() < 12 {
            e.1.push(p);
        }
    }
    for (kind, (n, some)) in &kinds {
        println!("== {kind}: {n}");
        for p in some {
            println!("  {p}");
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems, the first 40:\n{}",
        problems.len(),
        problems[..problems.len().min(40)].join("\n")
    );
}

/// The sentences of `text`, each with its closing mark.
fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    for c in text.chars() {
        current.push(c);
        match c {
            '“' => quoted = true,
            '”' => quoted = false,
            '.' | '!' | '?' | '。' | '！' | '？' if !quoted => {
                let s = current.trim().to_string();
                if s.chars().count() > 3 {
                    out.push(s);
                }
                current.clear();
            }
            _ => {}
        }
    }
    let s = current.trim().to_string();
    if s.chars().count() > 3 {
        out.push(s);
    }
    out
}

#[test]
fn two_topics_on_one_seed_make_two_debates() {
    // Each pair of neighbouring topics of the generator (most share a form, a subject or an
    // action) on one seed, through every debating preset: the share of speeches the same, turn
    // for turn, once each topic's own words are blanked. A director's show stops at random and
    // may hold three speeches, so a pair is judged over all the presets' debates together.
    let topics = generated();
    let blank = |t: &Generated, text: &str| {
        let mut out = text.to_string();
        let mut pieces: Vec<String> = vec![t.text.trim_end_matches(['.', '。']).to_string()];
        pieces.extend(t.parts.iter().cloned());
        pieces.sort_by_key(|p| std::cmp::Reverse(p.len()));
        for p in pieces {
            out = out.replace(&p, "⟨topic⟩");
        }
        out
    };
    let mut shares: Vec<(f64, String)> = Vec::new();
    for pair in topics.windows(2).step_by(5) {
        let (a, b) = (&pair[0], &pair[1]);
        if a.chinese != b.chinese {
            continue;
        }
        let (mut same, mut total) = (0, 0);
        let mut each = Vec::new();
        for preset in PRESETS.iter().filter(|p| p.id != "trading-game") {
            let said = |t: &Generated| -> Vec<String> {
                common::speeches(&common::run_demo(scenario(preset.id, t, 3, 10)))
                    .iter()
                    .map(|(_, x)| blank(t, x))
                    .collect()
            };
            let (said_a, said_b) = (said(a), said(b));
            let n = said_a.len().min(said_b.len());
            let s = said_a.iter().zip(&said_b).filter(|(x, y)| x == y).count();
            each.push(format!("{} {s}/{n}", preset.id));
            same += s;
            total += n;
        }
        let share = same as f64 / total.max(1) as f64;
        shares
            .push((share, format!("{:?} and {:?}: {same} of {total} ({})", a.text, b.text, each.join(", "))));
    }
    shares.sort_by(|x, y| y.0.total_cmp(&x.0));
    let mean = shares.iter().map(|s| s.0).sum::<f64>() / shares.len() as f64;
    println!(
        "{} pairs, {:.1} % of speeches the same on average; the most alike: {}",
        shares.len(),
        100.0 * mean,
        shares[0].1
    );
    let over: Vec<&String> = shares.iter().filter(|(share, _)| *share >= 0.2).map(|(_, w)| w).collect();
    assert!(
        over.is_empty(),
        "{} pairs with 20 % or more of speeches the same:\n{}",
        over.len(),
        over.iter().take(20).map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn every_candidate_speaks_in_a_bidding_debate_on_a_class_topic() {
    let topics = generated();
    for chinese in [false, true] {
        let class: Vec<&Generated> =
            topics.iter().filter(|t| t.chinese == chinese).step_by(9).take(20).collect();
        assert_eq!(class.len(), 20);
        let cast: Vec<String> =
            presets::find("rail-debate").unwrap().scenario().agents.iter().map(|a| a.name.clone()).collect();
        let mut spoke_in = vec![0; cast.len()];
        for (seed, topic) in class.iter().enumerate() {
            let said =
                common::speeches(&common::run_demo(scenario("rail-debate", topic, seed as u64 + 1, 10)));
            for (i, name) in cast.iter().enumerate() {
                spoke_in[i] += usize::from(said.iter().any(|(who, _)| who == name));
            }
        }
        println!("chinese {chinese}: {cast:?} spoke in {spoke_in:?} of 20 debates");
        for (name, runs) in cast.iter().zip(&spoke_in) {
            assert!(*runs >= 18, "{name} spoke in {runs} of 20 debates (chinese: {chinese})");
        }
    }
}

#[test]
fn the_checks_find_what_they_look_for() {
    // A check that cannot fail checks nothing: each finds a made-up fault.
    let t = gen(
        "Whether social media companies, which profit from attention, should be liable for teen anxiety"
            .into(),
        Shape::Whether,
        vec!["social media companies, which profit from attention, should be liable for teen anxiety".into()],
        false,
    );
    assert_eq!(
        fragments(
            &t,
            "Tell us how making whether social media companies, liable for teen anxiety would work."
        ),
        vec!["whether social media companies", "liable for teen anxiety"]
    );
    assert!(fragments(&t, "I believe that social media companies, which profit from attention, should be liable for teen anxiety: parents agree.").is_empty());
    let z = gen(
        "城市应该优先发展地铁还是共享单车？".into(),
        Shape::Either,
        vec!["地铁".into(), "共享单车".into()],
        true,
    );
    assert_eq!(fragments(&z, "我支持“城市应该优先发展地铁”"), vec!["城市应该优先发展"]);
    assert!(fragments(&z, "我选“地铁”，不选“共享单车”").is_empty());
    assert_eq!(
        sentences("I have a plan. “Who pays? Not me.” Yes! 这样很好。可以这样吗？"),
        vec!["I have a plan.", "“Who pays? Not me.” Yes!", "这样很好。", "可以这样吗？"]
    );
}

#[test]
fn odd_topics_play_through_every_preset() {
    // Bad input of every kind: empty, punctuation alone, a motion or a choice with a part missing,
    // other scripts and emoji. Each plays to its end and writes no hole where the topic would go.
    let odd = [
        "?",
        "or",
        "A or",
        "or B",
        "This House would",
        "Whether",
        "还是",
        "还是？",
        "本院认为",
        "¿?",
        "“”",
        "a, b, or c?",
        "🙂 or 🙃?",
        "İstanbul or Ankara?",
        "To be or not to be?",
        "你好 or hello?",
    ];
    for topic in odd {
        let g = gen(topic.to_string(), Shape::Statement, vec![], agora::demo::other_script(topic));
        for preset in PRESETS {
            let said = written(&common::run_demo(scenario(preset.id, &g, 1, 4)));
            assert!(!said.is_empty(), "{} / {topic:?}", preset.id);
            for (_, text) in said.iter().filter(|_| preset.id != "trading-game") {
                assert!(
                    !text.contains('{') && !text.trim().is_empty(),
                    "{} / {topic:?}: {text:?}",
                    preset.id
                );
            }
        }
    }
}
