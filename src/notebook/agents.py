def conversation_description():
    people = "".join(
        f"\n- {a['name']}" + (f": {a['role']}" if a["role"] else "") + (f", located in {a['location']}" if a["location"] else "")
        for a in AGENTS
    )
    return fill(CONVERSATION_DESCRIPTION, topic=TOPIC, names=", ".join(a["name"] for a in AGENTS), people=people)


class DialogueAgent:
    """An agent of the conversation: its system message and the conversation as it has heard it."""

    def __init__(self, spec, description):
        self.name = spec["name"]
        self.description = description
        values = dict(
            description_of_conversation=conversation_description(),
            name=self.name,
            role=spec["role"] or "participant",
            location=spec["location"],
            description=description,
            topic=TOPIC,
            word_limit=str(WORD_LIMIT),
        )
        self.header = fill(HEADER, **values)
        own = spec["system_prompt"]
        self.system_message = own if own is not None else fill(SYSTEM, header=self.header, **values)
        self.prefix = f"{self.name}: "
        self.reset()

    def reset(self):
        self.message_history = [HISTORY_HEADER]

    def send(self):
        """Speaks: the system message, then the conversation ending with its own name."""
        message = ask(
            self.name,
            [system(self.system_message), user("\n".join(self.message_history + [self.prefix]))],
            temperature=TEMPERATURE,
        )
        return answer(message).strip()

    def receive(self, name, message):
        self.message_history.append(f"{name}: {message}")


class DialogueSimulator:
    """Whose turn it is comes from `selection_function`; everyone hears what is said."""

    def __init__(self, agents, selection_function):
        self.agents = agents
        self.select_next_speaker = selection_function
        self._step = 0
        self.transcript = []

    def reset(self):
        for agent in self.agents:
            agent.reset()

    def inject(self, name, message):
        """A message from outside the cast (the moderator, the audience): everyone hears it."""
        for agent in self.agents:
            agent.receive(name, message)
        self._step += 1
        self.transcript.append((name, message))
        say(name, message)

    def step(self):
        speaker = self.agents[self.select_next_speaker(self._step, self.agents)]
        message = speaker.send()
        for receiver in self.agents:
            receiver.receive(speaker.name, message)
        self._step += 1
        self.transcript.append((speaker.name, message))
        say(speaker.name, message)
        return speaker.name, message


def say(name, message):
    """Prints a message as `agora run` does."""
    print(f"({name}): {message}\n")
