//! Reads a scenario back from JSON, field by field, with [`Fields`].
//!
//! Hand-written rather than derived: serde's derive emitted about 50 KB of readers for the
//! scenario's hundred-odd fields in the browser build. The behaviour is the derive's: a field
//! left out keeps its default (the seed's value), unknown fields are ignored, and `version`,
//! `title`, `topic`, `agents`, `method` and an agent's `name` must be present.

use super::{
    AgentSpec, DemoSettings, Method, MethodKind, ModelSettings, Opening, Prompts, Scenario, SpendingCap,
};
use crate::catalog::NetworkSettings;
use crate::json::{deserialize_with_fields, set_present, Fields, ReadPresent};

deserialize_with_fields!(Scenario, "the scenario");
deserialize_with_fields!(AgentSpec, "an agent");
deserialize_with_fields!(Opening, "opening");
deserialize_with_fields!(Prompts, "prompts");
deserialize_with_fields!(Method, "method");
deserialize_with_fields!(ModelSettings, "model");
deserialize_with_fields!(DemoSettings, "model.demo");
deserialize_with_fields!(NetworkSettings, "model.network");
deserialize_with_fields!(SpendingCap, "model.spending_cap");

impl Scenario {
    fn read(mut f: Fields) -> Result<Scenario, String> {
        let mut s = Scenario {
            version: f.u32("version")?,
            title: f.string("title")?,
            topic: f.string("topic")?,
            agents: f.any("agents")?,
            method: f.any("method")?,
            summary: String::new(),
            language: String::new(),
            word_limit: super::DEFAULT_WORD_LIMIT,
            seed: 0,
            max_turns: super::DEFAULT_MAX_TURNS,
            opening: Opening::default(),
            prompts: Prompts::default(),
            model: ModelSettings::default(),
            seats: Vec::new(),
            seat_timeout_s: 0,
            judge: Default::default(),
        };
        set_present!(f, s,
            summary: set_string,
            language: set_string,
            word_limit: set_u32,
            seed: set_u64,
            max_turns: set_u32,
            opening: set_any,
            prompts: set_any,
            model: set_any,
            seats: set_any,
            seat_timeout_s: set_u32,
        );
        // Kept as written: only the judge reads it (`JudgeSpec`).
        if let Some(judge) = f.take("judge") {
            s.judge = crate::judge::rubric::JudgeSpec::from_value(judge);
        }
        Ok(s)
    }
}

impl AgentSpec {
    fn read(mut f: Fields) -> Result<AgentSpec, String> {
        let mut a = AgentSpec { name: f.string("name")?, ..AgentSpec::default() };
        set_present!(f, a, role: set_string, location: set_string, description: set_string);
        a.stance = f.maybe_any("stance")?.flatten();
        a.system_prompt = f.opt_string("system_prompt")?;
        a.model = f.opt_string("model")?;
        Ok(a)
    }
}

impl Opening {
    fn read(mut f: Fields) -> Result<Opening, String> {
        let mut o = Opening::default();
        o.read_present(&mut f)?;
        Ok(o)
    }
}

impl Prompts {
    fn read(mut f: Fields) -> Result<Prompts, String> {
        Ok(Prompts {
            conversation_description: f.opt_string("conversation_description")?,
            header: f.opt_string("header")?,
            system: f.opt_string("system")?,
            history_header: f.opt_string("history_header")?,
            language: f.opt_string("language")?,
        })
    }
}

// The object's `kind` picks the method (see `methods!` in scenario.rs); the rest of it are that
// method's settings, read by the method's own module.
impl Method {
    fn read(mut f: Fields) -> Result<Method, String> {
        let kind = f.maybe_string("kind")?.ok_or("a method needs a \"kind\"")?;
        let Some(kind) = MethodKind::from_id(&kind) else {
            return Err(format!("unknown method kind \"{kind}\""));
        };
        Method::read_settings(kind, &mut f)
    }
}

impl ModelSettings {
    fn read(mut f: Fields) -> Result<ModelSettings, String> {
        let mut m = ModelSettings::default();
        m.read_present(&mut f)?;
        Ok(m)
    }
}

impl SpendingCap {
    fn read(mut f: Fields) -> Result<SpendingCap, String> {
        let mut c = SpendingCap::default();
        c.read_present(&mut f)?;
        Ok(c)
    }
}

impl DemoSettings {
    fn read(mut f: Fields) -> Result<DemoSettings, String> {
        let mut d = DemoSettings::default();
        d.read_present(&mut f)?;
        Ok(d)
    }
}

