// The model built into the browser (the Prompt API's LanguageModel) as a provider (issue 49).
// Debian's Chromium exposes LanguageModel with no model behind it, so one test checks that the
// page says so honestly; the others run against a stand-in that implements the documented
// interface (availability, create with a download monitor and initial prompts, clone, prompt,
// promptStreaming, measureContextUsage, contextWindow, destroy, DOMException errors, abort
// signals). The stand-in is injected by these tests only. It obeys a responseConstraint the way
// a real model held by it would, and writes chatty text without one, which Agora could not read
// as a bid: so bids read from its answers show the constraint went with the call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { appSession, eventually, ofType, waitForStatus, waitForText } from './helpers.mjs';

const session = appSession();

/** The stand-in, as page script: `globalThis.standIn` holds its settings and its log. */
function standIn(settings) {
  const cfg = { availability: 'available', window: 6000, ...settings };
  const log = [];
  globalThis.standIn = { cfg, log };
  const wait = (ms) => new Promise((ok) => setTimeout(ok, ms));
  const words = (input) => (typeof input === 'string' ? input : input.map((m) => m.content).join(' '));
  // An answer that meets the constraint, as a model held by it writes; chatty text without one.
  const answer = (constraint, n) => {
    if (constraint instanceof RegExp) {
      const s = constraint.source;
      let m = /^\^<\((.*)\)>\$$/.exec(s);
      if (m) return `<${m[1].split('|')[n % 3]}>`;
      m = /^\^(.+): \[\^\\n\]\+ Transition to \((.*)\)\\\.\$$/.exec(s);
      if (m) return `${m[1].replace(/\\/g, '')}: I hear you. Transition to ${m[2].split('|')[0].replace(/\\/g, '')}.`;
      m = /^\^\((.*)\)\$$/.exec(s);
      if (m) return m[1].split('|')[n % 2].replace(/\\/g, '');
      return 'no idea';
    }
    if (constraint?.properties?.action) {
      const res = constraint.properties.sell_resource.enum;
      moves += 1;
      return JSON.stringify(moves % 2 === 1
        ? { action: 'TRADE', sell_resource: res[0], buy_resource: res[1], quantity: 1 }
        : { action: 'ACCEPT' });
    }
    if (constraint?.properties) {
      return JSON.stringify(Object.fromEntries(Object.keys(constraint.properties).map((k) => [k, `Play fair, ${k}.`])));
    }
    return `Well, I would say maybe ${4 + (n % 5)} out of ten, honestly.`;
  };
  let calls = 0;
  let moves = 0;
  class Session {
    constructor(initial) {
      this.initial = initial;
      this.contextWindow = cfg.window;
      this.contextUsage = 0;
    }
    async clone({ signal } = {}) {
      log.push({ call: 'clone', signalled: !!signal });
      return new Session(this.initial);
    }
    destroy() {
      log.push({ call: 'destroy' });
    }
    async measureContextUsage(input) {
      return Math.ceil(words(input).length / 4);
    }
    async start(input, options) {
      const c = options?.responseConstraint;
      log.push({
        call: 'prompt',
        system: this.initial?.[0]?.content ?? '',
        last: words(input).slice(-80),
        constraint: c instanceof RegExp ? { regex: c.source } : c ? { schema: c } : null,
      });
      if (cfg.fail) throw new DOMException(cfg.fail.message, cfg.fail.name);
      if (cfg.hang) {
        await new Promise((_, no) => options?.signal?.addEventListener('abort', () => {
          log.push({ call: 'aborted' });
          no(new DOMException('The operation was aborted.', 'AbortError'));
        }));
      }
      calls += 1;
      return answer(c, calls);
    }
    async prompt(input, options) {
      return this.start(input, options);
    }
    promptStreaming(input, options) {
      const text = this.start(input, options).then((t) => (options?.responseConstraint ? t : 'The tracks are worth it. Trains carry us further.'));
      log.push({ call: 'streaming' });
      return new ReadableStream({
        async start(controller) {
          try {
            const whole = await text;
            for (const piece of whole.match(/\S+\s*/g)) {
              controller.enqueue(piece);
              await wait(5);
            }
            controller.close();
          } catch (e) {
            controller.error(e);
          }
        },
      });
    }
  }
  globalThis.LanguageModel = class {
    static async availability() {
      return cfg.availability;
    }
    static async create(options = {}) {
      log.push({ call: 'create', system: options.initialPrompts?.[0]?.content ?? '' });
      if (cfg.availability === 'unavailable') throw new DOMException('The device does not meet the requirements.', 'NotSupportedError');
      if (cfg.availability === 'downloadable') {
        const target = new EventTarget();
        options.monitor?.(target);
        for (const loaded of [0, 0.5]) {
          target.dispatchEvent(Object.assign(new Event('downloadprogress'), { loaded }));
          await wait(cfg.stepMs ?? 300);
        }
        target.dispatchEvent(Object.assign(new Event('downloadprogress'), { loaded: 1 }));
        cfg.availability = 'available';
      }
      return new Session(options.initialPrompts);
    }
  };
}

