use std::rc::Rc;

use super::*;
use crate::clock::FrozenClock;
use crate::demo::DemoModel;
use crate::engine::Run;
use crate::events::Event;
use crate::scenario::Scenario;

fn demo_run(preset: &str, seed: u64, turns: u32) -> (Scenario, Vec<Event>) {
    let mut scenario = crate::presets::find(preset).unwrap().scenario();
    scenario.seed = seed;
    scenario.max_turns = turns;
    let model = Rc::new(DemoModel::new(&scenario, Rc::new(FrozenClock)));
    let mut run = Run::new(scenario.clone(), model, Rc::new(FrozenClock)).unwrap();
    futures::executor::block_on(run.run_to_end());
    (scenario, run.events().to_vec())
}

fn table_of(preset: &str, seeds: &[u64], turns: u32) -> Table {
    let (scenario, _) = demo_run(preset, seeds[0], turns);
    let mut table = Table::new(
        fingerprint(&scenario),
        Seeds(seeds.to_vec()).to_string(),
        scenario.agent_names(),
        scenario.method.games(),
    );
    for &seed in seeds {
        table.rows.push(RunFigures::of(seed, &demo_run(preset, seed, turns).1));
    }
    table
}

#[test]
fn seeds_read_ranges_and_lists_and_shards_split_them_without_overlap() {
    let s = Seeds::parse("1..10, 20,12..13").unwrap();
    assert_eq!(s.list(), &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 20]);
    assert_eq!(s.to_string(), "1..10,12..13,20");
    assert_eq!(Seeds::parse(&s.to_string()).unwrap(), s);
    let shards: Vec<Vec<u64>> =
        (0..4).map(|k| s.shard(Shard { index: k, count: 4 }).list().to_vec()).collect();
    assert_eq!(shards[0], vec![1, 5, 9, 20]);
    assert_eq!(shards[3], vec![4, 8, 13]);
    let mut all: Vec<u64> = shards.concat();
    all.sort();
    assert_eq!(all, s.list());
    assert!(Seeds::parse("10..1").unwrap_err().contains("backwards"));
    assert!(Seeds::parse("a..b").unwrap_err().contains("none of these"));
    assert!(Seeds::parse("0..99999999").unwrap_err().contains("more than"));
}

#[test]
fn a_shard_is_read_from_the_flag_or_the_schedulers_array_variables() {
    let none = |_: &str| None;
    assert_eq!(Shard::parse("2/4", none), Ok(Shard { index: 2, count: 4 }));
    assert!(Shard::parse("4/4", none).unwrap_err().contains("count from 0 to 3"));
    assert!(Shard::parse("1/0", none).unwrap_err().contains("from 1"));
    assert!(Shard::parse("auto", none).unwrap_err().contains("no array index"));
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |name: &str| pairs.iter().find(|(n, _)| *n == name).map(|(_, v)| v.to_string())
    };
    // Slurm counts the array from its lowest index (`--array=1-4` starts at 1).
    let slurm =
        env(&[("SLURM_ARRAY_TASK_ID", "3"), ("SLURM_ARRAY_TASK_MIN", "1"), ("SLURM_ARRAY_TASK_COUNT", "4")]);
    assert_eq!(Shard::parse("auto", slurm), Ok(Shard { index: 2, count: 4 }));
    // A stepped array (`--array=0-6:2`: tasks 0, 2, 4 and 6) is four shards.
    let stepped = |id: &'static str| {
        env(match id {
            "4" => &[
                ("SLURM_ARRAY_TASK_ID", "4"),
                ("SLURM_ARRAY_TASK_MIN", "0"),
                ("SLURM_ARRAY_TASK_STEP", "2"),
                ("SLURM_ARRAY_TASK_COUNT", "4"),
            ],
            "6" => &[
                ("SLURM_ARRAY_TASK_ID", "6"),
                ("SLURM_ARRAY_TASK_MIN", "0"),
                ("SLURM_ARRAY_TASK_STEP", "2"),
                ("SLURM_ARRAY_TASK_COUNT", "4"),
            ],
            _ => &[
                ("SLURM_ARRAY_TASK_ID", "5"),
                ("SLURM_ARRAY_TASK_MIN", "0"),
                ("SLURM_ARRAY_TASK_STEP", "2"),
                ("SLURM_ARRAY_TASK_COUNT", "4"),
            ],
        })
    };
    assert_eq!(Shard::parse("auto", stepped("4")), Ok(Shard { index: 2, count: 4 }));
    assert_eq!(Shard::parse("auto", stepped("6")), Ok(Shard { index: 3, count: 4 }));
    assert_eq!(
        Shard::parse("auto", stepped("5")).unwrap_err(),
        "SLURM_ARRAY_TASK_ID=5, SLURM_ARRAY_TASK_MIN=0, SLURM_ARRAY_TASK_STEP=2 and SLURM_ARRAY_TASK_COUNT=4 \
         make no shard: 5 is not 0 plus a whole number of steps of 2 (for an array listed by hand, \
         give each task --shard K/N)"
    );
    let k8s = env(&[("JOB_COMPLETION_INDEX", "1")]);
    assert!(Shard::parse("auto", k8s).unwrap_err().contains("auto/N"));
    assert_eq!(Shard::parse("auto/3", k8s), Ok(Shard { index: 1, count: 3 }));
    let aws = env(&[("AWS_BATCH_JOB_ARRAY_INDEX", "7")]);
    assert!(Shard::parse("auto/4", aws).unwrap_err().contains("does not exist"));
    let bad = env(&[("SLURM_ARRAY_TASK_ID", "x"), ("SLURM_ARRAY_TASK_COUNT", "2")]);
    assert!(Shard::parse("auto", bad).unwrap_err().contains("not a whole number"));
}

