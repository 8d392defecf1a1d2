// The projector view: large type with nothing cut off at 1280x720 in every method, and the run
// driven from the keyboard (P, arrows, Space, Enter, Escape).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { appSession, eventually, nativeEvents, openApp, runPreset, waitForCount, waitForStatus, waitForText } from './helpers.mjs';

const session = appSession();
const SCREEN = { width: 1280, height: 720 };

/** What the view shows at this size: elements whose content is wider than their box, the page's width, font sizes. */
async function layout(page) {
  return page.evaluate(() => {
    const cut = [];
    for (const el of document.querySelectorAll('main *')) {
      if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) {
        cut.push(`${el.tagName.toLowerCase()}.${el.className} (${el.scrollWidth} > ${el.clientWidth})`);
      }
    }
    const size = (sel) => parseFloat(getComputedStyle(document.querySelector(sel)).fontSize);
    const rows = document.querySelectorAll('[data-testid=message]');
    const last = rows[rows.length - 1].getBoundingClientRect();
    return {
      cut,
      width: document.documentElement.scrollWidth,
      speech: size('[data-testid=message-move], [data-testid=message-text]'),
      decisions: size('.decisions .panel'),
      lastRow: { top: last.top, bottom: last.bottom },
    };
  });
}

for (const preset of ['rail-debate', 'daily-show-director', 'ai-morality-handoff', 'town-hall-selector', 'rail-debate-random', 'trading-game']) {
  test(`the projector view of ${preset} is large, whole and readable at 1280x720`, async () => {
    const { page, errors } = await openApp(session.browser, session.server.url, SCREEN);
    await runPreset(page, preset);
    await page.keyboard.press('p');
    await page.locator('main.projector').waitFor();
    assert.equal(await page.getByTestId('projector').getAttribute('aria-pressed'), 'true');
    for (const hidden of ['field-title', 'stats', 'export-json']) {
      assert.equal(await page.getByTestId(hidden).isVisible(), false, `${hidden} is out of the way`);
    }
    assert.equal(await page.locator('.inspector').isVisible(), false);
    // The newest message is in sight and everything fits its box.
    const shown = await eventually(async () => {
      const l = await layout(page);
      assert.ok(l.lastRow.bottom <= SCREEN.height && l.lastRow.top >= 0, `the last message at ${JSON.stringify(l.lastRow)}`);
      return l;
    });
    assert.deepEqual(shown.cut, [], 'nothing is cut off or scrolls sideways');
    assert.ok(shown.width <= SCREEN.width, `the page is ${shown.width} px wide`);
    assert.ok(shown.speech >= 24, `speech at ${shown.speech} px`);
    assert.ok(shown.decisions >= 20, `decisions at ${shown.decisions} px`);
    // Escape leaves it, and the editor is back.
    await page.keyboard.press('Escape');
    await page.getByTestId('field-title').waitFor();
    assert.equal(await page.locator('main.projector').count(), 0);
    assert.deepEqual(errors, []);
  });
}

test('in the projector view the keys step a recording forward and back, play it, and send a seat', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url, SCREEN);
  await runPreset(page, 'daily-show-director');
  const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
  await page.getByTestId('import').setInputFiles(await json.path());
  await waitForStatus(page, 'Paused · turn 0 · replay');
  await page.getByTestId('projector').click();
  await page.locator('main.projector').waitFor();
  await page.keyboard.press('ArrowRight'); // the opening
  await waitForCount(page, 'message', 1);
  await page.keyboard.press('ArrowRight'); // turn 1: the director speaks
  await waitForCount(page, 'message', 2);
  await page.keyboard.press('ArrowRight');
  await waitForCount(page, 'message', 3);
  await page.keyboard.press('ArrowLeft');
  await waitForCount(page, 'message', 2);
  await waitForStatus(page, 'Paused · turn 1 · replay');
  assert.equal(await page.locator('[data-testid=director-turn]').count(), 1, 'the panels went back too');
  await page.keyboard.press('ArrowRight');
  await waitForCount(page, 'message', 3);
  await page.keyboard.press(' '); // play the rest
  await waitForStatus(page, 'Finished', 60000);
  const native = nativeEvents('daily-show-director').filter((e) => e.type === 'message').map((e) => e.text);
  const shown = await page.getByTestId('message-text').allTextContents();
  assert.deepEqual(shown, native, 'the whole recording, each message once');

  // A seated speaker answers with Enter from the speech box.
  await page.keyboard.press('Escape');
  await page.getByTestId('reset').click();
  await page.getByTestId('open-rail-debate-random').click();
  await page.getByTestId('field-max_turns').fill('2');
  await page.getByTestId('seat-0').check();
  await page.getByTestId('speed').selectOption('0');
  await page.keyboard.press('p');
  await page.locator('main.projector').waitFor();
  await page.keyboard.press(' '); // Run
  const said = [];
  for (;;) {
    const status = await page.getByTestId('status').textContent();
    if (status.startsWith('Finished')) break;
    if (await page.getByTestId('seat-text').isVisible()) {
      const words = `The class says build it, answer ${said.length + 1}.`;
      await page.getByTestId('seat-text').fill(words);
      await page.getByTestId('seat-text').press('Enter');
      said.push(words);
      // Sent: the box goes, or comes back empty for the next question.
      await page.waitForFunction(() => {
        const box = document.querySelector('[data-testid=seat-text]');
        return !box || box.value === '';
      }, null, { timeout: 10000 });
    } else {
      await page.waitForTimeout(50);
    }
  }
  assert.ok(said.length >= 1, 'the seat spoke');
  await page.keyboard.press('Escape'); // the exports are out of the way in the projector view
  const [log] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
  const events = JSON.parse(readFileSync(await log.path(), 'utf8')).events;
  const mine = events.filter((e) => e.type === 'model_call' && e.human).map((e) => e.raw);
  assert.deepEqual(mine, said, 'each answer sent by Enter is in the log as the person\'s');
  await waitForText(page.getByTestId('status'), /^Finished/);
  assert.deepEqual(errors, []);
});

test('the projector with the Class tab open and a seat waiting: the seat box, its Send button and the bid board all in sight', async () => {
  for (const viewport of [SCREEN, { width: 1024, height: 768 }]) {
    const { page, context, errors } = await openApp(session.browser, session.server.url, viewport);
    await page.getByTestId('open-rail-debate').click();
    await page.getByTestId('tab-class').click();
    await page.getByTestId('seat-0').check();
    await page.getByTestId('speed').selectOption('0');
    await page.getByTestId('run').click();
    await page.getByTestId('seat').waitFor();
    await page.getByTestId('projector').click();
    await eventually(async () => {
      const r = await page.evaluate(() => {
        const box = (s) => document.querySelector(s).getBoundingClientRect();
        const [text, send, board] = [box('[data-testid=seat-text]'), box('[data-testid=seat-send]'), box('[data-testid=bid-board] [data-testid=panel-gist]')];
        return { text: [text.top, text.bottom, text.height], send: [send.top, send.bottom], board: [board.top, board.bottom], height: innerHeight };
      });
      const at = `${viewport.width}: ${JSON.stringify(r)}`;
      // Three lines of the projector's type at least, and the button below the box, not over it.
      assert.ok(r.text[2] >= 60, `the seat's box has room to type in (${at})`);
      assert.ok(r.send[0] >= r.text[1] - 1, `Send sits under the box (${at})`);
      assert.ok(r.board[1] <= r.height, `the bid board's sentence is in sight (${at})`);
    });
    assert.deepEqual(errors, []);
    await context.close();
  }
});
