// Comparisons side by side: two methods stepped together with the strip checked against each
// column's event log (through `agora compare` on the saved file), the link and the past runs
// bringing a comparison back with its runs, what a bad comparison says, and every panel fitting
// its column in a two-column comparison at 1280 px.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { appSession, comparisonColumns, cutOff, eventually, openApp, openOnServer, root, setComparison } from './helpers.mjs';
import { startLlmServer } from './llm-server.mjs';

const session = appSession();
let llm;
before(async () => { llm = await startLlmServer(); });
after(async () => { await llm.close(); });

/**
 * Opens `preset` (unless null: the scenario being edited) and compares it over `vary` with
 * `values`; the comparison page's frame.
 */
async function compare(page, preset, vary, values) {
  if (preset) await page.getByTestId(`open-${preset}`).click();
  await setComparison(page, vary, values);
  await page.getByTestId('compare-open').click();
  return comparisonColumns(page, 2, { atLeast: true });
}

/** Each column's message count, as its transcript's header shows it. */
async function counts(frame) {
  const texts = await frame.getByTestId('message-count').allTextContents();
  return texts.map((t) => Number(t.match(/\d+/)[0]));
}

async function saveJson(page, frame) {
  const [file] = await Promise.all([page.waitForEvent('download'), frame.getByTestId('compare-json').click()]);
  return readFileSync(await file.path(), 'utf8');
}

/** The strip's cells: for each column, its figures by CSV column name. */
async function stripCells(frame) {
  return frame.getByTestId('compare-strip').evaluate((table) => {
    const columns = [...table.querySelectorAll('thead th[scope=col]')].map(() => ({}));
    for (const row of table.querySelectorAll('tbody tr')) {
      [...row.querySelectorAll('td')].forEach((td, i) => { columns[i][td.dataset.figure] = td.dataset.value; });
    }
    return columns;
  });
}

/** `agora compare` of a saved comparison: each column's figures by CSV column name. */
function nativeFigures(json) {
  const path = join(tmpdir(), `agora-e2e-compare-${process.pid}.json`);
  writeFileSync(path, json);
  const csv = execFileSync(join(root, 'target', 'release', 'agora'), ['compare', path], { encoding: 'utf8' }).trim().split('\n');
  const header = csv[0].split(',');
  return csv.slice(1).map((line) => Object.fromEntries(line.split(',').map((cell, i) => [header[i], cell])));
}

test('two methods step together, and the strip is what each column\'s event log says', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url, { width: 1280, height: 900 });
  const frame = await compare(page, 'rail-debate', 'method', 'bidding, round_robin');
  assert.deepEqual(await frame.locator('[data-testid=compare-column] h3').allTextContents(), ['method: bidding', 'method: round_robin']);
  // Each column shows its own method's panel.
  await frame.getByTestId('compare-step').click();
  await eventually(async () => assert.deepEqual(await counts(frame), [1, 1]), { timeout: 15000 });
  for (let step = 2; step <= 4; step += 1) {
    await frame.getByTestId('compare-step').click();
    await eventually(async () => assert.deepEqual(await counts(frame), [step, step]), { timeout: 15000 });
  }
  const saved = JSON.parse(await saveJson(page, frame));
  assert.equal(saved.format, 'agora-comparison');
  assert.deepEqual(saved.values, ['bidding', 'round_robin']);
  const turns = saved.runs.map((run) => Math.max(...run.events.map((e) => e.turn ?? 0)));
  assert.deepEqual(turns, [3, 3], 'both columns stepped to turn 3 together');
  assert.ok(saved.runs[0].events.some((e) => e.type === 'bid'), 'the bidding column bid');
  assert.ok(!saved.runs[1].events.some((e) => e.type === 'bid'), 'round robin needs no bids');
  // The strip, cell by cell, against the figures the terminal reads from the saved logs.
  const native = nativeFigures(JSON.stringify(saved));
  await eventually(async () => {
    const shown = await stripCells(frame);
    assert.equal(shown.length, 2);
    for (const [i, column] of shown.entries()) {
      assert.equal(native[i].column, `method: ${saved.values[i]}`);
      for (const [figure, value] of Object.entries(column)) assert.equal(value, native[i][figure], `${figure} of column ${i}`);
    }
  });
  // And the floor shares against the transcripts: each agent's share of the column's speeches.
  for (const [i, run] of saved.runs.entries()) {
    const speeches = run.events.filter((e) => e.type === 'message' && e.kind !== 'injected');
    const agent = 'Donald Trump';
    const share = speeches.filter((e) => e.speaker === agent).length / speeches.length;
    assert.ok(Math.abs(Number(native[i][`floor_share:${agent}`]) - share) < 1e-3, `${agent}'s share in column ${i}`);
  }
  // The figures as CSV are the terminal's.
  const [csv] = await Promise.all([page.waitForEvent('download'), frame.getByTestId('compare-csv').click()]);
  const path = join(tmpdir(), `agora-e2e-compare-${process.pid}.json`);
  writeFileSync(path, JSON.stringify(saved));
  assert.equal(readFileSync(await csv.path(), 'utf8'), execFileSync(join(root, 'target', 'release', 'agora'), ['compare', path], { encoding: 'utf8' }));
  assert.deepEqual(errors, []);
});