#[test]
fn a_runs_figures_agree_with_its_log() {
    let (scenario, events) = demo_run("rail-debate", 3, 8);
    let f = RunFigures::of(3, &events);
    assert_eq!((f.finish.as_str(), f.turns), ("turn_limit", 8));
    let speakers: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Event::Message { speaker, kind, .. } if *kind != crate::events::MessageKind::Injected => {
                Some(speaker.as_str())
            }
            _ => None,
        })
        .collect();
    assert_eq!(speakers.len(), 8);
    for (agent, share) in &f.floor {
        let n = speakers.iter().filter(|s| *s == agent).count();
        assert_eq!(*share, (n as f64 / 8.0 * 1e4).round() / 1e4, "{agent}");
    }
    let longest = speakers.chunk_by(|a, b| a == b).map(<[&str]>::len).max().unwrap() as u32;
    assert_eq!(f.longest_run, longest);
    let bids: Vec<bool> = events
        .iter()
        .filter_map(|e| match e {
            Event::Bid { defaulted, .. } => Some(*defaulted),
            _ => None,
        })
        .collect();
    assert_eq!(f.bids as usize, bids.len());
    assert_eq!(bids.len(), 8 * scenario.agents.len());
    assert_eq!(f.default_bids as usize, bids.iter().filter(|d| **d).count());
    let calls = events.iter().filter(|e| matches!(e, Event::ModelCall { .. })).count();
    assert_eq!(f.calls as usize, calls);
    // One call per bid and per speech (the demo model here never needs a retry).
    assert_eq!((f.orchestration_calls as usize, f.speech_calls, f.retries), (bids.len(), 8, 0));
    assert!(f.orchestration_tokens > 0 && f.speech_tokens > 0);
    assert_eq!(f.cost, None, "the demo model has no price");
    assert!(f.overall.is_empty() && f.optimum.is_none());
}

#[test]
fn a_trading_run_has_one_score_per_game_and_its_efficiency() {
    let (scenario, events) = demo_run("trading-game", 2, 30);
    let f = RunFigures::of(2, &events);
    let ends: Vec<(i64, i64)> = events
        .iter()
        .filter_map(|e| match e {
            Event::GameEnd { overall, optimum, .. } => Some((*overall, *optimum)),
            _ => None,
        })
        .collect();
    assert_eq!(ends.len() as u32, scenario.method.games());
    assert_eq!(f.overall, ends.iter().map(|e| e.0).collect::<Vec<_>>());
    assert_eq!(f.optimum, Some(73), "the seed's inventories and values reach 73 at best");
    assert_eq!(f.efficiency(), Some(ends.last().unwrap().0 as f64 / 73.0));
}

