//! The demo model read from outside, as a class would hear it: any topic a teacher types reads as
//! part of a sentence, the next speaker answers the last message (an interjection or a seat's
//! speech among them), a serious subject gets no cheerful lines, and bids follow what was said.

mod common;

use std::rc::Rc;

use agora::clock::FrozenClock;
use agora::demo::DemoModel;
use agora::engine::Run;
use agora::events::{Event, MessageKind};
use agora::presets;
use agora::scenario::Scenario;

/// The rail debate (bidding) on `topic`, its scenario's own phrase for the old topic cleared, the
/// topic made specific by the demo first.
fn debate(topic: &str, seed: u64, turns: u32) -> Scenario {
    let mut s = presets::find("rail-debate").unwrap().scenario();
    s.topic = topic.into();
    s.seed = seed;
    s.max_turns = turns;
    s.model.demo.topic_phrase.clear();
    s.opening.specify_topic = true;
    s
}

/// Every text the demo wrote in a run: the specified topic and every speech.
fn texts(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Message { text, kind, .. } if *kind != MessageKind::Injected => Some(text.clone()),
            Event::TopicSpecified { specified, .. } => Some(specified.clone()),
            _ => None,
        })
        .collect()
}

/// What is wrong with how `text` says `topic`: the topic pasted mid-sentence with its capital
/// (after a word, not at a sentence's start, a colon or a quote), or a question mark inside a
/// sentence that goes on in lowercase.
fn splices(topic: &str, text: &str) -> Vec<String> {
    let mut wrong = Vec::new();
    let head: String = topic.trim_start_matches('¿').split_whitespace().take(3).collect::<Vec<_>>().join(" ");
    // An acronym ("AI in schools") keeps its capitals anywhere.
    let acronym = head.split_whitespace().next().is_some_and(|w| w.chars().skip(1).any(char::is_uppercase));
    if head.starts_with(char::is_uppercase) && !acronym && topic.split_whitespace().count() > 1 {
        for (at, _) in text.match_indices(&head) {
            let before = text[..at].trim_end();
            if !(before.is_empty() || before.ends_with(['.', '!', '?', ':', '“', '"', '¿', '‘'])) {
                wrong.push(format!(
                    "\"{head}\" pasted after \"{}\"",
                    &before[before.len().saturating_sub(20)..]
                ));
            }
        }
    }
    let chars: Vec<char> = text.chars().collect();
    for i in 0..chars.len().saturating_sub(2) {
        if chars[i] == '?' && chars[i + 1] == ' ' && chars[i + 2].is_lowercase() {
            wrong.push(format!("a question mark mid-sentence: {text}"));
        }
    }
    wrong
}

