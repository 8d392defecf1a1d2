// axe-core with the WCAG 2.x A and AA rules (2.2's 24 px targets among them) on every screen a
// class meets: the start screen, the stage in each state of a run, every tab, the projector, a
// seat waiting for the class, an open room and a student's phone, at 1280 by 720, 1024 by 768 and
// on a 390 by 844 phone, with reduced motion asked for. Then the page at 320 px wide and at 200 %
// zoom (640 by 360 CSS pixels) needs no sideways scrolling.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { eventually, loopbackOnly, roomSession, runPreset, waitForStatus } from './helpers.mjs';

const AXE = readFileSync(new URL('../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const SIZES = [
  { name: '1280x720', options: { viewport: { width: 1280, height: 720 } } },
  { name: '1024x768', options: { viewport: { width: 1024, height: 768 } } },
  { name: 'phone', options: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
];

const ctx = roomSession();

/** A page of its own, asking for reduced motion, with the room's settings pointing at loopback. */
async function open(url, options) {
  const context = await ctx.browser.newContext({ ...options, reducedMotion: 'reduce' });
  await context.addInitScript(loopbackOnly);
  await context.addInitScript((s) => localStorage.setItem('agora.room', s), JSON.stringify({ relay: ctx.relay.url, ice: ctx.turn.ice }));
  const page = await context.newPage();
  await page.goto(url);
  return page;
}

/** axe's violations on `page` as lines naming the screen, the rule and the first elements. */
async function violations(page, screen) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  const result = await page.evaluate((tags) => window.axe.run(document, { runOnly: { type: 'tag', values: tags } }), TAGS);
  return result.violations.map((v) => `${screen}: ${v.id} (${v.nodes.length}) ${v.nodes.slice(0, 3)
    .map((n) => `${n.target.join(' ')}: ${n.failureSummary.replace(/\s+/g, ' ').slice(0, 200)}`).join(' | ')}`);
}

/** How far the page scrolls sideways, and what sticks out past its right edge. */
function sideways(page) {
  return page.evaluate(() => {
    const d = document.scrollingElement;
    const width = d.clientWidth;
    const out = [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > width + 1 && getComputedStyle(e).position !== 'fixed')
      .slice(-4).map((e) => `${e.tagName.toLowerCase()}.${e.className} ${e.dataset.testid ?? ''}`);
    return d.scrollWidth > width ? `${d.scrollWidth - width} px too wide (${out.join(', ')})` : '';
  });
}

for (const { name, options } of SIZES) {
  test(`at ${name} axe finds no WCAG 2.2 A or AA violation on the start screen, the stage, every tab, the projector and a waiting seat`, async () => {
    const page = await open(ctx.server.url, options);
    const found = [];
    await page.getByTestId('preset-list').waitFor();
    found.push(...await violations(page, 'start screen'));

    await page.getByTestId('open-rail-debate').click();
    await page.getByTestId('run').waitFor();
    found.push(...await violations(page, 'stage before a run'));

    // Running, read aloud: a speech stays on screen for seconds, so the page holds still for axe.
    await page.getByTestId('speed').selectOption({ index: 0 });
    await page.getByTestId('run').click();
    await page.locator('[data-testid=message]:not(.injected)').first().waitFor({ timeout: 30000 });
    await waitForStatus(page, 'Running');
    found.push(...await violations(page, 'stage while running'));
    await page.getByTestId('pause').click();
    await waitForStatus(page, 'Paused');
    found.push(...await violations(page, 'stage paused'));

    await page.getByTestId('speed').selectOption('0');
    await page.getByTestId('run').click();
    await waitForStatus(page, 'Finished');
    found.push(...await violations(page, 'stage finished'));
    for (const tab of await page.locator('[data-testid^=tab-]').all()) {
      const id = (await tab.getAttribute('data-testid')).slice('tab-'.length);
      await tab.click();
      await page.getByTestId(`pane-${id}`).waitFor();
      found.push(...await violations(page, `tab ${id}`));
    }
    await page.getByTestId('projector').click();
    await page.locator('main.projector').waitFor();
    found.push(...await violations(page, 'projector'));
    await page.getByTestId('projector').click();
    await page.locator('main.projector').waitFor({ state: 'detached' });

    // The class plays a candidate: the stage says so before Run, then the seat asks.
    await page.getByTestId('reset').click();
    await page.getByTestId('tab-class').click();
    await page.getByTestId('seat-0').check();
    found.push(...await violations(page, 'a seat taken, before Run'));
    await page.getByTestId('run').click();
    await page.getByTestId('seat').waitFor({ timeout: 30000 });
    found.push(...await violations(page, 'a seat waiting'));
    await page.getByTestId('projector').click();
    await page.locator('main.projector').waitFor();
    found.push(...await violations(page, 'a seat waiting, in the projector'));
    await page.context().close();
    assert.deepEqual(found, []);
  });
}

test('axe finds no violation on a finished run of every other method, on the stage and in the projector', async () => {
  const found = [];
  for (const preset of ['daily-show-director', 'ai-morality-handoff', 'town-hall-selector', 'trading-game', 'rail-debate-random']) {
    const page = await open(ctx.server.url, SIZES[1].options);
    await page.getByTestId('preset-list').waitFor();
    await runPreset(page, preset);
    found.push(...await violations(page, `${preset} finished`));
    await page.getByTestId('projector').click();
    await page.locator('main.projector').waitFor();
    found.push(...await violations(page, `${preset} in the projector`));
    await page.context().close();
  }
  assert.deepEqual(found, []);
});

test('axe finds no violation on an open room, its projector view and a student\'s phone, joined and seated', async () => {
  const teacher = await open(ctx.server.url, SIZES[0].options);
  const found = [];
  await teacher.getByTestId('open-rail-debate').click();
  await teacher.getByTestId('tab-class').click();
  await teacher.getByTestId('seat-0').check();
  await teacher.getByTestId('room-open').click();
  const link = await teacher.getByTestId('room-link').getAttribute('href');
  await teacher.getByTestId('room-code').waitFor();
  found.push(...await violations(teacher, 'room open (teacher)'));

  const phone = await open(link, SIZES[2].options);
  await phone.getByTestId('phone-name').waitFor();
  found.push(...await violations(phone, 'phone, joining'));
  await phone.getByTestId('phone-name').fill('Ann');
  await phone.getByTestId('phone-join').click();
  await phone.getByTestId('phone-who').waitFor({ timeout: 30000 });
  await eventually(async () => assert.equal(await teacher.getByTestId('room-student').count(), 1), { timeout: 30000 });
  found.push(...await violations(phone, 'phone, joined'));
  found.push(...await violations(teacher, 'room with a student (teacher)'));
  await phone.getByRole('button', { name: 'Donald Trump' }).first().click();
  await eventually(async () => assert.match(await phone.getByTestId('phone-who').textContent(), /you play Donald Trump/));
  found.push(...await violations(phone, 'phone, seated'));
  await teacher.getByTestId('projector').click();
  await teacher.locator('main.projector').waitFor();
  found.push(...await violations(teacher, 'room in the projector'));
  await phone.context().close();
  await teacher.context().close();
  assert.deepEqual(found, []);
});

for (const viewport of [{ width: 320, height: 640 }, { width: 640, height: 360 }]) {
  test(`at ${viewport.width} by ${viewport.height} (a narrow phone, or 200 % zoom) nothing needs sideways scrolling`, async () => {
    const page = await open(ctx.server.url, { viewport });
    const wide = [];
    const look = async (screen) => { const w = await sideways(page); if (w) wide.push(`${screen}: ${w}`); };
    await page.getByTestId('preset-list').waitFor();
    await look('start screen');
    await runPreset(page, 'rail-debate');
    await look('stage finished');
    for (const tab of await page.locator('[data-testid^=tab-]').all()) {
      const id = (await tab.getAttribute('data-testid')).slice('tab-'.length);
      await tab.click();
      await page.getByTestId(`pane-${id}`).waitFor();
      await look(`tab ${id}`);
    }
    await page.getByTestId('projector').click();
    await page.locator('main.projector').waitFor();
    await look('projector');
    await page.context().close();
    assert.deepEqual(wide, []);
  });
}
