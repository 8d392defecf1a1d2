// Run controls and the editor, as a person uses them: step, pause mid-run, stop, reset; invalid
// input shown next to its field and blocking Run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appSession, eventually, nativeEvents, openApp, root, runPreset, screenshot, waitForCount, waitForStatus, waitForText } from './helpers.mjs';

const session = appSession();

const messages = (page) => page.getByTestId('message').count();

test('step, pause mid-run, resume, stop and reset', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('speed').selectOption('0');

  await page.getByTestId('step').click(); // the opening
  await waitForCount(page, 'message', 1);
  await page.getByTestId('step').click(); // turn 1
  await waitForCount(page, 'message', 2);
  await waitForCount(page, 'bid-turn', 1);
  await waitForText(page.getByTestId('status'), /^Paused · turn 1/);

  // Slow the demo model so a pause lands mid-run.
  await page.getByTestId('speed').selectOption('400');
  await page.getByTestId('run').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=message]').length >= 3);
  await page.getByTestId('pause').click();
  await waitForStatus(page, 'Paused');
  await page.waitForFunction(() => !document.querySelector('[data-testid=step]').disabled);
  const paused = await messages(page);
  await page.waitForTimeout(1200);
  assert.equal(await messages(page), paused, 'nothing more is said while paused');

  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('step').click();
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=message]').length === n + 1, paused);
  await page.getByTestId('stop').click();
  await waitForText(page.getByTestId('status'), /^Finished.*stopped/);
  assert.equal(await messages(page), paused + 1, 'stopping keeps everything recorded');

  await page.getByTestId('reset').click();
  await waitForStatus(page, 'Ready');
  await waitForCount(page, 'message', 0);
  assert.deepEqual(errors, []);
});

test('invalid input is shown next to its field and blocks Run until fixed', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await page.getByTestId('open-daily-show-director').click();

  await page.getByTestId('field-agents[1].name').fill('');
  await waitForText(page.getByTestId('error-agents[1].name'), /a name is required/);
  await eventually(async () => assert.ok(await page.getByTestId('run').isDisabled()));
  await page.getByTestId('blocked').waitFor();

  await page.getByTestId('field-agents[1].name').fill('Samantha Bee');
  await page.getByTestId('field-word_limit').fill('fifty');
  await waitForText(page.getByTestId('error-word_limit'), /"fifty" is not a valid number/);
  await waitForCount(page, 'error-agents[1].name', 0);
  assert.ok(await page.getByTestId('run').isDisabled(), 'the word limit alone still blocks Run');
  await page.getByTestId('field-word_limit').fill('40');

  await page.getByTestId('field-method.stop_probability').fill('1.5');
  await waitForText(page.getByTestId('error-method.stop_probability'), /between 0 and 1/);
  await waitForCount(page, 'error-word_limit', 0);
  assert.ok(await page.getByTestId('run').isDisabled(), 'the probability alone still blocks Run');
  await page.getByTestId('field-method.stop_probability').fill('1');
  await eventually(async () => assert.ok(await page.getByTestId('run').isEnabled()));
  await waitForCount(page, 'blocked', 0);
  await screenshot(page, 'editor');

  // The edited scenario is the one that runs: with p = 1 the director stops at once.
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForText(page.getByTestId('status'), /^Finished.*the director ended the show on its stop draw, set to stop at every turn$/);
  await waitForCount(page, 'director-turn', 1);
  assert.deepEqual(errors, []);
});

test('agents can be added, reordered and removed', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await page.getByTestId('open-ai-morality-handoff').click();
  const agents = () => page.locator('[data-testid^=agent-]').count();
  const name = (i) => page.getByTestId(`field-agents[${i}].name`).inputValue({ timeout: 1000 });
  await page.getByTestId('add-agent').click();
  await eventually(async () => assert.equal(await agents(), 4));
  assert.equal(await name(3), 'Agent 4');
  await page.getByTestId('agent-3').getByLabel('Move up').click();
  await eventually(async () => assert.deepEqual([await name(2), await name(3)], ['Agent 4', 'Neutral']));
  await page.getByTestId('remove-agent-2').click();
  await eventually(async () => assert.equal(await agents(), 3));
  assert.deepEqual([await name(0), await name(1), await name(2)], ['Proponent', 'Opponent', 'Neutral']);
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished');
  const speakers = new Set(await page.getByTestId('message').evaluateAll((rows) => rows.map((r) => r.dataset.speaker)));
  assert.deepEqual([...speakers].sort(), ['Neutral', 'Opponent', 'Proponent']);
  assert.deepEqual(errors, []);
});

test('the call inspector shows exactly what was sent and received', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished');
  await page.getByTestId('inspector').locator('summary').first().click();
  const bid = page.locator('[data-testid=call][data-purpose=bid]').nth(3);
  await bid.locator('summary').click();
  await bid.locator('.sent pre').first().waitFor();
  const sent = await bid.locator('.sent pre').allTextContents();
  assert.equal(sent.length, 1, 'a bid is one system message, as in the seed');
  assert.match(sent[0], /rate how contradictory the following message is to your ideas/);
  // The history opens with the moderator putting the specified topic (seed 000's opening).
  const opening = await page.getByTestId('message').first().getByTestId('message-text').textContent();
  assert.ok(sent[0].includes(`Here is the conversation so far.\nDebate Moderator: ${opening}\n`), sent[0]);
  assert.match(await bid.getByTestId('call-raw').textContent(), /^<\d+>$/);
  assert.match(await bid.getByTestId('call-parse').textContent(), /^read: \d+$/);
  assert.deepEqual(errors, []);
});

