//! The seeds' requests, byte for byte: each test builds what a seed's own code sends, from the
//! seed's own template strings (copied here as the seed writes them, Python string rules
//! applied by hand), and compares it with what Agora sends for the same scenario and replies.

mod common;

use std::cell::RefCell;
use std::rc::Rc;

use agora::clock::FrozenClock;
use agora::engine::Run;
use agora::model::{ChatModel, ChatRequest, ChatResponse, ModelError, Purpose, Role};
use futures::future::LocalBoxFuture;

/// Answers every call plainly and keeps every request.
#[derive(Default)]
struct Recorder(RefCell<Vec<ChatRequest>>);

impl ChatModel for Recorder {
    fn complete<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, ModelError>> {
        self.0.borrow_mut().push(request.clone());
        let reply = match request.purpose {
            Purpose::Bid => "<5>".to_string(),
            // Round the three debaters: proponent, opponent, neutral.
            Purpose::Handoff => {
                let next = match request.agent.as_str() {
                    "Proponent" => "opponent",
                    "Opponent" => "neutral",
                    _ => "proponent",
                };
                format!("{}: I see it so. Transition to {next}", request.agent)
            }
            _ => format!("{} has spoken.", request.agent),
        };
        Box::pin(async move { Ok(ChatResponse::text(reply)) })
    }
}

fn record(preset: &str, turns: u32) -> Vec<ChatRequest> {
    let mut scenario = agora::presets::find(preset).unwrap().scenario();
    scenario.max_turns = turns;
    let model = Rc::new(Recorder::default());
    let mut run = Run::new(scenario, model.clone(), Rc::new(FrozenClock)).unwrap();
    futures::executor::block_on(run.run_to_end());
    model.0.take()
}

// The opening's prompts as each notebook writes them: the indents inside the triple-quoted
// f-strings are part of the text, and seed 002 leaves a few trailing spaces seed 000 does not.
const SPECIFIER_000: &str = "{game_description}\n\n        You are the debate moderator.\n        Please make the debate topic more specific.\n        Frame the debate topic as a problem to be solved.\n        Be creative and imaginative.\n        Please reply with the specified topic in {word_limit} words or less.\n        Speak directly to the presidential candidates: {names}.\n        Do not add anything else.";
const SPECIFIER_002: &str = "{game_description}\n        \n        You are the debate moderator.\n        Please make the debate topic more specific. \n        Frame the debate topic as a problem to be solved.\n        Be creative and imaginative.\n        Please reply with the specified topic in {word_limit} words or less. \n        Speak directly to the presidential candidates: {names}.\n        Do not add anything else.";
const DESCRIBER_000: &str = "{game_description}\n            Please reply with a creative description of the presidential candidate, {character_name}, in {word_limit} words or less, that emphasizes their personalities.\n            Speak directly to {character_name}.\n            Do not add anything else.";
const DESCRIBER_002: &str = "{game_description}\n            Please reply with a creative description of the presidential candidate, {character_name}, in {word_limit} words or less, that emphasizes their personalities. \n            Speak directly to {character_name}.\n            Do not add anything else.";

/// Python's `str.format` / f-string substitution for the names the seeds use.
fn format(template: &str, vars: &[(&str, &str)]) -> String {
    vars.iter().fold(template.to_string(), |t, (k, v)| t.replace(&format!("{{{k}}}"), v))
}

#[test]
fn seeds_000_and_002_bid_and_speech_requests_are_the_notebooks() {
    // Seed 002 writes the same header, system message and bidding template as seed 000.
    for preset in ["rail-debate", "arms-debate"] {
        bidding_requests_are_the_notebook_s(preset);
    }
}

