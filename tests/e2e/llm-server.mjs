// A local LLM server for the browser tests and benchmarks: OpenAI-compatible chat completions
// (with and without streaming, tool calls, JSON mode) and Anthropic Messages, with CORS, a
// configurable latency and faults on demand. Replies are made up from the prompt so whole
// simulations play: bids in <n>, director indexes, handoff tool calls, negotiation actions.
//
// Control it from tests: `server.fault(kind, times)`, `server.latency = ms`, `server.requests`
// (every request received, headers and body), `server.reset()`. Started with `{ key }`, it
// refuses (401) every request that does not carry that key, as a real provider does.
import { createServer } from 'node:http';
import { createSecureServer } from 'node:http2';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const FAULTS = ['ok', 'no-tools', '401', '403', '429', '429-retry-after', '429-quota', '500', 'malformed-chunk',
  'drop-stream', 'drop-stream-early', 'slow-first-byte', 'error-event', 'stall',
  // Servers that repeat the credential they were sent: in a 401, in a plain-text 429, in an
  // error event inside a 200 stream, and in an ordinary reply (text and tool calls).
  'echo-key-401', 'echo-key-429', 'echo-key-stream', 'echo-key-reply',
  // Other refusals: payment required, a model that does not exist, and a 200 that is not JSON.
  '402', '404', 'unreadable-200',
  // A reasoning model whose token limit ran out while it was still thinking; Anthropic overloaded.
  'think-cut', '529',
  // One reply refused (as the `refusal` persona does) or withheld by a content filter.
  'refusal', 'content-filter',
  // One reply that is prose where JSON was asked for, and one cut at its token limit halfway.
  'unreadable', 'truncate'];

/**
 * How the server answers, as a provider documents it: `openai-reasoning` (OpenAI's gpt-5 and
 * o-series: refuses max_tokens and any temperature but 1, counts reasoning tokens),
 * `mistral` (refuses fields it does not know with a 422), `think-tags` (a local reasoning model
 * through llama.cpp or LM Studio: <think> before the answer), `reasoning-field`
 * (reasoning_content: DeepSeek, vLLM), `ollama-reasoning` (reasoning: Ollama, OpenRouter),
 * `anthropic-thinking` (thinking blocks); `refusal` (a model that declines every call: over
 * OpenAI, `message.content` null and the words in `message.refusal`, streamed as `delta.refusal`
 * chunks; over Anthropic, `stop_reason: "refusal"` with `stop_details` and the text it had begun);
 * `content-filter` (`finish_reason: "content_filter"` with no content, as Azure and Gemini's
 * OpenAI-compatible endpoint send; over Anthropic, a refusal with no words); null for a plain
 * OpenAI-compatible server; `hostile` (every reply and reasoning carries {@link PAYLOAD}).
 */
export const PERSONAS = ['openai-reasoning', 'mistral', 'think-tags', 'reasoning-field', 'ollama-reasoning', 'anthropic-thinking', 'refusal', 'content-filter', 'hostile',
  // The providers of mainland China and their international platforms, as their docs and users'
  // reports show them answering (docs/providers.md): Alibaba Cloud Model Studio serving an open
  // Qwen3 model, Moonshot's Kimi K2.6, Zhipu's GLM-4.5 and later, SiliconFlow.
  'dashscope', 'moonshot', 'zhipu', 'siliconflow'];
/** Whether a model of these personas reasons before answering, as the request left it. */
const THINKS_BY_DEFAULT = {
  dashscope: (b) => b.enable_thinking !== false,
  siliconflow: (b) => b.enable_thinking !== false,
  zhipu: (b) => b.thinking?.type !== 'disabled',
  moonshot: (b) => b.thinking?.type !== 'disabled',
};

/**
 * What the `hostile` persona (a prompt-injected model) puts into every field it can: a speech,
 * a bid's or choice's reply, its reasoning, a tool call's arguments, a trading action's fields,
 * the optimizer's prompts. Run as markup, it would set `window.__pwned`; shown as text, it is
 * these characters.
 */
