class DirectorDialogueAgent(DialogueAgent):
    """The host: comments on what was said, chooses who speaks next and asks them a question;
    before each of its turns it draws whether the show ends (STOP_PROBABILITY), and then closes
    it with a summary instead."""

    def __init__(self, spec, description, speakers):
        super().__init__(spec, description)
        self.speakers = speakers
        self.next_speaker = None
        self.stopped = False

    def call(self, prompt):
        message = ask(self.name, [system(self.system_message), user(prompt)], temperature=TEMPERATURE)
        return answer(message).strip()

    def choose(self, history):
        speaker_names = "\n".join(f"{i}: {s.name}" for i, s in enumerate(self.speakers))
        prompt = fill(CHOICE, message_history=history, speaker_names=speaker_names, format_instructions=FORMAT_INSTRUCTIONS)
        for _ in range(ATTEMPTS):
            index = read_integer(answer(ask(self.name, [system(self.system_message), user(prompt)], temperature=TEMPERATURE)), PATTERN)
            if index is not None and 0 <= index < len(self.speakers):
                return self.speakers[index]
        # No readable index: FALLBACK says whom.
        chosen = self.speakers[0] if FALLBACK == "first" else rng.choice(self.speakers)
        print(f"\t(no readable index after {ATTEMPTS} attempts: {chosen.name}, the {FALLBACK} fallback)")
        return chosen

    def send(self):
        history = "\n".join(self.message_history)
        sample = rng.random()
        self.stopped = sample < STOP_PROBABILITY
        print(f"\tStop draw: drew {sample:.3f} against {STOP_PROBABILITY:.2f}: {'stop' if self.stopped else 'go on'}")
        if self.stopped:
            return self.call(fill(SUMMARY, message_history=history, topic=TOPIC, prefix=self.prefix))
        reflection = self.call(fill(REFLECTION, message_history=history, clause=CONTINUATION, prefix=self.prefix))
        self.next_speaker = self.choose(f"{history}\n{self.prefix}\n{reflection}")
        print(f"\tNext speaker: {self.next_speaker.name}")
        question = self.call(fill(PROMPT, message_history=history, next_speaker=self.next_speaker.name, prefix=self.prefix))
        return " ".join(part for part in (reflection, question) if part)


director_index = next((i for i, a in enumerate(AGENTS) if a["name"] == DIRECTOR), 0)
director = DirectorDialogueAgent(AGENTS[director_index], descriptions[director_index], [a for i, a in enumerate(agents) if i != director_index])
agents[director_index] = director


def select_next_speaker(step, agents):
    """The director, then the speaker it chose, and so on."""
    if director.next_speaker is None:
        return director_index
    chosen, director.next_speaker = director.next_speaker, None
    return agents.index(chosen)


simulator = DialogueSimulator(agents, select_next_speaker)


def play_turn(turn):
    simulator.step()
    if director.stopped:
        return "director_stopped"
