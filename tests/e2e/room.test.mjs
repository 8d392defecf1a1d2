// A class on its own phones (issue 40): one teacher's page and three phones, each its own browser
// context at a phone's size, meet through `agora relay` on 127.0.0.1 and talk over real WebRTC data
// channels relayed by a TURN server on 127.0.0.1 (only loopback candidates, checked on every
// selected pair). Two students play seats in
// the rail debate from their phones, the third proposes an interjection and votes; the log the
// teacher exports holds every answer with who gave it, and its replay shows them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { connect, createServer } from 'node:net';
import {
  eventually, loopbackOnly, ofType, roomSession, root, screenshot, selectedPairs, startRelay, waitForStatus, waitForText,
} from './helpers.mjs';
import { codeOf, secretOf, topicOf } from './room-envelope.mjs';

const ctx = roomSession();

/** The pages the running test opened, to print their transports' trails if it fails. */
let opened = [];

/** A test of the room: when it fails, what each page's transport did (room/net.js keeps a trail)
 * is printed, so that a failure that comes once in many runs can be read; the pages' contexts
 * are closed after that (a test's own `finally` closes only what is not a page). */
function roomTest(name, body) {
  test(name, async () => {
    opened = [];
    try {
      await body();
    } catch (e) {
      for (const [i, page] of opened.entries()) {
        const trail = await page.evaluate(() => globalThis.agoraRoomLog ?? []).catch(() => ['(closed)']);
        console.error(`--- page ${i + 1} (${page.url().split('#')[0]}):\n${trail.join('\n')}`);
      }
      throw e;
    } finally {
      for (const page of opened) await page.context().close().catch(() => {});
    }
  });
}

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** A page in a context of its own, with WebRTC on loopback alone and its errors collected. */
async function open(url, options, { settings, storageState } = {}) {
  const context = await ctx.browser.newContext({ ...options, storageState });
  await context.addInitScript(loopbackOnly);
  if (settings) {
    await context.addInitScript((s) => localStorage.setItem('agora.room', s), JSON.stringify(settings));
  }
  const page = await context.newPage();
  opened.push(page);
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  return { context, page, errors };
}

async function joinAs(link, name, storageState) {
  const phone = await open(link, PHONE, { storageState });
  if (!storageState) {
    await phone.page.getByTestId('phone-name').fill(name);
    await phone.page.getByTestId('phone-join').click();
  }
  await phone.page.getByTestId('phone-who').waitFor({ timeout: 30000 });
  return phone;
}

/** Answers the seat's questions on `page` until `done()`: every bid the button `bid`, every
 * speech its words; `onAsked(heading)` runs before each answer. */
async function answerSeat(page, name, bid, done, onAsked = async () => {}) {
  let said = 0;
  const box = page.getByTestId('seat');
  while (!(await done())) {
    if (!(await box.isVisible())) {
      await page.waitForTimeout(50);
      continue;
    }
    const heading = await page.locator('[data-testid=seat] h2').textContent();
    const prompt = await page.getByTestId('seat-prompt').textContent();
    if (await onAsked(heading)) continue;
    if (heading.endsWith('(bid)')) {
      await page.getByTestId(`seat-choice-${bid}`).click();
    } else {
      said += 1;
      await page.getByTestId('seat-text').fill(`${name} speaks, time ${said}.`);
      await page.getByTestId('seat-send').click();
    }
    await page.waitForFunction((p) => document.querySelector('[data-testid=seat-prompt]')?.textContent !== p, prompt, { timeout: 15000 }).catch(() => {});
  }
}

