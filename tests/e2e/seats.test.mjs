// A person in a seat, in the page: the run waits for the seat's answer, the form writes it the
// way the method asks a model, and the event log records it as the person's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { appSession, eventually, ofType, openApp, waitForStatus, waitForText } from './helpers.mjs';

const session = appSession();

async function eventsOf(page) {
  const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
  return JSON.parse(readFileSync(await json.path(), 'utf8')).events;
}

/**
 * Opens `preset` (the rail debate unless named) without its opening steps, seats `seat` (with a
 * time limit of `limit` seconds, when given), turns the projector view on when asked, and runs
 * `turns` turns at full speed.
 */
async function runSeated(page, seat, turns, limit = null, { preset = 'rail-debate', projector = false } = {}) {
  await page.getByTestId(`open-${preset}`).click();
  await page.getByTestId('field-opening.specify_topic').uncheck();
  await page.getByTestId('field-opening.describe_characters').uncheck();
  await page.getByTestId('field-max_turns').fill(String(turns));
  if (limit !== null) assert.equal(await page.getByTestId('field-seat_timeout_s').count(), 0, 'offered only while a seat is taken');
  await page.getByTestId(seat).check();
  if (limit !== null) await page.getByTestId('field-seat_timeout_s').fill(String(limit));
  await page.getByTestId('speed').selectOption('0');
  if (projector) {
    await page.getByTestId('projector').click();
    await page.locator('main.projector').waitFor();
  }
  await page.getByTestId('run').click();
}

/** A seated debater's answers: every bid by the button at index `bid` (9 is 10), every speech
 * `say(n)` for the n-th. */
function debater(bid, say) {
  let n = 0;
  return async (p, heading) => {
    if (heading.endsWith('(bid)')) {
      await p.getByTestId(`seat-choice-${bid}`).click();
    } else {
      n += 1;
      await p.getByTestId('seat-text').fill(say(n));
      await p.getByTestId('seat-send').click();
    }
  };
}

/** Exports the run as a file and opens the file: its replay, paused before it starts. */
async function replayFile(page) {
  const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
  await page.getByTestId('import').setInputFiles(await json.path());
  await waitForStatus(page, 'Paused · turn 0 · replay');
}

/** Answers every question the seat is asked until the run finishes; `answer(page, kind)` answers one. */
async function playSeat(page, answer) {
  const asked = [];
  for (;;) {
    const status = await page.getByTestId('status').textContent();
    if (status.startsWith('Finished')) return asked;
    if (await page.getByTestId('seat').isVisible()) {
      const heading = await page.locator('[data-testid=seat] h2').textContent();
      const prompt = await page.getByTestId('seat-prompt').textContent();
      asked.push(heading);
      await answer(page, heading);
      // Wait until this question is answered: the box goes, or asks the next question (whose
      // prompt differs, as the conversation has moved on), or says why it was not sent.
      await page.waitForFunction((p) => document.querySelector('[data-testid=seat-prompt]')?.textContent !== p
        || document.querySelector('[data-testid=seat-problem]'), prompt, { timeout: 10000 }).catch(() => {});
    } else {
      await page.waitForTimeout(50);
    }
  }
}

