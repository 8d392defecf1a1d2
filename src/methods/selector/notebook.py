def python_list(names):
    """The candidates as AutoGen writes them into its prompt: a Python list."""
    return str(list(names))


def read_reply(reply, names):
    """The one name the selector gave: exactly, then loosely (case, spaces, underscores), then
    as the only name it mentions. Returns ("named", i), ("nobody",) or ("several",)."""
    bare = reply.strip().strip("".join(c for c in set(reply) if not (c.isalnum() or c == "_")))
    for i, n in enumerate(names):
        if n == reply.strip() or n == bare:
            return ("named", i)
    loose = lambda s: "".join(c.lower() if c.isascii() else c for c in s if not (c.isspace() or c == "_"))
    if loose(bare):
        for i, n in enumerate(names):
            if loose(n) == loose(bare):
                return ("named", i)
    mentioned = [i for i, n in enumerate(names) if mentions(reply, n)]
    if len(mentioned) == 1:
        return ("named", mentioned[0])
    return ("several",) if mentioned else ("nobody",)


def mentions(text, name):
    variants = {name, name.replace("_", " "), name.replace("_", "\\_")}
    return any(v and re.search(rf"(?<!\w){re.escape(v)}(?!\w)", text) for v in variants)


previous = None


def select_next_speaker(step, agents):
    """A model reads the roles and the conversation and names the next speaker; an answer that
    names nobody, several or (with ALLOW_REPEATS off) the last speaker gets feedback and another
    try, ATTEMPTS in all, then FALLBACK decides."""
    global previous
    names = [a.name for a in agents]
    candidates = [i for i in range(len(agents)) if ALLOW_REPEATS or i != previous]
    if len(candidates) == 1:
        previous = candidates[0]
        return previous
    participants = python_list(names[i] for i in candidates)
    roles = "\n".join(" ".join(f"{a.name}: {a.description}".split()) for a in agents)
    history = "\n".join(f"{a}: {b}".rstrip() + "\n\n" for a, b in simulator.transcript)
    prompt = fill(SELECTOR_PROMPT, roles=roles, participants=participants, history=history)
    messages = [system(prompt) if PROMPT_ROLE == "system" else user(prompt)]
    chosen = None
    for attempt in range(1, ATTEMPTS + 1):
        reply = answer(ask("Selector", messages, temperature=SELECTOR_TEMPERATURE, max_tokens=SELECTOR_MAX_TOKENS))
        reading = read_reply(reply, names)
        if reading[0] == "named" and reading[1] in candidates:
            chosen = reading[1]
            break
        feedback = REPEATED_FEEDBACK if reading[0] == "named" else NO_NAME_FEEDBACK if reading[0] == "nobody" else MANY_NAMES_FEEDBACK
        messages += [assistant(reply), user(fill(feedback, participants=participants))]
    if chosen is None:
        if FALLBACK == "previous_speaker" and previous is not None:
            chosen = previous
        elif FALLBACK == "random_candidate":
            chosen = candidates[rng.randrange(len(candidates))]
        else:
            chosen = candidates[0]
    print(f"\tSelector named: {names[chosen]} (from {', '.join(names[i] for i in candidates)})")
    previous = chosen
    return chosen


simulator = DialogueSimulator(agents, select_next_speaker)


def play_turn(turn):
    simulator.step()