function forger(relay, topic, code) {
  const child = spawn('node', [join(root, 'tests', 'e2e', 'room-forger.mjs'), relay, topic, code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const sent = new Promise((ok) => createInterface({ input: child.stdout }).once('line', ok));
  return { child, sent };
}

roomTest('two students play seats from their phones, a third interjects and votes, and the log names who answered', async () => {
  const teacher = await open(ctx.server.url, { viewport: { width: 1280, height: 720 } }, { settings: { relay: ctx.relay.url, ice: ctx.turn.ice } });
  const t = teacher.page;
  await t.getByTestId('open-rail-debate').click();
  await t.getByTestId('field-opening.specify_topic').uncheck();
  await t.getByTestId('field-opening.describe_characters').uncheck();
  await t.getByTestId('field-max_turns').fill('3');
  await t.getByTestId('seat-0').check();
  await t.getByTestId('seat-1').check();
  await t.getByTestId('speed').selectOption('0');
  await t.getByTestId('room-open').click();
  const link = await t.getByTestId('room-link').getAttribute('href');
  assert.match(link, /\/phone\.html#k=[A-Za-z0-9_-]{22}&relay=ws%3A%2F%2F127\.0\.0\.1%3A\d+&ice=turn%3Aagora%3Aagora%40127\.0\.0\.1%3A\d+%20only$/);
  const code = await t.getByTestId('room-code').textContent();
  assert.match(code, /^[A-Z2-9]{6}$/);
  assert.equal(await t.locator('[data-testid=room-qr] svg').count(), 1);
  // Before anyone joins, the roster says whether phones can: here the relay answers.
  await waitForText(t.getByTestId('room-waiting'), 'No phone has joined yet: students join with the code or the link above.', 15000);

  const ann = await joinAs(link, 'Ann');
  const ben = await joinAs(link, 'Ben');
  const cy = await joinAs(link, 'Cy');
  assert.equal(await ann.page.getByTestId('phone-code').textContent(), code);
  await eventually(async () => assert.equal(await t.getByTestId('room-student').count(), 3));

  // The teacher looks at the gallery and comes back: the room's panel is as it was, its code and
  // its three students still shown (the stage stays on the page behind the gallery).
  await t.getByTestId('to-gallery').click();
  await t.getByTestId('start').waitFor();
  assert.equal(await t.getByTestId('room-code').isVisible(), false);
  await t.getByTestId('to-stage').click();
  await t.getByTestId('room-code').waitFor();
  assert.equal(await t.getByTestId('room-code').textContent(), code);
  assert.equal(await t.getByTestId('room-student').count(), 3);

  // Ann and Ben pick their seats; Cy stays in the audience.
  await ann.page.getByRole('button', { name: 'Donald Trump' }).first().click();
  await eventually(async () => assert.match(await ann.page.getByTestId('phone-who').textContent(), /you play Donald Trump/));
  await ben.page.locator('[data-testid="take-Kanye West"]').click();
  await eventually(async () => assert.match(await ben.page.getByTestId('phone-who').textContent(), /you play Kanye West/));
  assert.equal(await cy.page.locator('[data-testid="take-Donald Trump"]').count(), 0, 'a taken seat is not offered');

  // A stranger who knows where the room meets, but not its secret, is refused and reported.
  assert.equal(codeOf(secretOf(link)), code, 'the code is the secret\'s');
  const stranger = forger(ctx.relay.url, topicOf(secretOf(link)), code);
  try {
    await stranger.sent;
    await eventually(async () => assert.match(await t.getByTestId('room-refused').textContent(), /not signed with the room's secret/), { timeout: 30000 });
  } finally {
    stranger.child.kill();
  }

  // Cy holds a small phone: the conversation will outgrow its box there.
  await cy.page.setViewportSize({ width: 390, height: 600 });
  await t.getByTestId('run').click();
  const finished = async () => (await t.getByTestId('status').textContent()).startsWith('Finished');
  // Cy votes and proposes once the run is on; the teacher accepts and gives the floor.
  await cy.page.locator('[data-testid="vote-Elizabeth Warren"]').click();
  await cy.page.getByTestId('phone-propose').fill('What about freight trains?');
  await cy.page.locator('[data-testid=phone-propose-send]').click();
  await t.getByTestId('room-proposal').waitFor({ timeout: 15000 });
  await t.locator('[data-testid=room-accept]').click();
  await eventually(async () => assert.match(await t.getByTestId('room-tally').textContent(), /Elizabeth Warren: 1/), { timeout: 15000 });
  await eventually(async () => assert.match(await ann.page.getByTestId('phone-vote').textContent(), /Elizabeth Warren \(1\)/));
  await t.getByTestId('room').screenshot({ path: join(root, 'tests', 'artifacts', 'room-panel-1280.png') });
  await t.getByTestId('room-give-floor').click();

  // Ann's phone is closed while a question waits for her, and opened again from its link.
  let reopened = false;
  let annPage = ann.page;
  const reopen = async () => {
    if (reopened) return false;
    reopened = true;
    const state = await ann.context.storageState();
    await ann.context.close();
    await eventually(async () => assert.equal(await t.getByTestId('room-away').count(), 1), { timeout: 30000 });
    assert.match(await t.getByTestId('room-seat-away').textContent(), /Ann \(Donald Trump\)/);
    const back = await joinAs(link, 'Ann', state);
    annPage = back.page;
    assert.match(await annPage.getByTestId('phone-who').textContent(), /Ann.*you play Donald Trump/);
    await eventually(async () => assert.equal(await t.getByTestId('room-seat-away').count(), 0));
    await annPage.getByTestId('seat').waitFor({ timeout: 30000 });
    await answerSeat(annPage, 'Ann', 6, finished);
    return true;
  };
  await Promise.all([
    answerSeat(ann.page, 'Ann', 8, async () => reopened || finished(), reopen),
    answerSeat(ben.page, 'Ben', 3, finished),
    waitForStatus(t, 'Finished', 120000),
  ]);
  await waitForStatus(t, 'Finished');

  // Every connection that carried the class went over loopback.
  for (const page of [t, annPage, ben.page, cy.page]) {
    const pairs = await selectedPairs(page);
    assert.ok(pairs.length > 0, 'a connection was made');
    for (const [local, remote] of pairs) assert.deepEqual([local, remote], ['127.0.0.1', '127.0.0.1']);
  }

  // The phones saw the conversation the teacher's page saw.
  const spoken = await t.getByTestId('message').count();
  await eventually(async () => assert.equal(await cy.page.getByTestId('phone-message').count(), spoken));
  // On the phone the conversation scrolls in its own box, kept at its newest message.
  await eventually(async () => {
    const box = await cy.page.getByTestId('phone-log').evaluate((el) => ({ top: el.scrollTop, seen: el.clientHeight, all: el.scrollHeight, window: innerHeight }));
    assert.ok(box.seen <= box.window * 0.46, JSON.stringify(box));
    assert.ok(box.all > box.seen, `the conversation overflows its box: ${JSON.stringify(box)}`);
    assert.ok(box.top + box.seen >= box.all - 2, `at its newest message: ${JSON.stringify(box)}`);
  });

  const [download] = await Promise.all([t.waitForEvent('download'), t.getByTestId('export-json').click()]);
  const events = JSON.parse(readFileSync(await download.path(), 'utf8')).events;
  const answered = ofType(events, 'model_call').filter((e) => e.human);
  assert.ok(answered.length >= 4, `${answered.length} answers; seats ${JSON.stringify(events[0].scenario.seats)}; ${ofType(events, "message").length} messages; finished ${JSON.stringify(ofType(events, "run_finished"))}`);
  for (const e of answered) {
    assert.equal(e.by, e.agent === 'Donald Trump' ? 'Ann' : 'Ben', JSON.stringify(e).slice(0, 200));
  }
  assert.ok(answered.some((e) => e.purpose === 'speech' || e.purpose === 'speak'), 'a speech was answered');
  const votes = ofType(events, 'floor_vote');
  assert.deepEqual(votes.map((v) => [v.by, v.agent]), [['Cy', 'Elizabeth Warren']]);
  const interjections = ofType(events, 'message').filter((m) => m.kind === 'injected' && m.speaker !== 'Debate Moderator');
  assert.deepEqual(interjections.map((m) => [m.speaker, m.text]), [['Cy', 'What about freight trains?']]);
  assert.equal(ofType(events, 'floor_given')[0]?.agent, 'Elizabeth Warren');
  await screenshot(t, 'room-teacher-1280');
  await screenshot(cy.page, 'room-phone-390');

  // The replay shows who said each seat's speeches.
  await t.getByTestId('import').setInputFiles(await download.path());
  await waitForStatus(t, 'Paused · turn 0 · replay');
  await t.getByTestId('run').click();
  await waitForStatus(t, 'Finished');
  const student = { 'Donald Trump': 'Ann', 'Kanye West': 'Ben' };
  const expected = ofType(events, 'message').filter((m) => m.kind === 'agent' && student[m.speaker]).map((m) => student[m.speaker]);
  assert.ok(expected.length > 0, 'a student spoke');
  await eventually(async () => assert.deepEqual(await t.getByTestId('you').allTextContents(), expected));
  assert.deepEqual([...teacher.errors, ...cy.errors, ...ben.errors], []);
});

roomTest('the room meets where its setting says: a new relay gives a new link, which a phone joins', async () => {
  const other = await startRelay();
  try {
    const teacher = await open(ctx.server.url, { viewport: { width: 1024, height: 768 } }, { settings: { relay: ctx.relay.url, ice: ctx.turn.ice } });
    const t = teacher.page;
    await t.getByTestId('open-rail-debate').click();
    await t.getByTestId('room-open').click();
    const first = await t.getByTestId('room-link').getAttribute('href');
    assert.ok(first.includes(encodeURIComponent(ctx.relay.url)));
    await t.getByText('Where the room meets').click();
    await t.getByTestId('room-relay').fill(other.url);
    await t.getByTestId('room-settings-use').click();
    await eventually(async () => assert.notEqual(await t.getByTestId('room-link').getAttribute('href'), first));
    const link = await t.getByTestId('room-link').getAttribute('href');
    assert.ok(link.includes(encodeURIComponent(other.url)), link);
    assert.equal(await t.getByTestId('room-relay').inputValue(), other.url);
    const phone = await joinAs(link, 'Dee');
    await eventually(async () => assert.equal(await t.getByTestId('room-student').count(), 1));
    assert.match(await phone.page.getByTestId('phone-who').textContent(), /Dee, you are in the audience/);
    // Kept for the next room, in this browser.
    const kept = await t.evaluate(() => JSON.parse(localStorage.getItem('agora.room')));
    assert.equal(kept.relay, other.url);
    // Closed: the phone is told and can do no more; the teacher can open a new room, with a new link.
    await t.getByTestId('room-close').click();
    await waitForText(phone.page.getByTestId('phone-ended'), /The teacher closed the room/);
    assert.equal(await phone.page.getByTestId('phone-propose').count(), 0);
    await waitForText(t.getByTestId('room-closed'), /The room is closed/);
    assert.equal(await t.getByTestId('room-link').count(), 0);
    await t.getByTestId('room-open').click();
    await eventually(async () => assert.ok(await t.getByTestId('room-link').count() === 1));
    const next = await t.getByTestId('room-link').getAttribute('href');
    assert.notEqual(next, link);
    const eve = await joinAs(next, 'Eve');
    await eventually(async () => assert.equal(await t.getByTestId('room-student').count(), 1));
    assert.match(await t.getByTestId('room-students').textContent(), /Eve/);
    assert.match(await eve.page.getByTestId('phone-who').textContent(), /Eve, you are in the audience/);
    assert.deepEqual([...teacher.errors, ...phone.errors, ...eve.errors], []);
    await teacher.context.close();
    await phone.context.close();
    await eve.context.close();
  } finally {
    other.close();
  }
});

roomTest("a student who presses Join before the room's connection is ready joins once it is", async () => {
  const teacher = await open(ctx.server.url, { viewport: { width: 1280, height: 720 } }, { settings: { relay: ctx.relay.url, ice: ctx.turn.ice } });
  const t = teacher.page;
  await t.getByTestId('open-rail-debate').click();
  await t.getByTestId('room-open').click();
  const link = await t.getByTestId('room-link').getAttribute('href');
  // A slow network: the room's transport arrives well after the form to join is on screen.
  const phone = await open('about:blank', PHONE);
  await phone.context.route('**/room/net.js', async (route) => {
    await new Promise((ok) => setTimeout(ok, 3000));
    await route.continue();
  });
  await phone.page.goto(link);
  await phone.page.getByTestId('phone-name').fill('Fay');
  await phone.page.getByTestId('phone-join').click();
  // The transport arrives 3 s late, then meets the teacher's page over the relay and WebRTC.
  await waitForText(phone.page.getByTestId('phone-who'), /Fay, you are in the audience/, 30000);
  await eventually(async () => assert.match(await t.getByTestId('room-students').textContent(), /Fay/));
  assert.deepEqual([...teacher.errors, ...phone.errors], []);
  await teacher.context.close();
  await phone.context.close();
});

/** A port on 127.0.0.1 that nothing listens on (a relay there refuses every connection). */
async function closedPort() {
  const server = createServer();
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  await new Promise((ok) => server.close(ok));
  return port;
}

/** A server on `port` that takes connections and never answers them (as a firewall that drops
 * packets looks from a browser), until `forward(to)`: from then on the connections it takes go on
 * to port `to`, while those it took before stay unanswered. */
async function silentServer(port) {
  const sockets = new Set();
  let target = null;
  const server = createServer((socket) => {
    socket.on('error', () => {});
    if (target === null) {
      sockets.add(socket);
      return;
    }
    const onward = connect(target, '127.0.0.1');
    onward.on('error', () => socket.destroy());
    socket.pipe(onward).pipe(socket);
  });
  await new Promise((ok) => server.listen(port, '127.0.0.1', ok));
  return {
    forward: (to) => { target = to; },
    close: () => new Promise((ok) => { sockets.forEach((s) => s.destroy()); server.close(ok); }),
  };
}

for (const kind of ['refuses connections', 'never answers']) {
  roomTest(`a meeting point that ${kind}: within seconds the teacher and the phone say so and what to do, and the room meets once it answers`, async () => {
    const port = await closedPort();
    const silent = kind === 'never answers' ? await silentServer(port) : null;
    const relay = `ws://127.0.0.1:${port}`;
    const teacher = await open(ctx.server.url, { viewport: { width: 1280, height: 720 } }, { settings: { relay, ice: ctx.turn.ice } });
    const t = teacher.page;
    await t.getByTestId('open-rail-debate').click();
    await t.getByTestId('room-open').click();
    // Until the meeting point has had its chance, the roster says the room is connecting; then
    // the alert below says why no phone can join, and the roster says nothing more.
    assert.match(await t.getByTestId('room-waiting').textContent(), /^Connecting to the meeting points/);
    const link = await t.getByTestId('room-link').getAttribute('href');
    const phone = await open(link, PHONE);
    await phone.page.getByTestId('phone-name').fill('Gus');
    await phone.page.getByTestId('phone-join').click();
    // About ten seconds from the room's opening (seven without an open relay, then the next look).
    await waitForText(t.getByTestId('room-unreachable'), /Phones cannot reach this room: its meeting point ws:\/\/127\.0\.0\.1:\d+ does not answer/, 11000);
    const said = await t.getByTestId('room-unreachable').textContent();
    assert.equal(await t.getByTestId('room-waiting').count(), 0);
    assert.ok(said.includes(relay), said);
    assert.match(said, /the network blocks it/);
    assert.match(said, /agora relay --host 0\.0\.0\.0 --port 7447/);
    assert.match(said, /Still trying/);
    await waitForText(phone.page.getByTestId('phone-unreachable'), /This phone cannot reach the class room\. The network probably blocks it.*try another network.*tell your teacher.*Still trying/, 11000);
    await screenshot(phone.page, `room-unreachable-phone-${kind.split(' ')[0]}`);
    assert.equal(await phone.page.getByTestId('phone-joining').textContent(), 'Joining…');
    // The meeting point starts answering: both stop warning, and the phone joins as it asked.
    // Where connections went unanswered, the ones already made stay so: the room must give them
    // up and connect anew.
    const started = await startRelay(silent ? 0 : port);
    silent?.forward(Number(new URL(started.url).port));
    try {
      await waitForText(phone.page.getByTestId('phone-who'), /Gus, you are in the audience/, 40000);
      await eventually(async () => assert.match(await t.getByTestId('room-students').textContent(), /Gus/), { timeout: 20000 });
      await eventually(async () => assert.equal(await t.getByTestId('room-unreachable').count(), 0), { timeout: 20000 });
      await eventually(async () => assert.equal(await phone.page.getByTestId('phone-unreachable').count(), 0), { timeout: 20000 });
      assert.deepEqual([...teacher.errors, ...phone.errors], []);
    } finally {
      started.close();
      await silent?.close();
    }
  });
}

roomTest('where the public meeting points are blocked, the teacher is told to use another network or run agora relay', async () => {
  const teacher = await open(ctx.server.url, { viewport: { width: 1024, height: 768 } }, { settings: { relay: '', ice: ctx.turn.ice } });
  const t = teacher.page;
  // A school's firewall, as the page sees it: every connection to a relay is closed at once.
  const asked = [];
  await teacher.context.routeWebSocket(() => true, (ws) => {
    asked.push(new URL(ws.url()).host);
    ws.close();
  });
  await t.getByTestId('open-rail-debate').click();
  await t.getByTestId('room-open').click();
  await waitForText(t.getByTestId('room-unreachable'), /Phones cannot reach this room: the public meeting points Agora uses to connect phones do not answer from this computer\. This usually means the network blocks them/, 11000);
  const said = await t.getByTestId('room-unreachable').textContent();
  assert.match(said, /Quick fix: connect this computer and the phones to another network, such as a phone's hotspot/);
  assert.match(said, /run agora relay --host 0\.0\.0\.0 --port 7447 in a terminal.*ws:\/\/192\.168\.1\.20:7447.*Use these \(a new link\)/);
  assert.match(said, /Still trying every few seconds/);
  // Still trying: the relays are asked again, well after trystero alone would have backed off.
  const relays = new Set(asked);
  assert.ok(relays.size >= 2, `the page asked the public relays: ${[...relays]}`);
  const before = asked.length;
  await eventually(async () => assert.ok(asked.length >= before + relays.size, `${asked.length - before} tries since the warning`), { timeout: 15000 });
  await screenshot(t, 'room-unreachable-teacher');
  assert.deepEqual(teacher.errors, []);
  await teacher.context.close();
});

roomTest('a damaged join link says so on the phone', async () => {
  for (const hash of ['#k=not-a-secret', '#relay=ws%3A%2F%2F127.0.0.1%3A1', '']) {
    const phone = await open(`${ctx.server.url}phone.html${hash}`, PHONE);
    await waitForText(phone.page.getByTestId('phone-error'), /This room cannot be opened: the room's link is damaged: its secret is (not readable|the wrong length)\. Ask your teacher for the link again\./);
    await phone.context.close();
  }
});
