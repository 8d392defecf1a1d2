//! The model a live run talks to: the demo model at the chosen speed, the model inside the tab,
//! or the provider the scenario names with the user's key (asking first when the key would go to an address it was
//! not entered for); and the connection check. A provider's calls are made by code in a chunk of
//! their own (`providers`), fetched by a run's first call: a first run on the demo model needs
//! none of the HTTP client, its retries and its stream readers.

use std::cell::Cell;
use std::rc::Rc;

use futures::future::LocalBoxFuture;

use leptos::prelude::*;

use super::Controller;
use crate::app::browser::BrowserClock;
use crate::app::demo::PageDemo;
use crate::app::fetch::BrowserTransport;
use crate::clock::Clock;
use crate::model::{ChatModel, ChatRequest, ChatResponse, ModelError};
use crate::provider::{Endpoint, HttpModel};
use crate::scenario::Scenario;

impl Controller {
    /// The provider endpoint the scenario names, with the user's key (asking first when the
    /// key would go to an address it was not entered for).
    fn endpoint(&self, scenario: &Scenario) -> Result<Endpoint, String> {
        let key = self.keys.key_for(&scenario.model.effective_base_url())?;
        Ok(Endpoint::of(scenario, key))
    }

    /// Calls a minute the scenario's provider has been found to allow its model this session.
    pub fn per_minute(&self, scenario: &Scenario) -> Option<u32> {
        let m = &scenario.model;
        self.learned.with_value(|l| l.borrow().per_minute(&m.effective_base_url(), &m.name))
    }

    /// Asks the scenario's provider which models it offers: their names and a report (how many,
    /// and which of the scenario's and its agents' models are not among them), or what is wrong.
    pub async fn check_connection(&self, scenario: Scenario) -> Result<(Vec<String>, String), String> {
        let mut endpoint = self.endpoint(&scenario)?;
        if endpoint.model.trim().is_empty() {
            // Listing needs no model; the check is how one is picked.
            endpoint.model = "-".into();
        }
        let model = self.provider_model(endpoint, &scenario, Rc::new(BrowserClock))?;
        let names = model.list_models().await?;
        let (report, _) = crate::provider::connection_report(&scenario, &names);
        Ok((names, report))
    }

    /// The scenario's cast described for its topic by the scenario's model (seed 000's
    /// description step, outside a run: the editor offers what comes back). Nothing is shown on
    /// the stage while it writes, and the run on screen keeps its model.
    pub async fn describe_cast(
        &self,
        scenario: Scenario,
    ) -> Result<Vec<(String, Result<String, String>)>, String> {
        let clock: Rc<dyn Clock> = Rc::new(BrowserClock);
        let quiet: crate::provider::TextSink = Rc::new(|_: &str, _: &str| {});
        let model: Rc<dyn ChatModel> = if scenario.model.is_demo() {
            let mut at_once = scenario.clone();
            at_once.model.demo.latency_ms = 0;
            Rc::new(PageDemo::new(&at_once, clock))
        } else if scenario.model.is_in_tab() {
            self.intab.model(&scenario, quiet)?
        } else if scenario.model.is_builtin() {
            crate::app::builtin::model(self.intab, quiet)
        } else {
            Rc::new(Provided(Rc::new(self.provider_model(self.endpoint(&scenario)?, &scenario, clock)?)))
        };
        Ok(crate::engine::describe_cast(&scenario, &*model).await)
    }

    /// The model that answers a live run, with the scenario's seats answered on the page.
    pub(super) fn live_model(
        &self,
        scenario: &Scenario,
        clock: Rc<dyn Clock>,
    ) -> Result<Rc<dyn ChatModel>, String> {
        let model = self.model(scenario, clock.clone())?;
        if scenario.seats.is_empty() {
            return Ok(model);
        }
        Ok(Rc::new(crate::seat::Seated::new(model, scenario, Rc::new(self.desk), clock)))
    }

