keys = [a["name"].lower() for a in AGENTS]
said = []  # every speech so far, as the assistant's turns each speaker reads
current = next((i for i, a in enumerate(AGENTS) if a["name"] == FIRST_SPEAKER), 0)
pattern = re.compile(fill(PATTERN, names="|".join(re.escape(k) for k in keys)))
schema = {
    "type": "object",
    "properties": {
        "response": {"type": "string", "description": RESPONSE_DESCRIPTION},
        "next_agent_name": {"type": "string", "description": NEXT_DESCRIPTION, "enum": keys},
    },
    "required": ["response", "next_agent_name"],
}


def instructions(i):
    """What speaker i is told: its side of the proposition and how to hand off."""
    a = AGENTS[i]
    if a["system_prompt"] is not None:
        return a["system_prompt"]
    transitions = " or ".join(f"'Transition to {k}'" for j, k in enumerate(keys) if j != i)
    stance = {"for": "agree with", "against": "disagree with"}.get(a["stance"], "feel neutral about")
    template = TOOL_INSTRUCTIONS if VIA == "tool" else TEXT_INSTRUCTIONS
    return fill(template, stance=stance, topic=TOPIC, name=a["name"], transitions=transitions, word_limit=str(WORD_LIMIT))


def target(name, speaker):
    """The agent a handoff names: not unknown, not the speaker itself."""
    key = name.strip().lower()
    if key not in keys:
        raise ValueError(f'"{name.strip()}" is not an agent')
    if keys.index(key) == speaker:
        raise ValueError(f'"{name.strip()}" handed off to itself')
    return keys.index(key)


def read_handoff(message, speaker):
    """The speech and the next speaker, read the way VIA says: "Transition to X" in the text, a
    handoff(response, next_agent_name) tool call, or a JSON object with those two fields."""
    if VIA == "text":
        found = pattern.search(answer(message))
        if not found:
            raise ValueError("the reply names no next speaker")
        return answer(message).strip(), target(found.group(1), speaker)
    if VIA == "tool":
        calls = [c for c in (message.tool_calls or []) if c.function.name == "handoff"]
        if not calls:
            raise ValueError("the reply made no handoff tool call")
        fields = json.loads(calls[0].function.arguments)
    else:
        fields = json.loads(answer(message).strip())
    if not isinstance(fields.get("response"), str) or not isinstance(fields.get("next_agent_name"), str):
        raise ValueError("the reply lacks a response or a next agent's name")
    return fields["response"].strip(), target(fields["next_agent_name"], speaker)


def spoken(message):
    """What a reply said when its handoff could not be read."""
    text = answer(message).strip()
    source = message.tool_calls[0].function.arguments if VIA == "tool" and message.tool_calls else text if VIA == "json" else None
    try:
        found = json.loads(source)["response"] if source else None
    except (ValueError, KeyError, TypeError):
        found = None
    return found if isinstance(found, str) else text


def play_turn(turn):
    """The current speaker speaks and names who goes next; a reply without a readable handoff
    (after ATTEMPTS tries) hands off to another agent drawn at random."""
    global current
    speaker = current
    request = dict(
        messages=[system(instructions(speaker))] + said,
        temperature=HANDOFF_TEMPERATURE,
        max_tokens=MAX_TOKENS,
        tools=[{"type": "function", "function": {"name": "handoff", "description": TOOL_DESCRIPTION, "parameters": schema}}] if VIA == "tool" else None,
        response_format={"type": "json_schema", "json_schema": {"name": "DebateResponse", "schema": schema}} if VIA == "json" else None,
    )
    for _ in range(ATTEMPTS):
        message = ask(AGENTS[speaker]["name"], **request)
        try:
            text, current = read_handoff(message, speaker)
            note = ""
            break
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            why = e
    else:
        text = spoken(message)
        current = rng.choice([i for i in range(len(AGENTS)) if i != speaker])
        note = f" (fell back to a random agent: {why})"
    said.append(assistant(text))
    say(AGENTS[speaker]["name"], text)
    print(f"Handoff ({VIA}): {AGENTS[speaker]['name']} → {AGENTS[current]['name']}{note}\n")