test('a seated candidate bids by key and by button, speaks, and the log marks every answer', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('field-max_turns').fill('3');
  await page.getByTestId('seat-0').check();
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();

  // Seed 000's opening asks the seat for its own description first.
  await page.getByTestId('seat').waitFor();
  await waitForText(page.locator('[data-testid=seat] h2'), 'Your turn: Donald Trump (character description)');
  // Sent empty: not sent, and the focus goes back to the box the error is about.
  await page.getByTestId('seat-send').click();
  await waitForText(page.getByTestId('seat-problem'), 'Not sent: the answer is empty.');
  await page.waitForFunction(() => document.activeElement?.dataset.testid === 'seat-text');
  await page.getByTestId('seat-text').fill('A builder who never takes no for an answer.');
  await page.getByTestId('seat-send').click();
  // Then the seed's bid prompt, answered by typing the digit.
  await waitForText(page.locator('[data-testid=seat] h2'), 'Your turn: Donald Trump (bid)');
  assert.match(await page.getByTestId('seat-prompt').textContent(), /On the scale of 1 to 10/);
  await waitForText(page.getByTestId('status'), /^Waiting for you · turn \d+$/);
  assert.equal(await page.getByTestId('seat-quantity').count(), 0, 'a bid asks for no quantity');
  await page.getByTestId('seat').press('9');

  let spoke = 0;
  const asked = await playSeat(page, async (p, heading) => {
    if (heading.endsWith('(bid)')) {
      await p.getByTestId('seat-choice-8').click(); // the button for 9
    } else {
      spoke += 1;
      await p.getByTestId('seat-text').fill(`Believe me, the trains will be huge number ${spoke}.`);
      await waitForText(p.getByTestId('seat-words'), '9 / 50 words');
      await p.getByTestId('seat-send').click();
    }
  });
  await waitForStatus(page, 'Finished');
  assert.equal(await page.getByTestId('seat').count(), 0, 'nothing is asked after the run');

  const events = await eventsOf(page);
  const bids = ofType(events, 'bid').filter((b) => b.agent === 'Donald Trump').map((b) => b.value);
  assert.deepEqual(bids, [9, 9, 9]);
  const mine = ofType(events, 'message').filter((m) => m.speaker === 'Donald Trump');
  assert.ok(mine.length >= 1, `a 9 wins the floor at least once (asked: ${asked.join('; ')})`);
  mine.forEach((m, i) => assert.equal(m.text, `Believe me, the trains will be huge number ${i + 1}.`));
  const human = ofType(events, 'model_call').filter((c) => c.human);
  assert.equal(human.length, 1 + 3 + mine.length, 'the description, one call per bid and per speech, each marked');
  assert.equal(ofType(events, 'character_described').find((d) => d.agent === 'Donald Trump').description, 'A builder who never takes no for an answer.');
  assert.ok(human.every((c) => c.agent === 'Donald Trump'));
  assert.ok(ofType(events, 'model_call').some((c) => c.agent !== 'Donald Trump' && !c.human));
  assert.deepEqual(events[0].scenario.seats, ['Donald Trump']);
  // On screen: the speech in the transcript.
  await waitForText(page.getByTestId('transcript'), 'Believe me, the trains will be huge number 1.');
  const marked = await page.locator('[data-testid=message]:has([data-testid=you])').evaluateAll((rows) => rows.map((r) => r.dataset.speaker));
  assert.deepEqual(marked, mine.map(() => 'Donald Trump'), 'the person\'s speeches, and only those, are marked "you"');
  assert.deepEqual(errors, []);
});

test('a trade against the rules is explained and not sent; a valid one is', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await page.getByTestId('open-trading-game').click();
  await page.getByTestId('seat-0').check();
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await page.getByTestId('seat').waitFor();
  await page.getByTestId('seat-inventory').waitFor();
  await page.getByTestId('seat-quantity').fill('999');
  await page.getByTestId('seat-send').click();
  await waitForText(page.getByTestId('seat-problem'), /^Not sent: not allowed: the proposer has only \d+ /);
  assert.equal(await page.getByTestId('seat').count(), 1, 'the question stays open');
  await page.getByTestId('seat-quantity').fill('1');
  await page.getByTestId('seat-send').click();

  let first = true;
  await playSeat(page, async (p) => {
    if (first) { first = false; }
    await p.getByTestId('seat-pick-0').selectOption('3'); // END
    await p.getByTestId('seat-send').click();
  });
  await waitForStatus(page, 'Finished');
  const events = await eventsOf(page);
  const player = events[0].scenario.agents[0].name;
  const actions = ofType(events, 'action').filter((a) => a.player === player);
  assert.ok(actions.length >= 1);
  assert.match(actions[0].raw, /"quantity":1/);
  assert.ok(actions.every((a) => a.valid), JSON.stringify(actions));
  const calls = ofType(events, 'model_call').filter((c) => c.agent === player && c.purpose === 'negotiation_action');
  assert.ok(calls.length >= 1 && calls.every((c) => c.human), 'every action call of the seat is the person\'s');
  assert.deepEqual(errors, []);
});

test('Stop while a seat waits ends the run and the wait; Reset clears it', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await page.getByTestId('open-rail-debate').click();
  // Without the opening steps, so the seat's first question is a bid.
  await page.getByTestId('field-opening.specify_topic').uncheck();
  await page.getByTestId('field-opening.describe_characters').uncheck();
  await page.getByTestId('seat-1').check();
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await page.getByTestId('seat').waitFor();
  await page.getByTestId('stop').click();
  await waitForStatus(page, 'Finished');
  await page.getByTestId('seat').waitFor({ state: 'detached' });
  await page.getByTestId('reset').click();
  await waitForStatus(page, 'Ready');
  // The seat stays taken for the next run, and asks again.
  await page.getByTestId('run').click();
  await page.getByTestId('seat').waitFor();
  await waitForText(page.locator('[data-testid=seat] h2'), 'Your turn: Kanye West (bid)');
  assert.deepEqual(errors, []);
});