test('phone width keeps every panel reachable', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url, { width: 390, height: 844 });
  await page.getByTestId('open-trading-game').click();
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 400, `no sideways scrolling at phone width (page is ${width}px wide)`);
  // Each panel is there, and scrolled to it lies within the screen's width.
  for (const id of ['editor', 'transcript', 'negotiation-panel', 'stats', 'inspector']) {
    const panel = page.getByTestId(id);
    await panel.scrollIntoViewIfNeeded();
    const box = await panel.boundingBox();
    assert.ok(box && box.width > 100 && box.height > 20, `${id} is shown (${JSON.stringify(box)})`);
    assert.ok(box.x >= 0 && box.x + box.width <= 390 + 0.5, `${id} fits the phone's width (${JSON.stringify(box)})`);
  }
  await screenshot(page, 'phone');
  assert.deepEqual(errors, []);
});

test('a finished run saves as JSON (the event log) and as a Markdown transcript', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  assert.ok(await page.getByTestId('export-json').isDisabled(), 'nothing to save before a run');
  await runPreset(page, 'rail-debate');
  const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
  assert.equal(json.suggestedFilename(), 'presidential-debate-transcontinental-high-speed-rail.json');
  const file = JSON.parse(readFileSync(await json.path(), 'utf8'));
  assert.equal(file.format, 'agora-run');
  const native = nativeEvents('rail-debate');
  const strip = (events) => events.map((e) => (e.type === 'model_call' ? { ...e, latency_ms: 0 } : e));
  assert.deepEqual(strip(file.events), strip(native), 'the saved log is the run, as the engine recorded it');
  const [md] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-markdown').click()]);
  const text = readFileSync(await md.path(), 'utf8');
  assert.match(text, /^# Presidential debate: transcontinental high-speed rail/);
  assert.equal((text.match(/^> Selected: /gm) ?? []).length, 10);
  // Written by the tools module, fetched for it: the transcript `agora run --markdown` writes.
  const out = join(tmpdir(), `agora-e2e-md-${process.pid}.md`);
  execFileSync(join(root, 'target', 'release', 'agora'), ['run', 'preset:rail-debate', '--markdown', out], { stdio: 'ignore' });
  assert.equal(text, readFileSync(out, 'utf8'));
  assert.deepEqual(errors, []);
});

test('a saved run opens as a replay that steps and plays with the same panels', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await runPreset(page, 'daily-show-director');
  const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
  const saved = await json.path();
  await page.getByTestId('open-rail-debate').click(); // something else on screen first

  await page.getByTestId('import').setInputFiles(saved);
  await waitForStatus(page, 'Paused · turn 0 · replay');
  assert.equal(await messages(page), 0);
  assert.equal(await page.getByTestId('field-title').inputValue(), 'The Daily Show: competitive sitting');
  await page.getByTestId('step').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=message]').length === 1);
  await page.getByTestId('step').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=director-turn]').length === 1);
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished');
  const native = nativeEvents('daily-show-director');
  const shown = await page.getByTestId('message').evaluateAll((rows) => rows.map((r) => r.querySelector('[data-testid=message-text]').textContent));
  assert.deepEqual(shown, native.filter((e) => e.type === 'message').map((e) => e.text));
  assert.equal(await page.getByTestId('director-turn').count(), native.filter((e) => e.type === 'stop_draw').length);
  assert.match(await page.getByTestId('status').textContent(), /the director ended the show on its stop draw, 1 chance in 5 each turn · replay$/);
  // Run after the replay plays the same scenario live, with the demo model.
  await page.getByTestId('run').click();
  await page.waitForFunction(() => {
    const status = document.querySelector('[data-testid=status]').textContent;
    return status.startsWith('Finished') && !status.endsWith('replay');
  });
  const live = await page.getByTestId('message').evaluateAll((rows) => rows.map((r) => r.querySelector('[data-testid=message-text]').textContent));
  assert.deepEqual(live, shown, 'the same scenario and seed give the same run');
  assert.deepEqual(errors, []);
});

test('a broken run file gets one clear message and changes nothing', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await runPreset(page, 'rail-debate');
  const before = await messages(page);
  for (const [name, body, expected] of [
    ['bad.json', '{"format": "something-else", "version": 1}', /Could not open bad\.json: not an Agora run \(format "something-else"\)/],
    ['cut.json', '{"format": "agora-run", "version": 1, "scenario": {', /Could not open cut\.json: not a JSON file/],
    ['future.json', '{"format": "agora-run", "version": 7}', /version 7 is not supported/],
  ]) {
    await page.getByTestId('import').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(body) });
    await waitForText(page.getByTestId('files-message'), expected);
    assert.equal(await messages(page), before, 'the run on screen is kept');
  }
  assert.deepEqual(errors, []);
});

