// Batches in the page, checked against `agora batch` for the same seeds (the CSV byte for byte,
// the summary line for line), Cancel keeping the finished runs, a batch kept with the past runs,
// a batch's run opened as a replay; and every panel's content fitting its box at 1280 px.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, after } from 'node:test';
import { appSession, cutOff, eventually, nativeEvents, openApp, openOnServer, root, runPreset, waitForStatus } from './helpers.mjs';
import { startLlmServer } from './llm-server.mjs';

const session = appSession();
let llm;
before(async () => { llm = await startLlmServer(); });
after(async () => { await llm.close(); });

/** `agora batch` for a preset: the CSV it writes and the summary it prints. */
function nativeBatch(preset, seeds) {
  const out = join(tmpdir(), `agora-e2e-batch-${process.pid}-${preset}.csv`);
  rmSync(out, { force: true }); // agora batch keeps an existing file's rows only with --resume
  const summary = execFileSync(join(root, 'target', 'release', 'agora'), ['batch', `preset:${preset}`, '--seeds', seeds, '--out', out], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return { csv: readFileSync(out, 'utf8'), summary: summary.trim() };
}

async function startBatch(page, preset, seeds) {
  await page.getByTestId(`open-${preset}`).click();
  await page.getByTestId('tab-batch').click();
  await page.getByTestId('batch-seeds').fill(seeds);
  await page.getByTestId('batch-run').click();
}

async function downloadCsv(page) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('batch-csv').click()]);
  return readFileSync(await file.path(), 'utf8');
}

const done = async (page) => Number(await page.getByTestId('batch-progress').getAttribute('data-done'));

test('a 20-seed batch shows the statistics agora batch prints for the same seeds, and its runs replay', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url, { width: 1280, height: 900 });
  await startBatch(page, 'rail-debate', '1..20');
  await eventually(async () => assert.equal(await done(page), 20), { timeout: 60000 });
  await eventually(async () => assert.equal(await page.getByTestId('batch-run').isEnabled(), true));
  const native = nativeBatch('rail-debate', '1..20');
  // Drawn by the report module once it is fetched: the terminal's summary in full, one click
  // away, and before it the same figures in sentences.
  const figures = page.getByTestId('batch-figures');
  await eventually(async () => assert.equal(await figures.textContent(), native.summary));
  const said = await page.locator('[data-testid=batch-summary] li').allTextContents();
  assert.equal(said[0], 'All 20 runs reached the turn limit.');
  const share = native.summary.split('\n').find((l) => l.trim().startsWith('Donald Trump')).trim().split(/\s+/);
  // "Donald Trump  0.460 ± 0.066 [...] (0.300 to 0.600)" in the terminal is said in percent.
  const pct = (x) => String(Math.round(Number(x.replace(/[()]/g, '')) * 100));
  const [mean, lo, hi] = [share[2], share[7], share[9]].map(pct);
  assert.ok(said.includes(`Donald Trump held the floor in ${mean} % of turns on average, ${lo} to ${hi} % across runs.`), said.join('\n'));
  for (const s of said) assert.doesNotMatch(s, /±|turn_limit/);
  // Every chart names what its rows are and what its bars measure, and marks its scale.
  for (const svg of await page.locator('[data-testid=batch-chart] svg').all()) {
    assert.ok((await svg.locator('[data-axis=rows]').textContent()).length > 0);
    assert.ok((await svg.locator('[data-axis=measure]').textContent()).length > 0);
    assert.ok(await svg.locator('.tick').count() >= 2);
  }
  assert.equal(await page.locator('[data-testid=batch-chart] svg [data-axis=measure]').first().textContent(), 'share of the turns');
  assert.equal(await downloadCsv(page), native.csv, 'the same rows, figure by figure');
  assert.equal(await page.getByTestId('batch-row').count(), 20);
  assert.equal(await page.getByTestId('batch-chart').count(), 3);
  const floor = await page.locator('[data-testid=batch-chart] svg title').first().textContent();
  for (const agent of ['Donald Trump', 'Kanye West', 'Elizabeth Warren']) assert.match(floor, new RegExp(`${agent}: \\d+%`));
  // Each agent's bar has its own row, as long as its mean share (Kanye West's is the smallest here,
  // the demo's bids giving a candidate passed over the floor in the end).
  const [bars, height] = await page.locator('[data-testid=batch-chart] svg').first().evaluate((svg) => [
    [...svg.querySelectorAll('rect')].map((r) => r.getBoundingClientRect()),
    svg.getBoundingClientRect().height,
  ]);
  assert.equal(bars.length, 3);
  for (const b of bars) assert.ok(b.height < height / 3, `a bar ${b.height} px high in a chart of ${height}`);
  assert.ok(bars[1].width < bars[0].width && bars[1].width < bars[2].width, JSON.stringify(bars.map((b) => b.width)));
  const shares = ['Donald Trump', 'Kanye West', 'Elizabeth Warren'].map((a) => Number(floor.match(new RegExp(`${a}: (\\d+)%`))[1]));
  for (const i of [0, 2]) {
    const ratio = bars[1].width / bars[i].width;
    assert.ok(Math.abs(ratio - shares[1] / shares[i]) < 0.1, `bars ${JSON.stringify(bars.map((b) => b.width))} against shares ${shares}`);
  }
  // A run of the batch opens as a replay of that seed, and plays as `agora run` plays it.
  await page.locator('[data-testid=batch-row][data-seed="4"] [data-testid=batch-open]').click();
  await eventually(async () => assert.equal(await page.getByTestId('field-seed').inputValue(), '4'));
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished');
  const expected = nativeEvents('rail-debate', ['--seed', '4']).filter((e) => e.type === 'message').map((e) => e.text);
  const shown = await page.getByTestId('message-text').allTextContents();
  assert.deepEqual(shown.map((t) => t.trim()), expected.map((t) => t.trim()));
  assert.deepEqual(errors, []);
});

