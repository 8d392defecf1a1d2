// Load benchmark (prints figures; not a timed test): the release archive (.ci/release --no-build)
// served under /agora/ by a static server that sends the precompressed .br files, opened in
// headless Chromium on a throttled network and CPU. For each profile it measures the first load
// of a fresh browser to a clickable gallery (the first preset's button shown and enabled, timed
// from the navigation's start by the page's own clock), the bytes that took, and a repeat load
// once the service worker holds the app. Medians of RUNS loads.
// Run: cd tests && node bench/load.mjs   (after `trunk build --release`)
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, root, serveSite } from '../e2e/helpers.mjs';

const RUNS = Number(process.env.RUNS ?? 3);
const PROFILES = [
  // Lighthouse's throttled mobile profile (slow 4G) and its cable profile.
  { name: 'mobile (1.6 Mbps, 150 ms, CPU x4)', down: 1.6, up: 0.75, latency: 150, cpu: 4 },
  { name: 'cable (5 Mbps, 28 ms, CPU x1)', down: 5, up: 1, latency: 28, cpu: 1 },
];

const out = mkdtempSync(join(tmpdir(), 'agora-load-'));
execFileSync('bash', [join(root, '.ci', 'release'), '--no-build'], { env: { ...process.env, AGORA_RELEASE_DIR: out, AGORA_VERSION: 'bench' }, stdio: 'ignore' });
const site = await serveSite(join(out, 'agora-web-bench'), { brotli: true });
const browser = await launch();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function throttle(page, p) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false, latency: p.latency, downloadThroughput: (p.down * 1e6) / 8, uploadThroughput: (p.up * 1e6) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: p.cpu });
  let bytes = 0;
  cdp.on('Network.loadingFinished', (e) => { bytes += e.encodedDataLength; });
  return { bytes: () => bytes, reset: () => { bytes = 0; } };
}

/** Loads (or reloads) the page; ms from the navigation's start until the gallery is clickable. */
async function toGallery(page, load) {
  await load();
  await page.waitForFunction(() => {
    const b = document.querySelector('[data-testid=open-rail-debate]');
    return b && !b.disabled && b.getBoundingClientRect().height > 0;
  }, null, { timeout: 120000, polling: 'raf' });
  return page.evaluate(() => performance.now());
}

try {
  for (const p of PROFILES) {
    const first = [], repeat = [], third = [], sent = [], again = [];
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext({ serviceWorkers: 'allow', viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const net = await throttle(page, p);
      first.push(await toGallery(page, () => page.goto(site.url, { waitUntil: 'commit' })));
      sent.push(net.bytes());
      // The worker caches the app and takes control of the page without reloading it; the repeat
      // load below is the first one served by the worker (and cross-origin isolated).
      await page.waitForFunction(() => navigator.serviceWorker.controller, null, { timeout: 120000 });
      await page.getByTestId('preset-list').waitFor();
      const later = await throttle(page, p);
      repeat.push(await toGallery(page, () => page.reload({ waitUntil: 'commit' })));
      again.push(later.bytes());
      // A third load: the browser has by now cached the compiled wasm beside the worker's copy.
      third.push(await toGallery(page, () => page.reload({ waitUntil: 'commit' })));
      await context.close();
    }
    const kb = (b) => `${(b / 1024).toFixed(0)} KB`;
    console.log(`${p.name}: first load to a clickable gallery ${(median(first) / 1000).toFixed(2)} s (${kb(median(sent))} over the network, brotli); `
      + `repeat load from the service worker ${(median(repeat) / 1000).toFixed(2)} s (${kb(median(again))} over the network), `
      + `the load after that ${(median(third) / 1000).toFixed(2)} s. `
      + `first: ${first.map((t) => t.toFixed(0)).join(', ')} ms; repeat: ${repeat.map((t) => t.toFixed(0)).join(', ')} ms; `
      + `after that: ${third.map((t) => t.toFixed(0)).join(', ')} ms`);
  }
} finally {
  await browser.close();
  await site.close();
}
