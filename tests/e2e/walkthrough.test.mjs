// What a teacher new to Agora tripped on in a walkthrough (issue 56), each checked where it
// showed: the scenario's title in the projector, a phone's run controls beside an open tab, a
// judge that names who scored highest, tables that say they scroll, speeds named for a turn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appSession, eventually, openApp, screenshot, waitForStatus } from './helpers.mjs';

const session = appSession();
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** Plays the rail debate to its end at once. */
async function played(page) {
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished after turn 10');
}

/** Whether the element is wholly inside the window. */
const inWindow = (locator) => locator.evaluate((el) => {
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
});

for (const size of [{ width: 1280, height: 720 }, { width: 1024, height: 768 }]) {
  test(`the projector keeps the scenario's title in sight at ${size.width}x${size.height}`, async () => {
    const { page, context, errors } = await openApp(session.browser, session.server.url, size);
    await played(page);
    await page.getByTestId('projector').click();
    await page.locator('main.projector').waitFor();
    const title = page.getByTestId('stage-title');
    assert.equal(await title.textContent(), 'Presidential debate: transcontinental high-speed rail');
    assert.ok(await inWindow(title), 'the title is in the window');
    // Alone on its line: the tabs, the model badge and the way back stay out of the projector.
    for (const id of ['to-gallery', 'tab-scenario']) assert.equal(await page.getByTestId(id).isVisible(), false, id);
    // It costs the transcript no more than a line, and reads as a title, not a note.
    const box = await title.boundingBox();
    assert.ok(box.height < 40, `the title is ${box.height} px high`);
    assert.equal(await title.evaluate((el) => getComputedStyle(el).color), 'rgb(29, 29, 31)');
    // The teacher can slow the run down without leaving the projector.
    assert.ok(await page.getByTestId('speed').isVisible(), 'the speed is on the projector');
    assert.ok(await inWindow(page.getByTestId('speed')), 'the speed is in the window');
    await screenshot(page, `walkthrough-projector-title-${size.width}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test("a phone with a tab open keeps Run, Step and the projector's button in reach, Run brings the stage back, and the batch form is level", async () => {
  const { page, context, errors } = await openApp(session.browser, session.server.url, PHONE.viewport, 'preset-list', PHONE);
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('tab-batch').click();
  await page.getByTestId('batch-run').waitFor();
  for (const id of ['run', 'step', 'projector']) assert.ok(await inWindow(page.getByTestId(id)), `${id} in the window with the Batch tab open`);
  // The stage gives the drawer its place, so the tab's form is on the first screen too.
  assert.equal(await page.getByTestId('transcript').isVisible(), false);
  assert.ok(await inWindow(page.getByTestId('batch-run')));
  // The box to tick sits level with its words (their middles within 3 px).
  const [boxMid, wordsMid] = await page.getByTestId('batch-judge').evaluate((box) => {
    const label = box.closest('label');
    const range = document.createRange();
    range.selectNodeContents(label);
    const words = [...range.getClientRects()].filter((r) => r.width > 0 && r.left > box.getBoundingClientRect().right - 1);
    const b = box.getBoundingClientRect();
    const w = words[words.length - 1];
    return [b.top + b.height / 2, w.top + w.height / 2];
  });
  assert.ok(Math.abs(boxMid - wordsMid) <= 3, `box middle ${boxMid}, words middle ${wordsMid}`);
  // No progress bar counting "0 of 0 runs" before a batch has run.
  assert.equal(await page.locator('.batch-progress').isVisible(), false);
  await screenshot(page, 'walkthrough-phone-batch');
  // Run from here closes the tab, so the run (and any question to the class) is in sight.
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await eventually(async () => assert.equal(await page.raw.getByTestId('transcript').isVisible(), true));
  assert.equal(await page.raw.getByTestId('drawer').isVisible(), false);
  await waitForStatus(page, 'Finished after turn 10');
  // On a wide screen the tab stays open beside the stage.
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.getByTestId('tab-batch').click();
  await page.getByTestId('reset').click();
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished after turn 10');
  assert.equal(await page.raw.getByTestId('drawer').isVisible(), true);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the judge names who scored highest, its tables show a shadow where they scroll, and the statistics fit beside the stage', async () => {
  const { page, context, errors } = await openApp(session.browser, session.server.url, { width: 1280, height: 720 });
  await played(page);
  await page.getByTestId('tab-judge').click();
  await page.getByTestId('judge-run').click();
  await page.getByTestId('scorecard').waitFor({ timeout: 60000 });
  const leader = await page.getByTestId('judge-leader').textContent();
  const match = leader.match(/^Scored highest: (.+?)(?: \(tied\))?, with a mean of (\d\.\d) on the 1–5 scale\.$/);
  assert.ok(match, leader);
  // The names are those whose scores are highest in the table (the mean of their cells).
  const means = await page.locator('[data-testid=scorecard] tbody tr').evaluateAll((rows) => rows.map((r) => {
    const cells = [...r.querySelectorAll('td[data-dimension]')].map((td) => Number(td.textContent)).filter((n) => n > 0);
    return [r.dataset.agent, cells.reduce((a, b) => a + b, 0) / cells.length];
  }));
  const best = Math.max(...means.map(([, m]) => m));
  assert.equal(match[1], means.filter(([, m]) => Math.abs(m - best) < 1e-9).map(([a]) => a).join(' and '));
  assert.equal(match[2], best.toFixed(1));
  // A box wider than its space: the edge that hides more carries a shadow, painted from the box's
  // own background while its content scrolls.
  /** Whether `box` scrolls sideways and the shadow is painted at its right edge. */
  const hinted = (box) => box.evaluate((el) => {
    const scrolls = el.scrollWidth > el.clientWidth + 1;
    const style = getComputedStyle(el);
    return { scrolls, shadow: /radial-gradient/.test(style.backgroundImage) && /scroll/.test(style.backgroundAttachment) };
  });
  const card = await hinted(page.getByTestId('scorecard-box'));
  assert.ok(card.scrolls && card.shadow, JSON.stringify(card));
  await screenshot(page, 'walkthrough-judge-1280');
  // The statistics, agents across and measures down, fit beside the stage with no sideways
  // scroll (its shadow still ready for a cast too wide).
  await page.getByTestId('tab-stats').click();
  const stats = await hinted(page.getByTestId('stats'));
  assert.ok(!stats.scrolls && stats.shadow, JSON.stringify(stats));
  assert.deepEqual(await page.getByTestId('stats').locator('tbody th').allTextContents(),
    ['Calls', 'Orchestration', 'Speech', 'Tokens', 'Retries', 'Fallbacks', 'Refused', 'Empty']);
  assert.deepEqual(errors, []);
  await context.close();
});

test('every speed is named for what a class sees: a pace per turn, words a minute, or no pauses', async () => {
  const { page, context, errors } = await openApp(session.browser, session.server.url, { width: 1280, height: 720 });
  await page.getByTestId('open-rail-debate').click();
  const speeds = await page.getByTestId('speed').locator('option').allTextContents();
  assert.equal(speeds.length, 5);
  for (const s of speeds) assert.match(s, /^(Read aloud: \d+ words\/min|\w+: about [\d.]+ s a turn|Instant: no pauses)$/);
  // The one chosen shows whole in its box.
  for (const value of await page.getByTestId('speed').locator('option').evaluateAll((os) => os.map((o) => o.value))) {
    await page.getByTestId('speed').selectOption(value);
    const fits = await page.getByTestId('speed').evaluate((el) => {
      const probe = document.createElement('span');
      probe.style.font = getComputedStyle(el).font;
      probe.style.whiteSpace = 'pre';
      probe.style.position = 'absolute';
      probe.textContent = el.selectedOptions[0].textContent;
      document.body.append(probe);
      const width = probe.getBoundingClientRect().width;
      probe.remove();
      // Room for the text, the box's padding and its arrow.
      return width + 24 <= el.clientWidth;
    });
    assert.ok(fits, `${value} fits its box`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});
