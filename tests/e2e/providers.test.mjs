// Real providers through real fetch against the local LLM server (tests/e2e/llm-server.mjs):
// whole simulations over OpenAI-compatible and Anthropic endpoints, streaming, and every fault a
// real network brings, asserting on what the user sees. A sentinel key must never show up in
// anything the app writes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { appSession, eventually, openApp, openOnServer, waitForCount, waitForStatus, waitForText } from './helpers.mjs';
import { startLlmServer, maskedKey } from './llm-server.mjs';
import { inflateSync } from 'node:zlib';
import { readFile } from 'node:fs/promises';

const session = appSession();
let llm;
before(async () => { llm = await startLlmServer(); });
after(async () => { await llm?.close(); });

const SENTINEL = 'sk-SENTINEL-7f3a9c-do-not-leak';
const REMOVED = '[API key removed]';
const count = (page, id) => page.getByTestId(id).count();

/**
 * `text` with everything packed inside it unpacked too: links, saved runs and past runs are
 * zlib-compressed base64url, in which a plain search would never find the key.
 */
function unpacked(text) {
  const found = [text];
  for (const [run] of text.matchAll(/[A-Za-z0-9_-]{16,}/g)) {
    try { found.push(inflateSync(Buffer.from(run, 'base64url')).toString('utf8')); } catch { /* not packed */ }
  }
  return found.join('\n');
}

/** Everything the app wrote or shows, as [where, text]: page, storage, links, exports, console. */
async function everythingWritten(page, consoleLines) {
  const pageText = await page.evaluate(() => [document.body.textContent,
    ...[...document.querySelectorAll('input, textarea')].filter((e) => e.dataset.testid !== 'api-key').map((e) => e.value)].join('\n'));
  const storage = await page.evaluate(() => JSON.stringify({ ...localStorage }));
  await page.getByTestId('share-run').click();
  const link = await page.getByTestId('share-url').inputValue();
  const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
  const [md] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-markdown').click()]);
  return [
    ['page', pageText], ['storage', unpacked(storage)], ['link', unpacked(link)],
    ['export', await readFile(await json.path(), 'utf8')], ['markdown', await readFile(await md.path(), 'utf8')],
    ['console', consoleLines.join('\n')], ['url', page.url()],
  ];
}

function assertNoKey(written) {
  for (const [what, text] of written) {
    assert.ok(!text.includes(SENTINEL) && !text.includes('SENTINEL'), `the key leaked into the ${what}`);
  }
}

/** Opens a preset and points it at the local server, with the sentinel key. */
const useServer = (page, preset, options = {}) => openOnServer(page, llm.url, preset, { key: SENTINEL, ...options });

async function setNumber(page, field, value) {
  await page.getByTestId(`field-${field}`).fill(String(value));
}

