def listed(items):
    return items[0] if len(items) == 1 else " and ".join(items) if len(items) == 2 else ", ".join(items[:-1]) + ", and " + items[-1]


def describe_inventory(quantities):
    return listed([f"{q} {r}" for r, q in zip(RESOURCES, quantities)])


def value_of(inventory):
    """A resource's value grows with its quantity along VALUE_SCALE (index = quantity - 1)."""
    return sum(VALUE_SCALE[min(q, len(VALUE_SCALE)) - 1] for q in inventory if q > 0)


def parse_action(reply):
    """The JSON object in a reply, as an action: TRADE (with sell_resource, buy_resource and a
    whole quantity), ACCEPT, REJECT or END. Raises ValueError with what is wrong."""
    start, end = reply.find("{"), reply.rfind("}")
    if start < 0 or end <= start:
        raise ValueError("the reply has no JSON object")
    text = reply[start : end + 1]
    try:
        value = json.loads(text)
    except ValueError:
        if '"' in text:
            raise
        value = json.loads(text.replace("'", '"'))
    if not isinstance(value, dict) or not isinstance(value.get("action"), str):
        raise ValueError('no "action" field')
    kind = value["action"].strip().upper()
    if kind in ("ACCEPT", "REJECT", "END"):
        return {"action": kind}
    if kind != "TRADE":
        raise ValueError(f'unknown action "{kind}"')
    quantity = value.get("quantity")
    if isinstance(quantity, float) and quantity.is_integer():
        quantity = int(quantity)
    if isinstance(quantity, str) and re.fullmatch(r"[+-]?[0-9]+", quantity.strip()):
        quantity = int(quantity)
    if not isinstance(quantity, int) or isinstance(quantity, bool):
        raise ValueError('a TRADE needs a whole-number "quantity"')
    for key in ("sell_resource", "buy_resource"):
        if not isinstance(value.get(key), str):
            raise ValueError(f'a TRADE needs "{key}"')
    return {"action": "TRADE", "sell_resource": value["sell_resource"].strip().upper(), "buy_resource": value["buy_resource"].strip().upper(), "quantity": quantity}


class Game:
    """One trading game: the inventories, the trade on the table, who asked to end."""

    def __init__(self):
        self.inventories = [list(i) for i in INVENTORIES]
        self.pending = None  # (proposer, sell, buy, quantity)
        self.end_by = None

    def resource(self, name):
        found = [i for i, r in enumerate(RESOURCES) if r.upper() == name.upper()]
        if not found:
            raise ValueError(f'unknown resource "{name}"')
        return found[0]

    def apply(self, player, action):
        """Plays a move; returns what it did, or raises ValueError when the rules forbid it."""
        other = 1 - player
        if action["action"] == "TRADE":
            self.pending = self.end_by = None
            sell, buy, quantity = self.resource(action["sell_resource"]), self.resource(action["buy_resource"]), action["quantity"]
            if sell == buy:
                raise ValueError("a trade must exchange two different resources")
            if quantity <= 0:
                raise ValueError("the quantity must be at least 1")
            if self.inventories[player][sell] < quantity:
                raise ValueError(f"the proposer has only {self.inventories[player][sell]} {RESOURCES[sell]}")
            if self.inventories[other][buy] < quantity:
                raise ValueError(f"the other player has only {self.inventories[other][buy]} {RESOURCES[buy]}")
            self.pending = (player, sell, buy, quantity)
            return "proposed"
        if action["action"] == "ACCEPT":
            if self.pending is None:
                if self.end_by == other:
                    return "game over"
                raise ValueError("there is no proposal to accept")
            by, sell, buy, quantity = self.pending
            if by == player:
                raise ValueError("a player cannot accept its own proposal")
            self.pending = None
            if self.inventories[by][sell] < quantity or self.inventories[player][buy] < quantity:
                raise ValueError("the trade is no longer affordable")
            self.inventories[by][sell] -= quantity
            self.inventories[player][sell] += quantity
            self.inventories[player][buy] -= quantity
            self.inventories[by][buy] += quantity
            return "trade done"
        if action["action"] == "REJECT":
            self.pending = self.end_by = None
            return "rejected"
        if self.end_by == other:
            return "game over"
        self.end_by = player
        return "asked to end"