test('a comparison being stepped comes back after a reload with each column where it was, and steps on as if never left', async () => {
  const speakers = (file) => file.runs.map((r) => r.events.filter((e) => e.type === 'message').map((e) => `${e.speaker}: ${e.text}`));
  const { page, errors } = await openApp(session.browser, session.server.url, { width: 1280, height: 900 });
  const frame = await compare(page, 'rail-debate', 'method', 'bidding, round_robin');
  for (let step = 1; step <= 3; step += 1) {
    await frame.getByTestId('compare-step').click();
    await eventually(async () => assert.deepEqual(await counts(frame), [step, step]), { timeout: 15000 });
  }
  const before = JSON.parse(await saveJson(page, frame));
  // Reloaded at once: what the page keeps as it leaves is enough.
  await page.reload();
  const again = page.getByTestId('compare-frame');
  await eventually(async () => assert.deepEqual(await counts(again), [3, 3]), { timeout: 30000 });
  assert.deepEqual(speakers(JSON.parse(await saveJson(page, again))), speakers(before));
  // Paused where it was; the next step is the one an uninterrupted comparison takes.
  await again.getByTestId('compare-step').click();
  await eventually(async () => assert.deepEqual(await counts(again), [4, 4]), { timeout: 15000 });
  const resumed = JSON.parse(await saveJson(page, again));
  const other = await openApp(session.browser, session.server.url, { width: 1280, height: 900 });
  const whole = await compare(other.page, 'rail-debate', 'method', 'bidding, round_robin');
  for (let step = 1; step <= 4; step += 1) {
    await whole.getByTestId('compare-step').click();
    await eventually(async () => assert.deepEqual(await counts(whole), [step, step]), { timeout: 15000 });
  }
  assert.deepEqual(speakers(resumed), speakers(JSON.parse(await saveJson(other.page, whole))));
  // Closed, it is not brought back.
  await page.getByTestId('compare-close').click();
  await page.reload();
  await page.getByTestId('preset-list').waitFor();
  assert.equal(await page.getByTestId('compare-frame').count(), 0);
  assert.deepEqual([...errors, ...other.errors], []);
});

