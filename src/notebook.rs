//! A scenario as a Jupyter notebook (and the same as a plain Python script) that a class runs
//! beside the run it came from: the seeds' own style (a `DialogueAgent`, a `DialogueSimulator`,
//! each method's rule in one cell), the `openai` package alone, and the prompt texts, settings
//! and message lists Agora sends, so that with the same replies a model receives the same
//! requests in the same order until the first random draw (the notebook draws with Python's
//! `random.Random(SEED)`, Agora with its own generator).
//!
//! The Python is in `notebook/*.py` and each method's `methods/<method>/notebook.py`; this file
//! writes the scenario's values as Python constants and puts the cells together.

use std::fmt::Write;

use crate::catalog;
use crate::events::Event;
use crate::python::{string, Constants};
use crate::scenario::{Method, PromptKind, Scenario, Stance};

/// One cell of the notebook.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    pub markdown: bool,
    pub source: String,
}

fn md(source: impl Into<String>) -> Cell {
    Cell { markdown: true, source: source.into() }
}

fn code(source: impl Into<String>) -> Cell {
    Cell { markdown: false, source: source.into().trim_end().to_string() }
}

/// What each method adds: its rule in words, its constants and its code.
struct MethodPart {
    rule: &'static str,
    code: &'static str,
    constants: Constants,
}

macro_rules! method_parts {
    ($($kind:ident $module:ident $id:literal $label:literal,)*) => {
        fn method_part(scenario: &Scenario) -> MethodPart {
            let mut constants = Constants::default();
            match &scenario.method {
                $(Method::$kind(s) => {
                    crate::methods::$module::notebook::constants(scenario, s, &mut constants);
                    MethodPart {
                        rule: crate::methods::$module::notebook::RULE,
                        code: include_str!(concat!("methods/", stringify!($module), "/notebook.py")),
                        constants,
                    }
                })*
            }
        }
    };
}
crate::methods::registry::each_method!(method_parts);

/// Where the notebook's client sends its calls, and the dialect the provider's preset gives:
/// (base URL, whether a temperature is sent, the token limit's field), and a note when Agora
/// itself would speak another protocol.
fn endpoint(scenario: &Scenario) -> (String, bool, Option<&'static str>, Option<&'static str>) {
    let m = &scenario.model;
    let preset = catalog::preset(&m.provider);
    let mut note = None;
    let mut url = m.base_url.clone();
    if url.is_empty() {
        url = preset.map_or("", |p| p.base_url).to_string();
    }
    if m.provider == "anthropic" {
        note = Some("Agora calls Anthropic's own Messages API; this notebook calls its OpenAI-compatible endpoint, so the requests are written differently (the prompts and settings are the same).");
    }
    if url.is_empty() || m.provider == "demo" || m.provider.is_empty() {
        url = "https://api.openai.com/v1".into();
    }
    let dialect = preset.map(|p| p.dialect).unwrap_or_default();
    let limit = match (dialect.no_token_limit, dialect.max_completion_tokens) {
        (true, _) => None,
        (false, true) => Some("max_completion_tokens"),
        (false, false) => Some("max_tokens"),
    };
    (url, !dialect.no_temperature, limit, note)
}

