//! `agora import` (an AutoGen Studio team component as a scenario) and `agora export`: a round
//! robin or selector scenario as a team component (`--autogen`, the mapping is
//! `crate::autogen`), any scenario or recorded run as a Jupyter notebook or a Python script
//! (`--notebook`, `crate::notebook`).

use super::args::ExportCmd;
use crate::autogen::{export_team, import_team};

fn write_out(out: Option<&str>, text: &str) -> Result<(), String> {
    match out {
        Some(path) => std::fs::write(path, text).map_err(|e| format!("cannot write {path}: {e}")),
        None => {
            println!("{text}");
            Ok(())
        }
    }
}

/// `agora import`.
pub fn import_main(path: &str, task: Option<&str>, out: Option<&str>) -> Result<i32, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let imported = import_team(&text, task).map_err(|e| format!("{path}: {e}"))?;
    if !imported.not_mapped.is_empty() {
        eprintln!("agora: {}", imported.not_mapped);
    }
    write_out(out, &imported.scenario.to_json_pretty())?;
    Ok(0)
}

/// `agora export --autogen` and `agora export --notebook`.
pub fn export_main(cmd: ExportCmd) -> Result<i32, String> {
    let ExportCmd { file: path, autogen, notebook, out } = cmd;
    let out = out.as_deref();
    match (autogen, notebook) {
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