async function open(settings, viewport = { width: 1280, height: 800 }) {
  const context = await session.browser.newContext({ viewport });
  if (settings) await context.addInitScript(standIn, settings);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(session.server.url);
  await page.getByTestId('preset-list').waitFor();
  return { page, errors };
}

async function onBuiltin(page, preset, turns) {
  await page.getByTestId(`open-${preset}`).click();
  await page.getByTestId('field-opening.specify_topic').uncheck();
  await page.getByTestId('field-opening.describe_characters').uncheck();
  await page.getByTestId('field-model.provider').selectOption('builtin');
  if (turns !== undefined) await page.getByTestId('field-max_turns').fill(String(turns));
}

async function events(page) {
  const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
  return JSON.parse(readFileSync(await json.path(), 'utf8')).events;
}

const log = (page) => page.evaluate(() => globalThis.standIn.log);

test('in Debian\'s Chromium, which has no model behind LanguageModel, the page says it is unavailable and why', async () => {
  const { page, errors } = await open(null);
  assert.equal(await page.evaluate(() => typeof LanguageModel), 'function', 'this Chromium exposes the interface');
  await onBuiltin(page, 'rail-debate', 2);
  const state = page.getByTestId('builtin-state');
  await waitForText(state, /^Unavailable on this device: the browser says "[^"]+"\. The offline demo or the model in the tab run anywhere\.$/);
  assert.equal(await state.getAttribute('data-state'), 'unavailable');
  // No key or address is asked for.
  assert.equal(await page.getByTestId('api-key').count(), 0);
  // A run says what is missing, once, and keeps nothing it did not get.
  await page.getByTestId('run').click();
  await waitForText(page.getByTestId('run-error'), /the built-in model cannot answer this call \(the browser says "[^"]+"\)/, 20000);
  assert.doesNotMatch(await page.getByTestId('run-error').textContent(), /built-in model.*built-in model/, 'said once');
  assert.deepEqual(errors, []);
});

test('a stand-in with a downloadable model: the download is asked for with a click and its progress shown', async () => {
  const { page, errors } = await open({ availability: 'downloadable', stepMs: 600 });
  await onBuiltin(page, 'rail-debate', 2);
  await waitForText(page.getByTestId('builtin-state'), /^Downloadable: about 4 GB, once/);
  await page.getByTestId('builtin-download').click();
  await waitForText(page.getByTestId('builtin-progress'), /50 % downloaded/);
  await waitForText(page.getByTestId('builtin-state'), /^Available: the built-in model is ready on this device\.$/);
  await waitForText(page.getByTestId('builtin-context'), /^Context window: 6000 tokens/);
  assert.equal(await page.getByTestId('builtin-progress').count(), 0);
  assert.deepEqual(errors, []);
});

test('a bidding run on the stand-in: bids held by a RegExp, speeches streamed, one session per agent', async () => {
  const { page, errors } = await open({});
  await onBuiltin(page, 'rail-debate', 3);
  await waitForText(page.getByTestId('builtin-state'), /^Available/);
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished');
  const ev = await events(page);
  const calls = await log(page);
  const prompts = calls.filter((c) => c.call === 'prompt');
  const bidPrompts = prompts.filter((c) => c.constraint?.regex);
  assert.ok(bidPrompts.length >= 6, `${bidPrompts.length} bids asked`);
  for (const p of bidPrompts) assert.equal(p.constraint.regex, '^<(10|9|8|7|6|5|4|3|2|1)>$');
  // Every bid was read from the constrained answer: none fell back to the default.
  const bids = ofType(ev, 'bid');
  assert.equal(bids.length, bidPrompts.length);
  assert.ok(bids.every((b) => !b.defaulted && [10, 9, 8].includes(b.value)), JSON.stringify(bids.map((b) => b.value)));
  // Speech is free text, streamed (no constraint), and recorded whole.
  const speeches = ofType(ev, 'message').filter((m) => m.kind !== 'injected' && m.turn > 0);
  assert.equal(speeches.length, 3);
  assert.ok(speeches.every((m) => m.text === 'The tracks are worth it. Trains carry us further.'), JSON.stringify(speeches.map((m) => m.text)));
  assert.equal(calls.filter((c) => c.call === 'streaming').length, 3);
  // One session per agent's system prompt, cloned for each call and each clone destroyed.
  const created = calls.filter((c) => c.call === 'create');
  assert.equal(new Set(created.map((c) => c.system)).size, created.length, 'no system prompt made twice');
  // (A call that is a system prompt alone, as the seeds' bid is, goes to a session without one.)
  assert.ok(created.length <= 4, `${created.length} sessions for three agents and the calls without a persona`);
  assert.equal(calls.filter((c) => c.call === 'clone').length, prompts.length);
  assert.equal(calls.filter((c) => c.call === 'destroy').length, prompts.length);
  // The usage the stand-in measured is what the run counts.
  const usage = ofType(ev, 'model_call').map((c) => c.usage.prompt_tokens);
  assert.ok(usage.every((n) => n > 10), JSON.stringify(usage));
  assert.deepEqual(errors, []);
});

test('a trading game on the stand-in: each action held by a JSON schema', async () => {
  const { page, errors } = await open({});
  await onBuiltin(page, 'trading-game', 4);
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished', 60000);
  const ev = await events(page);
  const schemas = (await log(page)).filter((c) => c.constraint?.schema?.properties?.action).map((c) => c.constraint.schema);
  assert.ok(schemas.length >= 2, `${schemas.length} actions asked`);
  assert.deepEqual(schemas[0].properties.action.enum, ['ACCEPT', 'REJECT', 'END', 'TRADE']);
  assert.deepEqual(schemas[0].required, ['action']);
  // Every move was read as an action, and the game's moves are the stand-in's: a trade, then
  // its acceptance.
  const moves = ofType(ev, 'model_call').filter((c) => c.purpose === 'negotiation_action');
  assert.ok(moves.length >= 2 && moves.every((c) => c.parse.ok), JSON.stringify(moves.map((c) => c.parse)));
  const actions = ofType(ev, 'action');
  assert.ok(actions.every((a) => a.valid), JSON.stringify(actions.map((a) => a.reason)));
  assert.deepEqual(actions.slice(0, 2).map((a) => a.action.action), ['TRADE', 'ACCEPT']);
  assert.deepEqual(errors, []);
});

test('Stop aborts a prompt in flight', async () => {
  const { page, errors } = await open({ hang: true });
  await onBuiltin(page, 'rail-debate', 3);
  await page.getByTestId('run').click();
  await eventually(async () => assert.ok((await log(page)).some((c) => c.call === 'prompt')), { timeout: 20000 });
  await page.getByTestId('stop').click();
  await eventually(async () => assert.ok((await log(page)).some((c) => c.call === 'aborted')));
  await waitForStatus(page, 'Finished');
  assert.match(await page.getByTestId('status').textContent(), /stopped/);
  assert.equal(await page.getByTestId('run-error').count(), 0, 'a stop is not an error');
  assert.deepEqual(errors, []);
});

for (const [name, message, expected] of [
  ['QuotaExceededError', 'The input is too large.', /the conversation no longer fits the built-in model's context window \(6000 tokens\): lower the word limit or the number of turns \(the browser says "The input is too large\."\)/],
  ['NotSupportedError', 'The language is not supported.', /the built-in model cannot answer this call \(the browser says "The language is not supported\."\)/],
  ['NotAllowedError', 'Requires a user gesture.', /the browser did not allow the built-in model: its download needs a click on the page, and a site's permissions policy can forbid it \(the browser says "Requires a user gesture\."\)/],
]) {
  test(`a ${name} from the built-in model is worded like any provider's failure`, async () => {
    const { page, errors } = await open({ fail: { name, message } });
    await onBuiltin(page, 'rail-debate', 2);
    await page.getByTestId('run').click();
    await waitForText(page.getByTestId('run-error'), expected, 20000);
    await waitForStatus(page, 'Paused after an error');
    assert.deepEqual(errors, []);
  });
}
