// Starts the app without an inline script (Trunk.toml, pattern_script), then the projector view's
// keys and, once the app runs, the service worker (offline.js). The build's file names are
// relative to the page, so the same files serve at a host's root or under any path.
import './keys.js';
const t = document.querySelector('script[data-glue]');
const at = (path) => new URL(path, document.baseURI).href;
// How the app imports a module of its own (the model in the tab's engine, the tools module).
globalThis.agoraImport = (path) => import(at(path));
await (await import(at(t.dataset.glue))).default({ module_or_path: at(t.dataset.wasm) });
import('./offline.js').catch(() => {});
