//! `agora judge`: judges a recorded run from its log (a run file saved from the page, or the JSON
//! lines of `agora run --events`), prints the verdict and writes the log with it appended.

use std::rc::Rc;

use super::say;
use crate::clock::{Clock, SystemClock};
use crate::events::Event;
use crate::judge::{Judge, JudgeSettings};
use crate::model::ChatModel;
use crate::scenario::Scenario;

pub const USAGE: &str = "usage: agora judge <run.json | events.jsonl> [--judge-provider ID --judge-model NAME] [--judge-base-url URL] [--out <file>] [--markdown <file>]\n\nWithout --judge-provider the run's own model judges (on the demo model, the demo judge, which reads the\ntext statistics and calls no model). The judge's key is read from AGORA_JUDGE_API_KEY, else AGORA_API_KEY.\n--out writes the log with the verdict appended, in the form it was read (a run file or JSON lines).";

/// Who judges, as the `--judge-*` flags say (shared with `agora batch`).
#[derive(Debug, Default, PartialEq)]
pub struct JudgeFlags {
    pub provider: Option<String>,
    pub model: Option<String>,
    pub base_url: Option<String>,
}

impl JudgeFlags {
    /// Takes `flag` and its value if it is one of the judge's; `Ok(false)` for another flag.
    pub fn take(
        &mut self,
        flag: &str,
        value: &mut dyn FnMut() -> Result<String, String>,
    ) -> Result<bool, String> {
        let slot = match flag {
            "--judge-provider" => &mut self.provider,
            "--judge-model" => &mut self.model,
            "--judge-base-url" => &mut self.base_url,
            _ => return Ok(false),
        };
        *slot = Some(value()?);
        Ok(true)
    }

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
    let s = crate::judge::judge_scenario(scenario, settings);
    let key = ["AGORA_JUDGE_API_KEY", "AGORA_API_KEY"]
        .iter()
        .find_map(|k| std::env::var(k).ok().filter(|v| !v.trim().is_empty()));
    let model = super::provider_model_with_key(&s, key, clock)
        .map_err(|e| e.replace("set AGORA_API_KEY", "set AGORA_JUDGE_API_KEY or AGORA_API_KEY"))?;
    Ok(Some(Rc::new(model)))
}

/// A recorded log and whether it came as a run file (else JSON lines).
fn read_log(path: &str) -> Result<(Vec<Event>, bool), String> {
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
    let settings = flags.apply(&scenario.judge)?;
    if let Some((field, message)) = settings.problems().into_iter().next() {
        return Err(format!("{field}: {message}"));
    }
    let judge = Judge::of(&settings, scenario);
    let model = judge_model(&settings, scenario, &judge, clock.clone())?;
    futures::executor::block_on(crate::judge::judge_run(events, &settings, &judge, model, clock))
        .map_err(|e| format!("the judge could not be asked: {e}"))
}

pub fn main(args: &[String]) -> Result<i32, String> {
    let mut flags = JudgeFlags::default();
    let (mut path, mut out, mut markdown) = (None, None, None);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || it.next().cloned().ok_or(format!("{arg} needs a value"));
        if flags.take(arg, &mut value)? {
            continue;
        }
        match arg.as_str() {
            "--out" => out = Some(value()?),
            "--markdown" => markdown = Some(value()?),
            "--help" | "-h" => {
                say(USAGE);
                return Ok(0);
            }
            flag if flag.starts_with("--") => return Err(format!("unknown flag {flag}")),
            p if path.is_none() => path = Some(p.to_string()),
            extra => return Err(format!("unexpected argument \"{extra}\"")),
        }
    }
    let path = path.ok_or("give the run to judge: a run file or an event log")?;
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
