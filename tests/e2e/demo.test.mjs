// The README's "A class demo, step by step", followed word for word at 1280 by 720 on the demo
// model: each step's screenshot is saved under tests/artifacts/class-demo/ (the folder the README
// names), and the run ends with the class's seat, interjection and floor as the README says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appSession, eventually, openApp, root, waitForStatus, waitForText } from './helpers.mjs';

const session = appSession();
const shots = join(root, 'tests', 'artifacts', 'class-demo');

test("the guide's class demo, step by step, ends with the class's seat, interjection and floor on screen", async () => {
  mkdirSync(shots, { recursive: true });
  const { page, errors } = await openApp(session.browser, session.server.url, { width: 1280, height: 720 });
  const shot = (name) => page.screenshot({ path: join(shots, `${name}.png`) });
  const heading = page.locator('[data-testid=seat] h2');
  const asked = async (what) => {
    await waitForText(heading, `Your turn: Elizabeth Warren (${what})`, 30000);
    await page.waitForFunction(() => document.activeElement?.closest('[data-testid=seat]'));
  };

  // 1. Open the "Presidential debate" preset: the topic is specified and each candidate described.
  await page.getByTestId('open-rail-debate').click();
  assert.equal(await page.getByTestId('field-opening.specify_topic').isChecked(), true);
  assert.equal(await page.getByTestId('field-opening.describe_characters').isChecked(), true);
  // The class's own topic, as the class put it.
  await page.getByTestId('field-topic').fill('Should our town build a high-speed rail line?');
  // The show is renamed for it: the title the preset gave followed the topic.
  const renamed = 'Presidential debate: Should our town build a high-speed rail line?';
  await waitForText(page.getByTestId('stage-title'), renamed);
  assert.equal(await page.getByTestId('field-title').inputValue(), renamed);
  await shot('1-preset');

  // 2. Under the run controls, tick one candidate in "Played by you"; press Run. The run asks for
  // the candidate's description, then a bid (a digit, no click needed), and the speech when the
  // bid wins (its box has the focus; its words counted against the limit).
  await page.getByTestId('class-seats').getByText('Elizabeth Warren', { exact: true }).click();
  assert.equal(await page.getByTestId('seat-2').isChecked(), true);
  await page.getByTestId('run').click();
  await asked('character description');
  await page.keyboard.type('A senator who has read every page of the rail bill.');
  await page.getByTestId('seat-send').click();
  await asked('bid');
  await shot('2-seat');

  // 3. Interject as the "Audience member" from the row under the controls.
  assert.equal(await page.getByTestId('interject-as').inputValue(), 'Audience member');
  await page.getByTestId('interject-text').fill('Who pays for the tracks?');
  await page.getByTestId('interject').click();
  await waitForText(page.getByTestId('interject-later'), "Heard after this turn's speech");
  await shot('3-interject');

  // 4. Give the floor: a click on a name makes them speak next.
  await page.getByTestId('give-floor').getByText('Kanye West', { exact: true }).click();
  await waitForText(page.getByTestId('floor-given'), 'Kanye West speaks next: given by the class');
  await shot('4-floor');
  await page.getByTestId('seat-choice-8').click();

  // 5. Press P: large type, the transcript beside the bids; Enter sends the class's answer.
  await page.keyboard.press('p');
  await page.locator('main.projector').waitFor();
  for (;;) {
    await page.waitForFunction(() => /\((bid|speak)\)$/.test(document.querySelector('[data-testid=seat] h2')?.textContent ?? ''), null, { timeout: 60000 });
    if ((await heading.textContent()).endsWith('(speak)')) break;
    const prompt = await page.getByTestId('seat-prompt').textContent();
    await page.keyboard.press('0');
    await page.waitForFunction((p) => document.querySelector('[data-testid=seat-prompt]')?.textContent !== p, prompt, { timeout: 60000 });
  }
  await page.waitForFunction(() => document.activeElement?.dataset.testid === 'seat-text');
  await page.keyboard.type('The tracks pay for themselves: every city on the line grows.');
  await eventually(async () => assert.match(await page.getByTestId('seat-words').textContent(), /^11 \/ 50 words/));
  await shot('5-projector');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  await page.locator('main.projector').waitFor({ state: 'detached' });
  // Her next bid is 1: a candidate takes the floor and answers her by name, taking up her words.
  await asked('bid');
  await page.getByTestId('seat-choice-0').click();
  const answer = page.getByTestId('message').filter({ hasText: 'turn 3' });
  await answer.waitFor({ timeout: 60000 });
  const reply = await answer.textContent();
  assert.match(reply, /Elizabeth Warren/, reply);
  assert.match(reply, /tracks pay for themselves|every city on the line grows/, reply);
  await shot('5b-answered');

  // 6. Afterwards, share the run ("Copy link with run"), or export it as Markdown.
  await page.getByTestId('stop').click();
  await waitForStatus(page, 'Finished');
  // The past runs name it as the show was renamed.
  await waitForText(page.getByTestId('past-run').first(), renamed);
  await page.getByTestId('share-run').click();
  await waitForText(page.getByTestId('share-message'), /^Link ready/);
  const [md] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-markdown').click()]);
  const markdown = readFileSync(await md.path(), 'utf8');
  await shot('6-share');

  // As the README describes: the class's speech marked "you", the interjection heard, the floor
  // the class gave noted on the bid board; the same in the Markdown.
  const mine = page.getByTestId('message').filter({ hasText: 'The tracks pay for themselves' });
  assert.equal(await mine.getByTestId('you').count(), 1);
  // The interjection is heard once (a speaker may quote it back in answering it).
  assert.equal(await page.locator('[data-testid=message][data-kind=injected]').filter({ hasText: 'Who pays for the tracks?' }).count(), 1);
  // The topic is put as the question it is, never pasted into a sentence that breaks it.
  await waitForText(page.getByTestId('message').first(), /the question before us: “Should our town build a high-speed rail line\?”/);
  await eventually(async () => assert.match(await page.getByTestId('board-given').first().textContent(), /floor given to Kanye West by the class/));
  assert.match(markdown, /\*\*\(Elizabeth Warren, you\):\*\* The tracks pay for themselves/);
  assert.match(markdown, /Who pays for the tracks\?/);
  assert.deepEqual(errors, []);
});

