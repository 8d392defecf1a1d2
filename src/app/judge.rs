//! "Judge this run": the judge named in the run's scenario reads the finished run on screen (a
//! live run, a replay or a run opened from a link) and its calls and verdict join the run's log
//! (`crate::judge`); the scorecard is drawn from the log by the tools module, so a replay, a
//! link or a reload shows the same verdict.

use leptos::prelude::*;

use super::driver::Controller;
use crate::events::Event;
use crate::judge::Judge;
use crate::markup::Markup;
use crate::ui::MarkupAttribute;

impl Controller {
    /// Asks the judge of the run's scenario about the finished run on screen. The judging itself
    /// (the prompt, the call with the key given here, the reading of the verdict, the demo judge)
    /// is the tools module's, so none of it is on the first page.
    pub fn judge(&self) {
        let events = match self.judgeable() {
            Ok(e) => e,
            Err(e) => return self.judging.set(e),
        };
        let Some(Event::RunStarted { scenario, .. }) = events.first() else { return };
        let who = scenario.judge.who();
        let judge = Judge::of(&who, scenario);
        let model = crate::judge::judge_scenario(scenario, &who).model;
        if !judge.is_demo() && model.is_in_tab() {
            return self.judging.set(
                "The model in the tab cannot judge: name a judge (a provider and model) in the scenario's judge settings."
                    .into(),
            );
        }
        let key = match judge_key(&self.keys, scenario) {
            Ok(k) => k,
            Err(e) => return self.judging.set(format!("The judge cannot be asked: {e}")),
        };
        self.judging.set(format!("Judging: {} reads the run…", judge.label));
        let run = crate::export::to_json_compact(scenario, &events);
        let this = *self;
        leptos::task::spawn_local(async move {
            match judged(run, key).await {
                Ok(added) => {
                    this.add_judged(added);
                    this.judging.set(String::new());
                }
                Err(e) => this.judging.set(format!("The judge could not be asked: {e}")),
            }
        });
    }
}

/// The key for the judge a run of `scenario` names: none for the demo judge, else the page's
/// key for the judge's address (asking first, as for a run, when it was entered for another).
pub(crate) fn judge_key(
    keys: &super::models::KeyStore,
    scenario: &crate::scenario::Scenario,
) -> Result<String, String> {
    let who = scenario.judge.who();
    if Judge::of(&who, scenario).is_demo() {
        return Ok(String::new());
    }
    let url = crate::judge::judge_scenario(scenario, &who).model.effective_base_url();
    Ok(keys.key_for(&url)?.unwrap_or_default())
}

/// The judge's calls and verdict on the run file `run` (its log to be appended to), from the
/// tools module's `judge` with `key`.
pub(crate) async fn judged(run: String, key: String) -> Result<Vec<Event>, String> {
    let m = super::tools::module().await?;
    let lines = super::tools::call_async(&m, "judge", &[run.into(), key.into()]).await?;
    crate::events::from_json_lines(&lines)
}

/// Who would judge the run on screen, with the warnings that go with them.
fn judge_note(v: &crate::view::RunView) -> Option<String> {
    let s = v.scenario.as_ref()?;
    let who = s.judge.who();
    let judge = Judge::of(&who, s);
    let mut note = format!("Judged by {}", judge.label);
    if judge.same_model {
        note.push_str(", the agents' own model: it may favour what it wrote");
    }
    if who.provider.is_empty() && s.model.is_in_tab() {
        note.push_str(". A small model in the tab judges poorly: name a judge in the scenario's judge settings for scores to trust");
    }
    note.push('.');
    Some(note)
}

/// The judge's panel under a finished run: "Judge this run", then the scorecard.
#[component]
pub fn VerdictPanel() -> impl IntoView {
    let controller = expect_context::<Controller>();
    let finished = Memo::new(move |_| controller.view.with(|v| v.finished.is_some()));
    // Which verdict is newest (a new one is a new allocation).
    let verdicts = Memo::new(move |_| {
        controller.view.with(|v| v.verdict.as_ref().map(|e| std::sync::Arc::as_ptr(e) as usize))
    });
    let card = RwSignal::new(String::new());
    // Drawn by the tools module from the log when the run finishes and when a verdict comes.
    Effect::new(move |_| {
        verdicts.track();
        if !finished.get() {
            return card.set(String::new());
        }
        let Ok(events) = controller.judgeable() else { return };
        let Some(Event::RunStarted { scenario, .. }) = events.first() else { return };
        let run = crate::export::to_json_compact(scenario, &events);
        super::tools::spawn_call(
            "scorecard",
            vec![run.into()],
            Box::new(move |out| card.set(out.unwrap_or_else(|e| crate::text::alert_html(&e).into_string()))),
        );
    });
    move || {
        finished.get().then(|| {
            view! {
                <div class="panel verdict" data-testid="verdict">
                    <h2>"Verdict"</h2>
                    <p class="row">
                        <button data-testid="judge-run" on:click=move |_| controller.judge()>
                            {move || if verdicts.get().is_some() { "Judge again" } else { "Judge this run" }}
                        </button>
                        // Who will judge, before a verdict says who did.
                        <span class="muted" data-testid="judge-note" hidden=move || verdicts.get().is_some()>
                            {move || controller.view.with(judge_note)}
                        </span>
                    </p>
                    <p class="muted" role="status" data-testid="judging">{move || controller.judging.get()}</p>
                    <div data-testid="scorecard-box" markup=move || Markup::from_tools_module(card.get())></div>
                </div>
            }
        })
    }
}