fn bidding_requests_are_the_notebook_s(preset: &str) {
    let scenario = agora::presets::find(preset).unwrap().scenario();
    let requests = record(preset, 1);
    let names: Vec<&str> = scenario.agents.iter().map(|a| a.name.as_str()).collect();
    let topic = scenario.topic.as_str();
    // The notebook's strings, as its f-strings write them.
    let game_description = format(
        "Here is the topic for the presidential debate: {topic}.\nThe presidential candidates are: {names}.",
        &[("topic", topic), ("names", &names.join(", "))],
    );
    let header = |agent: &agora::scenario::AgentSpec| {
        format(
            "{game_description}\nYour name is {character_name}.\nYou are a presidential candidate.\nYour description is as follows: {character_description}\nYou are debating the topic: {topic}.\nYour goal is to be as creative as possible and make the voters think you are the best candidate.\n",
            &[
                ("game_description", &game_description),
                ("character_name", &agent.name),
                // The description the describer wrote (the recorder's answer for the agent).
                ("character_description", &format!("{} has spoken.", agent.name)),
                ("topic", topic),
            ],
        )
    };
    let system = |agent: &agora::scenario::AgentSpec| {
        format(
            "{character_header}\nYou will speak in the style of {character_name}, and exaggerate their personality.\nYou will come up with creative ideas related to {topic}.\nDo not say the same things over and over again.\nSpeak in the first person from the perspective of {character_name}\nFor describing your own body movements, wrap your description in '*'.\nDo not change roles!\nDo not speak from the perspective of anyone else.\nSpeak only from the perspective of {character_name}.\nStop speaking the moment you finish speaking from your perspective.\nNever forget to keep your response to {word_limit} words!\nDo not add anything else.\n    ",
            &[
                ("character_header", &header(agent)),
                ("character_name", &agent.name),
                ("topic", topic),
                ("word_limit", &scenario.word_limit.to_string()),
            ],
        )
    };
    // Seed 000's opening: a description of each candidate, then the specified topic, which the
    // moderator injects.
    let quoted: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
    let limit = scenario.word_limit.to_string();
    let specifier = format(
        if preset == "arms-debate" { SPECIFIER_002 } else { SPECIFIER_000 },
        &[
            ("game_description", &game_description),
            ("word_limit", &limit),
            ("names", &format!("({})", quoted.join(", "))),
        ],
    );
    let sent = requests.iter().find(|r| r.purpose == Purpose::TopicSpecifier).unwrap();
    assert_eq!(sent.messages[0].content, "You can make a task more specific.");
    assert_eq!(sent.messages[1].content, specifier, "{preset}: the topic specifier");
    assert_eq!(sent.temperature, Some(1.0));
    for agent in &scenario.agents {
        let describer = format(
            if preset == "arms-debate" { DESCRIBER_002 } else { DESCRIBER_000 },
            &[
                ("game_description", &game_description),
                ("character_name", &agent.name),
                ("word_limit", &limit),
            ],
        );
        let sent = requests
            .iter()
            .find(|r| r.purpose == Purpose::CharacterDescription && r.agent == agent.name)
            .unwrap();
        assert_eq!(
            sent.messages[0].content,
            "You can add detail to the description of each presidential candidate."
        );
        assert_eq!(sent.messages[1].content, describer, "{preset}: {}'s description", agent.name);
    }
    let specified = format!("{} has spoken.", scenario.opening.speaker);
    let history = format!("Here is the conversation so far.\n{}: {specified}", scenario.opening.speaker);
    let recent = format!("{}: {specified}", scenario.opening.speaker);
    for agent in &scenario.agents {
        // The bidding template's f-string leaves {message_history} and {recent_message} for
        // PromptTemplate, which fills them from the agent's history.
        let bid = format(
            "{character_header}\n\n```\n{message_history}\n```\n\nOn the scale of 1 to 10, where 1 is not contradictory and 10 is extremely contradictory, rate how contradictory the following message is to your ideas.\n\n```\n{recent_message}\n```\n\n{format_instructions}\nDo nothing else.\n    ",
            &[
                ("character_header", &header(agent)),
                ("format_instructions", "Your response should be an integer delimited by angled brackets, like this: <int>."),
                ("message_history", &history),
                ("recent_message", &recent),
            ],
        );
        let sent = requests.iter().find(|r| r.purpose == Purpose::Bid && r.agent == agent.name).unwrap();
        assert_eq!(sent.messages.len(), 1, "one SystemMessage");
        assert_eq!(sent.messages[0].role, Role::System);
        assert_eq!(sent.messages[0].content, bid, "{preset}: {}'s bid prompt", agent.name);
    }
    // The winner's speech: its system message, then the history and its own prefix.
    let speech = requests.iter().find(|r| r.purpose == Purpose::Speak).unwrap();
    let speaker = scenario.agents.iter().find(|a| a.name == speech.agent).unwrap();
    assert_eq!(speech.messages.len(), 2);
    assert_eq!(
        (speech.messages[0].role, speech.messages[0].content.as_str()),
        (Role::System, system(speaker).as_str())
    );
    assert_eq!(speech.messages[1].role, Role::User);
    assert_eq!(speech.messages[1].content, format!("{history}\n{}: ", speaker.name));
    // ChatOpenAI(temperature=0.2) for the candidates, no token limit.
    assert_eq!((speech.temperature, speech.max_tokens), (Some(0.2), None));
}

