previous = None


def select_next_speaker(step, agents):
    """A speaker drawn at random; with ALLOW_REPEATS off, never the one who spoke last."""
    global previous
    candidates = [i for i in range(len(agents)) if ALLOW_REPEATS or i != previous]
    chosen = candidates[rng.randrange(len(candidates))]
    if len(candidates) > 1:
        names = " and ".join(agents[i].name for i in candidates)
        print(f"Selected: {agents[chosen].name} (chosen by the run's seeded draw among {names})\n")
    previous = chosen
    return chosen


simulator = DialogueSimulator(agents, select_next_speaker)


def play_turn(turn):
    simulator.step()
