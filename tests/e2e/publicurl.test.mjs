// Trunk's and Leptos' guides publish to a GitHub Pages path with `trunk build --release
// --public-url /<repo>/`, which names every file by an absolute path (or a full address) instead
// of the project's `./`. Each kind of public URL builds a page that boots: its minified glue under
// a matching preload digest, its shell's progress bar sized from the wasm, a preset played to its
// end. Two release builds (the wasm itself is cargo's cached build; about two minutes each).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, root, serveSite, waitForStatus } from './helpers.mjs';

const browser = await launch();
after(() => browser.close());

async function buildsAndBoots(publicUrl) {
  const dir = mkdtempSync(join(tmpdir(), 'agora-public-url-'));
  // The server first, so that a full address can name its port.
  const site = await serveSite(dir);
  const url = publicUrl(site.url);
  try {
    execFileSync('trunk', ['build', '--release', '--public-url', url, '--dist', dir], { cwd: root, stdio: 'ignore', timeout: 600000 });
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    const preload = /<link rel="modulepreload" href="([^"]+)"[^>]*integrity="sha384-([^"]+)"/.exec(html);
    assert.ok(preload, 'the glue is preloaded with its digest');
    assert.ok(preload[1].startsWith(url), `${preload[1]} is under ${url}`);
    const glue = readFileSync(join(dir, preload[1].slice(url.length)));
    assert.equal(preload[2], createHash('sha384').update(glue).digest('base64'), 'the digest is the minified glue\'s');
    assert.match(html, /<progress[^>]*data-shell-wasm[^>]*max="\d+"/);

    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(site.url);
    await page.getByTestId('open-rail-debate').click();
    await page.getByTestId('speed').selectOption('0');
    await page.getByTestId('run').click();
    await waitForStatus(page, 'Finished');
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await site.close();
  }
}

test('a build with an absolute public URL (/agora/) boots and plays', () => buildsAndBoots(() => '/agora/'));

test('a build with a full address as its public URL boots and plays', () => buildsAndBoots((served) => served));
