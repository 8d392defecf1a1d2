// Every preset, run in the browser on the demo model: what a person sees must be exactly what
// the engine recorded. The native runner plays the same scenario and seed for comparison.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appSession, nativeEvents, ofType, openApp, runPreset, screenshot, waitForStatus } from './helpers.mjs';

const session = appSession();

async function transcriptMatches(page, events) {
  const expected = ofType(events, 'message');
  const shown = await page.getByTestId('message').evaluateAll((rows) =>
    rows.map((r) => ({
      speaker: r.dataset.speaker,
      turn: Number(r.dataset.turn),
      text: r.querySelector('[data-testid=message-text]').textContent,
      injected: r.classList.contains('injected'),
    })),
  );
  assert.equal(shown.length, expected.length, 'one transcript entry per message');
  // The newest message is in view at the end of a run.
  await page.waitForFunction(() => {
    const list = document.querySelector('[data-testid=transcript]');
    return list.scrollTop + list.clientHeight >= list.scrollHeight - 2;
  }, null, { timeout: 3000 });
  expected.forEach((m, i) => {
    assert.deepEqual(shown[i], { speaker: m.speaker, turn: m.turn, text: m.text, injected: m.kind === 'injected' }, `message ${i}`);
  });
}

for (const [id, extra] of [
  ['rail-debate', []],
  ['arms-debate', []],
]) {
  test(`${id}: the bid board shows every bid and winner the engine recorded`, async () => {
    const events = nativeEvents(id, extra);
    const { page, errors } = await openApp(session.browser, session.server.url);
    await runPreset(page, id);
    await transcriptMatches(page, events);
    const boards = await page.getByTestId('bid-turn').evaluateAll((els) =>
      els.map((b) => ({
        turn: Number(b.dataset.turn),
        winner: b.dataset.winner,
        bids: [...b.querySelectorAll('[data-testid=bid]')].map((x) => [x.dataset.agent, Number(x.dataset.value), x.classList.contains('winner')]),
        tie: b.querySelector('[data-testid=tie-note]')?.textContent ?? null,
      })),
    );
    const selected = ofType(events, 'speaker_selected');
    assert.equal(boards.length, selected.length);
    for (const board of boards) {
      const sel = selected.find((s) => s.turn === board.turn);
      assert.equal(board.winner, sel.agent, `turn ${board.turn} winner`);
      const bids = ofType(events, 'bid').filter((b) => b.turn === board.turn);
      assert.deepEqual(board.bids, bids.map((b) => [b.agent, b.value, b.agent === sel.agent]));
      assert.equal(board.tie !== null, sel.tie, `turn ${board.turn} tie marked`);
      if (sel.tie) assert.match(board.tie, new RegExp(sel.tied.join(' and ')));
    }
    assert.equal(await page.getByTestId('bid-chart').count(), 1);
    await screenshot(page, id);
    assert.deepEqual(errors, []);
  });
}

test('daily-show-director: the director panel shows each stop draw and choice', async () => {
  const events = nativeEvents('daily-show-director');
  const { page, errors } = await openApp(session.browser, session.server.url);
  await runPreset(page, 'daily-show-director');
  await transcriptMatches(page, events);
  const draws = ofType(events, 'stop_draw');
  const shown = await page.getByTestId('director-turn').evaluateAll((els) =>
    els.map((d) => ({
      turn: Number(d.dataset.turn),
      stop: d.querySelector('[data-testid=stop-draw]').dataset.stop === 'true',
      draw: d.querySelector('[data-testid=stop-draw]').textContent,
      choice: d.querySelector('[data-testid=director-choice]')?.dataset.agent ?? null,
    })),
  );
  assert.equal(shown.length, draws.length);
  shown.reverse(); // newest first on screen
  draws.forEach((d, i) => {
    assert.equal(shown[i].turn, d.turn);
    assert.equal(shown[i].stop, d.stop);
    assert.match(shown[i].draw, new RegExp(`drew ${d.sample.toFixed(3)} against 0.20`));
    const choice = ofType(events, 'director_choice').find((c) => c.turn === d.turn);
    assert.equal(shown[i].choice, choice ? choice.agent : null);
  });
  assert.equal(ofType(events, 'run_finished')[0].reason, 'director_stopped');
  // Where the run ended, the page says the show ended on a chance, and which.
  assert.match(await page.getByTestId('status').textContent(),
    /^Finished after turn \d+: the director ended the show on its stop draw, 1 chance in 5 each turn$/);
  await screenshot(page, 'daily-show-director');
  assert.deepEqual(errors, []);
});

