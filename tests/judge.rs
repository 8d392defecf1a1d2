//! The judge (`agora::judge`): its request (golden bytes over both protocols), its verdict read
//! from the local LLM server over real HTTP (and the unreadable, refused and truncated replies a
//! judge gives), the demo judge on planted transcripts, and `agora judge` in the terminal.
//!
//! `AGORA_BLESS=1 cargo test --test judge` writes the golden requests anew.

mod common;

use std::rc::Rc;

use agora::clock::SystemClock;
use agora::events::{from_json_lines, to_json_lines, Event, MessageKind};
use agora::judge::{self, Judge, JudgeSettings, Scorecard};
use agora::model::Purpose;
use agora::presets::find;
use agora::provider::native::NativeTransport;
use agora::provider::{wire, Dialect, Endpoint, HttpModel, NetworkSettings, Protocol};
use common::{run_demo, Server};

/// A short debate on the demo model: three turns of the rail debate.
fn debate() -> Vec<Event> {
    let mut s = find("rail-debate").unwrap().scenario();
    s.max_turns = 3;
    s.seed = 1;
    run_demo(s)
}

fn judge_on(url: &str, provider: &str) -> (JudgeSettings, Judge, Rc<dyn agora::model::ChatModel>) {
    let settings = JudgeSettings {
        provider: provider.into(),
        model: "judge-x".into(),
        base_url: url.into(),
        ..JudgeSettings::default()
    };
    let endpoint = Endpoint {
        provider: provider.into(),
        base_url: url.into(),
        model: "judge-x".into(),
        key: Some("k".into()),
        ..Default::default()
    };
    let network = NetworkSettings { stream: false, ..NetworkSettings::default() };
    let model = HttpModel::new(
        endpoint,
        network,
        Rc::new(NativeTransport::default()),
        Rc::new(SystemClock::default()),
    )
    .unwrap();
    let judge = Judge { label: format!("{provider} judge-x"), same_model: false };
    (settings, judge, Rc::new(model))
}

fn judged(events: &[Event], url: &str, provider: &str) -> Vec<Event> {
    let (settings, judge, model) = judge_on(url, provider);
    futures::executor::block_on(judge::judge_run(
        events,
        &settings,
        &judge,
        Some(model),
        Rc::new(SystemClock::default()),
    ))
    .expect("the judge was asked")
}

fn verdict(added: &[Event]) -> (Vec<Scorecard>, Option<Scorecard>, &str) {
    match added.last() {
        Some(v @ Event::Verdict { not_judged, .. }) => {
            let (agents, conversation) = judge::scorecards(v).expect("the scorecards read back");
            (agents, conversation, not_judged)
        }
        other => panic!("the last event is not a verdict: {other:?}"),
    }
}

fn judge_calls(added: &[Event]) -> Vec<(u32, bool)> {
    added
        .iter()
        .filter_map(|e| match e {
            Event::ModelCall { purpose: Purpose::Judge, attempt, parse, .. } => Some((*attempt, parse.ok)),
            _ => None,
        })
        .collect()
}

#[test]
fn the_judges_request_is_golden_for_openai_compatible_and_anthropic_providers() {
    let events = debate();
    let request = judge::request(&events, &JudgeSettings::default()).unwrap();
    let bless = std::env::var("AGORA_BLESS").is_ok();
    for (protocol, name) in [(Protocol::OpenAi, "openai"), (Protocol::Anthropic, "anthropic")] {
        let body = wire::body(protocol, Dialect::default(), &request, "judge-x", false);
        let bytes = serde_json::to_string_pretty(&body).unwrap() + "\n";
        let path = format!("{}/tests/requests/judge-{name}.json", env!("CARGO_MANIFEST_DIR"));
        if bless {
            std::fs::write(&path, &bytes).unwrap();
        }
        let golden =
            std::fs::read_to_string(&path).expect("the golden request exists (AGORA_BLESS=1 writes it)");
        assert_eq!(bytes, golden, "the {name} request changed; if that is meant, bless it");
    }
    // What the golden files hold, said plainly: every speech with its turn, the rubric, and the
    // cast's names in the schema.
    let prompt = &request.messages[0].content;
    for e in &events {
        if let Event::Message { turn, speaker, text, .. } = e {
            assert!(
                prompt.contains(&format!("[turn {turn}] {speaker}: {text}")),
                "{speaker}'s turn {turn} is missing"
            );
        }
    }
    assert!(prompt.contains("- responsiveness (1 to 5): Takes up what the others said"));
    assert!(prompt.contains("- balance (1 to 5):"));
    let agora::model::ResponseFormat::JsonSchema { schema, .. } = &request.response_format else {
        panic!("no schema")
    };
    assert_eq!(schema["properties"]["agents"]["required"].as_array().unwrap().len(), 3);
}