#[test]
fn twenty_topics_of_every_kind_read_as_parts_of_sentences() {
    let topics = [
        // Questions.
        "Should our school ban phones in class?",
        "Should the US send weapons to Israel?",
        "Should we cut the school day to four days?",
        "Is social media harmful to teenagers?",
        "How should we fund the arts?",
        "What should we do about climate change?",
        "Why do we still have homework?",
        // Noun phrases.
        "transcontinental high speed rail",
        "High-speed rail",
        "AI in schools",
        "Universal basic income",
        "The four-day week",
        // Statements.
        "Our school should ban phones in class",
        "Artificial intelligence should be allowed to make moral decisions in situations where humans fail to agree.",
        "Social media does more harm than good.",
        "Homework should be abolished",
        // A headline, a long sentence, other languages.
        "The New Workout Trend: Competitive Sitting - How Laziness Became the Next Fitness Craze",
        "Cities that build more housing near transit see lower rents, fewer cars and cleaner air over a decade",
        "¿Deberían las escuelas prohibir los móviles?",
        "Faut-il interdire les téléphones à l'école ?",
    ];
    assert_eq!(topics.len(), 20);
    let mut problems = Vec::new();
    for topic in topics {
        for seed in [1, 2, 3] {
            let events = common::run_demo(debate(topic, seed, 6));
            let said = texts(&events);
            assert!(said.len() >= 4, "{topic}: {said:?}");
            for text in &said {
                problems.extend(
                    splices(topic, text).into_iter().map(|p| format!("{topic} (seed {seed}): {p}: {text}")),
                );
                assert!(!text.contains("{topic}") && !text.contains("“”"), "{text}");
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));

    // A question is put as a question when the topic is made specific.
    let events = common::run_demo(debate("Should our school ban phones in class?", 1, 2));
    let specified = texts(&events).remove(0);
    assert!(
        specified.contains("the question before us: “Should our school ban phones in class?”"),
        "{specified}"
    );
    // And answered as a question, yes or no (issue 69: a topic is quoted whole, never rewritten
    // into a phrase the demo has not checked).
    let speeches = texts(&events)[1..].join(" ");
    assert!(["is yes:", "is no:"].iter().any(|a| speeches.contains(a)), "{speeches}");
}

/// A run of the rail debate stepped `before` turns, then `speaker` says `text` (as the class's
/// interjection, or as a seat's speech when `speaker` is in the cast), then one more turn: the
/// message that answers it.
fn answer_to(speaker: &str, text: &str, seed: u64, before: u32) -> (String, String) {
    let mut s = presets::find("rail-debate").unwrap().scenario();
    s.seed = seed;
    s.max_turns = before + 2;
    s.opening.specify_topic = false;
    s.opening.describe_characters = false;
    let model = Rc::new(DemoModel::new(&s, Rc::new(FrozenClock)));
    let mut run = Run::new(s, model, Rc::new(FrozenClock)).unwrap();
    for _ in 0..before {
        futures::executor::block_on(run.step());
    }
    run.inject(speaker, text);
    let count = common::messages(run.events()).len();
    futures::executor::block_on(run.step());
    let after = common::messages(run.events());
    after[count..].iter().find(|(who, _)| who != speaker).cloned().expect("someone answered")
}

#[test]
fn the_next_speaker_answers_an_interjection_and_a_seats_speech() {
    let shared = |a: &str, b: &str| {
        let words = |t: &str| -> Vec<String> {
            t.split(|c: char| !c.is_alphanumeric()).filter(|w| w.len() > 3).map(str::to_lowercase).collect()
        };
        let theirs = words(a);
        words(b).into_iter().filter(|w| theirs.contains(w)).count()
    };
    for seed in 1..=8 {
        let interjection = "Who pays for the tracks?";
        let (who, said) = answer_to("Audience member", interjection, seed, 2);
        assert!(shared(interjection, &said) >= 2, "seed {seed}: {who} said {said:?}");
        assert!(
            said.to_lowercase().contains("the audience member")
                || said.to_lowercase().contains("to the question"),
            "seed {seed}: {said}"
        );

        // A seat's speech is the agent's own words: the next speaker names them and takes them up.
        let seat = "Kanye West";
        let speech = "The tracks should run through every small town first.";
        let (who, said) = answer_to(seat, speech, seed, 2);
        assert_ne!(who, seat);
        assert!(said.contains(seat), "seed {seed}: {who} said {said:?}");
        assert!(shared(speech, &said) >= 2, "seed {seed}: {who} said {said:?}");
    }
}

#[test]
fn a_serious_subject_gets_no_cheerful_lines() {
    let cheerful = [
        "tremendous",
        "Big league",
        "Yo,",
        "visionary",
        "bold move",
        "promise to the next generation",
        "Nobody's thinking this big",
        "Only in America",
        "I wish I were joking",
    ];
    for seed in 1..=5 {
        let mut s = presets::find("arms-debate").unwrap().scenario();
        s.seed = seed;
        let said = texts(&common::run_demo(s)).join("\n");
        for line in cheerful {
            assert!(!said.contains(line), "seed {seed}: \"{line}\" in\n{said}");
        }
    }
}

#[test]
fn bids_follow_what_the_class_said() {
    // "Who pays for the tracks?" doubts the rail line: its supporter bids higher to answer it
    // than its critic does, over many runs.
    let (mut trump, mut warren) = (0i64, 0i64);
    for seed in 1..=30 {
        let mut s = presets::find("rail-debate").unwrap().scenario();
        s.seed = seed;
        s.max_turns = 4;
        s.opening.specify_topic = false;
        s.opening.describe_characters = false;
        let model = Rc::new(DemoModel::new(&s, Rc::new(FrozenClock)));
        let mut run = Run::new(s, model, Rc::new(FrozenClock)).unwrap();
        futures::executor::block_on(run.step());
        futures::executor::block_on(run.step());
        run.inject("Audience member", "Who pays for the tracks? It costs too much.");
        let from = run.events().len();
        futures::executor::block_on(run.step());
        for e in &run.events()[from..] {
            if let Event::Bid { agent, value: v, .. } = e {
                match agent.as_str() {
                    "Donald Trump" => trump += v,
                    "Elizabeth Warren" => warren += v,
                    _ => {}
                }
            }
        }
    }
    assert!(trump > warren + 30, "the supporter's bids {trump}, the critic's {warren}");
}

/// What a teacher trying the page met (a statement losing its subject, a plural with a singular
/// verb, a long topic cut off, a quote ending mid-phrase, war lines on a loss at home).
#[test]
fn subjects_stay_verbs_agree_long_topics_are_not_cut_and_a_loss_is_not_a_war() {
    let all = |topic: &str| -> String {
        (1..=3)
            .flat_map(|seed| texts(&common::run_demo(debate(topic, seed, 6))))
            .collect::<Vec<_>>()
            .join("\n")
    };
    // A statement keeps what it is about: it is said whole, never rewritten (issue 69).
    let said = all("Homework should be optional.");
    assert!(said.contains("“Homework should be optional”"), "{said}");
    assert!(!said.contains("being optional") && !said.contains("making homework"), "{said}");
    let said = all("Should school uniforms be compulsory?");
    assert!(said.contains("“Should school uniforms be compulsory?”"), "{said}");
    // A plural takes a plural verb.
    let said = all("school uniforms");
    for wrong in
        ["school uniforms is ", "school uniforms deserves ", "school uniforms needs ", "school uniforms has "]
    {
        assert!(!said.contains(wrong), "\"{wrong}\" in {said}");
    }
    assert!(said.contains("school uniforms would ") || said.contains("school uniforms could "), "{said}");
    // A topic longer than the opening's word limit is not cut off mid-sentence.
    let long = "Because our town has limited money and many teenagers have nowhere to go after school, should the council build a new youth centre, even if that means higher local taxes for the next ten years?";
    let events = common::run_demo(debate(long, 1, 2));
    let opening = texts(&events).remove(0);
    // Whole or not at all (issue 69: it fits the limit here, so it is quoted whole).
    assert!(opening.contains(&format!("“{long}”")) || !opening.contains("Because"), "{opening}");
    assert!(opening.ends_with(['.', '?', '”']) && !opening.contains("next ten."), "{opening}");
    // Quotes end where a phrase ends, not on a word that promises more.
    for text in all("Should our school ban phones in class?").lines() {
        for quote in text.split('“').skip(1).filter_map(|q| q.split('”').next()) {
            let last = quote.trim_end_matches(['?', '.', '!']).rsplit(' ').next().unwrap_or("");
            assert!(
                !["exactly", "the", "a", "is", "bold", "very", "new"].contains(&last),
                "“{quote}” in {text}"
            );
        }
    }
    // A loss at home is spoken of soberly, without the words of war.
    let said = all("How should we support a classmate whose parent has died of cancer?");
    for war in ["peace", "civilians", "people in danger", "more lives than it saves", "on every side"] {
        assert!(!said.contains(war), "\"{war}\" in {said}");
    }
}

/// Twenty topics a Chinese class might type, questions and statements.
const CHINESE_TOPICS: [&str; 20] = [
    "我们学校应该禁止学生上课使用手机吗？",
    "城市应该修建高速铁路吗？",
    "中学生是否应该穿校服？",
    "人工智能会取代老师吗？",
    "应该取消期末考试吗？",
    "周末补课应该被禁止",
    "学校食堂应该提供素食",
    "网络游戏对青少年弊大于利",
    "我们应该每周上四天课吗？",
    "城市应该限制私家车进入市中心吗？",
    "家长应该检查孩子的手机吗？",
    "大学学费应该免费吗？",
    "作业太多影响学生健康",
    "学生应该参与制定校规吗？",
    "电动汽车比燃油车更环保",
    "公共图书馆应该二十四小时开放吗？",
    "小学应该开设编程课吗？",
    "垃圾分类应该强制执行",
    "体育课应该每天都有吗？",
    "社交媒体让人更孤独",
];

/// The spans of `text` outside its “quotes”.
fn unquoted(text: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for c in text.chars() {
        match c {
            '“' => inside = true,
            '”' => inside = false,
            _ if !inside => out.push(c),
            _ => {}
        }
    }
    out
}

#[test]
fn a_chinese_topic_in_an_english_run_is_quoted_whole_never_cut_into_a_sentence() {
    for (i, topic) in CHINESE_TOPICS.iter().enumerate() {
        for id in ["rail-debate", "daily-show-director", "ai-morality-handoff", "town-hall-selector"] {
            let mut s = presets::find(id).unwrap().scenario();
            s.topic = topic.to_string();
            s.seed = i as u64;
            s.max_turns = 6;
            s.model.demo.topic_phrase.clear();
            let events = common::run_demo(s);
            for text in texts(&events) {
                let outside = unquoted(&text);
                assert!(
                    !agora::demo::other_script(&outside),
                    "{id}, {topic}: Chinese outside a quote in {text:?}"
                );
                for (at, _) in text.match_indices(topic) {
                    // In quotes, or in single ones inside a quote.
                    assert!(text[..at].ends_with(['“', '‘']), "{id}: the topic cut into {text:?}");
                }
            }
            assert!(texts(&events).iter().any(|t| t.contains(topic)), "{id}, {topic}: the topic is said");
        }
    }
}

#[test]
fn with_chinese_as_the_scenarios_language_the_demo_debates_in_chinese_and_answers_the_last_speaker() {
    for (i, topic) in CHINESE_TOPICS.iter().enumerate() {
        for id in ["rail-debate", "daily-show-director", "ai-morality-handoff"] {
            let mut s = presets::find(id).unwrap().scenario();
            s.topic = topic.to_string();
            s.language = "Chinese (简体中文)".into();
            s.seed = 100 + i as u64;
            s.max_turns = 8;
            // The show runs its turns (a stop draw may end it after one speech).
            if let agora::scenario::Method::Director(d) = &mut s.method {
                d.stop_probability = 0.0;
            }
            let names = s.agent_names();
            // The director's own lines (its questions, thanks and closing) are the show's, not
            // answers; its cast answers it and each other.
            let host = match &s.method {
                agora::scenario::Method::Director(d) => d.director.clone(),
                _ => String::new(),
            };
            let events = common::run_demo(s);
            let said: Vec<(String, String, bool)> = events
                .iter()
                .filter_map(|e| match e {
                    Event::Message { speaker, text, kind, .. } => {
                        Some((speaker.clone(), text.clone(), *kind == MessageKind::Injected))
                    }
                    _ => None,
                })
                .collect();
            let speeches = said.iter().filter(|(who, _, injected)| !injected && names.contains(who)).count();
            assert!(speeches >= 4, "{id}, {topic}: {speeches} speeches");
            let mut answered = 0;
            for pair in said.windows(2) {
                let ((before, heard, _), (now, text, injected)) = (&pair[0], &pair[1]);
                if *injected || !names.contains(now) {
                    continue;
                }
                assert!(agora::demo::other_script(text), "{id}, {topic}: not Chinese: {text:?}");
                // Every cast member's words are Chinese but for names and a handoff's own form.
                let mut rest = text.clone();
                for n in names.iter().chain([before]) {
                    rest = rest.replace(n.as_str(), "");
                }
                if let Some(at) = rest.find(" Transition to ") {
                    rest.truncate(at);
                }
                assert!(!rest.chars().any(|c| c.is_ascii_alphabetic()), "{id}, {topic}: English in {text:?}");
                if before != now && names.contains(before) && *now != host {
                    // The last speaker is answered by name, with a clause of their own words;
                    // the handoff's sides by their Chinese names.
                    let called = match before.as_str() {
                        "Proponent" => "正方",
                        "Opponent" => "反方",
                        "Neutral" => "中立方",
                        name => name,
                    };
                    assert!(
                        text.contains(called),
                        "{id}, {topic}: {now} does not answer {before} ({heard:?}): {text:?}"
                    );
                    // A question is answered as one; anything else is taken up in quotes.
                    if !heard.trim_end().ends_with(['？', '?']) {
                        // A quote inside the quote is set in single marks.
                        let quoted = text
                            .split('“')
                            .nth(1)
                            .and_then(|q| q.split('”').next())
                            .unwrap_or_default()
                            .replace('‘', "“")
                            .replace('’', "”");
                        assert!(
                            !quoted.is_empty() && heard.contains(&quoted),
                            "{id}: {quoted:?} is not in {heard:?}"
                        );
                    }
                    answered += 1;
                }
            }
            assert!(answered >= 2, "{id}, {topic}: {answered} answers");
        }
    }
}

#[test]
fn without_a_language_the_demo_speaks_english_as_before() {
    let s = presets::find("rail-debate").unwrap().scenario();
    let events = common::run_demo(s);
    assert!(texts(&events).iter().all(|t| !agora::demo::other_script(t)));
}

/// A preset taken into Chinese as the page's offer does (its language set, its own words put in
/// Chinese): the whole run reads as Chinese, not only the cast's speeches: the opening line, the
/// specified topic, each character's introduction, the director's lines.
#[test]
fn a_preset_taken_into_chinese_reads_as_chinese_from_its_opening_to_its_end() {
    for p in presets::PRESETS {
        let words = (agora::i18n::zh::TABLE.preset)(p.id).expect("Chinese words for every preset");
        let mut s = p.scenario();
        assert!(presets::put_words(&mut s, p, &words), "{}", p.id);
        s.language = "简体中文".into();
        s.max_turns = s.max_turns.min(6);
        let names = s.agent_names();
        let events = common::run_demo(s);
        let mut read = 0;
        for e in &events {
            let text = match e {
                Event::Message { text, .. } => text,
                Event::TopicSpecified { specified, .. } => specified,
                Event::CharacterDescribed { description, .. } => description,
                _ => continue,
            };
            if text.is_empty() || p.id == "trading-game" {
                // The trading game's moves are the game's own form (WOOD, TRADE, ...).
                continue;
            }
            let mut rest = text.clone();
            for n in &names {
                rest = rest.replace(n.as_str(), "");
            }
            if let Some(at) = rest.find("Transition to ") {
                rest.truncate(at);
            }
            assert!(!rest.chars().any(|c| c.is_ascii_alphabetic()), "{}: English in {text:?}", p.id);
            // A director's remark and question are joined without the gap a space makes after "。".
            // (A handoff's own "Transition to ..." after its speech keeps its space.)
            assert!(!rest.trim_end().contains("。 "), "{}: a space after a full stop in {text:?}", p.id);
            read += 1;
        }
        assert!(p.id == "trading-game" || read >= 4, "{}: {read} texts", p.id);
    }
}

/// A show opened by one of its own cast (a director who puts the topic): the demo puts it to the
/// others, never to the speaker, in English and in Chinese.
#[test]
fn an_agent_who_opens_the_show_does_not_address_itself() {
    for language in ["", "Chinese (简体中文)"] {
        let mut s = debate("Should our school ban phones in class?", 3, 1);
        s.language = language.into();
        let opener = s.agents[0].name.clone();
        s.opening.speaker = opener.clone();
        let specified = texts(&common::run_demo(s.clone())).remove(0);
        assert!(!specified.contains(&opener), "{language}: {specified}");
        for other in &s.agents[1..] {
            assert!(specified.contains(&other.name), "{language}: {specified}");
        }
    }
}

/// A director who opened the show itself does not thank itself for it, and does not put the same
/// question or remark as either of its last two (it has three remarks and four questions).
#[test]
fn a_director_neither_thanks_itself_nor_repeats_a_line_the_class_just_heard() {
    let stock = [
        "is where we are now",
        "a lot to process",
        "scared by it",
        "from where you're standing",
        "who actually benefits",
        "a trend or a cry for help",
        "your neighbors say",
    ];
    for seed in 1..=6 {
        let mut s = presets::find("daily-show-director").unwrap().scenario();
        s.seed = seed;
        s.max_turns = 12;
        let host = match &mut s.method {
            agora::scenario::Method::Director(d) => {
                d.stop_probability = 0.0;
                d.director.clone()
            }
            _ => unreachable!("the preset is a director's show"),
        };
        s.opening.speaker = host.clone();
        let lines: Vec<String> = common::run_demo(s)
            .iter()
            .filter_map(|e| match e {
                Event::Message { speaker, text, kind, .. }
                    if *speaker == host && *kind != MessageKind::Injected =>
                {
                    Some(text.clone())
                }
                _ => None,
            })
            .collect();
        assert!(lines.len() >= 5, "seed {seed}: {lines:?}");
        for (i, line) in lines.iter().enumerate().skip(1) {
            assert!(!line.contains(&host), "seed {seed}: the director names itself: {line}");
            for piece in stock.iter().filter(|p| line.contains(*p)) {
                let before = &lines[i.saturating_sub(2)..i];
                assert!(
                    !before.iter().any(|b| b.contains(piece)),
                    "seed {seed}: {piece:?} again in {lines:#?}"
                );
            }
        }
    }
}

/// Every speech of each of `presets` on a class's topics, in English and Chinese: (preset,
/// speaker, text), in order, a run after another.
fn class_debates(presets: &[&str], turns: u32) -> Vec<Vec<(String, String, String)>> {
    let topics = [
        ("", "Should our school ban mobile phones during lessons?"),
        ("", "Should the school library spend its money on paper books or on e-readers?"),
        ("", "This House would abolish school uniforms."),
        ("Chinese (简体中文)", "城市应该优先发展地铁还是共享单车？"),
        ("Chinese (简体中文)", "本院认为应当禁止中小学生带手机进校园。"),
        ("Chinese (简体中文)", "学校是否应该取消期末考试？"),
    ];
    let mut runs = Vec::new();
    for &id in presets {
        for (language, topic) in topics {
            for seed in 1..=3 {
                let mut s = presets::find(id).unwrap().scenario();
                s.language = language.into();
                let _ = s.set_topic(topic.into(), true);
                s.seed = seed;
                s.max_turns = turns;
                if let agora::scenario::Method::Director(d) = &mut s.method {
                    d.stop_probability = 0.0;
                }
                let said = common::run_demo(s)
                    .iter()
                    .filter_map(|e| match e {
                        Event::Message { speaker, text, kind, .. } if *kind != MessageKind::Injected => {
                            Some((id.to_string(), speaker.clone(), text.clone()))
                        }
                        _ => None,
                    })
                    .collect();
                runs.push(said);
            }
        }
    }
    runs
}

/// The pieces of `text` set in quotes (“…”).
fn quotes(text: &str) -> Vec<&str> {
    text.split('“').skip(1).filter_map(|rest| rest.split('”').next()).collect()
}

/// The presets whose agents talk (all but the trading game), one of each method.
const TALKING: [&str; 4] =
    ["rail-debate", "daily-show-director", "ai-morality-handoff", "town-hall-selector"];

#[test]
fn a_quote_of_the_last_speaker_never_stops_where_their_sentence_turns_round() {
    let mut checked = 0;
    for run in class_debates(&TALKING, 10) {
        for pair in run.windows(2) {
            let ((_, _, before), (id, now, text)) = (&pair[0], &pair[1]);
            for quote in quotes(text).into_iter().filter(|q| q.split_whitespace().count() >= 3) {
                let Some(at) = before.find(quote) else { continue };
                checked += 1;
                let after = before[at + quote.len()..].trim_start_matches(['.', '?', '!']);
                // What the speaker went on to say did not turn the quoted words round.
                for turn in [", but", " but ", " or ", ", and", ", however"] {
                    assert!(
                        !after.starts_with(turn),
                        "{id}: {now} quotes {quote:?} of {before:?}, which went on {turn:?}"
                    );
                }
            }
        }
    }
    assert!(checked > 100, "{checked} quotes checked");
}

#[test]
fn nobody_opens_a_speech_with_their_own_name_and_chinese_quotes_end_once() {
    for run in class_debates(&TALKING, 10) {
        for (id, speaker, text) in &run {
            assert!(!text.starts_with(&format!("{speaker}:")), "{id}: {speaker} names itself: {text:?}");
            for doubled in ["？”。", "！”。", "。”。", "?”?", "?”.", "?’?"] {
                assert!(!text.contains(doubled), "{id}: {doubled} in {text:?}");
            }
            // "中小学生" said whole, never cut to the "小学生" inside it.
            if text.contains("小学生") {
                let cut = text.match_indices("小学生").any(|(at, _)| !text[..at].ends_with('中'));
                assert!(!cut, "{id}: {text:?}");
            }
        }
    }
}

#[test]
fn a_host_never_asks_a_guest_the_same_question_twice_in_a_long_show() {
    let host = presets::find("daily-show-director").unwrap().scenario();
    let agora::scenario::Method::Director(d) = &host.method else { unreachable!() };
    for run in class_debates(&["daily-show-director"], 30) {
        let mut asked: Vec<&str> = Vec::new();
        for (_, _, text) in run.iter().filter(|(_, s, _)| *s == d.director) {
            for question in text.split_inclusive(['?', '？']).filter(|q| q.ends_with(['?', '？'])) {
                // The question's own sentence, not what led up to it.
                let question = question.rsplit(['.', '。', '!', '！', '”']).next().unwrap_or(question).trim();
                assert!(!asked.contains(&question), "the host asks {question:?} again: {run:#?}");
                asked.push(question);
            }
        }
        assert!(asked.len() >= 8, "{asked:?}");
    }
}

#[test]
fn every_side_of_a_handoff_debate_speaks_in_ten_turns() {
    for run in class_debates(&["ai-morality-handoff"], 10) {
        for side in ["Proponent", "Opponent", "Neutral"] {
            assert!(run.iter().any(|(_, s, _)| s == side), "{side} never speaks: {run:#?}");
        }
    }
}

#[test]
fn a_chinese_selectors_reply_names_its_choice_where_autogens_reading_finds_it() {
    for seed in 1..=12 {
        let mut s = presets::find("town-hall-selector").unwrap().scenario();
        s.language = "Chinese (简体中文)".into();
        s.seed = seed;
        s.max_turns = 10;
        for e in common::run_demo(s) {
            if let Event::SelectorChoice { raw, matched, attempts, .. } = e {
                assert_eq!(attempts, 1, "seed {seed}: {raw:?} read as {matched:?}");
            }
        }
    }
}
