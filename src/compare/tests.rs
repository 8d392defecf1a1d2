use std::rc::Rc;

use super::*;
use crate::clock::FrozenClock;
use crate::demo::DemoModel;
use crate::engine::Run;
use crate::events::Event;

fn preset(id: &str) -> Scenario {
    crate::presets::find(id).unwrap().scenario()
}

fn play(scenario: &Scenario) -> Vec<Event> {
    let model = Rc::new(DemoModel::new(scenario, Rc::new(FrozenClock)));
    let mut run = Run::new(scenario.clone(), model, Rc::new(FrozenClock)).unwrap();
    futures::executor::block_on(run.run_to_end());
    run.events().to_vec()
}

#[test]
fn columns_differ_in_the_method_and_nothing_else() {
    let mut base = preset("rail-debate");
    base.max_turns = 4;
    let c = Comparison::new("method", "bidding, director ,round_robin").unwrap();
    let columns = c.columns(&base).unwrap();
    let labels: Vec<&str> = columns.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(labels, ["method: bidding", "method: director", "method: round_robin"]);
    for (column, id) in columns.iter().zip(["bidding", "director", "round_robin"]) {
        assert_eq!(column.scenario.method.kind().id(), id);
        let mut same = column.scenario.clone();
        same.method = base.method.clone();
        if id == "director" {
            // The debate's moderator directs (added to the cast, never a speaker), and the
            // conversation keeps the debate's own templates rather than the show's.
            assert_eq!(same.agents.pop().map(|a| a.name).as_deref(), Some("Debate Moderator"));
            assert_eq!(
                same.prompts.conversation_description.as_deref(),
                Some(crate::prompts::DEBATE_DESCRIPTION)
            );
            same.prompts = base.prompts.clone();
        }
        assert_eq!(same, base, "only the method differs");
        // Each column plays on its own, to its turn limit or its director's stop.
        let events = play(&column.scenario);
        assert!(matches!(events.last(), Some(Event::RunFinished { .. })));
    }
    let err = Comparison::new("method", "bidding, negotiation").unwrap().columns(&base).unwrap_err();
    assert!(err.starts_with("method: negotiation: "), "{err}");
    let err = Comparison::new("method", "bidding, chaos").unwrap().columns(&base).unwrap_err();
    assert!(err.contains("no method \"chaos\""), "{err}");
}

#[test]
fn columns_differ_in_the_seed_the_model_or_one_setting() {
    let base = preset("daily-show-director");
    let seeds = Comparison::new("seed", "3, 9").unwrap().columns(&base).unwrap();
    assert_eq!((seeds[0].scenario.seed, seeds[1].scenario.seed), (3, 9));
    assert!(Comparison::new("seed", "3, x").unwrap().columns(&base).unwrap_err().contains("not a seed"));

    let models = Comparison::new("model", "demo, openai/gpt-4o-mini").unwrap().columns(&base).unwrap();
    assert!(models[0].scenario.model.is_demo());
    assert_eq!(
        (models[1].scenario.model.provider.as_str(), models[1].scenario.model.name.as_str()),
        ("openai", "gpt-4o-mini")
    );
    assert!(Comparison::new("model", "demo, gpt")
        .unwrap()
        .columns(&base)
        .unwrap_err()
        .contains("provider/model"));

    let stops = Comparison::new("method.stop_probability", "0.1, 0.9").unwrap().columns(&base).unwrap();
    let json = |s: &Scenario| serde_json::to_value(s).unwrap();
    assert_eq!(json(&stops[0].scenario)["method"]["stop_probability"], 0.1);
    assert_eq!(json(&stops[1].scenario)["method"]["stop_probability"], 0.9);
    let turns = Comparison::new("max_turns", "3, 5").unwrap().columns(&base).unwrap();
    assert_eq!((turns[0].scenario.max_turns, turns[1].scenario.max_turns), (3, 5));
    let err = Comparison::new("method.nonsense", "1, 2").unwrap().columns(&base).unwrap_err();
    assert!(err.contains("no setting method.nonsense"), "{err}");
    let err = Comparison::new("method.stop_probability", "0.5, 7").unwrap().columns(&base).unwrap_err();
    assert!(err.starts_with("method.stop_probability: 7: "), "{err}");
}

