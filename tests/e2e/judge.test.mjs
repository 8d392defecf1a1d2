// Judge this run: the demo judge on the demo model and a judge on the local LLM server score a
// finished run; the scorecard shows in the page, the projector and the Markdown; its turn links
// find the speech; and the verdict stays with the run through a reload and a run link.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLlmServer } from './llm-server.mjs';
import { appSession, comparisonColumns, eventually, openApp, openOnServer, root, runPreset, screenshot, waitForStatus, waitForText, setComparison } from './helpers.mjs';

const session = appSession();

const scores = (page) => page.getByTestId('scorecard').locator('tbody tr').evaluateAll((rows) =>
  rows.map((r) => [r.dataset.agent, ...[...r.querySelectorAll('td[data-dimension]')].map((td) => td.textContent)]));

test('the demo judge scores a finished debate: the scorecard in the page, the projector and the Markdown, and it stays through a reload and a link', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url, { width: 1280, height: 720 });
  await runPreset(page, 'rail-debate');
  await waitForText(page.getByTestId('judge-note'), 'Judged by the demo judge (text statistics, no model)');
  // What was said, counted before any judge: a row per agent.
  await page.getByTestId('textstats').locator('summary').click();
  await eventually(async () => assert.equal(await page.getByTestId('textstats').locator('tbody tr').count(), 3));
  await page.getByTestId('judge-run').click();
  await waitForText(page.getByTestId('judge-by'), 'Verdict by the demo judge (text statistics, no model)');
  const rows = await scores(page);
  assert.deepEqual(rows.map((r) => r[0]), ['Donald Trump', 'Kanye West', 'Elizabeth Warren']);
  for (const r of rows) {
    assert.equal(r.length, 6, 'five dimensions per agent');
    for (const v of r.slice(1)) assert.match(v, /^[1-5]$/);
  }
  assert.equal(await page.getByTestId('conversation-scores').locator('td[data-dimension]').count(), 3);
  await waitForText(page.getByTestId('judge-run'), 'Judge again');

  // A reason's turn link brings that speech into view and marks it.
  const link = page.getByTestId('reasons').first().locator('[data-goto-turn]').first();
  const turn = await link.getAttribute('data-goto-turn');
  await link.click();
  const marked = page.locator(`[data-testid=message].goto[data-turn="${turn}"][data-speaker="Donald Trump"]`);
  await marked.waitFor();
  assert.ok(await marked.evaluate((m) => { const r = m.getBoundingClientRect(); const t = m.closest('[data-testid=transcript]').getBoundingClientRect(); return r.top >= t.top - 1 && r.bottom <= t.bottom + 1; }));

  // The Markdown transcript ends with the verdict, in the terminal's words.
  const [md] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-markdown').click()]);
  const markdown = readFileSync(await md.path(), 'utf8');
  assert.match(markdown, /\n## Verdict\n\n\*Verdict by the demo judge \(text statistics, no model\)\*\n\n- Donald Trump: responsiveness [1-5]\/5, argument [1-5]\/5/);

  // Large in the projector view.
  await page.getByTestId('projector').click();
  await page.locator('main.projector').waitFor();
  const size = await page.getByTestId('scorecard').evaluate((t) => parseFloat(getComputedStyle(t).fontSize));
  assert.ok(size >= 22, `the scorecard is ${size} px in the projector view`);
  await screenshot(page, 'judge-projector-1280x720');
  await page.getByTestId('projector').click();

  // A reload keeps the verdict with the run.
  await page.reload();
  await waitForText(page.getByTestId('judge-by'), 'Verdict by the demo judge');
  assert.deepEqual(await scores(page), rows);

  // So does a run link, in another browser.
  await page.getByTestId('share-run').click();
  const url = await page.getByTestId('share-url').inputValue();
  const other = await openApp(session.browser, url);
  await other.page.getByTestId('speed').selectOption('0');
  await other.page.getByTestId('run').click();
  await waitForStatus(other.page, 'Finished');
  await waitForText(other.page.getByTestId('judge-by'), 'Verdict by the demo judge');
  assert.deepEqual(await scores(other.page), rows);
  assert.deepEqual([...errors, ...other.errors], []);
});