#[test]
fn a_table_reads_back_exactly_as_written() {
    let mut table = table_of("trading-game", &[1, 2], 30);
    let mut failed =
        RunFigures::failed(3, &table.agents, "turn 4: the provider said \"no\",\nthen closed".into());
    failed.cost = Some(0.001234);
    table.rows.push(failed);
    table.seeds = "1..3".into();
    let text = table.to_csv();
    assert_eq!(read_csv(&text).unwrap(), table);
    let bidding = table_of("rail-debate", &[5, 4], 4);
    let read = read_csv(&bidding.to_csv()).unwrap();
    assert_eq!(read.rows.iter().map(|r| r.seed).collect::<Vec<_>>(), vec![4, 5], "rows are in seed order");
    assert_eq!(Summary::of(&read), Summary::of(&bidding));
    assert!(read_csv(&text[..text.len() - 1]).unwrap_err().contains("cut short"));
    assert!(read_csv("a,b\n").unwrap_err().contains("header"));
    let bad = text.replacen(",game_over,,", ",game_over,,x", 1);
    let turns = table.rows.iter().find(|r| r.finish == "game_over").map(|r| r.turns).unwrap();
    assert!(
        read_csv(&bad).unwrap_err().contains(&format!("turns is \"x{turns}\", not a number")),
        "{}",
        read_csv(&bad).unwrap_err()
    );
    let mut extra = text.clone();
    extra.push_str("x,y\n");
    assert!(read_csv(&extra).unwrap_err().contains("cells"));
}

#[test]
fn shards_merge_into_the_whole_batch_and_strays_are_refused() {
    let whole = table_of("daily-show-director", &[1, 2, 3, 4, 5, 6], 5);
    let shard = |k: u32| {
        let mut t = whole.clone();
        let keep = Seeds(vec![1, 2, 3, 4, 5, 6]).shard(Shard { index: k, count: 3 });
        t.rows.retain(|r| keep.list().contains(&r.seed));
        (format!("part{k}.csv"), read_csv(&t.to_csv()).unwrap())
    };
    let merged = merge(vec![shard(2), shard(0), shard(1)]).unwrap();
    assert_eq!(merged.to_csv(), whole.to_csv());
    let missing = merge(vec![shard(0), shard(2)]).unwrap_err();
    assert!(missing.contains("2 of the batch's seeds (1..6) are missing: 2, 5"), "{missing}");
    let twice = merge(vec![shard(0), shard(1), shard(0), shard(2)]).unwrap_err();
    assert!(twice.contains("seed 1 is in both part0.csv and part0.csv"), "{twice}");
    let mut other = shard(1);
    other.1.batch = "0000000000000000".into();
    assert!(merge(vec![shard(0), other, shard(2)]).unwrap_err().contains("another batch"));
}

