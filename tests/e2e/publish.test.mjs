// The published app: the release build served under a subpath by a plain static server that sends
// no COOP or COEP headers and no compression, as GitHub Pages does. Its service worker makes the
// page cross-origin isolated from the next load on (or the reload the model in the tab offers),
// never reloading a first visit by itself, keeps it working offline, and offers a new deploy
// without breaking the run on screen; the release archive serves the same way.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { comparisonColumns, eventually, launch, onTab, openOnServer, root, serveSite, waitForStatus, waitForText, setComparison } from './helpers.mjs';
import { startLlmServer } from './llm-server.mjs';
import { filesIn } from '../../publish/files.mjs';

const dist = join(root, 'dist');
const work = mkdtempSync(join(tmpdir(), 'agora-publish-'));
const tiny = join(work, 'tiny.gguf');
const ctx = {};
/** Every built-in preset's id, as `agora presets` lists them. */
const presets = () => execFileSync(join(root, 'target', 'release', 'agora'), ['presets']).toString()
  .split('\n').filter((l) => l.startsWith('preset:')).map((l) => l.slice(7).split(' ')[0]);

before(async () => {
  execFileSync('python3', [join(root, 'tests', 'tiny-model', 'make_tiny_gguf.py'), tiny]);
  ctx.browser = await launch();
});
after(async () => {
  await ctx.browser?.close();
});

/** A copy of dist/ with the tiny model beside the app, as a model host would serve it. */
function site(from = dist) {
  const dir = mkdtempSync(join(work, 'site-'));
  cpSync(from, dir, { recursive: true });
  cpSync(tiny, join(dir, 'models', 'tiny.gguf'));
  return dir;
}

/**
 * Opens the app at `url` in a context with its service worker allowed, as a first visit: the
 * gallery shows, the worker installs and takes control, and the page is neither reloaded nor yet
 * cross-origin isolated. Unless `firstOnly`, the page is then loaded again, the next visit, which
 * the worker isolates. Requests that failed and errors the page logged are collected.
 */
async function openPublished(url, context, { firstOnly = false } = {}) {
  context ??= await ctx.browser.newContext({ serviceWorkers: 'allow', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && !/ERR_INTERNET_DISCONNECTED/.test(m.text()) && errors.push(m.text()));
  await page.goto(url);
  await page.getByTestId('preset-list').waitFor();
  await page.evaluate(() => (window.testMark = 'first visit'));
  await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', null, { timeout: 30000 });
  // Long enough for the reload a first visit used to get as the worker took control.
  await page.waitForTimeout(1000);
  assert.deepEqual(await page.evaluate(() => [window.testMark, crossOriginIsolated]), ['first visit', false], 'the first visit is not reloaded');
  if (!firstOnly) {
    await page.reload();
    await page.waitForFunction(() => crossOriginIsolated, null, { timeout: 30000 });
    await page.getByTestId('preset-list').waitFor();
  }
  return { context, page, errors };
}

async function runEach(page, ids) {
  for (const id of ids) {
    await page.getByTestId(`open-${id}`).click();
    await page.getByTestId('speed').selectOption('0');
    await page.getByTestId('run').click();
    await waitForStatus(page, 'Finished', 90000);
    assert.ok(await page.getByTestId('message').count() > 0, `${id} said something`);
  }
}

/** Opens the tiny model in the tab for a 2-turn rail debate and loads it (downloaded if needed). */
async function onTinyModel(page, { download = true, address = 'models/tiny.gguf' } = {}) {
  await onTab(page, 'rail-debate', address, 2);
  if (download) {
    await page.getByTestId('intab-download').click();
    await page.getByTestId('intab-download-confirm').click();
  } else {
    await page.getByTestId('intab-load').click();
  }
  await page.getByTestId('intab-ready').waitFor({ timeout: 60000 });
}

/** Presses a "Copy link" button and waits for the link it shows to start with `start`. */
async function copiedLink(page, id, start) {
  await page.getByTestId(id).click();
  return eventually(async () => {
    const url = await page.getByTestId('share-url').inputValue();
    assert.ok(url.startsWith(start), `${url} starts with ${start}`);
    return url;
  });
}

test("the build's service worker names every file with the digest of its final bytes, and the page's glue is minified under a matching preload digest", () => {
  const sw = readFileSync(join(dist, 'sw.js'), 'utf8');
  const { files } = JSON.parse(/\{"version":.*?"files":\[.*?\]\]\}/s.exec(sw)[0]);
  const built = filesIn(dist).filter((p) => p !== 'sw.js' && !/\.(br|gz|map)$/.test(p));
  assert.deepEqual(files.map((f) => f[0]).sort(), built.sort());
  for (const [path, revision] of files) {
    assert.equal(revision, createHash('sha256').update(readFileSync(join(dist, path))).digest('hex').slice(0, 16), path);
  }
  assert.ok(files.some(([path]) => path === 'room/net.js'), "the room's bundle is listed");
  const page = readFileSync(join(dist, 'index.html'), 'utf8');
  const [, glue, digest] = /<link rel="modulepreload" href="\.\/([^"]+\.js)"[^>]*integrity="sha384-([^"]+)"/.exec(page);
  const code = readFileSync(join(dist, glue));
  assert.equal(digest, createHash('sha384').update(code).digest('base64'));
  // wasm-bindgen writes doc comments and indented lines; minified, there are none.
  assert.doesNotMatch(code.toString(), /\/\*\*|\n {4}/);
});

