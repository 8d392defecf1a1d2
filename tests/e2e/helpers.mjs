// Shared helpers for the browser tests: a static server for dist/ on 127.0.0.1 and Debian's
// Chromium launched headless with the flags that work on these machines.
import { createServer } from 'node:http';
import { readFile, mkdir } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { execFileSync, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { before, after } from 'node:test';
import assert from 'node:assert/strict';

export const root = fileURLToPath(new URL('../..', import.meta.url));
// AGORA_DIST: another build to test (one made beside the checked-out one's while it is in use).
const dist = process.env.AGORA_DIST ?? join(root, 'dist');
const types = {
  '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.json': 'application/json', '.png': 'image/png', '.svg': 'image/svg+xml',
  '.webmanifest': 'application/manifest+json',
};

/**
 * Serves a built folder under `prefix` on a free loopback port as a plain static host does
 * (GitHub Pages, say): no COOP or COEP headers, no compression unless `brotli` (then a file's
 * precompressed `.br` beside it is sent to a browser that accepts it; with `cors`, to any origin,
 * as a model host does). `site.dir` may be changed
 * while it runs, as a deploy would; `site.requests` lists the paths asked for, with the status.
 */
export async function serveSite(dir, { prefix = '/agora/', brotli = false, cors = false } = {}) {
  const site = { dir, requests: [] };
  const server = createServer(async (req, res) => {
    // A model host (Hugging Face) answers any origin.
    if (cors) res.setHeader('access-control-allow-origin', '*');
    const pathname = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const rest = pathname.startsWith(prefix) ? pathname.slice(prefix.length) : null;
    let status = 404;
    if (rest !== null) {
      const inside = normalize(rest === '' || rest.endsWith('/') ? `${rest}index.html` : rest).replace(/^(\.\.[/\\])+/, '');
      const file = join(site.dir, inside);
      try {
        const headers = { 'content-type': types[extname(file)] ?? 'application/octet-stream' };
        let body;
        if (brotli && /\bbr\b/.test(req.headers['accept-encoding'] ?? '')) {
          body = await readFile(`${file}.br`).catch(() => null);
          if (body) headers['content-encoding'] = 'br';
        }
        body ??= await readFile(file);
        status = 200;
        res.writeHead(200, headers);
        res.end(body);
      } catch {}
    }
    site.requests.push({ path: pathname, status });
    if (status === 404) res.writeHead(404).end('not found');
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  site.origin = `http://127.0.0.1:${server.address().port}`;
  site.url = site.origin + prefix;
  site.close = () => new Promise((ok) => { server.closeAllConnections(); server.close(ok); });
  return site;
}

/**
 * Serves dist/ on a free loopback port; resolves to { url, close }. `route(req, res, path)` may
 * answer a request itself (returning true) or name the dist path to serve instead (a string).
 */
export async function serveDist(route = () => undefined) {
  const server = createServer(async (req, res) => {
    let path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const routed = route(req, res, path);
    if (routed === true) return;
    if (typeof routed === 'string') path = routed;
    const file = join(dist, path.endsWith('/') ? `${path}index.html` : path);
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((ok) => server.close(ok)) };
}

/**
 * Launches headless Chromium. Its contexts keep the app's service worker off unless a test asks
 * for it (`serviceWorkers: 'allow'`, as publish.test.mjs and firstvisit.test.mjs do): its precache
 * of the whole build, and the page served through it, must not land in a test of something else.
 */
export async function launch({ ignoreCertificateErrors = false, args = [] } = {}) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      ...(ignoreCertificateErrors ? ['--ignore-certificate-errors'] : []), ...args],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options = {}) => {
    const context = await newContext({ serviceWorkers: 'block', ...options });
    const newPage = context.newPage.bind(context);
    context.newPage = async () => oneClickAway(await newPage());
    return context;
  };
  browser.newPage = async (options = {}) => {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    page.once('close', () => context.close().catch(() => {}));
    return page;
  };
  return browser;
}

// The page is two screens (the gallery, and a scenario's stage with its drawer of tabs): the
// drawer's controls are one click from the stage, the gallery's one click from it. A test that asks
// for a control by its test id gets that click first, as a person would make it: the screen that
// holds the control, then the tab whose pane holds it. `raw` on the page skips it.
const STARTISH = /^(preset-list|preset-|open-|past-|to-stage$|start$)/;
const TAB_OF = [
  [/^(field-|api-key|check-connection|connection-report|intab-|estimate$|editor$|templates-|seed-|spending|cap-|key-)/, 'scenario'],
  [/^(export-|files-message$|share-(scenario|run|url|message)$|links-at|leaderboard)/, 'files'],
  [/^(seat-\d+$|seat-selector$|class-seats$|room)/, 'class'],
  [/^(stats$|textstats|stats-)/, 'stats'],
  [/^(judge-|scorecard|verdict$|judging$)/, 'judge'],
  [/^batch/, 'batch'],
  [/^compare-/, 'compare'],
  [/^(inspector$|call)/, 'inspector'],
];
const ACTIONS = new Set(['click', 'dblclick', 'fill', 'check', 'uncheck', 'setChecked', 'selectOption', 'setInputFiles', 'press', 'pressSequentially', 'type', 'focus', 'hover', 'waitFor', 'scrollIntoViewIfNeeded', 'boundingBox', 'tap', 'dispatchEvent']);
// Reads work on a control in a closed tab, but not on one the other screen holds.
const READS = new Set(['count', 'allTextContents', 'allInnerTexts', 'isDisabled', 'isEnabled', 'isChecked', 'isEditable', 'inputValue', 'textContent', 'innerText', 'innerHTML', 'getAttribute', 'evaluate', 'selectText', 'blur']);
const LOCATING = new Set(['getByTestId', 'getByText', 'getByRole', 'getByLabel', 'getByPlaceholder', 'getByTitle', 'locator', 'first', 'last', 'nth', 'filter', 'and', 'or']);

/** Waits until the drawer's panes (a chunk of their own, once the stage shows) are drawn. */
function panesDrawn(page) {
  return page.waitForFunction(() => !document.querySelector('.pane [aria-busy=true]'), null, { timeout: 30000 });
}

async function bringIntoReach(page, id, tabsToo = true) {
  // A few steps: the app mounting, the drawer's panes arriving, the screen, then the tab.
  for (let i = 0; i < 5; i++) {
    const press = await page.evaluate(([id, startish, tabs, tabsToo]) => {
      const has = (x) => document.querySelector(`[data-testid="${x}"]`);
      // The app's page before its wasm has mounted (a reload): which screen it opens on is not
      // known yet.
      if (has('shell') && !has('start')) return 'mounting';
      const start = has('start') && !has('start').hidden;
      const el = has(id);
      if (!el) {
        // The drawer's panes arrive in a chunk of their own once the stage shows.
        if (!start && document.querySelector('.pane [aria-busy=true]')) return 'panes';
        if (start && !new RegExp(startish).test(id)) return 'to-stage';
        if (!start && has('to-gallery') && new RegExp(startish).test(id)) return 'to-gallery';
        const tab = tabs.find(([re]) => new RegExp(re).test(id));
        return tab && has('tab-' + tab[1]) && document.querySelector('main.layout')?.dataset.tab !== tab[1] ? 'tab-' + tab[1] : null;
      }
      // Both screens stay on the page; the one not shown is hidden.
      if (start && el.closest('header.topbar, main.layout')) return 'to-stage';
      if (!start && el.closest('header.top, main.start')) return 'to-gallery';
      const pane = el.closest('.pane');
      if (tabsToo && pane && pane.hidden) return 'tab-' + pane.dataset.testid.slice(5);
      // On a phone an open tab takes the stage's place: closing it brings the stage back.
      const run = el.closest('.run');
      const gone = [run, el.closest('.stage')].some((e) => e && getComputedStyle(e).display === 'none');
      if (tabsToo && run && gone && !run.parentElement.matches(':has(.comparison-frame)')) return 'drawer-close';
      return null;
    }, [id, STARTISH.source, TAB_OF.map(([re, tab]) => [re.source, tab]), tabsToo]).catch(() => null);
    if (press === 'panes') {
      await panesDrawn(page).catch(() => {});
      continue;
    }
    if (press === 'mounting') {
      await page.waitForFunction(() => !document.querySelector('[data-testid=shell]') || document.querySelector('[data-testid=start]'), null, { timeout: 30000 }).catch(() => {});
      continue;
    }
    if (press?.startsWith('tab-') && !tabsToo) return;
    if (!press) return;
    // The page may have changed screens by itself meanwhile (a file opened, a link): look again.
    await page.locator(`[data-testid="${press}"]`).click({ timeout: 3000 }).catch(() => {});
  }
}

// Waiting for a control to show brings it into reach again and again: the page may change
// screens by itself while the test waits (a restored run opens the stage once the app has mounted).
async function waitInReach(page, locator, id, options) {
  const state = options.state ?? 'visible';
  if (state !== 'visible') return locator.waitFor(options);
  const deadline = Date.now() + (options.timeout || 30000);
  for (;;) {
    await bringIntoReach(page, id);
    const left = deadline - Date.now();
    try {
      return await locator.waitFor({ ...options, timeout: Math.max(1, Math.min(left, 2000)) });
    } catch (e) {
      if (Date.now() >= deadline || !/Timeout/.test(e.message)) throw e;
    }
  }
}

function reaching(page, locator, id) {
  return new Proxy(locator, {
    get(target, name) {
      const value = Reflect.get(target, name);
      if (typeof value !== 'function') return value;
      if (name === 'waitFor') return (options = {}) => waitInReach(page, target, id, options);
      if (ACTIONS.has(name)) return async (...args) => { await bringIntoReach(page, id); return value.apply(target, args); };
      if (READS.has(name)) return async (...args) => { await bringIntoReach(page, id, false); return value.apply(target, args); };
      if (LOCATING.has(name)) return (...args) => reaching(page, value.apply(target, args), id);
      return value.bind(target);
    },
  });
}

function oneClickAway(page) {
  const getByTestId = page.getByTestId.bind(page);
  page.raw = { getByTestId };
  page.getByTestId = (id) => (typeof id === 'string' ? reaching(page, getByTestId(id), id) : getByTestId(id));
  return page;
}

/** Saves a screenshot under tests/artifacts/. */
export async function screenshot(page, name) {
  const dir = join(root, 'tests', 'artifacts');
  await mkdir(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}

/** The event log of a native run of a preset (the same engine, seed and demo model as the app). */
export function nativeEvents(presetId, extra = []) {
  const bin = join(root, 'target', 'release', 'agora');
  const out = join(tmpdir(), `agora-e2e-${process.pid}-${presetId}-${extra.join('_')}.jsonl`);
  execFileSync(bin, ['run', `preset:${presetId}`, '--events', out, ...extra], { stdio: 'ignore' });
  return readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
}

/**
 * Opens a page on the app and collects its errors; `errors` must stay empty. The page is ready
 * when the element `ready` names shows (the preset list; a link to a comparison shows its frame
 * instead). `options` go to the browser context (a `locale`, say).
 */
export async function openApp(browser, url, viewport = { width: 1400, height: 1000 }, ready = 'preset-list', options = {}) {
  // A fresh context per page: its own local storage, so tests do not see each other's drafts.
  const context = await browser.newContext({ viewport, ...options });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(url);
  await page.getByTestId(ready).waitFor();
  return { page, errors, context };
}

/**
 * The elements of `target` (a page or a frame) whose content is wider than their box: what a
 * reader would find cut off. Text inputs scroll their own text and are left out.
 */
export async function cutOff(target) {
  return target.evaluate(() => [...document.querySelectorAll('main *')]
    .filter((el) => el.tagName !== 'INPUT' && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1)
    .map((el) => `${el.tagName.toLowerCase()}.${el.className} [${el.dataset.testid ?? ''}] (${el.scrollWidth} > ${el.clientWidth})`));
}

/** Opens a preset, optionally sets the malformed share, runs it at full speed to the end. */
export async function runPreset(page, id, { malformed } = {}) {
  await page.getByTestId(`open-${id}`).click();
  if (malformed !== undefined) {
    await page.getByTestId('field-model.demo.malformed_rate').fill(String(malformed));
  }
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished');
  // The drawer's panes are there too, so a test that opens every section finds theirs.
  await panesDrawn(page);
}

export async function waitForStatus(page, prefix, timeout = 60000) {
  // The status is on the stage: a test that went to the gallery (to wait for it) comes back.
  await page.getByTestId('status').waitFor({ timeout }).catch(() => {});
  try {
    await page.waitForFunction(
      (p) => document.querySelector('[data-testid=status]')?.textContent.startsWith(p),
      prefix,
      { timeout },
    );
  } catch (e) {
    const shown = await page.getByTestId('status').textContent({ timeout: 1000 }).catch(() => '(no status)');
    throw new Error(`the status never started with "${prefix}"; it shows "${shown}" (${e.message})`);
  }
}

export const ofType = (events, type) => events.filter((e) => e.type === type);

/**
 * [`appSession`] with a class's room on loopback for the tests of one file: also the relay
 * (`ctx.relay`) and the TURN server (`ctx.turn`) the room's pages meet through.
 */
export function roomSession() {
  const ctx = {};
  before(async () => {
    ctx.server = await serveDist();
    ctx.relay = await startRelay();
    ctx.turn = await startTurn();
    ctx.browser = await launch();
  });
  after(async () => {
    await ctx.browser?.close();
    await ctx.server?.close();
    ctx.relay?.close();
    ctx.turn?.close();
  });
  return ctx;
}

/** Serves dist/ and launches Chromium for the tests of one file; `ctx.server`, `ctx.browser`. */
export function appSession() {
  const ctx = {};
  before(async () => {
    ctx.server = await serveDist();
    ctx.browser = await launch();
  });
  after(async () => {
    await ctx.browser?.close();
    await ctx.server?.close();
  });
  return ctx;
}

/**
 * Runs `check` (assertions on what the page shows) until it passes or `timeout` ms have gone by,
 * then returns its result or throws its last failure: a test waits for the state it reads
 * instead of reading right after an action.
 */
export async function eventually(check, { timeout = 10000, interval = 50 } = {}) {
  const end = Date.now() + timeout;
  for (;;) {
    try {
      return await check();
    } catch (e) {
      if (Date.now() > end) throw e;
    }
    await new Promise((ok) => setTimeout(ok, interval));
  }
}

/**
 * Waits until the comparison on `page` (in its box, `compare-frame`) shows `n` columns (at least
 * `n` with `atLeast`) and returns the box. If it never does, the failure says what the box showed
 * instead, so a failure on another machine can be read from the log.
 */
export async function comparisonColumns(page, n, { atLeast = false, timeout = 30000 } = {}) {
  const frame = page.getByTestId('compare-frame');
  try {
    await eventually(async () => {
      const count = await frame.getByTestId('compare-column').count();
      if (atLeast) assert.ok(count >= n, `${count} columns, at least ${n} expected`);
      else assert.equal(count, n);
    }, { timeout });
  } catch (e) {
    const shown = await frame.innerText({ timeout: 1000 }).catch((err) => `(unreadable: ${err.message.split('\n')[0]})`);
    e.message += `\nWhat the comparison showed: ${shown.slice(0, 800)}`;
    throw e;
  }
  return frame;
}

/**
 * Sets what the columns of a comparison differ in, as the Compare tab offers it: `method` with the
 * methods' ids ticked, `seed` or `model` with their values typed, or any other text as a
 * setting's path with its values.
 */
export async function setComparison(page, vary, values) {
  const kind = ['method', 'seed', 'model'].includes(vary) ? vary : 'setting';
  await page.getByTestId('compare-vary').selectOption(kind);
  if (kind === 'method') {
    const picked = values.split(',').map((v) => v.trim()).filter(Boolean);
    for (const box of await page.locator('[data-testid^=compare-method-]').all()) {
      await box.setChecked(picked.includes(await box.getAttribute('value')));
    }
    return;
  }
  if (kind === 'setting') await page.getByTestId('compare-setting').fill(vary);
  await page.getByTestId('compare-values').fill(values);
}

/** Waits until the element's text matches `pattern` (a RegExp or a substring); returns the text. */
export async function waitForText(locator, pattern, timeout = 10000) {
  return eventually(async () => {
    const text = await locator.textContent({ timeout: 1000 });
    if (typeof pattern === 'string') assert.ok(text.includes(pattern), `"${text}" lacks "${pattern}"`);
    else assert.match(text, pattern);
    return text;
  }, { timeout });
}

/** Waits until the page shows `n` elements with this test id. */
export async function waitForCount(page, id, n, timeout = 10000) {
  await eventually(async () => assert.equal(await page.getByTestId(id).count(), n, `${id} count`), { timeout });
}

/**
 * Opens a preset and points it at an LLM server: provider, base URL, model, key, and a turn limit
 * if given. Seed 000's opening steps are turned off unless `opening` is set, so a run's first
 * calls are its method's (the tests of faults count on which call meets them).
 */
export async function openOnServer(page, url, preset, { provider = 'openai', model = 'test-model', key, turns, opening = false } = {}) {
  await page.getByTestId(`open-${preset}`).click();
  if (!opening) {
    await page.getByTestId('field-opening.specify_topic').uncheck();
    await page.getByTestId('field-opening.describe_characters').uncheck();
  }
  await page.getByTestId('field-model.provider').selectOption(provider);
  await page.getByTestId('field-model.base_url').fill(url);
  await page.getByTestId('field-model.name').fill(model);
  await page.getByTestId('api-key').fill(key);
  await page.getByTestId('api-key').dispatchEvent('change');
  if (turns !== undefined) await page.getByTestId('field-max_turns').fill(String(turns));
}

/** Opens a preset on the in-tab model at `address`, with a turn limit; `opening` keeps seed 000's
 * opening steps (the topic made specific, a description of each agent), which the tests leave
 * off unless they are what is tested, to keep runs short. */
export async function onTab(page, preset, address, turns, { opening = false } = {}) {
  await page.getByTestId(`open-${preset}`).click();
  if (!opening) {
    await page.getByTestId('field-opening.specify_topic').uncheck();
    await page.getByTestId('field-opening.describe_characters').uncheck();
  }
  await page.getByTestId('field-model.provider').selectOption('browser');
  const field = page.getByTestId('field-model.name');
  await field.fill(address);
  await field.press('Enter');
  await field.blur();
  if (turns !== undefined) await page.getByTestId('field-max_turns').fill(String(turns));
}

/**
 * Opens every collapsed section of `target` (a page or a frame), so what is inside it is drawn
 * and checked too. Sections draw their content when opened (the inspector's calls, then each
 * call's messages), so this opens what appears until a pass finds nothing closed and nothing new.
 */
export async function openAllSections(target) {
  // The drawer's panes arrive in a chunk of their own once the stage shows: their sections too.
  await panesDrawn(target);
  let seen = -1;
  await eventually(async () => {
    const { closed, total } = await target.evaluate(() => {
      const all = [...document.querySelectorAll('details')];
      const shut = all.filter((d) => !d.open);
      shut.forEach((d) => { d.open = true; });
      return { closed: shut.length, total: all.length };
    });
    const settled = closed === 0 && total === seen;
    seen = total;
    assert.ok(settled, `${closed} of ${total} sections were still closed`);
  }, { timeout: 20000, interval: 100 });
}

/**
 * Starts `agora relay` (the release build) on a free loopback port; resolves to { url, close }.
 */
export async function startRelay(port = 0) {
  const child = spawn(join(root, 'target', 'release', 'agora'), ['relay', '--port', String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((ok, fail) => {
    createInterface({ input: child.stdout }).once('line', (line) => ok(line.replace('agora relay: listening on ', '')));
    child.once('exit', (code) => fail(new Error(`agora relay stopped (${code})`)));
  });
  return { url, close: () => child.kill() };
}

/**
 * Starts a TURN server (coturn, from Debian) on 127.0.0.1 that relays on 127.0.0.1 alone, with the
 * user agora:agora; resolves to { ice, close }: `ice` is the room's setting that sends every
 * connection through it and nowhere else. Chromium gathers no loopback candidate of its own
 * (--allow-loopback-in-peer-connection notwithstanding), so a relay on loopback is how two of its
 * pages meet without a packet leaving the machine.
 */
export async function startTurn() {
  const { createSocket } = await import('node:dgram');
  const probe = createSocket('udp4');
  await new Promise((ok) => probe.bind(0, '127.0.0.1', ok));
  const port = probe.address().port;
  probe.close();
  const child = spawn('turnserver', ['-n', '--listening-ip=127.0.0.1', '--relay-ip=127.0.0.1', `--listening-port=${port}`,
    '--lt-cred-mech', '--user=agora:agora', '--realm=agora.test', '--allow-loopback-peers', '--no-cli', '--no-tls',
    '--no-dtls', '--no-tcp', `--pidfile=${join(tmpdir(), `agora-turn-${port}.pid`)}`, '--log-file=stdout', '--simple-log'],
  { stdio: ['ignore', 'pipe', 'ignore'] });
  await new Promise((ok, fail) => {
    createInterface({ input: child.stdout }).on('line', (line) => { if (/Total (UDP|General) servers/i.test(line) || /listener opened on/i.test(line)) ok(); });
    child.once('exit', (code) => fail(new Error(`turnserver stopped (${code})`)));
    setTimeout(ok, 3000);
  });
  return { ice: `turn:agora:agora@127.0.0.1:${port} only`, close: () => child.kill() };
}

/**
 * For a page's init script: WebRTC on this machine alone. Every candidate but 127.0.0.1 (local
 * and remote, trickled or in a description) is dropped, so the pairs a connection can select are
 * loopback's (a TURN server on 127.0.0.1, see `startTurn`), and every connection made is kept in `window.agoraConnections` for a test to read its selected pair.
 */
export function loopbackOnly() {
  const Native = window.RTCPeerConnection;
  const loopback = (c) => !c || !c.candidate || / 127\.0\.0\.1 /.test(c.candidate);
  const strip = (d) => d && d.sdp ? { type: d.type, sdp: d.sdp.split('\r\n').filter((l) => !l.startsWith('a=candidate') || / 127\.0\.0\.1 /.test(l)).join('\r\n') } : d;
  window.agoraConnections = [];
  window.RTCPeerConnection = class extends Native {
    constructor(...args) { super(...args); window.agoraConnections.push(this); }
    set onicecandidate(f) { super.onicecandidate = f && ((e) => { if (loopback(e.candidate)) f(e); }); }
    get onicecandidate() { return super.onicecandidate; }
    get localDescription() { return strip(super.localDescription); }
    addIceCandidate(c, ...rest) { return loopback(c) ? super.addIceCandidate(c, ...rest) : Promise.resolve(); }
    setRemoteDescription(d, ...rest) { return super.setRemoteDescription(strip(d), ...rest); }
  };
}

/** The local and remote addresses of every selected candidate pair of `page`'s connections. */
export async function selectedPairs(page) {
  return page.evaluate(async () => {
    const pairs = [];
    for (const pc of window.agoraConnections ?? []) {
      if (pc.connectionState !== 'connected') continue;
      const stats = [...(await pc.getStats()).values()];
      const byId = new Map(stats.map((s) => [s.id, s]));
      for (const t of stats.filter((s) => s.type === 'transport' && s.selectedCandidatePairId)) {
        const pair = byId.get(t.selectedCandidatePairId);
        pairs.push([byId.get(pair.localCandidateId)?.address, byId.get(pair.remoteCandidateId)?.address]);
      }
    }
    return pairs;
  });
}
