//! A scenario's prompt templates as the editor offers them: which texts its calls send, each one's
//! text and the seed's, and what setting one does. The page's editor draws them (`app::templates`,
//! in the tools chunk, fetched when a list of templates is first opened).

use serde::Serialize;

use super::{Opening, PromptKind, Prompts, Scenario};

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
        "language" => PromptKind::Language,
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
            list.push((
                "prompts.conversation_description",
                crate::i18n::t(crate::i18n::say::TlConversationDescription),
            ));
        }
        if shared {
            list.extend([
                ("prompts.header", crate::i18n::t(crate::i18n::say::TlAgentHeader)),
                ("prompts.system", crate::i18n::t(crate::i18n::say::TlAgentSystem)),
                ("prompts.history_header", crate::i18n::t(crate::i18n::say::TlHistoryHeader)),
            ]);
        }
        list.extend([
            ("opening.specifier_system", crate::i18n::t(crate::i18n::say::TlSpecifierSystem)),
            ("opening.specifier_prompt", crate::i18n::t(crate::i18n::say::TlSpecifierPrompt)),
            ("opening.describer_system", crate::i18n::t(crate::i18n::say::TlDescriberSystem)),
            ("opening.describer_prompt", crate::i18n::t(crate::i18n::say::TlDescriberPrompt)),
        ]);
        list.extend(self.method.templates());
        list.extend([
            ("judge.template", crate::i18n::t(crate::i18n::say::TlJudgePrompt)),
            ("judge.pairwise_template", crate::i18n::t(crate::i18n::say::TlJudgePairwise)),
            ("judge.speech_template", crate::i18n::t(crate::i18n::say::TlJudgeSpeech)),
        ]);
        if !self.language.trim().is_empty() {
            list.push(("prompts.language", crate::i18n::t(crate::i18n::say::TlLanguageLine)));
        }
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
            ("prompts", "language") => self.prompts.language = own,
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

    /// The templates the editor lists under `part`, each with its text and the seed's (the
    /// judge's part lists none: it holds who judges and the rubric, [`crate::judge::rubric::JudgeSettings`]).
    pub fn template_rows(&self, part: TemplatePart) -> Vec<TemplateRow> {
        self.templates()
            .into_iter()
            .filter(|(field, _)| part.holds(field))
            .filter_map(|(field, label)| {
                let (text, seed) = self.template(field)?;
                Some(TemplateRow { field, label, text, seed })
            })
            .collect()
    }

    /// Puts the seed's text back in the template at `field`.
    pub fn reset_template(&mut self, field: &str) {
        if let Some((_, seed)) = self.template(field) {
            self.set_template(field, seed);
        }
    }

    /// Changes the judge's settings as written (problems and all: the editor shows them), or says
    /// why they cannot be read and leaves them.
    pub fn edit_judge(
        &mut self,
        edit: impl FnOnce(&mut crate::judge::rubric::JudgeSettings),
    ) -> Result<(), String> {
        let mut settings = self.judge.read()?;
        edit(&mut settings);
        self.judge = crate::judge::rubric::JudgeSpec::of(&settings);
        Ok(())
    }
}

/// A part of the editor that lists prompt templates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TemplatePart {
    /// The topic specifier's, while that opening step is on.
    Specifier,
    /// The character describer's, likewise.
    Describer,
    /// Every other template: the shared ones, the method's and the judge's prompts.
    Method,
    /// Who judges and the rubric.
    Judge,
}

impl TemplatePart {
    /// Its name in the page's test ids (`templates-method`).
    pub fn name(self) -> &'static str {
        match self {
            TemplatePart::Specifier => "specifier",
            TemplatePart::Describer => "describer",
            TemplatePart::Method => "method",
            TemplatePart::Judge => "judge",
        }
    }

    fn holds(self, field: &str) -> bool {
        match self {
            TemplatePart::Specifier => field.starts_with("opening.specifier"),
            TemplatePart::Describer => field.starts_with("opening.describer"),
            TemplatePart::Method => !field.starts_with("opening."),
            TemplatePart::Judge => false,
        }
    }
}

/// One template as the editor shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TemplateRow {
    /// Where it is set (`method.prompt`, `opening.specifier_system`).
    pub field: &'static str,
    pub label: &'static str,
    pub text: String,
    /// The seed's text, which "Back to the default text" puts back.
    pub seed: String,
}

impl TemplateRow {
    /// Whether it holds the seed's text (nothing to put back).
    pub fn is_seed(&self) -> bool {
        self.text == self.seed
    }
}
