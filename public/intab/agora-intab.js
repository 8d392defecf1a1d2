// The in-tab model's engine, fetched only when a scenario runs on it: wllama (llama.cpp compiled
// to WebAssembly; inference runs in its own Web Worker) behind the few calls Agora makes, and the
// model files kept in the browser's private file system (OPFS) so a second visit starts at once.
// A download resumes where the server allows it (HTTP Range); every file is checked as GGUF
// before it is handed to the engine, which would otherwise accept a broken file and fail later.
import { Wllama } from './wllama/index.min.js';

const WASM = new URL('wllama/wllama.wasm', import.meta.url).href;
const DIR = 'agora-models';

let engine = null; // { w, source, threads, multithread }

/** What this browser offers the engine. */
export function environment() {
  let memory64 = false;
  try {
    new WebAssembly.Memory({ initial: 1n, maximum: 1n, address: 'i64' });
    memory64 = true;
  } catch {}
  const jspi = typeof WebAssembly.Suspending === 'function';
  const storage = !!navigator.storage?.getDirectory;
  const isolated = !!globalThis.crossOriginIsolated;
  const missing = [];
  if (!jspi) missing.push('WebAssembly JavaScript Promise Integration');
  if (!memory64) missing.push('64-bit WebAssembly memory');
  return {
    supported: missing.length === 0,
    missing: missing.join(' and '),
    storage,
    isolated,
    // Threads need shared memory, which a page has only when cross-origin isolated.
    threads: isolated ? Math.max(2, Math.min(8, (navigator.hardwareConcurrency || 2) - 1)) : 1,
    device_memory_gb: navigator.deviceMemory ?? 0,
  };
}

const dir = () => navigator.storage.getDirectory().then((root) => root.getDirectoryHandle(DIR, { create: true }));

/** A file name for `url` in the store: readable, and unique by a hash of the whole address. */
async function nameOf(url) {
  const absolute = new URL(url, location.href).href;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(absolute)));
  const hash = Array.from(digest.slice(0, 6), (b) => b.toString(16).padStart(2, '0')).join('');
  const base = absolute.split(/[?#]/)[0].split('/').pop().replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 80);
  return `${hash}-${base}`;
}

async function handle(name, create = false) {
  try {
    return await (await dir()).getFileHandle(name, { create });
  } catch {
    return null;
  }
}

async function readMeta(name) {
  const h = await handle(`${name}.json`);
  if (!h) return null;
  try {
    return JSON.parse(await (await h.getFile()).text());
  } catch {
    return null;
  }
}

async function writeMeta(name, meta) {
  const w = await (await handle(`${name}.json`, true)).createWritable();
  await w.write(JSON.stringify(meta));
  await w.close();
}

/** The models kept in this browser: { url, bytes, total, complete } each. */
export async function stored() {
  if (!navigator.storage?.getDirectory) return [];
  const out = [];
  for await (const [name, h] of (await dir()).entries()) {
    if (name.endsWith('.json') || h.kind !== 'file') continue;
    const meta = await readMeta(name);
    const bytes = (await h.getFile()).size;
    out.push({ url: meta?.url ?? '', bytes, total: meta?.total ?? 0, complete: !!meta?.complete });
  }
  return out;
}

/** Deletes the copy of `url` kept in this browser. */
export async function remove(url) {
  const name = await nameOf(url);
  const d = await dir();
  for (const n of [name, `${name}.json`]) {
    try {
      await d.removeEntry(n);
    } catch {}
  }
}

/**
 * Fetches `url` into the store, going on from what an earlier, cut-off download left when the
 * server honours a Range request. `progress(loaded, total)`; `signal` cancels (what arrived is
 * kept for next time).
 */
export async function download(url, progress, signal) {
  const name = await nameOf(url);
  const meta = (await readMeta(name)) ?? { url, total: 0, complete: false };
  const h = await handle(name, true);
  if (meta.complete) {
    const size = (await h.getFile()).size;
    if (size === meta.total) return size;
  }
  let have = (await h.getFile()).size;
  const headers = have > 0 ? { Range: `bytes=${have}-` } : {};
  let response;
  try {
    response = await fetch(url, { headers, signal });
  } catch (e) {
    if (signal?.aborted) throw new Error('cancelled');
    throw new Error(`the download could not start (${e.message}); check the connection and try again`);
  }
  if (response.status === 416 && meta.total > 0 && have === meta.total) {
    await writeMeta(name, { ...meta, complete: true });
    return have;
  }
  if (!response.ok || !response.body) throw new Error(`the server answered HTTP ${response.status} for ${url}`);
  const resumed = response.status === 206;
  if (!resumed) have = 0;
  const length = Number(response.headers.get('content-length') || 0);
  const total = length > 0 ? have + length : 0;
  await writeMeta(name, { url, total, complete: false });
  const out = await h.createWritable({ keepExistingData: resumed });
  if (resumed) await out.seek(have);
  else await out.truncate(0);
  let loaded = have;
  let last = 0;
  progress?.(loaded, total);
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      await out.write(value);
      loaded += value.byteLength;
      const now = performance.now();
      if (now - last > 100) {
        last = now;
        progress?.(loaded, total);
      }
    }
  } catch (e) {
    await out.close();
    if (signal?.aborted) throw new Error('cancelled');
    throw cutOff(loaded, total);
  }
  await out.close();
  if (total && loaded !== total) throw cutOff(loaded, total);
  await writeMeta(name, { url, total: loaded, complete: true });
  progress?.(loaded, loaded);
  return loaded;
}

