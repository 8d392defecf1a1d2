//! Text statistics on planted transcripts: each figure ranks the agents as the transcript was
//! written to rank them.

use super::*;
use crate::scenario::Scenario;

fn scenario() -> Scenario {
    Scenario::from_json(
        r#"{"version":1,"title":"t","topic":"high speed rail","word_limit":20,
            "agents":[{"name":"Repeater","description":"builds bridges"},
                      {"name":"Ignorer","description":"hosts a cooking show"},
                      {"name":"Keeper","description":"a transport economist who studies emissions"}],
            "method":{"kind":"round_robin"}}"#,
    )
    .unwrap()
}

fn said(turn: u32, speaker: &str, text: &str) -> Event {
    Event::Message {
        turn,
        speaker: speaker.into(),
        text: text.into(),
        kind: MessageKind::Agent,
        refusal: String::new(),
    }
}

fn planted() -> Vec<Event> {
    vec![
        Event::RunStarted { seed: 1, scenario: Box::new(scenario()) },
        said(1, "Keeper", "High speed rail links cities and cuts emissions."),
        said(2, "Repeater", "I say we build bridges instead of rail tonight."),
        said(3, "Ignorer", "Let me talk about my cooking show and pancakes."),
        said(4, "Repeater", "I say we build bridges instead of rail tonight."),
        said(5, "Keeper", "Bridges are fine, but rail cuts emissions more than bridges ever could."),
        said(6, "Ignorer", "Pancakes need butter and a hot griddle."),
        said(7, "Repeater", "I say we build bridges instead of rail tonight, friends."),
    ]
}

fn figure(stats: &[AgentText], agent: &str, f: fn(&AgentText) -> Option<f64>) -> f64 {
    f(stats.iter().find(|s| s.agent == agent).unwrap()).unwrap_or(-1.0)
}

#[test]
fn the_planted_transcript_ranks_the_agents_as_planted() {
    let stats = of(&planted());
    assert_eq!(stats.iter().map(|s| s.speeches).collect::<Vec<_>>(), [3, 2, 2]);
    // Repetition: the repeater said its line three times; the others never repeat themselves.
    let rep = |a| figure(&stats, a, |s| s.repetition);
    assert!(rep("Repeater") > 0.6, "{}", rep("Repeater"));
    assert_eq!((rep("Ignorer"), rep("Keeper")), (0.0, 0.0));
    // Responsiveness: the keeper takes up the repeater's bridges; the ignorer takes up nothing.
    let resp = |a| figure(&stats, a, |s| s.responsiveness);
    assert_eq!(resp("Ignorer"), 0.0);
    assert!(resp("Keeper") > resp("Repeater") && resp("Repeater") > resp("Ignorer"), "{stats:#?}");
    // Coverage: the keeper stays on the topic and its own description; the ignorer on its own
    // description only at first, then on neither.
    let cov = |a| figure(&stats, a, |s| s.coverage);
    assert!(cov("Keeper") > cov("Repeater") && cov("Repeater") > cov("Ignorer"), "{stats:#?}");
    // Length against the limit of 20 words: the repeater's three speeches are 9, 9 and 10 words.
    assert!((figure(&stats, "Repeater", |s| s.length) - 28.0 / 60.0).abs() < 1e-12);
}

#[test]
fn what_is_not_a_speech_is_not_counted_and_nothing_is_measured_from_nothing() {
    let mut events = planted();
    events.push(Event::Message {
        turn: 8,
        speaker: "Audience member".into(),
        text: "I say we build bridges instead of rail tonight.".into(),
        kind: MessageKind::Injected,
        refusal: String::new(),
    });
    events.push(Event::Message {
        turn: 9,
        speaker: "Ignorer".into(),
        text: String::new(),
        kind: MessageKind::Refused,
        refusal: "I can't help with that.".into(),
    });
    let stats = of(&events);
    assert_eq!(stats, of(&planted()), "an injected message and a refusal are no agent's speech");
    // An agent who never spoke has no figures, not zeros.
    let quiet = of(&planted()[..2]);
    assert_eq!(quiet[0], AgentText { agent: "Repeater".into(), ..AgentText::default() });
    assert!(of(&[]).is_empty());
}

#[test]
fn the_stop_words_are_sorted_for_the_binary_search() {
    assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(words("*Smiles* The 2 TRAINS, on-time."), ["smiles", "the", "2", "trains", "on", "time"]);
}

#[test]
fn the_table_for_the_page_shows_each_agents_figures_as_percentages() {
    let events = planted();
    let all = of(&events);
    let repeater = all.iter().find(|t| t.agent == "Repeater").unwrap();
    let cells = repeater.cells();
    assert_eq!(cells[0], repeater.speeches.to_string());
    assert_eq!(cells[2], format!("{} %", (repeater.repetition.unwrap() * 100.0).round() as i64));
    assert!(cells[1..].iter().all(|c| c == "–" || c.ends_with(" %")), "{cells:?}");
    let quiet = AgentText { agent: "Quiet".into(), ..AgentText::default() };
    assert_eq!(quiet.cells(), ["0", "–", "–", "–", "–"]);
}

/// The planted transcript's ranks hold in Chinese, where no space marks a word.
#[test]
fn a_chinese_transcript_ranks_the_agents_as_planted_too() {
    let s = Scenario::from_json(
        r#"{"version":1,"title":"t","topic":"学校应该禁止学生上课使用手机吗","word_limit":20,
            "agents":[{"name":"复读者","description":"主张修建桥梁"},
                      {"name":"跑题者","description":"主持烹饪节目"},
                      {"name":"回应者","description":"研究课堂注意力的教育学者"}],
            "method":{"kind":"round_robin"}}"#,
    )
    .unwrap();
    let events = vec![
        Event::RunStarted { seed: 1, scenario: Box::new(s) },
        said(1, "回应者", "上课使用手机会分散学生的注意力。"),
        said(2, "复读者", "我说我们今晚应该修建桥梁。"),
        said(3, "跑题者", "让我聊聊我的烹饪节目和煎饼。"),
        said(4, "复读者", "我说我们今晚应该修建桥梁。"),
        said(5, "回应者", "修建桥梁可以，但禁止手机更能让孩子专心听讲。"),
        said(6, "跑题者", "煎饼需要黄油和一口热锅。"),
        said(7, "复读者", "我说我们今晚应该修建桥梁，朋友们。"),
    ];
    let stats = of(&events);
    let rep = |a| figure(&stats, a, |s| s.repetition);
    assert!(rep("复读者") > 0.6, "{stats:#?}");
    assert_eq!((rep("跑题者"), rep("回应者")), (0.0, 0.0));
    let resp = |a| figure(&stats, a, |s| s.responsiveness);
    assert_eq!((resp("跑题者"), resp("复读者")), (0.0, 0.0));
    assert!(resp("回应者") > 0.1, "{stats:#?}");
    let cov = |a| figure(&stats, a, |s| s.coverage);
    assert!(cov("回应者") > cov("跑题者") && cov("复读者") > cov("跑题者"), "{stats:#?}");
    // Length by characters against the limit of 20: 12, 12 and 15 (punctuation not counted).
    assert!((figure(&stats, "复读者", |s| s.length) - 39.0 / 60.0).abs() < 1e-12, "{stats:#?}");
    assert_eq!(words("谢谢Trump，2026年"), ["谢", "谢", "trump", "2026", "年"]);
}