export const PAYLOAD = '<img src=x onerror="window.__pwned=(window.__pwned||0)+1"><script>window.__pwned=1</script>'
  + '<svg onload="window.__pwned=1"><b data-hostile="svg">x</b></svg><a href="javascript:window.__pwned=1" data-hostile="a">click me</a>'
  + '"\'><iframe data-hostile="frame" src="javascript:parent.__pwned=1"></iframe>';

/** The words the `refusal` persona declines with; `n` tells calls apart. */
export const refusalWords = (n) => `I'm sorry, but I can't help with that (${n}).`;
/** Anthropic's explanation in `stop_details` for the `refusal` persona. */
export const refusalExplanation = (n) => `This request was declined by a policy classifier (${n}).`;
/** What an Anthropic reply had begun before its refusal: kept raw, never said. */
export const REFUSAL_PARTIAL = 'Hello..';

/** A 429 for a call over the key's limit, in the words of `rate.dialect`. */
function rateRefusal(res, headers, rate, waitS, model) {
  if (rate.dialect === 'plain') {
    return res.writeHead(429, headers).end(JSON.stringify({ error: { code: '1302', message: 'Rate limit reached for requests' } }));
  }
  const perMinute = Math.round((rate.calls * 60000) / rate.windowMs);
  const metric = 'generativelanguage.googleapis.com/generate_content_free_tier_requests';
  const message = 'You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.\n'
    + `* Quota exceeded for metric: ${metric}, limit: ${perMinute}, model: ${model}\nPlease retry in ${waitS}s.`;
  return res.writeHead(429, headers).end(JSON.stringify([{ error: { code: 429, message, status: 'RESOURCE_EXHAUSTED',
    details: [{ '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaMetric: metric, quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier', quotaValue: String(perMinute) }] },
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${Math.ceil(Number(waitS))}s` }] } }]));
}

/** The models GET /v1/models lists. */
export const MODELS = ['claude-test', 'gpt-5-mini', 'test-model'];

/** Anthropic's calls carry its version header. */
const protocolOf = (headers) => (headers['anthropic-version'] ? 'anthropic' : 'openai');

/** The credential a request carried: a Bearer token or Anthropic's x-api-key. */
const receivedKey = (headers) => (headers.authorization ?? '').replace(/^Bearer /, '') || headers['x-api-key'] || '';

/** How OpenAI prints a refused key: a short prefix and the last four characters. */
export const maskedKey = (key) => `${key.slice(0, 3)}****${key.slice(-4)}`;

function hash(text) {
  let h = 2166136261;
  for (const c of text) h = Math.imul(h ^ c.codePointAt(0), 16777619) >>> 0;
  return h;
}

/** The reply to a chat request: text, or a tool call. */
function reply(body, protocol) {
  const messages = body.messages ?? [];
  const system = protocol === 'anthropic' ? (body.system ?? '') : messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n');
  // The instruction is the last message, whatever its role (bid prompts come as system text);
  // over Anthropic a prompt that was all system text arrives as the system field, with a
  // placeholder user turn.
  const placeholder = protocol === 'anthropic' && messages.length === 1 && messages[0].content === '(begin)';
  const last = placeholder ? system : (messages.at(-1)?.content ?? '');
  const all = `${system}\n${last}`;
  const h = hash(all + messages.length);
  const tools = body.tools ?? [];
  if (tools.length) {
    const tool = tools[0].function ?? tools[0];
    const params = tool.parameters ?? tool.input_schema ?? {};
    const target = params.properties?.next_agent_name?.enum;
    const names = target ?? [...all.matchAll(/"([^"]+)" agent/g)].map((m) => m[1]);
    const next = names.length ? names[h % names.length] : 'nobody';
    return { tool: { name: tool.name, arguments: JSON.stringify({ response: `Tool speech ${h % 1000}: a point on the matter.`, next_agent_name: next }) } };
  }
  // The judge scoring one speech as it lands (src/judge/rubric.rs's SPEECH_PROMPT): every
  // dimension listed, on its scale.
  if (/Score one speech against the rubric/.test(last)) {
    const listed = (last.split('Score the speech on:\n')[1] ?? '').split('\n\n')[0];
    const dims = [...listed.matchAll(/^- (.+?) \((\d+) to (\d+)\):/gm)].map((m) => [m[1], +m[2], +m[3]]);
    const speaker = (last.match(/The speech to score, by ([^(\n]+) \(/) ?? [])[1]?.trim() ?? 'someone';
    return { text: JSON.stringify({ reasoning: `${speaker} made a point (${h % 97}).`,
      scores: Object.fromEntries(dims.map(([d, lo, hi]) => [d, lo + (hash(d + h) % (hi - lo + 1))])) }) };
  }
  // The judge (src/judge/rubric.rs's prompt): a verdict scoring every participant listed on
  // every dimension of the rubric, naming turns each one spoke in.
  if (/impartial judge of a conversation/.test(last)) {
    const section = (title) => (last.split(title)[1] ?? '').split('\n\n')[0];
    const names = [...section('Participants:\n').matchAll(/^- ([^:\n]+)/gm)].map((m) => m[1].trim());
    const dims = (title) => [...section(title).matchAll(/^- (.+?) \((\d+) to (\d+)\):/gm)].map((m) => [m[1], +m[2], +m[3]]);
    const scores = (list, salt) => Object.fromEntries(list.map(([d, lo, hi]) => [d, lo + (hash(salt + d + h) % (hi - lo + 1))]));
    const turns = (n) => [...last.matchAll(/^\[turn (\d+)\] ([^:\n]+):/gm)].filter((m) => m[2] === n).map((m) => +m[1]);
    // Keyed by name, as the verdict's schema asks (src/judge.rs).
    const agents = Object.fromEntries(names.map((n) => [n, { reasoning: `${n} answered the others ${h % 97} times.`,
      scores: scores(dims('Score each participant on:\n'), n), strongest_turn: turns(n)[0] ?? 0, weakest_turn: turns(n).at(-1) ?? 0 }]));
    const verdict = { agents };
    const whole = dims('Score the conversation as a whole on:\n');
    if (whole.length) verdict.conversation = { reasoning: 'It moved on from where it began.', scores: scores(whole, 'the conversation') };
    return { text: JSON.stringify(verdict) };
  }
  // The pairwise judge (src/judge/pairwise.rs's prompt): a winner for every dimension listed.
  if (/comparing two conversations/.test(last)) {
    const listed = (last.split('or "tie".\n')[1] ?? '').split('\n\n')[0];
    const dims = [...listed.matchAll(/^- ([^:\n]+):/gm)].map((m) => m[1]);
    const sides = ['A', 'B', 'tie'];
    return { text: JSON.stringify({ reasoning: `Compared (${h % 97}).`, winner: Object.fromEntries(dims.map((d) => [d, sides[hash(d + h) % 3]])) }) };
  }
  if (/TRADING GAME/.test(all) && /keys are the player names/.test(last)) {
    const players = (last.match(/player names \(([^)]*)\)/)?.[1] ?? '').split(/,\s*/).filter(Boolean);
    return { text: JSON.stringify(Object.fromEntries(players.map((p) => [p, `Trade wisely, ${p}.`]))) };
  }
  if (/TRADING GAME/.test(all)) return { text: JSON.stringify({ action: 'END' }) };
  // The selector (AutoGen's prompt) lists its candidates as a Python list; name one of them.
  const contents = messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
  const listed = `${system}\n${contents}`.match(/select the next role from \[([^\]]*)\]/);
  if (listed) {
    const names = [...listed[1].matchAll(/'((?:[^'\\]|\\.)*)'|"([^"]*)"/g)].map((m) => m[1] ?? m[2]);
    if (names.length) return { text: names[h % names.length] };
  }
  // The director's choice asks for <int> too: an index among the first two speakers.
  if (/choosing index/.test(last)) return { text: `<${h % 2}>` };
  if (/<int>/.test(last)) return { text: `<${1 + (h % 9)}>` };
  if (/Transition to/i.test(system)) return { text: `Speech ${h % 1000} on the matter. Transition to neutral.` };
  return { text: `Reply ${h % 100000}: I have a view on this, ünïcode included ✓.` };
}

const usage = (body, text) => ({ in: JSON.stringify(body.messages ?? []).length >> 2, out: Math.max(1, text.length >> 2) });

/** A reply the model refused or the provider's filter withheld, whole or streamed. */
function withhold(body, protocol, persona, n, echo, res, cors, json, u) {
  const refused = persona === 'refusal';
  const words = refused ? refusalWords(n) + echo : '';
  if (protocol === 'openai') {
    const finish = refused ? 'stop' : 'content_filter';
    if (!body.stream) {
      const message = refused ? { role: 'assistant', content: null, refusal: words } : { role: 'assistant', content: '' };
      return res.writeHead(200, json).end(JSON.stringify({ choices: [{ message, finish_reason: finish }], usage: { prompt_tokens: u.in, completion_tokens: 0 } }));
    }
    const events = [];
    events.push({ choices: [{ delta: { role: 'assistant', content: refused ? null : '', refusal: null } }] });
    for (let i = 0; refused && i < words.length; i += 7) events.push({ choices: [{ delta: { refusal: words.slice(i, i + 7) } }] });
    events.push({ choices: [{ delta: {}, finish_reason: finish }] });
    res.writeHead(200, { ...cors, 'content-type': 'text/event-stream' });
    return res.end(`${events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('')}data: [DONE]\n\n`);
  }
  const partial = refused ? REFUSAL_PARTIAL : '';
  const details = refused ? { type: 'refusal', category: 'cyber', explanation: refusalExplanation(n) + echo } : null;
  if (!body.stream) {
    return res.writeHead(200, json).end(JSON.stringify({ role: 'assistant', content: partial ? [{ type: 'text', text: partial }] : [], stop_reason: 'refusal', stop_details: details, usage: { input_tokens: u.in, output_tokens: 2 } }));
  }
  const events = [['message_start', { type: 'message_start', message: { usage: { input_tokens: u.in } } }]];
  if (partial) events.push(['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: partial } }]);
  events.push(['message_delta', { type: 'message_delta', delta: { stop_reason: 'refusal', stop_details: details }, usage: { output_tokens: 2 } }], ['message_stop', { type: 'message_stop' }]);
  res.writeHead(200, { ...cors, 'content-type': 'text/event-stream' });
  return res.end(events.map(([e, d]) => `event: ${e}\ndata: ${JSON.stringify(d)}\n\n`).join(''));
}

/** A throwaway self-signed certificate for 127.0.0.1 (browsers speak HTTP/2 only over TLS). */
function certificate() {
  const dir = mkdtempSync(join(tmpdir(), 'agora-llm-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
    '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
  return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
}

/**
 * Starts the server on a free loopback port. With `{ http2: true }` it speaks HTTP/2 over TLS
 * (a self-signed certificate; launch the browser with `ignoreCertificateErrors`), as hosted
 * providers do, so calls are not queued behind the browser's six connections per HTTP/1.1 host.
 */
export async function startLlmServer({ http2 = false, key = null, persona = null } = {}) {
  if (persona !== null && !PERSONAS.includes(persona)) throw new Error(`unknown persona ${persona}`);
  const state = { latency: 0, chunkDelay: 0, faults: [], requests: [], aborted: 0, persona, inFlight: 0, mostInFlight: 0, rate: null };
  const handler = (req, res) => {
    const cors = {
      'access-control-allow-origin': '*',
      'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      'access-control-max-age': '600',
    };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors).end();
      return;
    }
    let raw = '';
    res.on('close', () => { if (!res.writableFinished) state.aborted++; });
    req.setEncoding('utf8');
    req.on('data', (c) => { raw += c; });
    req.on('end', async () => {
      const path = new URL(req.url, 'http://x').pathname;
      const protocol = path.endsWith('/messages') ? 'anthropic' : path.endsWith('/chat/completions') ? 'openai' : null;
      let body = {};
      try { body = JSON.parse(raw || '{}'); } catch { /* answered below */ }
      const entry = { path, method: req.method, headers: req.headers, body, raw };
      state.requests.push(entry);
      // How many calls were being answered at once, at most (a limit on calls in flight is
      // checked against it).
      // Ends the call's count (set below for a POST).
      let callEnded = () => {};
      if (req.method === 'POST') {
        state.inFlight += 1;
        state.mostInFlight = Math.max(state.mostInFlight, state.inFlight);
        // A call ends as its response is ended (before a byte of its end can reach the client),
        // or when it is aborted ('close'): 'finish' and 'close' can both come after the client,
        // which has read the whole reply, sent its next call, and then count two calls at once
        // that never were (seen on loaded machines, 'close' first, then 'finish' in a CI run).
        let open = true;
        const ended = () => { if (open) { open = false; state.inFlight -= 1; } };
        const end = res.end.bind(res);
        res.end = (...args) => { ended(); return end(...args); };
        res.on('close', ended);
        callEnded = ended;
      }
      if (req.method === 'GET' && path.endsWith('/models')) {
        if (key !== null && receivedKey(req.headers) !== key) {
          return res.writeHead(401, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Incorrect API key provided' } }));
        }
        const data = MODELS.map((id) => (path.startsWith('/v1') && protocolOf(req.headers) === 'anthropic' ? { type: 'model', id, display_name: id } : { id, object: 'model', owned_by: 'test' }));
        return res.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify({ data, object: 'list' }));
      }
      if (!protocol) {
        res.writeHead(404, cors).end('{"error":{"message":"not found"}}');
        return;
      }
      const fault = state.faults.length ? state.faults.shift() : null;
      await new Promise((ok) => setTimeout(ok, fault === 'slow-first-byte' ? 5000 : state.latency));
      const json = { ...cors, 'content-type': 'application/json' };
      const err = (status, message, extra = {}) => res.writeHead(status, { ...json, ...extra }).end(JSON.stringify({ error: { message, type: 'test' } }));
      const sent = receivedKey(req.headers);
      if (key !== null && sent !== key) return err(401, 'Incorrect API key provided');
      // Providers that validate strictly, answering as they document.
      if (state.persona === 'openai-reasoning' && protocol === 'openai') {
        const refuse = (message, param, code) => res.writeHead(400, json).end(JSON.stringify({ error: { message, type: 'invalid_request_error', param, code } }));
        if (body.max_tokens !== undefined) return refuse("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", 'max_tokens', 'unsupported_parameter');
        if (body.temperature !== undefined && body.temperature !== 1) return refuse(`Unsupported value: 'temperature' does not support ${body.temperature} with this model. Only the default (1) value is supported.`, 'temperature', 'unsupported_value');
      }
      if (state.persona === 'mistral' && protocol === 'openai') {
        const extra = ['stream_options', 'max_completion_tokens'].find((f) => body[f] !== undefined);
        if (extra) return res.writeHead(422, json).end(JSON.stringify({ detail: [{ type: 'extra_forbidden', loc: ['body', extra], msg: 'Extra inputs are not permitted', input: body[extra] }] }));
      }
      // Model Studio refuses a call to an open Qwen3 model that neither streams nor turns its
      // thinking off; Zhipu and Moonshot keep temperatures within [0, 1], each in its own words.
      if (state.persona === 'dashscope' && protocol === 'openai' && !body.stream && body.enable_thinking !== false) {
        return res.writeHead(400, json).end(JSON.stringify({ error: { code: 'invalid_parameter_error', param: null, message: 'parameter.enable_thinking must be set to false for non-streaming calls', type: 'invalid_request_error' }, id: 'chatcmpl-test', request_id: 'test-request' }));
      }
      if (state.persona === 'zhipu' && typeof body.temperature === 'number' && body.temperature > 1) {
        return res.writeHead(400, json).end(JSON.stringify({ error: { code: '1210', message: 'The temperature parameter is illegal.：限制数值范围[0,1]' } }));
      }
      if (state.persona === 'moonshot' && typeof body.temperature === 'number' && body.temperature > 1) {
        return res.writeHead(400, json).end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid request: temperature must be in [0, 1]' } }));
      }
      if (state.persona === 'siliconflow' && fault === '404') {
        return res.writeHead(400, json).end(JSON.stringify({ code: 20012, message: 'Model does not exist. Please check it carefully.', data: null }));
      }
      // A key's rate limit, counted over the last `windowMs` as a provider counts a minute.
      if (state.rate) {
        const rate = state.rate;
        const now = Date.now();
        rate.accepted = rate.accepted.filter((t) => t > now - rate.windowMs);
        if (rate.accepted.length >= rate.calls) {
          rate.refused += 1;
          const waitS = ((rate.accepted[0] + rate.windowMs - now) / 1000).toFixed(3);
          return rateRefusal(res, json, rate, waitS, body.model);
        }
        rate.accepted.push(now);
      }
      if (fault === 'no-tools' && body.tools?.length) return err(400, 'tools is not supported for this model');
      if (fault === 'echo-key-401') return err(401, `Invalid API key: ${sent} (known to us as ${maskedKey(sent)})`);
      if (fault === 'echo-key-429') {
        return res.writeHead(429, { ...cors, 'content-type': 'text/plain' }).end(`Too many requests for key ${sent}; slow down, ${sent.slice(0, -3)}`);
      }
      if (fault === '401') return err(401, 'Incorrect API key provided');
      if (fault === '403') return err(403, 'This key may not use this model');
      if (fault === '429') return err(429, 'Rate limit reached, slow down');
      if (fault === '429-retry-after') return err(429, 'Rate limit reached', { 'retry-after': '1', 'access-control-expose-headers': 'retry-after' });
      if (fault === '429-quota') return err(429, 'You exceeded your current quota, please check your plan and billing details.');
      if (fault === '500') return err(500, 'Internal server error');
      if (fault === '529') return res.writeHead(529, json).end(JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }));
      if (fault === '402') return err(402, 'Insufficient credits: add more to keep going');
      if (fault === '404') return err(404, `The model ${body.model} does not exist`);
      if (fault === 'unreadable-200') return res.writeHead(200, { ...cors, 'content-type': 'text/html' }).end('<html>Gateway says hello</html>');
      const out = reply(body, protocol);
      if (fault === 'unreadable' && !out.tool) out.text = 'They all argued well; I would rather not pick.';
      const truncated = fault === 'truncate' && !out.tool;
      if (truncated) out.text = out.text.slice(0, out.text.length >> 1);
      if (state.persona === 'hostile') {
        if (out.tool) {
          const args = JSON.parse(out.tool.arguments);
          out.tool.arguments = JSON.stringify({ ...args, response: `${PAYLOAD} ${args.response}` });
        } else if (/^\{"action"/.test(out.text)) {
          out.text = JSON.stringify({ action: 'TRADE', sell_resource: PAYLOAD, buy_resource: `WOOD ${PAYLOAD}`, quantity: 1 });
        } else if (/^\{/.test(out.text)) {
          const prompts = JSON.parse(out.text);
          out.text = JSON.stringify(Object.fromEntries(Object.entries(prompts).map(([k, v]) => [k, `${PAYLOAD} ${v}`])));
        } else {
          out.text = `${PAYLOAD} ${out.text}`;
        }
      }
      if (fault === 'echo-key-reply') {
        const echo = ` My key is ${sent}, or ${sent.slice(0, 16)} for short.`;
        if (out.tool) {
          const args = JSON.parse(out.tool.arguments);
          out.tool.arguments = JSON.stringify({ ...args, response: args.response + echo });
        } else {
          out.text += echo;
        }
      }
      // What a reasoning model thinks first: numbers and names that must never be read as the
      // answer (a bid of 10, index 3, a handoff to nobody).
      const thinking = out.tool ? '' : `The last message contradicts me: <10>. Index 3? Transition to nobody. Maybe ${'{'}"action": "END"}.`;
      const persona = state.persona;
      const cut = fault === 'think-cut';
      if ((persona === 'think-tags' || cut) && !out.tool) out.text = cut ? `<think>\n${thinking} Still weighing` : `<think>\n${thinking}\n</think>\n\n${out.text}`;
      const text = out.text ?? '';
      // Reasoning sent apart: DeepSeek's and vLLM's field, Ollama's and OpenRouter's, Anthropic's blocks.
      const field = { 'reasoning-field': 'reasoning_content', 'ollama-reasoning': 'reasoning', hostile: 'reasoning_content' }[persona]
        ?? (THINKS_BY_DEFAULT[persona]?.(body) ? 'reasoning_content' : undefined);
      const reasoning = persona === 'hostile' && !out.tool ? `${PAYLOAD} I thought it over.` : field || persona === 'anthropic-thinking' ? thinking : '';
      const u = usage(body, text + reasoning);
      const reasoningTokens = persona === 'openai-reasoning' ? 64 : reasoning.length >> 2;
      entry.usage = { ...u, out: u.out + (persona === 'openai-reasoning' ? 64 : 0) };
      const openaiUsage = { prompt_tokens: u.in, completion_tokens: entry.usage.out, ...(reasoningTokens ? { completion_tokens_details: { reasoning_tokens: reasoningTokens } } : {}) };
      const finish = cut || truncated ? 'length' : 'stop';
      const withheld = fault === 'refusal' || fault === 'content-filter' ? fault : persona;
      if (withheld === 'refusal' || withheld === 'content-filter') return withhold(body, protocol, withheld, hash(JSON.stringify(body.messages ?? [])) % 1000, fault === 'echo-key-reply' ? ` Your key ${sent} stays with me.` : '', res, cors, json, u);
      if (!body.stream) {
        const message = out.tool ? { content: null, tool_calls: [{ id: 'c1', type: 'function', function: out.tool }] } : { content: text };
        if (field && reasoning) message[field] = reasoning;
        const blocks = out.tool ? [{ type: 'tool_use', name: out.tool.name, input: JSON.parse(out.tool.arguments) }] : [{ type: 'text', text }];
        if (persona === 'anthropic-thinking' && reasoning) blocks.unshift({ type: 'thinking', thinking: reasoning, signature: 'sig' });
        const payload = protocol === 'openai'
          ? { choices: [{ message, finish_reason: finish }], usage: openaiUsage }
          : { content: blocks, stop_reason: cut || truncated ? 'max_tokens' : 'end_turn', usage: { input_tokens: u.in, output_tokens: u.out } };
        res.writeHead(200, json).end(JSON.stringify(payload));
        return;
      }
      res.writeHead(200, { ...cors, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      // Deltas of a few characters; the byte stream below splits them anywhere.
      const pieces = (t) => { const cs = Array.from(t); const out = []; for (let i = 0; i < cs.length; i += 5) out.push(cs.slice(i, i + 5).join('')); return out; };
      const events = [];
      for (const piece of reasoning ? pieces(reasoning) : []) {
        events.push(protocol === 'openai'
          ? `data: ${JSON.stringify({ choices: [{ delta: { [field]: piece } }] })}\n\n`
          : `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: piece } })}\n\n`);
      }
      const textIndex = reasoning && protocol === 'anthropic' ? 1 : 0;
      for (const whole of pieces(text)) {
        // SiliconFlow sends the usage so far with every chunk.
        const every = persona === 'siliconflow' ? { usage: openaiUsage } : {};
        events.push(protocol === 'openai'
          ? `data: ${JSON.stringify({ choices: [{ delta: { content: whole } }], ...every })}\n\n`
          : `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: textIndex, delta: { type: 'text_delta', text: whole } })}\n\n`);
      }
      if (protocol === 'openai') {
        if (persona === 'moonshot') {
          // Moonshot puts the usage inside the last choice, and sends no chunk of usage alone.
          events.push(`data: ${JSON.stringify({ choices: [{ delta: {}, finish_reason: finish, usage: openaiUsage }] })}\n\n`);
        } else if (persona === 'zhipu') {
          // Zhipu sends it with the finish reason, asked or not.
          events.push(`data: ${JSON.stringify({ choices: [{ delta: {}, finish_reason: finish }], usage: openaiUsage })}\n\n`);
        } else {
          events.push(`data: ${JSON.stringify({ choices: [{ delta: {}, finish_reason: finish }] })}\n\n`);
          // Mistral sends usage in its last chunk without being asked; OpenAI only with stream_options.
          if (body.stream_options?.include_usage || persona === 'mistral') events.push(`data: ${JSON.stringify({ choices: [], usage: openaiUsage })}\n\n`);
        }
        events.push('data: [DONE]\n\n');
      } else {
        events.unshift(`event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { usage: { input_tokens: u.in } } })}\n\n`);
        events.push(`event: message_delta\ndata: ${JSON.stringify({ type: 'message_delta', delta: { stop_reason: cut || truncated ? 'max_tokens' : 'end_turn' }, usage: { output_tokens: u.out } })}\n\n`, 'event: message_stop\ndata: {"type":"message_stop"}\n\n');
      }
      if (fault === 'malformed-chunk') events.splice(1, 0, 'data: {"choices":[{"delta":{"content":"oops"\n\n');
      // An error event as each protocol sends one.
      const errorEvent = (message) => (protocol === 'openai'
        ? `data: ${JSON.stringify({ error: { message } })}\n\n`
        : `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message } })}\n\n`);
      if (fault === 'error-event') events.splice(1, events.length, errorEvent('The model is overloaded'));
      if (fault === 'echo-key-stream') events.splice(1, events.length, errorEvent(`Key ${sent} is over its limit`));
      if (fault === 'drop-stream') events.splice(Math.max(2, events.length - 3));
      if (fault === 'drop-stream-early' || fault === 'stall') events.splice(0);
      // The whole stream as bytes, cut into chunks that do not follow event or character lines.
      const stream = Buffer.from(`: test server\n\n${events.join('')}`, 'utf8');
      for (let i = 0; i < stream.length; i += 23) {
        if (res.destroyed) return;
        // The last bytes can reach the client, which then sends its next call, before this loop
        // gets to res.end(): the call is counted as ended before they are written.
        if (i + 23 >= stream.length && fault !== 'stall') callEnded();
        res.write(stream.subarray(i, i + 23));
        // Paced so the browser sees separate chunks; `burst` sends them back to back.
        if (!state.burst) await new Promise((ok) => setTimeout(ok, state.chunkDelay || (i % 92 === 0 ? 2 : 0)));
      }
      if (fault === 'stall') return; // never ends: the idle timeout must fire
      if (fault === 'drop-stream' || fault === 'drop-stream-early') {
        // Destroying the socket drops whatever it has not sent yet: let the text written so far
        // reach the client first, so "cut after some text" is that on a loaded machine too.
        if (fault === 'drop-stream') await new Promise((ok) => setTimeout(ok, 50));
        res.socket.destroy();
        return;
      }
      res.end();
    });
  };
  const server = http2 ? createSecureServer({ ...certificate(), allowHTTP1: true }, handler) : createServer(handler);
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return {
    url: `${http2 ? 'https' : 'http'}://127.0.0.1:${port}/v1`,
    get requests() { return state.requests; },
    set latency(ms) { state.latency = ms; },
    set chunkDelay(ms) { state.chunkDelay = ms; },
    set burst(on) { state.burst = on; },
    set persona(p) {
      if (p !== null && !PERSONAS.includes(p)) throw new Error(`unknown persona ${p}`);
      state.persona = p;
    },
    get aborted() { return state.aborted; },
    get mostInFlight() { return state.mostInFlight; },
    /**
     * Refuses calls over `calls` in any `windowMs` with a 429 as `dialect` words it: `gemini`
     * (Google AI Studio's free tier: a "quota" per minute with its figure and a retry delay in
     * the body, inside a list) or `plain` (a bare "Rate limit reached for requests", as Zhipu
     * says it: no figure, no delay). Gemini's figure is said per minute, as the window scales.
     */
    rateLimit(calls, windowMs, dialect = 'plain') {
      if (!['gemini', 'plain'].includes(dialect)) throw new Error(`unknown rate dialect ${dialect}`);
      state.rate = { calls, windowMs, dialect, accepted: [], refused: 0 };
    },
    get refused() { return state.rate?.refused ?? 0; },
    fault(kind, times = 1) {
      if (!FAULTS.includes(kind)) throw new Error(`unknown fault ${kind}`);
      for (let i = 0; i < times; i++) state.faults.push(kind);
    },
    reset() { Object.assign(state, { faults: [], requests: [], latency: 0, chunkDelay: 0, aborted: 0, persona: null, mostInFlight: 0, rate: null }); },
    close: () => new Promise((ok) => { server.closeAllConnections?.(); server.close(ok); setTimeout(ok, 500); }),
  };
}