test('a seated director chooses from the cast, and a seated selector names a candidate', async () => {
  for (const [preset, seat, decision, event] of [
    ['daily-show-director', 'seat-0', 'director choice', 'director_choice'],
    ['town-hall-selector', 'seat-selector', 'selector', 'selector_choice'],
  ]) {
    const { page, errors } = await openApp(session.browser, session.server.url);
    await page.getByTestId(`open-${preset}`).click();
    await page.getByTestId('field-max_turns').fill('3');
    await page.getByTestId(seat).check();
    await page.getByTestId('speed').selectOption('0');
    await page.getByTestId('run').click();
    const offered = [];
    await playSeat(page, async (p, heading) => {
      if (heading.endsWith(`(${decision})`)) {
        const names = await p.locator('[data-testid^=seat-choice-]').allTextContents();
        offered.push(names.at(-1));
        await p.getByTestId(`seat-choice-${names.length - 1}`).click();
      } else {
        await p.getByTestId('seat-text').fill('Over to you.');
        await p.getByTestId('seat-send').click();
      }
    });
    const events = await eventsOf(page);
    const chosen = ofType(events, event).filter((c) => event !== 'selector_choice' || c.attempts > 0).map((c) => c.agent);
    assert.ok(offered.length >= 1, preset);
    assert.deepEqual(chosen, offered, `${preset}: each choice is the person's`);
    assert.ok(ofType(events, event).every((c) => !c.fallback), preset);
    assert.deepEqual(errors, []);
  }
});

test('a seated speaker hands off in each mode, and the record matches what a model sends', async () => {
  for (const via of ['text', 'tool', 'json']) {
    const { page, errors } = await openApp(session.browser, session.server.url);
    await page.getByTestId('open-ai-morality-handoff').click();
    await page.getByTestId('field-max_turns').fill('3');
    await page.getByTestId('field-method.via').selectOption(via);
    await page.getByTestId('seat-0').check();
    await page.getByTestId('speed').selectOption('0');
    await page.getByTestId('run').click();
    const targets = [];
    await playSeat(page, async (p) => {
      await p.getByTestId('seat-text').fill('Machines should not judge.');
      const options = await p.locator('[data-testid=seat-pick-0] option').allTextContents();
      await p.getByTestId('seat-pick-0').selectOption(String(options.length - 1));
      targets.push(options.at(-1));
      await p.getByTestId('seat-send').click();
    });
    const events = await eventsOf(page);
    const mine = ofType(events, 'handoff').filter((h) => h.from === 'Proponent');
    assert.ok(mine.length >= 1, via);
    mine.forEach((h, i) => {
      assert.equal(h.to.toLowerCase(), targets[i].toLowerCase(), via);
      assert.equal(h.fallback, false, via);
    });
    const calls = ofType(events, 'model_call').filter((c) => c.agent === 'Proponent' && c.human);
    assert.equal(calls.length, mine.length, via);
    if (via === 'tool') assert.ok(calls.every((c) => c.tool_calls?.[0]?.name === 'handoff'), 'a tool call, as a model makes');
    else assert.ok(calls.every((c) => !c.tool_calls), via);
    if (via === 'json') assert.ok(calls.every((c) => JSON.parse(c.raw).response === 'Machines should not judge.'));
    if (via === 'text') assert.ok(calls.every((c) => c.raw.startsWith('Proponent: Machines should not judge. Transition to ')));
    assert.ok(ofType(events, 'message').some((m) => m.speaker === 'Proponent' && m.text.includes('Machines should not judge.')), via);
    assert.deepEqual(errors, []);
  }
});

