//! The crate's modules depend on each other without cycles across folders: a folder (a method's
//! folder, the app, the providers) can be read, moved or tested with what it depends on and
//! nothing that depends on it back. Within one folder, files may lean on each other.
//!
//! The check reads the source as text: every `crate::…`, `super::…` and child-module path in a
//! file's code (comments and the file's tests left out) is an edge to the deepest module the path
//! names; each item of a grouped import (`use crate::methods::{bidding, director::words}`) is a
//! path of its own, and a segment the method registry's macros complete
//! (`crate::methods::$module::panel`) stands for every method's folder. Strongly connected groups
//! of modules that span more than one folder fail the test with the files and the lines that
//! close the cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module as a path from the crate root (`["methods", "bidding"]`), with its file and whether
/// it has child modules (then it is its folder's root).
struct Module {
    file: PathBuf,
    code: String,
}

fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_string());
    }
    parts
}

/// The code of a file without comments, string contents and its `#[cfg(test)]` items (the tests
/// module, and a helper for tests anywhere in the file).
fn code_of(text: &str) -> String {
    without_test_items(&plain_code(text))
}

/// `code` (comments and strings already out) with each item under `#[cfg(test)]` blanked up to
/// its end (its closing brace, or its `;`); the lines stay where they were.
fn without_test_items(code: &str) -> String {
    const MARK: &str = "#[cfg(test)]";
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find(MARK) {
        out.push_str(&rest[..at]);
        let item = &rest[at..];
        let body = item[MARK.len()..].find(['{', ';']).map(|i| i + MARK.len());
        let end = match body {
            Some(open) if item.as_bytes()[open] == b'{' => {
                let mut depth = 0usize;
                let mut end = item.len();
                for (i, c) in item[open..].char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = open + i + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                end
            }
            Some(semicolon) => semicolon + 1,
            None => item.len(),
        };
        out.extend(item[..end].chars().filter(|&c| c == '\n'));
        rest = &item[end..];
    }
    out.push_str(rest);
    out
}

/// The code of a file without comments and string contents.
fn plain_code(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            match c {
                '\\' => {
                    chars.next();
                }
                '"' => {
                    in_string = false;
                    out.push('"');
                }
                '\n' => out.push('\n'),
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
            out.push('"');
        } else if c == '/' && chars.peek() == Some(&'/') {
            for c in chars.by_ref() {
                if c == '\n' {
                    out.push('\n');
                    break;
                }
            }
        } else if c == '\'' {
            // A char literal ('"' or '\'') must not open a string; a lifetime is left as it is.
            let rest: String = chars.clone().take(12).collect();
            if let Some(escaped) = rest.strip_prefix('\\') {
                // '\n', '\'', '\u{..}': the backslash, the escaped character, up to the quote.
                let first = escaped.chars().next().map_or(0, char::len_utf8);
                let end = escaped[first..].find('\'').map_or(0, |i| i + first + 2);
                for _ in 0..end {
                    chars.next();
                }
                out.push_str("' '");
            } else if rest.chars().nth(1) == Some('\'') {
                chars.next();
                chars.next();
                out.push_str("' '");
            } else {
                out.push(c);
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn modules() -> BTreeMap<Vec<String>, Module> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = BTreeMap::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "bin") {
                    stack.push(path);
                }
                continue;
            }
            let rel = path.strip_prefix(&src).unwrap();
            let name = rel.file_name().unwrap().to_string_lossy();
            // The binaries sit on top of the library; a file of tests depends on whatever it tests.
            if !name.ends_with(".rs") || name == "main.rs" || name == "tests.rs" {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            found.insert(module_path(rel), Module { file: rel.to_path_buf(), code: code_of(&text) });
        }
    }
    found
}

