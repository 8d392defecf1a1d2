//! The prompt templates the editor offers: each one's text is what the models read (an edit
//! reaches the requests), and "back to the seed's text" puts the seed's bytes back.

mod common;

use agora::presets::PRESETS;
use agora::scenario::{HandoffVia, Method, Scenario};

/// Templates a demo run of the preset may not send: feedback only follows a reply the method
/// could not use, and the director's summary only closes a show that ran out of turns.
fn maybe_unsent(field: &str) -> bool {
    field.ends_with("_feedback") || field == "method.summary" || field == "method.continuation"
}

/// Every request a whole demo run of `s` sends, as written (messages, tools and response format
/// alike).
fn requests_of(s: Scenario) -> Vec<String> {
    let judge = s.judge.settings().unwrap();
    let (sent, events) = common::demo_requests(&s);
    let mut sent: Vec<String> = sent.iter().map(|r| format!("{r:?}")).collect();
    // The judge's prompts, on the finished run.
    let events = &events;
    sent.extend(agora::judge::request(events, &judge).map(|r| r.messages[0].content.clone()));
    sent.extend(
        agora::judge::pairwise::request(events, events, &judge).map(|r| r.messages[0].content.clone()),
    );
    // And scoring its first speech as it landed.
    if let Some((turn, agent)) = agora::judge::live::unscored(events).first() {
        sent.extend(
            agora::judge::live::request(events, *turn, agent, &judge).map(|r| r.messages[0].content.clone()),
        );
    }
    sent
}

/// Every preset, and the handoff preset in each of its modes.
fn scenarios() -> Vec<(String, Scenario)> {
    let mut all: Vec<(String, Scenario)> = PRESETS.iter().map(|p| (p.id.to_string(), p.scenario())).collect();
    for via in [HandoffVia::Tool, HandoffVia::Json] {
        let mut s = agora::presets::find("ai-morality-handoff").unwrap().scenario();
        if let Method::Handoff(h) = &mut s.method {
            h.via = via;
        }
        all.push((format!("handoff by {}", via.as_str()), s));
    }
    all
}

#[test]
fn every_template_edited_reaches_the_requests() {
    for (id, mut s) in scenarios() {
        s.opening.specify_topic = true;
        s.opening.describe_characters = true;
        s.max_turns = s.max_turns.min(8);
        let mut marks = Vec::new();
        for (i, (field, _)) in s.templates().into_iter().enumerate() {
            let mark = format!("[edited {i}]");
            let (text, _) = s.template(field).unwrap();
            s.set_template(field, format!("{text} {mark}"));
            assert!(s.template(field).unwrap().0.ends_with(&mark), "{id}: {field} is set");
            marks.push((field, mark));
        }
        let sent = requests_of(s);
        for (field, mark) in marks {
            let reached = sent.iter().any(|r| r.contains(&mark));
            assert!(reached || maybe_unsent(field), "{id}: {field} never reached a request");
        }
    }
}

#[test]
fn back_to_the_seeds_text_restores_its_bytes() {
    for (id, mut s) in scenarios() {
        let fields = s.templates();
        assert!(fields.len() >= 4, "{id}: {} templates", fields.len());
        for (field, _) in fields {
            let (_, seed) = s.template(field).unwrap();
            s.set_template(field, "something else".into());
            assert_eq!(s.template(field).unwrap().0, "something else", "{id}: {field}");
            s.set_template(field, seed.clone());
            assert_eq!(s.template(field).unwrap().0, seed, "{id}: {field}");
        }
        // A shared template put back to the seed's text is the seed's again: absent from the file.
        let file = serde_json::to_value(&s).unwrap();
        assert_eq!(file["prompts"], serde_json::json!({}), "{id}");
    }
}

#[test]
fn each_part_of_the_editor_lists_its_own_templates_and_a_row_knows_when_it_holds_the_seeds_text() {
    use agora::scenario::TemplatePart;
    for (id, mut s) in scenarios() {
        s.opening.specify_topic = true;
        s.opening.describe_characters = true;
        let parts = [TemplatePart::Specifier, TemplatePart::Describer, TemplatePart::Method];
        let listed: Vec<Vec<&str>> =
            parts.iter().map(|p| s.template_rows(*p).iter().map(|r| r.field).collect()).collect();
        assert!(
            listed[0].iter().all(|f| f.starts_with("opening.specifier_")) && listed[0].len() == 2,
            "{id}: {:?}",
            listed[0]
        );
        assert!(
            listed[1].iter().all(|f| f.starts_with("opening.describer_")) && listed[1].len() == 2,
            "{id}: {:?}",
            listed[1]
        );
        assert!(
            listed[2].contains(&"judge.template") && listed[2].iter().all(|f| !f.starts_with("opening.")),
            "{id}"
        );
        // Every template is in one list, none twice.
        assert_eq!(listed.iter().map(Vec::len).sum::<usize>(), s.templates().len(), "{id}");
        assert!(s.template_rows(TemplatePart::Judge).is_empty());

        let row_of = |s: &Scenario, field: &str| {
            s.template_rows(TemplatePart::Method).into_iter().find(|r| r.field == field).unwrap()
        };
        for field in listed[2].clone() {
            s.set_template(field, "mine".into());
            let row = row_of(&s, field);
            assert_eq!((row.text.as_str(), row.is_seed()), ("mine", false), "{id}: {field}");
            s.reset_template(field);
            let row = row_of(&s, field);
            assert!(row.is_seed() && row.text == row.seed, "{id}: {field} back to the seed's text");
        }
    }
}

#[test]
fn the_judges_settings_edited_in_the_editor_are_the_scenarios_and_unreadable_ones_are_left_alone() {
    use agora::judge::rubric::Rubric;
    let mut s = PRESETS[0].scenario();
    s.edit_judge(|j| {
        j.set_who(agora::judge::rubric::WhoPart::Provider, "custom ");
        j.add_dimension(Rubric::Conversation);
    })
    .unwrap();
    let j = s.judge.settings().unwrap();
    assert_eq!(j.provider, "custom");
    assert_eq!(
        j.conversation_rubric.last().unwrap().name,
        format!("dimension {}", j.conversation_rubric.len())
    );
    // Back to the defaults: nothing in the file.
    s.edit_judge(|j| *j = agora::judge::JudgeSettings::default()).unwrap();
    assert_eq!(serde_json::to_value(&s).unwrap().get("judge"), None);

    s.judge = agora::judge::JudgeSpec::from_value(serde_json::json!({ "agent_rubric": "not a list" }));
    let before = s.judge.clone();
    assert!(s.edit_judge(|j| j.live = true).is_err());
    assert_eq!(s.judge, before, "settings that cannot be read stay as written");
}
