// The page as a stage (issue 47): in every state a class watches (live at each speed, paused,
// stepping, a seat waiting, a room open, a verdict shown), at 1280 by 720 and 1024 by 768, in the
// normal and the projector view, the newest message is whole on screen, at least two messages
// before it show, and the current decision (the bid board with its winner, the director's turn,
// the handoff, the selection, the trading game's state) is in view, all without scrolling the
// page. On a 390 by 844 phone the stage and Play are on the first screen after a scenario is
// picked, and the gallery is the start screen. Screenshots of each go to tests/artifacts/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appSession, eventually, openApp, screenshot, waitForStatus } from './helpers.mjs';

const session = appSession();

const SIZES = [{ width: 1280, height: 720 }, { width: 1024, height: 768 }];
const PRESETS = ['rail-debate', 'arms-debate', 'daily-show-director', 'ai-morality-handoff', 'town-hall-selector', 'rail-debate-random', 'trading-game'];

/**
 * What the page shows of the stage, measured in the page: the newest message's box and the two
 * before it against the transcript's box and the window, the current decision's box against the
 * decisions column and the window, and whether the page itself scrolled. Returns the failures.
 */
function measure() {
  const fail = [];
  const vh = innerHeight, vw = innerWidth;
  if (scrollY > 0 || document.scrollingElement.scrollHeight > vh + 1) fail.push(`the page scrolls (${document.scrollingElement.scrollHeight} px in a ${vh} px window)`);
  const list = document.querySelector('[data-testid=transcript]')?.getBoundingClientRect();
  const rows = [...document.querySelectorAll('[data-testid=transcript] [data-testid=message]')];
  if (!list) return ['no transcript'];
  const within = (r, box) => r.top >= Math.max(box.top, 0) - 1 && r.bottom <= Math.min(box.bottom, vh) + 1 && r.left >= -1 && r.right <= vw + 1;
  const showing = (r, box) => Math.min(r.bottom, box.bottom, vh) - Math.max(r.top, box.top, 0);
  if (rows.length) {
    const newest = rows.at(-1).getBoundingClientRect();
    if (!within(newest, list)) fail.push(`the newest message (${Math.round(newest.top)} to ${Math.round(newest.bottom)}) is not whole in the transcript (${Math.round(list.top)} to ${Math.round(list.bottom)}, window ${vh})`);
    for (const row of rows.slice(-3, -1)) {
      const r = row.getBoundingClientRect();
      if (showing(r, list) < 18) fail.push(`a message before the newest shows ${Math.round(showing(r, list))} px`);
    }
  }
  const aside = document.querySelector('aside.decisions')?.getBoundingClientRect();
  const decision = document.querySelector('[data-testid=bid-turn], .director-turn, .handoff, .selections > li, [data-testid=negotiation-panel] .inventories, [data-testid=round-robin-panel] h2');
  if (decision && aside) {
    const r = decision.getBoundingClientRect();
    const needed = Math.min(r.height, 120);
    if (r.top < Math.max(aside.top, 0) - 1 || r.top + needed > Math.min(aside.bottom, vh) + 1) {
      fail.push(`the current decision (${decision.className || decision.tagName}: ${Math.round(r.top)} to ${Math.round(r.bottom)}) is out of view (decisions ${Math.round(aside.top)} to ${Math.round(aside.bottom)}, window ${vh})`);
    }
    if (r.left < -1 || r.right > vw + 1) fail.push('the current decision is cut off at the side');
  }
  const seat = document.querySelector('[data-testid=seat]');
  if (seat) {
    const r = seat.getBoundingClientRect();
    if (r.top < 0 || r.top + Math.min(r.height, 100) > vh) fail.push(`the seat's question (${Math.round(r.top)} to ${Math.round(r.bottom)}) is out of view`);
  }
  return fail;
}

/** Waits until the stage passes `measure` (the transcript follows its newest message a frame later). */
async function inView(page, what) {
  try {
    await eventually(async () => assert.deepEqual(await page.evaluate(measure), []), { timeout: 3000 });
  } catch (e) {
    throw new Error(`${what}: ${e.message}`);
  }
}

async function messages(page) {
  return page.locator('[data-testid=transcript] [data-testid=message]').count();
}

async function open(size, preset, projector, speed) {
  const { page, errors } = await openApp(session.browser, session.server.url, size);
  await page.getByTestId(`open-${preset}`).click();
  // The speed is the teacher's: the projector view hides it.
  if (speed) await page.getByTestId('speed').selectOption(speed);
  if (projector) {
    await page.getByTestId('projector').click();
    await page.locator('main.projector').waitFor();
  }
  return { page, errors };
}

