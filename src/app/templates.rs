//! The editor's advanced lists, drawn in the tools chunk (fetched when one is first opened, see
//! [`super::tools::template_view`]): a part's prompt templates, each with "Back to the default
//! text", and the judge's settings (who judges, and each rubric's dimensions). Every box writes
//! the scenario through the core's own edits ([`Scenario::set_template`],
//! [`Scenario::edit_judge`]), so a file, a link and the editor change a scenario alike.

use crate::i18n::{say, t, tf};
use leptos::prelude::*;

use crate::judge::rubric::{DimensionPart, Rubric, WhoPart};
use crate::judge::{JudgeSettings, JudgeSpec};
use crate::scenario::{Scenario, TemplatePart};

/// The rows of `part` for the scenario `s` holds.
pub fn rows(s: RwSignal<Scenario>, part: TemplatePart) -> AnyView {
    match part {
        TemplatePart::Judge => view! { <JudgeEditor s=s /> }.into_any(),
        _ => view! { <TemplateRows s=s part=part /> }.into_any(),
    }
}

/// A text box per template; a box follows the scenario (a preset, "Back to the default text"),
/// and the list is drawn again only when its templates change (a method, an opening step), so
/// the box being typed in keeps its caret.
#[component]
fn TemplateRows(s: RwSignal<Scenario>, part: TemplatePart) -> impl IntoView {
    let listed = Memo::new(move |_| {
        s.with(|s| s.template_rows(part).into_iter().map(|r| (r.field, r.label)).collect::<Vec<_>>())
    });
    move || {
        listed
            .get()
            .into_iter()
            .map(|(field, label)| {
                let texts = Memo::new(move |_| s.with(|s| s.template(field)).unwrap_or_default());
                view! {
                    <div class="template">
                        <label class="field">
                            <span>{label}</span>
                            <textarea
                                data-testid=format!("field-{field}")
                                rows="3"
                                prop:value=move || texts.with(|(text, _)| text.clone())
                                on:input=move |ev| {
                                    let text = event_target_value(&ev);
                                    s.update(|s| s.set_template(field, text));
                                }
                            ></textarea>
                        </label>
                        <button
                            data-testid=format!("seed-{field}")
                            disabled=move || texts.with(|(text, seed)| text == seed)
                            on:click=move |_| s.update(|s| s.reset_template(field))
                        >
                            {t(say::TplBackToDefault)}
                        </button>
                    </div>
                }
            })
            .collect_view()
    }
}

/// Who judges, whether each speech is scored as it lands, and both rubrics. The boxes trim what
/// they hold as they write it, so they are not redrawn from the scenario while typed in: only
/// when a dimension is added or removed, or the settings change from elsewhere.
#[component]
fn JudgeEditor(s: RwSignal<Scenario>) -> impl IntoView {
    // The settings the boxes last wrote: a change to them is the boxes' own.
    let written = StoredValue::new(None::<JudgeSpec>);
    let seen = StoredValue::new(None::<JudgeSpec>);
    let drawn = Memo::new(move |before: Option<&u32>| {
        let now = s.with(|s| s.judge.clone());
        let before = before.copied().unwrap_or(0);
        let same = seen.with_value(|seen| seen.as_ref() == Some(&now));
        let own = written.with_value(|w| w.as_ref() == Some(&now));
        seen.set_value(Some(now));
        if same || own {
            before
        } else {
            before + 1
        }
    });
    let problems = Memo::new(move |_| s.with(|s| s.judge.read().map(|j| j.problems()).unwrap_or_default()));
    view! {
        {move || {
            problems
                .get()
                .into_iter()
                .map(|(field, message)| view! { <p class="notice error" role="alert">{format!("{field}: {message}")}</p> })
                .collect_view()
        }}
        {move || {
            // Read, not only tracked: a memo runs (and follows the scenario) once it is read.
            let _ = drawn.get();
            match s.with_untracked(|s| s.judge.read()) {
                Ok(settings) => settings_view(s, written, &settings).into_any(),
                Err(e) => view! {
                    <p class="notice error" role="alert">
                        {tf(say::TplJudgeUnreadable, &[("why", &e)])}
                    </p>
                }
                .into_any(),
            }
        }}
    }
}

