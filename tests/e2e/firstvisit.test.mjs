// The first visit on a slow phone link (1.6 Mbps, 150 ms, as Chrome's DevTools throttle it) from a
// host that serves as GitHub Pages does (gzip, `Cache-Control: max-age=600`, no COOP or COEP):
// text within a second (the static shell index.html paints), a loading bar that moves until the app
// is ready and goes with the shell, no reload, every file downloaded once in all with the service
// worker's precache (the wasm above all), and what a link opened still there once the worker has
// installed and taken control.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import { launch, root, waitForStatus, waitForText } from './helpers.mjs';

const dist = join(root, 'dist');
const types = {
  '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css',
  '.json': 'application/json', '.png': 'image/png', '.svg': 'image/svg+xml', '.webmanifest': 'application/manifest+json',
};
const ctx = {};
before(async () => {
  ctx.browser = await launch();
});
after(async () => {
  await ctx.browser?.close();
});

/**
 * dist/ under /agora/ on a free loopback port as GitHub Pages serves it: gzipped where the browser
 * accepts it (the images aside), kept 10 minutes, no isolation headers. `site.requests(path)` is
 * how many times the server was asked for a path.
 */
async function servePages() {
  const asked = new Map();
  const zipped = new Map();
  const server = createServer((req, res) => {
    const { pathname } = new URL(req.url, 'http://x');
    asked.set(pathname, (asked.get(pathname) ?? 0) + 1);
    if (!pathname.startsWith('/agora/')) return res.writeHead(404).end('not found');
    let rest = normalize(decodeURIComponent(pathname.slice('/agora/'.length))).replace(/^(\.\.[/\\])+/, '');
    if (rest === '.' || rest.endsWith('/')) rest += '/index.html';
    let body;
    try {
      body = readFileSync(join(dist, rest));
    } catch {
      return res.writeHead(404).end('not found');
    }
    const headers = { 'content-type': types[extname(rest)] ?? 'application/octet-stream', 'cache-control': 'max-age=600', vary: 'Accept-Encoding' };
    if (/\bgzip\b/.test(req.headers['accept-encoding'] ?? '') && extname(rest) !== '.png') {
      if (!zipped.has(rest)) zipped.set(rest, gzipSync(body));
      body = zipped.get(rest);
      headers['content-encoding'] = 'gzip';
    }
    res.writeHead(200, headers).end(body);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${server.address().port}/agora/`;
  return {
    url,
    asked,
    requests: (path) => asked.get(path) ?? 0,
    close: () => new Promise((ok) => { server.closeAllConnections(); server.close(ok); }),
  };
}

/** The app's wasm in dist/ (the page's own, not the modules it fetches later) and its size. */
function pageWasm() {
  const name = readdirSync(dist).find((f) => /^agora-[0-9a-f]+_bg\.wasm$/.test(f));
  assert.ok(name, 'dist/ holds the app\'s wasm: build it with trunk build --release');
  return { path: `/agora/${name}`, size: statSync(join(dist, name)).size };
}

/**
 * Runs in every document before its scripts: records, against the page's own clock (0 is the
 * navigation's start), when the shell's title was painted (element timing), when the app first drew an element of its own (one with a test id that is
 * not the shell's), whether the shell's loading line was there then, and every 20 ms from the
 * first paint until then whether the loading line showed and how far its bar had come; and what the parsed page held
 * before any script ran (the shell's card titles, and whether they could be clicked).
 */
function watch() {
  const seen = (window.firstVisit = { ready: null, loadingAtReady: null, samples: [], set: [], parsed: null, title: null });
  // Every value the page gives a progress bar before the app is ready: the 20 ms looks can all
  // fall before the first chunk or after the last when the main thread is busy compiling.
  const value = Object.getOwnPropertyDescriptor(HTMLProgressElement.prototype, 'value');
  Object.defineProperty(HTMLProgressElement.prototype, 'value', {
    ...value,
    set(v) {
      value.set.call(this, v);
      if (seen.ready === null && this.matches('[data-shell-wasm]')) seen.set.push({ t: performance.now(), value: this.value, max: this.max });
    },
  });
  // Element timing reaches observers only, not the page's timeline.
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.identifier === 'shell-title') seen.title ??= e.renderTime || e.loadTime;
  }).observe({ type: 'element', buffered: true });
  const app = () => document.querySelector('[data-testid]:not([data-testid^=shell])');
  const loading = () => document.querySelector('[data-testid=shell-loading]');
  new MutationObserver(() => {
    if (seen.ready !== null || !app()) return;
    seen.ready = performance.now();
    seen.loadingAtReady = !!loading()?.checkVisibility();
  }).observe(document, { childList: true, subtree: true });
  const sample = setInterval(() => {
    if (seen.ready !== null) return clearInterval(sample);
    if (!performance.getEntriesByName('first-contentful-paint').length) return;
    const bar = document.querySelector('[data-shell-wasm]');
    seen.samples.push({ t: performance.now(), shown: !!loading()?.checkVisibility(), value: bar?.value ?? null, max: bar?.max ?? null });
  }, 20);
  document.addEventListener('DOMContentLoaded', () => {
    const cards = [...document.querySelectorAll('#shell .preset-open')];
    seen.parsed = { titles: cards.map((c) => c.querySelector('h3')?.textContent), clickable: cards.filter((c) => !c.disabled).length };
  });
}

/** A page in `context` on the slow link: 150 ms added to each request, 200,000 bytes a second each way. */
async function slowPage(context) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: 200000, uploadThroughput: 200000 });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  return { page, errors };
}

/**
 * Waits until the service worker has installed (its precache done) and controls the page, then
 * long enough for what used to follow it (a reload 0.6 s later) to have happened.
 */
async function workerInControl(page) {
  // A worker whose install fails (a file that differs from the revision sw.js lists) is never
  // ready: say so in two minutes instead of waiting out the file's ten.
  const ready = await page.evaluate(() => Promise.race([
    navigator.serviceWorker.ready.then(() => 'ready'),
    new Promise((ok) => setTimeout(() => ok('never ready'), 120000)),
  ]));
  assert.equal(ready, 'ready', 'the service worker never installed: does every file match the revision sw.js lists?');
  await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', null, { timeout: 120000 });
  await page.waitForTimeout(2000);
}

/** How the page was loaded: one navigation, not a reload, and the mark the test left still on it. */
const loadedOnce = (page) => page.evaluate(() => ({
  navigations: performance.getEntriesByType('navigation').map((n) => n.type),
  mark: window.testMark ?? null,
}));

test('a first visit on a slow link: text within a second, a loading bar until the app is ready, no reload, every file downloaded once', async () => {
  const site = await servePages();
  const wasm = pageWasm();
  const context = await ctx.browser.newContext({ serviceWorkers: 'allow', viewport: { width: 1280, height: 720 } });
  await context.addInitScript(watch);
  const { page, errors } = await slowPage(context);
  await page.goto(site.url, { waitUntil: 'commit' });
  // The app ready, and a frame painted (the first contentful paint may come after the app drew).
  await page.waitForFunction(() => typeof window.firstVisit?.ready === 'number'
    && performance.getEntriesByName('first-contentful-paint').length > 0, null, { timeout: 60000 });
  await page.evaluate(() => (window.testMark = 'the first load'));
  // First text: Chrome's first contentful paint, the first frame that paints text (the shell has no
  // images), measured from the navigation's start; and the shell's title painted (element timing).
  const seen = await page.evaluate(() => ({
    ...window.firstVisit,
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
  }));
  console.log(`first text ${Math.round(seen.fcp)} ms, the shell's title ${seen.title === null ? "never" : `${Math.round(seen.title)} ms`}, the app ready ${Math.round(seen.ready)} ms`);
  assert.ok(seen.fcp !== null && seen.fcp < 1000, `the first text painted at ${seen.fcp} ms, not within 1 s`);
  assert.ok(seen.title !== null && seen.title < 1000, `the shell's title painted at ${seen.title} ms`);

  // The shell's cards are the presets, in the app's order, and none opens before the app is ready.
  const presets = readdirSync(join(root, 'public', 'scenarios')).filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(root, 'public', 'scenarios', f), 'utf8')).title);
  assert.deepEqual([...seen.parsed.titles].sort(), presets.sort());
  assert.equal(seen.parsed.clickable, 0, 'no card is clickable before the app is ready');

  // The loading line showed at every look until the app was ready, its bar moving towards the wasm's size.
  // The first page is small (about 80 KB), so the shell shows for a few hundred milliseconds and a
  // busy main thread (compiling the wasm) delays the 20 ms timer: a handful of looks is what there is.
  assert.ok(seen.samples.length >= 3, `${seen.samples.length} looks before the app was ready`);
  assert.deepEqual(seen.samples.filter((s) => !s.shown), [], 'the loading line showed until the app was ready');
  assert.equal(seen.loadingAtReady, true, 'the loading line was still there when the app drew');
  assert.ok(seen.samples.every((s) => s.max === wasm.size), `the bar ends at the wasm's ${wasm.size} bytes`);
  const values = seen.samples.map((s) => s.value);
  assert.deepEqual(values, [...values].sort((a, b) => a - b), 'the bar only moves forward');
  assert.ok(seen.set.length > 1 && seen.set.every((s) => s.max === wasm.size), `the bar moved ${seen.set.length} times towards the wasm's ${wasm.size} bytes`);
  assert.ok(seen.set.some((s) => s.value > 0 && s.value < wasm.size), 'the bar showed the wasm part way');
  // Then the shell has gone, with its loading line, and the app's gallery opens scenarios.
  assert.equal(await page.locator('#shell, [data-testid^=shell]').count(), 0);
  await page.getByTestId('preset-list').waitFor();

  await workerInControl(page);
  assert.deepEqual(await loadedOnce(page), { navigations: ['navigate'], mark: 'the first load' }, 'the page was not reloaded');
  assert.equal(site.requests(wasm.path), 1, 'the wasm was downloaded once, the worker\'s precache included');
  assert.equal(site.requests('/agora/') + site.requests('/agora/index.html'), 1, 'the page was downloaded once');
  const twice = [...site.asked].filter(([, n]) => n > 1);
  assert.deepEqual(twice, [], 'no file was downloaded twice');
  assert.deepEqual(errors, []);
  await context.close();
  await site.close();
});

