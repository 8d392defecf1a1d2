// The service worker's side in the page (the worker is sw.js beside index.html): registers it once
// the app runs, reloads a first visit once so the page is served with the headers that make it
// cross-origin isolated (only if nobody has touched the page yet), and offers a new version when
// one is deployed, never reloading by itself. `globalThis.agoraOffline.why` tells the model in the
// tab's settings (public/intab/panel.js words it) why the page has no threads when it has none.
const state = (globalThis.agoraOffline = { why: '' });
const sw = navigator.serviceWorker;
const base = new URL('../', import.meta.url);
let touched = false;
for (const type of ['pointerdown', 'keydown']) addEventListener(type, () => (touched = true), { once: true, capture: true });

function offer(worker) {
  let bar = document.querySelector('[data-testid=update]');
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
  sw.addEventListener('controllerchange', () => {
    if (first) {
      if (crossOriginIsolated) return;
      if (!touched && !sessionStorage.getItem('agora.isolating')) {
        sessionStorage.setItem('agora.isolating', '1');
        location.reload();
      } else state.why = 'reload';
    } else location.reload();
  });
  if (!crossOriginIsolated) {
    state.why = first ? 'next' : 'refused';
  }
  try {
    const reg = await sw.register(new URL('sw.js', base), { scope: base.href, updateViaCache: 'none' });
    // A browser whose policy blocks service workers may resolve with none.
    if (!reg) throw new Error('refused');
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
    state.why = e.message === 'refused' ? 'none' : `failed: ${e.message}`;
  }
}
