//! `agora tournament`: every method on every seed of one scenario, each pair of methods on the
//! same seed judged pairwise in both orders, and the Bradley–Terry leaderboard
//! (`crate::tournament`); shards and their merge.

use std::path::{Path, PathBuf};
use std::rc::Rc;

use super::args::{MergeCmd, TournamentCmd};
use super::judge::judge_model;
use super::{chat_model, load_scenario, read_script, say};
use crate::batch::Shard;
use crate::clock::{Clock, SystemClock};
use crate::judge::{pairwise, Judge};
use crate::scenario::MethodKind;
use crate::tournament::{merge, Leaderboard, Row, Tournament};

/// The JSON file written beside a tournament's CSV.
fn json_path(out: &Path) -> PathBuf {
    out.with_extension("json")
}

fn write(out: &Path, t: &Tournament, board: &Leaderboard) -> Result<(), String> {
    std::fs::write(out, t.to_csv()).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    let json = serde_json::to_string_pretty(board).map_err(|e| e.to_string())? + "\n";
    let path = json_path(out);
    std::fs::write(&path, json).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

pub fn main(mut cmd: TournamentCmd) -> Result<i32, String> {
    if let Some(MergeCmd::Merge { files, out }) = cmd.merge.take() {
        return merge_files(files, out);
    }
    let run = cmd.run_args()?;
    let flags = std::mem::take(&mut cmd.judge_flags);
    let shard = match &cmd.shard {
        Some(text) => Shard::parse(text, |n| std::env::var(n).ok())?,
        None => Shard::WHOLE,
    };
    let events_dir = cmd.events_dir;
    let methods = cmd
        .methods
        .map(|m| m.0)
        .ok_or("--methods is needed (for example --methods bidding,director,round_robin)")?;
    if methods.len() < 2 {
        return Err("a tournament needs at least two methods".into());
    }
    if methods.contains(&MethodKind::Negotiation) {
        return Err("the trading game keeps its own score: a tournament compares conversation methods".into());
    }
    let seeds = cmd.seeds.ok_or("--seeds is needed (for example --seeds 1..20)")?;
    let out = cmd.out.ok_or("--out is needed: the CSV file to write (for example --out t.csv)")?;
    let scenario = load_scenario(&run)?;
    let script = read_script(&run.model)?;
    let settings = flags.apply(&scenario.judge.settings()?)?;
    let judge = Judge::of(&settings.who(), &scenario);
    let clock: Rc<dyn Clock> = Rc::new(SystemClock::default());
    judge_model(&settings, &scenario, &judge, clock.clone())?;
    std::fs::write(&out, "").map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    let flag = if judge.same_model { " (the agents' own model: it may favour what it wrote)" } else { "" };
    eprintln!("judged by {}{flag}", judge.label);
    let mut t = Tournament {
        id: crate::batch::fingerprint(&scenario),
        seeds: seeds.to_string(),
        judge: judge.label.clone(),
        rows: Vec::new(),
    };
    let mine = seeds.shard(shard);
    let dimensions = pairwise::dimensions(&settings);
    if let Some(dir) = &events_dir {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    }
    // A run or a comparison that fails is said and leaves its pairs not judged; the tournament
    // goes on, and ends with status 1.
    let (mut failed, mut retries) = (0, 0);
    if let Some(path) = &run.otlp {
        std::fs::write(path, "").map_err(|e| format!("cannot write {path}: {e}"))?;
    }
    let trace_start = super::unix_nanos();
    // Every run that played, for the trace (`--otlp`, `--otlp-endpoint`): a trace each.
    let tracing = run.otlp.is_some() || run.otlp_endpoint.is_some();
    let mut traced: Vec<Vec<crate::events::Event>> = Vec::new();
    for &seed in mine.list() {
        let mut logs = Vec::new();
        for &kind in &methods {
            let mut s = scenario.clone();
            s.switch_method(kind);
            s.seed = seed;
            let model = chat_model(&run.model, script.as_deref(), &s, clock.clone());
            let played = futures::executor::block_on(crate::batch::play_seed(&s, seed, model, clock.clone()));
            let played = played.and_then(|events| match crate::events::finish_of(&events) {
                Some(crate::events::FinishReason::Error) | None => Err(events
                    .iter()
                    .find_map(|e| match e {
                        crate::events::Event::Error { message, .. } => Some(message.clone()),
                        _ => None,
                    })
                    .unwrap_or_else(|| "the run did not finish".into())),
                Some(_) => Ok(events),
            });
            let events = match played {
                Ok(events) => {
                    if let Some(dir) = &events_dir {
                        let path = dir.join(format!("seed-{seed}-{}.jsonl", kind.id()));
                        std::fs::write(&path, crate::events::to_json_lines(&events))
                            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                    }
                    Some(events)
                }
                Err(e) => {
                    eprintln!("seed {seed}, {}: the run failed, so its pairs are not judged: {e}", kind.id());
                    failed += 1;
                    None
                }
            };
            if let (true, Some(events)) = (tracing, &events) {
                traced.push(events.clone());
            }
            logs.push((kind.id(), events));
        }
        // Per seed: pairs judged, pairs that were word for word the same, pairs left unjudged,
        // the judge's replies asked again, and orders of asking lost after every attempt.
        let (mut judged_pairs, mut same, mut unjudged, mut retried, mut lost) = (0, 0, 0, 0, 0);
        for i in 0..logs.len() {
            for j in i + 1..logs.len() {
                let (a, b) = (&logs[i], &logs[j]);
                let judged = match (&a.1, &b.1) {
                    (Some(ea), Some(eb)) if pairwise::identical(ea, eb) => {
                        same += 1;
                        Ok(vec![pairwise::Judgement::IDENTICAL; dimensions.len()])
                    }
                    (Some(ea), Some(eb)) if judge.is_demo() => Ok(pairwise::demo(ea, eb, &settings)),
                    (Some(ea), Some(eb)) => judge_model(&settings, &scenario, &judge, clock.clone())
                        .and_then(|m| m.ok_or_else(|| "the judge has no model".to_string()))
                        .and_then(|model| {
                            futures::executor::block_on(pairwise::compare(
                                ea,
                                eb,
                                &settings,
                                model,
                                clock.clone(),
                            ))
                            .map(|(judged, calls)| {
                                let asked = calls
                                    .iter()
                                    .filter(|e| matches!(e, crate::events::Event::ModelCall { .. }))
                                    .count();
                                retried += asked.saturating_sub(2);
                                judged
                            })
                            .map_err(|e| e.to_string())
                        }),
                    _ => Err(String::new()),
                };
                let judged = judged.unwrap_or_else(|e| {
                    if !e.is_empty() {
                        eprintln!("seed {seed}, {} against {}: the judge could not be asked: {e}", a.0, b.0);
                    }
                    vec![pairwise::Judgement::default(); dimensions.len()]
                });
                let overall = judged.last().copied().unwrap_or_default();
                if overall.outcome().is_some() {
                    judged_pairs += 1;
                } else {
                    unjudged += 1;
                    if a.1.is_some() && b.1.is_some() {
                        lost += usize::from(overall.first.is_none()) + usize::from(overall.second.is_none());
                        if overall.first.is_some() || overall.second.is_some() {
                            eprintln!(
                                "seed {seed}, {} against {}: one order's verdict could not be read after every attempt, so the pair is not judged",
                                a.0, b.0
                            );
                        } else {
                            eprintln!("seed {seed}, {} against {}: the judge's verdicts could not be read after every attempt, so the pair is not judged", a.0, b.0);
                        }
                    }
                }
                for (d, judgement) in dimensions.iter().zip(judged) {
                    t.rows.push(Row {
                        seed,
                        a: a.0.into(),
                        b: b.0.into(),
                        dimension: d.clone(),
                        judged: judgement,
                    });
                }
            }
        }
        let pairs = logs.len() * logs.len().saturating_sub(1) / 2;
        let mut said =
            format!("seed {seed}: {} methods played; {judged_pairs} of {pairs} pairs judged", methods.len());
        if same > 0 {
            said += &format!(" ({same} word for word the same: a tie each, the judge not asked)");
        }
        if !judge.is_demo() {
            said += &format!(
                "; {retried} repl{} asked again, {lost} order{} of asking lost",
                if retried == 1 { "y" } else { "ies" },
                if lost == 1 { "" } else { "s" }
            );
        }
        if unjudged > 0 {
            said += &format!("; {unjudged} pair{} not judged", if unjudged == 1 { "" } else { "s" });
        }
        eprintln!("{said}");
        failed += unjudged;
        retries += retried;
    }
    let mut board = Leaderboard::of(&t);
    board.retries = retries;
    write(&out, &t, &board)?;
    let runs: Vec<&[crate::events::Event]> = traced.iter().map(Vec::as_slice).collect();
    super::write_trace(&run, &runs, trace_start)?;
    if shard != Shard::WHOLE {
        say(format_args!(
            "shard {} of {}: merge the shards for the whole leaderboard",
            shard.index, shard.count
        ));
    }
    for line in board.lines() {
        say(line);
    }
    Ok(if failed > 0 { 1 } else { 0 })
}

/// `tournament merge a.csv b.csv ... --out t.csv`.
fn merge_files(files: Vec<String>, out: PathBuf) -> Result<i32, String> {
    let mut parts = Vec::new();
    for name in files {
        let text = std::fs::read_to_string(&name).map_err(|e| format!("cannot read {name}: {e}"))?;
        parts.push((name.clone(), Tournament::read_csv(&text).map_err(|e| format!("{name}: {e}"))?));
    }
    let t = merge(parts)?;
    let board = Leaderboard::of(&t);
    write(&out, &t, &board)?;
    for line in board.lines() {
        say(line);
    }
    Ok(0)
}