test('a bidding debate over an OpenAI-compatible endpoint, speech streamed', async () => {
  llm.reset();
  const { page, errors } = await openApp(session.browser, session.server.url);
  const consoleLines = [];
  page.on('console', (m) => consoleLines.push(m.text()));
  await useServer(page, 'rail-debate');
  await setNumber(page, 'max_turns', 4);
  await setNumber(page, 'model.price.input_per_million', 2);
  await setNumber(page, 'model.price.output_per_million', 10);
  llm.chunkDelay = 15;
  // Every line the screen reader's log gets while the speeches stream in, as it gets them.
  await page.evaluate(() => {
    window.heardLines = [];
    const log = document.querySelector('[data-testid=announcer]');
    new MutationObserver((changes) => {
      for (const c of changes) for (const n of c.addedNodes) if (n.nodeType === 1) window.heardLines.push(n.textContent);
    }).observe(log, { childList: true, subtree: true });
  });
  await page.getByTestId('run').click();
  await waitForText(page.getByTestId('live-text'), /writing…/, 20000);
  await waitForStatus(page, 'Finished', 60000);
  llm.chunkDelay = 0;
  // Each streamed speech was announced once, whole, and never a piece of one as it streamed.
  const heardLines = await page.evaluate(() => window.heardLines);
  const spoken = page.locator('[data-testid=message]:not(.injected)');
  for (let i = 0; i < await spoken.count(); i++) {
    const line = `${await spoken.nth(i).getAttribute('data-speaker')}: ${await spoken.nth(i).getByTestId('message-text').textContent()}`;
    assert.equal(heardLines.filter((l) => l === line).length, 1, `${line}\n${heardLines.join('\n')}`);
    assert.ok(!heardLines.some((l) => l !== line && line.startsWith(l)), `a piece of "${line}" was announced`);
  }

  const speeches = llm.requests.filter((r) => r.body.stream);
  const bids = llm.requests.filter((r) => /<int>/.test(JSON.stringify(r.body.messages)));
  assert.equal(speeches.length, 4, 'one streamed call per turn');
  assert.equal(bids.length, 4 * 3, 'three bids a turn');
  assert.ok(llm.requests.every((r) => r.headers.authorization === `Bearer ${SENTINEL}`));
  assert.ok(llm.requests.every((r) => r.body.model === 'test-model'));
  assert.equal(await count(page, 'message'), 5);
  const last = await page.getByTestId('message').last().textContent();
  assert.match(last, /ünïcode included ✓\./, 'characters split across chunks arrive whole');
  assert.equal(await count(page, 'bid-turn'), 4);
  assert.equal(await count(page, 'live-text'), 0);
  const price = (rs) => rs.reduce((sum, r) => sum + (r.usage.in * 2 + r.usage.out * 10) / 1e6, 0);
  const cost = await page.getByTestId('cost').textContent();
  assert.match(cost, new RegExp(`^Cost: \\$${price(llm.requests).toFixed(4).replace('.', '\\.')} for the run · \\$${price(bids).toFixed(4).replace('.', '\\.')} orchestration`), cost);

  // The key is nowhere the app writes: page, storage, links, exports, the console.
  const written = await everythingWritten(page, consoleLines);
  assert.match(written.find(([w]) => w === 'link')[1], /"type":"run_started"/, 'the link was unpacked');
  assertNoKey(written);
  // Remembered only when asked, and forgotten on request.
  const stored = () => page.evaluate(() => localStorage.getItem('agora.key'));
  await page.getByTestId('remember-key').check();
  await eventually(async () => assert.match(await stored(), /SENTINEL/));
  await page.getByTestId('forget-key').click();
  await eventually(async () => assert.equal(await stored(), null));
  await eventually(async () => assert.equal(await page.getByTestId('api-key').inputValue(), ''));
  assert.deepEqual(errors, []);
});

test('a provider run whose calling code cannot be fetched pauses with one clear message, and Resume fetches it', async () => {
  llm.reset();
  const { page } = await openApp(session.browser, session.server.url);
  let blocked = true;
  await page.context().route('**/agora-*.split_providers.wasm', (r) => (blocked ? r.abort('internetdisconnected') : r.continue()));
  await useServer(page, 'rail-debate');
  await setNumber(page, 'max_turns', 2);
  await page.getByTestId('run').click();
  await page.locator('.notice', { hasText: /the code that calls providers could not be fetched \(.+\): check the connection/ }).waitFor();
  await waitForText(page.getByTestId('status'), /Paused after an error · turn 0 · Resume or Step plays the failed turn again/);
  assert.equal(llm.requests.length, 0, 'nothing went to the provider');
  // The network back: Resume plays the turn again and the run goes to its end.
  blocked = false;
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished', 60000);
  assert.equal(await count(page, 'message'), 3);
  assert.equal(llm.requests.filter((r) => r.body.stream).length, 2);
});