#[test]
fn a_verdict_is_read_from_the_test_llm_server_over_both_protocols() {
    let events = debate();
    let server = Server::start(&[]);
    for provider in ["custom", "anthropic"] {
        let url = if provider == "anthropic" { format!("{}/v1", server.url) } else { server.url.clone() };
        let added = judged(&events, &url, provider);
        assert_eq!(judge_calls(&added), vec![(1, true)], "{provider}");
        let (agents, conversation, not_judged) = verdict(&added);
        assert_eq!(not_judged, "");
        let names: Vec<&str> = agents.iter().map(|c| c.agent.as_str()).collect();
        assert_eq!(names, ["Donald Trump", "Kanye West", "Elizabeth Warren"]);
        for c in agents {
            assert_eq!(c.scores.len(), 5);
            assert!(c.scores.iter().all(|s| s.score.is_some_and(|v| (1..=5).contains(&v))), "{c:?}");
            assert!(c.reasoning.starts_with(&c.agent), "{}", c.reasoning);
            // Length beside the scores, from the transcript.
            let spoke = events
                .iter()
                .filter(|e| matches!(e, Event::Message { speaker, kind: MessageKind::Agent, .. } if *speaker == c.agent))
                .count();
            assert_eq!(c.speeches as usize, spoke);
            assert_eq!(c.strongest_turn.is_some(), spoke > 0, "a turn is kept only where the agent spoke");
        }
        assert_eq!(conversation.unwrap().scores.len(), 3);
    }
}

#[test]
fn unreadable_refused_and_truncated_verdicts_are_asked_again_then_recorded_as_not_judged() {
    let events = debate();
    // Prose, then a refusal, then a verdict cut at its token limit: three attempts, none read.
    let server = Server::start(&["--fault", "unreadable", "--fault", "refusal", "--fault", "truncate"]);
    let added = judged(&events, &server.url, "custom");
    assert_eq!(judge_calls(&added), vec![(1, false), (2, false), (3, false)]);
    let (agents, conversation, not_judged) = verdict(&added);
    assert!(not_judged.starts_with("no readable verdict in 3 replies"), "{not_judged}");
    // Not judged is no score at all, never a zero.
    assert!(agents.iter().chain(&conversation).all(|c| c.scores.iter().all(|s| s.score.is_none())));
    // The speeches are still counted, from the transcript, for a verdict not judged.
    for c in &agents {
        let spoke = events
            .iter()
            .filter(|e| matches!(e, Event::Message { speaker, kind: MessageKind::Agent, .. } if *speaker == c.agent))
            .count();
        assert_eq!(c.speeches as usize, spoke, "{}", c.agent);
    }
    assert!(agents.iter().any(|c| c.speeches > 0));
    let lines = judge::verdict_lines(added.last().unwrap());
    assert_eq!(lines[1], format!("Not judged: {not_judged}"));

    // A truncated verdict, then a whole one: judged on the second attempt.
    let server = Server::start(&["--fault", "truncate"]);
    let added = judged(&events, &server.url, "custom");
    assert_eq!(judge_calls(&added), vec![(1, false), (2, true)]);
    assert_eq!(verdict(&added).2, "");
}

#[test]
fn a_reply_that_leaves_out_an_agent_or_strays_off_the_scale_is_unreadable() {
    let events = debate();
    let s = JudgeSettings::default();
    let card = |name: &str, score: i64| {
        serde_json::json!({"agent": name, "reasoning": "r", "scores": {"responsiveness": score, "argument": 3,
            "evidence": 3, "civility": 3, "goal": 3}, "strongest_turn": 1, "weakest_turn": 2})
    };
    let conversation =
        serde_json::json!({"reasoning": "c", "scores": {"balance": 3, "progress": 3, "repetition": 3}});
    let reply = |agents: Vec<serde_json::Value>| {
        format!("Here it is: {}", serde_json::json!({"agents": agents, "conversation": conversation}))
    };
    let all = vec![card("Donald Trump", 4), card("kanye west", 5), card("Elizabeth Warren", 1)];
    let read = judge::read_verdict(&reply(all), &events, &s).unwrap();
    assert_eq!(read.agents[1].agent, "Kanye West", "names are matched ignoring case");
    assert_eq!(read.agents[1].scores[0].score, Some(5));
    let missing =
        judge::read_verdict(&reply(vec![card("Donald Trump", 4), card("Kanye West", 4)]), &events, &s);
    assert_eq!(missing.unwrap_err(), "the verdict does not judge Elizabeth Warren");
    let off = judge::read_verdict(
        &reply(vec![card("Donald Trump", 6), card("Kanye West", 4), card("Elizabeth Warren", 4)]),
        &events,
        &s,
    );
    assert_eq!(off.unwrap_err(), "Donald Trump's responsiveness score is 6, outside 1 to 5");
    assert!(judge::read_verdict("I liked them all.", &events, &s).unwrap_err().contains("no JSON object"));

    // The schema keys the cards by the cast's names and requires each: a strict structured output
    // cannot leave one out (an array of cards let it return one agent).
    let names: Vec<String> = ["Donald Trump", "Kanye West", "Elizabeth Warren"].map(String::from).to_vec();
    let schema = judge::schema(&s, &names);
    let agents = &schema["properties"]["agents"];
    assert_eq!(agents["type"], "object");
    assert_eq!(agents["required"], serde_json::json!(names));
    assert_eq!(agents["additionalProperties"], false);
    for n in &names {
        assert_eq!(
            agents["properties"][n]["required"],
            serde_json::json!(["reasoning", "scores", "strongest_turn", "weakest_turn"])
        );
    }
    // A reply in that shape is read; one that leaves an agent out is refused by name.
    let keyed = |cards: &[(&str, i64)]| {
        let map: serde_json::Map<String, serde_json::Value> = cards
            .iter()
            .map(|(n, v)| {
                let mut c = card(n, *v);
                c.as_object_mut().unwrap().remove("agent");
                (n.to_string(), c)
            })
            .collect();
        serde_json::json!({"agents": map, "conversation": conversation}).to_string()
    };
    let read = judge::read_verdict(
        &keyed(&[("Donald Trump", 4), ("Kanye West", 2), ("Elizabeth Warren", 1)]),
        &events,
        &s,
    )
    .unwrap();
    assert_eq!(
        read.agents.iter().map(|c| c.scores[0].score).collect::<Vec<_>>(),
        [Some(4), Some(2), Some(1)]
    );
    let missing = judge::read_verdict(&keyed(&[("Donald Trump", 4), ("Kanye West", 2)]), &events, &s);
    assert_eq!(missing.unwrap_err(), "the verdict does not judge Elizabeth Warren");
}