test('Cancel keeps the finished runs, and the batch is kept with the past runs', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await startBatch(page, 'daily-show-director', '1..3000');
  await eventually(async () => assert.ok(await done(page) >= 5), { timeout: 60000 });
  await page.getByTestId('batch-cancel').click();
  await eventually(async () => assert.equal(await page.getByTestId('batch-run').isEnabled(), true));
  await eventually(async () => assert.match(await page.getByTestId('batch-note').textContent(), /^Cancelled/));
  const n = await done(page);
  assert.ok(n >= 5 && n < 3000, `${n} runs finished`);
  // The finished runs are the first n of the batch, as `agora batch` writes them.
  const csv = await downloadCsv(page);
  const native = nativeBatch('daily-show-director', '1..3000').csv.split('\n');
  assert.equal(csv, `${native.slice(0, n + 1).join('\n')}\n`);
  await eventually(async () => assert.equal(await page.getByTestId('batch-row').count(), n));
  // Kept with the past runs; opened again after a reload, it shows the same rows.
  await page.reload();
  await page.getByTestId('preset-list').waitFor();
  const past = page.getByTestId('past-run').filter({ hasText: `a batch of ${n} runs` });
  await past.getByTestId('past-open').click();
  await eventually(async () => assert.equal(await page.getByTestId('batch-row').count(), n));
  assert.equal(await downloadCsv(page), csv);
  assert.deepEqual(errors, []);
});