for (const size of SIZES) {
  for (const projector of [false, true]) {
    const label = `${size.width}x${size.height}${projector ? ' projector' : ''}`;
    test(`${label}: every preset live at Quick and Fast, paused, stepped and finished keeps the stage in view`, async () => {
      for (const preset of PRESETS) {
        for (const speed of ['400', '120']) {
          const { page, errors } = await open(size, preset, projector, speed);
          await page.getByTestId('run').click();
          // Live: after each of the first messages.
          for (let n = 1; n <= 4; n++) {
            await eventually(async () => assert.ok((await messages(page)) >= n || (await page.getByTestId('status').textContent()).startsWith('Finished')), { timeout: 30000 });
            await inView(page, `${preset} at ${speed} ms, ${label}, live with ${n} messages`);
          }
          if (speed === '400') await screenshot(page, `stage-${preset}-${label.replace(' ', '-')}`);
          if (!(await page.getByTestId('status').textContent()).startsWith('Finished')) {
            await page.getByTestId('pause').click();
            await waitForStatus(page, 'Paused');
            await inView(page, `${preset}, ${label}, paused`);
            await page.getByTestId('step').click();
            await eventually(async () => assert.equal(await page.getByTestId('step').isDisabled(), false), { timeout: 30000 });
            await inView(page, `${preset}, ${label}, stepped`);
          }
          assert.deepEqual(errors, []);
          await page.close();
        }
        // Instant: the run is over at once.
        const { page, errors } = await open(size, preset, projector, '0');
        await page.getByTestId('run').click();
        await waitForStatus(page, 'Finished');
        await inView(page, `${preset}, ${label}, finished at Instant`);
        assert.deepEqual(errors, []);
        await page.close();
      }
    });

    test(`${label}: Slow and Read aloud keep the stage in view, and Read aloud holds a speech as long as saying it takes`, async () => {
      for (const preset of ['rail-debate', 'trading-game']) {
        for (const speed of ['1000', 'read']) {
          const { page, errors } = await open(size, preset, projector, speed);
          await page.getByTestId('run').click();
          await eventually(async () => assert.ok((await messages(page)) >= 2), { timeout: 60000 });
          await inView(page, `${preset} at ${speed}, ${label}`);
          if (speed === 'read' && preset === 'rail-debate') {
            // The opening and the first speech: the next waits as long as reading them takes.
            const shown = await messages(page);
            const words = await page.locator('[data-testid=transcript] [data-testid=message-text]').last().evaluate((e) => e.textContent.split(/\s+/).filter(Boolean).length);
            const start = Date.now();
            await eventually(async () => assert.ok((await messages(page)) > shown), { timeout: 60000 });
            const waited = Date.now() - start;
            assert.ok(waited >= words * 400 * 0.8, `the next message came ${waited} ms after a ${words}-word speech (at 150 words a minute: ${words * 400} ms)`);
          }
          assert.deepEqual(errors, []);
          await page.close();
        }
      }
    });
  }
}

/** Opens `preset` with `seat` taken by the class and runs it until the seat is asked. */
async function seated(size, preset, seat, projector) {
  const { page, errors } = await openApp(session.browser, session.server.url, size);
  await page.getByTestId(`open-${preset}`).click();
  // Seed 000's opening steps would ask the seat for its own description first.
  for (const step of ['specify_topic', 'describe_characters']) {
    if (await page.getByTestId(`field-opening.${step}`).isChecked()) await page.getByTestId(`field-opening.${step}`).uncheck();
  }
  await page.getByTestId(seat).check();
  await page.getByTestId('drawer-close').click();
  await page.getByTestId('speed').selectOption('120');
  if (projector) {
    await page.getByTestId('projector').click();
    await page.locator('main.projector').waitFor();
  }
  await page.getByTestId('run').click();
  await page.getByTestId('seat').waitFor({ timeout: 30000 });
  return { page, errors };
}

