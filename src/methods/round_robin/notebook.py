def select_next_speaker(step, agents):
    """Each agent in the cast's order, then the first again."""
    return (step - 1) % len(agents)


simulator = DialogueSimulator(agents, select_next_speaker)


def play_turn(turn):
    simulator.step()