test("the cast described for a new topic by the scenario's provider: the run's own description requests, nothing on the stage", async () => {
  llm.reset();
  const { page, errors } = await openApp(session.browser, session.server.url);
  await useServer(page, 'rail-debate');
  await page.getByTestId('field-topic').fill('Should homework be banned in primary schools?');
  await page.getByTestId('describe-cast').click();
  await page.getByTestId('described').waitFor();
  const asked = llm.requests.filter((r) => r.body.messages[0]?.content === 'You can add detail to the description of each presidential candidate.');
  assert.equal(asked.length, 3, 'one request per candidate');
  assert.equal(llm.requests.length, 3, 'nothing else was asked');
  assert.ok(asked.every((r) => /homework/.test(r.body.messages[1].content) && r.body.temperature === 1));
  const offered = await page.getByTestId('described-agent').allTextContents();
  assert.deepEqual(offered.map((t) => t.split(':')[0]), ['Donald Trump', 'Kanye West', 'Elizabeth Warren']);
  assert.equal(await count(page, 'message'), 0, 'the stage shows no run');
  assert.equal(await count(page, 'live-text'), 0);
  await page.getByTestId('describe-use').click();
  await waitForText(page.getByTestId('describe-status'), /3 agents' descriptions are now the ones written/);
  assert.deepEqual(errors, []);
});

test('a director episode over Anthropic Messages', async () => {
  llm.reset();
  const { page, errors } = await openApp(session.browser, session.server.url);
  await useServer(page, 'daily-show-director', { provider: 'anthropic', model: 'claude-test' });
  await page.getByTestId('browser-note').waitFor();
  await setNumber(page, 'max_turns', 5);
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished', 60000);
  assert.ok(llm.requests.length > 5);
  for (const r of llm.requests) {
    assert.equal(r.path, '/v1/messages');
    assert.equal(r.headers['x-api-key'], SENTINEL);
    assert.equal(r.headers['anthropic-dangerous-direct-browser-access'], 'true');
    assert.equal(r.headers.authorization, undefined);
  }
  assert.ok((await count(page, 'director-turn')) > 0);
  assert.ok((await count(page, 'message')) > 1);
  assert.deepEqual(errors, []);
});

test('a selector run over an OpenAI-compatible endpoint: the prompt as a user message, every name read', async () => {
  llm.reset();
  const { page, errors } = await openApp(session.browser, session.server.url);
  await useServer(page, 'town-hall-selector');
  await page.getByTestId('field-method.prompt_role').selectOption('user');
  await setNumber(page, 'max_turns', 4);
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished', 60000);
  const asked = llm.requests.filter((r) => /You are in a role play game/.test(JSON.stringify(r.body.messages)));
  assert.equal(asked.length, 4, 'one selector call a turn');
  for (const r of asked) {
    assert.equal(r.body.messages.length, 1);
    assert.equal(r.body.messages[0].role, 'user');
    assert.match(r.body.messages[0].content, /^You are in a role play game\. The following roles are available:\nPrincipal Okafor: /);
    assert.equal(r.body.temperature, undefined, 'SelectorGroupChat sets no temperature');
  }
  const rows = await page.getByTestId('selection').evaluateAll((els) => els.map((e) => [e.dataset.agent, e.dataset.fallback]));
  assert.equal(rows.length, 4);
  assert.ok(rows.every(([, fallback]) => fallback === 'false'), JSON.stringify(rows));
  const candidates = await page.getByTestId('selection-candidates').allTextContents();
  rows.forEach(([agent], i) => assert.ok(candidates[i].includes(agent), `${agent} was a candidate`));
  assert.deepEqual(errors, []);
});

test('a handoff debate by tool call, and a negotiation game', async () => {
  llm.reset();
  const { page, errors } = await openApp(session.browser, session.server.url);
  await useServer(page, 'ai-morality-handoff');
  await page.getByTestId('field-method.via').selectOption('tool');
  await setNumber(page, 'max_turns', 4);
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished', 60000);
  const withTools = llm.requests.filter((r) => r.body.tools?.length);
  assert.ok(withTools.length >= 4);
  assert.equal(withTools[0].body.tools[0].type, 'function');
  const rows = await page.getByTestId('handoff').allTextContents();
  assert.equal(rows.length, 4);
  assert.ok(rows.every((r) => /tool/.test(r)), rows.join('\n'));

  llm.reset();
  await page.getByTestId('reset').click();
  await useServer(page, 'trading-game');
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished', 60000);
  assert.ok(llm.requests.some((r) => /TRADING GAME/.test(JSON.stringify(r.body))));
  assert.match(await page.getByTestId('negotiation-panel').textContent(), /END/);
  assert.deepEqual(errors, []);
});

/** Waits until no step is in flight and `n` messages are shown. */
async function settled(page, n, timeout = 30000) {
  await page.waitForFunction(
    (n) => document.querySelectorAll('[data-testid=message]').length === n && !document.querySelector('[data-testid=step]').disabled,
    n, { timeout },
  );
}

/** A fresh rail debate on the local server, its opening played. */
async function opened(page, settings = {}, provider = 'openai') {
  llm.reset();
  await page.getByTestId('reset').click();
  await useServer(page, 'rail-debate', { provider });
  for (const [field, value] of Object.entries(settings)) await setNumber(page, field, value);
  await page.getByTestId('step').click(); // the opening: no model call
  await settled(page, 1);
}

/** Plays a turn whose speech call (after the three bids) meets `faults`. */
async function speechWithFaults(page, faults) {
  llm.fault('ok', 3);
  for (const f of faults) llm.fault(f);
  await page.getByTestId('step').click();
}

test('401 pauses with a clear message and no retry; Resume plays the turn again', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await opened(page, { max_turns: 2 });
  llm.fault('401');
  await page.getByTestId('step').click();
  await waitForStatus(page, 'Paused after an error', 20000);
  await waitForText(page.getByTestId('run-error'), /refused the key \(401: Incorrect API key provided\)/);
  assert.equal(llm.requests.length, 3, 'three bids went out, none was retried');
  assert.equal(await count(page, 'message'), 1, 'the transcript is intact');
  await waitForText(page.getByTestId('run'), 'Resume');
  await page.getByTestId('run').click();
  await waitForText(page.getByTestId('status'), /^Finished after turn 2: turn limit reached/, 20000);
  assert.equal(llm.requests.length, 3 + 4 + 4, 'the failed turn was asked again whole, then turn 2');
  await waitForCount(page, 'message', 3);
  assert.equal(await count(page, 'run-error'), 0);
  assert.equal(await count(page, 'bid-turn'), 2);
  assert.deepEqual(errors.filter((e) => !/401/.test(e)), []);
});