for (const size of SIZES) {
  for (const projector of [false, true]) {
    const label = `${size.width}x${size.height}${projector ? ' projector' : ''}`;
    test(`${label}: a seat waiting for a bid, a speech, a choice and a trade keeps the stage and the decision in view`, async () => {
      // A bid, then (answering 10) the speech.
      {
        const { page, errors } = await seated(size, 'rail-debate', 'seat-1', projector);
        await eventually(async () => assert.match(await page.locator('[data-testid=seat] h2').textContent(), /\(bid\)$/), { timeout: 30000 });
        // A turn or two in, so messages and a decision are there to keep in view.
        await inView(page, `${label}, a bid asked`);
        await page.getByTestId('seat-choice-9').click();
        await eventually(async () => assert.match(await page.locator('[data-testid=seat] h2').textContent(), /speech|speak/i), { timeout: 30000 });
        await inView(page, `${label}, a speech asked`);
        await screenshot(page, `stage-seat-speech-${label.replace(' ', '-')}`);
        assert.deepEqual(errors, []);
        await page.close();
      }
      for (const [preset, seat, what] of [['daily-show-director', 'seat-0', 'choice'], ['trading-game', 'seat-0', 'trade']]) {
        const { page, errors } = await seated(size, preset, seat, projector);
        await inView(page, `${label}, a ${what} asked`);
        await screenshot(page, `stage-seat-${what}-${label.replace(' ', '-')}`);
        assert.deepEqual(errors, []);
        await page.close();
      }
    });
  }
}

for (const size of SIZES) {
  test(`${size.width}x${size.height}: a judge's verdict shown beside a finished run keeps the stage in view, in the normal and the projector view`, async () => {
    const { page, errors } = await open(size, 'rail-debate', false, '0');
    await page.getByTestId('run').click();
    await waitForStatus(page, 'Finished');
    await page.getByTestId('tab-judge').click();
    await page.getByTestId('judge-run').click();
    await page.getByTestId('scorecard').waitFor({ timeout: 30000 });
    await inView(page, `${size.width}x${size.height}, verdict shown`);
    await page.getByTestId('projector').click();
    await page.locator('main.projector').waitFor();
    await inView(page, `${size.width}x${size.height} projector, verdict shown`);
    await screenshot(page, `stage-verdict-${size.width}x${size.height}-projector`);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('the start screen is the gallery; a picked scenario shows its stage with Play on the first screen of a 390 by 844 phone', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url, { width: 390, height: 844 });
  await page.getByTestId('start').waitFor();
  const card = await page.getByTestId('open-rail-debate').boundingBox();
  assert.ok(card.y + card.height <= 844, `the first card ends at ${card.y + card.height} px`);
  await screenshot(page, 'start-phone');
  await page.getByTestId('open-rail-debate').click();
  const run = await page.getByTestId('run').boundingBox();
  assert.ok(run.y + run.height <= 844, `Play (Run) ends at ${run.y + run.height} px on an 844 px screen`);
  const transcript = await page.getByTestId('transcript').boundingBox();
  assert.ok(transcript.y < 844, `the transcript starts at ${transcript.y} px`);
  await page.getByTestId('speed').selectOption('120');
  await page.getByTestId('run').click();
  await eventually(async () => assert.ok((await messages(page)) >= 3), { timeout: 30000 });
  const newest = await page.locator('[data-testid=transcript] [data-testid=message]').last().boundingBox();
  assert.ok(newest.y >= 0 && newest.y < 844, `the newest message starts at ${newest.y} px`);
  await screenshot(page, 'stage-phone');
  // Every tab of the drawer is on the phone's screen (none cut off at its edge), each a finger's size.
  const tabs = await page.locator('nav.tabs .tab').all();
  assert.equal(tabs.length, 8);
  for (const tab of tabs) {
    const box = await tab.boundingBox();
    const name = await tab.textContent();
    assert.ok(box.x >= 0 && box.x + box.width <= 390, `the ${name} tab spans ${box.x} to ${box.x + box.width} px of 390`);
    assert.ok(box.width >= 24 && box.height >= 24, `the ${name} tab is ${box.width} by ${box.height} px`);
  }
  // The drawer covers the phone's screen and closes back to the stage.
  await page.getByTestId('tab-scenario').click();
  await page.getByTestId('field-title').waitFor();
  await page.getByTestId('drawer-close').click();
  await page.getByTestId('transcript').waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

for (const size of [...SIZES, { width: 390, height: 844 }]) {
  test(`start screen at ${size.width}x${size.height}: the gallery's cards are on the first screen`, async () => {
    const { page, errors } = await openApp(session.browser, session.server.url, size);
    const first = await page.getByTestId('open-rail-debate').boundingBox();
    assert.ok(first.y + first.height <= size.height, `the first card ends at ${first.y + first.height} px`);
    await screenshot(page, `start-${size.width}x${size.height}`);
    assert.deepEqual(errors, []);
    await page.close();
  });
}