players = [AGENTS[0]["name"], AGENTS[1]["name"]]
prompts = [a["system_prompt"] if a["system_prompt"] is not None else STRATEGY for a in AGENTS[:2]]
rules = fill(RULES, player1=players[0], player2=players[1], resource_list=listed(RESOURCES), example_sell=RESOURCES[0], example_buy=RESOURCES[1])
iteration, game_turn, game, conversation = 0, 0, None, []


def action_request(player):
    """What a player reads: the rules, its name, its strategy prompt, its inventory and the
    transcript of this game so far."""
    messages = [
        system(rules),
        system(fill(NAME_MESSAGE, player=players[player])),
        system(prompts[player]),
        user(fill(INVENTORY_MESSAGE, inventory=describe_inventory(game.inventories[player]))),
    ]
    if conversation:
        messages += [user(TRANSCRIPT_MESSAGE), user("".join(f"{players[p]} said: {raw}\n" for p, raw in conversation))]
    return messages


def end_game(reason):
    """Scores the game; unless it was the last, the optimizer rewrites both strategy prompts
    from the score and a new game starts."""
    global prompts, game, game_turn, conversation
    values = [value_of(inventory) for inventory in game.inventories]
    overall = sum(values)
    feedback = fill(FEEDBACK, player1=players[0], player2=players[1], value1=str(values[0]), value2=str(values[1]), overall=str(overall))
    if overall < OPTIMUM:
        feedback += FEEDBACK_BELOW_OPTIMUM
    print(f"{feedback}\n(optimum: {OPTIMUM})\n")
    if iteration >= ITERATIONS:
        return "game_over"
    prompt = fill(
        OPTIMIZER_PROMPT,
        rules=rules,
        inventories="\n".join(f"{players[p]}: {describe_inventory(INVENTORIES[p])}" for p in (0, 1)),
        transcript="".join(f"{players[p]} said: {raw}\n" for p, raw in conversation),
        prompts="\n".join(f"{players[p]}: {prompts[p]}" for p in (0, 1)),
        feedback=feedback,
        players=", ".join(players),
    )
    reply = answer(ask("Optimizer", [system(OPTIMIZER_SYSTEM), user(prompt)], response_format={"type": "json_object"}))
    try:
        found = json.loads(reply[reply.index("{") : reply.rindex("}") + 1])
        new = [next((v.strip() for k, v in found.items() if k.strip().lower() == p.lower() and isinstance(v, str) and v.strip()), None) for p in players]
        if all(n is None for n in new):
            raise ValueError("no new prompt for either player")
        prompts = [n or old for n, old in zip(new, prompts)]
    except (ValueError, AttributeError) as e:
        print(f"\tOptimizer: prompts kept: {e}\n")
    game, game_turn, conversation = None, 0, []


def play_turn(turn):
    """One move: the players alternate, first player first, in every game."""
    global iteration, game, game_turn
    if game is None:
        iteration, game = iteration + 1, Game()
        print(f"ITERATION {iteration}\n" + "\n".join(f"{p} {s}" for p, s in sorted(zip(players, prompts))))
        print("\n".join(f"\t{p}: {describe_inventory(game.inventories[i])}" for i, p in sorted(enumerate(players), key=lambda x: x[1])))
    player = game_turn % 2
    raw = answer(ask(players[player], action_request(player), temperature=GAME_TEMPERATURE, max_tokens=MAX_TOKENS, response_format={"type": "json_object"})).strip()
    try:
        effect = game.apply(player, parse_action(raw))
    except ValueError as e:
        effect = f"invalid: {e}"
    say(players[player], raw)
    print(f"\t{players[player]}: {effect}")
    game_turn += 1
    if effect != "game over":
        conversation.append((player, raw))
    if effect == "game over" or game_turn >= MAX_TURNS:
        return end_game("both_ended" if effect == "game over" else "turn_limit")