test('Pause while a seat waits lets the person answer, then the run pauses; the run replays with the answers marked', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await runSeated(page, 'seat-2', 3);
  await waitForText(page.locator('[data-testid=seat] h2'), 'Your turn: Elizabeth Warren (bid)');
  await page.getByTestId('pause').click();
  // The question stays open while the run is paused; the answer finishes the turn, then it waits.
  assert.ok(await page.getByTestId('seat').isVisible());
  await page.getByTestId('seat-choice-9').click(); // 10: the floor is hers
  await waitForText(page.locator('[data-testid=seat] h2'), 'Your turn: Elizabeth Warren (speak)');
  await page.getByTestId('seat-text').fill('Who pays for it, and who profits?');
  await page.getByTestId('seat-send').click();
  await waitForStatus(page, 'Paused · turn 1');
  assert.equal(await page.getByTestId('seat').count(), 0);
  // Resume plays on: later bids are 1s, and a speech if a tie gives her the floor anyway.
  await page.getByTestId('run').click();
  await playSeat(page, debater(0, () => 'Again: who pays?'));
  await waitForStatus(page, 'Finished');
  const events = await eventsOf(page);
  assert.deepEqual(ofType(events, 'bid').filter((b) => b.agent === 'Elizabeth Warren').map((b) => b.value), [10, 1, 1]);
  const mine = ofType(events, 'message').filter((m) => m.speaker === 'Elizabeth Warren').map((m) => m.text);
  assert.equal(mine[0], 'Who pays for it, and who profits?');
  assert.ok(mine.slice(1).every((t) => t === 'Again: who pays?'));

  // The run file replays with the person's speech marked "you" and no seat asked.
  await replayFile(page);
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished');
  assert.equal(await page.getByTestId('seat').count(), 0, 'a replay asks nobody');
  const marked = page.locator('[data-testid=message]:has([data-testid=you])');
  assert.deepEqual(await marked.getByTestId('message-text').allTextContents(), mine);
  assert.deepEqual(errors, []);
});

test('Undo my last answer, even while the seat waits, goes back to that step to answer again; the run as it was is kept', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await runSeated(page, 'seat-2', 3);
  await waitForText(page.locator('[data-testid=seat] h2'), 'Your turn: Elizabeth Warren (bid)');
  assert.equal(await page.getByTestId('undo-answer').count(), 0, 'nothing to undo before the first answer');
  await page.getByTestId('seat-choice-9').click();
  await waitForText(page.locator('[data-testid=seat] h2'), 'Your turn: Elizabeth Warren (speak)');
  await page.getByTestId('seat-text').fill('First thoughts, badly put.');
  await page.getByTestId('seat-send').click();
  // Turn 2's bid is waiting when the class changes its mind.
  await waitForText(page.locator('[data-testid=seat] h2'), 'Your turn: Elizabeth Warren (bid)');
  await waitForText(page.getByTestId('status'), /^Waiting for you/);
  await page.getByTestId('undo-answer').click();
  await waitForStatus(page, 'Paused · turn 0');
  assert.equal(await page.getByTestId('seat').count(), 0);
  assert.equal(await page.getByTestId('message').count(), 1, 'back to before turn 1: the opening only');
  await page.getByTestId('past-run').first().waitFor();

  // Resume asks again from turn 1.
  await page.getByTestId('run').click();
  await waitForText(page.locator('[data-testid=seat] h2'), 'Your turn: Elizabeth Warren (bid)');
  await page.getByTestId('seat-choice-9').click();
  await waitForText(page.locator('[data-testid=seat] h2'), 'Your turn: Elizabeth Warren (speak)');
  await page.getByTestId('seat-text').fill('Better: who pays, and who profits?');
  await page.getByTestId('seat-send').click();
  await playSeat(page, debater(0, () => 'And again.'));
  await waitForStatus(page, 'Finished');
  // A finished run has no answer to take back (undoing would bring it back to life).
  assert.equal(await page.getByTestId('undo-answer').count(), 0, 'no Undo once the run has finished');
  const events = await eventsOf(page);
  const mine = ofType(events, 'message').filter((m) => m.speaker === 'Elizabeth Warren').map((m) => m.text);
  assert.equal(mine[0], 'Better: who pays, and who profits?');
  assert.ok(!mine.includes('First thoughts, badly put.'), 'the undone answer is not in this run');
  assert.deepEqual(errors, []);
});

