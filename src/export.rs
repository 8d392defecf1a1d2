//! Exports of a recorded run: a JSON file (the scenario and the whole event log, readable back
//! with the same checks as any scenario) and a Markdown transcript that reads like the seed
//! notebooks (bids, selections, speech, stop draws, handoffs, trades, scores).

use serde::Deserialize;

use crate::events::Event;
use crate::scenario::Scenario;

/// What a run file says it is.
pub const RUN_FORMAT: &str = "agora-run";
pub const RUN_FORMAT_VERSION: u32 = 1;
/// Files larger than this are refused before parsing.
pub const MAX_RUN_FILE_BYTES: usize = 64 * 1024 * 1024;

/// A recorded run as a file.
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(PartialEq))]
pub struct RunFile {
    pub format: String,
    pub version: u32,
    pub scenario: Scenario,
    pub events: Vec<Event>,
}

/// The run as a JSON file, indented for people reading it.
pub fn to_json(scenario: &Scenario, events: &[Event]) -> String {
    crate::json::indent(&to_json_compact(scenario, events))
}

/// The run as a JSON file on one line, for links and saving in the browser.
pub fn to_json_compact(scenario: &Scenario, events: &[Event]) -> String {
    let mut out =
        format!("{{\"format\":\"{RUN_FORMAT}\",\"version\":{RUN_FORMAT_VERSION},\"scenario\":").into_bytes();
    let _ = serde_json::to_writer(&mut out, scenario);
    out.extend_from_slice(b",\"events\":");
    Event::write_list(events, &mut out);
    out.push(b'}');
    String::from_utf8(out).unwrap_or_default()
}

/// Reads a run file; the error is one line saying what is wrong.
pub fn from_json(text: &str) -> Result<RunFile, String> {
    // Windows editors save with a byte-order mark; it is not part of the JSON.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.len() > MAX_RUN_FILE_BYTES {
        return Err(format!("the file is larger than {} MB", MAX_RUN_FILE_BYTES / (1024 * 1024)));
    }
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not a JSON file: {e}"))?;
    match value.get("format").and_then(|f| f.as_str()) {
        Some(RUN_FORMAT) => {}
        Some(other) => return Err(format!("not an Agora run (format \"{other}\")")),
        // The other files the page saves open elsewhere.
        None if value.get("nbformat").is_some() => {
            return Err("a notebook: it opens in Jupyter or Colab, not here".into())
        }
        None if value.get("resourceSpans").is_some() => {
            return Err("a trace: it opens in a trace viewer such as Phoenix or Jaeger, not here".into())
        }
        None => return Err("not an Agora run (no \"format\" field)".into()),
    }
    match value.get("version").and_then(|v| v.as_u64()) {
        Some(v) if v == RUN_FORMAT_VERSION as u64 => {}
        Some(v) => {
            return Err(format!(
                "run file version {v} is not supported (this build reads version {RUN_FORMAT_VERSION})"
            ))
        }
        None => return Err("the run file has no version".into()),
    }
    let file: RunFile = serde_json::from_value(value).map_err(|e| format!("not a valid run file: {e}"))?;
    file.scenario.validate().map_err(|errors| {
        let list: Vec<String> = errors.iter().map(ToString::to_string).collect();
        format!("the run's scenario is invalid: {}", list.join("; "))
    })?;
    match file.events.first() {
        Some(Event::RunStarted { scenario, .. }) if scenario.same_as(&file.scenario) => {}
        Some(Event::RunStarted { .. }) => return Err("the event log belongs to another scenario".into()),
        _ => return Err("the event log does not start with run_started".into()),
    }
    Ok(file)
}