/// The notebook's cells, in order; with the log of a run recorded from the scenario (`run`,
/// empty for none), a last cell holds that run's transcript, to read beside the notebook's.
pub fn cells(scenario: &Scenario, run: &[Event]) -> Vec<Cell> {
    let kind = scenario.method.kind();
    let part = method_part(scenario);
    let (url, temperature, limit, note) = endpoint(scenario);
    let demo = scenario.model.provider.is_empty() || scenario.model.provider == "demo";
    let model =
        if demo || scenario.model.name.is_empty() { "gpt-4o-mini" } else { scenario.model.name.as_str() };

    let mut intro = format!(
        "# {}\n\n{}\n\nA notebook Agora wrote from this scenario: the **{}** method, played the way Agora plays it, with the same prompt texts, settings and message lists. Given the same replies, the model receives the same requests in the same order as in Agora until the first random draw (a tie between bids, the director's stop draw, a random speaker or a fallback): Agora draws with its own seeded generator and this notebook with Python's `random.Random(SEED)`, so from that draw on the two runs can go different ways.\n\n",
        scenario.title.trim(),
        scenario.summary.trim(),
        kind.label()
    );
    let _ = write!(
        intro,
        "To run it: `pip install openai`, then set `OPENAI_API_KEY` (and `OPENAI_BASE_URL` for any other OpenAI-compatible server, such as Ollama or a local llama.cpp) before starting Jupyter; in Colab, run `!pip install openai` and `import os; os.environ[\"OPENAI_API_KEY\"] = \"...\"` in a cell first. It asks `{model}` unless `AGORA_MODEL` names another model. To change the topic, a setting or a prompt, edit its constant in the scenario cell below and run the cells again."
    );
    if demo {
        intro.push_str(" The scenario is set to Agora's offline demo model, which has no counterpart here: the notebook asks a real model.");
    }
    if let Some(note) = note {
        intro.push(' ');
        intro.push_str(note);
    }
    if !scenario.seats.is_empty() {
        let _ = write!(
            intro,
            " In Agora people answer for {}; here the model answers for everyone.",
            scenario.seats.join(", ")
        );
    }

    let setup = format!(
        "import json\nimport os\nimport random\nimport re\n\nfrom openai import OpenAI\n\nclient = OpenAI(\n    base_url=os.environ.get(\"OPENAI_BASE_URL\") or {},\n    api_key=os.environ.get(\"OPENAI_API_KEY\") or \"none\",\n)\nMODEL = os.environ.get(\"AGORA_MODEL\") or {}",
        string(&url),
        string(model)
    );

    let mut c = Constants::default();
    c.text("TITLE", &scenario.title);
    c.text("METHOD", kind.id());
    c.int("SEED", scenario.seed);
    c.text("TOPIC", &scenario.topic);
    c.int("WORD_LIMIT", scenario.word_limit);
    c.int("MAX_TURNS", scenario.max_turns);
    c.boolean("ENDS_AT_TURN_LIMIT", kind.ends_at_turn_limit());
    c.opt_float("TEMPERATURE", scenario.model.temperature);
    c.boolean("SEND_TEMPERATURE", temperature);
    c.raw("TOKEN_LIMIT_FIELD", &limit.map_or("None".into(), string));
    let own: Vec<String> = scenario
        .agents
        .iter()
        .filter(|_| !demo)
        .filter_map(|a| a.model.as_ref().map(|m| format!("{}: {}", string(&a.name), string(m))))
        .collect();
    c.raw("MODELS", &format!("{{{}}}  # agents with a model of their own", own.join(", ")));
    let agents: Vec<String> = scenario
        .agents
        .iter()
        .map(|a| {
            let stance = a.stance.map_or("None".into(), |s| {
                string(match s {
                    Stance::For => "for",
                    Stance::Against => "against",
                    Stance::Neutral => "neutral",
                })
            });
            format!(
                "    dict(\n        name={},\n        role={},\n        location={},\n        description={},\n        stance={stance},\n        system_prompt={},\n    ),\n",
                string(&a.name),
                string(&a.role),
                string(&a.location),
                string(&a.description),
                a.system_prompt.as_deref().map_or("None".into(), string),
            )
        })
        .collect();
    c.raw("AGENTS", &format!("[\n{}]", agents.concat()));
    c.text("CONVERSATION_DESCRIPTION", scenario.prompt(PromptKind::ConversationDescription));
    c.text("HEADER", scenario.prompt(PromptKind::Header));
    c.text("SYSTEM", scenario.prompt(PromptKind::System));
    c.text("HISTORY_HEADER", scenario.prompt(PromptKind::HistoryHeader));
    let o = &scenario.opening;
    c.text("OPENING_SPEAKER", &o.speaker);
    c.text("OPENING_TEXT", &o.text);
    c.boolean("DESCRIBE_CHARACTERS", o.describe_characters);
    c.text("DESCRIBER_SYSTEM", &o.describer_system);
    c.text("DESCRIBER_PROMPT", &o.describer_prompt);
    c.boolean("SPECIFY_TOPIC", o.specify_topic);
    c.text("SPECIFIER_SYSTEM", &o.specifier_system);
    c.text("SPECIFIER_PROMPT", &o.specifier_prompt);
    let mut scenario_cell = c.source().to_string();
    scenario_cell.push_str("\nrng = random.Random(SEED)  # every random draw of the run");

    let mut play = String::new();
    if kind.injects_opening() {
        play.push_str("simulator.inject(OPENING_SPEAKER, opening or TOPIC)\n");
    }
    play.push_str(include_str!("notebook/run.py"));

    let mut cells = vec![
        md(intro),
        code(setup),
        md("## The scenario\n\nEvery value and prompt text as the scenario gives them (a field it leaves out has its seed's value). Templates are filled by name: `{topic}` becomes the topic, and braces that name nothing stay as they are."),
        code(scenario_cell),
        md("## Talking to the model\n\nOne function sends every call, with the settings Agora sends for it; the others read replies the way Agora reads them."),
        code(include_str!("notebook/talk.py")),
        md("## The agents\n\nEach agent has a system message built from the templates above and hears every message of the conversation: the `DialogueAgent` and `DialogueSimulator` of the LangChain multi-agent notebooks this follows."),
        code(include_str!("notebook/agents.py")),
        md("## The opening\n\nWhat happens before the first turn: character descriptions and a more specific topic, when the scenario asks for them."),
        code(include_str!("notebook/opening.py")),
        md(format!("## {}\n\n{}", kind.label(), part.rule)),
        code(format!("{}\n{}", part.constants.source(), part.code)),
        md("## The run\n\nTurn after turn until the method ends it or the turn limit is reached; the transcript is printed as `agora run` prints it."),
        code(play),
    ];
    if run.len() > 1 {
        // Its headings one level down, under this cell's own.
        let transcript: Vec<String> = crate::export::to_markdown(run)
            .lines()
            .map(|l| if l.starts_with('#') { format!("##{l}") } else { l.to_string() })
            .collect();
        cells.push(md(format!(
            "## The run this notebook came from\n\nAs Agora recorded it, to read beside the run above: the same requests until the first random draw, so the same words where the model answers them the same way.\n\n{}",
            transcript.join("\n")
        )));
    }
    cells
}