test('403, 402 and other refusals pause with the provider\u2019s words and no retry', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  for (const [fault, expected] of [
    ['403', /refused the key \(403: This key may not use this model\)/],
    ['402', /quota or spending limit is used up \(Insufficient credits: add more to keep going\)/],
    ['404', /rejected the request \(404: The model test-model does not exist\)/],
  ]) {
    await opened(page);
    llm.fault(fault);
    await page.getByTestId('step').click();
    await waitForStatus(page, 'Paused after an error', 20000);
    await waitForText(page.getByTestId('run-error'), expected);
    assert.equal(llm.requests.length, 3, `${fault}: no retry`);
    assert.equal(await count(page, 'message'), 1);
  }
  // A 200 that is not JSON: retried as unreadable, and named when the retries run out.
  await opened(page, { 'model.network.max_retries': 0 });
  llm.fault('unreadable-200');
  await page.getByTestId('step').click();
  await waitForStatus(page, 'Paused after an error', 20000);
  await waitForText(page.getByTestId('run-error'), /sent something unreadable: the reply is not JSON/);
  assert.deepEqual(errors.filter((e) => !/40[234]/.test(e)), []);
});

test('a server that repeats the key in replies, refusals, rate limits and stream errors leaks it nowhere', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  const consoleLines = [];
  page.on('console', (m) => consoleLines.push(m.text()));
  await opened(page, { 'model.network.max_retries': 1 });
  // Every bid and the speech repeat the key, whole and cut short.
  llm.fault('echo-key-reply', 4);
  await page.getByTestId('step').click();
  await settled(page, 2);
  await waitForText(page.getByTestId('message').last(), `My key is ${REMOVED}, or ${REMOVED} for short.`);
  // A plain-text 429 naming the key: the retry note is clean, then the turn plays.
  await speechWithFaults(page, ['echo-key-429']);
  await waitForText(page.getByTestId('retry-note'), `Too many requests for key ${REMOVED}; slow down, ${REMOVED}`);
  await settled(page, 3);
  // An error event inside a 200 stream, on the try and the retry.
  await speechWithFaults(page, ['echo-key-stream', 'echo-key-stream']);
  await waitForStatus(page, 'Paused after an error', 20000);
  await waitForText(page.getByTestId('run-error'), `Key ${REMOVED} is over its limit`);
  // A 401 naming the key: the masked form the provider prints is kept.
  llm.fault('echo-key-401', 3);
  await page.getByTestId('step').click();
  await waitForText(page.getByTestId('run-error').last(), `Invalid API key: ${REMOVED} (known to us as ${maskedKey(SENTINEL)})`);
  assert.equal(await count(page, 'message'), 3, 'nothing recorded is lost');

  const written = await everythingWritten(page, consoleLines);
  assert.match(written.find(([w]) => w === 'export')[1], /known to us as sk-\*\*\*\*leak/, 'the refusal is in the export');
  assertNoKey(written);
  // The run goes to past runs when it is replaced: stored packed, searched unpacked.
  await page.getByTestId('reset').click();
  await page.waitForFunction(() => Object.keys(localStorage).some((k) => k.startsWith('agora.history.')));
  const storage = unpacked(await page.evaluate(() => JSON.stringify({ ...localStorage })));
  assert.match(storage, /known to us as sk-\*\*\*\*leak/, 'the past run was unpacked');
  assertNoKey([['past runs', storage]]);
  assert.deepEqual(errors.filter((e) => !/401|429/.test(e)), []);
});

