// Starts the comparison page (compare.html) without an inline script; `agoraImport` is how its
// build imports a module of its own (the model in the tab's engine), as on the app's page.
globalThis.agoraImport = (path) => import(new URL(path, document.baseURI).href);
await (await import('../compare/agora-compare.js')).default();