#[test]
fn a_comparison_has_two_to_four_columns() {
    assert!(Comparison::new("seed", "1").unwrap_err().contains("2 to 4 columns"));
    assert!(Comparison::new("seed", "1,2,3,4,5").unwrap_err().contains("(5 given)"));
    assert!(Comparison::new("", "1,2").unwrap_err().contains("differ in"));
    assert_eq!(Comparison::new("seed", "1,,2").unwrap().values, ["1", "2"]);
}

#[test]
fn the_strip_as_csv_is_each_columns_batch_row() {
    let mut base = preset("rail-debate");
    base.max_turns = 3;
    let columns = Comparison::new("method", "bidding, random").unwrap().columns(&base).unwrap();
    let rows: Vec<(String, RunFigures)> = columns
        .iter()
        .map(|c| (c.label.clone(), RunFigures::of(c.scenario.seed, &play(&c.scenario))))
        .collect();
    let csv = to_csv(&base.agent_names(), 0, &rows);
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[0].starts_with("column,seed,finish,error,turns,floor_share:Donald Trump,"), "{}", lines[0]);
    assert_eq!(lines.len(), 3);
    let table = crate::batch::Table::new(String::new(), String::new(), base.agent_names(), 0);
    assert_eq!(
        lines[1],
        format!("method: bidding,{}", table.line(&rows[0].1).trim_end().trim_start_matches(",,"))
    );
    assert!(lines[2].starts_with("method: random,7,turn_limit,,3,"), "{}", lines[2]);
    let quoted = to_csv(&base.agent_names(), 0, &[("a, b".into(), rows[0].1.clone())]);
    assert!(quoted.lines().nth(1).unwrap().starts_with("\"a, b\",7,"));
}

fn recorded(base: &Scenario, vary: &str, values: &str) -> (Comparison, Vec<Option<String>>) {
    let comparison = Comparison::new(vary, values).unwrap();
    let runs = comparison
        .columns(base)
        .unwrap()
        .iter()
        .map(|c| Some(crate::export::to_json_compact(&c.scenario, &play(&c.scenario))))
        .collect();
    (comparison, runs)
}

#[test]
fn a_comparison_file_reads_back_and_its_csv_is_each_logs_figures() {
    let mut base = preset("rail-debate");
    base.max_turns = 4;
    let (comparison, mut runs) = recorded(&base, "method", "bidding, director");
    runs[1] = None; // a column that has not run
    let file = from_json(&to_json(&base, comparison.vary_name(), &comparison.values, &runs)).unwrap();
    assert_eq!((&file.scenario, &file.comparison), (&base, &comparison));
    assert!(file.runs[0].is_some() && file.runs[1].is_none());
    let figures = file.figures().unwrap();
    let events = &file.runs[0].as_ref().unwrap().events;
    assert_eq!(figures[0].1, RunFigures::of(base.seed, events));
    assert_eq!(figures[0].1.turns, 4);
    assert_eq!(figures[1].1.turns, 0, "a column not yet played counts as empty");
    assert_eq!(file.to_csv().unwrap(), to_csv(&base.agent_names(), 0, &figures));
}

#[test]
fn a_broken_comparison_file_says_what_is_wrong() {
    let base = preset("rail-debate");
    let (comparison, runs) = recorded(&base, "seed", "1, 2");
    let good = to_json(&base, comparison.vary_name(), &comparison.values, &runs);
    let cases = [
        ("{", "not a JSON file"),
        ("{\"format\":\"agora-run\"}", "not an Agora comparison (format \"agora-run\")"),
        ("{\"format\":\"agora-comparison\",\"version\":9}", "version 9 is not supported"),
        (&good.replace("\"vary\":\"seed\"", "\"vary\":\"\""), "differ in"),
        (&good.replace("\"values\":[\"1\",\"2\"]", "\"values\":[\"1\"]"), "2 to 4 columns"),
        (&good.replace("\"values\":[\"1\",\"2\"]", "\"values\":[\"1\",\"2\",\"3\"]"), "not as many runs"),
        (
            &good.replace("\"runs\":[{\"format\":\"agora-run\"", "\"runs\":[{\"format\":\"x\""),
            "seed: 1: its run",
        ),
    ];
    for (text, expected) in cases {
        let err = from_json(text).unwrap_err();
        assert!(err.contains(expected), "{expected}: {err}");
    }
}

