// Interjecting: a message from the audience or the moderator, recorded as injected and heard by
// every call after it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { appSession, eventually, ofType, openApp, openOnServer, waitForCount, waitForStatus, waitForText } from './helpers.mjs';
import { startLlmServer } from './llm-server.mjs';

const session = appSession();

test('an interjection while paused is shown, recorded, and reaches the next calls', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('field-max_turns').fill('3');
  await page.getByTestId('speed').selectOption('0');
  assert.equal(await page.getByTestId('interject').count(), 0, 'nothing to interject into before a run');
  await page.getByTestId('step').click(); // the opening
  await waitForCount(page, 'message', 1);
  await page.getByTestId('step').click(); // turn 1
  await waitForCount(page, 'message', 2);
  await waitForStatus(page, 'Paused');

  const said = 'What about the farms the line would cut in half?';
  await page.getByTestId('interject-text').fill(said);
  await page.getByTestId('interject').click();
  await waitForCount(page, 'message', 3);
  const row = page.getByTestId('message').nth(2);
  await waitForText(row, said);
  assert.equal(await row.getAttribute('data-speaker'), 'Audience member');
  assert.equal(await row.getAttribute('data-kind'), 'injected');
  assert.equal(await page.getByTestId('interject-text').inputValue(), '', 'the box is cleared');

  // An empty one is refused with a reason.
  await page.getByTestId('interject').click();
  await waitForText(page.getByTestId('controls-message'), 'an interjection needs a speaker and some words');

  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished');
  const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
  const events = JSON.parse(readFileSync(await json.path(), 'utf8')).events;
  const at = events.findIndex((e) => e.type === 'message' && e.kind === 'injected' && e.text === said);
  assert.ok(at > 0, 'recorded as injected');
  const later = events.slice(at).filter((e) => e.type === 'model_call');
  assert.ok(later.length > 0);
  // Each later call's request carries it: whole, or in what it appends to an earlier call.
  const heard = (i) => {
    const call = events[i];
    if (Array.isArray(call.request)) return call.request.some((m) => m.content.includes(said));
    return call.request.messages.some((m) => m.append.includes(said)) || heard(call.request.base);
  };
  events.forEach((e, i) => {
    if (i > at && e.type === 'model_call') assert.ok(heard(i), `call ${i} (${e.agent}, ${e.purpose}) heard it`);
  });
  assert.ok(ofType(events, 'message').length > 3);
  assert.deepEqual(errors, []);
});

test('the floor given by the class and an interjection reach the requests the server receives', async () => {
  const llm = await startLlmServer();
  try {
    const { page, errors } = await openApp(session.browser, session.server.url);
    await openOnServer(page, llm.url, 'rail-debate', { key: 'sk-floor-test', turns: 4 });
    await page.getByTestId('step').click(); // the opening
    await waitForCount(page, 'message', 1);
    await page.getByTestId('step').click(); // turn 1
    await waitForCount(page, 'message', 2);
    await waitForStatus(page, 'Paused');

    // Give the floor to someone the method did not just choose.
    const last = await page.getByTestId('message').nth(1).getAttribute('data-speaker');
    const names = await page.getByTestId('give-floor').allTextContents();
    const pick = names.find((n) => n !== last);
    await page.getByTestId('give-floor').getByText(pick, { exact: true }).click();
    await waitForText(page.getByTestId('floor-given'), `${pick} speaks next`);
    const said = 'Could the next speaker say what it costs the farmers?';
    await page.getByTestId('interject-text').fill(said);
    await page.getByTestId('interject').click();
    await waitForCount(page, 'message', 3);

    const before = llm.requests.length;
    await page.getByTestId('step').click(); // turn 2
    await waitForCount(page, 'message', 4);
    await waitForStatus(page, 'Paused');
    const row = page.getByTestId('message').nth(3);
    assert.equal(await row.getAttribute('data-speaker'), pick);
    await waitForText(row.getByTestId('message-given'), `floor given to ${pick} by the class`);
    await waitForText(page.getByTestId('board-given').last(), `floor given to ${pick}`);
    await eventually(async () => assert.equal(await page.getByTestId('floor-given').textContent(), '', 'used once'));

    // What the server received in that turn: every call heard the interjection, and the one
    // speech went to the agent given the floor.
    const calls = llm.requests.slice(before).filter((r) => r.path.endsWith('/chat/completions'));
    assert.ok(calls.length >= 3, `${calls.length} calls`);
    for (const c of calls) assert.ok(c.raw.includes(said), 'every call of the turn carries the interjection');
    const speeches = calls.filter((c) => c.body.messages.length === 2);
    assert.equal(speeches.length, 1);
    assert.ok(speeches[0].body.messages[0].content.includes(`Your name is ${pick}.`));

    const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
    const events = JSON.parse(readFileSync(await json.path(), 'utf8')).events;
    const given = ofType(events, 'floor_given');
    assert.equal(given.length, 1);
    const chosen = events.find((e) => e.type === 'speaker_selected' && e.turn === given[0].turn);
    assert.deepEqual(given[0], { type: 'floor_given', turn: 2, agent: pick, instead_of: chosen.agent });

    // The trading game's turn order is fixed: it says so instead of offering the floor.
    await page.getByTestId('reset').click();
    await page.getByTestId('open-trading-game').click();
    await page.getByTestId('speed').selectOption('0');
    await page.getByTestId('step').click();
    await waitForText(page.getByTestId('floor'), "the trading game's turn order is fixed");
    assert.equal(await page.getByTestId('give-floor').count(), 0);
    assert.deepEqual(errors, []);
  } finally {
    await llm.close();
  }
});

test('End the show closes the director\'s show at its next turn, recorded on the stop draw', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await page.getByTestId('open-daily-show-director').click();
  await page.getByTestId('field-max_turns').fill('30');
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('step').click(); // the opening
  await page.getByTestId('step').click(); // the director's first turn
  await waitForStatus(page, 'Paused · turn 1');
  await page.getByTestId('end-show').click();
  await waitForText(page.getByTestId('floor-given'), "The show ends at the director's next turn.");
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished');
  const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
  const events = JSON.parse(readFileSync(await json.path(), 'utf8')).events;
  const draws = ofType(events, 'stop_draw');
  assert.equal(draws.length, 2, 'the first turn\'s draw and the ended one');
  assert.equal(draws[1].ended_by_class, true);
  assert.equal(draws[1].stop, true);
  assert.equal(draws[0].ended_by_class, undefined);
  assert.equal(events.at(-1).reason, 'director_stopped');
  await waitForText(page.getByTestId('director-panel'), /drew \d\.\d{3} against 0\.20, the class ended the show/);
  // A debate has no show to end.
  await page.getByTestId('reset').click();
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('step').click();
  await page.getByTestId('floor').waitFor();
  assert.equal(await page.getByTestId('end-show').count(), 0, 'only a director\'s show ends this way');
  assert.deepEqual(errors, []);
});