#[test]
fn the_summary_is_the_spread_over_runs() {
    let s = Spread::of([1.0, 2.0, 3.0, 6.0]);
    assert_eq!((s.n, s.mean, s.min, s.max), (4, 3.0, 1.0, 6.0));
    // The sample standard deviation divides by n − 1: sqrt(14 / 3); the interval is Student's t
    // with 3 degrees of freedom (3.182) times sd / sqrt(4).
    assert!((s.sd - (14.0f64 / 3.0).sqrt()).abs() < 1e-12);
    assert!((s.ci - 3.182 * (14.0f64 / 3.0).sqrt() / 2.0).abs() < 1e-12);
    assert_eq!(s.describe(2), "3.00 ± 2.16 [-0.44, 6.44] (1.00 to 6.00)");
    assert_eq!(Spread::of([0.25]).describe(2), "0.25 (one run)");
    // A share of the floor from two runs (0.2 and 0.9): t with one degree of freedom gives
    // [-3.9, 5.0]; no interval is printed from two runs, and from three a share's stays in [0, 1].
    assert_eq!(
        Spread::of([0.2, 0.9]).within(0.0, 1.0).describe(3),
        "0.550 ± 0.495 [no interval from 2 runs] (0.200 to 0.900)"
    );
    let three = Spread::of([0.0, 0.1, 0.9]).within(0.0, 1.0);
    assert!(three.mean - three.ci < 0.0 && three.mean + three.ci > 1.0, "the t interval leaves [0, 1] here");
    assert_eq!(three.interval(), Some((0.0, 1.0)));
    assert_eq!(three.describe(3), "0.333 ± 0.493 [0.000, 1.000] (0.000 to 0.900)");
    let counts = Spread::of([0.0, 0.0, 3.0]).within(0.0, f64::INFINITY);
    assert_eq!(counts.interval().unwrap().0, 0.0, "a count's interval starts at 0 at the lowest");
    // Past the table, the expansion is within 0.001 of t: 40 degrees of freedom give 2.021.
    let wide = Spread::of((0..41).map(f64::from));
    assert!((wide.ci / (wide.sd / 41f64.sqrt()) - 2.021).abs() < 1e-3, "{}", wide.ci);
    let table = table_of("rail-debate", &[1, 2, 3], 6);
    let summary = Summary::of(&table);
    assert_eq!(summary.runs, 3);
    assert_eq!(summary.finished.get("turn_limit"), Some(&3));
    let first = &table.agents[0];
    let mean = table.rows.iter().map(|r| r.floor[0].1).sum::<f64>() / 3.0;
    assert_eq!(
        summary.floor[0],
        (first.clone(), Spread::of(table.rows.iter().map(|r| r.floor[0].1)).within(0.0, 1.0))
    );
    assert!((summary.floor[0].1.mean - mean).abs() < 1e-12);
    let lines = summary.lines().join("\n");
    assert!(lines.starts_with("3 runs: 3 turn_limit"), "{lines}");
    assert!(lines.contains(&format!("  {first}")), "{lines}");
    assert!(lines.contains("Default bids: "), "{lines}");
}

#[test]
fn the_fingerprint_leaves_the_seed_out_and_nothing_else() {
    let a = crate::presets::find("rail-debate").unwrap().scenario();
    let mut b = a.clone();
    b.seed += 1;
    assert_eq!(fingerprint(&a), fingerprint(&b));
    b.max_turns += 1;
    assert_ne!(fingerprint(&a), fingerprint(&b));
}

#[test]
fn the_charts_draw_the_summarys_figures_with_text_alternatives() {
    let table = table_of("rail-debate", &[1, 2, 3, 4, 5], 6);
    let summary = Summary::of(&table);
    let charts = charts::charts(&table, &summary);
    assert_eq!(charts.len(), 3, "floor, speaker runs, everyone spoke; no scores or cost here");
    let floor = &charts[0];
    assert!(floor.caption.starts_with("Share of the floor"));
    let said = floor.alternative();
    assert!(said.starts_with(&format!("{}. ", floor.caption)));
    for (agent, s) in &summary.floor {
        let pct = crate::text::fixed(s.mean * 100.0, 0);
        assert!(said.contains(&format!("{agent}: {pct}%")), "{agent} {pct} in {said}");
    }
    let layout = floor.layout();
    assert_eq!(layout.rows.len(), table.agents.len());
    // Each bar is as long as its mean share, and its range runs from the least to the most.
    for (row, (_, s)) in layout.rows.iter().zip(&summary.floor) {
        let long = f64::from(layout.right - layout.left);
        assert!((f64::from(row.width) - s.mean * long).abs() <= 0.5, "{} for {}", row.width, s.mean);
        let (lo, hi) = row.range.unwrap();
        assert!(lo <= layout.left + row.width && layout.left + row.width <= hi);
    }
    // The rows stack inside the drawing, above the scale.
    assert!(layout.rows.windows(2).all(|w| w[1].top - w[0].top == charts::Chart::ROW));
    assert!(layout
        .rows
        .iter()
        .all(|r| r.top + charts::Chart::ROW <= layout.bottom && layout.bottom < layout.height));
    // Each histogram's bars count every run once.
    let counted: u32 = charts[1].rows.iter().map(|b| b.value as u32).sum();
    assert_eq!(counted, 5);
    assert!(charts[1]
        .rows
        .iter()
        .all(|b| b.text == format!("{} run{}", b.value, if b.value == 1.0 { "" } else { "s" })));
    let trading = table_of("trading-game", &[1, 2], 30);
    let charts = charts::charts(&trading, &Summary::of(&trading));
    let games = charts.iter().find(|c| c.caption.starts_with("Overall score per game")).unwrap();
    assert!(games.alternative().contains("game 1: 33.0 (33 to 33) of 73"), "{}", games.alternative());
}

