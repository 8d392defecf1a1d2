//! Every preset's event log, recorded before the core was reorganised (issue 13), must come out
//! the same: the demo model with a frozen clock, several seeds, with and without malformed
//! replies, each method (round robin and the handoff modes as variants of the presets).
//! `AGORA_BLESS=1 cargo test --test golden` writes the files anew; do that only for a change
//! that is meant to alter logs, and say why in the commit.

mod common;

use agora::presets::PRESETS;
use agora::scenario::Scenario;
use serde_json::{json, Value};

/// (file stem, scenario JSON) for every case.
fn cases() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for preset in PRESETS {
        let base: Value = serde_json::from_str(preset.json).unwrap();
        for seed in [1u64, 7] {
            for malformed in [0.0, 0.3] {
                let mut s = base.clone();
                s["seed"] = json!(seed);
                s["model"]["demo"]["malformed_rate"] = json!(malformed);
                let tag = if malformed > 0.0 { "-malformed" } else { "" };
                out.push((format!("{}-seed{seed}{tag}", preset.id), s));
            }
        }
    }
    let rail: Value = serde_json::from_str(PRESETS[0].json).unwrap();
    let mut rr = rail.clone();
    rr["method"] = json!({"kind": "round_robin"});
    out.push(("rail-debate-round-robin".into(), rr));
    let handoff: Value = serde_json::from_str(PRESETS[2].json).unwrap();
    for via in ["tool", "json"] {
        let mut h = handoff.clone();
        h["method"]["via"] = json!(via);
        h["model"]["demo"]["malformed_rate"] = json!(0.3);
        out.push((format!("ai-morality-handoff-{via}-malformed"), h));
    }
    out
}

fn log_of(scenario: &Value) -> String {
    let scenario = Scenario::from_json(&scenario.to_string()).expect("case is a valid scenario");
    let events = common::run_demo(scenario);
    let mut out = String::new();
    for e in events {
        out.push_str(&e.without_timings().to_json());
        out.push('\n');
    }
    out
}

#[test]
fn every_preset_logs_what_it_logged_before() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let bless = std::env::var("AGORA_BLESS").is_ok();
    let mut differ = Vec::new();
    for (name, scenario) in cases() {
        let path = dir.join(format!("{name}.jsonl"));
        let log = log_of(&scenario);
        if bless {
            std::fs::write(&path, &log).unwrap();
            continue;
        }
        let recorded = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if recorded != log {
            let line = recorded.lines().zip(log.lines()).position(|(a, b)| a != b).map_or_else(
                || format!("lengths {} and {} lines", recorded.lines().count(), log.lines().count()),
                |i| {
                    format!(
                        "line {}:\n recorded {}\n now      {}",
                        i + 1,
                        recorded.lines().nth(i).unwrap(),
                        log.lines().nth(i).unwrap()
                    )
                },
            );
            differ.push(format!("{name}: {line}"));
        }
    }
    assert!(differ.is_empty(), "event logs changed:\n{}", differ.join("\n"));
}

/// The terminal and the Markdown export say the same thing for every decision of every golden
/// log: bids, selections (drawn or after bids), stop draws, director and selector choices,
/// handoffs, floors given, trading moves, refused calls, the optimizer's notes and the spending
/// cap. The terminal's text (through the runner's own printing, a `Selected` line after bids
/// included) and the Markdown's quoted lines hold each decision's words, in order.
#[test]
fn the_terminal_and_the_markdown_say_the_same_decisions() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(files.len() > 20);
    let mut kinds = std::collections::BTreeSet::new();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let events: Vec<agora::events::Event> =
            text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        let types: Vec<String> = text
            .lines()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap()["type"].as_str().unwrap().to_string()
            })
            .collect();
        let terminal = agora::cli::render_log(&events);
        let markdown = agora::export::to_markdown(&events);
        let quoted: Vec<&str> = markdown.lines().filter_map(|l| l.strip_prefix("> ")).collect();
        let (mut in_terminal, mut in_markdown) = (terminal.lines(), quoted.iter());
        let mut after_bids = false;
        for (event, kind) in events.iter().zip(&types) {
            let Some(words) = agora::decisions::decision(event) else { continue };
            if !agora::decisions::shown(event, after_bids) {
                continue;
            }
            if matches!(
                event,
                agora::events::Event::Bid { .. } | agora::events::Event::SpeakerSelected { .. }
            ) {
                after_bids = matches!(event, agora::events::Event::Bid { .. });
            }
            kinds.insert(kind.clone());
            assert!(
                in_terminal.any(|l| l.contains(&words)),
                "{}: the terminal does not say {words:?} where it should",
                path.display()
            );
            let escaped = words.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
            assert!(
                in_markdown.any(|l| l.trim_end() == escaped),
                "{}: the Markdown does not say {words:?} where it should",
                path.display()
            );
        }
    }
    // The golden logs hold every kind of decision the methods make.
    for kind in
        ["bid", "speaker_selected", "stop_draw", "director_choice", "selector_choice", "handoff", "action"]
    {
        assert!(kinds.contains(kind), "no golden log has a {kind}: {kinds:?}");
    }
}
