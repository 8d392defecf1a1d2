// A class of headless phones in a room (issue 40): the teacher's page in headless Chromium opens
// a room (through agora relay and a TURN server on 127.0.0.1, nothing else), N phones join
// (room-phone.mjs, node processes speaking the room's protocol over node-datachannel's WebRTC),
// and the rail debate runs on the demo model at its "Normal" speed. Prints how long each batch of
// the teacher's events took to reach every phone (from the page's `agora:flush` mark to each
// phone's receipt, on this machine's one clock) and the teacher page's main-thread time (Chrome
// DevTools' TaskDuration) with the class joined and idle, and while the run plays.
//
//   node tests/bench/room-phones.mjs          # 30 phones, 8 turns
//   BENCH_PHONES=10 BENCH_TURNS=4 node tests/bench/room-phones.mjs
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { launch, root, serveDist, startRelay, startTurn, waitForStatus } from '../e2e/helpers.mjs';

const PHONES = Number(process.env.BENCH_PHONES ?? 30);
const TURNS = Number(process.env.BENCH_TURNS ?? 8);
const IDLE_MS = 10000;

const server = await serveDist();
const relay = await startRelay();
const turn = await startTurn();
const browser = await launch();
const phones = [];
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  await context.addInitScript((s) => localStorage.setItem('agora.room', s), JSON.stringify({ relay: relay.url, ice: turn.ice }));
  const page = await context.newPage();
  page.setDefaultTimeout(120000);
  await page.goto(server.url);
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('field-max_turns').fill(String(TURNS));
  await page.getByTestId('speed').selectOption('400');
  await page.getByTestId('room-open').click();
  const link = await page.getByTestId('room-link').getAttribute('href');

  const started = Date.now();
  for (let i = 0; i < PHONES; i++) {
    const child = spawn('node', [join(root, 'tests', 'bench', 'room-phone.mjs'), link, `Student ${i + 1}`], { stdio: ['ignore', 'pipe', 'inherit'] });
    const phone = { child, welcomed: null, events: [] };
    createInterface({ input: child.stdout }).on('line', (line) => {
      const m = JSON.parse(line);
      if (m.welcomed) phone.welcomed = m.welcomed;
      if (m.events !== undefined) phone.events.push(m);
    });
    phones.push(phone);
  }
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=room-student]').length === n, PHONES, { timeout: 180000 });
  const joined = phones.map((p) => p.welcomed - started).sort((a, b) => a - b);
  console.log(`${PHONES} phones joined: the last welcomed ${((joined.at(-1)) / 1000).toFixed(1)} s after the first started (median ${(joined[joined.length >> 1] / 1000).toFixed(1)} s)`);

  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const busy = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration').value;
  let t0 = await busy();
  let w0 = Date.now();
  await page.waitForTimeout(IDLE_MS);
  const idle = (await busy() - t0) / ((Date.now() - w0) / 1000);

  for (const p of phones) p.events.length = 0;
  await page.evaluate(() => performance.clearMarks('agora:flush'));
  t0 = await busy();
  w0 = Date.now();
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished', 600000);
  const running = (await busy() - t0) / ((Date.now() - w0) / 1000);
  const marks = await page.evaluate(() => performance.getEntriesByName('agora:flush').map((m) => performance.timeOrigin + m.startTime));
  await page.waitForTimeout(2000);

  // The k-th batch the page recorded is the k-th `events` message each phone heard.
  const delays = [];
  const slowest = [];
  let missing = 0;
  marks.forEach((sent, k) => {
    let worst = 0;
    for (const p of phones) {
      const got = p.events[k];
      if (!got) { missing += 1; continue; }
      const d = got.at - sent;
      delays.push(d);
      worst = Math.max(worst, d);
    }
    slowest.push(worst);
  });
  const pct = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
  console.log(`${marks.length} batches of events in a ${TURNS}-turn run, each to ${PHONES} phones (${delays.length} deliveries, ${missing} missing)`);
  console.log(`teacher's event to a phone: median ${pct(delays, 0.5).toFixed(0)} ms, p95 ${pct(delays, 0.95).toFixed(0)} ms, max ${Math.max(...delays).toFixed(0)} ms`);
  console.log(`teacher's event to every phone (the slowest phone per batch): median ${pct(slowest, 0.5).toFixed(0)} ms, p95 ${pct(slowest, 0.95).toFixed(0)} ms`);
  console.log(`teacher page's main thread: ${(idle * 100).toFixed(1)} % of a core with ${PHONES} phones joined and idle (${IDLE_MS / 1000} s), ${(running * 100).toFixed(1)} % while the run plays`);
} finally {
  for (const p of phones) p.child.kill();
  await browser.close();
  await server.close();
  relay.close();
  turn.close();
}
