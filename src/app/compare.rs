//! "Compare side by side" on the app's page: what the columns differ in, and the comparison
//! ([`super::comparison`], a chunk of the page fetched when one first opens) across the run area
//! while one is open, named by a fragment (`cmp=...`, the same packing as a share link, `past=ID`,
//! or `new=...`).

use crate::i18n::{say, t, tf};
use crate::scenario::MethodKind;
use leptos::prelude::*;

/// What names the comparison open (see [`super::comparison`]'s `requested`), while one is.
#[derive(Clone, Copy, Default)]
pub struct CompareState {
    pub frame: RwSignal<Option<String>>,
}

impl CompareState {
    /// Shows the comparison a fragment names: `cmp=1.DATA` (a comparison file, as a link
    /// carries it), or `new=VARY&VALUES&s=1.DATA` (a new comparison of a scenario).
    pub fn open_fragment(&self, fragment: &str) {
        // Another comparison replaces the one kept until now: a reload must not bring that back.
        super::storage::show_comparison(true, fragment != "open");
        // Set even when it is the same: the comparison is drawn afresh.
        self.frame.set(Some(fragment.to_string()));
    }

    /// Shows a comparison file's text (opened from disk).
    pub fn open_file(&self, text: &str) {
        self.open_fragment(&format!("cmp=1.{}", crate::link::pack_with(text, 1)));
    }

    /// Shows a comparison kept in the past runs.
    pub fn open_past(&self, id: &str) {
        self.open_fragment(&format!("past={id}"));
    }
}

/// What a comparison's columns differ in, as the panel offers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Vary {
    Method,
    Seed,
    Model,
    Setting,
}

impl Vary {
    const ALL: [Vary; 4] = [Vary::Method, Vary::Seed, Vary::Model, Vary::Setting];

    /// Its name in a comparison's fragment (`new=method&...`) and the list's value.
    fn id(self) -> &'static str {
        match self {
            Vary::Method => "method",
            Vary::Seed => "seed",
            Vary::Model => "model",
            Vary::Setting => "setting",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Vary::Method => t(say::VaryMethod),
            Vary::Seed => t(say::VarySeed),
            Vary::Model => t(say::VaryModel),
            Vary::Setting => t(say::VarySetting),
        }
    }

    fn from_id(id: &str) -> Vary {
        Vary::ALL.into_iter().find(|v| v.id() == id).unwrap_or(Vary::Method)
    }
}

/// The methods a comparison may set side by side, in the columns' order (the trading game has
/// its own cast and is not among them), and whether each is ticked at first.
const METHODS: [(MethodKind, bool); 6] = [
    (MethodKind::Bidding, true),
    (MethodKind::Director, true),
    (MethodKind::Handoff, false),
    (MethodKind::Selector, false),
    (MethodKind::RoundRobin, false),
    (MethodKind::Random, false),
];

/// What a new comparison's columns differ in and their values, as its fragment names them
/// (`new=VARY&VALUES&...`): the `ticked` methods, or the `values` (of the setting `setting`).
fn columns(vary: Vary, ticked: &[bool], setting: &str, values: &str) -> (String, String) {
    let (vary, values) = match vary {
        Vary::Method => {
            let picked: Vec<&str> =
                METHODS.iter().zip(ticked).filter(|(_, t)| **t).map(|((kind, _), _)| kind.id()).collect();
            ("method".to_string(), picked.join(", "))
        }
        Vary::Setting => (setting.to_string(), values.to_string()),
        other => (other.id().to_string(), values.to_string()),
    };
    (vary, values)
}

