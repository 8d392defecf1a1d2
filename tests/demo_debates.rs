//! The demo model's debates read from outside over many runs and many topics, as a class would
//! hear them: every candidate gets the floor, each persona keeps its own catchphrases, a reply
//! quotes its speaker's own words and takes the side its agent's stance gives it, a topic of any
//! form (generated here, never seen by the demo's own tests) is never cut mid-phrase, claims fit
//! the kind of topic, and the trading game's demo plays only moves the rules allow.

mod common;

use agora::events::{Event, MessageKind};
use agora::presets;
use agora::scenario::{Scenario, Stance};

fn preset(id: &str, seed: u64, turns: u32) -> Scenario {
    let mut s = presets::find(id).unwrap().scenario();
    s.seed = seed;
    s.max_turns = turns;
    s
}

#[test]
fn every_candidate_gets_the_floor_in_a_normal_debate() {
    for id in ["rail-debate", "town-hall-selector"] {
        let cast: Vec<String> = preset(id, 1, 10).agents.iter().map(|a| a.name.clone()).collect();
        let mut spoke_in = vec![0; cast.len()];
        let mut turns = vec![0; cast.len()];
        for seed in 1..=20 {
            let said = common::speeches(&common::run_demo(preset(id, seed, 10)));
            for (i, name) in cast.iter().enumerate() {
                let n = said.iter().filter(|(who, _)| who == name).count();
                spoke_in[i] += usize::from(n > 0);
                turns[i] += n;
            }
        }
        let report: Vec<String> = cast
            .iter()
            .zip(&spoke_in)
            .zip(&turns)
            .map(|((c, r), t)| format!("{c}: {r} runs, {t} speeches"))
            .collect();
        println!("{id}, 10 turns, seeds 1 to 20: {}", report.join("; "));
        for (name, runs) in cast.iter().zip(&spoke_in) {
            assert!(*runs >= 18, "{id}: {name} spoke in {runs} of 20 runs ({})", report.join("; "));
        }
    }
}

/// Lines that belong to one persona's voice, and who may say them.
const PERSONA_LINES: &[(&[&str], &[&str])] = &[
    (
        &[
            "Believe me",
            "Nobody knows this better than me",
            "tremendous",
            "Big league",
            "Everybody says so",
            "*points at the crowd*",
        ],
        &["Donald Trump"],
    ),
    (
        &[
            "I have the numbers",
            "Let's be clear about who pays",
            "I have a plan for that",
            "Working families deserve that",
            "*counts on her fingers*",
        ],
        &["Elizabeth Warren"],
    ),
    (
        &[
            "Yo, picture this",
            "I'm a visionary",
            "Real talk",
            "That's the vision",
            "Nobody's thinking this big",
            "*adjusts sunglasses*",
        ],
        &["Kanye West"],
    ),
    (
        &[
            "Only in America",
            "I wish I were joking",
            "*raises an eyebrow at the camera*",
            "somehow that's the sane position",
        ],
        &["Jon Stewart", "Samantha Bee", "Aasif Mandvi", "Ronny Chieng"],
    ),
    (&["We plan in decades", "Stability matters most", "*folds hands calmly*"], &["Xi Jinping"]),
];