test('a comparison played to the end is kept with the past runs and travels as a link', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url, { width: 1280, height: 900 });
  const frame = await compare(page, 'rail-debate', 'seed', '3, 8');
  await frame.getByTestId('compare-play').click();
  // Both columns play to their turn limit.
  await eventually(async () => {
    const saved = JSON.parse(await saveJson(page, frame));
    assert.deepEqual(saved.runs.map((r) => r.events.at(-1).type), ['run_finished', 'run_finished']);
  }, { timeout: 60000 });
  const finished = JSON.parse(await saveJson(page, frame));
  assert.notDeepEqual(finished.runs[0].events.filter((e) => e.type === 'message').map((e) => e.speaker),
    finished.runs[1].events.filter((e) => e.type === 'message').map((e) => e.speaker), 'two seeds, two debates');
  // Each finished column says so, and why.
  await eventually(async () => assert.deepEqual(await frame.getByTestId('column-finished').allTextContents(), ['Finished: turn limit reached.', 'Finished: turn limit reached.']));
  // Both at their end: nothing left to step, play or pause; Reset stays.
  for (const button of ['compare-step', 'compare-play', 'compare-pause']) {
    await eventually(async () => assert.ok(await frame.getByTestId(button).isDisabled(), `${button} is disabled`));
  }
  assert.ok(await frame.getByTestId('compare-reset').isEnabled());
  await frame.getByTestId('compare-link').click();
  await eventually(async () => assert.match(await frame.getByTestId('compare-note').textContent(), /^Link with its runs copied to the clipboard \(\d+ characters\)\.$/));
  // The link in a box of its own, inside the frame's width (not printed into the note).
  const url = await frame.getByTestId('compare-url').inputValue();
  const [box, page0] = await Promise.all([frame.getByTestId('compare-url').boundingBox(), frame.getByTestId('comparison').boundingBox()]);
  assert.ok(box.x + box.width <= page0.x + page0.width + 1, 'the link box stays inside the comparison');
  assert.match(url, /#cmp=1\./);
  await page.getByTestId('compare-close').click();
  await eventually(async () => assert.equal(await page.getByTestId('compare-frame').count(), 0));
  // Kept: the past runs (on the start screen) list it, and it opens with both runs recorded.
  await page.getByTestId('to-gallery').click();
  const past = page.getByTestId('past-run').filter({ hasText: 'compared by seed' });
  await eventually(async () => assert.equal(await past.count(), 1));
  assert.match(await past.textContent(), /2 columns/);
  await past.getByTestId('past-open').click();
  const reopened = await comparisonColumns(page, 2);
  const kept = JSON.parse(await saveJson(page, reopened));
  assert.deepEqual(kept.runs.map((r) => r.events.length), finished.runs.map((r) => r.events.length));
  // The link, in a page of its own: the same runs, replayed from the recording.
  const other = await openApp(session.browser, url, { width: 1280, height: 900 }, 'compare-frame');
  const linked = await comparisonColumns(other.page, 2);
  await linked.getByTestId('compare-step').click();
  await eventually(async () => assert.deepEqual(await counts(linked), [1, 1]));
  const fromLink = JSON.parse(await saveJson(other.page, linked));
  for (const i of [0, 1]) {
    const first = fromLink.runs[i].events.filter((e) => e.type === 'message').map((e) => e.text);
    const recorded = finished.runs[i].events.filter((e) => e.type === 'message').map((e) => e.text);
    assert.deepEqual(first, recorded.slice(0, first.length), 'replayed from the recording');
  }
  assert.deepEqual(errors, []);
  assert.deepEqual(other.errors, []);
});

test('columns on a provider use the key held in memory, share its limit on calls in flight and split the spending cap', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url, { width: 1280, height: 900 });
  await openOnServer(page, llm.url, 'rail-debate', { key: 'sk-compare-test', turns: 3 });
  await page.getByTestId('field-model.network.concurrency').fill('1');
  await page.getByTestId('field-model.spending_cap.tokens').fill('100000');
  llm.reset();
  llm.latency = 50;
  const frame = await compare(page, null, 'seed', '1, 2');
  await frame.getByTestId('compare-play').click();
  const saved = await eventually(async () => {
    const file = JSON.parse(await saveJson(page, frame));
    assert.deepEqual(file.runs.map((r) => r?.events.at(-1).type), ['run_finished', 'run_finished']);
    return file;
  }, { timeout: 60000, interval: 500 });
  const posts = llm.requests.filter((r) => r.method === 'POST');
  const calls = saved.runs.map((r) => r.events.filter((e) => e.type === 'model_call').length);
  assert.equal(posts.length, calls[0] + calls[1], 'every call of both columns reached the server');
  assert.ok(calls.every((n) => n >= 3), `${calls} calls`);
  assert.ok(posts.every((r) => r.headers.authorization === 'Bearer sk-compare-test'), 'the key typed in the app');
  // Three bids a turn in two columns, and never more than one call at the server at a time.
  assert.equal(llm.mostInFlight, 1);
  // Each column may spend half of the cap: its log says so.
  for (const run of saved.runs) {
    assert.equal(run.scenario.model.spending_cap.tokens, 50000);
  }
  assert.deepEqual(errors, []);
});

