// The user guide (issue 71): the release build serves it at guide/, every chapter its contents
// list names opens, the teacher's part has its Chinese chapter, and the README's picture of the
// stage is made here, from the page as it is, so it never drifts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { appSession, eventually, openApp, root, waitForStatus } from './helpers.mjs';

const session = appSession();

/** The chapters docs/guide/src/SUMMARY.md lists: [title, path of the page it builds]. */
async function chapters() {
  const summary = await readFile(join(root, 'docs', 'guide', 'src', 'SUMMARY.md'), 'utf8');
  return [...summary.matchAll(/\[([^\]]+)\]\(([^)]+)\.md\)/g)].map((m) => [m[1], `${m[2]}.html`]);
}

test('the build serves the user guide at guide/, and every chapter its contents list names opens with its title', async () => {
  const listed = await chapters();
  assert.ok(listed.length >= 6, `${listed.length} chapters`);
  const index = await fetch(`${session.server.url}guide/index.html`);
  assert.equal(index.status, 200);
  assert.match(await index.text(), /Agora: the user guide/);
  const page = await session.browser.newPage({ viewport: { width: 1024, height: 768 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  for (const [title, path] of listed) {
    const response = await page.goto(`${session.server.url}guide/${path}`);
    assert.equal(response.status(), 200, path);
    // The chapter's own heading is its first, and the sidebar links every chapter.
    const heading = await page.locator('main h1').first().textContent();
    assert.ok(heading.trim().length > 0, `${path} has a heading`);
    assert.ok(await page.locator(`.sidebar a:has-text("${title}")`).count() >= 1, `${path}: the sidebar names ${title}`);
  }
  // The teacher's part in Chinese is a chapter of its own, in Chinese.
  const zh = listed.find(([, path]) => path === 'teacher/zh.html');
  assert.ok(zh, 'the Chinese teacher chapter is listed');
  await page.goto(`${session.server.url}guide/teacher/zh.html`);
  const text = await page.locator('main').textContent();
  const han = [...text].filter((c) => /\p{Script=Han}/u.test(c)).length;
  assert.ok(han > 500, `${han} Chinese characters`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the README opens with the stage as the page draws it, and stays short enough to read', async () => {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  const lines = readme.split('\n');
  assert.ok(lines.length <= 250, `${lines.length} lines`);
  const picture = lines.slice(0, 40).map((l) => /!\[[^\]]+\]\(([^)]+\.png)\)/.exec(l)).find(Boolean);
  assert.ok(picture, 'a picture in the first 40 lines');
  assert.equal(picture[1], 'docs/guide/src/images/stage.png');
  // Every page of the guide the README links to exists.
  for (const [, target] of readme.matchAll(/\]\((docs\/guide\/src\/[^)]+\.md)\)/g)) {
    await readFile(join(root, target));
  }

  // The picture: a presidential debate on the demo model, a few turns in, paused on a decision.
  const { page, errors } = await openApp(session.browser, session.server.url, { width: 1280, height: 720 });
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('speed').selectOption('120');
  await page.getByTestId('run').click();
  await eventually(async () => {
    assert.ok((await page.locator('[data-testid=transcript] [data-testid=message]').count()) >= 5);
  }, { timeout: 60000 });
  await page.getByTestId('pause').click();
  await waitForStatus(page, 'Paused');
  await page.locator('[data-testid=bid-turn]').first().waitFor();
  await mkdir(join(root, 'docs', 'guide', 'src', 'images'), { recursive: true });
  await page.screenshot({ path: join(root, picture[1]) });
  assert.deepEqual(errors, []);
  await page.close();
});