test('a judge on the local LLM server scores the run, flags the agents\' own model, and says when it cannot read the verdict', async () => {
  const server = await startLlmServer();
  try {
    const { page, errors } = await openApp(session.browser, session.server.url);
    await openOnServer(page, server.url, 'rail-debate', { provider: 'custom', model: 'm', key: 'k', turns: 3 });
    // The judge's prompt is a template like the others: edited in the editor, it is what is sent.
    await page.getByTestId('templates-method').locator('summary').click();
    const prompt = page.getByTestId('field-judge.template');
    await prompt.waitFor();
    await prompt.fill(`${await prompt.inputValue()}\nBe brief. [class 7B]`);
    await page.getByTestId('run').click();
    await waitForStatus(page, 'Finished');
    await waitForText(page.getByTestId('judge-note'), 'Judged by custom m, the agents\' own model');
    await page.getByTestId('judge-run').click();
    await waitForText(page.getByTestId('judge-by'), 'Verdict by custom m');
    await page.getByTestId('same-model').waitFor();
    const rows = await scores(page);
    assert.equal(rows.length, 3);
    await waitForText(page.getByTestId('reasons').first(), 'Donald Trump answered the others');
    const judged = server.requests.filter((r) => r.body.messages?.[0]?.content?.includes?.('impartial judge'));
    assert.equal(judged.length, 1);
    assert.ok(judged[0].body.messages[0].content.endsWith('\nBe brief. [class 7B]'), 'the edited prompt was sent');
    assert.equal(judged[0].body.response_format.type, 'json_schema');

    // Three unreadable verdicts: recorded as not judged, never as zeros.
    server.fault('unreadable', 3);
    await page.getByTestId('judge-run').click();
    await waitForText(page.getByTestId('not-judged'), 'Not judged: no readable verdict in 3 replies');
    assert.equal(await page.getByTestId('scorecard').count(), 0);
    assert.deepEqual(errors, []);
  } finally {
    await server.close();
  }
});

test('on the demo model a speech\'s score shows while the run goes on, and a stopped run keeps the scores made', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url, { width: 1024, height: 768 });
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('templates-judge').locator('summary').click();
  await page.getByTestId('field-judge.live').check();
  await page.getByTestId('run').click();
  const badge = page.getByTestId('speech-score').first();
  await badge.waitFor({ timeout: 30000 });
  assert.doesNotMatch(await page.getByTestId('status').textContent(), /^Finished/, 'scored while the run goes on');
  assert.match(await badge.getAttribute('title'), /^Scored by the demo judge \(text statistics, no model\): Of its speeches so far\. Text statistics/);
  await screenshot(page, 'live-scores-1024x768');
  await page.getByTestId('stop').click();
  await waitForStatus(page, 'Finished');
  const scored = await page.getByTestId('speech-score').count();
  assert.ok(scored >= 1);
  // The scores join the log once the run has ended.
  await eventually(async () => {
    const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
    const events = JSON.parse(readFileSync(await json.path(), 'utf8')).events;
    assert.equal(events.filter((e) => e.type === 'speech_scored').length, scored);
  });
  assert.deepEqual(errors, []);
});

test('a comparison judges each column into its strip and judges the columns side by side in both orders', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url, { width: 1280, height: 900 });
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('field-max_turns').fill('4');
  await setComparison(page, 'method', 'bidding, round_robin, random');
  await page.getByTestId('compare-open').click();
  const frame = await comparisonColumns(page, 3);
  // Before any column has finished, each judging button says what it needs.
  await frame.getByTestId('compare-judge').click();
  await waitForText(frame.getByTestId('compare-note'), /^Judge each scores finished columns: play at least one to its end\.$/);
  await frame.getByTestId('compare-side-by-side').click();
  await waitForText(frame.getByTestId('compare-note'), /^Judge side by side compares finished columns/);
  await frame.getByTestId('compare-play').click();
  await eventually(async () => assert.equal(await frame.getByTestId('column-finished').count(), 3), { timeout: 30000 });

  // Each column's verdict: the demo judge's scores join the strip, one row per agent and dimension.
  await frame.getByTestId('compare-judge').click();
  await waitForText(frame.getByTestId('compare-note'), /^Asked the judge to score 3 finished columns: each column's scores join the strip's judge rows/);
  await eventually(async () => {
    const cells = await frame.locator('[data-testid=compare-strip] td[data-figure^="judge:"]').evaluateAll((tds) => tds.map((td) => td.dataset.value));
    assert.equal(cells.length, 3 * (5 * 3 + 3));
    for (const v of cells) assert.match(v, /^[1-5]?$/);
  }, { timeout: 30000 });

  // Side by side: three pairs, four dimensions each, every outcome named.
  await frame.getByTestId('compare-side-by-side').click();
  await eventually(async () => assert.equal(await frame.getByTestId('pair').count(), 3), { timeout: 30000 });
  await waitForText(frame.getByTestId('compare-note'), /^Compared 3 pairs of columns: the results are under the strip\.$/);
  const outcomes = await frame.getByTestId('pair-outcome').allTextContents();
  assert.equal(outcomes.length, 12);
  for (const o of outcomes) assert.match(o, /^(A: method: \w+|B: method: \w+|tie)$/);
  assert.match(await frame.getByTestId('side-by-side').textContent(), /Judged by the demo judge \(text statistics, no model\), each pair in both orders/);
  assert.match(await frame.getByTestId('pair').first().locator('caption').textContent(), /^A: method: bidding · B: method: round_robin \(the orders agreed on 4 of 4\)$/);
  assert.deepEqual(errors, []);
});

