// The page's keys (issue 47): a digit answers a bid only while a bid is asked and never reaches
// the text box that opens after it; P and Space typed into a field stay in it, in the normal and
// the projector view, and open or play nothing; a box that took the focus by itself leaves P to the
// page until it is typed in (issue 56).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appSession, eventually, openApp, waitForStatus } from './helpers.mjs';

const session = appSession();

async function seatedDebate(projector) {
  const { page, errors } = await openApp(session.browser, session.server.url, { width: 1280, height: 720 });
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('field-opening.specify_topic').uncheck();
  await page.getByTestId('field-opening.describe_characters').uncheck();
  await page.getByTestId('seat-1').check();
  await page.getByTestId('drawer-close').click();
  await page.getByTestId('speed').selectOption('0');
  if (projector) {
    await page.keyboard.press('p');
    await page.locator('main.projector').waitFor();
  }
  await page.getByTestId('run').click();
  return { page, errors };
}

for (const projector of [false, true]) {
  test(`${projector ? 'projector view' : 'normal view'}: a bid given by a digit leaves the speech box that opens next empty`, async () => {
    const { page, errors } = await seatedDebate(projector);
    const heading = page.locator('[data-testid=seat] h2');
    await eventually(async () => assert.match(await heading.textContent(), /\(bid\)$/), { timeout: 30000 });
    // The question took the keys when it opened.
    await eventually(async () => assert.equal(await page.evaluate(() => document.activeElement?.closest('[data-testid=seat]') !== null), true));
    await page.keyboard.press('0'); // 10: the highest bid, so the seat speaks next
    await page.getByTestId('seat-text').waitFor({ timeout: 30000 });
    await eventually(async () => assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'seat-text'));
    // Another keystroke's worth of time for a stray character to land.
    await page.waitForTimeout(300);
    assert.equal(await page.getByTestId('seat-text').inputValue(), '', 'the digit stayed out of the speech box');
    assert.match(await page.getByTestId('seat-words').textContent(), /^0 \//);
    // The box took the focus by itself: P there is the page's (the view changes, nothing is
    // typed), until the box is typed in.
    const views = () => page.locator('main.projector').count();
    await page.keyboard.press('p');
    await eventually(async () => assert.equal(await views(), projector ? 0 : 1, 'P on the untouched box changed the view'));
    await page.keyboard.press('p');
    await eventually(async () => assert.equal(await views(), projector ? 1 : 0));
    assert.equal(await page.getByTestId('seat-text').inputValue(), '', 'no P was typed into the box');
    // A capital starts the speech; then P and Space typed into the box are the speech's.
    await page.keyboard.type('I p p');
    assert.equal(await page.getByTestId('seat-text').inputValue(), 'I p p');
    assert.equal(await views(), projector ? 1 : 0, 'P typed into the box left the view as it was');
    assert.match(await page.getByTestId('status').textContent(), /^Waiting for you/);
    // Enter sends the speech (in every view), and the class's speech is on the stage as said.
    await page.keyboard.press('Enter');
    await eventually(async () => assert.deepEqual(await page.locator('[data-testid=message]:has([data-testid=you]) [data-testid=message-text]').allTextContents(), ['I p p']), { timeout: 30000 });
    // The next bid, with the focus taken away from its box: a digit typed on the page still
    // gives it, and only while a bid is asked.
    await eventually(async () => assert.match(await heading.textContent(), /\(bid\)$/), { timeout: 30000 });
    const seated = (await heading.textContent()).match(/Your turn: (.*) \(bid\)$/)[1];
    const threes = page.locator(`[data-testid=bid][data-agent="${seated}"][data-value="3"]`);
    const before = await threes.count();
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press('3');
    await eventually(async () => assert.equal(await threes.count(), before + 1), { timeout: 30000 });
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('P and Space typed into the editor, the interjection and the share settings stay there', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url, { width: 1280, height: 720 });
  await page.getByTestId('open-rail-debate').click();
  const title = page.getByTestId('field-title');
  await title.fill('');
  await title.focus();
  await page.keyboard.type('P p');
  assert.equal(await title.inputValue(), 'P p');
  assert.equal(await page.locator('main.projector').count(), 0);
  // Live and in the projector view: the interjection box keeps its P and Space; the run goes on.
  await page.getByTestId('drawer-close').click();
  await page.getByTestId('speed').selectOption('1000');
  await page.getByTestId('run').click();
  await page.keyboard.press('p');
  await page.locator('main.projector').waitFor();
  const box = page.getByTestId('interject-text');
  await box.focus();
  await page.keyboard.type('P p');
  assert.equal(await box.inputValue(), 'P p');
  assert.equal(await page.locator('main.projector').count(), 1, 'still the projector view');
  assert.match(await page.getByTestId('status').textContent(), /^Running/, 'Space in the box did not pause the run');
  assert.deepEqual(errors, []);
  await page.close();
});

test('Space pauses and resumes, but over a finished run starts nothing; a live run\'s card in the gallery goes back to it', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url, { width: 1280, height: 720 });
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('field-max_turns').fill('3');
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished');
  const count = await page.getByTestId('message-count').textContent();
  await page.keyboard.press('p');
  await page.locator('main.projector').waitFor();
  await page.keyboard.press(' ');
  await page.waitForTimeout(500);
  assert.match(await page.getByTestId('status').textContent(), /^Finished/, 'Space left the finished run alone');
  assert.equal(await page.getByTestId('message-count').textContent(), count);
  await page.keyboard.press('Escape');
  await page.locator('main.projector').waitFor({ state: 'detached' });

  // A run paused mid-way: the gallery and its card bring it back as it was, not a fresh one.
  await page.getByTestId('field-max_turns').fill('8');
  await page.getByTestId('speed').selectOption('400');
  await page.getByTestId('run').click();
  await eventually(async () => assert.ok(Number((await page.getByTestId('message-count').textContent()).match(/\d+/)[0]) >= 2));
  await page.getByTestId('pause').click();
  await waitForStatus(page, 'Paused');
  const paused = await page.getByTestId('message-count').textContent();
  await page.getByTestId('to-gallery').click();
  await page.getByTestId('open-rail-debate').click();
  await waitForStatus(page, 'Paused');
  assert.equal(await page.getByTestId('message-count').textContent(), paused);
  assert.deepEqual(errors, []);
});

