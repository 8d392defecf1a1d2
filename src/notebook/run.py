turn, finished = 0, None
while finished is None:
    turn += 1
    finished = play_turn(turn)
    if finished is None and ENDS_AT_TURN_LIMIT and turn >= MAX_TURNS:
        finished = "turn_limit"
print(f"== finished: {finished}")