#[test]
fn a_judged_log_reads_back_with_its_verdict_and_says_it_in_the_markdown_and_the_terminal() {
    let events = debate();
    let server = Server::start(&[]);
    let mut log = events.clone();
    log.extend(judged(&events, &server.url, "custom"));
    let back = from_json_lines(&to_json_lines(&log)).unwrap();
    assert_eq!(back, log);
    let md = agora::export::to_markdown(&log);
    let section = md.split("## Verdict\n\n").nth(1).expect("a verdict section");
    assert!(section.starts_with("*Verdict by custom judge-x*\n\n- Donald Trump: responsiveness "));
    assert!(section.contains("  Why: Donald Trump answered the others"));
    assert!(section.contains("- The conversation: balance "));
    // The judge's call is costed apart from the run's.
    let view = agora::view::RunView::from_events(&log);
    let run_only = agora::view::RunView::from_events(&events);
    assert_eq!(view.stats.total, run_only.stats.total);
    assert_eq!(view.stats.judge.calls, 1);
    assert!(view.verdict.is_some());
}

#[test]
fn the_judge_on_the_debaters_own_model_is_flagged_and_the_demo_model_has_the_demo_judge() {
    let mut s = find("rail-debate").unwrap().scenario();
    let settings = JudgeSettings::default();
    assert!(Judge::of(&settings.who(), &s).is_demo());
    s.model.provider = "openai".into();
    s.model.name = "gpt-x".into();
    assert_eq!(Judge::of(&settings.who(), &s), Judge { label: "openai gpt-x".into(), same_model: true });
    let other = JudgeSettings { provider: "anthropic".into(), model: "claude-x".into(), ..settings.clone() };
    assert!(!Judge::of(&other.who(), &s).same_model);
    let same = JudgeSettings { provider: "openai".into(), model: "gpt-x".into(), ..settings };
    assert!(Judge::of(&same.who(), &s).same_model);
}

/// A planted debate: Ann answers Bob's words each time, Bob repeats himself and ignores Ann,
/// and Cy speaks off the topic and rudely.
fn planted() -> Vec<Event> {
    let s = common::scenario(
        r#"{"version": 1, "title": "Planted", "topic": "rail transport funding", "word_limit": 20,
            "agents": [{"name": "Ann", "description": "wants rail"}, {"name": "Bob", "description": "wants roads"},
                       {"name": "Cy", "description": "wants nothing"}],
            "method": {"kind": "round_robin"}}"#,
    );
    let says = [
        ("Bob", "Roads carry freight cheaper than any rail line ever will, believe me."),
        ("Ann", "Cheaper freight on roads ignores the 40 billion Amtrak saves in crashes; rail funding pays."),
        ("Cy", "You are all stupid fools and this is nonsense about pizza."),
        ("Bob", "Roads carry freight cheaper than any rail line ever will, believe me."),
        ("Ann", "Bob repeats that roads carry freight cheaper, yet the Federal Railroad study of 2019 found rail cheaper per tonne."),
        ("Cy", "Pizza is better than all of this, idiots."),
    ];
    let mut events = vec![Event::RunStarted { seed: 1, scenario: Box::new(s) }];
    for (i, (who, text)) in says.iter().enumerate() {
        events.push(Event::Message {
            turn: i as u32 + 1,
            speaker: who.to_string(),
            text: text.to_string(),
            kind: MessageKind::Agent,
            refusal: String::new(),
        });
    }
    events
}

