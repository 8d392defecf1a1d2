//! "Judge this run": the judge named in the run's scenario reads the finished run on screen (a
//! live run, a replay or a run opened from a link) and its calls and verdict join the run's log
//! (`crate::judge`); the scorecard is drawn from the log by the tools module, so a replay, a
//! link or a reload shows the same verdict.

use leptos::prelude::*;

use super::driver::Controller;
use crate::events::Event;
use crate::markup::Markup;
use crate::ui::MarkupAttribute;

impl Controller {
    /// Asks the judge of the run's scenario about the finished run on screen, with the key for
    /// `address` (empty: the judge needs none); `label` says who judges. The judging itself
    /// (the prompt, the call, the reading of the verdict, the demo judge, the model in the tab)
    /// is the tools module's, so none of it is on the first page.
    pub fn judge(&self, address: &str, label: &str) {
        let events = match self.judgeable() {
            Ok(e) => e,
            Err(e) => return self.judging.set(e),
        };
        let Some(Event::RunStarted { scenario, .. }) = events.first() else { return };
        let key = match judge_key(&self.keys, address) {
            Ok(k) => k,
            Err(e) => return self.judging.set(format!("The judge cannot be asked: {e}")),
        };
        self.judging.set(format!("Judging: {label} reads the run…"));
        let run = crate::export::to_json_compact(scenario, &events);
        let this = *self;
        super::tools::spawn_call(
            "judge",
            vec![run.into(), key.into()],
            Box::new(move |out| match out.and_then(|lines| crate::events::from_json_lines(&lines)) {
                Ok(added) => {
                    this.add_judged(added);
                    this.judging.set(String::new());
                }
                Err(e) => this.judging.set(format!("The judge could not be asked: {e}")),
            }),
        );
    }
}

impl Controller {
    /// Asks the judge of the run's scenario, finding its address and name from the scenario
    /// (the comparison's columns: the first page gets them from the tools module's button).
    pub fn judge_named(&self) {
        let Some(s) = self.view.with_untracked(|v| v.scenario.clone()) else { return };
        let label = crate::judge::Judge::of(&s.judge.who(), &s).label;
        self.judge(&crate::judge::judge_address(&s), &label);
    }
}

/// The page's key for a judge called at `address` (`crate::judge::judge_address`): none when it
/// needs none, else the key, asking first, as for a run, when it was entered for another address.
pub(crate) fn judge_key(keys: &super::models::KeyStore, address: &str) -> Result<String, String> {
    if address.is_empty() {
        return Ok(String::new());
    }
    Ok(keys.key_for(address)?.unwrap_or_default())
}

/// The judge's calls and verdict on the run file `run` (its log to be appended to), from the
/// tools module's `judge` with `key`.
pub(crate) async fn judged(run: String, key: String) -> Result<Vec<Event>, String> {
    let m = super::tools::module().await?;
    let lines = super::tools::call_async(&m, "judge", &[run.into(), key.into()]).await?;
    crate::events::from_json_lines(&lines)
}

/// Live scoring (`judge.live`, see `crate::judge::live`): after each step of a run that asks
/// for it, the speeches not yet scored are scored by the tools module and their scores shown
/// beside them; the scores and the judge's calls join the log when the run has ended, after it.
fn score_live(controller: Controller) {
    // What the run had said (and whether it had ended) when last asked, and a call in flight.
    let asked_at = StoredValue::new(usize::MAX);
    let busy = StoredValue::new(false);
    Effect::new(move |_| {
        let live = controller.view.with(|v| {
            let s = v.scenario.clone().filter(|s| s.judge.live())?;
            Some((s, v.transcript.len() * 2 + v.finished.is_some() as usize, v.finished.is_some()))
        });
        let Some((scenario, at, finished)) = live else { return };
        if busy.get_value() || controller.replaying.get() || at == asked_at.get_value() {
            return;
        }
        asked_at.set_value(at);
        busy.set_value(true);
        let run = controller.with_events(|e| crate::export::to_json_compact(&scenario, e));
        // The page's key and the address it was entered for: the tools module sends it only there.
        let (key, origin) = (controller.keys.key.get_untracked(), controller.keys.origin.get_untracked());
        super::tools::spawn_call(
            "score_speeches",
            vec![run.into(), key.into(), origin.into()],
            Box::new(move |out| {
                // Every score so far: shown while the run goes on (its own events stay the
                // engine's), and in its log, with the judge's calls, once it has ended.
                match out.and_then(|lines| crate::events::from_json_lines(&lines)) {
                    Ok(all) if finished => controller.add_judged(all),
                    Ok(all) => controller.view.update(|v| {
                        all.iter()
                            .filter(|e| matches!(e, Event::SpeechScored { .. }))
                            .for_each(|e| v.apply(e))
                    }),
                    Err(e) => controller.notice.set(format!("A speech could not be scored: {e}")),
                }
                busy.set_value(false);
                // Looks again, for what was said meanwhile.
                controller.view.update(|_| {});
            }),
        );
    });
}

/// The judge's panel under a finished run: "Judge this run", who judges and the scorecard, all
/// drawn by the tools module from the log (so a verdict, a replay and a link draw the same).
#[component]
pub fn VerdictPanel() -> impl IntoView {
    let controller = expect_context::<Controller>();
    score_live(controller);
    let finished = Memo::new(move |_| controller.view.with(|v| v.finished.is_some()));
    let card = RwSignal::new(String::new());
    // Drawn again when the run finishes and when a verdict comes (a new one is a new allocation).
    Effect::new(move |_| {
        controller.view.with(|v| v.verdict.as_ref().map(|e| std::sync::Arc::as_ptr(e) as usize));
        if !finished.get() {
            return card.set(String::new());
        }
        let Ok(events) = controller.judgeable() else { return };
        let Some(Event::RunStarted { scenario, .. }) = events.first() else { return };
        let run = crate::export::to_json_compact(scenario, &events);
        super::tools::spawn_call(
            "verdict_panel",
            vec![run.into()],
            Box::new(move |out| card.set(out.unwrap_or_else(|e| crate::text::alert_html(&e).into_string()))),
        );
    });
    let act = move |ev: leptos::ev::MouseEvent| {
        let Some(button) = super::browser::acted(&ev, "judge") else { return };
        let attr = |name: &str| button.get_attribute(name).unwrap_or_default();
        controller.judge(&attr("data-key-for"), &attr("data-judge"));
    };
    move || {
        finished.get().then(|| {
            view! {
                <div class="panel verdict" data-testid="verdict">
                    <h2>"Verdict"</h2>
                    <div data-testid="scorecard-box" on:click=act markup=move || Markup::from_tools_module(card.get())></div>
                    <p class="muted" role="status" data-testid="judging">{move || controller.judging.get()}</p>
                </div>
            }
        })
    }
}