const mb = (n) => `${(n / 1048576).toFixed(1)} MB`;
const cutOff = (loaded, total) =>
  new Error(`the download was cut off at ${mb(loaded)} of ${total ? mb(total) : 'an unknown size'}; press Download again to go on from there`);

/** The whole, downloaded copy of `url`, or null. */
async function open(url) {
  const name = await nameOf(url);
  const meta = await readMeta(name);
  const h = await handle(name);
  if (!h || !meta?.complete) return null;
  return h.getFile();
}

/** Whether a whole copy of `url` is kept here, and its size. */
export async function cached(url) {
  if (!navigator.storage?.getDirectory) return 0;
  const file = await open(url);
  return file ? file.size : 0;
}

// GGUF value types and the byte size of the fixed-size ones.
const FIXED = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
// ggml tensor types: [elements per block, bytes per block].
const BLOCKS = {
  0: [1, 4], 1: [1, 2], 2: [32, 18], 3: [32, 20], 6: [32, 22], 7: [32, 24], 8: [32, 34], 9: [32, 36],
  10: [256, 84], 11: [256, 110], 12: [256, 144], 13: [256, 176], 14: [256, 210], 15: [256, 292],
  16: [256, 66], 17: [256, 74], 18: [256, 98], 19: [256, 50], 20: [32, 18], 21: [256, 110],
  22: [256, 82], 23: [256, 136], 24: [1, 1], 25: [1, 2], 26: [1, 4], 27: [1, 8], 28: [1, 8],
  29: [256, 56], 30: [1, 2], 34: [256, 54], 35: [256, 66], 39: [32, 17],
};

class Short extends Error {}

/** Reads a GGUF header from `bytes` (a prefix of a file of `size` bytes). */
function readHeader(bytes, size) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const need = (n) => {
    if (at + n > bytes.byteLength) throw new Short();
  };
  const u32 = () => (need(4), (at += 4), view.getUint32(at - 4, true));
  const u64 = () => (need(8), (at += 8), Number(view.getBigUint64(at - 8, true)));
  const str = () => {
    const n = u64();
    need(n);
    at += n;
    return new TextDecoder().decode(bytes.subarray(at - n, at));
  };
  const skip = (type) => {
    if (type in FIXED) return need(FIXED[type]), (at += FIXED[type]), undefined;
    if (type === 8) return str();
    if (type === 9) {
      const inner = u32();
      const n = u64();
      if (inner in FIXED) return need(n * FIXED[inner]), (at += n * FIXED[inner]), undefined;
      for (let i = 0; i < n; i++) skip(inner);
      return undefined;
    }
    throw new Error(`it has a metadata value of unknown type ${type}`);
  };
  if (size < 24 || u32() !== 0x46554747) throw new Error('it is not a GGUF model file (it does not start with "GGUF")');
  const version = u32();
  if (version < 2 || version > 3) throw new Error(`it is GGUF version ${version}; the engine reads versions 2 and 3`);
  const tensors = u64();
  const kvs = u64();
  if (tensors > 1e6 || kvs > 1e6) throw new Error('its header is damaged (impossible counts)');
  let alignment = 32;
  let architecture = '';
  for (let i = 0; i < kvs; i++) {
    const key = str();
    const type = u32();
    if (key === 'general.alignment' && type === 4) alignment = u32();
    else if (key === 'general.architecture' && type === 8) architecture = str();
    else skip(type);
  }
  let end = 0;
  for (let i = 0; i < tensors; i++) {
    str();
    const dims = u32();
    if (dims > 8) throw new Error('its header is damaged (a tensor with more than 8 dimensions)');
    let count = 1;
    for (let d = 0; d < dims; d++) count *= u64();
    const type = u32();
    const offset = u64();
    const block = BLOCKS[type];
    end = Math.max(end, offset + (block ? Math.ceil(count / block[0]) * block[1] : 0));
  }
  const start = Math.ceil(at / alignment) * alignment;
  if (start + end > size) {
    throw new Error(`it is cut short: its weights need ${mb(start + end)} but the file has ${mb(size)} (a download cut off?)`);
  }
  return { version, tensors, architecture };
}

