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