    /// The model that answers the calls nobody sits for: the demo model at the chosen speed,
    /// the model in the tab, or the provider the scenario names, with the user's key.
    fn model(&self, scenario: &Scenario, clock: Rc<dyn Clock>) -> Result<Rc<dyn ChatModel>, String> {
        self.demo.set_value(None);
        self.http.set_value(None);
        if scenario.model.is_demo() {
            let mut scenario = scenario.clone();
            scenario.model.demo.latency_ms = self.demo_latency();
            let demo = Rc::new(PageDemo::new(&scenario, clock));
            self.demo.set_value(Some(demo.clone()));
            return Ok(demo);
        }
        let this = *self;
        if scenario.model.is_in_tab() || scenario.model.is_builtin() {
            let on_text = Rc::new(move |agent: &str, text: &str| {
                this.live_text.set(Some((agent.to_string(), text.to_string())))
            });
            return if scenario.model.is_in_tab() {
                self.intab.model(scenario, on_text)
            } else {
                Ok(crate::app::builtin::model(self.intab, on_text))
            };
        }
        let model = self.http_model(scenario, clock)?;
        self.http.set_value(Some(model.clone()));
        Ok(Rc::new(Provided(model)))
    }

    /// The provider at `endpoint` over the browser's fetch, with what this session learned of
    /// its dialect and every key the page holds kept out of what it sends back; it reports
    /// nothing on the page (see [`Self::http_model`] for a run's).
    fn provider_model(
        &self,
        endpoint: Endpoint,
        scenario: &Scenario,
        clock: Rc<dyn Clock>,
    ) -> Result<HttpModel, String> {
        Ok(HttpModel::new(
            endpoint,
            scenario.model.network.clone(),
            Rc::new(BrowserTransport::default()),
            clock,
        )?
        .with_learned(self.learned.get_value())
        .with_secrets(self.keys.all_keys()))
    }

    /// The provider the scenario names, with the user's key, reporting its text, notices and
    /// retries on the page.
    pub(crate) fn http_model(
        &self,
        scenario: &Scenario,
        clock: Rc<dyn Clock>,
    ) -> Result<Rc<HttpModel>, String> {
        let this = *self;
        let model = self
            .provider_model(self.endpoint(scenario)?, scenario, clock)?
            .on_text(Rc::new(move |agent: &str, text: &str| {
                this.live_text.set(Some((agent.to_string(), text.to_string())))
            }))
            .on_notice(Rc::new(move |what: &str| this.notice.set(what.to_string())))
            .on_retry(Rc::new(move |wait: &crate::provider::Wait| this.retry_note.set(wait.words())));
        Ok(Rc::new(model))
    }
}

/// How a provider's model answers a call: the code the `providers` chunk holds.
type Complete =
    for<'a> fn(&'a HttpModel, &'a ChatRequest) -> LocalBoxFuture<'a, Result<ChatResponse, ModelError>>;

thread_local! {
    /// The chunk's way to make a call, once it has been fetched.
    static COMPLETE: Cell<Option<Complete>> = const { Cell::new(None) };
}

/// The `providers` chunk's entry (what `#[lazy]` expands to, with `fallible`).
#[leptos::wasm_split::wasm_split(providers, wasm_split_path = ::leptos::wasm_split, fallible)]
fn provider_calls() -> Result<Complete, crate::app::Unfetched> {
    Ok(|model, request| model.complete(request))
}

/// A run's provider model: each call made by the chunk's code, the first fetching it.
struct Provided(Rc<HttpModel>);

impl ChatModel for Provided {
    fn complete<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, ModelError>> {
        Box::pin(async move {
            let complete = match COMPLETE.get() {
                Some(complete) => complete,
                None => {
                    let complete = provider_calls().await.map_err(|_| {
                        ModelError::Unavailable(
                            "the code that calls providers could not be fetched (its file did not \
                             arrive): check the connection, then run again (or reload the page)"
                                .into(),
                        )
                    })?;
                    COMPLETE.set(Some(complete));
                    complete
                }
            };
            complete(&self.0, request).await
        })
    }
}
