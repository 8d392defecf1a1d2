// The model built into the browser (the Prompt API's `LanguageModel`: Gemini Nano in Chrome,
// Phi-4-mini in Edge), fetched only when a scenario runs on it: what its settings (the app's
// `app::builtin::Settings`) ask of the browser (whether it has the model, its download with
// progress, its context window) and the calls of a run. One
// session per agent and system prompt, which reads the system prompt once; each call prompts a
// clone of it, so no call sees another's conversation. Replies Agora parses are held to their
// form by `responseConstraint` (a RegExp for a bid or a choice, a JSON schema for an object).

const OPTIONS = {
  expectedInputs: [{ type: 'text', languages: ['en'] }],
  expectedOutputs: [{ type: 'text', languages: ['en'] }],
};

const api = () => globalThis.LanguageModel;
/** Sessions by system prompt, each a promise (two agents asking at once share one). */
const bases = new Map();
let contextWindow = 0;
let download = { loaded: 0, active: false };
/** The app's settings, told of the download and the context window as they change, by number. */
const watchers = new Map();
let watched = 0;
const tell = () => watchers.forEach((fn) => fn(download.loaded, download.active, contextWindow));

const MISSING =
  'This browser has no built-in model: the Prompt API (LanguageModel) is missing. Chrome 148 or later ' +
  'on a Windows, macOS, Linux or ChromeOS desktop with enough memory has one (Gemini Nano); Edge ' +
  'offers Phi-4-mini behind a flag. A page opened over plain http from another machine does not get it.';

/** What the browser says of its model: { state, words, reason }. */
export async function availability() {
  const LM = api();
  if (typeof LM !== 'function' && typeof LM !== 'object') return { state: 'missing', words: MISSING, reason: '' };
  let state;
  try {
    state = await LM.availability(OPTIONS);
  } catch (e) {
    const reason = e?.message || String(e);
    return { state: 'unavailable', words: `The built-in model is unavailable: the browser says "${reason}".`, reason };
  }
  if (state === 'available') return { state, words: 'Available: the built-in model is ready on this device.', reason: '' };
  if (state === 'downloadable') {
    return { state, words: 'Downloadable: about 4 GB, once, kept by the browser for every site that uses it.', reason: '' };
  }
  if (state === 'downloading') return { state, words: 'Downloading: the browser is fetching its model.', reason: '' };
  // The API gives no reason with "unavailable"; creating a session does, in its error.
  let reason = '';
  try {
    (await LM.create(OPTIONS)).destroy?.();
  } catch (e) {
    reason = e?.message || String(e);
  }
  return {
    state: 'unavailable',
    words: `Unavailable on this device${reason ? `: the browser says "${reason}"` : ''}. The offline demo or the model in the tab run anywhere.`,
    reason,
  };
}

/** A DOMException or error in words a person can act on. */
function explain(e) {
  const message = e?.message || String(e);
  switch (e?.name) {
    case 'QuotaExceededError':
      return `the conversation no longer fits the built-in model's context window${contextWindow ? ` (${contextWindow} tokens)` : ''}: lower the word limit or the number of turns (the browser says "${message}")`;
    case 'NotSupportedError':
      return `the built-in model cannot answer this call (the browser says "${message}")`;
    case 'NotAllowedError':
      return `the browser did not allow the built-in model: its download needs a click on the page, and a site's permissions policy can forbid it (the browser says "${message}")`;
    case 'NetworkError':
      return `the built-in model's download failed (the browser says "${message}")`;
    case 'InvalidStateError':
      return `the built-in model's session was closed (the browser says "${message}")`;
    default:
      return `the built-in model failed (the browser says "${message}")`;
  }
}

const monitor = (m) => {
  m.addEventListener('downloadprogress', (e) => {
    download = { loaded: e.loaded, active: e.loaded < 1 };
    tell();
  });
};