test('429 and 5xx are retried with backoff, Retry-After honoured; a spent quota is not', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await opened(page);
  llm.fault('429-retry-after');
  await page.getByTestId('step').click();
  await waitForText(page.getByTestId('retry-note'), /429.*again in 2 s/);
  await settled(page, 2);
  assert.equal(llm.requests.length, 3 + 1 + 1);

  await opened(page);
  await speechWithFaults(page, ['500', '500']);
  await settled(page, 2);
  assert.equal(llm.requests.length, 3 + 2 + 1, 'two retries, then the speech');

  await opened(page);
  llm.fault('429-quota');
  await page.getByTestId('step').click();
  await waitForStatus(page, 'Paused after an error', 20000);
  await waitForText(page.getByTestId('run-error'), /quota or spending limit is used up/);
  assert.equal(llm.requests.length, 3);
  assert.deepEqual(errors.filter((e) => !/429|500/.test(e)), []);
});

test("a free key's rate limit slows the run, says so before the next Run, and never ends it", async () => {
  llm.reset();
  const { page, errors } = await openApp(session.browser, session.server.url);
  await useServer(page, 'rail-debate', { turns: 3 });
  // The limit is counted over 3 s where a provider counts a minute: the scenario's
  // network.rate_window_ms, which no field shows, written into the saved scenario.
  await eventually(async () => assert.ok((await page.evaluate(() => localStorage.getItem('agora.scenario'))).includes('test-model')));
  await page.evaluate(() => {
    const s = JSON.parse(localStorage.getItem('agora.scenario'));
    s.model.network = { ...s.model.network, rate_window_ms: 3000, backoff_base_ms: 100 };
    localStorage.setItem('agora.scenario', JSON.stringify(s));
  });
  await page.reload();
  await page.getByTestId('api-key').fill(SENTINEL);
  await page.getByTestId('api-key').dispatchEvent('change');
  // Google AI Studio's free tier: three calls a window, refused with its figure a minute.
  llm.rateLimit(3, 3000, 'gemini');
  await page.getByTestId('run').click();
  await waitForText(page.getByTestId('retry-note'),
    /OpenAI allows this key about 60 calls a minute: \S.* call waits \d+ s to stay within it, and the run goes on\./, 30000);
  await waitForStatus(page, 'Finished', 60000);
  assert.equal(await page.getByTestId('message').count(), 4, 'the opening and three turns');
  // One refusal taught the figure; every call after it kept within it.
  assert.equal(llm.refused, 1, `refused ${llm.refused} calls`);
  await waitForText(page.getByTestId('estimate'),
    /allows this key about 60 calls a minute \(learnt from its answers this session\), so about 15 turns a minute: the run takes at least 1 min\./);
  assert.deepEqual(errors.filter((e) => !/429/.test(e)), []);
});

