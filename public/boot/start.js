// Starts the app without an inline script (Trunk.toml, pattern_script), then the projector view's
// keys and, once the app runs, the service worker (offline.js). The build's file names are
// relative to the page, so the same files serve at a host's root or under any path.
import './keys.js';
const t = document.querySelector('script[data-glue]');
const at = (path) => new URL(path, document.baseURI).href;
// How the app imports a module of its own (the model in the tab's engine, the tools module).
globalThis.agoraImport = (path) => import(at(path));
// And how it starts a wasm-bindgen build of its own (the demo model, the tools module): once,
// whoever asks first, and again at the next ask if it failed.
const started = {};
globalThis.agoraStart = (path) => (started[path] ??= agoraImport(path)
  .then(async (m) => (await m.default(), m))
  .catch((e) => { delete started[path]; throw e; }));
// The static shell's bar (publish/shell.mjs set its end to the wasm's size) moves with each chunk
// of the wasm as it arrives; the body is handed on as it streams, so compiling is not held back.
const bar = document.querySelector('[data-shell-wasm]');
const wasm = fetch(at(t.dataset.wasm)).then((r) => (bar && r.body
  ? new Response(r.body.pipeThrough(new TransformStream({ transform(c, out) { bar.value += c.length; out.enqueue(c); } })), r)
  : r));
await (await import(at(t.dataset.glue))).default({ module_or_path: wasm });
// The app has mounted beside the shell, in the same task: the shell goes before the next paint.
document.getElementById('shell')?.remove();
import('./offline.js').catch(() => {});