/** The session for a system prompt, made once. */
function base(system, signal) {
  if (!bases.has(system)) {
    const made = api()
      .create({ ...OPTIONS, monitor, signal, initialPrompts: system ? [{ role: 'system', content: system }] : [] })
      .then((s) => {
        contextWindow = s.contextWindow ?? s.inputQuota ?? contextWindow;
        tell();
        return s;
      });
    made.catch(() => bases.delete(system));
    bases.set(system, made);
  }
  return bases.get(system);
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** The constraint that holds a reply of the form `reply` (see src/reply.rs), if any. */
function constraint(reply) {
  const range = (lo, hi) => Array.from({ length: hi - lo + 1 }, (_, i) => String(lo + i)).reverse();
  switch (reply?.kind) {
    case 'number':
      return new RegExp(`^<(${range(reply.lo, reply.hi).join('|')})>$`);
    case 'name':
      return new RegExp(`^(${reply.options.map(escape).join('|')})$`);
    case 'handoff':
      return new RegExp(`^${escape(reply.agent)}: [^\\n]+ Transition to (${reply.options.map(escape).join('|')})\\.$`);
    case 'object':
    case 'schema':
      return reply.schema;
    case 'action':
      return {
        type: 'object',
        properties: {
          action: { type: 'string', enum: ['ACCEPT', 'REJECT', 'END', 'TRADE'] },
          sell_resource: { type: 'string', enum: reply.resources },
          buy_resource: { type: 'string', enum: reply.resources },
          quantity: { type: 'integer', minimum: 1, maximum: 99 },
        },
        required: ['action'],
        additionalProperties: false,
      };
    case 'prompts':
      return {
        type: 'object',
        properties: Object.fromEntries(reply.players.map((p) => [p, { type: 'string' }])),
        required: reply.players,
        additionalProperties: false,
      };
    default:
      return undefined;
  }
}

async function measure(session, input) {
  const how = session.measureContextUsage ?? session.measureInputUsage;
  if (typeof how !== 'function') return Math.ceil(JSON.stringify(input).length / 4);
  return Math.round(await how.call(session, input));
}

/**
 * Answers one call: `body` is the JSON the app sends the in-tab engine (messages, reply).
 * `onText(textSoFar)` follows a streamed speech. Resolves to the engine's answer shape.
 */
export async function complete(body, onText, signal) {
  const req = JSON.parse(body);
  if (signal?.aborted) throw new Error('cancelled');
  const LM = api();
  if (!LM) throw new Error(MISSING);
  const messages = req.messages.map((m) => ({ role: m.role, content: String(m.content ?? '') }));
  // A system prompt followed by a conversation is the agent's own (its session is kept); a
  // system prompt alone (the seeds' bid, the director's calls) is the call itself, asked of a
  // session without one.
  let system = '';
  if (messages[0]?.role === 'system' && messages.length > 1) system = messages.shift().content;
  else if (messages[0]?.role === 'system') messages[0] = { role: 'user', content: messages[0].content };
  // The Prompt API takes a conversation that ends with the user's turn.
  if (!messages.length || messages.at(-1).role !== 'user') messages.push({ role: 'user', content: 'Go on.' });
  let session;
  try {
    session = await (await base(system, signal)).clone({ signal });
    const responseConstraint = constraint(req.reply);
    const options = { signal, ...(responseConstraint ? { responseConstraint } : {}) };
    const promptTokens = await measure(session, messages);
    let content = '';
    if (req.reply?.kind === 'text' && req.reply.streams) {
      const reader = session.promptStreaming(messages, options).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        // Chrome's stream sends each new piece; an older one sent the whole text so far.
        content = value.startsWith(content) && content ? value : content + value;
        onText?.(content);
      }
    } else {
      content = await session.prompt(messages, options);
    }
    const written = content ? await measure(session, content) : 0;
    return { content, prompt_tokens: promptTokens, completion_tokens: written, finish_reason: 'stop', timings: null };
  } catch (e) {
    if (signal?.aborted || e?.name === 'AbortError') throw new Error('cancelled');
    throw new Error(explain(e));
  } finally {
    session?.destroy?.();
  }
}

/**
 * Has `fn(loaded, active, contextWindow)` told of the download's progress and the context window
 * as they change, at once too; the number it gives stops it (`unwatch`).
 */
export function watch(fn) {
  watched += 1;
  watchers.set(watched, fn);
  fn(download.loaded, download.active, contextWindow);
  return watched;
}

export function unwatch(id) {
  watchers.delete(id);
}

/** Downloads the model (a click's gesture must start it): '' once it is there, else why not. */
export async function fetchModel() {
  download = { loaded: 0, active: true };
  tell();
  try {
    await base('', undefined);
    return '';
  } catch (e) {
    return `The download did not start: ${explain(e)}`;
  } finally {
    download = { loaded: download.loaded, active: false };
    tell();
  }
}
