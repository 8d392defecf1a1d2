//! `agora import` (an AutoGen Studio team component as a scenario) and `agora export`: a round
//! robin or selector scenario as a team component (`--autogen`, the mapping is
//! `crate::autogen`), any scenario or recorded run as a Jupyter notebook or a Python script
//! (`--notebook`, `crate::notebook`).

use crate::autogen::{export_team, import_team};

pub const USAGE: &str = "usage: agora import <team.json> [--task TEXT] [--out scenario.json]  (an AutoGen team component as a scenario)\n       agora export <scenario.json | preset:ID> --autogen [--out team.json]  (a round robin or selector scenario as an AutoGen team)
       agora export <scenario.json | run.json | events.jsonl | preset:ID> --notebook [--out run.ipynb | run.py]  (a notebook that plays it with the openai package)";

/// The flags given, with their values (empty for a switch).
type Flags<'a> = Vec<(&'a str, String)>;

/// Reads `--flag value` pairs and one path.
fn parse<'a>(args: &'a [String], flags: &[&str], switches: &[&str]) -> Result<(String, Flags<'a>), String> {
    let mut path = None;
    let mut found = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if flags.contains(&arg.as_str()) {
            found.push((arg.as_str(), it.next().cloned().ok_or(format!("{arg} needs a value"))?));
        } else if switches.contains(&arg.as_str()) {
            found.push((arg.as_str(), String::new()));
        } else if arg.starts_with("--") {
            return Err(format!("unknown flag {arg}"));
        } else if path.is_none() {
            path = Some(arg.clone());
        } else {
            return Err(format!("unexpected argument \"{arg}\""));
        }
    }
    Ok((path.ok_or("no file given")?, found))
}

fn write_out(out: Option<&String>, text: &str) -> Result<(), String> {
    match out {
        Some(path) => std::fs::write(path, text).map_err(|e| format!("cannot write {path}: {e}")),
        None => {
            println!("{text}");
            Ok(())
        }
    }
}

fn flag<'a>(found: &'a [(&str, String)], name: &str) -> Option<&'a String> {
    found.iter().find(|(f, _)| *f == name).map(|(_, v)| v)
}

/// `agora import`.
pub fn import_main(args: &[String]) -> Result<i32, String> {
    let (path, found) = parse(args, &["--task", "--out"], &[])?;
    let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let imported =
        import_team(&text, flag(&found, "--task").map(String::as_str)).map_err(|e| format!("{path}: {e}"))?;
    if !imported.not_mapped.is_empty() {
        eprintln!("agora: {}", imported.not_mapped);
    }
    write_out(flag(&found, "--out"), &imported.scenario.to_json_pretty())?;
    Ok(0)
}

/// `agora export --autogen` and `agora export --notebook`.
pub fn export_main(args: &[String]) -> Result<i32, String> {
    let (path, found) = parse(args, &["--out"], &["--autogen", "--notebook"])?;
    let out = flag(&found, "--out");
    match (flag(&found, "--autogen").is_some(), flag(&found, "--notebook").is_some()) {
        (true, false) => {
            let scenario = super::read_scenario(&path)?;
            let (team, note) = export_team(&scenario)?;
            if !note.is_empty() {
                eprintln!("agora: {note}");
            }
            write_out(out, &team)?;
        }
        (false, true) => {
            let (scenario, run) = scenario_or_run(&path)?;
            let script = out.is_some_and(|o| o.ends_with(".py"));
            let text = if script {
                crate::notebook::script(&scenario, &run)
            } else {
                crate::notebook::ipynb(&scenario, &run)
            };
            write_out(out, text.trim_end())?;
        }
        _ => return Err("say which form: --autogen or --notebook".into()),
    }
    Ok(0)
}

/// The scenario in a scenario file or a preset, or the one a recorded run (a run file or its
/// event log as JSON lines) was played from, with that run's log (empty for a scenario).
fn scenario_or_run(path: &str) -> Result<(crate::scenario::Scenario, Vec<crate::events::Event>), String> {
    let as_scenario = super::read_scenario(path);
    if as_scenario.is_ok() || path.starts_with("preset:") {
        return as_scenario.map(|s| (s, Vec::new()));
    }
    match super::judge::read_log(path) {
        Ok((events, _)) => match events.first() {
            Some(crate::events::Event::RunStarted { scenario, .. }) => Ok(((**scenario).clone(), events)),
            _ => Err(format!("{path}: the log does not start with run_started")),
        },
        Err(log) => Err(format!(
            "{path} is neither a scenario ({}) nor a recorded run ({log})",
            as_scenario.err().unwrap_or_default()
        )),
    }
}
