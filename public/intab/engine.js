// The engine: wllama (llama.cpp compiled to WebAssembly; inference runs in its own Web Worker),
// what this browser offers it, loading a model, and the calls a run makes, answered one at a time
// in the order asked, each held to the grammar Agora's own small WebAssembly build makes for it.
import { Wllama } from './wllama/index.min.js';
import { check, forEngine, open } from './store.js';

const WASM = new URL('wllama/wllama.wasm', import.meta.url).href;

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


/** Whether this browser offers a WebGPU adapter at all. */
async function hasGpu() {
  try {
    return !!(await navigator.gpu?.requestAdapter());
  } catch {
    return false;
  }
}

/**
 * Starts wllama on `file`, on the GPU when `gpu` (all layers offered to WebGPU). Resolves to
 * { w, onGpu }: onGpu says whether llama.cpp put any layer there (it falls back to the CPU by
 * itself when it finds no device it can use, and says so only in its log).
 */
async function start(file, nCtx, threads, gpu) {
  const native = [];
  const keep = (...a) => native.push(a.join(' '));
  const quiet = () => {};
  // The GPU's load is read from llama.cpp's own log; otherwise the log is left off.
  const config = gpu
    ? { logger: { debug: quiet, log: keep, info: keep, warn: keep, error: console.error } }
    : { suppressNativeLog: true };
  const w = new Wllama({ default: WASM }, config);
  try {
    await w.loadModel([file], {
      n_ctx: nCtx, n_threads: threads, n_gpu_layers: gpu ? 99999 : 0,
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
  const offloaded = /offloaded (\d+)\/\d+ layers to GPU/.exec(native.join('\n'));
  return { w, onGpu: !!offloaded && Number(offloaded[1]) > 0 };
}

/**
 * Loads a model into the engine: `source` is the address of a downloaded model or a File the
 * user picked; `device` is 'auto' (the GPU when a short warm-up says it is faster than the CPU)
 * or 'cpu'. Resolves to what the settings and statistics show: { threads, multithread,
 * architecture, bytes, repacked (Q4_1 tensors read as Q5_1, see store.js), gpu (whether it runs
 * on the GPU), why (where it runs and why, in words), prompt_per_s, tokens_per_s (the warm-up's
 * speeds on the device it runs on) }.
 */
export async function load(source, nCtx, device = 'auto') {
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
  const { model, repacked } = await forEngine(file, info);
  const name = typeof source === 'string' ? source : source.name;
  // Starts the engine on a device; `timed` warms it up and measures it there.
  const run = async (gpu, timed = true) => {
    const { w, onGpu } = await start(model, nCtx, env.threads, gpu);
    engine = { w, source: name, multithread: w.isMultithread() };
    if (!timed) return null;
    return { onGpu, speed: await warmUp().catch(() => ({ prompt_per_s: 0, tokens_per_s: 0, ms: Infinity })) };
  };
  const cpu = await run(false);
  let chosen = { gpu: false, speed: cpu.speed };
  let why;
  const rate = (s) => `${s.tokens_per_s.toFixed(1)} tokens a second`;
  if (device === 'cpu') {
    why = 'the CPU, as chosen: the same seed repeats a run exactly';
  } else if (!(await hasGpu())) {
    why = 'the CPU: this browser offers no WebGPU';
  } else {
    // One engine at a time, so a model never takes its memory twice.
    await unload();
    const gpu = await run(true).catch((e) => ({ error: e.message }));
    if (gpu.error || !gpu.onGpu) {
      why = gpu.error
        ? `the CPU: on the GPU, ${gpu.error}`
        : 'the CPU: the engine found no WebGPU device it can use';
    } else if (gpu.speed.ms < cpu.speed.ms) {
      chosen = { gpu: true, speed: gpu.speed };
      why = `the GPU (WebGPU): in the warm-up it wrote ${rate(gpu.speed)}, the CPU ${rate(cpu.speed)}`;
    } else {
      why = `the CPU: in the warm-up it wrote ${rate(cpu.speed)}, the GPU ${rate(gpu.speed)}`;
    }
    if (!chosen.gpu) {
      await unload();
      await run(false, false);
    }
  }
  return {
    threads: env.threads, multithread: engine.multithread, architecture: info.architecture, bytes: file.size, repacked,
    gpu: chosen.gpu, why, prompt_per_s: chosen.speed.prompt_per_s, tokens_per_s: chosen.speed.tokens_per_s,
  };
}

/** Frees the engine and its memory. */
export async function unload() {
  const old = engine;
  engine = null;
  if (old) await old.w.exit().catch(() => {});
}

/**
 * One chat completion: `req` is { messages, temperature?, seed, max_tokens, reply?, shape?,
 * writing? } where `reply` is the form the reply must take (Rust's `intab::Reply`), `shape` the
 * grammar, token budget and streaming the page built from it (Rust's `intab::Shape`; without it,
 * `stream` says whether to stream), and `writing` how free text is written (Rust's
 * `model::Sampling`).
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
  const shape = req.shape ?? { grammar: null, max_tokens: req.max_tokens, streams: req.stream };
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
  // Free text only (Rust's intab::Writing): a reply held by a grammar cannot loop or run on.
  const writing = req.writing;
  if (writing) {
    options.repeat_penalty = writing.repeat_penalty;
    options.repeat_last_n = 64;
    options.dry_multiplier = writing.dry_multiplier;
    if (writing.stop?.length) options.stop = writing.stop;
  }
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
    // A streamed reply carries no usage; the engine's timings count the same tokens (the prompt:
    // those read and those kept from an earlier call).
    prompt_tokens: usage?.prompt_tokens ?? (timings ? timings.prompt_n + (timings.cache_n ?? 0) : 0),
    completion_tokens: usage?.completion_tokens ?? timings?.predicted_n ?? 0,
    finish_reason: finish ?? 'stop',
    ms: performance.now() - started,
    timings,
  };
}

// The warm-up's prompt: about as long as what a turn's call reads anew (a speech or two and a
// question), so its speeds are a run's. A short prompt reads and writes about half again as
// fast as a run's calls do, and the estimate came out a third to a half short.
const WARM_UP = [
  'Here is the conversation so far.',
  'Moderator: The question tonight is whether the city should build the new rail line, and who should pay for it.',
  'First speaker: The line would carry thousands of people to work every day, and every one of them would be off the roads. The cost is large, but so is the cost of doing nothing, and the city has waited long enough.',
  'Second speaker: Nobody doubts that trains are useful. What I doubt is the price, the years of building, and the promise that the riders will come. We have heard such promises before, and we paid for them.',
  'Third speaker: Both of you talk about money as if it were the only thing at stake. The line would change which neighbourhoods grow and which are left behind, and that deserves a word too.',
  'On the scale of 1 to 10, how much does the last message contradict your ideas? Answer with a number, then say in two sentences what you would reply.',
].join('\n');

/** A generation timed like a turn's call: the speeds the estimate before a run is made from. */
async function warmUp() {
  const out = await complete({
    messages: [{ role: 'user', content: WARM_UP }],
    max_tokens: 32, seed: 1, temperature: 1, stream: false,
  });
  return { prompt_per_s: out.timings?.prompt_per_second ?? 0, tokens_per_s: out.timings?.predicted_per_second ?? 0, ms: out.ms };
}
