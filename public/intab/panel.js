// The model settings of a scenario on the in-tab model, drawn here rather than in the app so the
// first page carries none of it: which model, its download (asked first, with progress and
// Cancel), what is kept in this browser, and how the engine runs here.
import { environment, load, unload } from './engine.js';
import { cached, download, mb, remove, stored } from './store.js';

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
  hooks: null, // { setName(name), loaded(source, picked, promptPerSecond, tokensPerSecond, onGpu) }
  env: null,
  stage: 'idle', // idle | asking | downloading | loading | failed
  progress: [0, 0],
  error: '',
  cached: 0,
  used: 0,
  loaded: null, // { source, picked, threads, multithread, repacked, gpu, why, prompt_per_s, tokens_per_s }
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
  panel.hooks.loaded('', false, 0, 0, false);
  try {
    const info = await load(source, panel.info.context, device());
    set({ stage: 'idle', loaded: { ...info, source: label, picked } });
    panel.hooks.loaded(label, picked, info.prompt_per_s, info.tokens_per_s, !!info.gpu);
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
    panel.hooks.loaded('', false, 0, 0, false);
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
      el('span', {}, el('strong', { textContent: m.label }), ` · ${m.download_mb} MB download · about ${m.memory_mb} MB of memory · `, licence,
        el('small', { className: 'intab-suits', textContent: `Suits ${m.suits}.` })));
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

// Where the engine runs: 'auto' (the GPU when its warm-up beats the CPU's) or 'cpu'.
const DEVICE = 'agora.intab.device';
const device = () => (localStorage.getItem(DEVICE) === 'cpu' ? 'cpu' : 'auto');

function drawDevice() {
  const select = el('select', { dataset: { testid: 'intab-device' } },
    el('option', { value: 'auto', textContent: 'The faster of GPU and CPU, measured when the model loads', selected: device() === 'auto' }),
    el('option', { value: 'cpu', textContent: 'The CPU only: a seed repeats a run exactly', selected: device() === 'cpu' }));
  select.addEventListener('change', () => {
    localStorage.setItem(DEVICE, select.value);
    // The choice is made when a model loads: load the one in the engine again.
    const { loaded, info } = panel;
    if (loaded && !loaded.picked && loaded.source === info.label) loadInto(info.url, info.label, false);
    else draw();
  });
  return el('label', { className: 'field' }, el('span', { textContent: 'Where the engine runs' }), select);
}

/** Why the page is not cross-origin isolated, from what its service worker's side (boot/offline.js) saw. */
function unisolated(why) {
  if (why === 'none') return 'this browser offers the page no service worker (a private window may turn them off) to add the COOP and COEP headers its host does not send';
  if (why === 'next') return 'the page becomes cross-origin isolated at its next load, once its service worker has started';
  if (why === 'reload') return 'its service worker is now installed, and the page has threads once reloaded';
  if (why === 'refused') return 'the browser did not isolate the page even with the headers its service worker adds';
  if (why.startsWith('failed: ')) return `its service worker could not start (${why.slice(8)})`;
  return 'this page is not cross-origin isolated: docs/intab.md says how to host it with COOP and COEP';
}

function drawEngine() {
  const { loaded, env } = panel;
  const threads = loaded?.multithread
    ? `${loaded.threads} threads`
    : env?.isolated
      ? `${env.threads} threads`
      : `1 thread (${unisolated(globalThis.agoraOffline?.why ?? '')})`;
  const speed = loaded?.tokens_per_s > 0 ? ` · ${loaded.tokens_per_s.toFixed(1)} tokens a second measured here` : '';
  const what = loaded ? `Loaded: ${loaded.source} · ` : '';
  const repacked = loaded?.repacked
    ? ` Its ${loaded.repacked} Q4_1 weight tensors are read as Q5_1, which holds the same values and which the engine computes with SIMD (it has no SIMD code for Q4_1).`
    : '';
  const where = loaded?.why ? ` It runs on ${loaded.why}.` : '';
  const seeds = loaded?.gpu ? ' On the GPU the same seed may not repeat a run exactly: choose the CPU only for that.' : '';
  return el('p', { className: 'muted', textContent: `${what}The engine runs in a worker on ${threads}${speed}.${where}${seeds}${repacked}`, dataset: { testid: 'intab-engine' } });
}

/**
 * The reload that gives the engine threads, offered where one would (the worker installed after
 * the page loaded) and never done unasked: the page does not reload itself under a person's eyes.
 */
function drawReload() {
  if (panel.loaded?.multithread || panel.env?.isolated || globalThis.agoraOffline?.why !== 'reload') return [];
  const button = el('button', { textContent: 'Reload for threads', dataset: { testid: 'intab-reload' } });
  button.addEventListener('click', () => location.reload());
  return [el('p', { className: 'row', dataset: { testid: 'intab-threads' } },
    el('span', { textContent: 'After a reload the engine runs on several threads, which is faster; the run on screen comes back paused where it was.' }),
    button)];
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
    drawDevice(),
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
  slots.engine.replaceChildren(drawEngine(), ...drawReload());
  slots.used.textContent = `Models kept in this browser: ${sizeText(panel.used)}.`;
  slots.forget.disabled = panel.cached <= 0;
}

// What boot/offline.js learns about isolation comes after the panel is drawn, as the worker starts.
addEventListener('agora-offline', draw);

/**
 * Draws the settings into `root` (again, when the app mounts them anew) for the model the
 * scenario names (`name`); `hooks` are the app's { setName(name), loaded(source, picked,
 * promptPerSecond, tokensPerSecond, onGpu) } (an empty source: nothing loaded), and `about` what
 * the app says of that model, as JSON: { url, label, context, models } (Rust's `engine_info`).
 */
export async function settings(root, name, hooks, about) {
  // The app tells the panel of every edit to the scenario; only a new mount or name matters.
  if (panel.root === root && panel.info?.name === name) return;
  const info = { name, ...JSON.parse(about) };
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