test('a new topic gets the cast described for it, and the descriptions change only when the person uses them', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('field-topic').fill('Should homework be banned in primary schools?');
  const before = await page.getByTestId('field-agents[0].description').inputValue();
  await page.getByTestId('describe-cast').click();
  await page.getByTestId('described').waitFor();
  const offered = await page.getByTestId('described-agent').allTextContents();
  assert.equal(offered.length, 3, offered.join('\n'));
  assert.match(offered[0], /^Donald Trump: .*homework/i);
  assert.match(offered[2], /^Elizabeth Warren: .*homework/i);
  assert.equal(await page.getByTestId('field-agents[0].description').inputValue(), before, 'nothing changes until used');
  await page.getByTestId('describe-use').click();
  await waitForText(page.getByTestId('describe-status'), /3 agents' descriptions are now the ones written/);
  assert.equal(await page.getByTestId('field-agents[0].description').inputValue(), offered[0].replace(/^Donald Trump: /, ''));
  assert.equal(await page.getByTestId('described').count(), 0);
  // A run keeps them: the opening no longer writes its own over them.
  assert.equal(await page.getByTestId('field-opening.describe_characters').isChecked(), false);
  assert.deepEqual(errors, []);
});

test('the stage says which model the scenario runs on at every width, the scenario named first', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await page.getByTestId('open-rail-debate').click();
  const badge = page.locator('header.topbar [data-testid=model-badge]');
  for (const [width, height, shown] of [[1280, 720, 'Demo model'], [1024, 768, 'Demo model'], [390, 844, 'Demo model'], [1600, 900, 'Model: offline demo (no key needed)']]) {
    await page.setViewportSize({ width, height });
    await eventually(async () => {
      assert.equal(await badge.isVisible(), true, `${width}: the badge shows`);
      assert.equal((await badge.innerText()).trim(), shown, `${width}`);
    });
    const title = await page.getByTestId('stage-title').boundingBox();
    const model = await badge.boundingBox();
    assert.ok(title.width >= Math.min(200, width * 0.4 - 1), `${width}: the scenario's name keeps its room (${title.width} px)`);
    assert.ok(model.x > title.x + title.width - 1 || model.y > title.y + title.height / 2, `${width}: the name comes first`);
    await page.screenshot({ path: join(root, 'tests', 'artifacts', `model-badge-${width}.png`) });
  }
  assert.equal(await badge.getAttribute('title'), 'Model: offline demo (no key needed)');
  assert.deepEqual(errors, []);
});

test('with Chinese as the scenario\'s language the demo debates in Chinese, each speech marked lang="zh" for a screen reader', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('tab-scenario').click();
  await page.getByTestId('field-topic').fill('我们学校应该禁止学生上课使用手机吗？');
  await page.getByTestId('field-language').fill('简体中文');
  await page.getByTestId('field-max_turns').fill('4');
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished');
  const speeches = page.locator('[data-testid=message]:not(.injected) [data-testid=message-text]');
  const n = await speeches.count();
  assert.ok(n >= 4, `${n} speeches`);
  for (let i = 0; i < n; i++) {
    assert.equal(await speeches.nth(i).getAttribute('lang'), 'zh');
    assert.match(await speeches.nth(i).textContent(), /[\u4e00-\u9fff]/);
  }
  // The screen reader's log reads them in Chinese too.
  const heard = page.locator('[data-testid=announcer] p[lang=zh]');
  assert.ok(await heard.count() >= 1);
  assert.deepEqual(errors, []);
});