test('a batch interrupted by a reload resumes from the first seed not done and ends with an uninterrupted batch\'s rows', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await startBatch(page, 'daily-show-director', '1..150');
  await eventually(async () => assert.ok(await done(page) >= 5), { timeout: 60000 });
  await page.reload();
  await page.getByTestId('preset-list').waitFor();
  // Every run that finished before the reload is back, with the offer to resume.
  const offer = page.getByTestId('batch-interrupted');
  await offer.waitFor();
  const kept = await done(page);
  assert.ok(kept >= 5 && kept < 150, `${kept} runs kept`);
  assert.match(await offer.textContent(), new RegExp(`stopped after ${kept} of 150 runs`));
  await eventually(async () => assert.equal(await page.getByTestId('batch-row').count(), kept));
  const native = nativeBatch('daily-show-director', '1..150');
  assert.equal(await downloadCsv(page), `${native.csv.split('\n').slice(0, kept + 1).join('\n')}\n`);
  // Another scenario in the editor does not change what the batch plays.
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('batch-resume').click();
  await eventually(async () => assert.equal(await done(page), 150), { timeout: 120000 });
  await eventually(async () => assert.equal(await page.getByTestId('batch-run').isEnabled(), true));
  assert.equal(await page.getByTestId('batch-interrupted').count(), 0);
  assert.equal(await downloadCsv(page), native.csv, 'the rows of an uninterrupted batch, byte for byte');
  await eventually(async () => assert.equal(await page.getByTestId('batch-figures').textContent(), native.summary));
  // Kept once with the past runs, and not offered again.
  await page.reload();
  await page.getByTestId('preset-list').waitFor();
  await eventually(async () => assert.equal(await page.getByTestId('past-run').filter({ hasText: 'a batch of 150 runs' }).count(), 1));
  assert.equal(await page.getByTestId('batch-interrupted').count(), 0);
  assert.deepEqual(errors, []);
});

test('an interrupted batch on a provider resumes with the key given again, byte for byte, and its runs replay from kept logs', async () => {
  const key = 'sk-batch-resume';
  const play = async (reloadAt) => {
    const { page, errors } = await openApp(session.browser, session.server.url);
    await openOnServer(page, llm.url, 'town-hall-selector', { key, turns: 2 });
    await page.getByTestId('tab-batch').click();
    await page.getByTestId('batch-seeds').fill('1..8');
    await page.getByTestId('batch-run').click();
    if (reloadAt) {
      await eventually(async () => assert.ok(await done(page) >= reloadAt), { timeout: 60000 });
      await page.reload();
      await page.getByTestId('batch-interrupted').waitFor();
      const kept = await done(page);
      assert.ok(kept >= reloadAt && kept < 8, `${kept} runs kept`);
      // The key lives in memory only: resuming without it says so, and nothing is lost.
      await page.getByTestId('batch-resume').click();
      await eventually(async () => assert.match(await page.locator('[data-testid=batch] [role=alert]').textContent(), /key/i));
      assert.equal(await done(page), kept);
      await page.getByTestId('api-key').fill(key);
      await page.getByTestId('api-key').dispatchEvent('change');
      await page.getByTestId('batch-resume').click();
    }
    await eventually(async () => assert.equal(await done(page), 8), { timeout: 60000 });
    await eventually(async () => assert.equal(await page.getByTestId('batch-run').isEnabled(), true));
    return { page, errors, csv: await downloadCsv(page) };
  };
  llm.latency = 150;
  try {
    const whole = await play(0);
    const resumed = await play(2);
    assert.equal(resumed.csv, whole.csv, 'the rows of an uninterrupted batch, byte for byte');
    // A run finished before the reload replays from its kept log: no call goes out.
    const posts = () => llm.requests.filter((r) => r.method === 'POST').length;
    const sent = posts();
    await resumed.page.locator('[data-testid=batch-row][data-seed="1"] [data-testid=batch-open]').click();
    await resumed.page.getByTestId('speed').selectOption('0');
    await resumed.page.getByTestId('run').click();
    await waitForStatus(resumed.page, 'Finished');
    assert.equal(posts(), sent);
    assert.deepEqual([...whole.errors, ...resumed.errors], []);
  } finally {
    llm.latency = 0;
  }
});