/** Checks that `file` (a Blob) is a whole GGUF model; says what is wrong in words if not. */
export async function check(file) {
  let window = 1 << 20;
  for (;;) {
    const bytes = new Uint8Array(await file.slice(0, Math.min(window, file.size)).arrayBuffer());
    try {
      return readHeader(bytes, file.size);
    } catch (e) {
      if (!(e instanceof Short)) throw e;
      if (window >= file.size) throw new Error('it is cut short inside its header (not a whole GGUF model file)');
      window *= 4;
    }
  }
}

/**
 * Loads a model into the engine: `source` is the address of a downloaded model or a File the
 * user picked. Resolves to what the statistics show: { threads, multithread, architecture }.
 */
export async function load(source, nCtx) {
  const env = environment();
  if (!env.supported) throw new Error(`this browser lacks ${env.missing}, which the in-tab engine needs; use a recent Chrome or Edge`);
  const file = typeof source === 'string' ? await open(source) : source;
  if (!file) throw new Error('the model is not downloaded yet');
  let info;
  try {
    info = await check(file);
  } catch (e) {
    throw new Error(`the file cannot be used: ${e.message}`);
  }
  await unload();
  const w = new Wllama({ default: WASM }, { suppressNativeLog: true });
  try {
    await w.loadModel([file], {
      n_ctx: nCtx, n_threads: env.threads, n_gpu_layers: 0,
      // One sequence at a time: calls queue, and a run's calls never share the context, which
      // also keeps a seeded run repeatable.
      n_parallel: 1,
      // A conversation that ends on an assistant message asks for the next message, as it does
      // of a hosted provider (the handoff method sends such), rather than for more of that one.
      prefill_assistant: false,
      // The reply comes back as written: Agora reads <think> blocks and tool-shaped JSON itself.
      reasoning_format: 'none',
      skip_chat_parsing: true,
    });
  } catch (e) {
    await w.exit().catch(() => {});
    const text = String(e?.message ?? e);
    if (/memory|alloc|OOM/i.test(text)) {
      throw new Error('there is not enough memory to load this model: close other tabs or choose a smaller model');
    }
    throw new Error(`the engine could not load the model: ${text}`);
  }
  engine = { w, source: typeof source === 'string' ? source : source.name, multithread: w.isMultithread() };
  return { threads: env.threads, multithread: engine.multithread, architecture: info.architecture, bytes: file.size };
}

/** Frees the engine and its memory. */
export async function unload() {
  const old = engine;
  engine = null;
  if (old) await old.w.exit().catch(() => {});
}

// The grammar builder: Agora's own Rust (src/bin/agora-shape.rs), a small WebAssembly module
// beside this one, fetched with it.
let shaper = null;
function shapes() {
  shaper ??= import('./agora-shape.js').then(async (m) => {
    await m.default();
    return m;
  }).catch((e) => {
    throw new Error(`the in-tab engine could not be fetched (${e?.message ?? e}); reload the page and try again`);
  });
  shaper.catch(() => { shaper = null; });
  return shaper;
}

/**
 * One chat completion: `req` is { messages, temperature?, seed, max_tokens, reply? } where
 * `reply` is the form the reply must take (Rust's `intab::Reply`), from which the grammar, the
 * token budget and streaming follow; without it, `stream` says whether to stream.
 * `onText(textSoFar)` is called as a streamed reply grows. Resolves to
 * { content, prompt_tokens, completion_tokens, finish_reason, ms, timings }.
 */