test('ai-morality-handoff: the handoff view shows every target and the graph counts', async () => {
  const events = nativeEvents('ai-morality-handoff');
  const { page, errors } = await openApp(session.browser, session.server.url);
  await runPreset(page, 'ai-morality-handoff');
  await transcriptMatches(page, events);
  const rows = await page.getByTestId('handoff').evaluateAll((els) => els.map((h) => [h.dataset.from, h.dataset.to, h.dataset.fallback]));
  const expected = ofType(events, 'handoff').map((h) => [h.from, h.to, String(h.fallback)]).reverse();
  assert.deepEqual(rows, expected);
  const edges = await page.getByTestId('handoff-edge').evaluateAll((els) => els.map((e) => [e.dataset.from, e.dataset.to, Number(e.dataset.count)]));
  const counts = {};
  for (const h of ofType(events, 'handoff')) counts[`${h.from}>${h.to}`] = (counts[`${h.from}>${h.to}`] ?? 0) + 1;
  assert.equal(edges.length, Object.keys(counts).length);
  for (const [from, to, n] of edges) assert.equal(n, counts[`${from}>${to}`]);
  assert.equal(await page.getByTestId('handoff-graph').locator('figcaption').textContent(),
    'Each arrow runs from the agent who handed over the floor to the one who took it; the number on it is how many times.');
  await screenshot(page, 'ai-morality-handoff');
  assert.deepEqual(errors, []);
});

test('town-hall-selector: the selector panel shows the candidates, choice and fallback of each turn', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  for (const malformed of [undefined, 0.4]) {
    const extra = malformed === undefined ? [] : ['--malformed-rate', String(malformed)];
    const events = nativeEvents('town-hall-selector', extra);
    await runPreset(page, 'town-hall-selector', { malformed });
    await transcriptMatches(page, events);
    const choices = ofType(events, 'selector_choice');
    const rows = page.getByTestId('selection');
    await assert.doesNotReject(() => rows.nth(choices.length - 1).waitFor());
    const shown = await rows.evaluateAll((els) =>
      els.map((r) => [r.dataset.agent, r.dataset.fallback, r.querySelector('[data-testid=selection-candidates]').textContent]),
    );
    const expected = choices.map((c) => [c.agent, String(c.matched === 'fallback'), `Candidates: ${c.candidates.join(', ')}`]).reverse();
    assert.deepEqual(shown, expected);
    const selected = ofType(events, 'speaker_selected').map((s) => s.agent);
    assert.deepEqual(choices.map((c) => c.agent), selected, 'the named agent has the floor');
    if (malformed) {
      assert.ok(ofType(events, 'model_call').some((c) => c.purpose === 'selector' && c.attempt > 1), 'bad replies were asked again');
      const calls = ofType(events, 'model_call').filter((c) => c.purpose === 'selector' && c.attempt > 1).length;
      const total = page.locator('[data-testid=stats-agent][data-agent=Total]');
      assert.ok(Number(await total.getAttribute('data-retries')) >= calls);
    }
  }
  // The method can be picked for any scenario, and its settings are there to change.
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('field-method').selectOption('selector');
  await page.getByTestId('selector-panel').waitFor();
  await page.getByTestId('field-method.allow_repeats').check();
  await page.getByTestId('field-method.fallback').selectOption('random_candidate');
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished');
  const named = await page.getByTestId('selection').count();
  assert.equal(named, 10, 'one selection per turn');
  const candidates = await page.getByTestId('selection-candidates').first().textContent();
  assert.equal(candidates.split(',').length, 3, 'repeats allowed: every agent is a candidate');
  await screenshot(page, 'town-hall-selector');
  assert.deepEqual(errors, []);
});

test('rail-debate-random: each draw, and whom it was drawn from, is what the engine recorded', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  const events = nativeEvents('rail-debate-random', []);
  await runPreset(page, 'rail-debate-random');
  await transcriptMatches(page, events);
  const picks = ofType(events, 'speaker_selected');
  const rows = page.getByTestId('draw');
  await assert.doesNotReject(() => rows.nth(picks.length - 1).waitFor());
  const shown = await rows.evaluateAll((els) =>
    els.map((r) => [r.dataset.agent, r.querySelector('[data-testid=draw-candidates]').textContent]),
  );
  assert.deepEqual(shown, picks.map((p) => [p.agent, `drawn by lot among ${p.tied.join(' and ')} (the run's seed decides: a rerun draws the same)`]).reverse());
  for (let i = 1; i < picks.length; i += 1) {
    assert.notEqual(picks[i].agent, picks[i - 1].agent, 'never the last speaker again');
    assert.ok(!picks[i].tied.includes(picks[i - 1].agent), 'the last speaker is not a candidate');
  }
  // With repeats allowed every agent is a candidate every turn.
  await page.getByTestId('field-method.allow_repeats').check();
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  // The new run's ten draws, each from all three (the first run's had two candidates from turn 2).
  await page.waitForFunction(() => {
    const among = [...document.querySelectorAll('[data-testid=draw-candidates]')].map((e) => e.textContent);
    return among.length === 10 && among.every((t) => t.split(' and ').length === 3);
  }, null, { timeout: 30000 });
  await waitForStatus(page, 'Finished');
  await screenshot(page, 'rail-debate-random');
  assert.deepEqual(errors, []);
});

