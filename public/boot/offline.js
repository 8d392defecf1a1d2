// The service worker's side in the page (the worker is sw.js beside index.html): registers it once
// the app runs and the page is idle, so its first download of the build never competes with the
// page's own, and offers a new version when one is deployed, never reloading by itself. A first
// visit is not reloaded to become cross-origin isolated either: that would drop what a link opened
// under the person's eyes. `globalThis.agoraOffline.why` tells the model in the tab's settings
// (src/app/intab_panel.rs words it, and offers the reload for threads) why the page has no threads
// when it has none; an `agora-offline` event says it changed.
const state = (globalThis.agoraOffline = { why: '' });
const sw = navigator.serviceWorker;
const base = new URL('../', import.meta.url);
const why = (reason) => {
  state.why = reason;
  dispatchEvent(new Event('agora-offline'));
};

function offer(worker) {
  let bar = document.querySelector('body > .update');
  if (!bar) {
    bar = Object.assign(document.createElement('div'), { className: 'update', role: 'status' });
    bar.dataset.testid = 'update';
    const text = document.createElement('span');
    const button = Object.assign(document.createElement('button'), { textContent: 'Reload' });
    button.dataset.testid = 'update-reload';
    button.onclick = () => worker.postMessage('take-over');
    // Later: out of sight until the page is next loaded, which offers the waiting version again.
    const later = Object.assign(document.createElement('button'), { textContent: 'Later', onclick: () => bar.remove() });
    later.dataset.testid = 'update-later';
    bar.append(text, button, later);
    document.body.append(bar);
    sw.addEventListener('message', ({ data }) => {
      if (data?.others) text.textContent = `A new version of Agora is ready. Close Agora's ${data.others} other tab${data.others > 1 ? 's' : ''} first, then press Reload.`;
    });
  }
  bar.firstChild.textContent = 'A new version of Agora is ready. Reload when it suits you: a run on screen comes back paused where it was.';
}

if (!sw || !isSecureContext) {
  state.why = 'none';
} else {
  const first = !sw.controller;
  // The first worker taking control of this page is not a reason to reload it; a new version
  // taking over is, as the person asked for it (offer's Reload).
  sw.addEventListener('controllerchange', () => {
    if (!first) location.reload();
    else if (!crossOriginIsolated) why('reload');
  });
  if (!crossOriginIsolated) {
    state.why = first ? 'next' : 'refused';
  }
  // After the demo model's module too (the app fetches it as soon as it has drawn), or a minute
  // if it never comes: the worker then finds it in the browser's cache.
  if (!globalThis.agoraDemo) {
    await new Promise((done) => {
      addEventListener('agora-demo', done, { once: true });
      setTimeout(done, 60000);
    });
  }
  await new Promise((idle) => (globalThis.requestIdleCallback ?? ((f) => setTimeout(f, 1000)))(idle, { timeout: 3000 }));
  try {
    const reg = await sw.register(new URL('sw.js', base), { scope: base.href, updateViaCache: 'none' });
    // A browser whose policy blocks service workers may resolve with none.
    if (!reg) throw new Error('refused');
    // A page loaded past its worker (a hard reload) is isolated by a plain reload.
    if (first && reg.active && !crossOriginIsolated) why('reload');
    const watch = (worker) => worker?.addEventListener('statechange', () => {
      if (worker.state === 'installed' && sw.controller) offer(worker);
    });
    if (reg.waiting && sw.controller) offer(reg.waiting);
    watch(reg.installing);
    reg.addEventListener('updatefound', () => watch(reg.installing));
    const check = () => reg.update().catch(() => {});
    document.addEventListener('visibilitychange', () => document.visibilityState === 'visible' && check());
    setInterval(check, 30 * 60 * 1000);
  } catch (e) {
    why(e.message === 'refused' ? 'none' : `failed: ${e.message}`);
  }
}
