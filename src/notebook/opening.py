print(f"== {TITLE} ({METHOD} method, seed {SEED})\n")

descriptions = [a["description"] for a in AGENTS]
if DESCRIBE_CHARACTERS:
    for i, a in enumerate(AGENTS):
        prompt = fill(
            DESCRIBER_PROMPT,
            description_of_conversation=conversation_description(),
            name=a["name"],
            role=a["role"],
            location=a["location"],
            word_limit=str(WORD_LIMIT),
        )
        message = ask(a["name"], [system(DESCRIBER_SYSTEM), user(prompt)], temperature=1.0)
        if not getattr(message, "refusal", None):
            descriptions[i] = answer(message).strip()
            print(f"{a['name']} Description:\n{descriptions[i]}\n")

opening = OPENING_TEXT.strip()
if SPECIFY_TOPIC:
    prompt = fill(
        SPECIFIER_PROMPT,
        description_of_conversation=conversation_description(),
        word_limit=str(WORD_LIMIT),
        names=", ".join(a["name"] for a in AGENTS),
        names_tuple=str(tuple(a["name"] for a in AGENTS)),
        topic=TOPIC,
    )
    message = ask(OPENING_SPEAKER, [system(SPECIFIER_SYSTEM), user(prompt)], temperature=1.0)
    if not getattr(message, "refusal", None):
        specified_topic = answer(message).strip()
        print(f"Original topic:\n{TOPIC}\n\nDetailed topic:\n{specified_topic}\n")
        opening = opening or specified_topic

agents = [DialogueAgent(a, d) for a, d in zip(AGENTS, descriptions)]
