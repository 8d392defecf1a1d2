def ask_for_bid(agent):
    """How much the agent wants the floor: the bid prompt, read with BID_PATTERN, asked
    BID_ATTEMPTS times at most, DEFAULT_BID when no reply can be read."""
    prompt = fill(
        BID_TEMPLATE,
        header=agent.header,
        message_history="\n".join(agent.message_history),
        recent_message=agent.message_history[-1],
        format_instructions=BID_FORMAT_INSTRUCTIONS,
    )
    for attempt in range(1, BID_ATTEMPTS + 1):
        bid = read_integer(answer(ask(agent.name, [system(prompt)], temperature=TEMPERATURE)), BID_PATTERN, WHOLE_REPLY_FALLBACK)
        if bid is not None:
            return bid, attempt
    return DEFAULT_BID, None


def select_next_speaker(step, agents):
    """Every agent bids; the highest bid speaks, a tie is drawn at random."""
    print("Bids:")
    bids = []
    for agent in agents:
        bid, attempt = ask_for_bid(agent)
        note = f" (no valid bid after {BID_ATTEMPTS} attempts: defaulted to {bid})" if attempt is None else f" (read on attempt {attempt})" if attempt > 1 else ""
        print(f"\t{agent.name} bid: {bid}{note}")
        bids.append(bid)
    tied = [i for i, b in enumerate(bids) if b == max(bids)]
    chosen = rng.choice(tied)
    if len(tied) > 1:
        names = " and ".join(agents[i].name for i in tied)
        print(f"Selected: {agents[chosen].name} (chosen by the run's seeded draw among {names})\n")
    else:
        print(f"Selected: {agents[chosen].name}\n")
    return chosen


simulator = DialogueSimulator(agents, select_next_speaker)


def play_turn(turn):
    simulator.step()