/// The deepest module that a path (already made absolute) names.
fn resolve(modules: &BTreeMap<Vec<String>, Module>, path: &[String]) -> Option<Vec<String>> {
    (0..=path.len()).rev().map(|n| path[..n].to_vec()).find(|p| modules.contains_key(p))
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// A path as written: its segments (a `$name` segment is one the registry's macros complete) and
/// the character it starts at.
struct Written {
    segments: Vec<String>,
    at: usize,
}

/// Reads the paths written from `i` on: one path (identifiers joined by `::`), or, where a path
/// goes on into a group (`a::{b, c::{d, e}}`), one path per item of the group. Returns where the
/// path ends.
fn read_paths(chars: &[char], mut i: usize, prefix: &[String], out: &mut Vec<Vec<String>>) -> usize {
    let skip_space = |mut i: usize| {
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        i
    };
    let mut segments = prefix.to_vec();
    loop {
        i = skip_space(i);
        let start = i;
        if i < chars.len() && chars[i] == '$' {
            i += 1;
        }
        while i < chars.len() && is_ident(chars[i]) {
            i += 1;
        }
        if i == start {
            break;
        }
        segments.push(chars[start..i].iter().collect());
        let after = skip_space(i);
        if after + 1 < chars.len() && chars[after] == ':' && chars[after + 1] == ':' {
            i = skip_space(after + 2);
            if i < chars.len() && chars[i] == '{' {
                // A group: each item is a path of its own under what came before.
                i += 1;
                loop {
                    i = skip_space(i);
                    if i >= chars.len() || chars[i] == '}' {
                        return i + 1;
                    }
                    if chars[i] == ',' || chars[i] == '*' {
                        i += 1;
                        continue;
                    }
                    let before = i;
                    i = read_paths(chars, i, &segments, out);
                    // `x as y`: the name after `as` is not a path.
                    let next = skip_space(i);
                    if chars[next..].starts_with(&['a', 's'])
                        && chars.get(next + 2).is_some_and(|c| c.is_whitespace())
                    {
                        i = skip_space(next + 2);
                        while i < chars.len() && is_ident(chars[i]) {
                            i += 1;
                        }
                    }
                    if i == before {
                        i += 1;
                    }
                }
            }
            continue;
        }
        break;
    }
    // `self` inside a group names the group's own path.
    if segments.last().is_some_and(|s| s == "self") {
        segments.pop();
    }
    if segments.len() > prefix.len() || !prefix.is_empty() {
        out.push(segments);
    }
    i
}

/// Every path in a file's code, with the character it starts at.
fn written_paths(code: &str) -> Vec<Written> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let starts = (is_ident(chars[i]) || chars[i] == '$')
            && !(i > 0 && (is_ident(chars[i - 1]) || chars[i - 1] == ':' || chars[i - 1] == '$'));
        if !starts {
            i += 1;
            continue;
        }
        let mut paths = Vec::new();
        let end = read_paths(&chars, i, &[], &mut paths);
        out.extend(paths.into_iter().map(|segments| Written { segments, at: i }));
        i = end.max(i + 1);
    }
    out
}

/// Every module path a file's code names, with the line it is on. A segment the method
/// registry's macros complete (`crate::methods::$module::panel`) names every method's folder.
fn references(
    module: &[String],
    code: &str,
    children: &BTreeSet<String>,
    methods: &[String],
) -> Vec<(Vec<String>, usize)> {
    let line_of = |at: usize| code.chars().take(at).filter(|&c| c == '\n').count() + 1;
    let mut out = Vec::new();
    for written in written_paths(code) {
        // Each method's folder in turn where the macro completes a segment.
        let mut expanded = vec![Vec::new()];
        for segment in &written.segments {
            if segment.starts_with('$') {
                expanded = expanded
                    .into_iter()
                    .flat_map(|p: Vec<String>| {
                        methods.iter().map(move |m| p.iter().cloned().chain([m.clone()]).collect())
                    })
                    .collect();
            } else {
                expanded.iter_mut().for_each(|p| p.push(segment.clone()));
            }
        }
        for segments in expanded {
            // A single name is an item of this module, unless it is a child module.
            if segments.len() < 2 && !segments.first().is_some_and(|s| children.contains(s)) {
                continue;
            }
            let absolute: Vec<String> = match segments[0].as_str() {
                "crate" => segments[1..].to_vec(),
                "super" => {
                    let mut base = module.to_vec();
                    let mut rest = &segments[..];
                    while rest.first().is_some_and(|s| s == "super") {
                        base.pop();
                        rest = &rest[1..];
                    }
                    base.extend(rest.iter().cloned());
                    base
                }
                "self" => module.iter().chain(&segments[1..]).cloned().collect(),
                first if children.contains(first) => module.iter().chain(&segments).cloned().collect(),
                _ => continue,
            };
            out.push((absolute, line_of(written.at)));
        }
    }
    out
}

/// The methods' modules, as the registry lists them (`Variant module "kind" "Name"` lines).
fn method_modules() -> Vec<String> {
    let registry =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/methods/registry.rs"))
            .unwrap();
    let list: Vec<String> = registry
        .lines()
        .filter_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            match words.as_slice() {
                [variant, module, kind, ..]
                    if variant.starts_with(char::is_uppercase)
                        && kind.starts_with('"')
                        && is_module(module) =>
                {
                    Some(module.to_string())
                }
                _ => None,
            }
        })
        .collect();
    assert!(list.len() >= 7, "the registry's methods were not found: {list:?}");
    list
}

