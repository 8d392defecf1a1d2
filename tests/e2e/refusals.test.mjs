// Refused and filtered replies, as real providers send them (tests/e2e/llm-server.mjs personas
// `refusal` and `content-filter`), through real fetch in the app: every preset, whole and
// streamed. No agent's turn may be recorded or shown as an empty speech said; every refusal's
// words are in the event log and on screen; orchestration calls take their retries and fallbacks.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { appSession, eventually, openApp, openOnServer, waitForStatus } from './helpers.mjs';
import { startLlmServer } from './llm-server.mjs';

const session = appSession();
let llm;
before(async () => { llm = await startLlmServer(); });
after(async () => { await llm?.close(); });

const PRESETS = ['rail-debate', 'arms-debate', 'ai-morality-handoff', 'daily-show-director', 'town-hall-selector', 'trading-game'];

/** How each persona and protocol withholds a reply: the message kind and the words it carries. */
const CASES = [
  { persona: 'refusal', provider: 'openai', model: 'test-model', kind: 'refused', words: "I'm sorry, but I can't help with that" },
  { persona: 'refusal', provider: 'anthropic', model: 'claude-test', kind: 'refused', words: 'declined by a policy classifier' },
  { persona: 'content-filter', provider: 'gemini', model: 'test-model', kind: 'filtered', words: null },
];

async function eventsOf(page) {
  const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
  return JSON.parse(readFileSync(await json.path(), 'utf8')).events;
}

for (const c of CASES) {
  test(`every preset against ${c.persona} over ${c.provider}: refusals recorded and shown, never an empty speech`, async () => {
    llm.reset();
    llm.persona = c.persona;
    const { page, errors } = await openApp(session.browser, session.server.url);
    for (const preset of PRESETS) {
      await openOnServer(page, llm.url, preset, { provider: c.provider, model: c.model, key: 'sk-refusal-test', turns: 3 });
      await page.getByTestId('speed').selectOption('0');
      await page.getByTestId('run').click();
      await waitForStatus(page, 'Finished', 60000);
      const context = `${preset}, ${c.persona} over ${c.provider}`;
      const events = await eventsOf(page);
      assert.ok(!events.some((e) => e.type === 'error'), `${context}: ${JSON.stringify(events.find((e) => e.type === 'error'))}`);

      // The log: every call refused, every agent's turn a refusal with its words, never an
      // agent message with nothing said.
      const calls = events.filter((e) => e.type === 'model_call');
      assert.ok(calls.length > 0, context);
      for (const call of calls) {
        assert.equal(call.refusal?.kind, c.kind, `${context}: ${JSON.stringify(call.refusal)}`);
        assert.equal(call.parse.ok, false, context);
        if (c.words) assert.ok(call.refusal.text.includes(c.words), `${context}: ${call.refusal.text}`);
      }
      const said = events.filter((e) => e.type === 'message' && e.kind !== 'injected');
      assert.ok(said.length >= 2, `${context}: ${said.length} turns`);
      for (const m of said) {
        assert.equal(m.kind, c.kind, `${context}: ${JSON.stringify(m)}`);
        assert.equal(m.text, '', `${context}: no invented text`);
        if (c.words) assert.ok(m.refusal.includes(c.words), `${context}: ${m.refusal}`);
      }
      // Orchestration: retried to the method's limit, then its fallback.
      for (const b of events.filter((e) => e.type === 'bid')) assert.ok(b.defaulted && b.attempts === 2, `${context}: ${JSON.stringify(b)}`);
      for (const d of events.filter((e) => e.type === 'director_choice')) assert.ok(d.fallback, context);
      for (const h of events.filter((e) => e.type === 'handoff')) assert.ok(h.fallback, context);
      for (const s of events.filter((e) => e.type === 'selector_choice')) assert.equal(s.matched, 'fallback', context);
      for (const a of events.filter((e) => e.type === 'action')) assert.ok(!a.valid && a.action === null, context);

      // The screen: each agent's turn marked with its kind and the refusal in words.
      const shown = page.locator('[data-testid=message]:not(.injected)');
      await eventually(async () => assert.equal(await shown.count(), said.length, context));
      for (let i = 0; i < said.length; i++) {
        const row = shown.nth(i);
        assert.equal(await row.getAttribute('data-kind'), c.kind, context);
        const note = await row.getByTestId('message-note').textContent();
        assert.match(note, c.kind === 'refused' ? /the model refused/ : /content filter withheld the reply/, context);
        if (c.words) assert.ok(note.includes(c.words), `${context}: ${note}`);
      }
      // The statistics count every refused call.
      const total = page.locator('[data-testid=stats-agent][data-agent=Total]');
      await eventually(async () => assert.equal(Number(await total.getAttribute('data-refused')), calls.length, context));
      // The inspector shows the refusal of each call, and why it could not be read.
      await page.getByTestId('inspector').locator('summary').first().click();
      const refusals = page.getByTestId('call-refusal');
      await eventually(async () => assert.equal(await page.getByTestId('call').count(), calls.length, context));
      await page.getByTestId('call').first().locator('summary').click();
      const first = await refusals.first().textContent();
      assert.match(first, c.kind === 'refused' ? /the model refused/ : /content filter/, context);
      if (c.words) assert.ok(first.includes(c.words), `${context}: ${first}`);
      assert.match(await page.getByTestId('call-parse').first().textContent(), /could not be read: (the model refused|the provider's content filter)/, context);
      await page.getByTestId('inspector').locator('summary').first().click();
    }
    assert.deepEqual(errors, []);
  });
}

test('a refused bid is asked again and read when the model answers', async () => {
  llm.reset();
  const { page, errors } = await openApp(session.browser, session.server.url);
  await openOnServer(page, llm.url, 'rail-debate', { key: 'sk-refusal-test', turns: 1 });
  await page.getByTestId('speed').selectOption('0');
  llm.fault('refusal', 1); // the run's first call, one of the three bids
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished', 60000);
  const events = await eventsOf(page);
  const refused = events.filter((e) => e.type === 'model_call' && e.refusal);
  assert.equal(refused.length, 1);
  const [call] = refused;
  assert.deepEqual([call.purpose, call.attempt, call.parse.ok], ['bid', 1, false]);
  const again = events.find((e) => e.type === 'model_call' && e.agent === call.agent && e.purpose === 'bid' && e.attempt === 2);
  assert.ok(again?.parse.ok, 'the second attempt was read');
  const bid = events.find((e) => e.type === 'bid' && e.agent === call.agent);
  assert.deepEqual([bid.attempts, bid.defaulted, `<${bid.value}>`], [2, false, again.raw]);
  const said = events.filter((e) => e.type === 'message' && e.kind !== 'injected');
  assert.deepEqual(said.map((m) => m.kind), ['agent']);
  assert.deepEqual(errors, []);
});