test('a first visit by a shared run link keeps its banner after the service worker takes control', async () => {
  const site = await servePages();
  // The link, made on another visit (no worker, full speed), as a teacher would send it.
  const maker = await ctx.browser.newPage();
  await maker.goto(site.url);
  await maker.getByTestId('open-rail-debate').click();
  await maker.getByTestId('speed').selectOption('0');
  await maker.getByTestId('run').click();
  await waitForStatus(maker, 'Finished');
  await maker.getByTestId('share-run').click();
  const link = await maker.getByTestId('share-url').inputValue();
  assert.match(link, /#run=1\./);
  await maker.close();
  const wasm = pageWasm();
  const before = site.requests(wasm.path);

  const context = await ctx.browser.newContext({ serviceWorkers: 'allow', viewport: { width: 1280, height: 720 } });
  const { page, errors } = await slowPage(context);
  await page.goto(site.url + new URL(link).hash, { waitUntil: 'commit' });
  const notice = page.getByTestId('link-notice');
  await waitForText(notice, /Opened a recorded run/, 60000);
  await page.evaluate(() => (window.testMark = 'the first load'));
  const said = await notice.textContent();

  await workerInControl(page);
  assert.equal(await notice.count(), 1, 'the banner is still there');
  assert.equal(await notice.textContent(), said, 'the banner is unchanged');
  assert.ok(await notice.isVisible());
  assert.deepEqual(await loadedOnce(page), { navigations: ['navigate'], mark: 'the first load' }, 'the page was not reloaded');
  assert.equal(site.requests(wasm.path) - before, 1, 'the wasm was downloaded once on this visit, the worker\'s precache included');
  assert.deepEqual(errors, []);
  await context.close();
  await site.close();
});
