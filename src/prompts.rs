//! The seeds' prompt texts, as defaults for the scenario's prompt settings, and the tiny
//! `{placeholder}` filler they use.
//!
//! The wording follows the seed notebooks so that real models behave as they did there; every
//! text here can be replaced in a scenario.

/// Fills `{name}` placeholders from `vars`. Unknown placeholders and stray braces stay as they
/// are, so a user's template can never make the engine fail.
pub fn fill(template: &str, vars: &[(&str, &str)]) -> String {
    let mut out = String::new();
    fill_into(&mut out, template, vars, None);
    out
}

/// [`fill`] into `out` (emptied first), reusing its buffer: a value can be a whole transcript.
/// Returns where the value of the placeholder `mark` was first written, if it was.
pub fn fill_into(
    out: &mut String,
    template: &str,
    vars: &[(&str, &str)],
    mark: Option<&str>,
) -> Option<usize> {
    // Sized first: growing a transcript-sized buffer piece by piece costs more than the filling.
    let mut len = 0;
    pieces(template, vars, |piece, _| len += piece.len());
    make_room(out, len);
    let mut marked = None;
    pieces(template, vars, |piece, key| {
        if marked.is_none() && key.is_some() && key == mark {
            marked = Some(out.len());
        }
        out.push_str(piece);
    });
    marked
}

/// [`fill_into`] for a prompt that continues `out`: the last one filled from the same template,
/// whose `mark` value was copied at `prior` (start, length) and has only grown since (a
/// transcript). The text before the value is compared, the value's new end and the text after it
/// written; the long middle stays where it is. `None` when the text before the value differs or
/// the value shrank: the caller fills afresh (`out` may have been cut by then).
pub fn continue_into(
    out: &mut String,
    prior: (usize, usize),
    template: &str,
    vars: &[(&str, &str)],
    mark: &str,
) -> Option<usize> {
    let (start, old_len) = prior;
    let (mut at, mut same) = (0, true);
    let mut marked = None;
    pieces(template, vars, |piece, key| {
        if marked.is_some() || !same {
            return;
        }
        if key == Some(mark) {
            marked = Some(at);
        } else {
            same = out.get(at..at + piece.len()) == Some(piece);
            at += piece.len();
        }
    });
    let value = vars.iter().find(|(key, _)| *key == mark)?.1;
    let grown = value.get(old_len..)?;
    let end = start + old_len;
    if !same || marked != Some(start) || out.len() < end || !out.is_char_boundary(end) {
        return None;
    }
    out.truncate(end);
    out.push_str(grown);
    let mut after = false;
    pieces(template, vars, |piece, key| {
        if after {
            out.push_str(piece);
        }
        after |= key == Some(mark);
    });
    Some(start)
}

/// A buffer to build a prompt in: the last prompt of the same agent and purpose to continue, with
/// where its history was copied (start, length), or an empty one to fill afresh.
pub struct Draft {
    pub text: String,
    pub prior: Option<(usize, usize)>,
}

impl Draft {
    /// `template` filled with `vars`, continuing the last prompt where it can ([`continue_into`]),
    /// else afresh ([`fill_into`]); with where the value of `mark` was written.
    pub fn fill(mut self, template: &str, vars: &[(&str, &str)], mark: &str) -> (String, Option<usize>) {
        let at = self
            .prior
            .and_then(|p| continue_into(&mut self.text, p, template, vars, mark))
            .or_else(|| fill_into(&mut self.text, template, vars, Some(mark)));
        (self.text, at)
    }
}

/// Empties `out` and makes room in it for `len` bytes. A buffer too small is replaced, not grown
/// (growing copies what it held), by one with an eighth more: the next prompt built in it is this
/// one and a speech longer.
pub fn make_room(out: &mut String, len: usize) {
    out.clear();
    if out.capacity() < len {
        *out = String::with_capacity(len + len / 8);
    }
}

/// Hands `emit` the filled text of `template`, piece by piece, with the placeholder's name for a
/// value.
fn pieces<'a>(
    template: &'a str,
    vars: &[(&'a str, &'a str)],
    mut emit: impl FnMut(&'a str, Option<&'a str>),
) {
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        emit(&rest[..open], None);
        let after = &rest[open + 1..];
        let key_len = after.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'));
        let value = match key_len {
            Some(len) if len > 0 && after[len..].starts_with('}') => {
                vars.iter().find(|(k, _)| *k == &after[..len]).map(|(k, v)| (len, *k, *v))
            }
            _ => None,
        };
        match value {
            Some((len, key, v)) => {
                emit(v, Some(key));
                rest = &after[len + 1..];
            }
            None => {
                // Not a placeholder we know (JSON examples in the rules, a user's braces).
                emit("{", None);
                rest = after;
            }
        }
    }
    emit(rest, None);
}

