//! A scenario's prompt templates as the editor offers them: which texts its calls send, each one's
//! text and the seed's, setting one, and the editor's rows for them as HTML. The rows are drawn
//! by the page's tools module (`src/bin/agora-tools.rs`), fetched when a list of templates is
//! first opened, so none of this is on the first page.

use serde::Serialize;

use super::{Opening, PromptKind, Prompts, Scenario};
use crate::markup;
use crate::markup::Markup;

/// `value` as a JSON value, through the text writer the scenario's files and links use (serde's
/// value serializer would be one more copy of every settings writer on the first page).
fn json_value(value: &impl Serialize) -> Result<serde_json::Value, serde_json::Error> {
    serde_json::from_str(&serde_json::to_string(value)?)
}

/// The string field `name` of `value`'s JSON form.
fn string_field(value: &impl Serialize, name: &str) -> Option<String> {
    json_value(value).ok()?.get(name)?.as_str().map(String::from)
}

/// The shared template a `prompts.<name>` field names.
fn prompt_kind(name: &str) -> Option<PromptKind> {
    Some(match name {
        "conversation_description" => PromptKind::ConversationDescription,
        "header" => PromptKind::Header,
        "system" => PromptKind::System,
        "history_header" => PromptKind::HistoryHeader,
        _ => return None,
    })
}

impl Scenario {
    /// Every prompt template this scenario's calls may send, as (field, name on screen): the
    /// shared ones its method reads (the conversation description also when an opening step
    /// reads it), the opening steps', then its method's.
    pub fn templates(&self) -> Vec<(&'static str, &'static str)> {
        let shared = self.method.kind().shared_templates();
        let opening_reads = self.opening.specify_topic || self.opening.describe_characters;
        let mut list = Vec::new();
        if shared || opening_reads {
            list.push(("prompts.conversation_description", "Conversation description"));
        }
        if shared {
            list.extend([
                ("prompts.header", "Agent header"),
                ("prompts.system", "Agent system message"),
                ("prompts.history_header", "History header"),
            ]);
        }
        list.extend([
            ("opening.specifier_system", "Topic specifier's system message"),
            ("opening.specifier_prompt", "Topic specifier's prompt"),
            ("opening.describer_system", "Character describer's system message"),
            ("opening.describer_prompt", "Character describer's prompt"),
        ]);
        list.extend(self.method.templates());
        list.extend([
            ("judge.template", "Judge's prompt"),
            ("judge.pairwise_template", "Judge's prompt comparing two conversations"),
            ("judge.speech_template", "Judge's prompt scoring one speech as it lands"),
        ]);
        list
    }

    /// The text of the template at `field` and the seed's text of it (what "back to the seed's
    /// text" puts back, byte for byte), when this scenario has one there.
    pub fn template(&self, field: &str) -> Option<(String, String)> {
        let (part, name) = field.split_once('.')?;
        match part {
            "prompts" => {
                let kind = prompt_kind(name)?;
                let seed = Scenario { prompts: Prompts::default(), ..self.clone() };
                Some((self.prompt(kind).to_string(), seed.prompt(kind).to_string()))
            }
            "opening" => Some((string_field(&self.opening, name)?, string_field(&Opening::default(), name)?)),
            "method" => Some((
                string_field(&self.method, name)?,
                string_field(&self.method.kind().default_method(), name)?,
            )),
            "judge" => {
                // Settings that do not read show the seed's text, and are not changed here.
                let settings = self.judge.settings().unwrap_or_default();
                let (own, seed) = match name {
                    "template" => (settings.template, crate::judge::rubric::JUDGE_PROMPT),
                    "pairwise_template" => {
                        (settings.pairwise_template, crate::judge::rubric::PAIRWISE_PROMPT)
                    }
                    "speech_template" => (settings.speech_template, crate::judge::rubric::SPEECH_PROMPT),
                    _ => return None,
                };
                Some((own.unwrap_or_else(|| seed.to_string()), seed.to_string()))
            }
            _ => None,
        }
    }

    /// Sets the template at `field` (nothing, when this scenario has none there). A shared
    /// template set to the seed's text is the seed's again: absent from the scenario's file.
    pub fn set_template(&mut self, field: &str, text: String) {
        let Some((_, seed)) = self.template(field) else { return };
        let (part, name) = field.split_once('.').unwrap_or_default();
        let own = (text != seed).then_some(text.clone());
        match (part, name) {
            ("prompts", "conversation_description") => self.prompts.conversation_description = own,
            ("prompts", "header") => self.prompts.header = own,
            ("prompts", "system") => self.prompts.system = own,
            ("prompts", "history_header") => self.prompts.history_header = own,
            ("opening", "specifier_system") => self.opening.specifier_system = text,
            ("opening", "specifier_prompt") => self.opening.specifier_prompt = text,
            ("opening", "describer_system") => self.opening.describer_system = text,
            ("opening", "describer_prompt") => self.opening.describer_prompt = text,
            ("judge", _) => {
                let Ok(mut settings) = self.judge.settings() else { return };
                match name {
                    "template" => settings.template = own,
                    "speech_template" => settings.speech_template = own,
                    _ => settings.pairwise_template = own,
                }
                self.judge = crate::judge::rubric::JudgeSpec::of(&settings);
            }
            _ => {
                // A method's string setting, written through its JSON form and read back.
                let Ok(mut value) = json_value(&self.method) else { return };
                value[name] = serde_json::Value::String(text);
                if let Ok(method) = serde_json::from_str(&value.to_string()) {
                    self.method = method;
                }
            }
        }
    }

    /// The editor's rows for the templates of one part of the editor (`part`: "specifier" and
    /// "describer", an opening step's own; "method", the rest), as HTML: a text box per template
    /// (`data-field` names it) and a "Back to the default text" button holding the seed's text
    /// (`data-seed`), disabled while the text is the seed's.
    pub fn templates_html(&self, part: &str) -> Markup {
        if part == "judge" {
            return match self.judge.read() {
                Ok(settings) => {
                    let mut html = Markup::new();
                    for (field, message) in settings.problems() {
                        html.push(crate::text::alert_html(&format!("{field}: {message}")));
                    }
                    html.push(settings.editor_html());
                    html
                }
                Err(e) => crate::text::alert_html(&format!(
                    "The judge's settings cannot be read ({e}): fix them in the scenario's file."
                )),
            };
        }
        let picked = |field: &str| match part {
            "specifier" => field.starts_with("opening.specifier"),
            "describer" => field.starts_with("opening.describer"),
            _ => !field.starts_with("opening."),
        };
        let mut html = Markup::new();
        for (field, label) in self.templates() {
            let Some((text, seed)) = self.template(field).filter(|_| picked(field)) else { continue };
            let disabled = if text == seed { Markup::from_static(" disabled") } else { Markup::new() };
            // The HTML parser drops one newline right after <textarea>: the one written here, so
            // a template that starts with a newline keeps it.
            html.push(markup!(
                "<div class=\"template\"><label class=\"field\"><span>{}</span><textarea data-testid=\"field-{}\" data-field=\"{}\" rows=\"3\">\n{}</textarea></label><button data-testid=\"seed-{}\" data-field=\"{}\" data-seed=\"{}\"{}>Back to the default text</button></div>",
                label,
                field,
                field,
                text,
                field,
                field,
                seed,
                disabled,
            ));
        }
        html
    }
}
