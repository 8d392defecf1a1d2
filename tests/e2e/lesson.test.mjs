// What a teacher reads in a class demo: words that match the buttons on screen, counts in good
// English, and an interface that says what a step does rather than which seed it came from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appSession, eventually, openApp, runPreset, waitForStatus, waitForText } from './helpers.mjs';

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

for (const viewport of [{ width: 1280, height: 720 }, { width: 1024, height: 768 }]) {
  test(`the trading game at ${viewport.width} px: whole words in the inventory's headers, moves as sentences, each game marked`, async () => {
    const { page, errors } = await openApp(session.browser, session.server.url, viewport);
    await page.getByTestId('open-trading-game').click();
    // The first Step already shows the game: its first move and the inventories.
    await page.getByTestId('step').click();
    await eventually(async () => assert.ok(await page.getByTestId('message').count() >= 1, 'a message after the first Step'));
    await eventually(async () => assert.ok(await page.getByTestId('inventory').count() >= 2, 'the inventories after the first Step'));
    await page.getByTestId('speed').selectOption('0');
    await page.getByTestId('run').click();
    await waitForStatus(page, 'Finished');
    // Every header on one line: no "WOO/D", "STO/NE" or "valu/e".
    const broken = await page.locator('.inventories thead th').evaluateAll((ths) => ths
      .filter((th) => th.textContent.trim())
      .filter((th) => {
        const range = document.createRange();
        range.selectNodeContents(th);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1;
      })
      .map((th) => th.textContent));
    assert.deepEqual(broken, []);
    // And the table fits the panel: nothing in it is cut off.
    const cut = await page.getByTestId('negotiation-panel').evaluate((panel) => [panel, ...panel.querySelectorAll('*')]
      .filter((el) => el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${el.tagName} (${el.scrollWidth} > ${el.clientWidth})`));
    assert.deepEqual(cut, []);
    // The side panel says each move as the transcript does (newest first there), the JSON one
    // click away.
    const panel = await page.getByTestId('action-line').allTextContents();
    const transcript = await page.getByTestId('message-move').allTextContents();
    assert.ok(panel.length > 0);
    assert.deepEqual(panel, [...transcript].reverse());
    assert.equal(await page.locator('[data-testid=action] details.raw code').count(), panel.length);
    // Where each game begins, in the transcript.
    const games = await page.getByTestId('game-result').count();
    assert.ok(games >= 2, `${games} games`);
    const marks = await page.getByTestId('game-start').allTextContents();
    assert.deepEqual(marks, Array.from({ length: games }, (_, i) => `Game ${i + 1}`));
    assert.deepEqual(errors, []);
  });
}

test('what is on screen belongs to what is on screen: a link goes with its run or scenario, a batch names its scenario', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url, { width: 1280, height: 720 });
  await runPreset(page, 'rail-debate');
  await page.getByTestId('share-run').click();
  await page.getByTestId('share-url').waitFor();
  await eventually(async () => assert.match(await page.getByTestId('share-message').textContent(), /^Link ready \(\d+ characters\)/));
  // Reset: the run's link goes with the run.
  await page.getByTestId('reset').click();
  await eventually(async () => assert.equal(await page.getByTestId('share-url').count(), 0));
  assert.equal(await page.getByTestId('share-message').count(), 0);
  // A scenario's link goes when another scenario is opened.
  await page.getByTestId('share-scenario').click();
  await page.getByTestId('share-url').waitFor();
  await page.getByTestId('open-trading-game').click();
  await eventually(async () => assert.equal(await page.getByTestId('share-url').count(), 0));

  // A batch says whose it is, and is set apart once another scenario is being edited.
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('tab-batch').click();
  await page.getByTestId('batch-seeds').fill('1..3');
  await page.getByTestId('batch-run').click();
  await eventually(async () => assert.equal(await page.getByTestId('batch-row').count(), 3), { timeout: 60000 });
  const of = page.getByTestId('batch-of');
  await eventually(async () => assert.equal(await of.getAttribute('data-other'), 'false'));
  assert.match(await of.textContent(), /^The batch of “Presidential debate: transcontinental high-speed rail”, seeds 1\.\.3\.$/);
  await page.getByTestId('open-trading-game').click();
  await eventually(async () => assert.equal(await of.getAttribute('data-other'), 'true'));
  assert.match(await of.textContent(), /another scenario: “Presidential debate: transcontinental high-speed rail”/);
  // The projector view shows the class this scenario, not the other one's batch and charts.
  await page.getByTestId('projector').click();
  await page.locator('main.projector').waitFor();
  assert.equal(await page.getByTestId('batch').isVisible(), false);
  await page.keyboard.press('Escape');
  await page.locator('main.projector').waitFor({ state: 'detached' });
  await page.getByTestId('open-rail-debate').click();
  await eventually(async () => assert.equal(await of.getAttribute('data-other'), 'false'));
  await page.getByTestId('projector').click();
  await page.locator('main.projector').waitFor();
  assert.equal(await page.getByTestId('batch').isVisible(), true, "this scenario's open batch stays on the class's screen");
  assert.deepEqual(errors, []);
});

test('a debate switched to the director method is directed by its moderator, who closes it as a debate', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await page.getByTestId('open-rail-debate').click();
  const debaters = ['Donald Trump', 'Kanye West', 'Elizabeth Warren'];
  await page.getByTestId('field-method').selectOption('director');
  await eventually(async () => assert.equal(await page.getByTestId('field-method.director').inputValue(), 'Debate Moderator'));
  assert.equal(await page.getByTestId('field-agents[3].name').inputValue(), 'Debate Moderator');
  await page.getByTestId('field-max_turns').fill('12');
  await page.getByTestId('speed').selectOption('0');
  // The first seed whose show chooses a speaker and ends by the director's stop draw.
  let chosen = [];
  for (let seed = 1; seed <= 12; seed += 1) {
    await page.getByTestId('field-seed').fill(String(seed));
    await page.getByTestId('run').click();
    await waitForStatus(page, 'Finished');
    chosen = await page.getByTestId('director-choice').evaluateAll((els) => els.map((e) => e.dataset.agent));
    if (chosen.length > 0 && /the director ended the show/.test(await page.getByTestId('status').textContent())) break;
  }
  assert.ok(chosen.length > 0);
  await waitForStatus(page, 'Finished after turn');
  assert.match(await page.getByTestId('status').textContent(), /the director ended the show/);
  for (const agent of chosen) assert.ok(debaters.includes(agent), `the moderator chose ${agent}`);
  const said = await page.getByTestId('message').allTextContents();
  assert.ok(said.some((t) => t.startsWith('Debate Moderator')), 'the moderator speaks between the speeches');
  for (const t of said) assert.doesNotMatch(t, /America|correspondents|the show/);
  // Back to bidding: the moderator leaves the cast.
  await page.getByTestId('field-method').selectOption('bidding');
  await eventually(async () => assert.equal(await page.getByTestId('field-agents[3].name').count(), 0));
  assert.deepEqual(errors, []);
});

for (const viewport of [{ width: 1280, height: 720 }, { width: 1024, height: 768 }]) {
  test(`at ${viewport.width} by ${viewport.height}, who the class plays is chosen beside the run controls`, async () => {
    const { page, errors } = await openApp(session.browser, session.server.url, viewport);
    await page.getByTestId('open-rail-debate').click();
    await page.getByTestId('run').scrollIntoViewIfNeeded();
    const where = async (locator) => locator.evaluate((el) => el.getBoundingClientRect().top + scrollY);
    const run = await where(page.getByTestId('run'));
    const seat = page.getByTestId('seat-2');
    assert.ok(Math.abs(await where(seat) - run) < 150, `the seat's box ${await where(seat) - run} px from Run`);
    assert.equal(await seat.locator('xpath=..').textContent(), ' Elizabeth Warren');
    // By keyboard: Space ticks a box, and the keys stay on it as the row is drawn again.
    const first = page.getByTestId('seat-0');
    await first.focus();
    await page.keyboard.press('Space');
    await eventually(async () => assert.equal(await first.isChecked(), true));
    await eventually(async () => assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'seat-0'));
    await page.keyboard.press('Space');
    await eventually(async () => assert.equal(await first.isChecked(), false));
    // Taking a seat offers its time limit there too, and the scenario carries it.
    await seat.check();
    const limit = page.getByTestId('field-seat_timeout_s');
    assert.ok(Math.abs(await where(limit) - run) < 260, `the time limit ${await where(limit) - run} px from Run`);
    await limit.fill('30');
    await page.getByTestId('speed').selectOption('0');
    await page.getByTestId('run').click();
    await waitForText(page.locator('[data-testid=seat] h2'), 'Your turn: Elizabeth Warren');
    await page.getByTestId('stop').click();
    await waitForStatus(page, 'Finished');
    await seat.uncheck();
    await eventually(async () => assert.equal(await limit.count(), 0));
    assert.deepEqual(errors, []);
  });
}
