//! Indented JSON for people reading a file, made from the compact text.
//!
//! Types are written once, compactly, and indented afterwards: serde would otherwise emit a second
//! writer for every type just for the indented form, a cost the browser build pays in download
//! size. The output is exactly serde_json's pretty form (two spaces, `"key": value`, `[]`, `{}`).

/// `compact` (JSON with no whitespace outside strings, as `serde_json::to_string` writes it)
/// indented by two spaces per level.
pub fn indent(compact: &str) -> String {
    let mut out = String::with_capacity(compact.len() + compact.len() / 4);
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let mut chars = compact.chars().peekable();
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        for _ in 0..depth {
            out.push_str("  ");
        }
    };
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '{' | '[' => {
                out.push(c);
                let close = if c == '{' { '}' } else { ']' };
                if chars.peek() == Some(&close) {
                    out.push(close);
                    chars.next();
                } else {
                    depth += 1;
                    newline(&mut out, depth);
                }
            }
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(c);
            }
            ',' => {
                out.push(c);
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_serde_pretty_for_every_preset_run() {
        for preset in &crate::presets::PRESETS {
            let scenario = preset.scenario();
            let clock = std::rc::Rc::new(crate::clock::FrozenClock);
            let model = std::rc::Rc::new(crate::model::demo::DemoModel::new(&scenario, clock.clone()));
            let mut run = crate::engine::Run::new(scenario.clone(), model, clock).unwrap();
            futures::executor::block_on(run.run_to_end());
            let file = serde_json::json!({"scenario": scenario, "events": run.events(), "empty": [{}, []]});
            assert_eq!(
                indent(&file.to_string()),
                serde_json::to_string_pretty(&file).unwrap(),
                "{}",
                preset.id
            );
        }
    }

    #[test]
    fn strings_with_json_punctuation_and_escapes_stay_as_they_are() {
        let value = serde_json::json!({"a{": "x, [y]: \"z\" \\", "b": ["}", "\\\"", ""], "c": {"d": null}});
        assert_eq!(indent(&value.to_string()), serde_json::to_string_pretty(&value).unwrap());
        assert_eq!(indent("[]"), "[]");
        assert_eq!(indent("3"), "3");
    }
}