test('a batch on a provider shows its estimate first, shares one spending cap, and replays runs from their kept logs', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await openOnServer(page, llm.url, 'town-hall-selector', { key: 'sk-batch-test', turns: 2 });
  await page.getByTestId('field-model.spending_cap.tokens').fill('2500');
  await page.getByTestId('tab-batch').click();
  await page.getByTestId('batch-seeds').fill('1..6');
  await eventually(async () => assert.match(await page.getByTestId('batch-estimate').textContent(), /^6 runs: about \d+ calls and \d+ tokens/));
  const posts = () => llm.requests.filter((r) => r.method === 'POST');
  const before = posts().length;
  await page.getByTestId('batch-run').click();
  await eventually(async () => assert.match(await page.getByTestId('batch-note').textContent(), /^Stopped at the spending cap/), { timeout: 60000 });
  const n = await done(page);
  // About 700 tokens a run: whole runs until the one that meets what the others left of the cap.
  assert.ok(n >= 2 && n < 6, `${n} runs before the cap`);
  const csv = (await downloadCsv(page)).trim().split('\n');
  assert.equal(csv.length, n + 1);
  // Every call the server answered is counted in a row, and the batch as a whole kept to its cap
  // (the last run stops at the cap's step, as a single run does).
  const header = csv[0].split(',');
  const col = (row, name) => Number(row.split(',')[header.indexOf(name)]);
  const calls = csv.slice(1).reduce((sum, row) => sum + col(row, 'calls'), 0);
  assert.equal(posts().length - before, calls);
  assert.equal(csv[n].split(',')[header.indexOf('finish')], 'spending_cap');
  assert.ok(csv.slice(1, n).every((row) => row.split(',')[header.indexOf('finish')] === 'turn_limit'));
  assert.ok(posts().slice(before).every((r) => r.body?.stream !== true), 'whole replies: nothing streams');
  // A provider's run replays from the log kept with the batch: no call goes out again.
  const sent = posts().length;
  await page.locator('[data-testid=batch-row][data-seed="1"] [data-testid=batch-open]').click();
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished');
  assert.equal(posts().length, sent);
  assert.ok(await page.getByTestId('message').count() > 0);
  assert.deepEqual(errors, []);
});

test('a seed list that cannot be read is explained and nothing starts', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await startBatch(page, 'rail-debate', '20..1');
  await eventually(async () => assert.match(await page.getByRole('alert').first().textContent(), /backwards/));
  assert.equal(await done(page), 0);
  assert.equal(await page.getByTestId('batch-csv').isEnabled(), false);
  assert.deepEqual(errors, []);
});

for (const preset of ['rail-debate', 'daily-show-director', 'ai-morality-handoff', 'town-hall-selector', 'rail-debate-random', 'trading-game']) {
  test(`every panel of ${preset} fits its box at 1280 px`, async () => {
    const { page, errors } = await openApp(session.browser, session.server.url, { width: 1280, height: 720 });
    await runPreset(page, preset);
    const cut = await eventually(async () => {
      const found = await cutOff(page);
      assert.ok(await page.getByTestId('message').count() > 0);
      return found;
    });
    assert.deepEqual(cut, []);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 1280);
    assert.deepEqual(errors, []);
  });
}

test('a judged batch in the page writes the judge columns agora batch --judge writes, and says the judge\'s scores', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url, { width: 1280, height: 900 });
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('tab-batch').click();
  await page.getByTestId('batch-seeds').fill('1..4');
  await page.getByTestId('batch-judge').check();
  await page.getByTestId('batch-run').click();
  await eventually(async () => assert.equal(await done(page), 4), { timeout: 60000 });
  await eventually(async () => assert.equal(await page.getByTestId('batch-run').isEnabled(), true));
  const csv = await downloadCsv(page);
  const out = join(tmpdir(), `agora-e2e-batch-${process.pid}-judged.csv`);
  rmSync(out, { force: true });
  const summary = execFileSync(join(root, 'target', 'release', 'agora'), ['batch', 'preset:rail-debate', '--seeds', '1..4', '--judge', '--out', out], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  assert.equal(csv, readFileSync(out, 'utf8'), 'the page writes the CSV agora batch --judge writes');
  assert.ok(csv.split('\n')[0].includes(',judge:responsiveness:Donald Trump,'));
  await eventually(async () => assert.equal(await page.getByTestId('batch-figures').textContent(), summary.trim()));
  const said = await page.locator('[data-testid=batch-summary] li').allTextContents();
  assert.ok(said.some((s) => /^The judge scored the conversation's balance /.test(s)), said.join('\n'));
  assert.deepEqual(errors, []);
});