#[test]
fn seed_003_handoff_instructions_are_the_notebook_s_strings_joined_as_python_joins_them() {
    let scenario = agora::presets::find("ai-morality-handoff").unwrap().scenario();
    let requests = record("ai-morality-handoff", 3);
    // Adjacent string literals: no space where one ends and the next begins.
    let pro = concat!(
        "You are an agent debating with other agents about a proposition that you agree with: {proposition}.",
        "Start your response with 'Proponent:'. Limit your response to 1-2 sentences mimicking a real person.",
        "After you respond, you can transition to the next agent by saying either 'Transition to opponent' or 'Transition to neutral'."
    );
    let con = concat!(
        "You are an agent debating with other agents about a proposition that you disagree with: {proposition}.",
        "Start your response with 'Opponent:'. Limit your response to 1-2 sentences mimicking a real person.",
        "After you respond, you can transition to the next agent by saying either 'Transition to proponent' or 'Transition to neutral'."
    );
    let neutral = concat!(
        "You are an agent debating with other agents about a proposition that you feel neutral about: {proposition}.",
        "Start your response with 'Neutral:'. Limit your response to 1-2 sentences mimicking a real person.",
        "After you respond, you can transition to the next agent by saying either 'Transition to proponent' or 'Transition to opponent'."
    );
    for (name, template) in [("Proponent", pro), ("Opponent", con), ("Neutral", neutral)] {
        let expected = format(template, &[("proposition", &scenario.topic)]);
        let sent = requests.iter().find(|r| r.agent == name).unwrap_or_else(|| panic!("{name} spoke"));
        assert_eq!(sent.messages[0].role, Role::System);
        assert_eq!(sent.messages[0].content, expected, "{name}'s instructions");
        // litellm.completion(model=MODEL, max_tokens=MAX_TOKENS, messages=...): no temperature.
        assert_eq!((sent.temperature, sent.max_tokens), (None, Some(500)), "{name}");
    }
    // Each later speaker sees the system prompt and the debate so far, as assistant messages.
    let second = &requests[1];
    assert_eq!(second.messages.len(), 2);
    assert_eq!(second.messages[1].role, Role::Assistant);
    assert_eq!(second.messages[1].content, "Proponent: I see it so. Transition to opponent");
}

#[test]
fn describing_a_cast_outside_a_run_sends_the_runs_own_description_requests() {
    for preset in ["rail-debate", "arms-debate"] {
        let mut scenario = agora::presets::find(preset).unwrap().scenario();
        scenario.topic = "Should homework be banned in primary schools?".into();
        let in_run = {
            let model = Rc::new(Recorder::default());
            let mut run = Run::new(scenario.clone(), model.clone(), Rc::new(FrozenClock)).unwrap();
            futures::executor::block_on(run.step());
            model.0.take()
        };
        let model = Recorder::default();
        let described = futures::executor::block_on(agora::engine::describe_cast(&scenario, &model));
        let outside = model.0.take();
        let expected: Vec<&ChatRequest> =
            in_run.iter().filter(|r| r.purpose == Purpose::CharacterDescription).collect();
        assert_eq!(expected.len(), scenario.agents.len(), "{preset}");
        assert_eq!(outside.iter().collect::<Vec<_>>(), expected, "{preset}: the same requests");
        assert!(
            outside[0].messages[1].content.contains("homework"),
            "{preset}: the new topic is in the prompt"
        );
        let names: Vec<&str> = described.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, scenario.agent_names().iter().map(String::as_str).collect::<Vec<_>>());
        for (name, text) in &described {
            assert_eq!(text.as_deref(), Ok(format!("{name} has spoken.").as_str()));
        }
    }
}

#[test]
fn the_demo_model_describes_a_cast_for_the_topic_it_is_given() {
    let mut scenario = agora::presets::find("rail-debate").unwrap().scenario();
    scenario.topic = "Should homework be banned in primary schools?".into();
    let model = agora::demo::DemoModel::new(&scenario, Rc::new(FrozenClock));
    let described = futures::executor::block_on(agora::engine::describe_cast(&scenario, &model));
    assert_eq!(described.len(), 3);
    for (name, text) in &described {
        let text = text.as_ref().expect(name);
        assert!(text.to_lowercase().contains("homework"), "{name}: {text}");
        assert!(!text.contains("rail"), "{name}: the preset's own topic leaked in: {text}");
    }
}
