//! How the demo model speaks and hands the floor on, by text, tool call or JSON.

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde_json::json;

use crate::demo::cast::{chance, Cast, Heard, Person};
use crate::model::{ChatRequest, ChatResponse, Cue, ResponseFormat, ToolCall};

impl Cast {
    pub(crate) fn handoff(
        &self,
        request: &ChatRequest,
        me: Option<&Person>,
        malformed: bool,
        rng: &mut ChaCha8Rng,
    ) -> ChatResponse {
        let Cue::Handoff { topic, word_limit, options, last_speaker, last_text, first } = &request.cue else {
            return ChatResponse::default();
        };
        let name = me.map_or(request.agent.clone(), |p| p.name.clone());
        let last = last_speaker.as_deref().map(|s| (s, last_text.as_str()));
        let heard = Heard::of(request, last, *first);
        // How often each side was handed the floor lately, by any of the three forms.
        let lately = heard.recent.to_ascii_lowercase();
        let handed = |name: &str| {
            let name = name.to_ascii_lowercase();
            lately.matches(&format!("transition to {name}")).count()
                + lately.matches(&format!("\"next_agent_name\": \"{name}\"")).count()
                + lately.matches(&format!("\"next_agent_name\":\"{name}\"")).count()
        };
        let speech = self.speech(me, topic, (*word_limit).min(35), heard, rng);
        let speech = crate::demo::cast::closed(speech);
        // Hand off to the side heard least lately, so every side speaks; among those, to the
        // most opposed debater most of the time, so the exchange has tension.
        let least = options.iter().map(|o| handed(o)).min().unwrap_or(0);
        let (mut ranked, others): (Vec<_>, Vec<_>) =
            self.most_opposed(options, me.map_or(0.0, |p| p.stance)).into_iter().partition(|o| handed(o) == least);
        ranked.extend(others);
        let mut target = if chance(rng, 0.7) || ranked.len() == 1 {
            ranked.first().map(|s| s.to_string()).unwrap_or_default()
        } else {
            ranked.get(1).map(|s| s.to_string()).unwrap_or_default()
        };
        let mut missing = false;
        if malformed {
            match rng.random_range(0..3) {
                0 => missing = true,
                1 => target = "moderator".into(),
                _ => target = name.to_ascii_lowercase(),
            }
        }
        if !request.tools.is_empty() {
            if missing {
                return ChatResponse::text(speech);
            }
            let args = json!({"response": speech, "next_agent_name": target}).to_string();
            return ChatResponse {
                content: String::new(),
                tool_calls: vec![ToolCall { name: "handoff".into(), arguments: args }],
                ..ChatResponse::default()
            };
        }
        if matches!(request.response_format, ResponseFormat::JsonSchema { .. } | ResponseFormat::JsonObject) {
            if missing {
                return ChatResponse::text(format!("{{\"response\": \"{speech}\""));
            }
            return ChatResponse::text(json!({"response": speech, "next_agent_name": target}).to_string());
        }
        if missing {
            return ChatResponse::text(speech);
        }
        ChatResponse::text(format!("{speech} Transition to {target}."))
    }
}
