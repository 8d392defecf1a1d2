// Share links, reloads, past runs and saved data, as a person meets them: a link opens a
// scenario or a recorded run in another browser; a reload mid-run finds the run paused where it
// was; bad links and bad saved data get one message and change nothing; names and model output
// from a link render as text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { appSession, eventually, openApp, runPreset, screenshot, waitForCount, waitForStatus, waitForText } from './helpers.mjs';

const session = appSession();

const count = (page, id) => page.getByTestId(id).count();
const texts = (page, id) => page.getByTestId(id).allTextContents();
const title = (page) => page.getByTestId('field-title').inputValue();
const pack = (text) => deflateSync(Buffer.from(text, 'utf8')).toString('base64url');

async function shareLink(page, which) {
  await page.getByTestId(which).click();
  await page.getByTestId('share-url').waitFor();
  await page.waitForFunction(() => !document.querySelector('[data-testid=share-message]')?.textContent.includes('Copying'));
  return page.getByTestId('share-url').inputValue();
}

test('a scenario link opens the scenario, ready to run, and leaves the address bar', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await page.getByTestId('open-daily-show-director').click();
  await page.getByTestId('field-title').fill('Edited show <b>bold</b>');
  const link = await shareLink(page, 'share-scenario');
  assert.match(link, /#s=1\.[A-Za-z0-9_-]+$/);
  await waitForText(page.getByTestId('share-message'), /holds no key/);

  const other = await openApp(session.browser, link);
  await waitForText(other.page.getByTestId('link-notice'), 'Opened "Edited show <b>bold</b>" from the link');
  assert.equal(await title(other.page), 'Edited show <b>bold</b>');
  assert.equal(new URL(other.page.url()).hash, '', 'the link is read once');
  await other.page.getByTestId('speed').selectOption('0');
  await other.page.getByTestId('run').click();
  await waitForStatus(other.page, 'Finished');
  assert.ok((await count(other.page, 'director-turn')) > 0);

  // A fresh browser had no scenario of its own (only the page's default): nothing to put back.
  assert.equal(await other.page.getByTestId('link-undo').count(), 0);

  // A browser with a scenario of its own is offered it back, and gets it.
  const third = await openApp(session.browser, session.server.url);
  await third.page.getByTestId('open-trading-game').click();
  await third.page.getByTestId('field-title').fill('My own trading lesson');
  await third.page.reload();
  await third.page.getByTestId('preset-list').waitFor();
  await third.page.goto(link);
  await waitForText(third.page.getByTestId('link-notice'), 'Opened "Edited show <b>bold</b>" from the link');
  await third.page.getByTestId('link-undo').click();
  await eventually(async () => assert.equal(await title(third.page), 'My own trading lesson'));
  assert.deepEqual([...errors, ...other.errors, ...third.errors], []);
});

test('a run link replays in another browser and continues live from any step', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await runPreset(page, 'rail-debate');
  const original = await texts(page, 'message');
  const link = await shareLink(page, 'share-run');
  assert.match(link, /#run=1\./);

  const other = await openApp(session.browser, link);
  const p = other.page;
  await waitForText(p.getByTestId('link-notice'), /recorded run/);
  await waitForText(p.getByTestId('status'), /replay/);
  for (let i = 0; i < 4; i++) {
    await p.getByTestId('step').click();
    await waitForCount(p, 'message', i + 1);
  }
  assert.deepEqual(await texts(p, 'message'), original.slice(0, 4));
  await waitForCount(p, 'bid-turn', 3);

  // A reload brings the replay back at the step it had reached.
  await p.reload();
  await p.getByTestId('stage-title').waitFor(); // a restored replay opens on its stage
  await waitForStatus(p, 'Paused · turn 3 · replay');
  assert.deepEqual(await texts(p, 'message'), original.slice(0, 4));

  await p.getByTestId('continue-live').click();
  // Before the click the status already starts "Paused · turn 3" (followed by "· replay").
  await waitForText(p.getByTestId('status'), /^Paused · turn 3(?!.*replay)/);
  await p.getByTestId('speed').selectOption('0');
  await p.getByTestId('step').click();
  await p.waitForFunction(() => document.querySelectorAll('[data-testid=message]').length === 5);
  assert.deepEqual((await texts(p, 'message')).slice(0, 4), original.slice(0, 4), 'the replayed turns stay');
  await p.getByTestId('run').click();
  await waitForStatus(p, 'Finished');
  assert.equal(await count(p, 'message'), original.length, 'it goes on to the same turn limit');
  assert.deepEqual([...errors, ...other.errors], []);
});