test('broken streams: bad chunks and error events are retried, a dropped stream keeps its text', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await opened(page);
  await speechWithFaults(page, ['malformed-chunk']);
  await settled(page, 2);
  assert.equal(llm.requests.filter((r) => r.body.stream).length, 2, 'the broken stream was asked again');
  await speechWithFaults(page, ['error-event']);
  await settled(page, 3);
  assert.equal(llm.requests.filter((r) => r.body.stream).length, 4, 'the stream with an error event was asked again');
  await speechWithFaults(page, ['drop-stream-early']);
  await settled(page, 4);
  assert.equal(llm.requests.filter((r) => r.body.stream).length, 6, 'a stream cut before any text was asked again');
  assert.doesNotMatch(await page.getByTestId('message').last().textContent(), /incomplete/);
  await speechWithFaults(page, ['drop-stream']);
  await settled(page, 5);
  assert.equal(llm.requests.filter((r) => r.body.stream).length, 7, 'a stream cut after some text is kept, not asked again');
  const last = page.getByTestId('message').last();
  await waitForText(last, /incomplete/);
  assert.match(await last.textContent(), /Reply \d+/);
  assert.deepEqual(errors.filter((e) => !/ERR_INCOMPLETE_CHUNKED_ENCODING/.test(e)), [], 'only the browser\u2019s own note of the cut');
});

test('faults on Anthropic Messages: a 5xx and an error event are retried, a refusal is worded', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await opened(page, {}, 'anthropic');
  await speechWithFaults(page, ['500', 'error-event']);
  await settled(page, 2);
  const speeches = llm.requests.filter((r) => r.body.stream);
  assert.equal(speeches.length, 3, 'a 500 and a stream with an error event, each asked again');
  assert.equal(llm.requests.length - speeches.length, 3, 'each bid was read at its first attempt');
  assert.ok(llm.requests.every((r) => r.path === '/v1/messages' && r.headers['x-api-key'] === SENTINEL));
  assert.doesNotMatch(await page.getByTestId('message').last().textContent(), /incomplete/);
  await speechWithFaults(page, ['403']);
  await waitForStatus(page, 'Paused after an error', 20000);
  await waitForText(page.getByTestId('run-error'), /Anthropic refused the key \(403: This key may not use this model\)/);
  assert.equal(await count(page, 'message'), 2, 'nothing recorded is lost');
  assert.deepEqual(errors.filter((e) => !/403|500/.test(e)), []);
});