test('a comparison that cannot be made says why, and a broken link changes nothing', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  const cases = [
    ['method', 'bidding', /2 to 4 columns/],
    ['method.nonsense', '1, 2', /no setting method\.nonsense/],
    ['', '1, 2', /differ in/],
  ];
  for (const [vary, values, expected] of cases) {
    await setComparison(page, vary, values);
    await page.getByTestId('compare-open').click();
    const frame = page.getByTestId('compare-frame');
    await eventually(async () => assert.match(await frame.getByTestId('compare-error').textContent(), expected), { timeout: 30000 });
    assert.equal(await frame.getByTestId('compare-column').count(), 0);
  }
  // A link whose data is damaged is refused by the app; one that unpacks to something other than
  // a comparison is refused by the comparison page, which says what it found.
  const broken = await openApp(session.browser, `${session.server.url}#cmp=1.not-a-comparison`);
  await eventually(async () => assert.match(await broken.page.getByTestId('link-notice').textContent(), /could not be opened: .*(damaged|cut short)/));
  assert.equal(await broken.page.getByTestId('compare-frame').count(), 0);
  const packed = deflateSync(JSON.stringify({ format: 'agora-run', version: 1 })).toString('base64url');
  const stray = await openApp(session.browser, `${session.server.url}#cmp=1.${packed}`, undefined, 'compare-frame');
  const strayFrame = stray.page.getByTestId('compare-frame');
  await eventually(async () => assert.match(await strayFrame.getByTestId('compare-error').textContent(), /not an Agora comparison \(format "agora-run"\)/), { timeout: 30000 });
  assert.deepEqual(errors, []);
  assert.deepEqual(broken.errors, []);
  assert.deepEqual(stray.errors, []);
});

for (const [preset, vary, values] of [
  ['rail-debate', 'method', 'bidding, director'],
  ['town-hall-selector', 'method', 'handoff, selector'],
  ['trading-game', 'seed', '1, 2'],
]) {
  test(`every panel of ${preset} compared by ${vary} (${values}) fits its column at 1280 px`, async () => {
    const { page, errors } = await openApp(session.browser, session.server.url, { width: 1280, height: 720 });
    const frame = await compare(page, preset, vary, values);
    await frame.getByTestId('compare-play').click();
    // The comparison is drawn in the page itself.
    const inner = page;
    await eventually(async () => {
      const saved = JSON.parse(await saveJson(page, frame));
      assert.ok(saved.runs.every((r) => r?.events.at(-1).type === 'run_finished'));
    }, { timeout: 90000 });
    const cut = await eventually(async () => {
      const found = await cutOff(inner);
      assert.ok(await frame.getByTestId('message').count() > 0);
      return found;
    });
    assert.deepEqual(cut, []);
    // A director's column that a stop draw ended early says so, with the draw's odds, so a show
    // of one turn does not look broken (the rail debate's seed stops it at its first draw).
    if (values.includes('director')) {
      await eventually(async () => assert.deepEqual(await frame.getByTestId('column-finished').allTextContents(),
        ['Finished: turn limit reached.', 'Finished: the director ended the show on its stop draw, 1 chance in 5 each turn.']));
    }
    assert.ok(await inner.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 1280);
    assert.deepEqual(errors, []);
  });
}

for (const viewport of [{ width: 1280, height: 720 }, { width: 1024, height: 768 }]) {
  test(`at ${viewport.width} by ${viewport.height}, an open comparison scrolls in one place, its columns' transcripts in view`, async () => {
    const { page, errors } = await openApp(session.browser, session.server.url, viewport);
    const frame = await compare(page, 'rail-debate', 'method', 'bidding, director');
    await frame.getByTestId('compare-step').click();
    await eventually(async () => assert.deepEqual(await counts(frame), [1, 1]), { timeout: 15000 });
    // The page around the frame fits the window: only the frame scrolls.
    assert.ok(await page.evaluate(() => document.documentElement.scrollHeight <= innerHeight + 1), 'the page scrolls too');
    const box = await page.getByTestId('compare-frame').boundingBox();
    assert.ok(box.y + box.height <= viewport.height + 1, `the frame ends at ${box.y + box.height}`);
    // Inside it, each column's transcript starts in view (in the box's top half), before the strip
    // of figures.
    const tops = await frame.locator('[data-testid=compare-column] .transcript').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().top));
    const inner = box.height;
    assert.equal(tops.length, 2);
    for (const top of tops) assert.ok(top - box.y < inner / 2, `a transcript starts at ${top - box.y} of ${inner}`);
    const strip = await frame.getByTestId('compare-strip').evaluate((e) => e.getBoundingClientRect().top);
    assert.ok(strip > Math.max(...tops));
    assert.deepEqual(errors, []);
  });
}
