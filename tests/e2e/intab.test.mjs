// The in-tab model through the app (issue 14): the tiny random model that
// tests/tiny-model/make_tiny_gguf.py writes is served from loopback as if from a model host, and
// the app downloads it (after asking), keeps it, loads it into wllama's worker and runs presets
// on it. Random weights say nothing sensible; what they show is what the app guarantees whatever
// a model says: every orchestration reply is held by a grammar to a format the engine reads, a
// seed repeats a run, and a broken or cut-off file gets one clear message.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { comparisonColumns, eventually, launch, onTab, root, serveDist, waitForStatus, waitForText, setComparison } from './helpers.mjs';

const dir = mkdtempSync(join(tmpdir(), 'agora-intab-'));
const tiny = join(dir, 'tiny.gguf');
const tinyQ41 = join(dir, 'tiny-q4_1.gguf');
const ctx = { requests: [] };
const CSP = "script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:";

/** Sends `body` honouring a Range request; `cutAt` ends the response early by closing the socket. */
function sendModel(req, res, body, { cutAt } = {}) {
  const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
  const from = range ? Number(range[1]) : 0;
  if (from >= body.length) return res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
  const part = body.subarray(from);
  const headers = { 'content-type': 'application/octet-stream', 'content-length': part.length, 'accept-ranges': 'bytes' };
  if (range) headers['content-range'] = `bytes ${from}-${body.length - 1}/${body.length}`;
  res.writeHead(range ? 206 : 200, headers);
  if (cutAt === undefined) return res.end(part);
  res.write(part.subarray(0, cutAt));
  setTimeout(() => res.socket.destroy(), 50);
}

before(async () => {
  execFileSync('python3', [join(root, 'tests', 'tiny-model', 'make_tiny_gguf.py'), tiny]);
  execFileSync('python3', [join(root, 'tests', 'tiny-model', 'make_tiny_gguf.py'), tinyQ41, '--q4_1']);
  const model = readFileSync(tiny);
  const modelQ41 = readFileSync(tinyQ41);
  let cutServed = false;
  const routes = {
    '/models/tiny.gguf': (req, res) => sendModel(req, res, model),
    '/models/tiny-q4_1.gguf': (req, res) => sendModel(req, res, modelQ41),
    // The first download breaks off after 60 KB; the server then honours Range requests.
    '/models/flaky.gguf': (req, res) => {
      const cut = !cutServed;
      cutServed = true;
      sendModel(req, res, model, cut ? { cutAt: 60_000 } : {});
    },
    // Never finishes: only Cancel ends it.
    '/models/slow.gguf': (req, res) => {
      res.writeHead(200, { 'content-length': model.length, 'content-type': 'application/octet-stream' });
      res.write(model.subarray(0, 20_000));
    },
    '/models/not-a-model.gguf': (req, res) => sendModel(req, res, Buffer.from('<html>404 page</html>'.repeat(50))),
    '/models/short.gguf': (req, res) => sendModel(req, res, model.subarray(0, Math.floor(model.length * 0.7))),
  };
  ctx.server = await serveDist((req, res, path) => {
    ctx.requests.push({ path, range: req.headers.range ?? '' });
    // Under /iso/ the same files come with the headers that make a page cross-origin isolated.
    if (path.startsWith('/iso/')) {
      res.setHeader('cross-origin-opener-policy', 'same-origin');
      res.setHeader('cross-origin-embedder-policy', 'require-corp');
      path = path.slice(4);
    }
    // Under /csp/ the page comes with a strict Content-Security-Policy: scripts only from the
    // page's own origin (no inline script, no eval), WebAssembly allowed. wllama starts its
    // workers from blob: addresses, which worker-src has to allow.
    if (path.startsWith('/csp/')) {
      res.setHeader('content-security-policy', CSP);
      path = path.slice(4);
    }
    const answer = routes[path];
    if (!answer) return path;
    answer(req, res);
    return true;
  });
  ctx.url = ctx.server.url;
  ctx.browser = await launch();
});

after(async () => {
  await ctx.browser?.close();
  await ctx.server?.close();
});

