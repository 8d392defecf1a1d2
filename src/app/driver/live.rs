//! The model a live run talks to: the demo model at the chosen speed, the model inside the tab,
//! or the provider the scenario names with the user's key (asking first when the key would go to an address it was
//! not entered for); and the connection check.

use std::rc::Rc;

use leptos::prelude::*;

use super::Controller;
use crate::app::browser::BrowserClock;
use crate::app::demo::PageDemo;
use crate::app::fetch::BrowserTransport;
use crate::clock::Clock;
use crate::model::ChatModel;
use crate::provider::{Endpoint, HttpModel};
use crate::scenario::Scenario;

impl Controller {
    /// The provider endpoint the scenario names, with the user's key (asking first when the
    /// key would go to an address it was not entered for).
    fn endpoint(&self, scenario: &Scenario) -> Result<Endpoint, String> {
        let key = self.keys.key_for(&scenario.model.effective_base_url())?;
        Ok(Endpoint::of(scenario, key))
    }

    /// Asks the scenario's provider which models it offers: their names and a report (how many,
    /// and which of the scenario's and its agents' models are not among them), or what is wrong.
    pub async fn check_connection(&self, scenario: Scenario) -> Result<(Vec<String>, String), String> {
        let mut endpoint = self.endpoint(&scenario)?;
        if endpoint.model.trim().is_empty() {
            // Listing needs no model; the check is how one is picked.
            endpoint.model = "-".into();
        }
        let network = scenario.model.network.clone();
        let model =
            HttpModel::new(endpoint, network, Rc::new(BrowserTransport::default()), Rc::new(BrowserClock))?
                .with_secrets(self.keys.all_keys());
        let names = model.list_models().await?;
        let (report, _) = crate::provider::connection_report(&scenario, &names);
        Ok((names, report))
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
        Ok(model)
    }

    /// The provider the scenario names, with the user's key, reporting its text, notices and
    /// retries on the page.
    pub(crate) fn http_model(
        &self,
        scenario: &Scenario,
        clock: Rc<dyn Clock>,
    ) -> Result<Rc<HttpModel>, String> {
        let this = *self;
        let endpoint = self.endpoint(scenario)?;
        let model = HttpModel::new(
            endpoint,
            scenario.model.network.clone(),
            Rc::new(BrowserTransport::default()),
            clock,
        )?
        .with_learned(self.learned.get_value())
        .with_secrets(self.keys.all_keys())
        .on_text(Rc::new(move |agent: &str, text: &str| {
            this.live_text.set(Some((agent.to_string(), text.to_string())))
        }))
        .on_notice(Rc::new(move |what: &str| this.notice.set(what.to_string())))
        .on_retry(Rc::new(move |agent: &str, what: &str, ms: u64| {
            this.retry_note.set(format!("{what} Trying {agent}'s call again in {} s.", ms.div_ceil(1000)))
        }));
        Ok(Rc::new(model))
    }
}