#[test]
fn the_strip_shows_each_columns_csv_cells() {
    let mut base = preset("rail-debate");
    base.max_turns = 5;
    let (comparison, runs) = recorded(&base, "method", "bidding, round_robin");
    let file = from_json(&to_json(&base, comparison.vary_name(), &comparison.values, &runs)).unwrap();
    let strip = strip(&file).unwrap();
    let csv = file.to_csv().unwrap();
    let lines: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
    let row = |figure: &str| strip.rows.iter().find(|r| r.figure == figure);
    for (column, line) in lines[1..].iter().enumerate() {
        for (name, cell) in lines[0].iter().zip(line).skip(1) {
            let wanted = [
                "turns",
                "floor_share:Donald Trump",
                "longest_run",
                "calls",
                "retries",
                "fallbacks",
                "responsiveness:Donald Trump",
                "repetition:Elizabeth Warren",
            ];
            if wanted.contains(name) {
                let shown = row(name).unwrap_or_else(|| panic!("no row for {name}"));
                assert_eq!(shown.cells[column].value, *cell, "column {column}: {name}");
            }
        }
    }
    // Round robin gives three agents the floor in turn: 5 turns are 2, 2 and 1.
    assert!(strip.labels.iter().any(|l| l == "method: round_robin"), "{:?}", strip.labels);
    let turns = &row("turns").unwrap().cells;
    assert!(turns.iter().all(|c| c.value == "5" && c.text == "5"), "{turns:?}");
    let at = strip.labels.iter().position(|l| l == "method: round_robin").unwrap();
    let floor = &row("floor_share:Donald Trump").unwrap().cells[at];
    assert_eq!((floor.text.as_str(), floor.bar), ("40%", Some(40)));
    // The text statistics as percentages of the CSV's shares.
    let cell = |name: &str, column: usize| {
        let at = lines[0].iter().position(|n| *n == name).unwrap();
        lines[column + 1][at].parse::<f64>().unwrap()
    };
    let taken = cell("responsiveness:Kanye West", 1);
    assert_eq!(
        row("responsiveness:Kanye West").unwrap().cells[1].text,
        format!("{} %", (taken * 100.0).round() as i64)
    );
    assert!(strip.rows.iter().any(|r| r.title == "Repeats itself: Kanye West"));
}

#[test]
fn columns_have_no_seats_and_share_the_spending_cap() {
    let mut base = preset("rail-debate");
    base.seats = vec!["Donald Trump".into()];
    base.model.spending_cap.tokens = 1001;
    base.model.spending_cap.cost = 0.3;
    base.model.price = Some(crate::scenario::Price { input_per_million: 1.0, output_per_million: 2.0 });
    let columns = Comparison::new("seed", "1, 2, 3").unwrap().columns(&base).unwrap();
    for c in &columns {
        assert!(c.scenario.seats.is_empty());
        assert_eq!(c.scenario.model.spending_cap.tokens, 334);
        assert!((c.scenario.model.spending_cap.cost - 0.1).abs() < 1e-12);
    }
}

#[test]
fn judge_each_says_what_it_set_going_or_that_no_column_has_finished() {
    assert_eq!(
        super::judge_each_note(0),
        "Judge each scores finished columns: play at least one to its end."
    );
    let two = super::judge_each_note(2);
    assert!(two.starts_with("Asked the judge to score 2 finished columns"), "{two}");
}

#[test]
fn the_buttons_for_every_column_are_offered_while_a_column_heeds_them() {
    use super::{all_buttons, AllButtons, ColumnState};
    let ready = ColumnState::default();
    let running = ColumnState { running: true, ..ready };
    let stepping = ColumnState { busy: true, ..ready };
    let ended = ColumnState { ended: true, ..ready };
    assert_eq!(all_buttons(&[ready, ready]), AllButtons { step: true, play: true, pause: false });
    assert_eq!(all_buttons(&[running, ended]), AllButtons { step: false, play: false, pause: true });
    assert_eq!(all_buttons(&[running, ready]), AllButtons { step: true, play: true, pause: true });
    assert_eq!(all_buttons(&[stepping, ended]), AllButtons { step: false, play: true, pause: false });
    // Both columns at their end: only Reset starts them again.
    assert_eq!(all_buttons(&[ended, ended]), AllButtons { step: false, play: false, pause: false });
}