test('under a subpath on a plain host: every preset runs, links open there, and the page is isolated with threads for the model in the tab', async () => {
  const served = await serveSite(site());
  const { context, page, errors } = await openPublished(served.url, undefined, { firstOnly: true });
  // The model in the tab offers the reload that gives it threads, and says why, when it is chosen;
  // the reload makes the page cross-origin isolated.
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('field-model.provider').selectOption('browser');
  await waitForText(page.getByTestId('intab-engine'), 'on 1 thread (its service worker is now installed, and the page has threads once reloaded)');
  await waitForText(page.getByTestId('intab-threads'), /After a reload the engine runs on several threads/);
  await page.getByTestId('intab-reload').click();
  await page.waitForFunction(() => crossOriginIsolated && !window.testMark, null, { timeout: 30000 });
  await page.getByTestId('preset-list').waitFor();
  await waitForText(page.getByTestId('intab-engine'), /on [2-8] threads/);
  assert.equal(await page.getByTestId('intab-reload').count(), 0, 'no reload is offered once the page has threads');
  await runEach(page, presets());

  // Links carry the subpath.
  await page.getByTestId('open-rail-debate').click();
  const scenarioLink = await copiedLink(page, 'share-scenario', `${served.url}#s=1.`);
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished');
  const runLink = await copiedLink(page, 'share-run', `${served.url}#run=1.`);
  // "Links open at": empty, the page's own address; a teacher's published address once set; an
  // address that is not http(s) is marked and not used.
  const setting = page.getByTestId('links-at-input');
  assert.equal(await setting.getAttribute('placeholder'), served.url);
  await setting.fill('https://class.example.org/agora');
  await setting.dispatchEvent('change');
  await copiedLink(page, 'share-scenario', 'https://class.example.org/agora/#s=1.');
  await setting.fill('class.example.org');
  await setting.dispatchEvent('change');
  await eventually(async () => assert.match(await setting.getAttribute('class'), /error/));
  await copiedLink(page, 'share-scenario', `${served.url}#s=1.`);
  await setting.fill('');
  await setting.dispatchEvent('change');
  // The tools module (a Markdown transcript) loads from under the subpath.
  const [markdown] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-markdown').click()]);
  assert.match(readFileSync(await markdown.path(), 'utf8'), /^# /);

  // A comparison opens in its frame under the subpath, and its link opens the app there.
  await setComparison(page, 'seed', '3, 8');
  await page.getByTestId('compare-open').click();
  const frame = await comparisonColumns(page, 2);
  await frame.getByTestId('compare-link').click();
  await waitForText(frame.getByTestId('compare-note'), /copied/);
  const compareLink = await frame.getByTestId('compare-url').inputValue();
  assert.ok(compareLink.startsWith(`${served.url}#cmp=1.`), compareLink);
  await page.getByTestId('compare-close').click();

  for (const [link, shows] of [[scenarioLink, /Opened "/], [runLink, /Opened a recorded run/], [compareLink, /Opened a comparison/]]) {
    const opened = await context.newPage();
    await opened.goto(link);
    await waitForText(opened.getByTestId('link-notice'), shows);
    await opened.close();
  }

  // Calls to a provider on another origin still go through on the isolated page.
  const llm = await startLlmServer();
  await openOnServer(page, llm.url, 'rail-debate', { key: 'sk-test', turns: 2 });
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished', 60000);
  assert.ok(await page.getByTestId('message').count() >= 2);
  await llm.close();

  // The model in the tab loads its engine from under the subpath, downloads its model from
  // another origin (as from Hugging Face), and runs on more than one thread.
  const host = await serveSite(work, { prefix: '/models/', cors: true });
  await onTinyModel(page, { address: `${host.url}tiny.gguf` });
  await waitForText(page.getByTestId('intab-engine'), /Loaded: .*tiny\.gguf · The engine runs in a worker on [2-8] threads/);
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished', 120000);
  await host.close();

  const missing = served.requests.filter((r) => r.status !== 200);
  assert.deepEqual(missing, [], 'every file was found under the subpath');
  assert.ok(served.requests.some((r) => r.path === '/agora/sw.js'));
  assert.ok(served.requests.some((r) => /^\/agora\/agora-[0-9a-f]+\.split_tools\.wasm$/.test(r.path)));
  assert.ok(served.requests.some((r) => /^\/agora\/agora-[0-9a-f]+\.split_compare\.wasm$/.test(r.path)));
  assert.ok(served.requests.some((r) => r.path === '/agora/intab/wllama/wllama.wasm'));
  assert.deepEqual(errors, []);
  await context.close();
  await served.close();
});

test('offline after one visit: the gallery, every preset, a past run, a replay link and the model in the tab', async () => {
  const served = await serveSite(site());
  const { context, page, errors } = await openPublished(served.url);
  // The visit: one run kept in the past runs, a replay link, and the tiny model downloaded.
  await page.getByTestId('open-arms-debate').click();
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished');
  const runLink = await copiedLink(page, 'share-run', `${served.url}#run=1.`);
  await onTinyModel(page);

  await context.setOffline(true);
  await page.reload();
  await page.getByTestId('preset-list').waitFor();
  await runEach(page, presets());
  const past = page.getByTestId('past-run').filter({ hasText: 'Should the US send weapons to Israel' });
  await eventually(async () => assert.ok(await past.count() >= 1));
  await past.first().getByTestId('past-open').click();
  await waitForText(page.getByTestId('status'), /replay|Replay|Step/);

  const replay = await context.newPage();
  await replay.goto(runLink);
  await waitForText(replay.getByTestId('link-notice'), /Opened a recorded run/);
  await replay.getByTestId('run').click();
  await waitForStatus(replay, 'Finished');
  await replay.close();

  await onTinyModel(page, { download: false });
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished', 120000);
  assert.deepEqual(errors, []);
  await context.close();
  await served.close();
});

test('a visit in Chinese works offline in Chinese, and an English visit never fetches the Chinese words', async () => {
  const served = await serveSite(site());
  const english = await openPublished(served.url, undefined, { firstOnly: true });
  assert.ok(!served.requests.some((r) => /split_zh\.wasm$/.test(r.path)), 'an English visit fetched the Chinese words');
  await english.context.close();
  const context = await ctx.browser.newContext({ serviceWorkers: 'allow', viewport: { width: 1280, height: 900 }, locale: 'zh-CN' });
  const { page, errors } = await openPublished(served.url, context, { firstOnly: true });
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-Hans');
  await context.setOffline(true);
  await page.reload();
  await page.getByTestId('preset-list').waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-Hans');
  assert.equal(await page.getByRole('heading', { level: 2 }).first().textContent(), '选择一个场景');
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForStatus(page, '第 10 轮后结束');
  assert.deepEqual(errors, []);
  await context.close();
  await served.close();
});

test('a new deploy is offered while a run goes on, and after the reload the new version opens the saved run', async () => {
  const a = site();
  // Build B: the same app with one more line in its page, its worker written anew as a build does.
  const b = site();
  const page = readFileSync(join(b, 'index.html'), 'utf8');
  writeFileSync(join(b, 'index.html'), page.replace('<head>', '<head>\n    <meta name="agora-build" content="B" />'));
  execFileSync('node', [join(root, 'publish', 'precache.mjs'), b]);
  assert.notEqual(readFileSync(join(a, 'sw.js'), 'utf8'), readFileSync(join(b, 'sw.js'), 'utf8'));

  const served = await serveSite(a);
  const { context, page: tab, errors } = await openPublished(served.url);
  await tab.getByTestId('open-rail-debate').click();
  await tab.getByTestId('field-max_turns').fill('40');
  await tab.getByTestId('speed').selectOption({ index: 1 });
  await tab.getByTestId('run').click();
  await waitForStatus(tab, 'Running');
  served.dir = b;
  // What the page does on its own every half hour and when it is shown again.
  await tab.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r.update()));
  await waitForText(tab.getByTestId('update'), /A new version of Agora is ready/, 30000);
  // The run was not interrupted: it is still running and still speaking.
  const before = await tab.getByTestId('message').count();
  await eventually(async () => assert.ok(await tab.getByTestId('message').count() > before), { timeout: 30000 });
  await waitForStatus(tab, 'Running');
  assert.equal(await tab.locator('meta[name=agora-build]').count(), 0);
  // "Later" puts the offer away; the next load offers it again.
  await tab.getByTestId('update-later').click();
  await eventually(async () => assert.equal(await tab.getByTestId('update').count(), 0));
  await tab.getByTestId('pause').click();
  await waitForStatus(tab, 'Paused');
  const spokenBefore = await tab.getByTestId('message').count();
  await tab.reload();
  await waitForText(tab.getByTestId('update'), /A new version of Agora is ready/, 30000);
  assert.equal(await tab.locator('meta[name=agora-build]').count(), 0, 'a reload alone keeps the version that is running');
  await waitForStatus(tab, 'Paused');
  assert.ok(await tab.getByTestId('message').count() >= spokenBefore - 1);
  await tab.getByTestId('update-reload').click();
  await tab.locator('meta[name=agora-build]').waitFor({ state: 'attached', timeout: 30000 });
  // Build B opened the run build A kept: paused where it was, on the stage.
  await waitForStatus(tab, 'Paused');
  assert.ok(await tab.getByTestId('message').count() >= spokenBefore - 1);
  assert.deepEqual(errors, []);
  await context.close();
  await served.close();
});

test('the release archive unpacks, serves and opens the gallery; its .br and .gz files are the originals', async () => {
  const out = mkdtempSync(join(work, 'release-'));
  execFileSync('bash', [join(root, '.ci', 'release'), '--no-build'], { env: { ...process.env, AGORA_RELEASE_DIR: out, AGORA_VERSION: 'v9.8.7' } });
  const unpacked = mkdtempSync(join(work, 'unpacked-'));
  execFileSync('tar', ['-xzf', join(out, 'agora-web-9.8.7.tar.gz'), '-C', unpacked]);
  const folder = join(unpacked, 'agora-web-9.8.7');
  const files = filesIn(folder);
  const compressed = files.filter((f) => f.endsWith('.br'));
  assert.ok(compressed.length > 10 && compressed.some((f) => f.endsWith('.wasm.br')));
  for (const f of compressed) {
    const original = readFileSync(join(folder, f.slice(0, -3)));
    assert.ok(brotliDecompressSync(readFileSync(join(folder, f))).equals(original), f);
    assert.ok(gunzipSync(readFileSync(join(folder, `${f.slice(0, -3)}.gz`))).equals(original), `${f} (gzip)`);
  }
  const headers = readFileSync(join(folder, '_headers'), 'utf8');
  assert.match(headers, /^\/\*\n {2}Cross-Origin-Opener-Policy: same-origin\n {2}Cross-Origin-Embedder-Policy: require-corp\n/);
  assert.match(headers, /\n\/index\.html\n {2}Cache-Control: no-cache\n/);
  assert.match(headers, /\n\/agora-[0-9a-f]{12,16}_bg\.wasm\n {2}Cache-Control: public, max-age=31536000, immutable\n/);

  const served = await serveSite(folder, { prefix: '/', brotli: true });
  const context = await ctx.browser.newContext();
  const tab = await context.newPage();
  await tab.goto(served.url);
  await tab.getByTestId('open-rail-debate').waitFor();
  assert.deepEqual(served.requests.filter((r) => r.status !== 200), []);
  await context.close();
  await served.close();
});

test('where the browser allows no service worker, the model in the tab says why it has one thread', async () => {
  const served = await serveSite(site());
  const context = await ctx.browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto(served.url);
  await page.getByTestId('preset-list').waitFor();
  assert.equal(await page.evaluate(() => crossOriginIsolated), false);
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('field-model.provider').selectOption('browser');
  // Playwright's blocking answers the registration with no worker, as a browser's policy may.
  await waitForText(page.getByTestId('intab-engine'), 'on 1 thread (this browser offers the page no service worker (a private window may turn them off) to add the COOP and COEP headers its host does not send)');
  await context.close();
  await served.close();
});