impl NetworkSettings {
    fn read(mut f: Fields) -> Result<NetworkSettings, String> {
        let mut n = NetworkSettings::default();
        n.read_present(&mut f)?;
        Ok(n)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::{DirectorSettings, Price, Stance};
    use super::*;

    /// Every field set away from its default, so a field the reader forgot fails the round trip.
    fn changed(method: Method) -> Scenario {
        let mut s = crate::presets::PRESETS[0].scenario();
        s.summary = "sum".into();
        s.language = "Chinese".into();
        s.word_limit = 7;
        s.seed = u64::MAX;
        s.max_turns = 3;
        s.agents[0] = AgentSpec {
            name: "N".into(),
            role: "r".into(),
            location: "l".into(),
            description: "d".into(),
            stance: Some(Stance::Against),
            system_prompt: Some("sp".into()),
            model: Some("m".into()),
        };
        s.method = method;
        s.opening = Opening {
            speaker: "s".into(),
            text: "t".into(),
            specify_topic: true,
            describe_characters: true,
            specifier_system: "a".into(),
            specifier_prompt: "b".into(),
            describer_system: "c".into(),
            describer_prompt: "d".into(),
        };
        s.prompts = Prompts {
            conversation_description: Some("1".into()),
            header: Some("2".into()),
            system: Some("3".into()),
            history_header: Some("4".into()),
            language: Some("5 {language}".into()),
        };
        s.model = ModelSettings {
            provider: "openai".into(),
            base_url: "http://127.0.0.1:1/v1".into(),
            name: "gpt".into(),
            demo: DemoSettings { malformed_rate: 0.25, latency_ms: 9, topic_phrase: "tp".into() },
            temperature: None,
            price: Some(Price { input_per_million: 1.5, output_per_million: 2.5 }),
            network: NetworkSettings {
                max_retries: 1,
                backoff_base_ms: 2,
                backoff_max_ms: 3,
                first_byte_timeout_ms: 4,
                idle_timeout_ms: 5,
                rate_limit_wait_ms: 8,
                rate_window_ms: 9,
                concurrency: 6,
                stream: false,
            },
            spending_cap: super::super::SpendingCap { tokens: 7, cost: 0.5 },
            writing: crate::intab::Writing {
                repeat_penalty: 1.25,
                dry_multiplier: 0.5,
                stop_at_names: false,
                strip_name: false,
            },
        };
        s
    }

    /// Each method's folder checks that every field of its settings reads back
    /// (`settings.rs`, through [`crate::scenario::assert_reads_back`]).
    pub(crate) fn reads_back(method: Method) {
        let s = changed(method);
        assert_eq!(Scenario::parse(&s.to_json_pretty()), Ok(s.clone()), "{}", s.method.name());
    }

    #[test]
    fn left_out_fields_take_the_seed_defaults() {
        let text = r#"{"version": 1, "title": "T", "topic": "x", "agents": [{"name": "A"}],
            "method": {"kind": "director"}, "model": {"temperature": null}, "extra": [1]}"#;
        let s = Scenario::parse(text).unwrap();
        assert_eq!(s.word_limit, 50);
        assert_eq!(s.max_turns, 10);
        assert_eq!(s.agents[0], AgentSpec { name: "A".into(), ..AgentSpec::default() });
        assert_eq!(s.method, Method::Director(DirectorSettings::default()));
        assert_eq!(s.opening, Opening::default());
        assert_eq!(
            s.model,
            ModelSettings { temperature: None, ..ModelSettings::default() },
            "null clears it"
        );
        assert_eq!(
            Scenario::parse(
                r#"{"version": 1, "title": "T", "topic": "x", "agents": [], "method": {"kind": "bidding"}}"#
            )
            .unwrap()
            .model
            .temperature,
            Some(0.2)
        );
    }

    #[test]
    fn wrong_and_missing_fields_are_named() {
        let base = serde_json::json!({"version": 1, "title": "T", "topic": "x", "agents": [{"name": "A"}],
            "method": {"kind": "bidding"}});
        let with = |path: &[&str], value: serde_json::Value| {
            let mut v = base.clone();
            let mut at = &mut v;
            for key in &path[..path.len() - 1] {
                at = &mut at[*key];
            }
            at[path[path.len() - 1]] = value;
            Scenario::parse(&v.to_string()).unwrap_err()
        };
        assert_eq!(
            with(&["max_turns"], "many".into()),
            "not a valid scenario: `max_turns` of the scenario must be a whole number from 0"
        );
        assert_eq!(with(&["method", "attempts"], (-1).into()), "not a valid scenario: `method` of the scenario: `attempts` of method must be a whole number from 0");
        assert_eq!(
            with(&["method", "kind"], "auction".into()),
            "not a valid scenario: `method` of the scenario: unknown method kind \"auction\""
        );
        assert_eq!(
            with(&["agents"], serde_json::json!([{"role": "r"}])),
            "not a valid scenario: `agents` of the scenario: an agent has no `name`"
        );
        assert_eq!(
            with(&["title"], serde_json::Value::Null),
            "not a valid scenario: `title` of the scenario must be text"
        );
        let mut v = base.clone();
        v.as_object_mut().unwrap().remove("topic");
        assert_eq!(
            Scenario::parse(&v.to_string()).unwrap_err(),
            "not a valid scenario: the scenario has no `topic`"
        );
    }
}
