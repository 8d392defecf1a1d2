//! "Compare side by side" on the app's page: what the columns differ in, and the comparison
//! ([`super::comparison`], a chunk of the page fetched when one first opens) across the run area
//! while one is open, named by a fragment (`cmp=...`, the same packing as a share link, `past=ID`,
//! or `new=...`).

use leptos::prelude::*;

use crate::markup::Markup;
use crate::ui::MarkupAttribute;

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

/// The panel's controls, drawn once as text: nothing in them changes (Close shows while a
/// comparison is open, and each kind of column offers its own values, by the stylesheet), and the
/// inputs are read when a button is pressed. The methods are the registry's, by their names
/// (`MethodKind::label`; the trading game has its own cast and is not among them).
const CONTROLS: &str = r#"<p class="row"><label>Columns differ in <select data-testid="compare-vary" name="compare-vary"><option value="method">the method</option><option value="seed">the seed</option><option value="model">the model</option><option value="setting">a setting</option></select></label> <label class="vary-setting">Setting <input data-testid="compare-setting" name="compare-setting" placeholder="max_turns" title="Its path in the scenario file: max_turns, word_limit, method.stop_probability"></label> <button data-testid="compare-open" data-act="open">Compare</button> <button class="when-open" data-testid="compare-close" data-act="close">Close the comparison</button></p><fieldset class="vary-method row"><legend>Two to four methods</legend><label class="check"><input type="checkbox" name="compare-method" value="bidding" data-testid="compare-method-bidding" checked> Bidding</label><label class="check"><input type="checkbox" name="compare-method" value="director" data-testid="compare-method-director" checked> Director</label><label class="check"><input type="checkbox" name="compare-method" value="handoff" data-testid="compare-method-handoff"> Handoff</label><label class="check"><input type="checkbox" name="compare-method" value="selector" data-testid="compare-method-selector"> Selector</label><label class="check"><input type="checkbox" name="compare-method" value="round_robin" data-testid="compare-method-round_robin"> Round robin</label><label class="check"><input type="checkbox" name="compare-method" value="random" data-testid="compare-method-random"> Random</label></fieldset><p class="row vary-values"><label>Values <input data-testid="compare-values" name="compare-values" placeholder="3, 8"></label></p><p class="muted vary-values">Two to four, with commas: seeds (3, 8), models (demo, or a provider and its model: openai/gpt-4o-mini, browser/&lt;model&gt; for the model in the tab), or the setting's values (4, 8).</p>"#;

/// What the columns differ in, Compare, and the comparison once open.
#[component]
pub fn ComparePanel() -> impl IntoView {
    let page = expect_context::<super::Controller>();
    let editor = expect_context::<crate::ui::form::EditorState>();
    let state = page.compare;
    let act = move |ev: leptos::ev::MouseEvent| {
        use wasm_bindgen::JsCast;
        let Some(button) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
        let panel = button.closest(".compare").ok().flatten();
        let input = |selector: &str| {
            let found = panel.as_ref().and_then(|p| p.query_selector(selector).ok().flatten());
            found
                .and_then(|n| js_sys::Reflect::get(&n, &"value".into()).ok()?.as_string())
                .unwrap_or_default()
        };
        match button.get_attribute("data-act").as_deref() {
            Some("open") => {
                let scenario = crate::link::scenario_fragment(&editor.scenario.get_untracked());
                let (vary, values) = match input("[name=compare-vary]").as_str() {
                    "method" => {
                        // In the order the panel lists them, which is the columns' order.
                        let ids = ["bidding", "director", "handoff", "selector", "round_robin", "random"]
                            .into_iter();
                        let picked: Vec<_> =
                            ids.filter(|id| !input(&format!("[value={id}]:checked")).is_empty()).collect();
                        ("method".to_string(), picked.join(", "))
                    }
                    "setting" => (input("[name=compare-setting]"), input("[name=compare-values]")),
                    other => (other.to_string(), input("[name=compare-values]")),
                };
                let what = |text: String| String::from(js_sys::encode_uri_component(&text));
                state.open_fragment(&format!("new={}&{}&{scenario}", what(vary), what(values)));
            }
            Some("close") => {
                // Before the frame goes: what it saves as it closes is not kept.
                super::storage::show_comparison(false, false);
                state.frame.set(None);
                // The comparison page may have added the comparison to the past runs.
                if let Ok(list) = super::storage::history() {
                    page.history.set(list);
                }
            }
            _ => {}
        }
    };
    view! {
        <section class="panel compare" data-testid="compare" aria-label="Compare side by side">
            <h2>"Compare side by side"</h2>
            <div on:click=act markup=Markup::from_static(CONTROLS)></div>
            {move || state.frame.get().map(|fragment| view! {
                <div class="comparison-frame" data-testid="compare-frame" role="region" aria-label="Comparison" tabindex="0">
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
            <p class="notice error" role="alert" data-testid="compare-error">{format!("The comparison could not be opened: {why}")}</p>
        })}
    }
}