/// The line a scenario with a language adds to what every call sends (no seed has one: a
/// scenario without a language sends the seeds' texts byte for byte). It asks for the words in
/// that language and leaves what a method reads (names, numbers, its formats) as asked.
pub const LANGUAGE_LINE: &str =
    "Write every reply in {language}. Keep names, numbers and any format you are asked for exactly as asked.";

/// The first line of every agent's view of the conversation (seed 000's `reset`).
pub const HISTORY_HEADER: &str = "Here is the conversation so far.";

/// Seed 000/002: the debate as the candidates see it.
pub const DEBATE_DESCRIPTION: &str =
    "Here is the topic for the presidential debate: {topic}.\nThe presidential candidates are: {names}.";

/// Seed 000: a candidate's header.
pub const DEBATE_HEADER: &str = "{description_of_conversation}\nYour name is {name}.\nYou are a {role}.\nYour description is as follows: {description}\nYou are debating the topic: {topic}.\nYour goal is to be as creative as possible and make the voters think you are the best candidate.\n";

/// Seed 000: a candidate's system message, built on the header. It ends with the notebook's
/// indentation (a line break and four spaces), as the notebook sends it.
pub const DEBATE_SYSTEM: &str = "{header}\nYou will speak in the style of {name}, and exaggerate their personality.\nYou will come up with creative ideas related to {topic}.\nDo not say the same things over and over again.\nSpeak in the first person from the perspective of {name}\nFor describing your own body movements, wrap your description in '*'.\nDo not change roles!\nDo not speak from the perspective of anyone else.\nSpeak only from the perspective of {name}.\nStop speaking the moment you finish speaking from your perspective.\nNever forget to keep your response to {word_limit} words!\nDo not add anything else.\n    ";

/// Seed 004: the talk show as its people see it.
pub const SHOW_DESCRIPTION: &str = "This is a Daily Show episode discussing: {topic}.\nIt features {people}.";

/// Seed 004: a person's header.
pub const SHOW_HEADER: &str = "{description_of_conversation}\n\nYour name is {name}, your role is {role}, and you are located in {location}.\n\nYour description is as follows: {description}\n\nYou are discussing the topic: {topic}.\n\nYour goal is to provide the most informative, creative, and novel perspectives of the topic from the perspective of your role and your location.\n";

/// Seed 004: a person's system message.
pub const SHOW_SYSTEM: &str = "{header}\nYou will speak in the style of {name}, and exaggerate your personality.\nDo not say the same things over and over again.\nSpeak in the first person from the perspective of {name}\nFor describing your own body movements, wrap your description in '*'.\nDo not change roles!\nDo not speak from the perspective of anyone else.\nSpeak only from the perspective of {name}.\nStop speaking the moment you finish speaking from your perspective.\nNever forget to keep your response to {word_limit} words!\nDo not add anything else.";

/// Seed 000: the bid request. `{header}` is the agent's header. It ends with the notebook's
/// indentation, as the notebook sends it.
pub const BID_TEMPLATE: &str = "{header}\n\n```\n{message_history}\n```\n\nOn the scale of 1 to 10, where 1 is not contradictory and 10 is extremely contradictory, rate how contradictory the following message is to your ideas.\n\n```\n{recent_message}\n```\n\n{format_instructions}\nDo nothing else.\n    ";

/// Seed 000: how a bid or a director's index must be written.
pub const INT_FORMAT_INSTRUCTIONS: &str =
    "Your response should be an integer delimited by angled brackets, like this: <int>.";

/// Seed 000: the pattern that reads a bid.
pub const BID_PATTERN: &str = r"<(\d+)>";

/// Seed 000: the system message of the character describer.
pub const DESCRIBER_SYSTEM: &str = "You can add detail to the description of each presidential candidate.";

/// Seed 000: asks for a character description (the indents are the notebook's, inside its
/// triple-quoted f-string).
pub const DESCRIBER_PROMPT: &str = "{description_of_conversation}\n            Please reply with a creative description of the {role}, {name}, in {word_limit} words or less, that emphasizes their personalities.\n            Speak directly to {name}.\n            Do not add anything else.";