fn is_module(word: &str) -> bool {
    !word.is_empty() && word.chars().all(|c| c.is_ascii_lowercase() || c == '_')
}

/// The folder a module belongs to: its own path when it has child modules (it is the folder's
/// root file), otherwise its parent's. A file at the top of `src/` is a folder of its own: the
/// engine, the event log and the scenario are as separate as any two folders.
fn folder(modules: &BTreeMap<Vec<String>, Module>, path: &[String]) -> Vec<String> {
    let has_children = modules.keys().any(|k| k.len() > path.len() && k.starts_with(path));
    if has_children || path.len() == 1 {
        path.to_vec()
    } else {
        path[..path.len() - 1].to_vec()
    }
}

/// Whether two folders are apart: neither holds the other. A folder's files may lean on the
/// folder's root file (a method on the trait and registry beside it) without that being a cycle
/// across folders.
fn apart(a: &[String], b: &[String]) -> bool {
    !a.starts_with(b) && !b.starts_with(a)
}

/// Tarjan's strongly connected components.
fn components(edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Vec<Vec<String>>> {
    struct State<'a> {
        edges: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        index: BTreeMap<&'a [String], usize>,
        low: BTreeMap<&'a [String], usize>,
        stack: Vec<&'a [String]>,
        on_stack: BTreeSet<&'a [String]>,
        found: Vec<Vec<Vec<String>>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a [String]) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        let edges = s.edges;
        for w in edges.get(v).into_iter().flatten() {
            let w = w.as_slice();
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut group = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                group.push(w.to_vec());
                if w == v {
                    break;
                }
            }
            if group.len() > 1 {
                s.found.push(group);
            }
        }
    }
    let mut s = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !s.index.contains_key(v.as_slice()) {
            visit(&mut s, v);
        }
    }
    s.found
}

/// The edges between modules, each with where it is written (file:line).
type Edges = BTreeMap<Vec<String>, BTreeMap<Vec<String>, String>>;

fn edges(modules: &BTreeMap<Vec<String>, Module>, methods: &[String]) -> Edges {
    let mut edges = Edges::new();
    for (path, module) in modules {
        let children: BTreeSet<String> = modules
            .keys()
            .filter(|k| k.len() == path.len() + 1 && k.starts_with(path))
            .map(|k| k.last().unwrap().clone())
            .collect();
        let from = edges.entry(path.clone()).or_default();
        for (target, line) in references(path, &module.code, &children, methods) {
            let Some(to) = resolve(modules, &target) else { continue };
            // A module's own items, and the crate root (which only declares modules), are not
            // dependencies.
            if to.is_empty() || &to == path {
                continue;
            }
            from.entry(to).or_insert_with(|| format!("{}:{line}", module.file.display()));
        }
    }
    edges
}

fn cycles_across_folders(modules: &BTreeMap<Vec<String>, Module>, methods: &[String]) -> Vec<String> {
    let edges = edges(modules, methods);
    let plain = edges.iter().map(|(k, v)| (k.clone(), v.keys().cloned().collect())).collect();
    let mut report = Vec::new();
    for group in components(&plain) {
        let folders: BTreeSet<Vec<String>> = group.iter().map(|m| folder(modules, m)).collect();
        if !folders.iter().any(|a| folders.iter().any(|b| apart(a, b))) {
            continue;
        }
        let folders: Vec<String> = folders.iter().map(|f| format!("src/{}", f.join("/"))).collect();
        let members: BTreeSet<&Vec<String>> = group.iter().collect();
        let mut lines = vec![format!("a cycle across {}:", folders.join(", "))];
        for m in &group {
            for (to, at) in &edges[m] {
                if members.contains(to) {
                    lines.push(format!("  {} -> {} ({at})", m.join("::"), to.join("::")));
                }
            }
        }
        report.push(lines.join("\n"));
    }
    report
}

#[test]
fn no_module_cycle_crosses_a_folder() {
    let modules = modules();
    assert!(modules.len() > 40, "the source was not found: {} modules", modules.len());
    let cycles = cycles_across_folders(&modules, &method_modules());
    assert!(cycles.is_empty(), "{}", cycles.join("\n\n"));
}

