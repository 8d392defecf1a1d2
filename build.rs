//! Two things the build makes before compiling the crate.
//!
//! - The presets' cards (`$OUT_DIR/cards.rs`, `presets::CARDS`): each preset's id, method, title
//!   and summary, read from its file under public/scenarios/ in the order src/presets.rs lists
//!   them, so the start screen draws its gallery without the scenario reader (which is not on the
//!   first page) and never drifts from the files.
//! - The page's code splitting (docs/architecture.md): the splitter (`wasm-split-cli`, run after
//!   each Trunk build by publish/split.mjs) reads the `linking` and `reloc.*` sections of rustc's
//!   wasm, which wasm-ld drops unless told to keep them. Asked for the page's binary alone (the
//!   test and bench binaries are native).
use std::fmt::Write;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/presets.rs");
    println!("cargo::rerun-if-changed=public/scenarios");
    if std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|arch| arch == "wasm32") {
        println!("cargo::rustc-link-arg-bin=agora=--emit-relocs");
    }
    let presets = std::fs::read_to_string("src/presets.rs").expect("src/presets.rs");
    let mut cards = String::from("pub const CARDS: &[Card] = &[\n");
    for id in presets.split("public/scenarios/").skip(1).filter_map(|rest| rest.split_once(".json\"")) {
        let id = id.0;
        let path = format!("public/scenarios/{id}.json");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let scenario: serde_json::Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
        let field = |name: &str| scenario[name].as_str().unwrap_or_default().to_string();
        let method = scenario["method"]["kind"].as_str().unwrap_or_else(|| panic!("{path}: no method kind"));
        // The method's `kind` in files (`round_robin`) is its variant's name in snake case.
        let variant: String =
            method.split('_').map(|word| word[..1].to_ascii_uppercase() + &word[1..]).collect();
        writeln!(
            cards,
            "    Card {{ id: {id:?}, kind: crate::scenario::MethodKind::{variant}, title: {:?}, summary: {:?} }},",
            field("title"),
            field("summary")
        )
        .expect("a string takes any write");
    }
    cards.push_str("];\n");
    let out = std::path::Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("cards.rs");
    std::fs::write(out, cards).expect("OUT_DIR is writable");
}
