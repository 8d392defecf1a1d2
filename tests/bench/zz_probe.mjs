import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import { launch, root } from '../e2e/helpers.mjs';
const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml' };
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
const p = process.env.CABLE ? { down: 5, up: 1, latency: 28, cpu: 1 } : { down: 1.6, up: 0.75, latency: 150, cpu: 4 };
const browser = await launch();
const site = await servePages((process.env.DIST ?? join(root, 'dist')));
const context = await browser.newContext({ serviceWorkers: 'allow', viewport: { width: 1280, height: 800 } });
const page = await context.newPage();
const cdp = await page.context().newCDPSession(page);
await cdp.send('Network.enable');
await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: p.latency, downloadThroughput: (p.down * 1e6) / 8, uploadThroughput: (p.up * 1e6) / 8 });
await cdp.send('Emulation.setCPUThrottlingRate', { rate: p.cpu });
const t0 = Date.now();
const reqs = new Map();
cdp.on('Network.requestWillBeSent', (e) => reqs.set(e.requestId, { url: e.request.url.replace(site.url, ''), start: Date.now() - t0 }));
cdp.on('Network.loadingFinished', (e) => { const r = reqs.get(e.requestId); if (r) { r.end = Date.now() - t0; r.bytes = e.encodedDataLength; } });
await page.addInitScript(() => { window.fetchLog = []; const of = window.fetch; window.fetch = function (u, o) { window.fetchLog.push([Math.round(performance.now()), String(u).slice(-30)]); return of.call(this, u, o); }; });
await page.addInitScript(() => { window.longTasks = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.longTasks.push([Math.round(e.startTime), Math.round(e.duration)]); }).observe({ type: 'longtask', buffered: true }); });
await page.addInitScript(() => { window.marks = {}; new MutationObserver(() => { if (!window.marks.speech && document.querySelector('[data-testid=message]:not(.injected)')) window.marks.speech = Math.round(performance.now()); if (!window.marks.run && document.querySelector('[data-testid=run]')) window.marks.run = Math.round(performance.now()); if (!window.marks.opening && document.querySelector('[data-testid=message]')) window.marks.opening = Math.round(performance.now()); }).observe(document, { subtree: true, childList: true }); document.addEventListener('pointerdown', () => { (window.marks.down ??= []).push(Math.round(performance.now())); }, { capture: true }); });
await page.goto(site.url, { waitUntil: 'commit' });
await page.waitForFunction(() => { const b = document.querySelector('[data-testid=open-rail-debate]'); return b && !b.disabled; }, null, { timeout: 120000, polling: 'raf' });
console.log('gallery', Date.now() - t0, JSON.stringify(await page.evaluate(() => [window.fetchLog, performance.getEntriesByType('mark').map((m) => [m.name, Math.round(m.startTime)])])));
await page.getByTestId('open-rail-debate').click();
await page.waitForFunction(() => document.querySelector('[data-testid=run]')?.offsetHeight > 0, null, { timeout: 120000, polling: 'raf' });
if (process.env.PROF && !process.env.LATE) { await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 200 }); await cdp.send('Profiler.start'); } else if (!process.env.NOTRACE) await browser.startTracing(page.raw ?? page, { categories: ['devtools.timeline', 'v8', 'v8.wasm', 'disabled-by-default-v8.compile', 'blink', 'loading'] }).catch((e) => console.log('trace err', e.message)); const tStage = Date.now();
console.log('stage', Date.now() - t0, await page.evaluate(() => performance.now()));
await page.waitForFunction(() => !document.querySelector('[data-testid=run]')?.disabled, null, { timeout: 120000, polling: 'raf' });
console.log('run enabled', Date.now() - t0, await page.evaluate(() => performance.now()));
await page.evaluate(() => { window.runLog = []; let last = ''; let el0 = null; const tick = () => { const b = document.querySelector('[data-testid=run]'); let st = 'none'; if (b) { const r = b.getBoundingClientRect(); const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2); st = `dis=${b.disabled} same=${el0 === null ? 'first' : el0 === b} rect=${Math.round(r.x)},${Math.round(r.y)},${Math.round(r.width)}x${Math.round(r.height)} hit=${hit === b || b.contains(hit) ? 'self' : (hit?.tagName + '.' + hit?.className + '#' + (hit?.dataset?.testid ?? ''))}`; el0 = el0 ?? b; } if (st !== last) { window.runLog.push([Math.round(performance.now()), st]); last = st; } requestAnimationFrame(tick); }; tick(); });
await page.raw.getByTestId('speed').selectOption('0', { timeout: 120000 });
console.log('speed set', Date.now() - t0);
if (process.env.LATE) { await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 200 }); await cdp.send('Profiler.start'); }
const tc = Date.now() - t0; await page.evaluate(() => { window.downAt = null; document.addEventListener('pointerdown', () => { window.downAt = Math.round(performance.now()); }, { capture: true, once: true }); }); const tc2 = Date.now() - t0; await page.raw.getByTestId('run').click({ timeout: 120000 }); console.log('click called', tc, tc2, 'pointerdown(page)', await page.evaluate(() => [window.downAt, Math.round(performance.now())]), Date.now() - t0);
console.log('run clicked', Date.now() - t0);
await page.waitForFunction(() => document.querySelector('[data-testid=message]:not(.injected)'), null, { timeout: 120000, polling: 'raf' });
console.log('speech', Date.now() - t0, await page.evaluate(() => performance.now()));
if (!process.env.PROF && !process.env.NOTRACE) { const buf = await browser.stopTracing(); const { writeFileSync } = await import('node:fs'); writeFileSync('/tmp/trace.json', buf); }
if (process.env.PROF) { const { profile } = await cdp.send('Profiler.stop'); const byId = new Map(profile.nodes.map((n) => [n.id, n])); const self = new Map(); const dt = profile.timeDeltas; profile.samples.forEach((id, i) => { const n = byId.get(id); const f = n.callFrame; const k = (f.functionName || '(anon)') + ' ' + f.url.replace(/.*\//, '').slice(0, 40); self.set(k, (self.get(k) ?? 0) + (dt[i] ?? 0)); }); const byUrl = new Map(); for (const [k, v] of self) { const u = k.split(' ').slice(1).join(' ').replace(/:.*/, ''); byUrl.set(u, (byUrl.get(u) ?? 0) + v); } console.log('by url', [...byUrl].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([k, v]) => `${k || '-'}=${(v / 1000).toFixed(0)}`).join(' | ')); const parent = new Map(); for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id); const incl = new Map(); const T0 = profile.startTime; const times = []; let acc = T0; for (const d of profile.timeDeltas) { acc += d; times.push(acc); } const lo = Number(process.env.LO ?? 0), hi = Number(process.env.HI ?? 1e12); profile.samples.forEach((id, i) => { const rel = (times[i] - T0) / 1000; if (rel < lo || rel > hi) return; const seen = new Set(); let n = byId.get(id); while (n) { const f = n.callFrame; const k = (f.functionName || '(anon)').replace(/17h[0-9a-f]{16}E$/, '').slice(0, 110); if (!seen.has(k)) { seen.add(k); incl.set(k, (incl.get(k) ?? 0) + (dt[i] ?? 0)); } n = byId.get(parent.get(n.id)); } }); console.log('incl', [...incl].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOPN ?? 60)).map(([k, v]) => `${(v / 1000).toFixed(0).padStart(5)} ${k}`).join('\n')); console.log('profile span ms', ((times.at(-1) - T0) / 1000).toFixed(0));
console.log('top', [...self].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${k}=${(v / 1000).toFixed(0)}`).join('\n')); }
console.log('rt', (await page.evaluate(() => performance.getEntriesByType('resource').filter((r) => /wasm|split/.test(r.name)).map((r) => `${r.name.slice(-28)} start=${Math.round(r.startTime)} req=${Math.round(r.requestStart)} resp=${Math.round(r.responseStart)} end=${Math.round(r.responseEnd)}`))).join('\n'));
console.log('runlog', JSON.stringify(await page.evaluate(() => window.runLog), null, 0));
console.log('marks', JSON.stringify(await page.evaluate(() => window.marks)));
console.log('long tasks', JSON.stringify(await page.evaluate(() => window.longTasks)));
await page.waitForTimeout(3000);
for (const r of [...reqs.values()].sort((a, b) => a.start - b.start)) console.log(String(r.start).padStart(6), String(r.end ?? '-').padStart(6), String(r.bytes ?? '').padStart(8), r.url.slice(0, 70));
await browser.close(); await site.close();
