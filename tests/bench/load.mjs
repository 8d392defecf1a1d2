// Load benchmark (prints figures; not a timed test). A built folder served under /agora/ as GitHub
// Pages serves it (gzip, `Cache-Control: max-age=600`, no COOP or COEP), opened in headless
// Chromium on a throttled network and CPU. For each profile and each first visit of a fresh
// browser it measures, by the page's own clock from the navigation's start: the gallery clickable
// (the first preset's button shown and enabled), and the first speech of that preset on the demo
// model (its card clicked as soon as it can be, the speed set to instant, Run pressed, until a
// speech by one of the cast is on screen); the bytes that took; and over the whole visit, until
// the service worker has precached the build, how many files were asked for more than once.
// Then a repeat load once the service worker holds the app. Medians of RUNS visits.
//
// With AGORA_LOAD_BASELINE=<a built dist/ of another version> it measures that build too, its
// visits alternating with this one's, so both are timed side by side on the same machine state.
// Run: cd tests && node bench/load.mjs   (after `trunk build --release`; RUNS=5 for more visits)
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import { launch, root } from '../e2e/helpers.mjs';

const RUNS = Number(process.env.RUNS ?? 3);
const PROFILES = [
  // Lighthouse's throttled mobile profile (slow 4G) and its cable profile.
  { name: 'mobile (1.6 Mbps, 150 ms, CPU x4)', down: 1.6, up: 0.75, latency: 150, cpu: 4 },
  { name: 'cable (5 Mbps, 28 ms, CPU x1)', down: 5, up: 1, latency: 28, cpu: 1 },
];
// PROFILE=cable (or mobile) times that profile alone.
const profiles = PROFILES.filter((p) => !process.env.PROFILE || p.name.startsWith(process.env.PROFILE));
const BUILDS = [['this build', join(root, 'dist')]];
if (process.env.AGORA_LOAD_BASELINE) BUILDS.push(['baseline', process.env.AGORA_LOAD_BASELINE]);

const types = {
  '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css',
  '.json': 'application/json', '.png': 'image/png', '.svg': 'image/svg+xml', '.webmanifest': 'application/manifest+json',
};