test('continue-live plays through a seated recording without asking, then asks the seat live', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await runSeated(page, 'seat-2', 3);
  await playSeat(page, debater(9, (n) => `Recorded answer ${n}.`));
  await waitForStatus(page, 'Finished');
  const recorded = await eventsOf(page);
  const hers = (events, upTo) => ofType(events, 'message').filter((m) => m.speaker === 'Elizabeth Warren' && m.turn <= upTo).map((m) => m.text);
  const answers = (events, upTo) => ofType(events, 'model_call').filter((c) => c.human && c.turn <= upTo).map((c) => c.raw);

  await replayFile(page);
  // The first step plays the opening, then one turn a step.
  await page.getByTestId('step').click();
  await page.getByTestId('message').first().waitFor();
  await page.getByTestId('step').click();
  await waitForStatus(page, 'Paused · turn 1 · replay');
  await page.getByTestId('step').click();
  await waitForStatus(page, 'Paused · turn 2 · replay');
  await page.getByTestId('continue-live').click();
  await waitForText(page.getByTestId('status'), /^Paused · turn 2(?!.*replay)/);
  assert.equal(await page.getByTestId('seat').count(), 0, 'the recorded answers are not asked again');
  // Turn 3 is live: the seat is asked again.
  await page.getByTestId('run').click();
  const asked = await playSeat(page, debater(9, () => 'A new answer, live.'));
  await waitForStatus(page, 'Finished');
  assert.deepEqual(asked, ['Your turn: Elizabeth Warren (bid)', ...asked.slice(1)], 'turn 3 asks the seat from its bid');
  const events = await eventsOf(page);
  assert.deepEqual(hers(events, 2), hers(recorded, 2), 'the recorded speeches are played as they were');
  assert.deepEqual(answers(events, 2), answers(recorded, 2), 'and so are the recorded answers, still marked human');
  assert.ok(answers(events, 2).length >= 2);
  const live = ofType(events, 'message').filter((m) => m.speaker === 'Elizabeth Warren' && m.turn === 3).map((m) => m.text);
  assert.ok(live.every((t) => t === 'A new answer, live.'), JSON.stringify(live));
  assert.ok(ofType(events, 'model_call').some((c) => c.human && c.turn === 3 && c.raw === '<10>'), 'the live bid is recorded');
  assert.deepEqual(errors, []);
});

test('Pause holds a seat\'s time limit while the class talks it over; Run lets it run on', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await runSeated(page, 'seat-2', 1, 2);
  const heading = page.locator('[data-testid=seat] h2');
  await waitForText(heading, 'Your turn: Elizabeth Warren (bid)');
  await page.getByTestId('pause').click();
  await waitForStatus(page, 'Paused');
  // Twice the limit later, the question is still open.
  await page.waitForTimeout(4000);
  assert.equal(await heading.textContent(), 'Your turn: Elizabeth Warren (bid)');
  assert.equal(await page.getByTestId('seat').count(), 1);
  // Run again: the limit runs out, the bid falls to its default and the turn is played.
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished');
  const events = await eventsOf(page);
  const [bid] = ofType(events, 'bid').filter((b) => b.agent === 'Elizabeth Warren');
  assert.ok(bid.defaulted, JSON.stringify(bid));
  assert.ok(ofType(events, 'model_call').filter((c) => c.human).every((c) => c.refusal?.kind === 'unanswered'));
  assert.deepEqual(errors, []);
});

test('a seat with a time limit takes its question back when nobody answers, and the method falls back', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await runSeated(page, 'seat-2', 2, 1);
  await waitForText(page.locator('[data-testid=seat] h2'), 'Your turn: Elizabeth Warren (bid)');
  // Nobody answers: the box goes by itself and the run finishes.
  await waitForStatus(page, 'Finished');
  assert.equal(await page.getByTestId('seat').count(), 0);
  const events = await eventsOf(page);
  const bids = ofType(events, 'bid').filter((b) => b.agent === 'Elizabeth Warren');
  assert.equal(bids.length, 2);
  assert.ok(bids.every((b) => b.defaulted && b.attempts > 1), JSON.stringify(bids));
  const calls = ofType(events, 'model_call').filter((c) => c.human);
  assert.ok(calls.length >= 4 && calls.every((c) => c.refusal?.kind === 'unanswered'), JSON.stringify(calls.map((c) => c.refusal)));
  assert.ok(calls.every((c) => /did not answer in time/.test(c.parse.error)));
  assert.deepEqual(errors, []);
});