test('open a link, run, reload mid-run: the run is restored paused at its recorded turns; Run goes on', async () => {
  const first = await openApp(session.browser, session.server.url);
  await first.page.getByTestId('open-arms-debate').click();
  const link = await shareLink(first.page, 'share-scenario');
  const { page, errors } = await openApp(session.browser, link);
  await waitForText(page.getByTestId('link-notice'), /weapons to Israel/);
  await page.getByTestId('speed').selectOption('120');
  await page.getByTestId('run').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=message]').length >= 4);
  await page.reload();
  await page.getByTestId('preset-list').waitFor();
  await waitForStatus(page, 'Paused');
  const restored = await texts(page, 'message');
  assert.ok(restored.length >= 4, `restored ${restored.length} messages`);
  const turn = Number((await page.getByTestId('status').textContent()).match(/turn (\d+)/)[1]);
  await waitForCount(page, 'bid-turn', turn);

  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished');
  const after = await texts(page, 'message');
  assert.deepEqual(after.slice(0, restored.length), restored);
  assert.ok(after.length > restored.length);

  // The finished run is in past runs, and comes back after another reload.
  await page.reload();
  await page.getByTestId('preset-list').waitFor();
  await waitForStatus(page, 'Finished');
  await waitForCount(page, 'message', after.length);
  assert.deepEqual(await texts(page, 'message'), after);
  await waitForCount(page, 'past-run', 1);
  await waitForText(page.getByTestId('past-run'), /Bidding · \d+ turns · turn limit reached/);
  assert.deepEqual([...first.errors, ...errors], []);
});

test('past runs reopen as replays and can be deleted', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await runPreset(page, 'ai-morality-handoff');
  const handoffs = await count(page, 'handoff-row');
  await page.getByTestId('reset').click();
  await runPreset(page, 'trading-game');
  // The past runs are on the start screen.
  await page.getByTestId('to-gallery').click();
  await waitForCount(page, 'past-run', 2);
  await waitForText(page.getByTestId('past-run').first(), /Negotiation/);

  await page.getByTestId('past-open').nth(1).click();
  await waitForText(page.getByTestId('status'), /^Paused · turn 0 · replay/);
  await page.getByTestId('run').click();
  await waitForText(page.getByTestId('status'), /^Finished.*replay/, 90000);
  await waitForCount(page, 'handoff-row', handoffs);

  await page.getByTestId('past-delete').first().click();
  await waitForCount(page, 'past-run', 1);
  await waitForText(page.getByTestId('past-run'), /Handoff/);
  await page.reload();
  await page.getByTestId('preset-list').waitFor();
  await waitForCount(page, 'past-run', 1);
  await waitForText(page.getByTestId('past-run'), /Handoff/);
  assert.deepEqual(errors, []);
});

test('every bad link gets one clear message and changes nothing', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await page.getByTestId('open-trading-game').click();
  await page.getByTestId('field-title').fill('My own work');
  const good = await shareLink(page, 'share-scenario');
  const data = good.split('#s=1.')[1];
  const scenario = JSON.parse(await page.evaluate(() => localStorage.getItem('agora.scenario')));
  const withAgents = (n) => ({ ...scenario, agents: Array.from({ length: n }, (_, i) => ({ ...scenario.agents[0], name: `A${i}` })) });
  const cases = [
    ['truncated', `s=1.${data.slice(0, data.length / 2 | 0)}`, /cut short/],
    ['corrupt', `s=1.${data.slice(0, 30)}${'_'.repeat(30)}${data.slice(60)}`, /damaged/],
    ['not base64', `s=1.${data.slice(0, 20)}*%*${data.slice(23)}`, /damaged/],
    ['bad compression', `s=1.${Buffer.from('plain text, not zlib data').toString('base64url')}`, /damaged/],
    ['bomb', `s=1.${deflateSync(Buffer.alloc(17 * 1024 * 1024, 32), { level: 9 }).toString('base64url')}`, /more than 16 MB/],
    ['unknown version', `s=9.${data}`, /newer Agora \(link version 9/],
    ['too many agents', `s=1.${pack(JSON.stringify(withAgents(40)))}`, /at most 16 agents/],
    ['overlong field', `s=1.${pack(JSON.stringify({ ...scenario, topic: 'x'.repeat(20001) }))}`, /topic: longer than 20000/],
    ['wrong types', `s=1.${pack(JSON.stringify({ ...scenario, max_turns: 'many' }))}`, /not a valid scenario/],
    ['run of another format', `run=1.${pack(JSON.stringify({ format: 'other', version: 1 }))}`, /not an Agora run/],
  ];
  for (const [name, fragment, expected] of cases) {
    await page.evaluate((f) => { location.hash = f; }, fragment);
    await page.waitForFunction(() => document.querySelector('[data-testid=link-notice]')?.classList.contains('error'));
    const notice = await page.getByTestId('link-notice').textContent();
    assert.match(notice, /This link could not be opened/, name);
    assert.match(notice, expected, `${name}: ${notice}`);
    assert.equal(await title(page), 'My own work', `${name}: nothing overwritten`);
    await page.getByTestId('link-notice').getByRole('button', { name: 'Dismiss' }).click();
  }
  // Still usable.
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished', 90000);
  assert.equal(await title(page), 'My own work');
  assert.deepEqual(errors, []);
});

