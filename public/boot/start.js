// Starts the app without an inline script (Trunk.toml, pattern_script) and, once the app runs,
// the service worker (offline.js). The build's file names are relative to the page, so the same
// files serve at a host's root or under any path.
const t = document.querySelector('script[data-glue]');
// The language this visit speaks, chosen before anything is read (src/app/lang.rs reads it back
// from <html lang>): the one kept on this device, else the first of the browser's languages the
// page speaks (Chinese in simplified characters, or English). A visit in Chinese hides the
// shell's English words while the wasm arrives; its progress bar stays.
try {
  const kept = localStorage.getItem('agora.lang');
  const traditional = /^zh[-_](hant|tw|hk|mo)/i;
  const first = navigator.languages.find((l) => /^(en|zh)\b/i.test(l) && !traditional.test(l)) ?? '';
  if (kept ? kept === 'zh-Hans' : /^zh/i.test(first)) {
    document.documentElement.lang = 'zh-Hans';
    document.getElementById('shell')?.classList.add('quiet');
  }
} catch {}
const at = (path) => new URL(path, document.baseURI).href;
// How the app imports a JavaScript module of its own (the model in the tab's engine, the built-in
// model's, the room's transport).
globalThis.agoraImport = (path) => import(at(path));
// The static shell's bar (publish/shell.mjs set its end to the wasm's size) moves with each chunk
// of the wasm as it arrives; the body is handed on as it streams, so compiling is not held back.
const bar = document.querySelector('[data-shell-wasm]');
// The stage's packs of chunks (publish/split.mjs) are what a visitor opens next: their downloads
// start the moment the start screen's wasm is in (sooner would share the line with it), or when
// the split loader is, whichever comes first; the loader takes over the responses.
globalThis.agoraPacks = new Map();
const packs = () => {
  for (const p of (t.dataset.packs ?? '').split(' ').filter(Boolean)) {
    if (!globalThis.agoraPacks.has(at(p))) globalThis.agoraPacks.set(at(p), fetch(at(p)));
  }
};
const wasm = fetch(at(t.dataset.wasm)).then((r) => (r.body
  ? new Response(r.body.pipeThrough(new TransformStream({
    transform(c, out) { if (bar) bar.value += c.length; out.enqueue(c); },
    flush: packs,
  })), r)
  : r));
import(at(t.dataset.glue.replace(/\.js$/, '.split.js'))).then((m) => m.__wasm_split_prefetch?.()).catch(() => {});
await (await import(at(t.dataset.glue))).default({ module_or_path: wasm });
// The app has mounted beside the shell, in the same task: the shell goes before the next paint
// (a visit in another language mounts once its words are in, and removes the shell itself).
const shell = document.getElementById('shell');
if (!shell?.dataset.wait) shell?.remove();
import('./offline.js').catch(() => {});
