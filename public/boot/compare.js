// Starts the comparison page (compare.html) without an inline script; `agoraImport` is how its
// build imports a module of its own (the model in the tab's engine), as on the app's page.
globalThis.agoraImport = (path) => import(new URL(path, document.baseURI).href);
// And how it starts a wasm-bindgen build of its own (the demo model, the tools module): once,
// whoever asks first, and again at the next ask if it failed.
const started = {};
globalThis.agoraStart = (path) => (started[path] ??= agoraImport(path)
  .then(async (m) => (await m.default(), m))
  .catch((e) => { delete started[path]; throw e; }));
await (await import('../compare/agora-compare.js')).default();