test('the scenario being edited survives a reload, and unreadable saved data is kept aside', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await page.getByTestId('open-daily-show-director').click();
  await page.getByTestId('field-title').fill('My own talk show');
  await page.getByTestId('field-agents[1].name').fill(''); // an unfinished draft is saved too
  await page.reload();
  await page.getByTestId('preset-list').waitFor();
  assert.equal(await page.getByTestId('field-title').inputValue(), 'My own talk show');
  assert.equal(await page.getByTestId('field-agents[1].name').inputValue(), '');
  await page.getByTestId('error-agents[1].name').waitFor();
  assert.equal(await page.getByTestId('storage-notice').count(), 0);

  await page.evaluate(() => localStorage.setItem('agora.scenario', '{"version": 99, "title": "from the future"}'));
  await page.reload();
  await page.getByTestId('storage-notice').waitFor();
  assert.match(await page.getByTestId('storage-notice').textContent(), /could not be read \(version 99 is not supported.*kept aside/);
  assert.equal(await page.evaluate(() => localStorage.getItem('agora.scenario.unreadable')), '{"version": 99, "title": "from the future"}');
  assert.equal(await page.getByTestId('field-title').inputValue(), 'Presidential debate: transcontinental high-speed rail');
  assert.deepEqual(errors, []);
});

test('a stage whose code cannot be fetched says so on the start screen, and Try again fetches it', async () => {
  const context = await session.browser.newContext({ viewport: { width: 1280, height: 720 } });
  let blocked = true;
  let asked = 0;
  await context.route('**/agora-*.pack-stage.wasm', (r) => {
    asked += 1;
    return blocked ? r.abort('internetdisconnected') : r.continue();
  });
  const page = await context.newPage();
  await page.goto(session.server.url);
  await waitForText(page.getByTestId('workspace-failed'), /could not be fetched/);
  // The gallery stays usable; its cards say nothing false while the stage cannot come.
  assert.equal(await page.getByTestId('start').isVisible(), true);
  const before = asked;
  blocked = false;
  await page.getByTestId('workspace-retry').click();
  await eventually(async () => assert.equal(await page.getByTestId('workspace-failed').count(), 0));
  assert.ok(asked > before, 'Try again asked for the file again');
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished after turn 10');
  assert.equal(await messages(page), 11);
  await context.close();
});

test("the demo model's module that cannot be fetched stops the run with one clear message, and Resume fetches it again", async () => {
  const context = await session.browser.newContext({ viewport: { width: 1280, height: 720 } });
  let blocked = true;
  await context.route('**/agora-*.split_demo.wasm', (r) => (blocked ? r.abort('internetdisconnected') : r.continue()));
  const page = await context.newPage();
  await page.goto(session.server.url);
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await page.locator('.notice', { hasText: /the demo model could not be fetched \(.+\): check the connection, then try again/ }).waitFor();
  await waitForText(page.getByTestId('status'), /Paused after an error · turn 0 · Resume or Step plays the failed turn again/);
  assert.equal(await messages(page), 0);
  // The network back: Resume plays the turn again and the run goes to its end.
  blocked = false;
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished after turn 10');
  assert.equal(await messages(page), 11);
  await context.close();
});

for (const lang of ['en', 'zh']) {
  test(`in ${lang}, Reset of a run with messages can be undone, and hands the focus to Run`, async () => {
    const options = lang === 'zh' ? { locale: 'zh-CN' } : {};
    const { page, errors, context } = await openApp(session.browser, session.server.url, { width: 1280, height: 720 }, 'preset-list', options);
    await page.getByTestId('open-rail-debate').click();
    await page.getByTestId('speed').selectOption('0');
    await page.getByTestId('run').click();
    // The Chinese status of a finished run starts so (src/i18n/zh.rs, StatusFinished).
    await waitForStatus(page, lang === 'zh' ? '第 ' : 'Finished');
    const texts = () => page.locator('[data-testid=message] [data-testid=message-text]').allTextContents();
    const before = await texts();
    const status = await page.getByTestId('status').textContent();
    assert.ok(before.length > 3, `${before.length} messages`);
    await page.getByTestId('reset').click();
    await waitForCount(page, 'message', 0);
    assert.ok(await page.getByTestId('run').evaluate((el) => el === document.activeElement), 'Run has the focus');
    const undo = page.getByTestId('undo-reset');
    await waitForText(undo, lang === 'zh' ? '撤销重置' : 'Undo reset');
    await screenshot(page, `controls/undo-reset-${lang}`);
    await undo.click();
    await eventually(async () => assert.deepEqual(await texts(), before));
    assert.equal(await page.getByTestId('status').textContent(), status);
    await waitForCount(page, 'undo-reset', 0);
    // Cleared again and a new run started: nothing is kept to undo.
    await page.getByTestId('reset').click();
    await waitForCount(page, 'undo-reset', 1);
    await page.getByTestId('speed').selectOption('0');
    await page.getByTestId('run').click();
    await waitForCount(page, 'undo-reset', 0);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