#[test]
fn the_demo_judge_ranks_planted_speakers_as_planted() {
    let events = planted();
    let verdict = judge::demo::verdict(&events, &JudgeSettings::default());
    let Event::Verdict { judge: by, .. } = &verdict else { panic!("not a verdict") };
    assert_eq!(by, judge::demo::LABEL);
    let (agents, conversation) = judge::scorecards(&verdict).unwrap();
    let score = |agent: &str, dim: &str| {
        let c = agents.iter().find(|c| c.agent == agent).unwrap();
        c.scores.iter().find(|s| s.dimension == dim).unwrap().score.unwrap()
    };
    assert!(score("Ann", "responsiveness") > score("Bob", "responsiveness"));
    assert!(score("Ann", "argument") > score("Bob", "argument"), "Bob repeats himself");
    assert!(score("Ann", "evidence") > score("Cy", "evidence"));
    assert!(score("Ann", "civility") > score("Cy", "civility"));
    assert!(score("Ann", "goal") > score("Cy", "goal"));
    let ann = agents.iter().find(|c| c.agent == "Ann").unwrap();
    assert_eq!((ann.strongest_turn, ann.weakest_turn), (Some(5), Some(2)));
    assert!(ann.reasoning.starts_with("Text statistics, not a reading"));
    // Speeches alike in what they cite name no weakest beside the strongest: never the same turn.
    for c in &agents {
        assert!(c.weakest_turn.is_none() || c.weakest_turn != c.strongest_turn, "{}: {c:?}", c.agent);
    }
    let c = conversation.unwrap();
    assert_eq!(c.scores[0].score, Some(5), "three agents with two speeches each are balanced");
}

#[test]
fn the_card_names_who_scored_highest_and_every_one_on_a_tie() {
    let mut events = planted();
    events.push(judge::demo::verdict(&events, &JudgeSettings::default()));
    let card = judge::Card::of(&events).unwrap();
    let leader = card.leader().unwrap();
    assert!(leader.starts_with("Scored highest: Ann, with a mean of "), "{leader}");
    assert!(leader.ends_with(" on the 1–5 scale."), "{leader}");
    // Bob scored as Ann did: both are named, as tied.
    let mut tied = card.clone();
    let ann = tied.agents.iter().find(|c| c.agent == "Ann").unwrap().scores.clone();
    tied.agents.iter_mut().find(|c| c.agent == "Bob").unwrap().scores = ann;
    assert!(
        tied.leader().unwrap().starts_with("Scored highest: Ann and Bob (tied), "),
        "{:?}",
        tied.leader()
    );
    // Scales that differ: the mean is a share of each.
    let mut mixed = card.clone();
    for c in &mut mixed.agents {
        c.scores[0].max = 10;
    }
    let words = mixed.leader().unwrap();
    assert!(words.contains(" % of each scale."), "{words}");
    // No agent scored: no one named.
    let mut none = card;
    none.agents.iter_mut().for_each(|c| c.scores.iter_mut().for_each(|s| s.score = None));
    assert_eq!(none.leader(), None);
}

#[test]
fn the_demo_judge_gives_its_reasons_in_the_scenarios_language_with_the_same_scores() {
    let english = judge::demo::verdict(&planted(), &JudgeSettings::default());
    let mut events = planted();
    if let Event::RunStarted { scenario, .. } = &mut events[0] {
        scenario.language = "Chinese".into();
    }
    let chinese = judge::demo::verdict(&events, &JudgeSettings::default());
    let (en_agents, en_whole) = judge::scorecards(&english).unwrap();
    let (zh_agents, zh_whole) = judge::scorecards(&chinese).unwrap();
    for (en, zh) in en_agents.iter().zip(&zh_agents) {
        assert_eq!(en.scores, zh.scores, "{}: the language changes the words, not the scores", en.agent);
        assert!(zh.reasoning.starts_with("文本统计"), "{}", zh.reasoning);
        assert!(!zh.reasoning.chars().any(|c| c.is_ascii_alphabetic()), "{}", zh.reasoning);
    }
    let (en_whole, zh_whole) = (en_whole.unwrap(), zh_whole.unwrap());
    assert_eq!(en_whole.scores, zh_whole.scores);
    assert!(
        zh_whole.reasoning.starts_with("文本统计") && !zh_whole.reasoning.contains("even"),
        "{}",
        zh_whole.reasoning
    );
}

