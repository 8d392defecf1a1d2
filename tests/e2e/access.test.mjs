// Keyboard reach, contrast and projector width, checked on finished runs of every method (with
// malformed replies, so retries, defaults, fallbacks and invalid actions are on screen too).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appSession, eventually, openAllSections, openApp, runPreset, waitForCount, waitForStatus } from './helpers.mjs';

const session = appSession();

/** Opens every collapsed section, then waits for the inspector's calls and their sent messages. */
async function openAll(page) {
  await openAllSections(page);
  const calls = await page.getByTestId('call').count();
  assert.ok(calls >= 10, `the inspector lists the calls of all ten turns (${calls})`);
  await waitForCount(page, 'call-raw', calls);
  await eventually(async () => assert.ok(await page.locator('[data-testid=call] .sent pre').count() >= calls, 'every call shows what was sent'));
}

/**
 * Puts the colour arithmetic both checks need on the page as `window.colours`: parsing computed
 * colours, painting one over another, WCAG contrast, and the colour behind an element.
 */
function installColours(page) {
  return page.evaluate(() => {
    const parse = (c) => {
      const m = c.match(/rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:,? \/? ?([\d.]+))?\)/);
      if (!m) return null;
      return { r: +m[1], g: +m[2], b: +m[3], a: m[4] === undefined ? 1 : +m[4] };
    };
    const over = (top, bottom) => ({
      r: top.r * top.a + bottom.r * (1 - top.a),
      g: top.g * top.a + bottom.g * (1 - top.a),
      b: top.b * top.a + bottom.b * (1 - top.a),
      a: 1,
    });
    const luminance = ({ r, g, b }) => {
      const lin = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    const ratio = (x, y) => {
      const [hi, lo] = [luminance(x), luminance(y)].sort((a, b) => b - a);
      return (hi + 0.05) / (lo + 0.05);
    };
    // The colour behind an element: its own and its ancestors' backgrounds, painted bottom up.
    const background = (el) => {
      const layers = [];
      for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
        const c = parse(getComputedStyle(e).backgroundColor);
        if (c && c.a > 0) layers.push(c);
        if (c && c.a === 1) break;
      }
      let color = { r: 255, g: 255, b: 255, a: 1 };
      for (const layer of layers.reverse()) color = over(layer, color);
      return color;
    };
    window.colours = { parse, over, ratio, background };
  });
}

/**
 * Every piece of visible text whose contrast with what is behind it is under WCAG AA (4.5:1, or
 * 3:1 for large text), as "ratio text (color on background)". Disabled controls are exempt.
 */
async function lowContrast(page) {
  await installColours(page);
  return page.evaluate(() => {
    const { parse, over, ratio, background } = window.colours;
    const found = [];
    const check = (el, text) => {
      const style = getComputedStyle(el);
      if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return;
      if (el.closest(':disabled')) return;
      const isSvg = el instanceof SVGElement;
      const fg = parse(isSvg ? style.fill : style.color);
      if (!fg) return;
      const bg = background(isSvg ? el.closest('svg').parentElement : el);
      const size = parseFloat(style.fontSize);
      const bold = parseInt(style.fontWeight, 10) >= 700;
      const large = size >= 24 || (bold && size >= 18.66);
      const r = ratio(over(fg, bg), bg);
      if (r < (large ? 3 : 4.5)) {
        found.push(`${r.toFixed(2)} "${text.slice(0, 40)}" (${isSvg ? style.fill : style.color} on rgb(${Math.round(bg.r)}, ${Math.round(bg.g)}, ${Math.round(bg.b)}))`);
      }
    };
    for (const el of document.body.querySelectorAll('*')) {
      const own = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('').trim();
      if (own) check(el, own);
      else if (el.matches('input:not([type=checkbox]), select, textarea') && el.value) check(el, el.value);
    }
    return [...new Set(found)];
  });
}

/** Marks every visible, enabled control, tabs through the page, returns the ones Tab never reached. */
async function unreachable(page) {
  const count = await page.evaluate(() => {
    const controls = [...document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]')]
      .filter((e) => !e.disabled && e.tabIndex >= 0 && e.checkVisibility({ visibilityProperty: true }));
    controls.forEach((e, i) => e.setAttribute('data-reach', String(i)));
    document.activeElement?.blur();
    window.reached = new Set();
    document.addEventListener('focusin', (ev) => {
      const i = ev.target.getAttribute?.('data-reach');
      if (i !== null && i !== undefined) window.reached.add(i);
    });
    return controls.length;
  });
  assert.ok(count > 15, `the finished page has many controls (${count})`);
  // Scroll containers (every overflowing message in the opened inspector) take a Tab stop of
  // their own: press until every control was reached, or twice round the page and then some.
  const scrollers = await page.evaluate(() => [...document.querySelectorAll('*')].filter((e) => {
    const s = getComputedStyle(e);
    const scrolls = (o) => o === 'auto' || o === 'scroll';
    return (scrolls(s.overflowX) && e.scrollWidth > e.clientWidth) || (scrolls(s.overflowY) && e.scrollHeight > e.clientHeight);
  }).length);
  const limit = 2 * (count + scrollers) + 60;
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if (i % 25 === 0 && (await page.evaluate((n) => window.reached.size === n, count))) break;
  }
  return page.evaluate((n) => {
    const missed = [];
    for (let i = 0; i < n; i++) {
      if (!window.reached.has(String(i))) {
        const e = document.querySelector(`[data-reach="${i}"]`);
        missed.push(`${e.tagName.toLowerCase()} ${e.getAttribute('data-testid') ?? ''} ${(e.textContent || e.getAttribute('aria-label') || '').trim().slice(0, 30)}`);
      }
    }
    return missed;
  }, count);
}

