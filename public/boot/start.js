// Starts the app without an inline script (Trunk.toml, pattern_script).
const t = document.querySelector('script[data-glue]');
await (await import(t.dataset.glue)).default({ module_or_path: t.dataset.wasm });