/// Changes the judge's settings; `own` edits (a box typed in) leave the boxes as they are.
fn edit(
    s: RwSignal<Scenario>,
    written: StoredValue<Option<JudgeSpec>>,
    own: bool,
    change: impl FnOnce(&mut JudgeSettings),
) {
    s.update(|s| {
        if s.edit_judge(change).is_ok() {
            written.set_value(own.then(|| s.judge.clone()));
        }
    });
}

fn settings_view(
    s: RwSignal<Scenario>,
    written: StoredValue<Option<JudgeSpec>>,
    settings: &JudgeSettings,
) -> impl IntoView {
    let who = |part: WhoPart, key: &'static str, label: &'static str, hint: &'static str| {
        view! {
            <label class="field">
                <span>{label}</span>
                <input
                    data-testid=format!("field-judge.{key}")
                    data-key=key
                    placeholder=hint
                    prop:value=settings.who_part(part).to_string()
                    on:input=move |ev| {
                        let text = event_target_value(&ev);
                        edit(s, written, true, |j| j.set_who(part, &text));
                    }
                />
            </label>
        }
    };
    let rubrics = Rubric::BOTH.map(|rubric| {
        let rows = settings
            .rubric(rubric)
            .iter()
            .enumerate()
            .map(|(i, d)| dimension_view(s, written, rubric, i, d))
            .collect_view();
        view! {
            <h4>{rubric.title()}</h4>
            {rows}
            <button
                data-testid=format!("add-{}", rubric.field())
                on:click=move |_| edit(s, written, false, |j| j.add_dimension(rubric))
            >
                {t(say::TplAddDimension)}
            </button>
        }
    });
    view! {
        <div class="judge-settings" data-testid="judge-settings">
            <p class="row">
                {who(WhoPart::Provider, "provider", t(say::TplJudgeProvider), t(say::TplRunsOwn))}
                {who(WhoPart::Model, "model", t(say::TplJudgeModel), t(say::TplRunsOwn))}
                {who(WhoPart::BaseUrl, "base_url", t(say::TplJudgeAddress), t(say::TplProvidersOwn))}
            </p>
            <label class="check">
                <input
                    type="checkbox"
                    data-key="live"
                    data-testid="field-judge.live"
                    prop:checked=settings.live
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        edit(s, written, true, |j| j.live = on);
                    }
                />
                {t(say::TlLiveScoring)}
            </label>
            {rubrics}
        </div>
    }
}

fn dimension_view(
    s: RwSignal<Scenario>,
    written: StoredValue<Option<JudgeSpec>>,
    rubric: Rubric,
    index: usize,
    d: &crate::judge::Dimension,
) -> impl IntoView {
    let set = move |part: DimensionPart| {
        move |ev: leptos::ev::Event| {
            let text = event_target_value(&ev);
            edit(s, written, true, |j| {
                if let Some(d) = j.rubric_mut(rubric).get_mut(index) {
                    d.set(part, &text);
                }
            });
        }
    };
    view! {
        <div class="dimension row" data-testid=format!("dimension-{}-{index}", rubric.field())>
            <label class="field">
                <span>{t(say::EdName)}</span>
                <input data-key="name" prop:value=d.name.clone() on:input=set(DimensionPart::Name) />
            </label>
            <label class="field scale">
                <span>{t(say::TplLeast)}</span>
                <input type="number" data-key="min" prop:value=d.min.to_string() on:input=set(DimensionPart::Min) />
            </label>
            <label class="field scale">
                <span>{t(say::TplMost)}</span>
                <input type="number" data-key="max" prop:value=d.max.to_string() on:input=set(DimensionPart::Max) />
            </label>
            <button on:click=move |_| edit(s, written, false, |j| j.remove_dimension(rubric, index))>{t(say::EdRemove)}</button>
            <label class="field wide">
                <span>{t(say::TplJudgeReads)}</span>
                <textarea
                    data-key="description"
                    rows="2"
                    prop:value=d.description.clone()
                    on:input=set(DimensionPart::Description)
                ></textarea>
            </label>
        </div>
    }
}
