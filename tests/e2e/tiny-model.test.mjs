// The foundation of the in-tab model (issue 14), checked before the app uses it: the tiny random
// model that tests/tiny-model/make_tiny_gguf.py writes loads in the pinned wllama build in headless
// Chromium from a loopback server, a grammar holds even random weights to an orchestration format,
// and the seed makes a reply repeatable. What a real model would say is not asserted: random
// weights only show what a grammar and a seed guarantee. (wllama itself accepts a file that is
// not a model and fails only at the first call, so the app will have to check files itself.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { launch, root } from './helpers.mjs';

const esm = join(root, 'tests', 'node_modules', '@wllama', 'wllama', 'esm');
const dir = mkdtempSync(join(tmpdir(), 'agora-tiny-'));
const model = join(dir, 'tiny.gguf');
const ctx = {};

const page = `<!doctype html><meta charset="utf-8"><script type="module">
import { Wllama } from './esm/index.js';
window.load = async (file) => {
  const w = new Wllama({ default: './esm/wasm/wllama.wasm' }, { suppressNativeLog: true });
  const progress = [];
  await w.loadModelFromUrl(new URL(file, location.href).href, {
    n_ctx: 512, n_threads: 1, n_gpu_layers: 0, useCache: false,
    progressCallback: ({ loaded, total }) => progress.push([loaded, total]),
  });
  window.w = w;
  return progress;
};
window.ask = async (grammar, seed) => {
  const r = await window.w.createChatCompletion({
    messages: [{ role: 'system', content: 'Rate the last message.' }, { role: 'user', content: 'Bid now.' }],
    max_tokens: 12, temperature: 1.0, seed, grammar,
  });
  return r.choices[0].message.content;
};
</script>`;

before(async () => {
  execFileSync('python3', [join(root, 'tests', 'tiny-model', 'make_tiny_gguf.py'), model]);
  const files = {
    '/tiny.gguf': readFileSync(model),
  };
  const types = { '.js': 'text/javascript', '.wasm': 'application/wasm' };
  ctx.server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    try {
      if (path === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(page);
      if (files[path]) {
        const headers = { 'content-type': 'application/octet-stream', 'content-length': files[path].length };
        return res.writeHead(200, headers).end(files[path]);
      }
      if (path.startsWith('/esm/')) {
        const body = readFileSync(join(esm, path.slice('/esm/'.length)));
        return res.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' }).end(body);
      }
    } catch {}
    res.writeHead(404).end();
  }).listen(0, '127.0.0.1');
  await new Promise((r) => ctx.server.once('listening', r));
  ctx.url = `http://127.0.0.1:${ctx.server.address().port}/`;
  ctx.browser = await launch();
});

after(async () => {
  await ctx.browser?.close();
  ctx.server?.close();
});

test('the tiny random model loads with progress and a grammar holds it to each orchestration format', async () => {
  const tab = await ctx.browser.newPage();
  const errors = [];
  tab.on('pageerror', (e) => errors.push(String(e)));
  await tab.goto(ctx.url);
  await tab.waitForFunction(() => typeof window.load === 'function');
  const progress = await tab.evaluate(() => window.load('tiny.gguf'));
  assert.ok(progress.length > 0, 'progress was reported');
  const [loaded, total] = progress.at(-1);
  assert.equal(loaded, total, 'the last report is the whole file');
  assert.equal(total, readFileSync(model).length);

  const formats = [
    // A bid within 1 to 10, as seed 000 asks for it.
    ['root ::= "<" [1-9] ">" | "<10>"', /^<([1-9]|10)>$/],
    // A director index among three speakers.
    ['root ::= "<" [0-2] ">"', /^<[0-2]>$/],
    // A handoff or selector naming one of the agents.
    ['root ::= "Proponent" | "Opponent" | "Neutral"', /^(Proponent|Opponent|Neutral)$/],
  ];
  for (const [grammar, shape] of formats) {
    const replies = [];
    for (let seed = 1; seed <= 6; seed++) replies.push(await tab.evaluate(([g, s]) => window.ask(g, s), [grammar, seed]));
    for (const r of replies) assert.match(r, shape, `${grammar}: ${JSON.stringify(replies)}`);
    const again = await tab.evaluate(([g, s]) => window.ask(g, s), [grammar, 3]);
    assert.equal(again, replies[2], 'the same seed gives the same reply');
  }
  assert.deepEqual(errors, []);
  await tab.close();
});
