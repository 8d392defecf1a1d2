// A prompt-injected model: the test LLM server's `hostile` persona puts <img onerror>, <script>,
// <svg onload>, a javascript: link and an iframe into every speech, bid and choice reply,
// reasoning, tool argument, trading action and optimizer prompt. Every preset runs on it with its
// opening steps; every <details>, the call inspector, the projector view, a batch's report and a
// comparison are opened; none of the payload's elements is in the page, nothing of it ran, and
// it is shown as text.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { appSession, eventually, openAllSections as openAll, openApp, openOnServer, waitForStatus, setComparison } from './helpers.mjs';
import { startLlmServer } from './llm-server.mjs';

const session = appSession();
let llm;
before(async () => { llm = await startLlmServer({ persona: 'hostile' }); });
after(async () => { await llm.close(); });

const PRESETS = ['rail-debate', 'arms-debate', 'ai-morality-handoff', 'daily-show-director', 'town-hall-selector', 'trading-game', 'rail-debate-random'];

/** What of the payload a page or frame holds: elements it would have made, and whether it ran. */
function payloadIn(target) {
  return target.evaluate(() => ({
    ran: window.__pwned ?? window.top.__pwned ?? null,
    elements: [...document.querySelectorAll('img[src="x"], script:not([src]), [onerror], [onload], [data-hostile], iframe[src^="javascript"], a[href^="javascript"]')]
      .map((e) => e.outerHTML.slice(0, 120)),
    asText: document.body.innerText.includes('<img src=x onerror="window.__pwned'),
  }));
}

async function assertClean(target, where, { shown = true } = {}) {
  const found = await payloadIn(target);
  assert.equal(found.ran, null, `the payload ran (${where})`);
  assert.deepEqual(found.elements, [], `the payload's elements are in the page (${where})`);
  if (shown) assert.ok(found.asText, `the payload is shown as text (${where})`);
}

for (const preset of PRESETS) {
  test(`${preset} on a hostile model: the payload is text in every panel, the inspector and the projector view`, async () => {
    const { page, errors } = await openApp(session.browser, session.server.url, { width: 1280, height: 900 });
    await openOnServer(page, llm.url, preset, { key: 'sk-hostile', turns: 3, opening: true });
    await page.getByTestId('run').click();
    await waitForStatus(page, 'Finished');
    await openAll(page);
    await eventually(async () => assert.ok(await page.getByTestId('call').count() > 0, 'the inspector lists the calls'));
    await openAll(page);
    await assertClean(page, preset);
    await page.getByTestId('projector').click();
    await openAll(page);
    await assertClean(page, `${preset}, projector view`);
    assert.deepEqual(errors, []);
  });
}

test('a batch report and a comparison of runs on a hostile model show the payload as text', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url, { width: 1280, height: 900 });
  await openOnServer(page, llm.url, 'town-hall-selector', { key: 'sk-hostile', turns: 2, opening: true });
  await page.getByTestId('tab-batch').click();
  await page.getByTestId('batch-seeds').fill('1..2');
  await page.getByTestId('batch-run').click();
  await eventually(async () => assert.equal(await page.getByTestId('batch-row').count(), 2), { timeout: 60000 });
  // A run of the batch, opened as a replay and played, brings the payload on screen.
  await page.locator('[data-testid=batch-row][data-seed="1"] [data-testid=batch-open]').click();
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished');
  await openAll(page);
  await assertClean(page, 'batch');
  await setComparison(page, 'seed', '1, 2');
  await page.getByTestId('compare-open').click();
  const frame = page.getByTestId('compare-frame');
  await frame.getByTestId('compare-play').click();
  await eventually(async () => assert.equal(await frame.getByTestId('message').count() >= 4, true), { timeout: 60000 });
  // The comparison is drawn in the page itself.
  await openAll(page);
  await assertClean(page, 'comparison');
  // The frame covers the run, whose text is then not shown: only what is in the page is checked.
  await assertClean(page, 'the page around the comparison', { shown: false });
  assert.deepEqual(errors, []);
});
