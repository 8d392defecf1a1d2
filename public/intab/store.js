// The model files kept in this browser's private file system (OPFS), so a second visit starts at
// once: downloads that resume where the server allows it (HTTP Range), what is kept and how much
// space it takes, and the GGUF check every file passes before the engine sees it (the engine
// would otherwise accept a broken file and fail later).

const DIR = 'agora-models';

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

export const mb = (n) => `${(n / 1048576).toFixed(1)} MB`;
const cutOff = (loaded, total) =>
  new Error(`the download was cut off at ${mb(loaded)} of ${total ? mb(total) : 'an unknown size'}; press Download again to go on from there`);

/** The whole, downloaded copy of `url`, or null. */
export async function open(url) {
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
  const list = [];
  for (let i = 0; i < tensors; i++) {
    str();
    const dims = u32();
    if (dims > 8) throw new Error('its header is damaged (a tensor with more than 8 dimensions)');
    let count = 1;
    for (let d = 0; d < dims; d++) count *= u64();
    const typeAt = at;
    const type = u32();
    const offsetAt = at;
    const offset = u64();
    const block = BLOCKS[type];
    const bytes = block ? Math.ceil(count / block[0]) * block[1] : 0;
    list.push({ type, typeAt, offsetAt, offset, bytes });
    end = Math.max(end, offset + bytes);
  }
  const start = Math.ceil(at / alignment) * alignment;
  if (start + end > size) {
    throw new Error(`it is cut short: its weights need ${mb(start + end)} but the file has ${mb(size)} (a download cut off?)`);
  }
  return { version, tensors, architecture, list, start, alignment };
}

const Q4_1 = 3;
const Q5_1 = 7;

/**
 * The model as the engine should read it: `file` itself, or, when it holds Q4_1 weights, a copy
 * with them as Q5_1. llama.cpp's WebAssembly build has no SIMD kernel for Q4_1 (it falls back
 * to plain code), and Q5_1 holds the same values: a Q4_1 block (scale, minimum, sixteen bytes of
 * 4-bit values) is a Q5_1 block whose fifth bits are all zero. Read about a sixth faster on
 * SmolLM2-135M (docs/benchmarks.md). Resolves to { model, repacked } (tensors rewritten).
 */
export async function forEngine(file, info) {
  const q41 = info.list.filter((t) => t.type === Q4_1);
  if (!q41.length) return { model: file, repacked: 0 };
  const head = new Uint8Array(await file.slice(0, info.start).arrayBuffer());
  const view = new DataView(head.buffer);
  const parts = [head];
  let at = 0;
  // Tensors keep their order in the file; each starts aligned as before.
  for (const t of [...info.list].sort((a, b) => a.offset - b.offset)) {
    const pad = (info.alignment - (at % info.alignment)) % info.alignment;
    if (pad) parts.push(new Uint8Array(pad));
    at += pad;
    view.setBigUint64(t.offsetAt, BigInt(at), true);
    const data = file.slice(info.start + t.offset, info.start + t.offset + t.bytes);
    if (t.type !== Q4_1) {
      parts.push(data);
      at += t.bytes;
      continue;
    }
    view.setUint32(t.typeAt, Q5_1, true);
    const blocks = t.bytes / 20;
    const from = new Uint32Array(await data.arrayBuffer());
    const to = new Uint32Array(blocks * 6);
    for (let b = 0, i = 0, o = 0; b < blocks; b++, i += 5, o += 6) {
      to[o] = from[i]; // scale and minimum; to[o + 1], the fifth bits, stays 0
      to[o + 2] = from[i + 1];
      to[o + 3] = from[i + 2];
      to[o + 4] = from[i + 3];
      to[o + 5] = from[i + 4];
    }
    parts.push(to);
    at += to.byteLength;
  }
  return { model: new File(parts, file.name ?? 'model.gguf'), repacked: q41.length };
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