/** `dir` under /agora/ as GitHub Pages serves it: gzip where asked, ten minutes' caching. */
async function servePages(dir) {
  const zipped = new Map();
  const asked = new Map();
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    asked.set(path, (asked.get(path) ?? 0) + 1);
    const rest = path.startsWith('/agora/') ? path.slice('/agora/'.length) : null;
    const file = rest === null ? null : join(dir, normalize(rest === '' ? 'index.html' : rest).replace(/^(\.\.[/\\])+/, ''));
    const body = file && await readFile(file).catch(() => null);
    if (!body) return res.writeHead(404).end('not found');
    const headers = { 'content-type': types[extname(file)] ?? 'application/octet-stream', 'cache-control': 'max-age=600' };
    if (/\bgzip\b/.test(req.headers['accept-encoding'] ?? '') && /\.(html|js|wasm|css|json|svg|webmanifest)$/.test(file)) {
      if (!zipped.has(file)) zipped.set(file, gzipSync(body, { level: 9 }));
      headers['content-encoding'] = 'gzip';
      res.writeHead(200, headers).end(zipped.get(file));
    } else {
      res.writeHead(200, headers).end(body);
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${server.address().port}/agora/`,
    asked,
    close: () => new Promise((ok) => { server.closeAllConnections(); server.close(ok); }),
  };
}

async function throttle(page, p) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false, latency: p.latency, downloadThroughput: (p.down * 1e6) / 8, uploadThroughput: (p.up * 1e6) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: p.cpu });
  let bytes = 0;
  cdp.on('Network.loadingFinished', (e) => { bytes += e.encodedDataLength; });
  return { bytes: () => bytes };
}

/**
 * Notes, by the page's own clock, the frame that paints the first speech: a harness that polls
 * from outside reads it only once the page's main thread is free, later while a run plays on (so
 * that is printed apart, "seen by the harness"), and an observer set up from outside once the
 * stage shows would delay the click on Run by its own round trip.
 */
function noteFirstSpeech() {
  const seen = new MutationObserver(() => {
    // The moderator's opening is injected; a speech is a message of the cast's.
    if (!document.querySelector('[data-testid=message]:not(.injected)')) return;
    seen.disconnect();
    requestAnimationFrame(() => { window.speechPainted = performance.now(); });
  });
  seen.observe(document, { subtree: true, childList: true });
}

/** Ms from the navigation's start until the gallery is clickable. */
async function toGallery(page) {
  await page.waitForFunction(() => {
    const b = document.querySelector('[data-testid=open-rail-debate]');
    return b && !b.disabled && b.getBoundingClientRect().height > 0;
  }, null, { timeout: 120000, polling: 'raf' });
  return page.evaluate(() => performance.now());
}

/**
 * Ms from the navigation's start until the rail debate's first speech is painted. As a person
 * does: the card clicked, then the stage's controls used once it shows them (by the page's own
 * locators: the tests' one-click-away helper would look for a way to the stage while the page is
 * still on its way there, and wait out its own time-out).
 */
async function toFirstSpeech(page) {
  await page.getByTestId('open-rail-debate').click({ timeout: 120000 });
  // The stage's controls awaited at each frame: Playwright's own wait for them retries after
  // growing pauses (up to half a second) and would time its back-off, not the page.
  await page.waitForFunction(() => ['speed', 'run'].every((id) => {
    const e = document.querySelector(`[data-testid=${id}]`);
    return e && !e.disabled && e.getBoundingClientRect().height > 0;
  }), null, { timeout: 120000, polling: 'raf' });
  await page.raw.getByTestId('speed').selectOption('0', { timeout: 120000 });
  await page.raw.getByTestId('run').click({ timeout: 120000 });
  await page.waitForFunction(() => document.querySelector('[data-testid=message]:not(.injected)'), null, { timeout: 120000, polling: 'raf' });
  const harness = await page.evaluate(() => performance.now());
  await page.waitForFunction(() => window.speechPainted !== undefined, null, { timeout: 120000 });
  return { painted: await page.evaluate(() => window.speechPainted), harness };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (b) => `${(b / 1024).toFixed(0)} KB`;
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;

const browser = await launch();
const sites = await Promise.all(BUILDS.map(([, dir]) => servePages(dir)));
try {
  for (const p of profiles) {
    const figures = BUILDS.map(() => ({ gallery: [], speech: [], seen: [], sent: [], twice: [], repeat: [] }));
    for (let i = 0; i < RUNS; i++) {
      for (const [b, site] of sites.entries()) {
        const f = figures[b];
        site.asked.clear();
        const context = await browser.newContext({ serviceWorkers: 'allow', viewport: { width: 1280, height: 800 } });
        const page = await context.newPage();
        const net = await throttle(page, p);
        await page.addInitScript(noteFirstSpeech);
        await page.goto(site.url, { waitUntil: 'commit' });
        f.gallery.push(await toGallery(page));
        f.sent.push(net.bytes());
        const speech = await toFirstSpeech(page);
        f.speech.push(speech.painted);
        f.seen.push(speech.harness);
        // The rest of the first visit: the worker precaches the build and takes control.
        await page.waitForFunction(() => navigator.serviceWorker.controller, null, { timeout: 180000 });
        await page.waitForTimeout(2000);
        f.twice.push([...site.asked].filter(([path, n]) => n > 1 && !path.endsWith('sw.js')).map(([path, n]) => `${path} ×${n}`));
        // The repeat load opens on the start screen, not on the run just played.
        await page.evaluate(() => { localStorage.clear(); sessionStorage.clear(); });
        await throttle(page, p);
        await page.reload({ waitUntil: 'commit' });
        f.repeat.push(await toGallery(page));
        await context.close();
      }
    }
    for (const [b, [name]] of BUILDS.entries()) {
      const f = figures[b];
      const twice = [...new Set(f.twice.flat())];
      console.log(`${name}, ${p.name}: gallery clickable ${s(median(f.gallery))} (${kb(median(f.sent))} over the network, gzip), `
        + `first speech of the rail debate on the demo model painted at ${s(median(f.speech))} (seen by the harness at ${s(median(f.seen))}), `
        + `repeat load from the service worker ${s(median(f.repeat))}; `
        + `files asked for more than once in the first visit: ${twice.length ? twice.join(', ') : 'none'}. `
        + `gallery: ${f.gallery.map((t) => t.toFixed(0)).join(', ')} ms; first speech: ${f.speech.map((t) => t.toFixed(0)).join(', ')} ms`);
    }
  }
} finally {
  await browser.close();
  await Promise.all(sites.map((site) => site.close()));
}