test('a speech made in a seat is judged like any other: the class gets its candidate\'s scores and its words quoted', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('field-opening.specify_topic').uncheck();
  await page.getByTestId('field-opening.describe_characters').uncheck();
  await page.getByTestId('field-max_turns').fill('3');
  await page.getByTestId('seat-2').check();
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  let spoke = 0;
  for (;;) {
    const next = await Promise.race([
      page.locator('[data-testid=seat] h2').waitFor().then(() => 'seat'),
      waitForStatus(page, 'Finished').then(() => 'done'),
    ]);
    if (next === 'done') break;
    const heading = await page.locator('[data-testid=seat] h2').textContent();
    if (heading.endsWith('(bid)')) {
      await page.getByTestId('seat-choice-9').click();
    } else {
      spoke += 1;
      await page.getByTestId('seat-text').fill(`The class says fund it from freight fees, point ${spoke}.`);
      await page.getByTestId('seat-send').click();
    }
    await page.waitForFunction((h) => document.querySelector('[data-testid=seat] h2')?.textContent !== h, heading, { timeout: 10000 }).catch(() => {});
  }
  assert.ok(spoke >= 2, `the seat spoke ${spoke} times`);
  await page.getByTestId('judge-run').click();
  await waitForText(page.getByTestId('judge-by'), 'Verdict by the demo judge');
  const row = page.locator('[data-testid=scorecard] tr[data-agent="Elizabeth Warren"]');
  assert.equal(await row.locator('td').nth(5).textContent(), String(spoke), 'her speeches are counted');
  for (const v of await row.locator('td[data-dimension]').allTextContents()) assert.match(v, /^[1-5]$/);
  await waitForText(page.locator('[data-testid=reasons][data-agent="Elizabeth Warren"]'), 'The class says fund it from freight fees, point');
  assert.deepEqual(errors, []);
});

test('the judge and its rubric are set in the editor: a provider named, a dimension removed and one added reach the judge', async () => {
  const server = await startLlmServer();
  try {
    const { page, errors } = await openApp(session.browser, session.server.url);
    await page.getByTestId('open-rail-debate').click();
    await page.getByTestId('field-opening.specify_topic').uncheck();
    await page.getByTestId('field-opening.describe_characters').uncheck();
    await page.getByTestId('field-max_turns').fill('3');
    await page.getByTestId('templates-judge').locator('summary').click();
    await page.getByTestId('field-judge.provider').fill('custom');
    await page.getByTestId('field-judge.model').fill('judge-x');
    await page.getByTestId('field-judge.base_url').fill(server.url);
    const rows = (list) => page.locator(`[data-testid^="dimension-${list}-"]`);
    assert.equal(await rows('agent_rubric').count(), 5);
    await page.getByTestId('dimension-agent_rubric-3').getByRole('button', { name: 'Remove' }).click();
    await eventually(async () => assert.equal(await rows('agent_rubric').count(), 4));
    await page.getByTestId('add-conversation_rubric').click();
    const added = page.getByTestId('dimension-conversation_rubric-3');
    await added.waitFor();
    await added.locator('[data-key=name]').fill('humour');
    // Each box is found by the label a teacher reads beside it.
  await added.getByLabel('Most score').fill('10');
  await added.getByLabel('What the judge reads').fill('How funny the debate was.');
    // The provider typed is kept through the rows drawn again.
    assert.equal(await page.getByTestId('field-judge.provider').inputValue(), 'custom');
    await page.getByTestId('speed').selectOption('0');
    await page.getByTestId('run').click();
    await waitForStatus(page, 'Finished');
    await waitForText(page.getByTestId('judge-note'), 'Judged by custom judge-x.');
    await page.getByTestId('judge-run').click();
    await waitForText(page.getByTestId('judge-by'), 'Verdict by custom judge-x');
    const prompt = server.requests.find((r) => r.body.messages?.[0]?.content?.includes?.('impartial judge')).body.messages[0].content;
    assert.match(prompt, /\n- humour \(1 to 10\): How funny the debate was\.\n/);
    assert.doesNotMatch(prompt, /- civility/);
    const head = await page.getByTestId('scorecard').locator('thead th').allTextContents();
    assert.deepEqual(head.slice(1, 5).map((h) => h.split(' ')[0]), ['responsiveness', 'argument', 'evidence', 'goal']);
    assert.equal(await page.getByTestId('conversation-scores').locator('td[data-dimension]').count(), 4);
    assert.deepEqual(errors, []);
  } finally {
    await server.close();
  }
});