test('names and texts from a link render as text, never as HTML', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await page.getByTestId('open-rail-debate').click();
  const scenario = JSON.parse(await page.evaluate(() => localStorage.getItem('agora.scenario')));
  const evil = '<img src=x onerror="window.__pwned=1">';
  const script = '<script>window.__pwned=2</script>';
  scenario.title = `Title ${script}`;
  scenario.topic = `Trains ${evil} ${script}`;
  scenario.agents[0].name = `Ann ${evil}`;
  scenario.agents[1].name = `Bob ${script}`;
  const link = `${session.server.url}#s=1.${pack(JSON.stringify(scenario))}`;
  const other = await openApp(session.browser, link);
  const p = other.page;
  await p.getByTestId('speed').selectOption('0');
  await p.getByTestId('run').click();
  await waitForStatus(p, 'Finished');
  const speakers = await p.getByTestId('message').evaluateAll((els) => els.map((e) => e.dataset.speaker));
  assert.ok(speakers.includes(`Ann ${evil}`) && speakers.includes(`Bob ${script}`));
  const page_text = await p.locator('main.layout').textContent();
  assert.ok(page_text.includes(evil) && page_text.includes(script), 'the tags are shown as text');
  assert.equal(await p.locator('main img, main script').count(), 0, 'no element came from the texts');
  assert.equal(await p.evaluate(() => window.__pwned), undefined);
  await screenshot(p, 'inert-html');
  assert.deepEqual([...errors, ...other.errors], []);
});

test('storage that is full or damaged is reported, kept aside, and the app works in memory', async () => {
  const context = await session.browser.newContext({ viewport: { width: 1200, height: 900 } });
  await context.addInitScript(() => {
    if (!sessionStorage.getItem('seeded')) {
      sessionStorage.setItem('seeded', '1');
      localStorage.setItem('agora.scenario', JSON.stringify({ version: 0, title: 'Old draft' }));
      localStorage.setItem('agora.run', '{"replay":false,"position":0,"run":"damaged"}');
    }
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(session.server.url);
  await page.getByTestId('preset-list').waitFor();
  await waitForText(page.getByTestId('storage-notice'), /saved scenario could not be read \(version 0 is not supported.*kept aside.*agora\.scenario\.unreadable/);
  await waitForText(page.getByTestId('run-notice'), /run you had open could not be read.*agora\.run\.unreadable/);
  const aside = await page.evaluate(() => [localStorage.getItem('agora.scenario.unreadable'), localStorage.getItem('agora.run.unreadable')]);
  assert.match(aside[0], /Old draft/);
  assert.match(aside[1], /damaged/);

  // Now the storage fills up: the app says so and runs in memory.
  await page.evaluate(() => {
    Storage.prototype.setItem = () => { throw new DOMException('full', 'QuotaExceededError'); };
  });
  await page.getByTestId('open-rail-debate').click();
  // Opening a preset clears the notice about the damaged run, so what shows next is new.
  await waitForCount(page, 'run-notice', 0);
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished');
  assert.ok((await count(page, 'message')) > 3);
  await waitForText(page.getByTestId('run-notice'), /The run on screen could not be saved \(.*\); it is kept in memory\.|This run is not in past runs/);
  assert.doesNotMatch(await page.getByTestId('run-notice').textContent(), /could not be read/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a long run is saved in pieces; a damaged piece is reported and kept aside', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('field-max_turns').fill('30');
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished');
  const messages = await page.getByTestId('message').allTextContents();
  const pieces = await page.evaluate(() => JSON.parse(localStorage.getItem('agora.run')).pieces);
  assert.ok(pieces.length >= 2, `pieces: ${pieces}`);
  await page.reload();
  await page.getByTestId('preset-list').waitFor();
  await waitForStatus(page, 'Finished');
  await waitForCount(page, 'message', messages.length);
  assert.deepEqual(await page.getByTestId('message').allTextContents(), messages);

  await page.evaluate(() => localStorage.setItem('agora.run.1', 'garbage'));
  await page.reload();
  await page.getByTestId('preset-list').waitFor();
  await waitForText(page.getByTestId('run-notice'), /The run you had open could not be read \(the data is .*kept aside.*agora\.run\.unreadable/);
  assert.equal(await page.evaluate(() => localStorage.getItem('agora.run.unreadable.1')), 'garbage');
  assert.equal(await page.getByTestId('message').count(), 0);
  assert.equal(await page.getByTestId('past-run').count(), 1, 'the past run is untouched');
  assert.deepEqual(errors, []);
});