/// The notebook as a Jupyter file (nbformat 4), with the recorded `run`'s transcript when given.
pub fn ipynb(scenario: &Scenario, run: &[Event]) -> String {
    let cells: Vec<serde_json::Value> = cells(scenario, run)
        .into_iter()
        .enumerate()
        .map(|(i, cell)| {
            let lines: Vec<String> = cell.source.split_inclusive('\n').map(str::to_string).collect();
            let id = format!("cell-{i}");
            if cell.markdown {
                serde_json::json!({"cell_type": "markdown", "id": id, "metadata": {}, "source": lines})
            } else {
                serde_json::json!({"cell_type": "code", "id": id, "execution_count": null, "metadata": {}, "outputs": [], "source": lines})
            }
        })
        .collect();
    let notebook = serde_json::json!({
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    });
    let mut text = serde_json::to_string_pretty(&notebook).unwrap_or_default();
    text.push('\n');
    text
}

/// The same cells as a plain Python script (the "percent" format Jupyter, VS Code and Spyder
/// open as cells): `python notebook.py` runs it.
pub fn script(scenario: &Scenario, run: &[Event]) -> String {
    let mut out = String::new();
    for cell in cells(scenario, run) {
        if cell.markdown {
            out.push_str("# %% [markdown]\n");
            for line in cell.source.lines() {
                out.push_str(if line.is_empty() { "#" } else { "# " });
                out.push_str(line);
                out.push('\n');
            }
        } else {
            out.push_str("# %%\n");
            out.push_str(&cell.source);
            out.push('\n');
        }
        out.push('\n');
    }
    out.pop();
    out
}