/// Seed 000: the system message of the topic specifier.
pub const SPECIFIER_SYSTEM: &str = "You can make a task more specific.";

/// Seed 000: asks for a more specific topic (the indents are the notebook's; `{names_tuple}` is
/// its `{*character_names,}`, which Python writes as a tuple: `('A', 'B')`).
pub const SPECIFIER_PROMPT: &str = "{description_of_conversation}\n\n        You are the debate moderator.\n        Please make the debate topic more specific.\n        Frame the debate topic as a problem to be solved.\n        Be creative and imaginative.\n        Please reply with the specified topic in {word_limit} words or less.\n        Speak directly to the presidential candidates: {names_tuple}.\n        Do not add anything else.";

/// The names as Python writes a tuple of strings (`{*names,}` in an f-string): each name in
/// single quotes (double quotes when it holds a single quote and no double quote, as `repr`
/// chooses), backslashes and the chosen quote escaped.
pub fn python_tuple(names: &[String]) -> String {
    let items: Vec<String> = names
        .iter()
        .map(|n| {
            let q = if n.contains('\'') && !n.contains('"') { '"' } else { '\'' };
            let mut out = String::from(q);
            for c in n.chars() {
                if c == '\\' || c == q {
                    out.push('\\');
                }
                out.push(c);
            }
            out.push(q);
            out
        })
        .collect();
    match items.len() {
        1 => format!("({},)", items[0]),
        _ => format!("({})", items.join(", ")),
    }
}

/// Seed 004: the director's comment when the show goes on.
pub const DIRECTOR_REFLECTION: &str =
    "{message_history}\n\nFollow up with an insightful comment.\n{clause}\n{prefix}";

/// Seed 004: added to the reflection when the conversation continues.
pub const DIRECTOR_CONTINUATION: &str =
    "Do not end the conversation. Keep the conversation going by adding your own ideas.";

/// Seed 004: the director's choice of the next speaker.
pub const DIRECTOR_CHOICE: &str = "{message_history}\n\nGiven the above conversation, select the next speaker by choosing index next to their name:\n{speaker_names}\n\n{format_instructions}\n\nRespond ONLY with the number, no extra words.\n\nGenerated number is not allowed to surpass the total number of {speaker_names}\nDo nothing else.";

/// Seed 004: the director prompts the chosen speaker.
pub const DIRECTOR_PROMPT: &str = "{message_history}\n\nThe next speaker is {next_speaker}.\nPrompt the next speaker to speak with an insightful question.\n{prefix}";

/// Seed 004: the director's closing summary when the stop draw says stop.
pub const DIRECTOR_SUMMARY: &str = "{message_history}\n\nProvide a final witty summary that:\nRecaps the key satirical points about '{topic}'\nEnds with a memorable punchline\nAvoids introducing new topics\n*Use asterisks for physical gestures*\n{prefix}";

/// Not a seed's: the closing summary of a director put over a conversation that is not seed
/// 004's satirical show (a debate switched to the director method), in the summary's place.
pub const MODERATOR_SUMMARY: &str = "{message_history}\n\nProvide a short closing summary that:\nRecaps the main point each participant made about '{topic}'\nThanks the participants\nAvoids introducing new topics\n{prefix}";

/// Not a seed's: the role of the moderator added to direct a conversation switched to the
/// director method when none of its cast hosts it.
pub const MODERATOR_ROLE: &str = "moderator";

/// Seed 003: a debater's instructions when handing off by saying "Transition to X".
/// The seed writes three Python strings side by side, which join with no space between them
/// ("...{topic}.Start your response..."); that is what it sends, so that is the default.
pub const HANDOFF_TEXT_INSTRUCTIONS: &str = "You are an agent debating with other agents about a proposition that you {stance}: {topic}.Start your response with '{name}:'. Limit your response to 1-2 sentences mimicking a real person.After you respond, you can transition to the next agent by saying either {transitions}.";

/// Seed 003: a debater's instructions when handing off by tool call.
pub const HANDOFF_TOOL_INSTRUCTIONS: &str = "You are a \"{name}\" agent debating with other agents about a proposition that you {stance}: {topic}.\nAlways call `handoff(response, next_agent_name)` function to debate and then transition to the next agent.";

/// Seed 003: the handoff tool's description.
pub const HANDOFF_TOOL_DESCRIPTION: &str = "Debate response and transition to the next agent.";