test('in the projector view, Space on a focused bid button presses it; a digit with Ctrl, Alt or Meta is no bid', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url, { width: 1280, height: 720 });
  await runSeated(page, 'seat-2', 3);
  await waitForText(page.locator('[data-testid=seat] h2'), 'Your turn: Elizabeth Warren (bid)');
  await page.getByTestId('projector').click();
  await page.locator('main.projector').waitFor();
  // Digits with a modifier belong to the browser (Ctrl+1 picks a tab): the question stays open.
  // Had one counted, the bid below would be that digit: the first answer closes the question.
  for (const chord of ['Control+1', 'Alt+2', 'Meta+3']) await page.getByTestId('seat').press(chord);
  // Space on the focused button for 7 gives 7, and neither pauses the run nor cancels the press.
  await page.getByTestId('seat-choice-6').focus();
  await page.keyboard.press(' ');
  await waitForText(page.getByTestId('status'), /^(Waiting for you|Running)/);
  // Turn 0's bid is in: she speaks next (a speech is asked), or turn 1 has begun.
  await page.waitForFunction(() => /\(speak\)$/.test(document.querySelector('[data-testid=seat] h2')?.textContent)
    || /turn [1-9]/.test(document.querySelector('[data-testid=status]').textContent));
  assert.doesNotMatch(await page.getByTestId('status').textContent(), /^Paused/);
  await page.getByTestId('stop').click();
  await waitForStatus(page, 'Finished');
  await page.keyboard.press('Escape');
  const events = await eventsOf(page);
  assert.equal(ofType(events, 'bid').find((b) => b.agent === 'Elizabeth Warren').value, 7);
  assert.deepEqual(errors, []);
});

for (const viewport of [{ width: 1280, height: 720 }, { width: 1024, height: 768 }]) {
  test(`at ${viewport.width} by ${viewport.height} in the projector view, a bid's question takes the digit typed without a click`, async () => {
    const { page, errors } = await openApp(session.browser, session.server.url, viewport);
    await runSeated(page, 'seat-2', 2, null, { projector: true });
    await waitForText(page.locator('[data-testid=seat] h2'), 'Your turn: Elizabeth Warren (bid)');
    await page.waitForFunction(() => document.activeElement?.closest('[data-testid=seat]'));
    await page.keyboard.press('7');
    // Turn 0's bid is in: she speaks next (a speech is asked), or turn 1 has begun.
    await page.waitForFunction(() => /\(speak\)$/.test(document.querySelector('[data-testid=seat] h2')?.textContent)
      || /turn [1-9]/.test(document.querySelector('[data-testid=status]').textContent));
    await page.getByTestId('stop').click();
    await waitForStatus(page, 'Finished');
    await page.keyboard.press('Escape');
    const events = await eventsOf(page);
    assert.equal(ofType(events, 'bid').find((b) => b.agent === 'Elizabeth Warren').value, 7);
    assert.deepEqual(errors, []);
  });

  test(`at ${viewport.width} by ${viewport.height} in the projector view, a speech's box has the focus as it opens, in the projector's type`, async () => {
    const { page, errors } = await openApp(session.browser, session.server.url, viewport);
    await runSeated(page, 'seat-2', 6, null, { preset: 'rail-debate-random', projector: true });
    await waitForText(page.locator('[data-testid=seat] h2'), 'Your turn: Elizabeth Warren (speak)', 30000);
    await page.waitForFunction(() => document.activeElement?.dataset.testid === 'seat-text');
    await page.keyboard.type('We build it on time.');
    assert.equal(await page.getByTestId('seat-text').inputValue(), 'We build it on time.');
    const size = (id) => page.getByTestId(id).evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    assert.ok(await size('seat-text') >= 24, `the text box's type is ${await size('seat-text')} px`);
    assert.ok(await size('seat-words') >= 20, `the word count's type is ${await size('seat-words')} px`);
    await page.getByTestId('seat-send').click();
    // Her later turns, if any, answered until the run ends.
    await playSeat(page, debater(6, () => 'And on budget.'));
    await page.keyboard.press('Escape');
    const events = await eventsOf(page);
    assert.ok(ofType(events, 'message').some((m) => m.speaker === 'Elizabeth Warren' && m.text === 'We build it on time.'));
    assert.deepEqual(errors, []);
  });
}