test('trading-game: inventories, the final score and the optimizer chart match the engine', async () => {
  const events = nativeEvents('trading-game');
  const { page, errors } = await openApp(session.browser, session.server.url);
  await runPreset(page, 'trading-game');
  const last = ofType(events, 'inventory').at(-1);
  const rows = await page.getByTestId('inventory').evaluateAll((els) => els.map((r) => [r.dataset.player, r.dataset.quantities, Number(r.dataset.value)]));
  assert.deepEqual(rows, Object.keys(last.inventories).map((p) => [p, `[${last.inventories[p].join(', ')}]`, last.values[p]]));
  const ends = ofType(events, 'game_end');
  const overall = await page.getByTestId('overall');
  assert.equal(Number(await overall.getAttribute('data-overall')), ends.at(-1).overall);
  assert.equal(Number(await overall.getAttribute('data-optimum')), 73);
  assert.match(await overall.textContent(), /Overall 73 of the optimum 73/);
  const results = await page.getByTestId('game-result').evaluateAll((els) => els.map((r) => Number(r.dataset.overall)));
  assert.deepEqual(results, ends.map((e) => e.overall));
  const bars = await page.getByTestId('optimizer-bar').evaluateAll((els) => els.map((b) => Number(b.dataset.overall)));
  assert.deepEqual(bars, ofType(events, 'optimizer_iteration').map((o) => o.overall));
  // Each bar is numbered by its game under it, and the caption says what a bar and the line are.
  assert.deepEqual(await page.getByTestId('optimizer-game').allTextContents(), ofType(events, 'optimizer_iteration').map((o) => String(o.iteration)));
  assert.match(await page.getByTestId('optimizer-chart').locator('figcaption').textContent(), /^Each bar is a game's overall score .* numbered by game under it; the dashed line is the optimum, 73\.$/);
  const actions = await page.getByTestId('action').count();
  assert.equal(actions, ofType(events, 'action').length);
  await screenshot(page, 'trading-game');
  assert.deepEqual(errors, []);
});

test('malformed output: retries, defaults and fallbacks show in every panel', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);

  const rail = nativeEvents('rail-debate', ['--malformed-rate', '0.4']);
  await runPreset(page, 'rail-debate', { malformed: 0.4 });
  const defaulted = ofType(rail, 'bid').filter((b) => b.defaulted).length;
  const retried = ofType(rail, 'bid').filter((b) => b.attempts > 1 && !b.defaulted).length;
  assert.ok(defaulted > 0 && retried > 0, 'the seed makes both happen');
  const notes = await page.getByTestId('bid-note').allTextContents();
  assert.equal(notes.filter((n) => n.includes('defaulted to 0')).length, defaulted);
  assert.equal(notes.filter((n) => n.startsWith('read on attempt')).length, retried);
  const total = page.locator('[data-testid=stats-agent][data-agent=Total]');
  const retries = ofType(rail, 'model_call').filter((c) => c.attempt > 1).length;
  assert.equal(Number(await total.getAttribute('data-retries')), retries);
  assert.equal(Number(await total.getAttribute('data-fallbacks')), defaulted);
  await screenshot(page, 'malformed-bidding');

  const show = nativeEvents('daily-show-director', ['--malformed-rate', '0.4']);
  await runPreset(page, 'daily-show-director', { malformed: 0.4 });
  const fallbacks = ofType(show, 'director_choice').filter((c) => c.fallback).length;
  assert.ok(fallbacks > 0);
  assert.equal(await page.locator('[data-testid=director-choice][data-fallback=true]').count(), fallbacks);

  const debate = nativeEvents('ai-morality-handoff', ['--malformed-rate', '0.4']);
  await runPreset(page, 'ai-morality-handoff', { malformed: 0.4 });
  const handoffFallbacks = ofType(debate, 'handoff').filter((h) => h.fallback).length;
  assert.ok(handoffFallbacks > 0);
  assert.equal(await page.locator('[data-testid=handoff][data-fallback=true]').count(), handoffFallbacks);

  const game = nativeEvents('trading-game', ['--malformed-rate', '0.4']);
  await runPreset(page, 'trading-game', { malformed: 0.4 });
  const invalid = ofType(game, 'action').filter((a) => !a.valid).length;
  assert.ok(invalid > 0);
  assert.equal(await page.locator('[data-testid=action][data-valid=false]').count(), invalid);
  await screenshot(page, 'malformed-trading');
  assert.deepEqual(errors, []);
});

test('round robin: the panel says there is no decision, and the agents speak in their order', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('field-method').selectOption('round_robin');
  await page.getByTestId('round-robin-panel').waitFor();
  assert.equal(await page.getByTestId('bid-board').count(), 0);
  const agents = await page.locator('[data-testid^="field-agents["][data-testid$="].name"]').evaluateAll((els) => els.map((e) => e.value));
  assert.equal(agents.length, 3);
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished');
  assert.match(await page.getByTestId('round-robin-panel').textContent(), /fixed order; there is no decision to show/);
  const rows = await page.getByTestId('message').evaluateAll((els) => els.map((r) => [r.dataset.speaker, r.classList.contains('injected')]));
  const spoken = rows.filter(([, injected]) => !injected).map(([speaker]) => speaker);
  assert.equal(spoken.length, 10, 'the turn limit');
  assert.deepEqual(spoken, spoken.map((_, i) => agents[i % agents.length]));
  assert.deepEqual(errors, []);
});