/// The check finds a cycle when one is there: two files in different folders naming each other,
/// through `crate::`, `super::` and a child module, through an item of a grouped import, and
/// through a path the registry's macros complete; and not when the same names sit in comments,
/// strings or tests.
#[test]
fn the_check_finds_a_planted_cycle() {
    let module = |file: &str, code: &str| Module { file: file.into(), code: code_of(code) };
    let path = |p: &str| p.split('/').filter(|s| !s.is_empty()).map(String::from).collect::<Vec<_>>();
    let methods = vec!["bidding".to_string(), "director".to_string()];
    let base = || {
        let mut modules = BTreeMap::new();
        modules.insert(path("methods"), module("methods.rs", "pub mod bidding; pub mod director;"));
        modules.insert(path("methods/bidding"), module("methods/bidding.rs", "use crate::text::words;"));
        modules.insert(path("methods/director"), module("methods/director.rs", "use crate::text::words;"));
        modules.insert(path("methods/director/words"), module("methods/director/words.rs", ""));
        modules.insert(path("text"), module("text.rs", "pub fn words() {}"));
        modules
    };

    // Through crate:: and super::super::.
    let mut modules = base();
    modules.insert(path("engine"), module("engine.rs", "use crate::methods::bidding::Bidding;"));
    modules.insert(
        path("methods/bidding"),
        module("methods/bidding.rs", "fn f(x: &super::super::engine::Floor) {}"),
    );
    let found = cycles_across_folders(&modules, &methods);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("engine -> methods::bidding (engine.rs:1)"), "{}", found[0]);
    assert!(found[0].contains("methods::bidding -> engine (methods/bidding.rs:1)"), "{}", found[0]);

    // Through one item of a grouped import over two lines, nested, renamed.
    let mut modules = base();
    modules.insert(
        path("app"),
        module("app.rs", "use crate::{text::words,\n    methods::{bidding as b, director::words::{self}}};"),
    );
    modules.insert(
        path("methods/director/words"),
        module("methods/director/words.rs", "use crate::app::Controller;"),
    );
    let found = cycles_across_folders(&modules, &methods);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("app -> methods::director::words (app.rs:1)"), "{}", found[0]);
    let plain = edges(&modules, &methods);
    let from_app: Vec<_> = plain[&path("app")].keys().cloned().collect();
    assert_eq!(from_app, [path("methods/bidding"), path("methods/director/words"), path("text")]);

    // Through a path the registry's macros complete: every method's folder.
    let mut modules = base();
    modules.insert(
        path("scenario"),
        module("scenario.rs", "$(Method::$kind(crate::methods::$module::Settings),)*"),
    );
    modules.insert(path("methods/director"), module("methods/director.rs", "use crate::scenario::Scenario;"));
    let found = cycles_across_folders(&modules, &methods);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("scenario -> methods::director (scenario.rs:1)"), "{}", found[0]);
    let plain = edges(&modules, &methods);
    assert_eq!(
        plain[&path("scenario")].keys().cloned().collect::<Vec<_>>(),
        [path("methods/bidding"), path("methods/director")]
    );

    // A helper for tests in the middle of a file hides none of the code after it, and adds no edge.
    let mut modules = base();
    modules.insert(
        path("engine"),
        module(
            "engine.rs",
            "#[cfg(test)]\npub fn helper() { if true { crate::text::words(); } }\n#[cfg(test)]\nmod check;\nuse crate::methods::bidding::Bidding;",
        ),
    );
    modules.insert(path("methods/bidding"), module("methods/bidding.rs", "use crate::engine::Floor;"));
    let found = cycles_across_folders(&modules, &methods);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("engine -> methods::bidding (engine.rs:5)"), "{}", found[0]);
    assert_eq!(
        edges(&modules, &methods)[&path("engine")].keys().collect::<Vec<_>>(),
        [&path("methods/bidding")]
    );

    // Comments, strings and tests add no edge; a cut cycle is not reported.
    let mut modules = base();
    modules.insert(
        path("clock"),
        module("clock.rs", "// crate::engine::Run\nconst S: &str = \"crate::engine\";\n#[cfg(test)]\nmod tests { use crate::text; }"),
    );
    modules.insert(
        path("estimate"),
        module(
            "estimate.rs",
            "use crate::clock::Clock; fn g() { '\"'; '\\''; '\\u{22}'; } use crate::text::X;",
        ),
    );
    assert!(cycles_across_folders(&modules, &methods).is_empty());
    let plain = edges(&modules, &methods);
    assert!(plain[&path("clock")].is_empty());
    assert_eq!(plain[&path("estimate")].keys().collect::<Vec<_>>(), [&path("clock"), &path("text")]);
}