#[test]
fn the_report_holds_the_summary_the_charts_and_each_run() {
    let table = table_of("rail-debate", &[3, 1, 2], 6);
    let report = Report::of(&table);
    let summary = Summary::of(&table);
    assert_eq!(report.sentences, summary.sentences());
    assert_eq!(report.figures, summary.lines().join("\n"));
    assert_eq!(report.charts.len(), 3);
    assert_eq!(
        report.runs.iter().map(|r| r.seed).collect::<Vec<_>>(),
        table.rows.iter().map(|r| r.seed).collect::<Vec<_>>()
    );
    for (line, row) in report.runs.iter().zip(&table.rows) {
        assert_eq!(line.turns, row.turns);
        assert_eq!(line.finish, summary::ending(&row.finish));
        for agent in &table.agents {
            assert!(line.shares.contains(&format!("{agent} ")), "{agent} in {}", line.shares);
        }
    }
}

#[test]
fn the_page_writes_the_rows_the_terminal_writes() {
    let (scenario, events) = demo_run("rail-debate", 7, 4);
    let json = serde_json::to_string(&scenario).unwrap();
    let table = Table::new(fingerprint(&scenario), "1..9".into(), scenario.agent_names(), 0);
    assert_eq!(report::page::header(&json, "1..9", false).unwrap(), table.header());
    let run = crate::export::to_json_compact(&scenario, &events);
    let row = report::page::row(&json, "1..9", 7, &run, "", "").unwrap();
    let figures = RunFigures::of(7, &events);
    assert_eq!(row.line, table.line(&figures));
    assert_eq!(row.tokens, figures.orchestration_tokens + figures.speech_tokens);
    assert!(!row.capped);
    let failed = report::page::row(&json, "1..9", 8, "", "no key", "").unwrap();
    assert!(failed.line.contains(",8,error,no key,"), "{failed:?}");
    // A batch the page began before the text statistics goes on in its own columns.
    let mut old = table.clone();
    old.text = false;
    let row = report::page::row(&json, "1..9", 7, &run, "", &old.header()).unwrap();
    let mut figures = figures.clone();
    figures.text.clear();
    assert_eq!(row.line, old.line(&figures));
    assert_eq!(report::page::seeds("3..5,9").unwrap(), [3, 4, 5, 9]);
    assert!(report::page::seeds("x").is_err());
}

#[test]
fn the_page_says_the_summary_in_sentences_with_the_terminals_figures() {
    let table = table_of("rail-debate", &[1, 2, 3], 6);
    let summary = Summary::of(&table);
    let said = summary.sentences();
    assert_eq!(said[0], "All 3 runs reached the turn limit.");
    // Each agent's share as a percentage, with its range over the runs.
    for (agent, s) in &summary.floor {
        let (mean, lo, hi) = (s.mean * 100.0, s.min * 100.0, s.max * 100.0);
        let fixed = |v: f64| crate::text::fixed(v, 0);
        let expected = if s.min == s.max {
            format!("{agent} held the floor in {} % of turns.", fixed(mean))
        } else {
            format!(
                "{agent} held the floor in {} % of turns on average, {} to {} % across runs.",
                fixed(mean),
                fixed(lo),
                fixed(hi)
            )
        };
        assert!(said.contains(&expected), "{expected} in {said:#?}");
    }
    assert!(said.iter().all(|s| !s.contains('±') && !s.contains("turn_limit")), "{said:#?}");
    // Mixed endings and one run are said as such.
    let mut mixed = table.clone();
    mixed.rows[1].finish = "director_stopped".into();
    let said = Summary::of(&mixed).sentences();
    assert_eq!(said[0], "1 of 3 ended by the director's stop draw; 2 of 3 reached the turn limit.");
    let mut one = table.clone();
    one.rows.truncate(1);
    assert_eq!(Summary::of(&one).sentences()[0], "The run reached the turn limit.");
    // Fallbacks are counted per turn (a bidding turn can default several bids), not as a share.
    let mut fell = table.clone();
    for r in &mut fell.rows {
        r.retries = 0;
        r.fallbacks = 0;
    }
    fell.rows[0].fallbacks = 9;
    let said = Summary::of(&fell).sentences();
    let expected = format!(
        "A default stood in for an unreadable reply 0.5 times a turn on average, 0 to {} across runs.",
        crate::text::fixed(9.0 / f64::from(fell.rows[0].turns), 1)
    );
    assert!(said.contains(&expected), "{expected} in {said:#?}");
}

