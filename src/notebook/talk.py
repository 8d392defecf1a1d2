def fill(template, **values):
    """Puts each value in place of its {name}; other braces stay as they are written."""
    return re.sub(r"\{([A-Za-z0-9_]+)\}", lambda m: values.get(m.group(1), m.group(0)), template)


def system(text):
    return {"role": "system", "content": text}


def user(text):
    return {"role": "user", "content": text}


def assistant(text):
    return {"role": "assistant", "content": text}


def ask(agent, messages, temperature=None, max_tokens=None, tools=None, response_format=None):
    """One chat completion for `agent` (its own model if it has one), with the settings Agora sends."""
    body = {"model": MODELS.get(agent, MODEL), "messages": messages}
    if temperature is not None and SEND_TEMPERATURE:
        body["temperature"] = temperature
    if max_tokens is not None and TOKEN_LIMIT_FIELD:
        body[TOKEN_LIMIT_FIELD] = max_tokens
    if tools:
        body["tools"] = tools
    if response_format:
        body["response_format"] = response_format
    return client.chat.completions.create(**body).choices[0].message


def answer(message):
    """The reply's text without any <think> block before it; nothing when the model refused."""
    if getattr(message, "refusal", None):
        return ""
    return re.sub(r"^\s*<think>.*?</think>", "", message.content or "", flags=re.S)


def read_integer(text, pattern, whole_reply=False):
    """The integer the pattern's first group captures; with `whole_reply`, a reply that is only
    a number counts too. None when there is nothing to read."""
    found = re.search(pattern, text, flags=re.A)
    if found:
        try:
            return int(found.group(1) or "")
        except (IndexError, ValueError):
            return None
    if whole_reply and re.fullmatch(r"\s*[+-]?[0-9]+\s*", text):
        return int(text)
    return None
