//! `agora judge`: judges a recorded run from its log (a run file saved from the page, or the JSON
//! lines of `agora run --events`), prints the verdict and writes the log with it appended.

use std::rc::Rc;

use super::args::JudgeCmd;
use super::{say, JudgeFlags};
use crate::clock::{Clock, SystemClock};
use crate::events::Event;
use crate::judge::{Judge, JudgeSettings};
use crate::model::ChatModel;
use crate::scenario::Scenario;

impl JudgeFlags {
    /// The scenario's judge settings with these flags applied.
    pub fn apply(&self, settings: &JudgeSettings) -> Result<JudgeSettings, String> {
        let mut s = settings.clone();
        match (&self.provider, &self.model) {
            (Some(p), Some(m)) => {
                s.provider = p.clone();
                s.model = m.clone();
                s.base_url = self.base_url.clone().unwrap_or_default();
            }
            (Some(_), None) => return Err("--judge-provider needs --judge-model NAME".into()),
            (None, Some(_)) => return Err("--judge-model needs --judge-provider ID".into()),
            (None, None) if self.base_url.is_some() => {
                return Err("--judge-base-url needs --judge-provider and --judge-model".into())
            }
            (None, None) => {}
        }
        Ok(s)
    }
}

/// The judge's model for a run of `scenario` judged with `settings`: the judge's provider with
/// AGORA_JUDGE_API_KEY (else AGORA_API_KEY), or the run's own provider; none for the demo judge.
pub fn judge_model(
    settings: &JudgeSettings,
    scenario: &Scenario,
    judge: &Judge,
    clock: Rc<dyn Clock>,
) -> Result<Option<Rc<dyn ChatModel>>, String> {
    if judge.is_demo() {
        return Ok(None);
    }
    let s = crate::judge::judge_scenario(scenario, &settings.who());
    let key = ["AGORA_JUDGE_API_KEY", "AGORA_API_KEY"]
        .iter()
        .find_map(|k| std::env::var(k).ok().filter(|v| !v.trim().is_empty()));
    let model = super::provider_model_with_key(&s, key, clock)
        .map_err(|e| e.replace("set AGORA_API_KEY", "set AGORA_JUDGE_API_KEY or AGORA_API_KEY"))?;
    Ok(Some(Rc::new(model)))
}

/// A recorded log and whether it came as a run file (else JSON lines).
pub(crate) fn read_log(path: &str) -> Result<(Vec<Event>, bool), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let file = text.trim_start().starts_with("{\"format\"") || text.trim_start().starts_with("{\n");
    let events = if file {
        crate::export::from_json(&text).map(|f| f.events)
    } else {
        crate::events::from_json_lines(&text)
    }
    .map_err(|e| format!("{path}: {e}"))?;
    if !matches!(events.first(), Some(Event::RunStarted { .. })) {
        return Err(format!("{path}: the log does not start with run_started"));
    }
    Ok((events, file))
}

/// Judges `events` with the scenario's judge settings and `flags`: the events to append.
pub fn judge_log(events: &[Event], flags: &JudgeFlags, clock: Rc<dyn Clock>) -> Result<Vec<Event>, String> {
    let Some(Event::RunStarted { scenario, .. }) = events.first() else {
        return Err("the log does not start with run_started".into());
    };
    let settings = flags.apply(&scenario.judge.settings()?)?;
    if let Some((field, message)) = settings.problems().into_iter().next() {
        return Err(format!("{field}: {message}"));
    }
    let judge = Judge::of(&settings.who(), scenario);
    let model = judge_model(&settings, scenario, &judge, clock.clone())?;
    futures::executor::block_on(crate::judge::judge_run(events, &settings, &judge, model, clock))
        .map_err(|e| format!("the judge could not be asked: {e}"))
}

pub fn main(cmd: JudgeCmd) -> Result<i32, String> {
    let JudgeCmd { run: path, flags, out, markdown } = cmd;
    let (mut events, as_file) = read_log(&path)?;
    for p in out.iter().chain(&markdown) {
        std::fs::write(p, "").map_err(|e| format!("cannot write {p}: {e}"))?;
    }
    let clock: Rc<dyn Clock> = Rc::new(SystemClock::default());
    let added = judge_log(&events, &flags, clock)?;
    for e in &added {
        if let Some(line) = super::render_event(e, &[]).filter(|_| matches!(e, Event::Verdict { .. })) {
            say(line);
        }
    }
    events.extend(added);
    if let Some(p) = &out {
        let text = match (as_file, events.first()) {
            (true, Some(Event::RunStarted { scenario, .. })) => crate::export::to_json(scenario, &events),
            _ => crate::events::to_json_lines(&events),
        };
        std::fs::write(p, text).map_err(|e| format!("cannot write {p}: {e}"))?;
    }
    if let Some(p) = &markdown {
        std::fs::write(p, crate::export::to_markdown(&events))
            .map_err(|e| format!("cannot write {p}: {e}"))?;
    }
    let judged = matches!(crate::judge::latest(&events), Some(Event::Verdict { not_judged, .. }) if not_judged.is_empty());
    Ok(if judged { 0 } else { 1 })
}

