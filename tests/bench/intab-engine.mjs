// wllama itself, without the app, on SmolLM2-135M (smollm2.mjs fetches it once into
// target/bench/): how fast it reads a prompt under different load settings, whether calls of
// several seats run together are faster than one after another, and how much of a seat's prompt
// the engine keeps from that seat's earlier call, and the Q4_1 file against the same weights read
// as Q5_1. Each seat's prompt is its own system message and a history that grows by a turn; the
// calls write 4 tokens (32 where writing is timed too), so the time is mostly reading.
//
//   node tests/bench/intab-engine.mjs                        # the figures in docs/benchmarks.md
//   BENCH_ISOLATED=0 node tests/bench/intab-engine.mjs       # one thread: a page without COOP/COEP
//   BENCH_CASES='[{"label":"x","load":{"n_ubatch":64}}]' node tests/bench/intab-engine.mjs
import { launch } from '../e2e/helpers.mjs';
import { ISOLATED, serveBench, smollm2 } from './smollm2.mjs';

const model = smollm2();
const THREADS = ISOLATED ? 2 : 1;
const CASES = JSON.parse(process.env.BENCH_CASES ?? JSON.stringify([
  { label: 'four seats in turn (A, B, C, D twice): what each keeps', plan: [['A', 1], ['B', 1], ['C', 1], ['D', 1], ['A', 2], ['B', 2], ['C', 2], ['D', 2]] },
  { label: 'the file as it is (Q4_1: no SIMD code in llama.cpp\'s WebAssembly build)', plan: [['A', 3]], write: 32 },
  { label: 'Q4_1 read as Q5_1, as the app loads it (store.js forEngine)', repack: true, plan: [['A', 3]], write: 32 },
  { label: 'n_batch and n_ubatch 8', load: { n_batch: 8, n_ubatch: 8 }, plan: [['A', 2]] },
  { label: 'n_batch and n_ubatch 64', load: { n_batch: 64, n_ubatch: 64 }, plan: [['A', 2]] },
  { label: 'n_batch 2048, n_ubatch 512 (llama.cpp\'s defaults)', plan: [['A', 2]] },
  { label: 'flash attention off', load: { flash_attn: false }, plan: [['A', 2]] },
  { label: 'three seats one after another (3 sequences)', load: { n_parallel: 3 }, plan: [['A', 1], ['B', 1], ['C', 1]] },
  { label: 'three seats at once (3 sequences, one batch)', load: { n_parallel: 3 }, together: [['A', 1], ['B', 1], ['C', 1]] },
]));

const site = await serveBench((req, res, path) => {
  if (path === '/bench/model.gguf') return res.writeHead(200, { 'content-length': model.length }).end(model), true;
  if (path === '/bench/') return res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>bench</title>'), true;
  return path;
});
const browser = await launch();
const page = await browser.newPage();
await page.goto(`${site.url}/bench/`);
console.log(`wllama on SmolLM2-135M Q4_1, ${THREADS} thread(s), page ${ISOLATED ? '' : 'not '}cross-origin isolated:`);
for (const c of CASES) {
  const out = await page.evaluate(async ({ c, threads }) => {
    const { Wllama } = await import('/intab/wllama/index.min.js');
    const w = new Wllama({ default: '/intab/wllama/wllama.wasm' }, { suppressNativeLog: true });
    let file = new File([await (await fetch('/bench/model.gguf')).blob()], 'model.gguf');
    if (c.repack) {
      const { check, forEngine } = await import('/intab/store.js');
      file = (await forEngine(file, await check(file))).model;
    }
    await w.loadModel([file], {
      n_ctx: 2048, n_threads: threads, n_gpu_layers: 0, n_parallel: 1,
      skip_chat_parsing: true, reasoning_format: 'none', prefill_assistant: false, ...c.load,
    });
    const line = 'The rail line between the two cities will carry passengers at high speed and cost the public a great deal of money. ';
    const prompt = (who, turns) => [
      { role: 'system', content: `You are ${who}, a debater with views of your own on rail.` },
      { role: 'user', content: `${Array.from({ length: turns }, (_, i) => `Turn ${i}: ${line.repeat(2)}`).join('\n')} Now, ${who}, bid 1 to 10.` },
    ];
    const call = async ([who, turns]) => {
      const r = await w.createChatCompletion({ messages: prompt(who, turns), max_tokens: c.write ?? 4, seed: 1, temperature: 1, stream: false });
      const t = r.timings;
      return { who, turns, read: t.prompt_n, kept: t.cache_n, ms: t.prompt_ms, written: t.predicted_n, writeMs: t.predicted_ms };
    };
    const t0 = performance.now();
    const calls = c.together ? await Promise.all(c.together.map(call)) : [];
    for (const p of c.plan ?? []) calls.push(await call(p));
    const wall = performance.now() - t0;
    await w.exit();
    return { calls, wall };
  }, { c, threads: THREADS });
  const read = out.calls.reduce((a, x) => a + x.read, 0);
  const ms = out.calls.reduce((a, x) => a + x.ms, 0);
  const written = out.calls.reduce((a, x) => a + x.written, 0);
  const writeMs = out.calls.reduce((a, x) => a + x.writeMs, 0);
  const writing = c.write ? `, ${(written / (writeMs / 1000)).toFixed(1)} written` : '';
  console.log(`${c.label}: ${(out.wall / 1000).toFixed(1)} s in all; ${(read / (ms / 1000)).toFixed(1)} tokens a second read${writing}`);
  for (const x of out.calls) console.log(`  ${x.who}, ${x.turns} turn(s): read ${x.read}, kept ${x.kept}, ${(x.ms / 1000).toFixed(1)} s`);
}
await browser.close();
await site.close();