/** A page of the app in a context of its own (its own storage, so its own kept models). */
async function openApp(context, at = '') {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  // The longest task the main thread ran, as the browser reports long tasks (50 ms or more).
  await page.addInitScript(() => {
    window.longest = 0;
    window.longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        window.longest = Math.max(window.longest, e.duration);
        window.longTasks.push([Math.round(e.startTime), Math.round(e.duration)]);
      }
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(ctx.url + at);
  await page.getByTestId('preset-list').waitFor();
  return { page, errors };
}

/** Presses Download, checks what it asks, and confirms. */
async function download(page) {
  await page.getByTestId('intab-download').click();
  await waitForText(page.getByTestId('intab-confirm'), /Download the file from 127\.0\.0\.1:\d+\?/);
  await page.getByTestId('intab-download-confirm').click();
}

/** Downloads the model the page names and waits until the engine holds it. */
async function downloadAndLoad(page) {
  await download(page);
  await page.getByTestId('intab-ready').waitFor({ timeout: 60000 });
}

async function eventsOf(page) {
  const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
  return JSON.parse(readFileSync(await json.path(), 'utf8')).events;
}

/** Waits for the run to finish; if it does not, fails with the errors the run shows. */
async function finish(page) {
  try {
    await waitForStatus(page, 'Finished', 240000);
  } catch (e) {
    const shown = await page.getByTestId('run-error').allTextContents();
    throw new Error(`${e.message}; the run shows: ${JSON.stringify(shown)}`);
  }
}

// Measured timings differ from run to run: the call's latency and the engine's own timing.
const strip = (events) => events.map((e) => (e.type === 'model_call' ? { ...e, latency_ms: 0, engine: e.engine && {} } : e));

test('a bidding debate runs to its turn limit on the tiny model with no malformed reply, and a seed repeats it', async () => {
  const context = await ctx.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const { page, errors } = await openApp(context);
  await onTab(page, 'rail-debate', 'models/tiny.gguf', 4);
  await downloadAndLoad(page);
  const engine = await waitForText(page.getByTestId('intab-engine'), /Loaded: models\/tiny\.gguf .*tokens a second measured here/);
  console.log(`# ${engine}`);
  await waitForText(page.getByTestId('estimate'), /^Estimate: about \d+ calls, [\d K]+ tokens for \d+ turns, roughly \d+ s a turn with this model on this machine \(at the speeds of the warm-up\)\.$/);
  // From here on, the longest task the main thread runs is the run's (page load aside).
  const t0 = await page.evaluate(() => { window.longest = 0; window.longTasks = []; return performance.now(); });
  // Every state of the text being written, as the transcript shows it while a speech streams.
  await page.evaluate(() => {
    window.streamed = [];
    new MutationObserver(() => {
      const live = document.querySelector('[data-testid="live-text"] .text');
      const text = live?.textContent ?? '';
      if (text && text !== window.streamed.at(-1)) window.streamed.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  const started = Date.now();
  await page.getByTestId('run').click();
  await finish(page);
  const [longest, tasks] = await page.evaluate(() => [window.longest, window.longTasks]);
  const when = tasks.map(([at, ms]) => `${ms} ms at +${Math.round(at - t0)} ms`).join(', ') || 'none';
  console.log(`# in-tab run of 4 turns: ${Date.now() - started} ms; longest main-thread task during it ${longest.toFixed(0)} ms (tasks of 50 ms or more: ${when})`);
  const events = await eventsOf(page);
  const calls = events.filter((e) => e.type === 'model_call');
  const bids = calls.filter((c) => c.purpose === 'bid');
  assert.ok(bids.length >= 8, `${bids.length} bids`);
  for (const c of bids) assert.match(c.raw, /^<([1-9]|10)>$/, 'a bid within the scale');
  assert.deepEqual(calls.filter((c) => !c.parse.ok || c.attempt > 1).map((c) => c.raw), [], 'no reply needed a retry');
  assert.equal(events.filter((e) => e.type === 'bid' && e.defaulted).length, 0, 'no bid fell back to the default');
  assert.equal(events.filter((e) => e.type === 'message').length, 4 + 1, 'the opening and four turns');
  assert.equal(events.at(-1).type, 'run_finished');
  // Speech streams: some speech was on screen in pieces, each a beginning of the reply it became.
  const streamed = await page.evaluate(() => window.streamed);
  const speeches = calls.filter((c) => c.purpose === 'speak').map((c) => c.raw);
  const pieces = speeches.map((raw) => streamed.filter((t) => t.length < raw.length && raw.startsWith(t)).length);
  assert.ok(Math.max(...pieces) >= 2, `a speech shown as it was written (pieces seen per speech: ${pieces})`);
  console.log(`# streamed: ${pieces.join(', ')} partial states seen of the ${speeches.length} speeches`);
  // A seat's later bid reads only what was said since its last one: the start of its prompt is
  // kept from that call (llama.cpp's prompt cache), and the log says how much.
  const later = bids.filter((c) => c.turn >= 2);
  assert.ok(later.length >= 3);
  for (const c of later) assert.ok(c.engine.reused_tokens > 0, `turn ${c.turn} ${c.agent}: ${JSON.stringify(c.engine)}`);
  // Every call's tokens are counted (the statistics and the estimate read them): the prompt is
  // what was read and what was kept, the reply what was written.
  for (const c of calls) {
    assert.equal(c.usage.prompt_tokens, c.engine.read_tokens + c.engine.reused_tokens, JSON.stringify(c));
    assert.equal(c.usage.completion_tokens, c.engine.written_tokens, JSON.stringify(c));
  }
  console.log(`# bids after turn 1 read ${later.map((c) => c.engine.read_tokens).join(', ')} tokens, kept ${later.map((c) => c.engine.reused_tokens).join(', ')}`);
  // What a seat keeps is its own history, which grows: each of its bids keeps more than its
  // bid before did, and reads only what was said since, so what it reads does not grow with the
  // conversation (at most half as much again at the last turn as at the second).
  for (const agent of new Set(bids.map((c) => c.agent))) {
    const own = bids.filter((c) => c.agent === agent && c.turn >= 2);
    const seen = JSON.stringify(own.map((c) => c.engine));
    for (let i = 1; i < own.length; i++) assert.ok(own[i].engine.reused_tokens > own[i - 1].engine.reused_tokens, `${agent}: ${seen}`);
    assert.ok(own.at(-1).engine.read_tokens <= 1.5 * own[0].engine.read_tokens, `${agent}: ${seen}`);
  }
  // Speech is written with the scenario's writing settings, recorded per call: it stops where
  // another agent's line would start, and a leading own name comes off; bids are held by their
  // grammar and carry none.
  const names = events[0].scenario.agents.map((a) => a.name);
  for (const c of calls.filter((c) => c.purpose === 'speak')) {
    assert.deepEqual(c.sampling.stop, names.filter((n) => n !== c.agent).map((n) => `${n}:`));
    assert.deepEqual([c.sampling.repeat_penalty, c.sampling.dry_multiplier, c.sampling.strip_name], [1.1, 0.8, true]);
  }
  for (const c of bids) assert.equal(c.sampling, undefined);
  await page.getByTestId('inspector').locator('summary').first().click();
  const firstSpeech = page.locator('[data-testid="call"][data-purpose="speak"]').first();
  await firstSpeech.locator('summary').click();
  await waitForText(firstSpeech.getByTestId('call-sampling'), /Written with repetition penalty 1\.10 and DRY 0\.80; stops at "[\w ]+:", "[\w ]+:"; a leading own name is taken off\./);
  // Every call carries the engine's own timing, so the statistics come from the log.
  assert.deepEqual(calls.filter((c) => !(c.engine?.written_ms > 0 && c.engine.written_tokens > 0)), [], 'each call timed by the engine');
  console.log(`# ${await waitForText(page.getByTestId('cost'), /In-tab engine: [\d.]+ tokens a second written/)}`);
  // The next estimate is made at the speeds this run measured.
  await waitForText(page.getByTestId('estimate'), /roughly \d+ s a turn with this model on this machine \(at the speeds of the last run\)\.$/);

  // The same scenario, seed and model: the same run, call for call.
  await page.getByTestId('reset').click();
  await page.getByTestId('run').click();
  await finish(page);
  assert.deepEqual(strip(await eventsOf(page)), strip(events), 'the same seed gives the same log');
  // A reloaded page restores the run from its log, engine speed included, with no model loaded.
  const shown = await page.getByTestId('cost').textContent();
  await page.reload();
  await waitForText(page.getByTestId('cost'), shown);
  assert.deepEqual(errors, []);
  await context.close();
});

test('once the model in the tab has loaded here, the demo says its pace on this device beside it, and after a reload too', async () => {
  const context = await ctx.browser.newContext({ viewport: { width: 1280, height: 720 } });
  const { page, errors } = await openApp(context);
  await onTab(page, 'rail-debate', 'models/tiny.gguf', 2);
  await downloadAndLoad(page);
  await waitForText(page.getByTestId('intab-engine'), /Loaded: models\/tiny\.gguf .*tokens a second measured here/);
  await page.getByTestId('field-model.provider').selectOption('demo');
  const pace = /^On this device: about \d+ s a turn for this scenario \(at the speed models\/tiny\.gguf ran here when it last loaded\)\.$/;
  await waitForText(page.getByTestId('real-intab-pace'), pace);
  // The next day, before it is loaded again, the figure measured here is still said.
  await page.reload();
  await page.getByTestId('tab-scenario').click();
  await waitForText(page.getByTestId('real-intab-pace'), pace, 30000);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the model in the tab judges a finished run: its grammar gives every agent a score on every dimension, with a warning', async () => {
  const context = await ctx.browser.newContext({ viewport: { width: 1280, height: 720 } });
  const { page, errors } = await openApp(context);
  await onTab(page, 'rail-debate', 'models/tiny.gguf', 2);
  // The tiny model reads a byte a token: a short prompt (a template like any other) and short
  // speeches leave its context room for the verdict.
  await page.getByTestId('field-word_limit').fill('15');
  await page.getByTestId('templates-method').locator('summary').click();
  await page.getByTestId('field-judge.template').fill('Judge this debate.\n{transcript}\nAgents: {agent_rubric}\nAll: {conversation_rubric}\nAnswer as {shape}');
  await downloadAndLoad(page);
  await page.getByTestId('run').click();
  await finish(page);
  await waitForText(page.getByTestId('judge-note'), /Judged by browser models\/tiny\.gguf, the agents' own model: it may favour what it wrote\. A small model in the tab judges poorly/);
  const started = Date.now();
  await page.getByTestId('judge-run').click();
  await waitForText(page.getByTestId('judge-by'), /Verdict by browser models\/tiny\.gguf/, 120000);
  console.log(`# the tiny model's verdict on a run of 2 turns: ${Date.now() - started} ms`);
  const rows = await page.getByTestId('scorecard').locator('tbody tr').evaluateAll((trs) =>
    trs.map((r) => [r.dataset.agent, ...[...r.querySelectorAll('td[data-dimension]')].map((td) => td.textContent)]));
  assert.deepEqual(rows.map((r) => r[0]), ['Donald Trump', 'Kanye West', 'Elizabeth Warren']);
  for (const r of rows) for (const v of r.slice(1)) assert.match(v, /^[1-5]$/, `${r[0]}: every dimension scored on its scale`);
  const judged = (await eventsOf(page)).filter((e) => e.type === 'model_call' && e.purpose === 'judge');
  assert.deepEqual(judged.map((c) => [c.attempt, c.parse.ok]), [[1, true]], 'one call, read at the first attempt');
  assert.deepEqual(errors, []);
  await context.close();
});

test('with the opening steps, whose descriptions go to the engine together, a seed repeats the run', async () => {
  const context = await ctx.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const { page, errors } = await openApp(context);
  await onTab(page, 'rail-debate', 'models/tiny.gguf', 2, { opening: true });
  await downloadAndLoad(page);
  await page.getByTestId('run').click();
  await finish(page);
  const events = await eventsOf(page);
  assert.equal(events.filter((e) => e.type === 'character_described').length, 3);
  assert.equal(events.filter((e) => e.type === 'topic_specified').length, 1);
  await page.getByTestId('reset').click();
  await page.getByTestId('run').click();
  await finish(page);
  assert.deepEqual(strip(await eventsOf(page)), strip(events), 'the same seed gives the same log');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the director, selector, handoff and trading presets read every orchestration reply of the tiny model', async () => {
  const context = await ctx.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const { page, errors } = await openApp(context);
  await onTab(page, 'town-hall-selector', 'models/tiny.gguf', 3);
  await downloadAndLoad(page);
  for (const [preset, purpose, turns] of [
    ['town-hall-selector', 'selector', 3],
    ['daily-show-director', 'director_choice', 3],
    ['ai-morality-handoff', 'handoff', 3],
    ['trading-game', 'negotiation_action', 4],
  ]) {
    await page.getByTestId(`open-${preset}`).click();
    await page.getByTestId('field-model.provider').selectOption('browser');
    const field = page.getByTestId('field-model.name');
    await field.fill('models/tiny.gguf');
    await field.press('Enter');
    await page.getByTestId('field-max_turns').fill(String(turns));
    await page.getByTestId('intab-ready').waitFor();
    await page.getByTestId('run').click();
    await finish(page);
    const events = await eventsOf(page);
    const calls = events.filter((e) => e.type === 'model_call' && e.purpose === purpose);
    assert.ok(calls.length > 0, `${preset} asked for ${purpose}`);
    assert.deepEqual(calls.filter((c) => !c.parse.ok).map((c) => c.raw), [], `${preset}: every ${purpose} reply was read`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('a kept model loads on the next visit without being fetched again, and can be deleted', async () => {
  const context = await ctx.browser.newContext();
  let { page, errors } = await openApp(context);
  await onTab(page, 'rail-debate', 'models/tiny.gguf');
  await downloadAndLoad(page);
  const fetched = () => ctx.requests.filter((r) => r.path === '/models/tiny.gguf').length;
  const before = fetched();
  await page.close();
  ({ page, errors } = await openApp(context));
  await page.getByTestId('intab-load').click();
  await page.getByTestId('intab-ready').waitFor({ timeout: 60000 });
  assert.equal(fetched(), before, 'loaded from the copy kept in this browser');
  await waitForText(page.getByTestId('intab-used'), /Models kept in this browser: 0\.2 MB/);
  await page.getByTestId('intab-delete').click();
  await page.getByTestId('intab-download').waitFor();
  await waitForText(page.getByTestId('intab-used'), 'Models kept in this browser: 0.0 MB');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a download cut off says so, and the next one goes on from where it stopped', async () => {
  const context = await ctx.browser.newContext();
  const { page, errors } = await openApp(context);
  await onTab(page, 'rail-debate', 'models/flaky.gguf');
  await download(page);
  await waitForText(page.getByTestId('intab-error'), /the download was cut off at [\d.]+ MB of 0\.2 MB; press Download again/, 30000);
  await page.getByTestId('intab-download').click();
  await page.getByTestId('intab-download-confirm').click();
  await page.getByTestId('intab-ready').waitFor({ timeout: 60000 });
  const ranges = ctx.requests.filter((r) => r.path === '/models/flaky.gguf').map((r) => r.range);
  assert.equal(ranges.length, 2);
  assert.match(ranges[1], /^bytes=\d+-$/, 'the second request asked for the rest only');
  assert.ok(Number(ranges[1].slice(6, -1)) >= 60_000, ranges[1]);
  // The browser's own report of the cut, not the app's.
  assert.deepEqual(errors.filter((e) => !e.includes('ERR_CONTENT_LENGTH_MISMATCH')), []);
  await context.close();
});

test('Cancel stops a download, and a file that is not a whole model gets one clear message', async () => {
  const context = await ctx.browser.newContext();
  const { page, errors } = await openApp(context);
  await onTab(page, 'rail-debate', 'models/slow.gguf');
  await download(page);
  await page.getByTestId('intab-progress').waitFor();
  await page.getByTestId('intab-cancel').click();
  await page.getByTestId('intab-download').waitFor();
  assert.equal(await page.getByTestId('intab-error').count(), 0, 'a cancel is not an error');

  for (const [file, message] of [
    ['models/not-a-model.gguf', /the file cannot be used: it is not a GGUF model file/],
    ['models/short.gguf', /the file cannot be used: it is cut short: its weights need [\d.]+ MB but the file has [\d.]+ MB/],
  ]) {
    const field = page.getByTestId('field-model.name');
    await field.fill(file);
    await field.press('Enter');
    await download(page);
    await waitForText(page.getByTestId('intab-error'), message, 30000);
  }
  // A run cannot start on a model that did not load; it says what to do.
  await page.getByTestId('run').click();
  await waitForText(page.getByTestId('controls-message'), /the in-tab model is not loaded yet: download or load it in Model settings/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('on a cross-origin isolated page the engine runs on several threads', async () => {
  const context = await ctx.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const { page, errors } = await openApp(context, 'iso/');
  assert.equal(await page.evaluate(() => crossOriginIsolated), true);
  await onTab(page, 'rail-debate', 'models/tiny.gguf', 2);
  await waitForText(page.getByTestId('intab-engine'), /runs in a worker on \d+ threads\./);
  await downloadAndLoad(page);
  await waitForText(page.getByTestId('intab-engine'), /Loaded: models\/tiny\.gguf · The engine runs in a worker on [2-8] threads · /);
  await page.getByTestId('run').click();
  await finish(page);
  const calls = (await eventsOf(page)).filter((e) => e.type === 'model_call');
  assert.deepEqual(calls.filter((c) => !c.parse.ok).map((c) => c.raw), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the engine runs on the GPU only when a warm-up says it is faster, says why, and the CPU can be chosen', async () => {
  // This machine's browser without WebGPU: the CPU, for that reason.
  const context = await ctx.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const { page, errors } = await openApp(context);
  await onTab(page, 'rail-debate', 'models/tiny.gguf', 2);
  await downloadAndLoad(page);
  await waitForText(page.getByTestId('intab-engine'), /It runs on the CPU: this browser offers no WebGPU\./);
  // The stage says so beside the run's status, with the warm-up's speed until a run has measured its own.
  const badge = (p) => p.getByTestId('engine-line');
  await waitForText(badge(page), /^Engine: CPU, \d+ tokens\/s in the warm-up$/);
  await page.getByTestId('run').click();
  await finish(page);
  await waitForText(badge(page), /^Engine: CPU, \d+ tokens\/s$/);
  assert.deepEqual(errors, []);
  await context.close();

  // A browser that offers WebGPU (here SwiftShader's, on the CPU): the engine is tried on it,
  // and the settings say what came of it.
  const gpuBrowser = await launch({ args: ['--enable-unsafe-webgpu', '--use-webgpu-adapter=swiftshader'] });
  try {
    const gpuContext = await gpuBrowser.newContext({ viewport: { width: 1400, height: 1000 } });
    const { page: p, errors: e } = await openApp(gpuContext);
    assert.equal(await p.evaluate(async () => !!(await navigator.gpu?.requestAdapter())), true, 'the page has a WebGPU adapter');
    await onTab(p, 'rail-debate', 'models/tiny.gguf', 2);
    await downloadAndLoad(p);
    const line = await waitForText(p.getByTestId('intab-engine'), /It runs on (the CPU: the engine found no WebGPU device it can use|the CPU: in the warm-up it wrote [\d.]+ tokens a second, the GPU [\d.]+ tokens a second|the GPU \(WebGPU\): in the warm-up it wrote [\d.]+ tokens a second, the CPU [\d.]+ tokens a second\. On the GPU the same seed may not repeat a run exactly)/, 30000);
    console.log(`# with WebGPU offered: ${line}`);
    await waitForText(badge(p), /It runs on the GPU/.test(line) ? /^Engine: GPU \(WebGPU\), \d+ tokens\/s in the warm-up$/ : /^Engine: CPU, \d+ tokens\/s in the warm-up$/);
    // Beside the seed, the editor says when a seed may not repeat the run: only on the GPU.
    const onGpu = /It runs on the GPU/.test(line) ? 1 : 0;
    await eventually(async () => assert.equal(await p.getByTestId('seed-gpu').count(), onGpu));
    // The CPU only, chosen: the model loads again there, and a seed repeats the run.
    await p.getByTestId('intab-device').selectOption('cpu');
    await waitForText(p.getByTestId('intab-engine'), /It runs on the CPU, as chosen: the same seed repeats a run exactly\./, 30000);
    await eventually(async () => assert.equal(await p.getByTestId('seed-gpu').count(), 0));
    await p.getByTestId('run').click();
    await finish(p);
    const first = strip(await eventsOf(p));
    await p.getByTestId('reset').click();
    await p.getByTestId('run').click();
    await finish(p);
    assert.deepEqual(strip(await eventsOf(p)), first, 'the same seed gives the same log');
    // The choice is kept for the next visit.
    await p.reload();
    await p.getByTestId('intab-device').waitFor();
    assert.equal(await p.getByTestId('intab-device').inputValue(), 'cpu');
    assert.deepEqual(e, []);
  } finally {
    await gpuBrowser.close();
  }
});

// gguf's own reader compares every tensor of two files value by value, and counts the Q4_1
// tensors of the first that are Q5_1 in the second.
const SAME_VALUES = `
import sys, numpy as np, gguf
from gguf import quants
a, b = gguf.GGUFReader(sys.argv[1]), gguf.GGUFReader(sys.argv[2])
assert len(a.tensors) == len(b.tensors)
n = 0
for x, y in zip(a.tensors, b.tensors):
    assert x.name == y.name, (x.name, y.name)
    assert np.array_equal(quants.dequantize(x.data, x.tensor_type), quants.dequantize(y.data, y.tensor_type)), x.name
    if x.tensor_type.name == 'Q4_1':
        assert y.tensor_type.name == 'Q5_1', y.tensor_type.name
        n += 1
    else:
        assert x.tensor_type == y.tensor_type, x.name
print(n)
`;

test('a model with Q4_1 weights is read as Q5_1 holding the same values, and runs', async () => {
  const context = await ctx.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const { page, errors } = await openApp(context);
  // The file the engine gets, made in this browser, against the downloaded one.
  const made = await page.evaluate(async () => {
    const { check, forEngine } = await import('/intab/store.js');
    const file = await (await fetch('/models/tiny-q4_1.gguf')).blob();
    const { model, repacked } = await forEngine(file, await check(file));
    const bytes = new Uint8Array(await model.arrayBuffer());
    let text = '';
    for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return { repacked, data: btoa(text) };
  });
  const out = join(dir, 'as-read.gguf');
  writeFileSync(out, Buffer.from(made.data, 'base64'));
  const tensors = Number(execFileSync('python3', ['-c', SAME_VALUES, tinyQ41, out]).toString().trim());
  assert.equal(tensors, 14, 'every layer matrix was Q4_1 and is Q5_1');
  assert.equal(made.repacked, tensors);
  // Loaded through the app, the settings say so, and a debate runs with every bid read.
  await onTab(page, 'rail-debate', 'models/tiny-q4_1.gguf', 2);
  await downloadAndLoad(page);
  await waitForText(page.getByTestId('intab-engine'), /Its 14 Q4_1 weight tensors are read as Q5_1, which holds the same values/);
  await page.getByTestId('run').click();
  await finish(page);
  const bids = (await eventsOf(page)).filter((e) => e.type === 'bid');
  assert.ok(bids.length >= 3);
  assert.deepEqual(bids.filter((b) => b.defaulted), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a page served with a strict Content-Security-Policy starts and runs the in-tab model', async () => {
  const context = await ctx.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const violations = [];
  await context.exposeFunction('cspViolation', (v) => violations.push(v));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => window.cspViolation(`${e.violatedDirective}: ${e.blockedURI}`));
  });
  const { page, errors } = await openApp(context, 'csp/');
  const served = await page.evaluate(async () => (await fetch(location.href)).headers.get('content-security-policy'));
  assert.equal(served, CSP, 'the page came with the policy');
  // The policy is in force: an inline script the page adds does not run, and is reported.
  await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.inlineRan = true';
    document.head.append(s);
  });
  await eventually(() => assert.equal(violations.length, 1));
  assert.equal(await page.evaluate(() => window.inlineRan), undefined);
  assert.match(violations[0], /^script-src/);
  await eventually(() => assert.match(errors.join('\n'), /Content Security Policy/));
  violations.length = 0;
  errors.length = 0;
  await onTab(page, 'rail-debate', 'models/tiny.gguf', 2);
  await downloadAndLoad(page);
  await page.getByTestId('run').click();
  await finish(page);
  const calls = (await eventsOf(page)).filter((e) => e.type === 'model_call');
  assert.ok(calls.length >= 4, `${calls.length} calls`);
  assert.deepEqual(calls.filter((c) => !c.parse.ok).map((c) => c.raw), []);
  // The tools module (the Markdown transcript, batches) is fetched and started under the policy too.
  const [md] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-markdown').click()]);
  assert.match(readFileSync(await md.path(), 'utf8'), /^# Presidential debate/);
  // So is the comparison page, in its frame, with its own build.
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('compare-open').click();
  const frame = await comparisonColumns(page, 2);
  await frame.getByTestId('compare-step').click();
  await eventually(async () => assert.equal(await frame.getByTestId('message').count(), 2), { timeout: 15000 });
  assert.deepEqual(violations, []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a comparison puts the model in the tab beside the demo model, each column on its own', async () => {
  const context = await ctx.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const { page, errors } = await openApp(context);
  await onTab(page, 'rail-debate', 'models/tiny.gguf', 2);
  await downloadAndLoad(page);
  await setComparison(page, 'model', 'demo, browser/models/tiny.gguf');
  await page.getByTestId('compare-open').click();
  const frame = await comparisonColumns(page, 2);
  // The comparison runs on the page's engine, which holds the model already (nothing is fetched
  // again), and its columns play together.
  const fetched = () => ctx.requests.filter((r) => r.path === '/models/tiny.gguf').length;
  const before = fetched();
  await frame.getByTestId('intab-ready').waitFor({ timeout: 60000 });
  assert.equal(fetched(), before, 'loaded from the kept copy');
  await frame.getByTestId('compare-play').click();
  const saved = await eventually(async () => {
    const [json] = await Promise.all([page.waitForEvent('download'), frame.getByTestId('compare-json').click()]);
    const file = JSON.parse(readFileSync(await json.path(), 'utf8'));
    assert.deepEqual(file.runs.map((r) => r?.events.at(-1).type), ['run_finished', 'run_finished']);
    return file;
  }, { timeout: 240000, interval: 2000 });
  const [demo, tab] = saved.runs.map((r) => r.events.filter((e) => e.type === 'model_call'));
  assert.ok(demo.every((c) => c.engine === undefined), 'the demo column never reached the engine');
  assert.ok(tab.length >= 4 && tab.every((c) => c.engine !== undefined), `${tab.length} calls on the engine`);
  assert.deepEqual(tab.filter((c) => !c.parse.ok).map((c) => c.raw), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('Stop during a run cancels the call the engine is writing, and the run can start again', async () => {
  const context = await ctx.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const { page, errors } = await openApp(context);
  await onTab(page, 'daily-show-director', 'models/tiny.gguf', 30);
  await downloadAndLoad(page);
  await page.getByTestId('run').click();
  await waitForText(page.getByTestId('status'), /^Running · turn [1-9]/, 60000);
  await page.getByTestId('stop').click();
  await waitForText(page.getByTestId('status'), /: stopped$/);
  assert.equal(await page.getByTestId('run-error').count(), 0, 'a stop is not an error');
  await page.getByTestId('reset').click();
  await page.getByTestId('field-max_turns').fill('2');
  await page.getByTestId('run').click();
  await finish(page);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a batch runs its seeds on the model in the tab, and a run replays from its kept log', async () => {
  const context = await ctx.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const { page, errors } = await openApp(context);
  await onTab(page, 'rail-debate', 'models/tiny.gguf', 2);
  await downloadAndLoad(page);
  await page.getByTestId('tab-batch').click();
  await page.getByTestId('batch-seeds').fill('1..2');
  await page.getByTestId('batch-run').click();
  await eventually(async () => assert.equal(await page.getByTestId('batch-progress').getAttribute('data-done'), '2'), { timeout: 240000 });
  await eventually(async () => assert.equal(await page.getByTestId('batch-row').count(), 2));
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('batch-csv').click()]);
  const [header, ...rows] = readFileSync(await file.path(), 'utf8').trim().split('\n');
  const col = (row, name) => row.split(',')[header.split(',').indexOf(name)];
  assert.deepEqual(rows.map((r) => [col(r, 'seed'), col(r, 'finish'), col(r, 'turns')]), [['1', 'turn_limit', '2'], ['2', 'turn_limit', '2']]);
  for (const r of rows) assert.ok(Number(col(r, 'calls')) >= 8 && Number(col(r, 'speech_tokens')) > 0, r);
  // The run of seed 2 replays from the log the batch kept: the engine is not asked again.
  await page.locator('[data-testid=batch-row][data-seed="2"] [data-testid=batch-open]').click();
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await finish(page);
  const events = await eventsOf(page);
  assert.equal(events[0].seed, 2);
  assert.equal(events.filter((e) => e.type === 'message').length, 2 + 1, 'the opening and two turns');
  assert.equal(events.filter((e) => e.type === 'model_call').length, Number(col(rows[1], 'calls')), 'the run its row was read from');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a browser without what the engine needs is told so before anything is downloaded', async () => {
  const context = await ctx.browser.newContext();
  // As in a browser without JavaScript Promise Integration (Firefox and Safari today).
  await context.addInitScript(() => { delete WebAssembly.Suspending; });
  const { page, errors } = await openApp(context);
  await onTab(page, 'rail-debate', 'models/tiny.gguf');
  await waitForText(page.getByTestId('intab-unsupported'), /This browser lacks WebAssembly JavaScript Promise Integration, which the in-tab engine needs/);
  assert.equal(await page.getByTestId('intab-download').isDisabled(), true, 'nothing to download it for');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a conversation longer than the model\'s context stops the run with one message, and what was said stays', async () => {
  const context = await ctx.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const { page } = await openApp(context);
  await onTab(page, 'rail-debate', 'models/tiny.gguf', 3);
  await downloadAndLoad(page);
  // The tiny model reads about a token a byte: a topic of 6,000 characters outgrows its 4,096.
  await page.getByTestId('field-topic').fill('Whether the railway should run through the valley. '.repeat(120));
  await page.getByTestId('run').click();
  console.log(`# ${await waitForText(page.getByTestId('run-error'), /the conversation no longer fits the model's context \(this call needs \d+ tokens of 4096\): shorten the topic or the prompts, or lower the word or turn limit$/, 60000)}`);
  await waitForStatus(page, 'Paused', 10000);
  const events = await eventsOf(page);
  assert.equal(events.filter((e) => e.type === 'message').length, 1, 'the opening is kept');
  assert.equal(events.filter((e) => e.type === 'error').length, 1, 'one error recorded');
  await context.close();
});

test('when the engine cannot be fetched the model settings say so, and a reload brings it back', async () => {
  const context = await ctx.browser.newContext();
  const { page } = await openApp(context);
  await context.route('**/intab/engine.js', (route) => route.fulfill({ status: 503, body: 'down' }));
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('field-model.provider').selectOption('browser');
  await waitForText(page.getByTestId('intab-failed'), /^the in-tab engine could not be fetched \(.+\); reload the page and try again$/);
  await context.unroute('**/intab/engine.js');
  await page.reload();
  await page.getByTestId('intab-download').waitFor();
  assert.equal(await page.getByTestId('intab-failed').count(), 0);
  await context.close();
});

test('a machine without the memory the engine needs gets one message, and the run on screen stays', async () => {
  // A browser whose WebAssembly memories may not pass 64 MB (1,024 pages): the page runs, but the
  // engine cannot allocate what it needs, as on a machine short of memory.
  const small = await launch({ args: ['--js-flags=--wasm-max-mem-pages=1024'] });
  const context = await small.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  await page.goto(ctx.url);
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('field-max_turns').fill('2');
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished', 60000);
  const said = await page.getByTestId('message').allTextContents();
  assert.equal(said.length, 3, 'the opening and two turns on the demo model');

  await page.getByTestId('field-model.provider').selectOption('browser');
  const field = page.getByTestId('field-model.name');
  await field.fill('models/tiny.gguf');
  await field.press('Enter');
  await download(page);
  await waitForText(page.getByTestId('intab-error'), /^there is not enough memory to load this model: close other tabs or choose a smaller model/, 60000);
  assert.equal(await page.getByTestId('intab-ready').count(), 0);
  assert.deepEqual(await page.getByTestId('message').allTextContents(), said, 'the run on screen is kept');
  await small.close();
});

test('a shared link names its in-tab model, and the page asks before fetching it', async () => {
  const first = await ctx.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const { page, errors } = await openApp(first);
  await onTab(page, 'town-hall-selector', 'models/tiny.gguf?shared=1', 2);
  await page.getByTestId('share-scenario').click();
  await page.getByTestId('share-url').waitFor();
  const link = await page.getByTestId('share-url').inputValue();
  assert.match(link, /#s=1\./);
  await first.close();

  const second = await ctx.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const other = await openApp(second, link.slice(ctx.url.length));
  // The start screen's badge names the model; the page may already have gone on to the stage,
  // which hides it.
  await waitForText(other.page.raw.getByTestId('model-badge').first(), 'Model: models/tiny.gguf?shared=1 · in this browser');
  await other.page.getByTestId('intab-download').waitFor();
  const fetched = () => ctx.requests.filter((r) => r.path === '/models/tiny.gguf').length;
  const before = fetched();
  await other.page.getByTestId('intab-download').click();
  await waitForText(other.page.getByTestId('intab-confirm'), /^Download the file from 127\.0\.0\.1:\d+\? It is kept in this browser afterwards\.$/);
  assert.equal(fetched(), before, 'nothing is fetched before the user says so');
  await other.page.getByTestId('intab-download-confirm').click();
  await other.page.getByTestId('intab-ready').waitFor({ timeout: 60000 });
  assert.equal(fetched(), before + 1);
  await other.page.getByTestId('run').click();
  await finish(other.page);
  assert.deepEqual(errors, []);
  assert.deepEqual(other.errors, []);
  await second.close();
});