/// Seed 003: the handoff tool's `response` parameter.
pub const HANDOFF_RESPONSE_DESCRIPTION: &str = "The debate response based on the previous debate history (1-2 concise sentences). Start response with the agent's name (e.g. \"Proponent: <response>\").";

/// Seed 003: the handoff tool's `next_agent_name` parameter.
pub const HANDOFF_NEXT_DESCRIPTION: &str =
    "The next agent name to transition to. Always transition to a different agent.";

/// Seed 003: the pattern that reads a spoken handoff; `{names}` becomes `a|b|c`.
pub const HANDOFF_PATTERN: &str = "(?i)transition to ({names})";

/// Seed 001: the rules of the trading game.
pub const NEGOTIATION_RULES: &str = "\nRULES of the TRADING GAME between two players named {player1} and {player2}.\n\nEach player's inventory is private and consists of three resources, {resource_list}.\nThe higher the quantity of a resource a player has, the higher the value of that resource.\nThe value of a resource is determined by a scale that increases exponentially with quantity.\nThe goal of the game is to maximize the total value of the resources in all players' inventories (OVERALL SCORE).\n\nThe game is played in turns, with each player taking one action per turn.\nTurns alternate between the two players, starting with {player1}.\nTrading is the only way to exchange resources between players.\nPlayers can choose to end the game when they think subsequent trades will be rejected or not beneficial.\n\nEach player can do one of 4 actions: propose a trade, accept a trade, reject a trade or end the game.\nPropose a trade: A proposed trade must barter the same quantity of one resource for another.\nA player can only propose a trade if they have sufficient quantity of the resource they are trading away.\nAccept a trade: A player can only accept a trade if they have sufficient quantity of the resource that they in turn are trading away.\nReject a trade: A player can reject a trade if they do not have sufficient quantity of the resource, or if it would lead to lower OVERALL SCORE.\nEnd game: If both players select the end game action, the game ends and the overall value of both players' inventories are tallied up to produce the OVERALL SCORE.\nNOTE: BOTH players must select the end game action during their respective turns for the game to end.\n\nEach of the four actions must be formatted as a valid json object that can be parsed by python json.loads:\nExample of proposing a trade = {'action': 'TRADE', 'sell_resource': '{example_sell}', 'buy_resource': '{example_buy}', 'quantity': 5}\nExample of accepting a trade = {'action': 'ACCEPT'}\nExample of rejecting a trade = {'action': 'REJECT'}\nExample of ending the game = {'action': 'END'}\n";

/// Seed 001: tells a player its name.
pub const NEGOTIATION_NAME: &str = "In the trading game, you are named {player}.\n";

/// Seed 001: tells a player its inventory; `{inventory}` reads like "4 WOOD, 3 STONE, and 2 GOLD".
pub const NEGOTIATION_INVENTORY: &str = "Your inventory consists of {inventory}.";

/// Seed 001: introduces the transcript.
pub const NEGOTIATION_TRANSCRIPT: &str = "This is the transcript of the conversation so far.";

/// Seed 001: the players' starting strategy prompt, which the optimizer rewrites.
pub const NEGOTIATION_STRATEGY: &str = "STOCKPILE THESE RESOURCES: N/A";

/// Seed 001: feedback after a game.
pub const NEGOTIATION_FEEDBACK: &str = "The game has ended. {player1} has inventory with value of {value1} and {player2} has inventory with value of {value2}.\nOVERALL SCORE: {overall}";

/// Seed 001: added to the feedback when the score is below the optimum.
pub const NEGOTIATION_FEEDBACK_BELOW: &str =
    "\nOVERALL SCORE is less than optimal. Find better trades to increase the OVERALL SCORE.";

/// The optimizer's instructions (seed 001 uses an optimizer library; this states its task).
pub const OPTIMIZER_SYSTEM: &str = "You improve the strategy prompts of the players of a trading game so that the OVERALL SCORE of the next game is higher. You see the rules, each player's starting inventory, the last game's transcript, the prompts used and the feedback.";

/// The optimizer's request.
pub const OPTIMIZER_PROMPT: &str = "{rules}\nStarting inventories:\n{inventories}\n\nTranscript of the last game:\n{transcript}\nPrompts used:\n{prompts}\n\nFeedback:\n{feedback}\n\nReply with a JSON object whose keys are the player names ({players}) and whose values are the new prompts. Keep a prompt unchanged by repeating it.";

