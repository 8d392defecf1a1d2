//! The editor's form kit: the scenario being edited, and the text, number and choice inputs bound
//! to it with their error lines. The scenario editor and the model settings both build on it.

use std::collections::BTreeMap;
use std::sync::Arc;

use leptos::prelude::*;

use crate::scenario::{FieldError, Scenario};

/// The scenario being edited, and inputs that could not be read (a word in a number field).
#[derive(Clone, Copy)]
pub struct EditorState {
    pub scenario: RwSignal<Scenario>,
    input_errors: RwSignal<BTreeMap<String, String>>,
    validation: Memo<Vec<FieldError>>,
}

impl EditorState {
    pub fn new(scenario: RwSignal<Scenario>) -> Self {
        let validation = Memo::new(move |_| scenario.with(|s| s.validate().err().unwrap_or_default()));
        Self { scenario, input_errors: RwSignal::new(BTreeMap::new()), validation }
    }

    pub fn has_errors(&self) -> bool {
        !self.validation.with(Vec::is_empty) || !self.input_errors.with(BTreeMap::is_empty)
    }

    /// The message to show next to `field`, if any.
    pub fn error_for(&self, field: &str) -> Option<String> {
        if let Some(e) = self.input_errors.with(|m| m.get(field).cloned()) {
            return Some(e);
        }
        self.validation.with(|errors| {
            let messages: Vec<&str> =
                errors.iter().filter(|e| e.field == field).map(|e| e.message.as_str()).collect();
            (!messages.is_empty()).then(|| messages.join("; "))
        })
    }

    pub fn set_input_error(&self, field: &str, error: Option<String>) {
        self.input_errors.update(|m| match error {
            Some(e) => {
                m.insert(field.to_string(), e);
            }
            None => {
                m.remove(field);
            }
        });
    }

    /// Replaces the whole scenario (a preset was opened).
    pub fn load(&self, scenario: Scenario) {
        self.input_errors.set(BTreeMap::new());
        self.scenario.set(scenario);
    }
}

/// The error line under a field.
#[component]
pub fn FieldMessage(#[prop(into)] field: String) -> impl IntoView {
    let editor = expect_context::<EditorState>();
    let id = format!("error-{field}");
    let f = field.clone();
    move || {
        editor.error_for(&f).map(|message| {
            view! {
                <p class="field-error" data-testid=id.clone() role="alert">
                    {message}
                </p>
            }
        })
    }
}

/// A text input bound to the scenario.
pub fn text_field(
    label: &'static str,
    field: &'static str,
    get: impl Fn(&Scenario) -> String + Send + Sync + 'static,
    set: impl Fn(&mut Scenario, String) + Send + Sync + 'static,
    multiline: bool,
) -> AnyView {
    // One copy of the field's view code serves every text field: each distinct closure type
    // would otherwise get its own, and the editor has many fields.
    text_field_inner(label, field, Arc::new(get), Arc::new(set), multiline)
}

type Getter<T> = Arc<dyn Fn(&Scenario) -> T + Send + Sync>;
type Setter<T> = Arc<dyn Fn(&mut Scenario, T) + Send + Sync>;
/// Reads a number from text into the scenario; false when the text is not a number.
type Parser = Arc<dyn Fn(&mut Scenario, &str) -> bool + Send + Sync>;

fn text_field_inner(
    label: &'static str,
    field: &'static str,
    get: Getter<String>,
    set: Setter<String>,
    multiline: bool,
) -> AnyView {
    let editor = expect_context::<EditorState>();
    let value = move || editor.scenario.with(|s| get(s));
    let on_input = move |ev: leptos::ev::Event| {
        let text = event_target_value(&ev);
        editor.scenario.update(|s| set(s, text));
    };
    let invalid = move || editor.error_for(field).is_some();
    let input = if multiline {
        view! {
            <textarea
                data-testid=format!("field-{field}")
                rows="3"
                prop:value=value
                aria-invalid=move || invalid().to_string()
                on:input=on_input
            ></textarea>
        }
        .into_any()
    } else {
        view! {
            <input
                data-testid=format!("field-{field}")
                type="text"
                prop:value=value
                aria-invalid=move || invalid().to_string()
                on:input=on_input
            />
        }
        .into_any()
    };
    view! {
        <label class="field">
            <span>{label}</span>
            {input}
            <FieldMessage field=field />
        </label>
    }
    .into_any()
}

/// A number input bound to the scenario; text that is not a number is reported, not applied.
pub fn number_field<T>(
    label: &'static str,
    field: &'static str,
    get: impl Fn(&Scenario) -> T + Send + Sync + 'static,
    set: impl Fn(&mut Scenario, T) + Send + Sync + 'static,
) -> AnyView
where
    T: NumberText + 'static,
{
    let text: Getter<String> = Arc::new(move |s| get(s).text());
    let apply: Parser = Arc::new(move |s, t| match T::read(t) {
        Some(n) => {
            set(s, n);
            true
        }
        None => false,
    });
    number_field_inner(label, field, text, apply)
}