/// Keeps model output from being read as HTML where the Markdown is rendered.
fn inert(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The run as a Markdown transcript.
pub fn to_markdown(events: &[Event]) -> String {
    let mut out = String::new();
    let mut after_bids = false;
    let mut seats: &[String] = &[];
    let mut scored = false;
    // The student whose phone answered an agent's last call, named beside the speech it gave.
    let mut answered_by: Option<(&str, &str)> = None;
    for event in events {
        match event {
            Event::ModelCall { agent, human: true, by, .. } if !by.is_empty() => {
                answered_by = Some((agent.as_str(), by.as_str()));
            }
            Event::RunStarted { seed, scenario } => {
                seats = &scenario.seats;
                out.push_str(&format!("# {}\n\n", inert(&scenario.title)));
                out.push_str(&format!(
                    "*Method: {} · seed {seed}*\n\n",
                    scenario.method.name().replace('_', " ")
                ));
                out.push_str(&format!("**Topic:** {}\n\n", inert(&scenario.topic)));
                let names: Vec<String> = scenario.agents.iter().map(|a| inert(&a.name)).collect();
                out.push_str(&format!("**Agents:** {}\n\n", names.join(", ")));
            }
            Event::TopicSpecified { specified, .. } => {
                out.push_str(&format!("**Detailed topic:** {}\n\n", inert(specified)))
            }
            Event::CharacterDescribed { agent, description } => {
                out.push_str(&format!("**{} description:** {}\n\n", inert(agent), inert(description)))
            }
            Event::Message { speaker, text, kind, refusal, .. } => {
                let note = kind.note(refusal).map(|n| format!(" _({})_", inert(&n))).unwrap_or_default();
                let by = answered_by.take().filter(|(agent, _)| agent == speaker).map(|(_, by)| by);
                let you = match by {
                    _ if !crate::seat::said_by_person(seats, speaker, *kind) => String::new(),
                    Some(student) => format!(", played by {}", inert(student)),
                    None => ", you".to_string(),
                };
                out.push_str(&format!("**({}{you}):** {}{note}\n\n", inert(speaker), inert(text)))
            }
            Event::GameStarted { iteration, prompts, .. } => {
                out.push_str(&format!("## Game {iteration}\n\n"));
                for (player, prompt) in prompts {
                    out.push_str(&format!("- {}: {}\n", inert(player), inert(prompt)));
                }
                out.push('\n');
            }
            Event::Inventory { resources, inventories, values, .. } => {
                for (player, quantities) in inventories {
                    let items = crate::methods::negotiation::describe_inventory(resources, quantities);
                    let value = values.get(player).copied().unwrap_or(0);
                    out.push_str(&format!("> {}: {items} (value {value})  \n", inert(player)));
                }
                out.push('\n');
            }
            Event::GameEnd { feedback, optimum, .. } => {
                for line in feedback.lines() {
                    out.push_str(&format!("**{}**  \n", inert(line)));
                }
                out.push_str(&format!("(optimum: {optimum})\n\n"));
            }
            Event::OptimizerIteration { next_prompts, iteration, .. } => {
                if let Some(line) = crate::decisions::decision(event) {
                    out.push_str(&format!("> {}\n\n", inert(&line)));
                }
                if let Some(next) = next_prompts {
                    out.push_str(&format!("Optimizer after game {iteration}:\n\n"));
                    for (player, prompt) in next {
                        out.push_str(&format!("- {}: {}\n", inert(player), inert(prompt)));
                    }
                    out.push('\n');
                }
            }
            Event::Error { message, .. } => out.push_str(&format!("**Error:** {}\n\n", inert(message))),
            Event::RunFinished { reason } => {
                out.push_str(&format!("*Finished: {}*\n", reason.as_str().replace('_', " ")))
            }
            // The judge's words as the terminal prints them (`crate::judge::verdict_lines`).
            Event::Verdict { .. } => {
                out.push_str("\n## Verdict\n\n");
                for (i, line) in crate::judge::verdict_lines(event).iter().enumerate() {
                    out.push_str(&match (i, line.strip_prefix("Why: ")) {
                        (0, _) => format!("*{}*\n\n", inert(line)),
                        (_, Some(why)) => format!("  Why: {}\n", inert(why)),
                        _ => format!("- {}\n", inert(line)),
                    });
                }
            }
            Event::SpeechScored { .. } => {
                if !std::mem::replace(&mut scored, true) {
                    out.push_str("\n## Each speech, scored as it landed\n\n");
                }
                if let Some(line) = crate::judge::live::line(event) {
                    out.push_str(&format!("- {}\n", inert(&line)));
                }
            }
            // Every decision in the words the terminal prints (`crate::decisions`); a turn's bids
            // are one quoted block with the selection that follows them.
            event => {
                let Some(line) = crate::decisions::decision(event) else { continue };
                if !crate::decisions::shown(event, after_bids) {
                    continue;
                }
                let bid = matches!(event, Event::Bid { .. });
                out.push_str(&format!("> {}{}", inert(&line), if bid { "  \n" } else { "\n\n" }));
                if bid || matches!(event, Event::SpeakerSelected { .. }) {
                    after_bids = bid;
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(id: &str) -> (Scenario, Vec<Event>) {
        let scenario = crate::presets::find(id).unwrap().scenario();
        let events = crate::engine::demo_events(&scenario);
        (scenario, events)
    }

    #[test]
    fn a_speech_from_a_students_phone_is_labelled_with_the_student() {
        let mut events =
            crate::events::from_json_lines(include_str!("../tests/golden/rail-debate-seed1.jsonl")).unwrap();
        // The agent who speaks most: the seat's first speech and a later one.
        let speeches = |name: &str| {
            events.iter().filter(|e| matches!(e, Event::Message { speaker, .. } if speaker == name)).count()
        };
        let Some(Event::RunStarted { scenario, .. }) = events.first() else { panic!("no run_started") };
        let seated = scenario.agents.iter().map(|a| a.name.clone()).max_by_key(|n| speeches(n)).unwrap();
        if let Some(Event::RunStarted { scenario, .. }) = events.first_mut() {
            scenario.seats = vec![seated.clone()];
        }
        // The seat's first speech came from Li Wei's phone; its later ones from the teacher's page.
        let spoke = events
            .iter()
            .position(|e| matches!(e, Event::Message { speaker, .. } if *speaker == seated))
            .expect("the seated agent speaks");
        let call = events[..spoke]
            .iter()
            .rposition(|e| matches!(e, Event::ModelCall { agent, .. } if *agent == seated))
            .expect("a call before the speech");
        if let Event::ModelCall { human, by, .. } = &mut events[call] {
            (*human, *by) = (true, "Li Wei".into());
        }
        let md = to_markdown(&events);
        let labels: Vec<&str> = md.lines().filter(|l| l.starts_with(&format!("**({seated}"))).collect();
        assert!(labels.len() >= 2, "{md}");
        assert!(labels[0].starts_with(&format!("**({seated}, played by Li Wei):**")), "{}", labels[0]);
        assert!(labels[1..].iter().all(|l| l.starts_with(&format!("**({seated}, you):**"))), "{labels:?}");
    }

    #[test]
    fn run_files_round_trip() {
        for preset in crate::presets::PRESETS {
            let (scenario, events) = run(preset.id);
            let file = from_json(&to_json(&scenario, &events)).unwrap();
            assert_eq!(file.scenario, scenario);
            assert_eq!(file.events.len(), events.len());
            assert!(file.events == events, "{}", preset.id);
        }
    }

    #[test]
    fn bad_run_files_say_what_is_wrong() {
        let (scenario, events) = run("rail-debate");
        let good = to_json(&scenario, &events);
        let cases: Vec<(String, &str)> = vec![
            ("{".into(), "not a JSON file"),
            ("{}".into(), "no \"format\" field"),
            (good.replace("\"agora-run\"", "\"other\""), "format \"other\""),
            (good.replacen("\"version\": 1", "\"version\": 9", 1), "version 9 is not supported"),
            (good.replace("\"events\": [", "\"events\": [{\"type\": \"party\"},"), "not a valid run file"),
            (good.replace("\"word_limit\": 50", "\"word_limit\": 0"), "invalid"),
        ];
        for (text, expected) in cases {
            let e = from_json(&text).unwrap_err();
            assert!(e.contains(expected), "{expected}: {e}");
        }
    }

    #[test]
    fn markdown_reads_like_the_notebooks() {
        let (_, events) = run("rail-debate");
        let md = to_markdown(&events);
        assert!(md.starts_with("# Presidential debate: transcontinental high-speed rail\n"));
        // Seed 000's opening: the generated descriptions, the specified topic, which the
        // moderator then puts to the candidates.
        assert!(md.contains("**Donald Trump description:** Donald Trump, you are "));
        let specified = md.split("**Detailed topic:** ").nth(1).unwrap().split("\n\n").next().unwrap();
        assert!(md.contains(&format!("**(Debate Moderator):** {specified}\n")));
        // Each turn's bids as one quoted block, ending with the selection they made.
        assert_eq!(md.matches("> Donald Trump bid: ").count(), 10);
        assert_eq!(md.matches("  \n> Selected: ").count(), 10);
        let (_, events) = run("trading-game");
        let md = to_markdown(&events);
        assert_eq!(md.matches("## Game ").count(), 5);
        assert!(md.contains("**OVERALL SCORE: 73**"));
        assert!(md.contains("> Alice offers 1 STONE for 1 WOOD"));
    }

    proptest::proptest! {
        #[test]
        fn any_text_reads_as_a_run_or_a_clear_error(
            // Any text, and JSON objects that get past the first checks.
            text in proptest::prop_oneof![
                ".{0,400}",
                "\\{\"format\": ?\"(agora-run|x)\", ?\"version\": ?[0-9]{1,2}(, ?\"(scenario|events)\": ?(\\[\\]|\\{\\}|null|1))*\\}",
            ],
        ) {
            match from_json(&text) {
                Ok(file) => proptest::prop_assert!(
                    matches!(file.events.first(), Some(Event::RunStarted { .. })),
                    "a run read back starts with run_started"
                ),
                Err(e) => {
                    let known = ["the file is larger", "not a JSON file", "not an Agora run", "the run file", "run file version", "not a valid run file", "the run's scenario", "the event log"];
                    proptest::prop_assert!(known.iter().any(|k| e.starts_with(k)), "an unexplained error: {}", e);
                }
            }
        }

        #[test]
        fn damaged_run_files_never_panic(cut in proptest::prelude::any::<proptest::sample::Index>(), byte in 0u8..128) {
            let (scenario, events) = run("ai-morality-handoff");
            let mut text = to_json(&scenario, &events).into_bytes();
            // Anywhere in the file (about 30 KB), not only its first few kilobytes.
            let at = cut.index(text.len());
            text[at] = byte;
            let text = String::from_utf8_lossy(&text[..]).into_owned();
            if let Ok(file) = from_json(&text) {
                let view = crate::view::RunView::from_events(&file.events);
                proptest::prop_assert_eq!(view.applied, file.events.len());
            }
        }
    }

    #[test]
    fn markdown_keeps_html_inert() {
        let mut s = crate::presets::find("rail-debate").unwrap().scenario();
        s.agents[0].name = "<script>alert(1)</script>".into();
        let md = to_markdown(&[Event::RunStarted { seed: 1, scenario: Box::new(s) }]);
        assert!(!md.contains("<script>"));
        assert!(md.contains("&lt;script&gt;"));
    }
}