test('in the projector view, the floor given while a seat bids reaches that turn, and what must wait says so', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url, { width: 1280, height: 720 });
  await runSeated(page, 'seat-2', 8, null, { projector: true });
  const heading = page.locator('[data-testid=seat] h2');
  await waitForText(heading, 'Your turn: Elizabeth Warren (bid)');
  // Before this turn's speaker is chosen: the floor reaches this turn.
  await page.getByTestId('give-floor').getByText('Kanye West', { exact: true }).click();
  await waitForText(page.getByTestId('floor-given'), 'Kanye West speaks next: given by the class');
  await page.getByTestId('interject-text').fill('Keep it short, please.');
  await page.getByTestId('interject').click();
  await waitForText(page.getByTestId('interject-later'), "Heard after this turn's speech");
  // The interjection waits below the turn under way, where it will land, until that turn ends.
  await waitForText(page.getByTestId('waiting-interjection'), 'Keep it short, please.');
  assert.ok(await page.evaluate(() => {
    const waiting = document.querySelector('[data-testid=waiting-interjection]');
    const last = [...document.querySelectorAll('[data-testid=transcript] [data-testid=message]')].pop();
    return !last || Boolean(last.compareDocumentPosition(waiting) & Node.DOCUMENT_POSITION_FOLLOWING);
  }), 'the waiting interjection is shown after the last message');
  await page.getByTestId('seat-choice-9').click();
  // The turn's board names who spoke, and notes the floor the class gave.
  const board = page.getByTestId('bid-turn').first();
  await waitForText(board.getByTestId('board-given'), 'floor given to Kanye West by the class');
  assert.match(await board.locator('h3').textContent(), /^Turn \d+ · Kanye West speaks$/);
  await eventually(async () => assert.equal(await page.getByTestId('floor-given').textContent(), ''));
  await eventually(async () => assert.equal(await page.getByTestId('interject-later').textContent(), ''));
  assert.equal(await page.getByTestId('waiting-interjection').count(), 0);
  // It landed where it was shown: after the speech of the turn that was under way.
  const said = await page.evaluate(() => [...document.querySelectorAll('[data-testid=transcript] [data-testid=message]')]
    .map((m) => [m.dataset.speaker, m.querySelector('[data-testid=message-text]')?.textContent ?? '']));
  const landed = said.findIndex(([, text]) => text === 'Keep it short, please.');
  assert.ok(landed > 0 && said[landed - 1][0] === 'Kanye West', JSON.stringify(said.slice(-3)));
  // Once her speech is asked for, the turn's speaker is chosen: a floor given now waits for it.
  for (;;) {
    await page.waitForFunction(() => /\((bid|speak)\)$/.test(document.querySelector('[data-testid=seat] h2')?.textContent ?? ''), null, { timeout: 30000 });
    const asked = await heading.textContent();
    if (asked.endsWith('(speak)')) break;
    const prompt = await page.getByTestId('seat-prompt').textContent();
    await page.getByTestId('seat-choice-9').click();
    await page.waitForFunction((p) => document.querySelector('[data-testid=seat-prompt]')?.textContent !== p, prompt);
  }
  await page.getByTestId('give-floor').getByText('Kanye West', { exact: true }).click();
  await waitForText(page.getByTestId('floor-given'), 'Kanye West speaks after this speech: given by the class');
  await page.getByTestId('seat-text').fill('On time and on budget.');
  await page.getByTestId('seat-send').click();
  // Her speech is over: the next turn is Kanye West's, once her bid in it is in.
  await waitForText(heading, 'Your turn: Elizabeth Warren (bid)');
  await waitForText(page.getByTestId('floor-given'), 'Kanye West speaks next: given by the class');
  await page.getByTestId('seat-choice-0').click();
  await eventually(async () => assert.equal(await page.getByTestId('floor-given').textContent(), ''), { timeout: 15000 });
  await page.getByTestId('stop').click();
  await waitForStatus(page, 'Finished');
  await page.keyboard.press('Escape');
  const events = await eventsOf(page);
  const given = ofType(events, 'floor_given');
  const spoke = (turn) => ofType(events, 'message').find((m) => m.turn === turn && m.kind !== 'injected')?.speaker;
  assert.equal(given.length, 2);
  assert.equal(given[0].turn, Math.min(...ofType(events, 'bid').map((b) => b.turn)), 'the turn whose bid was awaited');
  assert.equal(spoke(given[0].turn), 'Kanye West');
  // The interjection was recorded after that turn's speech, and heard from the next turn.
  const messages = ofType(events, 'message');
  const at = messages.findIndex((m) => m.text === 'Keep it short, please.');
  assert.equal(messages[at - 1].speaker, 'Kanye West');
  const hers = messages.find((m) => m.speaker === 'Elizabeth Warren' && m.text === 'On time and on budget.');
  assert.equal(given[1].turn, hers.turn + 1);
  assert.equal(spoke(hers.turn + 1), 'Kanye West');
  assert.deepEqual(errors, []);
});