// Not generic over the number type: one copy of the field for every kind of number.
fn number_field_inner(
    label: &'static str,
    field: &'static str,
    text: Getter<String>,
    apply: Parser,
) -> AnyView {
    let editor = expect_context::<EditorState>();
    let value = move || editor.scenario.with(|s| text(s));
    let on_input = move |ev: leptos::ev::Event| {
        let text = event_target_value(&ev);
        // `apply` changes the scenario only when the text is a number, so subscribers hear of it
        // only then (and the scenario is not copied on every keystroke).
        if editor.scenario.try_update_untracked(|s| apply(s, text.trim())) == Some(true) {
            editor.set_input_error(field, None);
            editor.scenario.notify();
        } else {
            editor.set_input_error(
                field,
                Some(crate::i18n::tf(crate::i18n::say::VNotNumber, &[("text", &text.trim())])),
            )
        }
    };
    view! {
        <label class="field number">
            <span>{label}</span>
            <input
                data-testid=format!("field-{field}")
                type="text"
                inputmode="decimal"
                prop:value=value
                aria-invalid=move || editor.error_for(field).is_some().to_string()
                on:input=on_input
            />
            <FieldMessage field=field />
        </label>
    }
    .into_any()
}

/// How a number field shows its value and reads it back. Floats are shown through `fixed` and
/// read by the browser, which spares the browser build the standard float formatting and parsing
/// code.
pub trait NumberText: Sized {
    fn text(&self) -> String;
    /// The number `text` (already trimmed) writes, if it is one.
    fn read(text: &str) -> Option<Self>;
}

macro_rules! integer_text {
    ($($t:ty),*) => {$(impl NumberText for $t {
        fn text(&self) -> String {
            self.to_string()
        }
        fn read(text: &str) -> Option<Self> {
            text.parse().ok()
        }
    })*};
}
integer_text!(u32, u64, i64);

impl NumberText for f64 {
    fn text(&self) -> String {
        let s = crate::text::fixed(*self, 6);
        let s = s.trim_end_matches('0');
        s.trim_end_matches('.').to_string()
    }
    /// Read by the browser's own `Number()`: Rust's float parser, with its table of powers of
    /// five, would add about 14 KB gzipped to the page.
    /// Only finite numbers count (`Number` reads "" as 0 and "Infinity" as a number).
    fn read(text: &str) -> Option<Self> {
        let n = js_sys::Number::from(wasm_bindgen::JsValue::from_str(text)).value_of();
        (!text.is_empty() && n.is_finite()).then_some(n)
    }
}

/// A checkbox bound to a flag of the scenario. It takes its whole test id (`field-method.…`):
/// built here with `format!`, the page came out 73 B larger gzipped.
pub fn check_field(
    label: &'static str,
    testid: &'static str,
    get: impl Fn(&Scenario) -> bool + Send + Sync + 'static,
    set: impl Fn(&mut Scenario, bool) + Send + Sync + 'static,
) -> AnyView {
    let s = expect_context::<EditorState>().scenario;
    view! {
        <label class="check">
            <input
                type="checkbox"
                data-testid=testid
                prop:checked=move || s.with(|s| get(s))
                on:change=move |ev| {
                    let on = event_target_checked(&ev);
                    s.update(|s| set(s, on))
                }
            />
            <span>{label}</span>
        </label>
    }
    .into_any()
}

/// A select bound to a setting with a few named values: each option is (its value in the page,
/// its label, the setting's value).
pub fn choice_field<T: Copy + PartialEq + Send + Sync + 'static>(
    label: &'static str,
    field: &'static str,
    options: &[(&'static str, &'static str, T)],
    get: impl Fn(&Scenario) -> T + Send + Sync + 'static,
    set: impl Fn(&mut Scenario, T) + Send + Sync + 'static,
) -> AnyView {
    let values: Arc<[T]> = options.iter().map(|o| o.2).collect();
    let index: Getter<usize> = {
        let values = values.clone();
        Arc::new(move |s| {
            let value = get(s);
            values.iter().position(|v| *v == value).unwrap_or(0)
        })
    };
    let pick: Setter<usize> = Arc::new(move |s, i| {
        if let Some(v) = values.get(i) {
            set(s, *v)
        }
    });
    let names: Vec<(&'static str, &'static str)> = options.iter().map(|o| (o.0, o.1)).collect();
    choice_field_inner(label, field, names, index, pick)
}

// Not generic over the setting's type: one copy of the select for every kind of choice.
fn choice_field_inner(
    label: &'static str,
    field: &'static str,
    names: Vec<(&'static str, &'static str)>,
    index: Getter<usize>,
    pick: Setter<usize>,
) -> AnyView {
    let editor = expect_context::<EditorState>();
    let s = editor.scenario;
    let options = names
        .iter()
        .enumerate()
        .map(|(i, (value, text))| {
            let index = index.clone();
            view! {
                <option value=*value selected=move || s.with(|s| index(s)) == i>
                    {*text}
                </option>
            }
        })
        .collect_view();
    let on_change = move |ev: leptos::ev::Event| {
        let value = event_target_value(&ev);
        if let Some(i) = names.iter().position(|n| n.0 == value) {
            s.update(|s| pick(s, i));
        }
    };
    view! {
        <label class="field">
            <span>{label}</span>
            <select data-testid=format!("field-{field}") on:change=on_change>
                {options}
            </select>
            <FieldMessage field=field />
        </label>
    }
    .into_any()
}
