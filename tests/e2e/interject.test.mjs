// Interjecting: a message from the audience or the moderator, recorded as injected and heard by
// every call after it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { appSession, ofType, openApp, waitForCount, waitForStatus, waitForText } from './helpers.mjs';

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
