//! Python source written from Rust values: string, number and list literals that Python reads
//! back as exactly the values they were written from, and a block of `NAME = value` constants
//! (the notebook's scenario and each method's settings, `crate::notebook`).

use std::fmt::Write;

/// Python constants, one `NAME = value` line each, written as Python reads them back exactly.
#[derive(Default)]
pub struct Constants(String);

impl Constants {
    /// The lines written so far.
    pub fn source(&self) -> &str {
        &self.0
    }
    pub fn text(&mut self, name: &str, value: &str) {
        self.line(name, &string(value));
    }
    pub fn int(&mut self, name: &str, value: impl std::fmt::Display) {
        self.line(name, &value.to_string());
    }
    pub fn float(&mut self, name: &str, value: f64) {
        self.line(name, &float(value));
    }
    pub fn opt_float(&mut self, name: &str, value: Option<f64>) {
        self.line(name, &value.map_or("None".into(), float));
    }
    pub fn opt_int(&mut self, name: &str, value: Option<u32>) {
        self.line(name, &value.map_or("None".into(), |v| v.to_string()));
    }
    pub fn boolean(&mut self, name: &str, value: bool) {
        self.line(name, if value { "True" } else { "False" });
    }
    pub fn texts(&mut self, name: &str, values: &[String]) {
        let items: Vec<String> = values.iter().map(|v| string(v)).collect();
        self.line(name, &format!("[{}]", items.join(", ")));
    }
    pub fn ints(&mut self, name: &str, values: &[i64]) {
        self.line(name, &ints(values));
    }
    pub fn pattern(&mut self, name: &str, value: &str) {
        self.line(name, &pattern(value));
    }
    pub fn raw(&mut self, name: &str, python: &str) {
        self.line(name, python);
    }
    fn line(&mut self, name: &str, value: &str) {
        let _ = writeln!(self.0, "{name} = {value}");
    }
}

fn ints(values: &[i64]) -> String {
    let items: Vec<String> = values.iter().map(i64::to_string).collect();
    format!("[{}]", items.join(", "))
}

/// A Python string literal that reads back as `s`: triple-quoted when it runs over lines, so a
/// prompt reads as written.
pub fn string(s: &str) -> String {
    if !s.contains('\n') {
        return serde_json::to_string(s).unwrap_or_default();
    }
    let mut out = String::from("\"\"\"");
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\\\"),
            // Never three quotes in a row, nor one just before the closing three.
            '"' if matches!(chars.peek(), Some('"') | None) => out.push_str("\\\""),
            '\r' => out.push_str("\\r"),
            '\n' | '\t' => out.push(c),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push_str("\"\"\"");
    out
}

/// A regular expression as a raw Python string where it can be one (`r"<(\d+)>"`).
pub fn pattern(s: &str) -> String {
    let trailing = s.len() - s.trim_end_matches('\\').len();
    if s.contains(['"', '\n', '\r']) || trailing % 2 == 1 {
        return string(s);
    }
    format!("r\"{s}\"")
}

/// A Python float literal (`repr` reads it back as the same number).
pub fn float(f: f64) -> String {
    if f.is_finite() {
        format!("{f:?}")
    } else if f.is_nan() {
        "float('nan')".into()
    } else {
        format!("float('{}inf')", if f < 0.0 { "-" } else { "" })
    }
}