/// AutoGen's SelectorGroupChat (`selector_prompt`): the selector model names the next speaker.
/// `{participants}` is the candidates as a Python list, `{roles}` one `name: description` line
/// per agent.
pub const SELECTOR_PROMPT: &str = "You are in a role play game. The following roles are available:\n{roles}.\nRead the following conversation. Then select the next role from {participants} to play. Only return the role.\n\n{history}\n\nRead the above conversation. Then select the next role from {participants} to play. Only return the role.\n";

/// SelectorGroupChat's reply to an answer that names no agent.
pub const SELECTOR_NO_NAME: &str = "No valid name was mentioned. Please select from: {participants}.";

/// SelectorGroupChat's reply to an answer that names several agents.
pub const SELECTOR_MANY_NAMES: &str =
    "Expected exactly one name to be mentioned. Please select only one from: {participants}.";

/// SelectorGroupChat's reply to an answer that names the last speaker when repeats are off.
pub const SELECTOR_REPEATED: &str =
    "Repeated speaker is not allowed, please select a different name from: {participants}.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filling_into_a_buffer_marks_where_a_value_went() {
        let mut out = String::from("left over from an earlier prompt");
        let at = fill_into(
            &mut out,
            "{a} and {history}, {a} {x}",
            &[("a", "one"), ("history", "H: hi")],
            Some("history"),
        );
        assert_eq!(out, "one and H: hi, one {x}");
        assert_eq!(at, Some(8));
        assert_eq!(&out[8..13], "H: hi");
        assert_eq!(fill_into(&mut out, "no history here", &[("history", "H")], Some("history")), None);
        assert_eq!(out, "no history here");
    }

    #[test]
    fn a_continued_prompt_is_the_prompt_filled_afresh() {
        let template = "{head}\n```\n{history}\n```\nLast: {recent} ({history})";
        let mut history = String::from("Conversation:");
        let mut out = String::new();
        let mut prior = None;
        for i in 0..12 {
            history.push_str(&format!("\nAgent {}: point {i}, ünï ✓", i % 3));
            let head = if i < 6 { "Header one." } else { "Header two, longer." };
            let recent = format!("point {i}");
            let vars = [("head", head), ("history", history.as_str()), ("recent", recent.as_str())];
            let fresh = fill(template, &vars);
            let continued = prior.and_then(|p| continue_into(&mut out, p, template, &vars, "history"));
            if continued.is_none() {
                fill_into(&mut out, template, &vars, Some("history"));
            }
            assert_eq!(out, fresh, "call {i}");
            // The header changed at call 6: that one is filled afresh, the others continue.
            assert_eq!(continued.is_some(), i != 0 && i != 6, "call {i}");
            prior = Some((head.len() + 5, history.len()));
        }
        // A value that shrank, or a prior span past the buffer's end, is not continued.
        let vars = [("head", "Header two, longer."), ("history", "Conversation:"), ("recent", "")];
        assert_eq!(continue_into(&mut out.clone(), prior.unwrap(), template, &vars, "history"), None);
        assert_eq!(continue_into(&mut String::from("Header"), (0, 40), "{history}", &vars, "history"), None);
    }

    #[test]
    fn names_are_written_as_python_writes_a_tuple() {
        let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(python_tuple(&names(&["Donald Trump", "Kanye West"])), "('Donald Trump', 'Kanye West')");
        assert_eq!(python_tuple(&names(&["Solo"])), "('Solo',)");
        assert_eq!(python_tuple(&names(&["O'Brien", "a\\b"])), r#"("O'Brien", 'a\\b')"#);
        assert_eq!(python_tuple(&names(&["it's \"x\""])), r#"('it\'s "x"',)"#);
    }

    #[test]
    fn fill_replaces_known_placeholders_and_keeps_the_rest() {
        let out = fill("{a} and {b} but {c} {", &[("a", "1"), ("b", "two")]);
        assert_eq!(out, "1 and two but {c} {");
    }

    #[test]
    fn fill_does_not_recurse_into_values() {
        assert_eq!(fill("{x}", &[("x", "{x}")]), "{x}");
    }

    #[test]
    fn rules_keep_the_seed_examples_after_filling() {
        let rules =
            fill(NEGOTIATION_RULES, &[("player1", "Alice"), ("player2", "Bob"), ("example_sell", "WOOD")]);
        assert!(rules.contains("between two players named Alice and Bob."));
        assert!(rules.contains("{'action': 'ACCEPT'}"));
        assert!(rules.contains("'sell_resource': 'WOOD'"));
    }
}