/**
 * Whether the seat's question and the last two messages are wholly on screen: inside the window,
 * inside the transcript's scrolled box, and the window not scrolled to show them.
 */
async function questionAndLastTwoInView(page) {
  return page.evaluate(() => {
    const inside = (r, box) => r.top >= box.top - 1 && r.bottom <= box.bottom + 1 && r.left >= box.left - 1 && r.right <= box.right + 1;
    const screen = { top: 0, left: 0, bottom: innerHeight, right: innerWidth };
    const list = document.querySelector('.transcript').getBoundingClientRect();
    const seat = document.querySelector('[data-testid=seat]').getBoundingClientRect();
    const last = [...document.querySelectorAll('[data-testid=message]')].slice(-2).map((m) => m.getBoundingClientRect());
    const out = [];
    if (!inside(seat, screen)) out.push(`the question (${Math.round(seat.top)} to ${Math.round(seat.bottom)})`);
    last.forEach((r, i) => {
      if (!inside(r, screen) || !inside(r, list)) out.push(`message ${i + 1} of the last two (${Math.round(r.top)} to ${Math.round(r.bottom)}, list ${Math.round(list.top)} to ${Math.round(list.bottom)})`);
    });
    if (scrollY > 0) out.push(`the window scrolled by ${scrollY}`);
    return out;
  });
}

for (const viewport of [{ width: 1280, height: 720 }, { width: 1024, height: 768 }]) {
  test(`at ${viewport.width} by ${viewport.height} in the projector view, a waiting seat's question and the last two messages are in view`, async () => {
    const { page, errors } = await openApp(session.browser, session.server.url, viewport);
    await runSeated(page, 'seat-2', 14, null, { projector: true });
    const heading = page.locator('[data-testid=seat] h2');
    const seen = new Set();
    // Bids of 1 until the conversation has some length, then of 10 until she is asked to speak;
    // at the first bid and the first speech asked after that, both are checked.
    for (;;) {
      await page.waitForFunction(() => /\((bid|speak)\)$/.test(document.querySelector('[data-testid=seat] h2')?.textContent ?? ''), null, { timeout: 30000 });
      const asked = await heading.textContent();
      const kind = asked.endsWith('(bid)') ? 'bid' : 'speak';
      const long = await page.getByTestId('message').count() >= 5;
      if (long && !seen.has(kind)) {
        seen.add(kind);
        // The newest message is shown (the transcript follows it) before it is measured.
        await eventually(async () => assert.deepEqual(await questionAndLastTwoInView(page), [], `${kind}: what is out of view`));
      }
      if (seen.size === 2) break;
      const prompt = await page.getByTestId('seat-prompt').textContent();
      if (kind === 'bid') await page.getByTestId(long ? 'seat-choice-9' : 'seat-choice-0').click();
      else {
        await page.getByTestId('seat-text').fill('On time.');
        await page.getByTestId('seat-send').click();
      }
      await page.waitForFunction((p) => document.querySelector('[data-testid=seat-prompt]')?.textContent !== p, prompt);
    }
    await page.getByTestId('stop').click();
    await waitForStatus(page, 'Finished');
    assert.deepEqual(errors, []);
  });
}

test('a seat taken says so on the stage before Run, keeps the box\'s focus, and is said again after a reload', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await page.getByTestId('open-rail-debate').click();
  const empty = page.locator('.transcript-panel .empty');
  await waitForText(empty, 'Press Run or Step to start the conversation.');
  await page.getByTestId('seat-0').focus();
  await page.keyboard.press('Space');
  await waitForText(empty, /^The class plays Donald Trump: the stage asks the class each time Donald Trump is to answer\./);
  // The box ticked by the keyboard still has it: the next Space unticks the same box.
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'seat-0');
  await page.getByTestId('seat-1').check();
  await waitForText(empty, /^The class plays Donald Trump and Kanye West:/);
  await page.getByTestId('seat-1').uncheck();
  await waitForText(empty, /^The class plays Donald Trump:/);

  // Kept on the device: after a reload the seat is still taken, and the stage says so first.
  await page.reload();
  await page.getByTestId('seat-0').waitFor();
  await eventually(async () => assert.ok(await page.getByTestId('seat-0').isChecked(), 'the seat is kept'));
  await waitForText(empty, /^The class plays Donald Trump:/);
  assert.deepEqual(errors, []);
});
