//! `agora import` (an AutoGen Studio team component as a scenario) and `agora export --autogen`
//! (a round robin or selector scenario as a team component); the mapping is `crate::autogen`.

use crate::autogen::{export_team, import_team};

pub const USAGE: &str = "usage: agora import <team.json> [--task TEXT] [--out scenario.json]  (an AutoGen team component as a scenario)\n       agora export <scenario.json | preset:ID> --autogen [--out team.json]  (a round robin or selector scenario as an AutoGen team)";

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

/// `agora export --autogen`.
pub fn export_main(args: &[String]) -> Result<i32, String> {
    let (path, found) = parse(args, &["--out"], &["--autogen"])?;
    if flag(&found, "--autogen").is_none() {
        return Err("say which form: --autogen".into());
    }
    let scenario = super::read_scenario(&path)?;
    let (team, note) = export_team(&scenario)?;
    if !note.is_empty() {
        eprintln!("agora: {note}");
    }
    write_out(flag(&found, "--out"), &team)?;
    Ok(0)
}