export function complete(req, onText, signal) {
  // One call at a time, in the order asked: the engine has one sequence, and two streamed
  // replies interleaved in its worker would wait on each other for ever.
  const turn = queue.then(() => completeNow(req, onText, signal));
  queue = turn.catch(() => {});
  return turn;
}

let queue = Promise.resolve();

async function completeNow(req, onText, signal) {
  if (!engine) throw new Error('the in-tab model is not loaded');
  if (signal?.aborted) throw new Error('cancelled');
  if (typeof req === 'string') req = JSON.parse(req);
  const shape = req.reply
    ? JSON.parse((await shapes()).shape(JSON.stringify({ max_tokens: req.max_tokens ?? null, reply: req.reply })))
    : { grammar: null, max_tokens: req.max_tokens, streams: req.stream };
  const started = performance.now();
  const options = {
    messages: req.messages,
    max_tokens: shape.max_tokens,
    seed: req.seed,
    stream: true,
    abortSignal: signal,
  };
  if (req.temperature != null) options.temperature = req.temperature;
  if (shape.grammar) options.grammar = shape.grammar;
  let content = '';
  let finish = null;
  let usage = null;
  let timings = null;
  try {
    const chunks = await engine.w.createChatCompletion(options);
    for await (const chunk of chunks) {
      const choice = chunk.choices?.[0];
      const piece = choice?.delta?.content;
      if (piece) {
        content += piece;
        if (shape.streams) onText?.(content);
      }
      finish = choice?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
      timings = chunk.timings ?? timings;
    }
  } catch (e) {
    if (signal?.aborted) throw new Error('cancelled');
    const text = String(e?.message ?? e);
    if (/kv_cache_full|context/i.test(text)) {
      // llama.cpp's own advice (a larger context) is not the user's to take here.
      const sizes = /\((\d+) tokens\) exceeds the available context size \((\d+) tokens\)/.exec(text);
      const need = sizes ? ` (this call needs ${sizes[1]} tokens of ${sizes[2]})` : '';
      throw new Error(`the conversation no longer fits the model's context${need}: shorten the topic or the prompts, or lower the word or turn limit`);
    }
    throw new Error(`the in-tab model failed: ${text}`);
  }
  if (signal?.aborted) throw new Error('cancelled');
  return {
    content,
    prompt_tokens: usage?.prompt_tokens ?? 0,
    completion_tokens: usage?.completion_tokens ?? 0,
    finish_reason: finish ?? 'stop',
    ms: performance.now() - started,
    timings,
  };
}

/** A short generation, timed: the speeds the estimate before a run is made from. */
async function warmUp() {
  const out = await complete({
    messages: [{ role: 'user', content: 'The quick brown fox jumps over the lazy dog. '.repeat(6) }],
    max_tokens: 16, seed: 1, temperature: 1, stream: false,
  });
  return { prompt_per_s: out.timings?.prompt_per_second ?? 0, tokens_per_s: out.timings?.predicted_per_second ?? 0 };
}

// The model settings of a scenario on the in-tab model, drawn here rather than in the app so the
// first page carries none of it: which model, its download (asked first, with progress and
// Cancel), what is kept in this browser, and how the engine runs here.

const el = (tag, { dataset = {}, ...props } = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  Object.assign(node.dataset, dataset);
  node.append(...children.filter((c) => c != null));
  return node;
};
const sizeText = (bytes) => (bytes >= 1e9 ? `${(bytes / 1073741824).toFixed(1)} GB` : mb(bytes));

const panel = {
  root: null,
  info: null, // { name, url, label, context, models: [...] }: the scenario's model, and the list
  hooks: null, // { setName(name), loaded(source, picked, promptPerSecond, tokensPerSecond) }
  env: null,
  stage: 'idle', // idle | asking | downloading | loading | failed
  progress: [0, 0],
  error: '',
  cached: 0,
  used: 0,
  loaded: null, // { source, picked, threads, multithread, prompt_per_s, tokens_per_s }
  abort: null,
};

function set(change) {
  Object.assign(panel, change);
  draw();
}

async function refresh() {
  const url = panel.info?.url;
  const kept = await stored().catch(() => []);
  const cachedNow = url ? await cached(url).catch(() => 0) : 0;
  set({ used: kept.reduce((n, k) => n + k.bytes, 0), cached: cachedNow });
}