test('a tournament file opens as its leaderboard: the CSV and the JSON agora tournament writes show the ratings it printed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agora-e2e-tournament-'));
  const csv = join(dir, 't.csv');
  execFileSync(join(root, 'target', 'release', 'agora'), ['tournament', 'preset:rail-debate', '--methods', 'bidding,round_robin,random', '--seeds', '1..4', '--turns', '4', '--out', csv], { stdio: 'ignore' });
  const board = JSON.parse(readFileSync(join(dir, 't.json'), 'utf8'));
  const { page, errors } = await openApp(session.browser, session.server.url, { width: 1024, height: 768 });
  const shown = () => page.getByTestId('leaderboard-table').locator('tbody tr').evaluateAll((rows) =>
    rows.map((r) => [r.dataset.method, r.cells[2].textContent, r.cells[3].textContent.trim()]));
  const expected = board.standings.map((s) => [s.method, String(Math.round(s.rating)), `${Math.round(s.low)} to ${Math.round(s.high)}`]);
  for (const file of [csv, join(dir, 't.json')]) {
    await page.getByTestId('import').setInputFiles(file);
    await waitForText(page.getByTestId('leaderboard-by'), 'Judged by the demo judge (text statistics, no model), seeds 1..4.');
    await eventually(async () => assert.deepEqual(await shown(), expected));
    if (file === csv) {
      // The CSV holds every judgement: each dimension's record, which the JSON does not.
      assert.ok(await page.getByTestId('leaderboard-dimensions').locator('table[data-dimension=overall]').count() === 1);
      await screenshot(page, 'leaderboard-1024x768');
    } else {
      assert.equal(await page.getByTestId('leaderboard-dimensions').count(), 0);
    }
    await page.getByTestId('leaderboard-close').click();
    await page.getByTestId('leaderboard').waitFor({ state: 'detached' });
  }
  // A broken file gets one message, and the page goes on.
  const broken = join(dir, 'broken.csv');
  writeFileSync(broken, 'tournament,seeds,judge\n1,2\n');
  await page.getByTestId('import').setInputFiles(broken);
  await waitForText(page.getByTestId('files-message'), 'Could not open broken.csv: the header is not that of a tournament');
  assert.deepEqual(errors, []);
});

test('live scoring scores each speech as it lands, beside it in the transcript, and the scores join the log after the run', async () => {
  const server = await startLlmServer();
  try {
    const { page, errors } = await openApp(session.browser, session.server.url, { width: 1280, height: 720 });
    await openOnServer(page, server.url, 'rail-debate', { provider: 'custom', model: 'm', key: 'k', turns: 3 });
    await page.getByTestId('templates-judge').locator('summary').click();
    await page.getByTestId('field-judge.live').check();
    await page.getByTestId('run').click();
    const scored = page.getByTestId('message').filter({ has: page.getByTestId('speech-score') });
    await scored.first().waitFor({ timeout: 30000 });
    await waitForStatus(page, 'Finished');
    const speeches = page.locator('[data-testid=message]:not([data-kind=injected])');
    await eventually(async () => assert.equal(await scored.count(), await speeches.count()));
    const badge = scored.first().getByTestId('speech-score');
    assert.match(await badge.textContent(), /^judge [1-5]\.\d$/);
    assert.match(await badge.getAttribute('title'), /^Scored by custom m: .+ made a point/);
    // In the log, after the run's end: one judge's call and one score a speech.
    const exported = async () => {
      const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
      return JSON.parse(readFileSync(await json.path(), 'utf8')).events;
    };
    let events = [];
    await eventually(async () => {
      events = await exported();
      assert.ok(events.some((e) => e.type === 'speech_scored'), 'the scores have joined the log');
    });
    const end = events.findIndex((e) => e.type === 'run_finished');
    const after = events.slice(end + 1);
    const scores = after.filter((e) => e.type === 'speech_scored');
    assert.equal(scores.length, await speeches.count());
    assert.equal(after.filter((e) => e.type === 'model_call' && e.purpose === 'judge').length, scores.length);
    assert.equal(events.slice(0, end).filter((e) => e.type === 'speech_scored' || e.purpose === 'judge').length, 0, 'the run\'s own events stay the engine\'s');
    const asked = server.requests.filter((r) => r.body.messages?.[0]?.content?.includes?.('Score one speech against the rubric'));
    assert.equal(asked.length, scores.length, 'each speech scored once');
    // A reload keeps them beside their speeches.
    await page.reload();
    await waitForStatus(page, 'Finished');
    await eventually(async () => assert.equal(await scored.count(), scores.length));
    assert.deepEqual(errors, []);
  } finally {
    await server.close();
  }
});