#[test]
fn every_chart_names_its_axes_and_marks_its_scale() {
    let table = table_of("rail-debate", &[1, 2, 3, 4], 6);
    let charts = charts::charts(&table, &Summary::of(&table));
    for c in &charts {
        assert!(!c.axes.rows.is_empty() && !c.axes.measure.is_empty(), "{}", c.caption);
        assert!(c.layout().ticks.len() >= 2, "{}", c.caption);
    }
    let floor = &charts[0];
    assert_eq!((floor.axes.measure, floor.axes.rows), ("share of the turns", "agent"));
    let labels: Vec<String> = floor.layout().ticks.into_iter().map(|(_, l)| l).collect();
    assert_eq!(labels, ["0%", "50%", "100%"]);
    // The ticks sit on the scale, from its start to its end.
    let layout = floor.layout();
    assert_eq!(layout.ticks.first().unwrap().0, layout.left);
    assert_eq!(layout.ticks.last().unwrap().0, layout.right);
    // A count of runs has no half-run tick: 4 runs at most gives 0, 2 and 4; 3 gives 0 and 3.
    for c in &charts[1..] {
        let t: Vec<String> = c.layout().ticks.into_iter().map(|(_, l)| l).collect();
        assert!(t.iter().all(|v| v.parse::<u32>().is_ok()), "{t:?}");
    }
}

#[test]
fn each_row_carries_the_text_statistics_and_a_file_from_before_them_reads_as_written() {
    let table = table_of("rail-debate", &[1, 2], 6);
    let csv = table.to_csv();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    for m in ["repetition", "responsiveness", "coverage", "length"] {
        for a in &table.agents {
            assert!(header.contains(&format!("{m}:{a}").as_str()), "{m}:{a}");
        }
    }
    // The row's figures are the run's, to four decimals.
    let (_, events) = demo_run("rail-debate", 1, 6);
    let stats = crate::textstats::of(&events);
    let at = header.iter().position(|c| *c == format!("coverage:{}", table.agents[0])).unwrap();
    let row: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    let expected = (stats[0].coverage.unwrap() * 10_000.0).round() / 10_000.0;
    assert_eq!(row[at].parse::<f64>().unwrap(), expected);
    // A file written before the text statistics (their columns absent) is read, written and
    // merged as it was, and not merged with one that has them.
    let mut old = table.clone();
    old.text = false;
    for r in &mut old.rows {
        r.text.clear();
    }
    let old_csv = old.to_csv();
    assert!(!old_csv.contains("repetition:"));
    let read = read_csv(&old_csv).unwrap();
    assert_eq!((read.text, read.to_csv()), (false, old_csv.clone()));
    let mut halves = (read.clone(), read_csv(&csv).unwrap());
    halves.0.rows.truncate(1);
    halves.1.rows.remove(0);
    let err = merge(vec![("old.csv".into(), halves.0), ("new.csv".into(), halves.1)]).unwrap_err();
    assert!(err.contains("new.csv has other columns than old.csv"), "{err}");
}

#[test]
fn token_counts_in_the_sentences_are_grouped_in_thousands() {
    use super::summary::grouped;
    assert_eq!(
        grouped("12345 on average, 9876 to 1234567.25 across runs"),
        "12,345 on average, 9876 to 1,234,567.25 across runs"
    );
    assert_eq!(grouped("0.123456 and 100000"), "0.123456 and 100,000");
    let mut table = Table::new(String::new(), String::new(), vec!["A".into()], 0);
    for (seed, tokens) in [(1, 12_000u64), (2, 14_000)] {
        table.rows.push(RunFigures {
            seed,
            speech_tokens: tokens,
            finish: "turn_limit".into(),
            ..RunFigures::default()
        });
    }
    let said = Summary::of(&table).sentences();
    assert!(
        said.iter().any(|s| s == "The speeches and the rest took 13,000 tokens a run on average, 12,000 to 14,000 across runs."),
        "{said:?}"
    );
}
