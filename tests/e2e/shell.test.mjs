// The app mounts in a real browser and lists every preset shipped in public/scenarios/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { appSession, root, screenshot } from './helpers.mjs';

const session = appSession();

test('the shell mounts and lists every preset by title', async () => {
  const dir = join(root, 'public', 'scenarios');
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json'));
  const expected = new Map();
  for (const f of files) {
    const scenario = JSON.parse(await readFile(join(dir, f), 'utf8'));
    expected.set(f.replace(/\.json$/, ''), scenario.title);
  }
  // Every file is one of the presets compiled into the app (src/presets.rs), and the other way.
  const compiled = (await readFile(join(root, 'src', 'presets.rs'), 'utf8')).match(/include_str!\("\.\.\/public\/scenarios\/[^"]+\.json"\)/g);
  assert.equal(expected.size, compiled.length, 'every preset file is compiled in');
  assert.ok(expected.size >= 7, 'the five seed systems, the selector and random');

  const page = await session.browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(session.server.url);
  await page.getByTestId('preset-list').waitFor();
  for (const [id, title] of expected) {
    const card = page.getByTestId(`preset-${id}`);
    assert.equal((await card.locator('h3').textContent()).trim(), title, id);
  }
  assert.equal(await page.locator('[data-testid^="preset-"]').count() - 1, expected.size);
  await screenshot(page, 'shell');
  assert.deepEqual(errors, []);
});

test('the preset files are served beside the app', async () => {
  const res = await fetch(`${session.server.url}scenarios/trading-game.json`);
  assert.equal(res.status, 200);
  const scenario = await res.json();
  assert.equal(scenario.method.kind, 'negotiation');
  assert.deepEqual(scenario.method.inventories, [[4, 3, 2], [1, 5, 2]]);
});