#[test]
fn agora_judge_judges_a_recorded_log_and_writes_it_back_with_its_verdict() {
    let dir = std::env::temp_dir().join(format!("agora-judge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("run.jsonl");
    std::fs::write(&log, to_json_lines(&debate())).unwrap();
    let out = dir.join("judged.jsonl");
    let md = dir.join("judged.md");
    let server = Server::start(&[]);
    let run = |args: &[&str], key: Option<&str>| common::agora(&[&["judge"], args].concat(), None, key);
    let (code, stdout, stderr) = run(
        &[
            log.to_str().unwrap(),
            "--judge-provider",
            "custom",
            "--judge-model",
            "judge-x",
            "--judge-base-url",
            &server.url,
            "--out",
            out.to_str().unwrap(),
            "--markdown",
            md.to_str().unwrap(),
        ],
        Some("k"),
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("== Verdict by custom judge-x\n   Donald Trump: responsiveness "), "{stdout}");
    let written = from_json_lines(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(written[..written.len() - 2], debate()[..]);
    assert!(matches!(written.last(), Some(Event::Verdict { not_judged, .. }) if not_judged.is_empty()));
    assert!(std::fs::read_to_string(&md).unwrap().contains("## Verdict"));
    // On the demo model with no judge named: the demo judge, no call.
    let (code, stdout, _) = run(&[log.to_str().unwrap()], None);
    assert_eq!(code, 0);
    assert!(stdout.starts_with(&format!("== Verdict by {}", judge::demo::LABEL)), "{stdout}");
    // A judge named by half: a clear error.
    let (code, _, stderr) = run(&[log.to_str().unwrap(), "--judge-provider", "custom"], None);
    assert_eq!(code, 2);
    assert!(stderr.contains("--judge-provider needs --judge-model NAME"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn agora_batch_judges_each_run_into_judge_columns_that_read_back_and_resume() {
    let dir = std::env::temp_dir().join(format!("agora-judged-batch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("judged.csv");
    let batch = |args: &[&str]| {
        let base = [
            "batch",
            "preset:rail-debate",
            "--seeds",
            "1..3",
            "--turns",
            "3",
            "--out",
            out.to_str().unwrap(),
        ];
        common::agora(&[&base[..], args].concat(), None, Some("k"))
    };
    // On the demo model, --judge is the demo judge.
    let (code, stdout, stderr) = batch(&["--judge"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains(&format!("each run is judged by {}", judge::demo::LABEL)), "{stderr}");
    let csv = std::fs::read_to_string(&out).unwrap();
    let table = agora::batch::read_csv(&csv).unwrap();
    assert_eq!(table.judge.len(), 5 * 3 + 3);
    assert_eq!(table.judge[0], "responsiveness:Donald Trump");
    assert_eq!(table.judge.last().unwrap(), "repetition");
    assert!(csv.lines().next().unwrap().contains(",judge:responsiveness:Donald Trump,"));
    for r in &table.rows {
        assert_eq!(r.judge.len(), 18);
        // Every speaker is scored; an agent who never spoke in three turns has no score, not a zero.
        for (column, score) in &r.judge {
            if let Some(v) = score {
                assert!((1..=5).contains(v), "{column} {v}");
            }
        }
    }
    assert_eq!(
        agora::batch::read_csv(&table.to_csv()).unwrap(),
        table,
        "the judge columns read back as written"
    );
    // The charts draw them: one per agent dimension, a bar per agent, and the conversation's.
    let charts = agora::batch::charts::charts(&table, &agora::batch::Summary::of(&table));
    let chart =
        |caption: &str| charts.iter().find(|c| c.caption.starts_with(caption)).map(|c| c.alternative());
    let responsiveness =
        chart("The judge's responsiveness score per agent").expect("a chart of responsiveness");
    // A bar for every agent the judge scored in some run (one who never spoke has none).
    let scored = |agent: &str| {
        table.rows.iter().any(|r| {
            r.judge
                .iter()
                .any(|(column, score)| column == &format!("responsiveness:{agent}") && score.is_some())
        })
    };
    let mut bars = 0;
    for agent in ["Donald Trump", "Kanye West", "Elizabeth Warren"] {
        assert_eq!(responsiveness.contains(agent), scored(agent), "{agent} in {responsiveness}");
        bars += usize::from(scored(agent));
    }
    assert!(bars >= 2, "{responsiveness}");
    let whole = chart("The judge's scores of the conversation").expect("a chart of the conversation");
    for d in ["balance", "progress", "repetition"] {
        assert!(whole.contains(d), "{d}");
    }
    assert_eq!(charts.iter().filter(|c| c.caption.starts_with("The judge's")).count(), 5 + 1);
    assert!(stdout.contains("The judge's scores (3 of 3 runs judged;"), "{stdout}");
    assert!(stdout.contains("  balance "), "{stdout}");

    // The same rows as a judged run's own log gives.
    let seed1 = {
        let mut s = find("rail-debate").unwrap().scenario();
        s.max_turns = 3;
        s.seed = 1;
        let mut log = run_demo(s);
        log.push(judge::demo::verdict(&log, &JudgeSettings::default()));
        agora::batch::RunFigures::of(1, &log)
    };
    assert_eq!(table.rows.iter().find(|r| r.seed == 1).unwrap().judge, seed1.judge);

    // Resuming with another judge (none) is refused, naming why.
    let (code, _, stderr) = batch(&["--resume"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("written with other judge columns"), "{stderr}");

    // A judge on the local LLM server, named by flags.
    let server = Server::start(&[]);
    std::fs::remove_file(&out).unwrap();
    let (code, stdout, stderr) =
        batch(&["--judge-provider", "custom", "--judge-model", "judge-x", "--judge-base-url", &server.url]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("each run is judged by custom judge-x"), "{stderr}");
    let table = agora::batch::read_csv(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert!(table.rows.iter().all(|r| r.judge.iter().filter(|(_, v)| v.is_some()).count() >= 3 + 3));
    assert!(stdout.contains("The judge's scores (3 of 3 runs judged;"));
    assert!(table.rows.iter().all(|r| r.judge_error.is_empty()), "judged runs have no judge_error");

    // A judge that answers prose where JSON was asked for: each run says why it was not judged, on
    // stderr and in the CSV's judge_error column.
    drop(server);
    let server = Server::start(&["--fault", "unreadablex100"]);
    std::fs::remove_file(&out).unwrap();
    let (code, stdout, stderr) =
        batch(&["--judge-provider", "custom", "--judge-model", "judge-x", "--judge-base-url", &server.url]);
    assert_eq!(code, 0, "{stderr}");
    let csv = std::fs::read_to_string(&out).unwrap();
    assert!(csv.lines().next().unwrap().ends_with(",judge_error"), "{csv}");
    let table = agora::batch::read_csv(&csv).unwrap();
    for r in &table.rows {
        assert!(r.judge_error.starts_with("no readable verdict in 3 replies"), "{:?}", r.judge_error);
        assert!(stderr.contains(&format!("seed {}: not judged: {}", r.seed, r.judge_error)), "{stderr}");
    }
    assert!(stdout.contains("0 of 3 runs judged"), "{stdout}");
    assert_eq!(agora::batch::read_csv(&table.to_csv()).unwrap(), table, "judge_error reads back as written");

    // A judge nobody answers for: the reason names the address.
    drop(server);
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let url = format!("http://127.0.0.1:{port}/v1");
    std::fs::remove_file(&out).unwrap();
    let (_, _, stderr) =
        batch(&["--judge-provider", "custom", "--judge-model", "judge-x", "--judge-base-url", &url]);
    let table = agora::batch::read_csv(&std::fs::read_to_string(&out).unwrap()).unwrap();
    for r in &table.rows {
        assert!(r.judge_error.contains(&format!("Could not reach {url}")), "{:?}", r.judge_error);
    }
    assert!(stderr.contains("seed 1: not judged: the judge could not be asked: Could not reach"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn agora_judge_check_compares_the_judges_scores_with_a_researchers_labels() {
    let dir = std::env::temp_dir().join(format!("agora-judge-check-{}", std::process::id()));
    let runs = dir.join("runs");
    std::fs::create_dir_all(&runs).unwrap();
    let batch = ["batch", "preset:rail-debate", "--seeds", "1..6", "--turns", "4", "--judge"];
    let (code, _, stderr) =
        common::agora(&[&batch[..], &["--out", "b.csv", "--events-dir", "runs"]].concat(), Some(&dir), None);
    assert_eq!(code, 0, "{stderr}");
    // The researcher agrees with the judge on civility and argument, and ranks evidence backwards.
    let mut labels = String::from("run,agent,dimension,score\n");
    let mut judge_evidence = Vec::new();
    let mut judge_argument = Vec::new();
    for seed in 1..=6 {
        let log = from_json_lines(&std::fs::read_to_string(runs.join(format!("seed-{seed}.jsonl"))).unwrap())
            .unwrap();
        let Some(verdict) = judge::latest(&log) else { panic!("seed {seed} was not judged") };
        for c in judge::scorecards(verdict).unwrap().0 {
            for s in c.scores.iter().filter(|s| s.score.is_some()) {
                let v = s.score.unwrap();
                let given = match s.dimension.as_str() {
                    "evidence" => 6 - v,
                    "argument" | "civility" => v,
                    _ => continue,
                };
                if s.dimension == "evidence" {
                    judge_evidence.push((v, given));
                }
                if s.dimension == "argument" {
                    judge_argument.push((v, given));
                }
                labels.push_str(&format!("seed-{seed},{},{},{given}\n", c.agent, s.dimension));
            }
        }
    }
    labels.push_str("seed-99,Nobody,argument,3\n");
    std::fs::write(dir.join("labels.csv"), &labels).unwrap();
    let (code, stdout, stderr) = common::agora(&["judge-check", "runs", "labels.csv"], Some(&dir), None);
    assert_eq!(code, 0, "{stderr}");
    let line = |d: &str| {
        stdout
            .lines()
            .find(|l| l.trim_start().starts_with(d))
            .unwrap_or_else(|| panic!("{d}: {stdout}"))
            .to_string()
    };
    let argument = judge::agreement::Agreement::of("argument", &judge_argument, 1, 5);
    assert_eq!(line("argument"), argument.line(9));
    assert!(argument.spearman.is_none_or(|r| r == 1.0), "{stdout}");
    let expected = judge::agreement::Agreement::of("evidence", &judge_evidence, 1, 5);
    assert_eq!(line("evidence"), expected.line(9));
    assert!(expected.spearman.is_none_or(|r| r < 0.0), "ranked backwards");
    // Each interval holds its figure, within [-1, 1].
    for a in [&argument, &expected] {
        for (figure, ci) in [(a.spearman, a.spearman_ci), (a.kappa, a.kappa_ci)] {
            if let (Some(v), Some((lo, hi))) = (figure, ci) {
                assert!(
                    (-1.0..=lo).contains(&-1.0) && lo <= v && v <= hi && hi <= 1.0,
                    "{v} in [{lo}, {hi}]"
                );
            }
        }
    }
    assert!(stdout.contains("95 % percentile bootstrap over the pairs (1000 resamples)"), "{stdout}");
    assert!(stdout.contains("1 labels had no judged score"), "{stdout}");

    // An item labelled twice with the same score counts once and is said.
    let first = labels.lines().nth(1).unwrap().to_string();
    std::fs::write(dir.join("twice.csv"), format!("{labels}{first}\n")).unwrap();
    let (code, again, stderr) = common::agora(&["judge-check", "runs", "twice.csv"], Some(&dir), None);
    assert_eq!(code, 0, "{stderr}");
    assert!(again.contains("1 labels repeated an item with the same score and were counted once"), "{again}");
    assert_eq!(
        again.lines().find(|l| l.trim_start().starts_with("evidence")),
        Some(line("evidence").as_str())
    );

    // Labels off the scale, and an item labelled twice with different scores, are refused by line.
    let n = labels.lines().count();
    let (run, rest) = first.split_once(',').unwrap();
    let (who_what, score) = rest.rsplit_once(',').unwrap();
    for (name, extra, said) in [
        ("seven.csv", format!("{run},{who_what},7\n"), format!("line {n}: the score 7 is off the scale of")),
        ("zero.csv", format!("{run},{who_what},0\n"), format!("line {n}: the score 0 is off the scale of")),
        (
            "other.csv",
            format!("{run},{who_what},{}\n", if score == "3" { 4 } else { 3 }),
            format!("line {}: {run}, ", n + 1),
        ),
    ] {
        // An off-scale label replaces the first line's (moved to the end); a conflicting one repeats it.
        let text = if name == "other.csv" {
            format!("{labels}{extra}")
        } else {
            let mut without = labels.clone();
            without = without.replacen(&format!("{first}\n"), "", 1);
            format!("{without}{extra}")
        };
        std::fs::write(dir.join(name), text).unwrap();
        let (code, _, stderr) = common::agora(&["judge-check", "runs", name], Some(&dir), None);
        assert_eq!(code, 2, "{name}: {stderr}");
        assert!(stderr.contains(&said), "{name}: {stderr}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_judge_settings_travel_as_written_and_are_checked_when_read() {
    let mut s = find("rail-debate").unwrap().scenario();
    assert!(s.judge.is_unset(), "the defaults are not written");
    let settings = JudgeSettings {
        provider: "openai".into(),
        model: "gpt-x".into(),
        attempts: 2,
        ..JudgeSettings::default()
    };
    s.judge = judge::JudgeSpec::of(&settings);
    let back = agora::scenario::Scenario::from_json(&serde_json::to_string(&s).unwrap()).unwrap();
    assert_eq!(back.judge.settings().unwrap(), settings);
    assert_eq!(back.judge.who(), settings.who());
    let bad = judge::JudgeSpec(Some(
        serde_json::json!({"attempts": 0, "agent_rubric": [{"name": "x", "min": 3, "max": 2}]}),
    ));
    assert_eq!(
        bad.settings().unwrap_err(),
        "judge.agent_rubric[0]: the scale of x must run from a lower to a higher number"
    );
    let unreadable = judge::JudgeSpec(Some(serde_json::json!({"attempts": "many"})));
    assert!(unreadable.settings().unwrap_err().contains("attempts"), "{:?}", unreadable.settings());
}

#[test]
fn a_verdict_whose_scorecards_are_not_scorecards_is_refused_where_the_log_is_read() {
    let line = r#"{"type":"verdict","judge":"j","agents":[{"agent":"A","scores":[{"dimension":"civility","score":"high","min":1,"max":5}]}]}"#;
    let err = agora::events::from_json_lines(line).expect_err("a score that is not a number");
    assert!(err.contains("score"), "{err}");
    let fine = r#"{"type":"verdict","judge":"j","agents":[{"agent":"A","scores":[{"dimension":"civility","score":4,"min":1,"max":5}]}]}"#;
    let log = agora::events::from_json_lines(fine).unwrap();
    let (agents, conversation) = judge::scorecards(&log[0]).unwrap();
    assert_eq!((agents[0].scores[0].score, conversation.is_none()), (Some(4), true));
    // Written back with what was read, and no conversation field.
    let again = agora::events::to_json_lines(&log);
    assert!(!again.contains("conversation"), "{again}");
    assert_eq!(agora::events::from_json_lines(&again).unwrap(), log);
}

#[test]
fn live_scoring_scores_each_speech_once_on_the_demo_judge_and_on_the_test_llm_server() {
    use agora::judge::live;
    let clock: Rc<dyn agora::clock::Clock> = Rc::new(SystemClock::default());
    let events = planted();
    let settings = JudgeSettings { live: true, ..JudgeSettings::default() };
    assert_eq!(live::unscored(&events).len(), 6, "every speech of the cast");
    // The demo judge: each speech scored once, in order, from the text statistics so far.
    let demo = Judge::of(
        &Default::default(),
        &common::scenario(
            r#"{"version":1,"title":"t","topic":"x","agents":[{"name":"A"},{"name":"B"}],"method":{"kind":"round_robin"}}"#,
        ),
    );
    assert!(demo.is_demo());
    let (scored, error) =
        futures::executor::block_on(live::score_speeches(&events, &settings, &demo, None, clock.clone()));
    assert!(error.is_none());
    let turns: Vec<(u32, String, Option<f64>)> = scored
        .iter()
        .filter_map(|e| match e {
            Event::SpeechScored { turn, agent, mean, .. } => Some((*turn, agent.clone(), *mean)),
            _ => None,
        })
        .collect();
    assert_eq!(
        turns.iter().map(|(t, a, _)| (*t, a.as_str())).collect::<Vec<_>>(),
        [(1, "Bob"), (2, "Ann"), (3, "Cy"), (4, "Bob"), (5, "Ann"), (6, "Cy")]
    );
    assert!(turns[4].2 > turns[5].2, "Ann's answer scores above Cy's insults: {turns:?}");
    let mut log = events.clone();
    log.extend(scored);
    assert!(live::unscored(&log).is_empty(), "nothing is scored twice");
    // A speech later on is the only one left.
    log.push(Event::Message {
        turn: 7,
        speaker: "Bob".into(),
        text: "Roads again.".into(),
        kind: MessageKind::Agent,
        refusal: String::new(),
    });
    assert_eq!(live::unscored(&log), [(7, "Bob".to_string())]);

    // On the test LLM server: the request names the speech and what came before it; one call a speech.
    let server = Server::start(&[]);
    let (_, judge, model) = judge_on(&server.url, "custom");
    let request = live::request(&events, 5, "Ann", &settings).unwrap();
    let prompt = request.messages[0].content.clone();
    assert!(
        prompt.contains(
            "The speech to score, by Ann (wants rail):\nBob repeats that roads carry freight cheaper"
        ),
        "{prompt}"
    );
    assert!(
        prompt.contains("[turn 4] Bob: Roads carry freight")
            && !prompt.contains("[turn 5]")
            && !prompt.contains("[turn 6]")
    );
    let (scored, error) =
        futures::executor::block_on(live::score_speeches(&events, &settings, &judge, Some(model), clock));
    assert!(error.is_none(), "{error:?}");
    let calls =
        scored.iter().filter(|e| matches!(e, Event::ModelCall { purpose: Purpose::Judge, .. })).count();
    assert_eq!(calls, 6);
    let Some(Event::SpeechScored { agent, mean: Some(mean), reasoning, scores, .. }) = scored.get(1) else {
        panic!("{scored:?}")
    };
    assert_eq!(agent, "Bob");
    assert!(reasoning.starts_with("Bob made a point"), "{reasoning}");
    let scores = scores.read().unwrap();
    assert_eq!(scores.len(), 5);
    let expected = scores.iter().map(|s| f64::from(s.score.unwrap())).sum::<f64>() / 5.0;
    assert!((mean - expected).abs() < 0.01);
    // And in words, in the Markdown as the terminal prints it.
    let mut log = events.clone();
    log.extend(scored);
    let md = agora::export::to_markdown(&log);
    assert!(md.contains("\n## Each speech, scored as it landed\n\n- turn 1, Bob: "), "{md}");
    // A reply that is not a score is asked again, then the speech is recorded as not scored.
    assert!(live::read("{\"reasoning\": \"fine\", \"scores\": {\"civility\": 9}}", "Ann", &settings).is_err());
}

#[test]
fn the_verdict_panel_offers_the_judge_then_shows_the_newest_verdict_with_its_quoted_turns() {
    let mut events = planted();
    let before = judge::Panel::of(&events).expect("a started run has a panel");
    assert_eq!((before.button(), before.card.is_none()), ("Judge this run", true));
    assert!(before.note.as_deref().is_some_and(|n| n.starts_with("Judged by")), "{:?}", before.note);
    assert_eq!(before.text.iter().map(|t| t.agent.as_str()).collect::<Vec<_>>(), ["Ann", "Bob", "Cy"]);
    assert!(judge::Panel::of(&[]).is_none());

    events.push(judge::demo::verdict(&events, &JudgeSettings::default()));
    let after = judge::Panel::of(&events).unwrap();
    assert_eq!((after.button(), after.note.as_ref()), ("Judge again", None));
    let card = after.card.unwrap();
    assert_eq!((card.judge.as_str(), card.problem.as_ref()), (judge::demo::LABEL, None));
    assert_eq!(card.agents.len(), 3);
    let ann = card.reasons.iter().find(|r| r.agent == "Ann").unwrap();
    let turns: Vec<(judge::Pointed, u32)> = ann.pointers.iter().map(|p| (p.what, p.turn)).collect();
    assert_eq!(turns, [(judge::Pointed::Strongest, 5), (judge::Pointed::Weakest, 2)]);
    assert!(
        ann.pointers[0].said.starts_with("Bob repeats that roads carry freight cheaper"),
        "{}",
        ann.pointers[0].said
    );
    assert!(ann.pointers[0].said.split_whitespace().count() <= 41);

    // A verdict that could not judge says why, with no scores.
    events.push(Event::Verdict {
        judge: "custom judge-x".into(),
        same_model: true,
        agents: Default::default(),
        conversation: Default::default(),
        not_judged: "the judge's replies could not be read".into(),
    });
    let card = judge::Panel::of(&events).unwrap().card.unwrap();
    assert_eq!(card.problem.as_deref(), Some("Not judged: the judge's replies could not be read"));
    assert!(card.same_model && card.agents.is_empty() && card.reasons.is_empty());
}