test('timeouts for the first byte and for silence each say what happened', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await opened(page, { 'model.network.first_byte_timeout_ms': 1000, 'model.network.idle_timeout_ms': 1000, 'model.network.max_retries': 0 });
  await speechWithFaults(page, ['slow-first-byte']);
  await waitForStatus(page, 'Paused after an error', 20000);
  await waitForText(page.getByTestId('run-error'), /did not start answering within 1 s/);
  await speechWithFaults(page, ['stall']);
  await page.waitForFunction(() => /went silent for 1 s/.test(document.querySelector('[data-testid=run-error]')?.textContent ?? ''), null, { timeout: 20000 });
  assert.equal(await count(page, 'message'), 1, 'nothing recorded is lost');
  assert.deepEqual(errors, []);
});

test('no answer at all names the likely causes; Stop aborts every call in flight', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await page.getByTestId('open-rail-debate').click();
  // Without the opening steps, so the opening needs no call and the first calls are the bids.
  await page.getByTestId('field-opening.specify_topic').uncheck();
  await page.getByTestId('field-opening.describe_characters').uncheck();
  await page.getByTestId('field-model.provider').selectOption('ollama');
  await page.getByTestId('field-model.base_url').fill('http://127.0.0.1:9/v1');
  await page.getByTestId('field-model.name').fill('llama');
  await page.getByTestId('step').click();
  await settled(page, 1);
  await page.getByTestId('step').click();
  await waitForStatus(page, 'Paused after an error', 20000);
  await waitForText(page.getByTestId('run-error'), /No answer from http:\/\/127\.0\.0\.1:9\/v1.*OLLAMA_ORIGINS/);

  await opened(page);
  llm.latency = 4000;
  const started = Date.now();
  await page.getByTestId('run').click();
  await eventually(() => assert.equal(llm.requests.length, 3, 'three bids in flight'), { timeout: 3000, interval: 20 });
  await page.getByTestId('stop').click();
  await waitForText(page.getByTestId('status'), /^Finished.*stopped/, 3000);
  assert.ok(Date.now() - started < 3500, 'stopped without waiting for the replies');
  await eventually(() => assert.equal(llm.aborted, 3, 'all three bids were aborted'), { timeout: 2000 });
  assert.equal(await count(page, 'message'), 1);
  assert.deepEqual(errors.filter((e) => !/Failed to load|ERR_/.test(e)), []);
});

test('a key goes to an address from a link only after the user says yes', async () => {
  llm.reset();
  const other = await startLlmServer();
  try {
    const { page, errors } = await openApp(session.browser, session.server.url);
    await useServer(page, 'rail-debate'); // the key is entered for the first server
    const scenario = JSON.parse(await page.evaluate(() => localStorage.getItem('agora.scenario')));
    scenario.model.base_url = other.url;
    const { deflateSync } = await import('node:zlib');
    const fragment = `s=1.${deflateSync(Buffer.from(JSON.stringify(scenario))).toString('base64url')}`;
    await page.evaluate((f) => { location.hash = f; }, fragment);
    await page.getByTestId('link-notice').waitFor();
    assert.equal(await page.getByTestId('field-model.base_url').inputValue(), other.url, 'the link preselects its address');

    const asked = [];
    page.once('dialog', (d) => { asked.push(d.message()); d.dismiss(); });
    await page.getByTestId('step').click();
    await page.getByText(/Not sent: your key was entered for http:\/\/127\.0\.0\.1:\d+/).waitFor();
    assert.match(asked[0], /sends its calls to http:\/\/127\.0\.0\.1:\d+, but your key was entered for/);
    assert.equal(other.requests.length, 0);

    page.once('dialog', (d) => d.accept());
    await page.getByTestId('step').click();
    await settled(page, 1);
    await page.getByTestId('step').click();
    await settled(page, 2);
    assert.ok(other.requests.length >= 4);
    assert.ok(other.requests.every((r) => r.headers.authorization === `Bearer ${SENTINEL}`));
    assert.deepEqual(errors, []);
  } finally {
    await other.close();
  }
});