/// `agora judge-check runs/ labels.csv`.
pub fn check_main(dir: &str, labels: &str) -> Result<i32, String> {
    // The judge's scores: (run, agent, dimension) to (score, min, max).
    let mut judged = std::collections::BTreeMap::new();
    let mut entries: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read {dir}: {e}"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let Ok((events, _)) = read_log(&path.to_string_lossy()) else { continue };
        let Some(verdict) = crate::judge::latest(&events) else {
            return Err(format!(
                "{} has no verdict: judge it first (agora judge {} --out ...)",
                path.display(),
                path.display()
            ));
        };
        let (agents, conversation) =
            crate::judge::scorecards(verdict).map_err(|e| format!("{}: {e}", path.display()))?;
        for card in agents.iter().chain(&conversation) {
            for s in &card.scores {
                if let Some(v) = s.score {
                    judged.insert((name.clone(), card.agent.clone(), s.dimension.clone()), (v, s.min, s.max));
                }
            }
        }
    }
    if judged.is_empty() {
        return Err(format!("{dir} holds no judged runs"));
    }
    let text = std::fs::read_to_string(labels).map_err(|e| format!("cannot read {labels}: {e}"))?;
    let mut lines = text.lines();
    if lines.next().map(|h| h.trim().trim_start_matches('\u{feff}')) != Some("run,agent,dimension,score") {
        return Err(format!("{labels}: the header must be run,agent,dimension,score"));
    }
    // Per dimension: (judge's score, person's score) pairs, and the dimension's scale.
    type Compared = (Vec<(u32, u32)>, u32, u32);
    let mut pairs: std::collections::BTreeMap<String, Compared> = Default::default();
    let (mut unmatched, mut repeated) = (0, 0);
    // Each item labelled, with its score and line: an item labelled twice must say the same.
    let mut seen: std::collections::BTreeMap<(String, String, String), (u32, usize)> = Default::default();
    for (i, line) in lines.enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let at = i + 2;
        let cells: Vec<&str> = line.split(',').map(str::trim).collect();
        let [run, agent, dimension, score] = cells[..] else {
            return Err(format!("{labels} line {at}: four cells expected"));
        };
        let score: u32 = score
            .parse()
            .map_err(|_| format!("{labels} line {at}: the score \"{score}\" is not a whole number"))?;
        let item = (run.to_string(), agent.to_string(), dimension.to_string());
        match seen.get(&item) {
            Some(&(before, line)) if before != score => {
                return Err(format!(
                    "{labels} line {at}: {run}, {}{dimension} is labelled {score} here and {before} on line {line}: keep one",
                    if agent.is_empty() { String::new() } else { format!("{agent}, ") }
                ));
            }
            Some(_) => {
                repeated += 1;
                continue;
            }
            None => {
                seen.insert(item.clone(), (score, at));
            }
        }
        match judged.get(&item) {
            Some(&(v, min, max)) => {
                if !(min..=max).contains(&score) {
                    return Err(format!(
                        "{labels} line {at}: the score {score} is off the scale of {dimension} ({min} to {max})"
                    ));
                }
                let entry = pairs.entry(dimension.to_string()).or_insert((Vec::new(), min, max));
                entry.0.push((v, score));
            }
            None => unmatched += 1,
        }
    }
    if pairs.is_empty() {
        return Err(format!("no label in {labels} matches a judged score in {dir} (run names are file names without their extension)"));
    }
    let width = pairs.keys().map(|d| d.chars().count()).max().unwrap_or(9).max(9);
    say(format_args!(
        "  {:<width$}  {:>5}  {:>8}  {:>14}  {:>8}  {:>14}",
        "dimension", "pairs", "spearman", "95 % interval", "kappa", "95 % interval"
    ));
    let mut undefined = Vec::new();
    for (dimension, (list, min, max)) in &pairs {
        let a = crate::judge::agreement::Agreement::of(dimension, list, *min, *max);
        say(a.line(width));
        undefined.extend(a.undefined());
    }
    for why in undefined {
        say(why);
    }
    say(format_args!(
        "Spearman's rho ranks the judge's scores against yours; kappa is Cohen's, quadratic-weighted on the dimension's scale. Intervals: 95 % percentile bootstrap over the pairs ({} resamples).",
        crate::judge::agreement::RESAMPLES
    ));
    if repeated > 0 {
        say(format_args!("{repeated} labels repeated an item with the same score and were counted once."));
    }
    if unmatched > 0 {
        say(format_args!("{unmatched} labels had no judged score to compare with (a run, agent or dimension the judge did not score)."));
    }
    Ok(0)
}