async function loadInto(source, label, picked) {
  set({ stage: 'loading', error: '', loaded: null });
  panel.hooks.loaded('', false, 0, 0);
  try {
    const info = await load(source, panel.info.context);
    const speed = await warmUp().catch(() => ({ prompt_per_s: 0, tokens_per_s: 0 }));
    const loaded = { source: label, picked, threads: info.threads, multithread: info.multithread, ...speed };
    set({ stage: 'idle', loaded });
    panel.hooks.loaded(label, picked, speed.prompt_per_s, speed.tokens_per_s);
  } catch (e) {
    set({ stage: 'failed', error: e.message });
  }
  if (!picked) await refresh();
}

async function startDownload() {
  const { url, label } = panel.info;
  const abort = new AbortController();
  set({ stage: 'downloading', progress: [0, 0], error: '', abort });
  try {
    await download(url, (loaded, total) => set({ progress: [loaded, total] }), abort.signal);
  } catch (e) {
    set({ stage: e.message === 'cancelled' ? 'idle' : 'failed', error: e.message === 'cancelled' ? '' : e.message, abort: null });
    return refresh();
  }
  set({ abort: null });
  await loadInto(url, label, false);
}

async function forget() {
  const { url, label } = panel.info;
  if (panel.loaded && !panel.loaded.picked && panel.loaded.source === label) {
    await unload();
    set({ loaded: null });
    panel.hooks.loaded('', false, 0, 0);
  }
  await remove(url).catch((e) => set({ stage: 'failed', error: e.message }));
  await refresh();
}

function drawModels() {
  const { info } = panel;
  const listed = info.models.find((m) => m.url === info.url && info.name !== info.url);
  const radios = info.models.map((m) => {
    const input = el('input', { type: 'radio', name: 'intab-model', checked: listed?.id === m.id, dataset: { testid: `intab-model-${m.id}` } });
    input.addEventListener('change', () => panel.hooks.setName(m.id));
    const licence = el('a', { href: m.licence_url, target: '_blank', rel: 'noopener', textContent: m.licence });
    return el('label', { className: 'check intab-model' }, input,
      el('span', {}, el('strong', { textContent: m.label }), ` · ${m.download_mb} MB download · about ${m.memory_mb} MB of memory · `, licence));
  });
  const address = el('input', {
    type: 'url', placeholder: 'https://…/model.gguf', value: listed ? '' : info.name, dataset: { testid: 'field-model.name' },
  });
  address.addEventListener('change', () => panel.hooks.setName(address.value.trim()));
  return el('div', { className: 'intab-models', role: 'radiogroup', ariaLabel: 'Model' }, ...radios,
    el('label', { className: 'field' }, el('span', { textContent: 'Or the address of a GGUF file' }), address));
}

function drawState() {
  const { info, stage, loaded } = panel;
  const here = loaded && (loaded.picked || loaded.source === info.label);
  const parts = [];
  const button = (text, testid, onclick, disabled = false) => {
    const b = el('button', { textContent: text, disabled, dataset: { testid } });
    b.addEventListener('click', onclick);
    return b;
  };
  const listed = info.models.find((m) => m.url === info.url);
  const size = listed ? `${listed.download_mb} MB` : 'the file';
  if (stage === 'asking') {
    const host = (() => { try { return new URL(info.url, location.href).host; } catch { return 'its server'; } })();
    parts.push(el('span', { textContent: `Download ${size} from ${host}? It is kept in this browser afterwards.`, dataset: { testid: 'intab-confirm' } }),
      button('Download', 'intab-download-confirm', startDownload), button('Not now', 'intab-not-now', () => set({ stage: 'idle' })));
  } else if (stage === 'downloading') {
    const [done, total] = panel.progress;
    parts.push(el('progress', { max: Math.max(total, 1), value: done, dataset: { testid: 'intab-progress' } }),
      el('span', { textContent: `Downloading: ${total ? `${mb(done)} of ${mb(total)}` : mb(done)}` }),
      button('Cancel', 'intab-cancel', () => panel.abort?.abort()));
  } else if (stage === 'loading') {
    parts.push(el('span', { textContent: 'Loading the model into the engine…', dataset: { testid: 'intab-loading' } }));
  } else if (here) {
    parts.push(el('span', { textContent: 'Loaded and ready.', dataset: { testid: 'intab-ready' } }));
  } else if (panel.cached > 0) {
    parts.push(el('span', { textContent: `Kept in this browser (${sizeText(panel.cached)}).` }),
      button('Load', 'intab-load', () => loadInto(info.url, info.label, false)));
  } else {
    parts.push(button(`Download (${size})`, 'intab-download', () => set({ stage: 'asking', error: '' }), !info.url || !panel.env?.storage || !panel.env?.supported));
  }
  return el('div', { className: 'row intab-actions', role: 'status', dataset: { testid: 'intab-state' } }, ...parts);
}