/// What the columns differ in, Compare, and the comparison once open.
#[component]
pub fn ComparePanel() -> impl IntoView {
    let page = expect_context::<super::Controller>();
    let editor = expect_context::<crate::ui::form::EditorState>();
    let state = page.compare;
    let vary = RwSignal::new(Vary::Method);
    let ticked: [RwSignal<bool>; 6] = METHODS.map(|(_, on)| RwSignal::new(on));
    let setting = RwSignal::new(String::new());
    let values = RwSignal::new(String::new());
    let open = move |_| {
        let scenario = crate::link::scenario_fragment(&editor.scenario.get_untracked());
        let ticked = ticked.map(|t| t.get_untracked());
        let (vary, values) =
            columns(vary.get_untracked(), &ticked, &setting.get_untracked(), &values.get_untracked());
        let what = |text: &str| String::from(js_sys::encode_uri_component(text));
        state.open_fragment(&format!("new={}&{}&{scenario}", what(&vary), what(&values)));
    };
    let close = move |_| {
        // Before the comparison goes: what it saves as it closes is not kept.
        super::storage::show_comparison(false, false);
        state.frame.set(None);
        // The comparison may have added itself to the past runs.
        if let Ok(list) = super::storage::history() {
            page.history.set(list);
        }
    };
    let options =
        Vary::ALL.map(|v| view! { <option value=v.id() selected=v == Vary::Method>{v.label()}</option> });
    let methods = METHODS
        .iter()
        .zip(ticked)
        .map(|((kind, _), on)| {
            let id = kind.id();
            view! {
                <label class="check">
                    <input type="checkbox" value=id data-testid=format!("compare-method-{id}") prop:checked=on
                        on:change=move |ev| on.set(event_target_checked(&ev)) />
                    " " {kind.words()}
                </label>
            }
        })
        .collect_view();
    view! {
        <section class="panel compare" data-testid="compare" aria-label=t(say::CompareTitle)>
            <h2>{t(say::CompareTitle)}</h2>
            <p class="row">
                <label>{t(say::CompareVary)}
                    <select data-testid="compare-vary" on:change=move |ev| vary.set(Vary::from_id(&event_target_value(&ev)))>
                        {options}
                    </select>
                </label>
                " "
                <label class="vary-setting" hidden=move || vary.get() != Vary::Setting>{t(say::CompareSetting)}
                    <input data-testid="compare-setting" placeholder="max_turns" prop:value=setting
                        title=t(say::CompareSettingTitle)
                        on:input=move |ev| setting.set(event_target_value(&ev)) />
                </label>
                " "
                <button data-testid="compare-open" on:click=open>{t(say::CompareOpen)}</button>
                " "
                {move || state.frame.with(Option::is_some).then(|| view! {
                    <button data-testid="compare-close" on:click=close>{t(say::CompareClose)}</button>
                })}
            </p>
            <fieldset class="vary-method row" hidden=move || vary.get() != Vary::Method>
                <legend>{t(say::CompareMethods)}</legend>
                {methods}
            </fieldset>
            <div hidden=move || vary.get() == Vary::Method>
                <p class="row vary-values">
                    <label>{t(say::CompareValues)}
                        <input data-testid="compare-values" placeholder="3, 8" prop:value=values
                            on:input=move |ev| values.set(event_target_value(&ev)) />
                    </label>
                </p>
                <p class="muted vary-values">
                    {t(say::CompareValuesHint)}
                </p>
            </div>
            {move || state.frame.get().map(|fragment| view! {
                <div class="comparison-frame" data-testid="compare-frame" role="region" aria-label=t(say::CompareFrame) tabindex="0">
                    {comparison(fragment)}
                </div>
            })}
        </section>
    }
}

/// The comparison `fragment` names, once the `compare` chunk has arrived (fetched the first time);
/// what stops it said in its place.
fn comparison(fragment: String) -> impl IntoView {
    let slot: super::Slot = RwSignal::new_local(None);
    let failed = RwSignal::new(None::<String>);
    if let Some(owner) = Owner::current() {
        leptos::task::spawn_local(async move {
            // The tab may have closed meanwhile: then there is nowhere to draw it.
            match super::comparison::comparison_view(owner, fragment).await {
                Ok(view) => drop(slot.try_set(Some(view))),
                Err(e) => drop(failed.try_set(Some(e.to_string()))),
            }
        });
    }
    view! {
        {super::place(slot)}
        {move || failed.get().map(|why| view! {
            <p class="notice error" role="alert" data-testid="compare-error">{tf(say::CompareFailed, &[("why", &why)])}</p>
        })}
    }
}