for (const id of ['rail-debate', 'daily-show-director', 'ai-morality-handoff', 'trading-game']) {
  test(`${id}: every control is reachable by Tab and all text has AA contrast`, async () => {
    const { page, errors } = await openApp(session.browser, session.server.url);
    await runPreset(page, id, { malformed: 0.4 });
    // The stage, then each tab of the drawer beside it.
    await openAll(page);
    assert.deepEqual(await lowContrast(page), [], 'text under AA contrast on the stage');
    assert.deepEqual(await unreachable(page), [], 'controls Tab never reached on the stage');
    for (const tab of ['scenario', 'class', 'files', 'stats', 'judge', 'batch', 'compare', 'inspector']) {
      await page.getByTestId(`tab-${tab}`).click();
      await openAll(page);
      assert.deepEqual(await lowContrast(page), [], `text under AA contrast with ${tab} open`);
      assert.deepEqual(await unreachable(page), [], `controls Tab never reached with ${tab} open`);
    }
    assert.deepEqual(errors, []);
  });
}

test('the focus ring stands out from what is around it (3:1)', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await installColours(page);
  for (const id of ['run', 'open-rail-debate', 'field-title', 'add-agent']) {
    await page.getByTestId(id).focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    const ring = await page.getByTestId(id).evaluate((el) => {
      const { parse, over, ratio, background } = window.colours;
      const s = getComputedStyle(el);
      const behind = background(el.parentElement);
      const colour = parse(s.outlineColor);
      return {
        style: s.outlineStyle,
        width: parseFloat(s.outlineWidth),
        contrast: colour ? ratio(over(colour, behind), behind) : 0,
        shown: `${s.outlineColor} on rgb(${Math.round(behind.r)}, ${Math.round(behind.g)}, ${Math.round(behind.b)})`,
      };
    });
    assert.notEqual(ring.style, 'none', `${id} shows a focus ring`);
    assert.ok(ring.width >= 2, `${id}'s focus ring is at least 2px`);
    assert.ok(ring.contrast >= 3, `${id}'s focus ring ${ring.shown}: ${ring.contrast.toFixed(2)}:1`);
  }
  assert.deepEqual(errors, []);
});

test('the keyboard alone opens a preset and runs it', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await page.getByTestId('open-ai-morality-handoff').focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('speed').focus();
  await page.keyboard.press('End'); // Instant, the last option
  await page.getByTestId('run').focus();
  await page.keyboard.press('Enter');
  await waitForStatus(page, 'Finished');
  assert.equal(await page.getByTestId('message').count(), 10);
  assert.match(await page.getByTestId('handoff-panel').textContent(), /Turn 10/);
  assert.deepEqual(errors, []);
});

test('on a projector (1024 by 768, text enlarged) nothing needs sideways scrolling', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url, { width: 1024, height: 768 });
  await page.addStyleTag({ content: 'html { font-size: 125% !important; }' });
  await runPreset(page, 'daily-show-director');
  await openAll(page);
  // Measured after openAll has waited for the opened sections' content (the inspector's
  // messages are the widest part of the page).
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 1024, `the page is ${width}px wide`);
  assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize), '20px', 'the text is enlarged');
  for (const id of ['transcript', 'director-panel', 'stats']) {
    const box = await page.getByTestId(id).boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 1024, `${id} is within the screen`);
  }
  assert.deepEqual(errors, []);
});

test("a screen reader hears each finished speech once with its speaker and each turn's decision, and the transcript scrolls by keyboard", async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('speed').selectOption('0');
  const log = page.getByTestId('announcer');
  assert.equal(await log.getAttribute('role'), 'log');
  assert.equal(await log.getAttribute('aria-live'), 'polite');
  // The transcript itself is not a live region (rows redrawn there would be read again).
  const transcript = page.getByTestId('transcript');
  assert.equal(await transcript.getAttribute('aria-live'), null);
  // The opening (its moderator's question), then the first turn.
  await page.getByTestId('step').click();
  await waitForCount(page, 'message', 1, 30000);
  await eventually(async () => assert.equal(await page.getByTestId('step').isDisabled(), false));
  await page.getByTestId('step').click();
  await waitForCount(page, 'message', 2, 30000);
  const speech = page.getByTestId('message').nth(1);
  const [speaker, text] = [await speech.getAttribute('data-speaker'), await speech.getByTestId('message-text').textContent()];
  await eventually(async () => {
    const lines = await log.locator('p').allTextContents();
    assert.ok(lines.some((l) => new RegExp(`^Turn 1: ${speaker} takes the floor with a bid of \\d+`).test(l)), lines.join('\n'));
    assert.equal(lines.filter((l) => l === `${speaker}: ${text}`).length, 1, lines.join('\n'));
  });
  // Keyboard reach: Tab lands on the transcript, and the keys scroll it.
  assert.equal(await transcript.getAttribute('tabindex'), '0');
  assert.equal(await transcript.getAttribute('aria-label'), 'Transcript');
  assert.deepEqual(errors, []);
});