#[test]
fn each_cast_speaks_only_its_own_catchphrases() {
    let mut wrong = Vec::new();
    for p in presets::PRESETS.iter().filter(|p| p.id != "trading-game") {
        for seed in 1..=6 {
            for (who, text) in common::speeches(&common::run_demo(preset(p.id, seed, 10))) {
                for (lines, owners) in PERSONA_LINES {
                    for line in lines.iter().filter(|l| text.contains(**l)) {
                        if !owners.contains(&who.as_str()) {
                            wrong.push(format!("{} seed {seed}: {who} says \"{line}\": {text}", p.id));
                        }
                    }
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The stance a scenario gives `name`, as a number (-1 against, +1 for), as the demo spreads
/// agents without one.
fn stance(s: &Scenario, name: &str) -> Option<f64> {
    let n = s.agents.len();
    s.agents.iter().position(|a| a.name == name).map(|i| match s.agents[i].stance {
        Some(Stance::For) => 1.0,
        Some(Stance::Against) => -1.0,
        Some(Stance::Neutral) => 0.0,
        None if n > 1 => -1.0 + 2.0 * i as f64 / (n - 1) as f64,
        None => 0.0,
    })
}

/// Words a quote cut out of someone's sentence should not start on: it would begin mid-clause.
const CONJUNCTIONS: [&str; 6] = ["and", "but", "or", "so", "because", "which"];

#[test]
fn a_reply_quotes_its_speakers_own_words_and_answers_from_its_own_stance() {
    let agree = [" is right", "and I agree"];
    // Between a side and the middle, agreeing in part is disagreeing too.
    let disagree = [
        "that is wrong",
        "I could not disagree more",
        ", and no",
        "has it backwards",
        "only half agree",
        "only part of it",
        "not the whole point",
        "is half right",
        "only partly agree",
    ];
    let mut wrong = Vec::new();
    let mut checked = 0;
    for id in ["rail-debate", "arms-debate", "town-hall-selector", "ai-morality-handoff"] {
        for seed in 1..=10 {
            let s = preset(id, seed, 10);
            let said = common::speeches(&common::run_demo(s.clone()));
            for pair in said.windows(2) {
                let ((last, their_words), (me, text)) = (&pair[0], &pair[1]);
                let Some(start) = text.find('“') else { continue };
                let Some(len) = text[start..].find('”') else { continue };
                let quote = &text[start + '“'.len_utf8()..start + len];
                if !text.contains(last.as_str()) || quote.ends_with('?') {
                    continue;
                }
                checked += 1;
                let plain = their_words.replace(['“', '”'], "");
                if !plain.contains(quote.trim_end_matches('?')) {
                    wrong.push(format!(
                        "{id} {seed}: {me} quotes “{quote}”, not {last}'s words: {their_words}"
                    ));
                }
                let first = quote.split_whitespace().next().unwrap_or("").to_lowercase();
                if CONJUNCTIONS.contains(&first.as_str()) {
                    wrong.push(format!("{id} {seed}: {me} quotes a fragment “{quote}”: {text}"));
                }
                let (Some(a), Some(b)) = (stance(&s, me), stance(&s, last)) else { continue };
                let differ = (a - b).abs() > 0.6;
                let agrees =
                    agree.iter().any(|w| text.contains(w)) || text.contains(&format!("like {last}, I say"));
                if differ && agrees && !disagree.iter().any(|w| text.contains(w)) {
                    wrong.push(format!("{id} {seed}: {me} agrees with {last} across stances: {text}"));
                }
                if !differ && disagree.iter().any(|w| text.contains(w)) {
                    wrong.push(format!("{id} {seed}: {me} disagrees with {last}, of the same side: {text}"));
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} replies quoted their speaker");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Topics of every form a teacher types, made from parts: questions, statements, phrases with
/// relative clauses, passives, lists and long sentences (at least 200).
fn generated_topics() -> Vec<String> {
    let subjects = ["our school", "the city council", "the government", "every country", "the district"];
    let proposals = [
        ("ban", "phones in class"),
        ("build", "a new high-speed railway"),
        ("raise", "the minimum wage"),
        ("fund", "free school meals"),
        ("close", "the old coal plants"),
        ("teach", "coding from age seven"),
        ("require", "school uniforms"),
        ("cut", "the school day to four days"),
    ];
    let passives = [
        ("homework", "banned", "in primary schools"),
        ("plastic bags", "taxed", "in every shop"),
        ("voting", "allowed", "at sixteen"),
        ("zoos", "closed", "in big cities"),
        ("exams", "replaced", "by coursework"),
    ];
    let nouns = [
        "Climate refugees",
        "Electric cars",
        "Social media for children",
        "Nuclear power",
        "Four-day school weeks",
        "Artificial intelligence in hospitals",
    ];
    let mut topics = Vec::new();
    for (verb, object) in proposals {
        for subject in subjects {
            topics.push(format!("Should {subject} {verb} {object}?"));
            topics.push(format!("{} should {verb} {object}", upper(subject)));
        }
        topics.push(format!("Why don't we {verb} {object}?"));
        topics.push(format!("Should we {verb} {object}?"));
        topics.push(format!("The case for and against the plan to {verb} {object}"));
        topics.push(format!("Is it time to {verb} {object}?"));
    }
    for (thing, done, place) in passives {
        topics.push(format!("Should {thing} be {done} {place}?"));
        topics.push(format!("{} should be {done} {place}", upper(thing)));
        topics.push(format!("{} is {done} {place}", upper(thing)));
        topics.push(format!("{} being {done} {place}", upper(thing)));
        topics.push(format!("Why are {thing} still not {done} {place}?"));
    }
    for noun in nouns {
        let lower = noun.to_lowercase();
        topics.push(noun.to_string());
        topics.push(format!("{noun} and who should pay for them"));
        topics.push(format!("{noun} and who should take them in"));
        topics.push(format!("{noun}, which some people fear and others welcome"));
        topics.push(format!("{noun} that nobody asked for"));
        topics.push(format!("What should we do about {lower}?"));
        topics.push(format!("Are {lower} worth the cost?"));
        topics.push(format!("{noun}: a blessing or a curse?"));
        topics.push(format!("{noun}, {lower} laws and the people they leave behind"));
        topics.push(format!(
            "Given what we know today about {lower}, and given how much the next twenty years will depend on \
             choices made now, should we spend more public money on it than we do?"
        ));
    }
    for list in [
        "Phones, tablets and laptops in class",
        "Taxes, tolls or fares for the new railway",
        "Sport, music and art in the timetable",
    ] {
        topics.push(list.to_string());
        topics.push(format!("{list}: which should we keep?"));
    }
    topics
}

fn upper(text: &str) -> String {
    let mut c = text.chars();
    c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
}

/// Words a phrase cut out of the topic must not end on: it would stop mid-phrase.
const DANGLING: &str =
    "and or but who whom whose which that where when if because to of the a an for with by in on at from than as should must is are be";

fn words_of(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric() && c != '-' && c != '\'')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// What is wrong with how `text` uses `topic`: a run of the topic's words (two of them or more
/// carrying content) that stops on a word a phrase cannot end on, or a passive read as a
/// proposal ("making homework banned").
fn cut_phrases(topic: &str, text: &str) -> Vec<String> {
    let dangling: Vec<&str> = DANGLING.split(' ').collect();
    let small = |w: &str| dangling.contains(&w) || w.len() <= 2;
    let t = words_of(topic);
    let mut wrong = Vec::new();
    // Within each stretch between punctuation marks: a run across a comma or a quote's end is
    // two phrases, not one cut.
    for stretch in text.split(|c: char| ".,;:!?“”—()".contains(c)) {
        let s = words_of(stretch);
        let mut i = 0;
        while i < s.len() {
            // The longest run of the topic's words from here, and whether the topic goes on.
            let (mut best, mut goes_on) = (0, false);
            for j in 0..t.len() {
                let n =
                    (0..).take_while(|k| i + k < s.len() && j + k < t.len() && s[i + k] == t[j + k]).count();
                if n > best {
                    (best, goes_on) = (n, j + n < t.len());
                }
            }
            let run = &s[i..i + best];
            let content = run.iter().filter(|w| !small(w)).count();
            if goes_on && content >= 2 && run.last().is_some_and(|w| dangling.contains(&w.as_str())) {
                wrong.push(format!("\"{}\" stops mid-phrase", run.join(" ")));
            }
            i += best.max(1);
        }
    }
    let s = words_of(text);
    for (n, w) in s.iter().enumerate() {
        if w == "making" {
            let rest = &s[n + 1..(n + 4).min(s.len())];
            let passive = ["banned", "taxed", "allowed", "closed", "replaced", "being"];
            if rest.iter().any(|r| passive.contains(&r.as_str())) {
                wrong.push(format!("a passive read as a proposal: \"making {}\"", rest.join(" ")));
            }
        }
    }
    wrong
}

#[test]
fn generated_topics_of_every_form_are_never_cut_mid_phrase() {
    let topics = generated_topics();
    assert!(topics.len() >= 200, "{} topics", topics.len());
    let mut problems = Vec::new();
    for (n, topic) in topics.iter().enumerate() {
        let mut s = preset("rail-debate", 1 + n as u64 % 7, 4);
        s.topic = topic.clone();
        s.model.demo.topic_phrase.clear();
        s.opening.specify_topic = true;
        let events = common::run_demo(s);
        for e in &events {
            let text = match e {
                Event::Message { text, kind, .. } if *kind != MessageKind::Injected => text,
                Event::TopicSpecified { specified, .. } => specified,
                _ => continue,
            };
            assert!(!text.contains("{topic}") && !text.contains("“”"), "{topic}: {text}");
            problems.extend(cut_phrases(topic, text).into_iter().map(|p| format!("{topic}: {p}: {text}")));
        }
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn a_school_rule_is_not_argued_as_jobs_and_taxes() {
    let economic = ["create jobs", "pay for itself", "taxpayers", "great project"];
    for topic in [
        "Should our school ban phones in class?",
        "Homework should be banned in primary schools",
        "School uniforms",
    ] {
        for seed in 1..=8 {
            let mut s = preset("rail-debate", seed, 8);
            s.topic = topic.into();
            s.model.demo.topic_phrase.clear();
            for (who, text) in common::speeches(&common::run_demo(s)) {
                for claim in economic {
                    assert!(!text.contains(claim), "{topic} (seed {seed}): {who} says \"{claim}\": {text}");
                }
            }
        }
    }
}

#[test]
fn the_trading_demo_plays_only_moves_the_rules_allow() {
    for seed in 1..=10 {
        let mut s = preset("trading-game", seed, 30);
        s.model.demo.malformed_rate = 0.0;
        let events = common::run_demo(s);
        let invalid: Vec<String> = events
            .iter()
            .filter_map(|e| match e {
                Event::Action { player, raw, valid: false, reason, .. } => {
                    Some(format!("{player}: {raw} ({reason})"))
                }
                _ => None,
            })
            .collect();
        assert!(invalid.is_empty(), "seed {seed}: {} invalid moves:\n{}", invalid.len(), invalid.join("\n"));
        assert!(events.iter().any(|e| matches!(e, Event::Action { valid: true, .. })));
    }
}
