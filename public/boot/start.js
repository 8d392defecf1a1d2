// Starts the app without an inline script (Trunk.toml, pattern_script), and the projector view's
// keys.
import './keys.js';
const t = document.querySelector('script[data-glue]');
await (await import(t.dataset.glue)).default({ module_or_path: t.dataset.wasm });