test('while a seat is asked, the first Tab from the top of the page is a skip to the open question', async () => {
  const { page, errors } = await seatedDebate(false);
  const heading = page.locator('[data-testid=seat] h2');
  await eventually(async () => assert.match(await heading.textContent(), /\(bid\)$/), { timeout: 30000 });
  // From the top of the page, where a keyboard starts.
  const fromTheTop = () => page.evaluate(() => {
    document.body.tabIndex = -1;
    document.body.focus();
    document.body.removeAttribute('tabindex');
  });
  await fromTheTop();
  await page.keyboard.press('Tab');
  const skip = page.getByTestId('skip-to-question');
  await eventually(async () => assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'skip-to-question'));
  assert.equal(await skip.textContent(), 'Skip to the open question');
  assert.ok(await skip.isVisible(), 'seen while it has the focus');
  await page.keyboard.press('Enter');
  await eventually(async () => assert.equal(await page.evaluate(() => document.activeElement?.closest('[data-testid=seat]') !== null), true));
  // The bid box holds the keys again: a digit gives the bid, and the speech box it opens is the
  // skip's next stop.
  await page.keyboard.press('0');
  await page.getByTestId('seat-text').waitFor({ timeout: 30000 });
  // The speech box takes the keys a frame after it opens; start from the top after that.
  await eventually(async () => assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'seat-text'));
  await fromTheTop();
  await page.keyboard.press('Tab');
  await eventually(async () => assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'skip-to-question'));
  await page.keyboard.press('Enter');
  await eventually(async () => assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'seat-text'));
  assert.deepEqual(errors, []);
  await page.close();
});

test('a card opened with Enter hands the focus to the stage\'s Run button, where Enter runs it', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await page.getByTestId('open-rail-debate').focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('run').waitFor();
  await eventually(async () => assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'run'));
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').focus();
  await page.keyboard.press('Enter');
  await waitForStatus(page, 'Finished');
  assert.deepEqual(errors, []);
});

test('Enter that picks an input method\'s characters sends neither the seat\'s speech nor an interjection', async () => {
  const { page, errors } = await seatedDebate(false);
  const heading = page.locator('[data-testid=seat] h2');
  await eventually(async () => assert.match(await heading.textContent(), /\(bid\)$/), { timeout: 30000 });
  await page.keyboard.press('0');
  const box = page.getByTestId('seat-text');
  await box.waitFor({ timeout: 30000 });
  // Pinyin being composed: the characters are in the box, and the Enter that chooses them comes
  // while the input method still composes.
  await box.click();
  await page.keyboard.insertText('周末补习');
  const composingEnter = (testid) => page.evaluate((id) => {
    const target = document.querySelector(`[data-testid="${id}"]`);
    target.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', code: 'Enter', isComposing: true, bubbles: true, cancelable: true }));
  }, testid);
  await composingEnter('seat-text');
  await page.waitForTimeout(500);
  assert.match(await page.getByTestId('status').textContent(), /^Waiting for you/, 'the speech was not sent');
  assert.equal(await box.inputValue(), '周末补习');
  assert.equal(await page.locator('[data-testid=message]:has([data-testid=you])').count(), 0);
  // The interjection box alike; its text stays to be finished.
  await page.getByTestId('interject-text').fill('谁来付钱');
  await composingEnter('interject-text');
  await page.waitForTimeout(300);
  assert.equal(await page.getByTestId('interject-text').inputValue(), '谁来付钱', 'the interjection was not sent');
  // Enter once the composition is over sends as always.
  await page.getByTestId('interject-text').press('Enter');
  await eventually(async () => assert.equal(await page.getByTestId('interject-text').inputValue(), ''));
  await box.click();
  await page.keyboard.press('Enter');
  await eventually(async () => assert.deepEqual(await page.locator('[data-testid=message]:has([data-testid=you]) [data-testid=message-text]').allTextContents(), ['周末补习']), { timeout: 30000 });
  assert.deepEqual(errors, []);
  await page.close();
});
