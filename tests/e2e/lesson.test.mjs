// What a teacher reads in a class demo: words that match the buttons on screen, counts in good
// English, and an interface that says what a step does rather than which seed it came from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appSession, eventually, openApp, runPreset, waitForStatus } from './helpers.mjs';

const session = appSession();

test('the transcript counts one message as one, and its empty line names the button that starts it', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url, { width: 1280, height: 720 });
  await page.getByTestId('open-rail-debate').click();
  const empty = page.locator('.transcript-panel .empty');
  await eventually(async () => assert.match(await empty.textContent(), /Press Run or Step/));
  assert.equal(await page.getByTestId('run').textContent(), 'Run');
  await page.getByTestId('step').click();
  await eventually(async () => assert.equal(await page.getByTestId('message-count').textContent(), '(1 message)'));
  await page.getByTestId('step').click();
  await eventually(async () => assert.equal(await page.getByTestId('message-count').textContent(), '(2 messages)'));

  // A past run opened as a replay: the button says Play, and so does the line.
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished');
  await page.getByTestId('reset').click();
  await page.getByTestId('past-run').first().getByTestId('past-open').click();
  await eventually(async () => assert.equal(await page.getByTestId('run').textContent(), 'Play'));
  await eventually(async () => assert.match(await empty.textContent(), /Press Play or Step/));
  assert.deepEqual(errors, []);
});

test('no text on the page names a seed notebook: each step says what it does', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url, { width: 1280, height: 720 });
  for (const preset of ['rail-debate', 'arms-debate', 'daily-show-director', 'ai-morality-handoff', 'town-hall-selector', 'trading-game', 'rail-debate-random']) {
    await runPreset(page, preset);
    // Every section opened, the prompt templates' rows drawn (the tools module draws them).
    await page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
    await eventually(async () => assert.ok(await page.locator('.templates .template').count() > 0));
    const visible = await page.evaluate(() => {
      const texts = [document.body.innerText];
      for (const el of document.querySelectorAll('option, [title], [aria-label], [placeholder]')) {
        texts.push(el.textContent, el.getAttribute('title') ?? '', el.getAttribute('aria-label') ?? '', el.getAttribute('placeholder') ?? '');
      }
      return texts.join('\n');
    });
    const named = visible.split('\n').filter((line) => /\bseeds? 0\d\d\b|\bseed['’]s\b|\(seed\)/i.test(line));
    assert.deepEqual(named, [], `${preset}: lines that name a seed notebook`);
  }
  assert.deepEqual(errors, []);
});