function drawEngine() {
  const { loaded, env } = panel;
  const threads = loaded?.multithread
    ? `${loaded.threads} threads`
    : env?.isolated
      ? `${env.threads} threads`
      : '1 thread (this page is not cross-origin isolated; the README says how to host it with COOP and COEP)';
  const speed = loaded?.tokens_per_s > 0 ? ` · ${loaded.tokens_per_s.toFixed(1)} tokens a second measured here` : '';
  const what = loaded ? `Loaded: ${loaded.source} · ` : '';
  return el('p', { className: 'muted', textContent: `${what}The engine runs in a worker on ${threads}${speed}.`, dataset: { testid: 'intab-engine' } });
}

// The parts that change as the engine works, redrawn in place; the model choice is drawn only
// when the scenario's model changes, so a field being typed in is never replaced.
const slots = {};

function build() {
  const picker = el('input', { type: 'file', accept: '.gguf', dataset: { testid: 'intab-file' } });
  picker.addEventListener('change', () => {
    const file = picker.files?.[0];
    if (file) loadInto(file, file.name, true);
  });
  slots.unsupported = el('div');
  slots.state = el('div');
  slots.error = el('div');
  slots.engine = el('div');
  slots.used = el('span', { className: 'muted', dataset: { testid: 'intab-used' } });
  slots.forget = el('button', { textContent: 'Delete the kept copy', dataset: { testid: 'intab-delete' } });
  slots.forget.addEventListener('click', forget);
  panel.root.replaceChildren(
    el('p', { className: 'muted', textContent: 'A small language model runs inside this tab: no key, and nothing you type leaves this computer. It is downloaded once, after you say so, and kept in this browser for next time.' }),
    slots.unsupported,
    drawModels(),
    slots.state,
    slots.error,
    el('label', { className: 'field' }, el('span', { textContent: 'Or open a GGUF file from this computer' }), picker),
    slots.engine,
    el('div', { className: 'row' }, slots.used, slots.forget),
  );
}

function draw() {
  if (!panel.root || !panel.info || !slots.state) return;
  slots.unsupported.replaceChildren(...(panel.env && !panel.env.supported
    ? [el('p', { className: 'notice error', textContent: `This browser lacks ${panel.env.missing}, which the in-tab engine needs. Use a recent Chrome or Edge, or another provider.`, dataset: { testid: 'intab-unsupported' } })]
    : []));
  slots.state.replaceChildren(drawState());
  slots.error.replaceChildren(...(panel.stage === 'failed'
    ? [el('p', { className: 'notice error', role: 'alert', textContent: panel.error, dataset: { testid: 'intab-error' } })]
    : []));
  slots.engine.replaceChildren(drawEngine());
  slots.used.textContent = `Models kept in this browser: ${sizeText(panel.used)}.`;
  slots.forget.disabled = panel.cached <= 0;
}

/**
 * Draws the settings into `root` (again, when the app mounts them anew) for the model the
 * scenario names (`name`); `hooks` are the app's { setName(name), loaded(source, picked,
 * promptPerSecond, tokensPerSecond) } (an empty source: nothing loaded).
 */
export async function settings(root, name, hooks) {
  // The app tells the panel of every edit to the scenario; only a new mount or name matters.
  if (panel.root === root && panel.info?.name === name) return;
  const m = await shapes();
  const models = JSON.parse(m.models());
  const url = m.source(name) ?? null;
  const label = url && m.label(url);
  const info = { name, url, label, context: m.context_tokens(), models };
  const fresh = panel.root !== root || panel.info?.url !== info.url;
  const redraw = fresh || panel.info?.name !== info.name;
  panel.root = root;
  panel.hooks = hooks;
  panel.info = info;
  if (panel.stage === 'failed' && fresh) panel.stage = 'idle';
  panel.env ??= environment();
  if (redraw) build();
  draw();
  if (fresh) await refresh();
}
