// Rendering benchmark (prints figures; not a timed test). In headless Chromium, plays a bidding
// debate to 2,000 messages at full speed, then steps 40 more turns and measures, for each, the
// time from the app handing the turn's events to the view until the new message row is in the
// DOM (median and 95th percentile). It fails when that p95 reaches the 16 ms budget or when an
// existing row was re-rendered.
// Run: cd tests && node bench/render.mjs   (after `trunk build --release`)
import { serveDist, launch, openApp } from '../e2e/helpers.mjs';

const TARGET = 2000;
const STEPS = 40;
const server = await serveDist();
const browser = await launch();
try {
  const { page, errors } = await openApp(browser, server.url);
  await page.getByTestId('open-rail-debate').click();
  // Room past the steps: the pause lands some turns after TARGET at full speed (up to 17 seen),
  // and a Step after the turn limit starts a new run, which replaces every row.
  await page.getByTestId('field-max_turns').fill(String(TARGET + STEPS + 1000));
  await page.getByTestId('speed').selectOption('0');

  // Pause as soon as the transcript holds TARGET messages.
  await page.evaluate((target) => {
    const list = document.querySelector('[data-testid=transcript]');
    const watcher = new MutationObserver(() => {
      if (list.children.length >= target) {
        watcher.disconnect();
        document.querySelector('[data-testid=pause]').click();
      }
    });
    watcher.observe(list, { childList: true });
  }, TARGET);
  const started = Date.now();
  await page.getByTestId('run').click();
  await page.waitForFunction(
    (target) => document.querySelector('[data-testid=status]').textContent.startsWith('Paused')
      && document.querySelectorAll('[data-testid=message]').length >= target
      && !document.querySelector('[data-testid=step]').disabled,
    TARGET,
    { timeout: 600000, polling: 250 },
  );
  const playMs = Date.now() - started;
  const loaded = await page.getByTestId('message').count();

  // Mark every row; watch for removals; time each append from the flush mark to the new row.
  await page.evaluate(() => {
    window.__bench = { removed: 0, appends: [] };
    for (const row of document.querySelectorAll('[data-testid=message], [data-testid=bid-turn]')) row.__kept = true;
    const observe = (el) => new MutationObserver((records) => {
      const now = performance.now();
      for (const r of records) window.__bench.removed += r.removedNodes.length;
      if (records.some((r) => r.addedNodes.length && el.matches('[data-testid=transcript]'))) {
        const marks = performance.getEntriesByName('agora:flush');
        window.__bench.appends.push(now - marks[marks.length - 1].startTime);
      }
    }).observe(el, { childList: true });
    observe(document.querySelector('[data-testid=transcript]'));
    observe(document.querySelector('.boards'));
  });
  const clickToRow = [];
  for (let i = 0; i < STEPS; i += 1) {
    // Press Step in the page and time it there, to the new row in the DOM.
    const ms = await page.evaluate(() => new Promise((resolve) => {
      const list = document.querySelector('[data-testid=transcript]');
      const started = performance.now();
      const watch = new MutationObserver(() => {
        watch.disconnect();
        resolve(performance.now() - started);
      });
      watch.observe(list, { childList: true });
      document.querySelector('[data-testid=step]').click();
    }));
    clickToRow.push(ms);
    await page.waitForFunction(() => !document.querySelector('[data-testid=step]').disabled, null, { polling: 'raf' });
  }
  const status = await page.getByTestId('status').textContent();
  if (!status.startsWith('Paused') || (await page.getByTestId('message').count()) < TARGET) {
    throw new Error(`the run did not stay paused past ${TARGET} messages while stepping: "${status}"`);
  }
  const result = await page.evaluate(() => ({
    appends: window.__bench.appends,
    removed: window.__bench.removed,
    kept: [...document.querySelectorAll('[data-testid=message], [data-testid=bid-turn]')].filter((r) => r.__kept).length,
  }));
  const stats = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    const at = (p) => s[Math.min(s.length - 1, Math.round((s.length - 1) * p))];
    return { median: at(0.5), p95: at(0.95) };
  };
  const a = stats(result.appends);
  const c = stats(clickToRow);
  console.log(`rendering benchmark (headless Chromium, bidding debate, demo model at zero latency)`);
  console.log(`  play and render ${loaded} messages: ${(playMs / 1000).toFixed(1)} s (${(playMs / loaded).toFixed(2)} ms per turn, engine included)`);
  console.log(`  append one turn at ${loaded}+ messages, events handed to the view -> row in the DOM: median ${a.median.toFixed(2)} ms, p95 ${a.p95.toFixed(2)} ms (budget p95 < 16 ms)`);
  console.log(`  append one turn, Step pressed -> row in the DOM (engine, bids and speech included): median ${c.median.toFixed(2)} ms, p95 ${c.p95.toFixed(2)} ms`);
  console.log(`  existing rows removed or re-created while appending: ${result.removed} (rows kept: ${result.kept})`);
  const saves = await page.evaluate(() => performance.getEntriesByName('agora:save').map((m) => m.duration).slice(-10));
  if (saves.length) {
    const sorted = [...saves].sort((x, y) => x - y);
    console.log(`  saving the run to local storage at ${loaded}+ messages (after the row is shown): median ${sorted[sorted.length >> 1].toFixed(1)} ms over the last ${saves.length} saves`);
  }
  if (errors.length) console.log(`  page errors: ${errors.join('; ')}`);
  // The budget is enforced with twice its margin in the figures so far (p95 4.6 to 7.3 ms in CI);
  // rebuilt rows are a bug whatever the timings.
  if (a.p95 >= 16) {
    console.log(`  OVER BUDGET: appending a turn took ${a.p95.toFixed(2)} ms at p95 (budget 16 ms)`);
    process.exitCode = 1;
  }
  if (result.removed !== 0) process.exitCode = 1;
} finally {
  await browser.close();
  await server.close();
}
