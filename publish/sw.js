// Agora's service worker (publish/precache.mjs writes it into each build as sw.js, with the list
// of the build's files and a revision of each). It keeps the app working offline: every file of
// the build is cached when the worker installs (from the browser's HTTP cache where the page
// already fetched it), except the in-tab engine's largest files, which are cached the first time
// they are used. It adds the two headers that make the page cross-origin
// isolated (so the model in the tab can use threads) to every file it serves, for hosts that cannot
// send them. A new build's worker waits until the page asks it to take over.
const PRECACHE = { version: 'unbuilt', files: [] }; // replaced by precache.mjs

const CACHE = `agora-app-${PRECACHE.version}`;
const scope = new URL(self.registration.scope);
const page = new URL('index.html', scope).href;
const files = new Map(PRECACHE.files.map(([path, revision, onUse]) =>
  [new URL(path, scope).href, { revision, onUse: !!onUse }]));
const ISOLATION = [['Cross-Origin-Opener-Policy', 'same-origin'], ['Cross-Origin-Embedder-Policy', 'require-corp']];

const hex = async (buffer) => [...new Uint8Array(await crypto.subtle.digest('SHA-256', buffer))]
  .map((b) => b.toString(16).padStart(2, '0')).join('');

/** The file at `url` as `cache` allows, checked against its revision (a deploy half done fails). */
async function checked(url, revision, cache) {
  const response = await fetch(url, { cache, mode: 'same-origin' });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const body = await response.arrayBuffer();
  if (!(await hex(body)).startsWith(revision)) throw new Error(`${url} is not the file this version lists`);
  const headers = new Headers(response.headers);
  // The body is kept decoded, whatever encoding it travelled in.
  headers.delete('content-encoding');
  headers.delete('content-length');
  headers.set('x-agora-revision', revision);
  return new Response(body, { status: 200, headers });
}

/**
 * The file at `url`, checked against its revision. With `reuse`, the browser's HTTP cache is
 * asked first: on a first visit the page has just fetched its own files (the wasm is most of
 * them), and a host's caching (GitHub Pages keeps a file 10 minutes) keeps them there, so the build
 * is downloaded once in all. A file the page is fetching at this moment (a chunk a run has just
 * asked for) is then asked for as the browser's cache allows, which joins the page's download
 * instead of starting another. A copy of another revision (an earlier deploy's) is fetched anew.
 */
async function download(url, revision, reuse = false) {
  // The page itself was fetched as the folder's address.
  for (const at of reuse ? (url === page ? [scope.href, url] : [url]) : []) {
    const hit = await checked(at, revision, 'only-if-cached').catch(() => null);
    if (hit) return hit;
  }
  if (reuse) {
    const shared = await checked(url, revision, 'default').catch(() => null);
    if (shared) return shared;
  }
  return checked(url, revision, 'no-cache');
}

/** A copy of `url` kept by an earlier version, if any. */
async function kept(url, names) {
  for (const name of names) {
    const found = await (await caches.open(name)).match(url);
    if (found) return found;
  }
  return null;
}

self.addEventListener('install', (event) => event.waitUntil((async () => {
  const cache = await caches.open(CACHE);
  const earlier = (await caches.keys()).filter((n) => n.startsWith('agora-app-') && n !== CACHE);
  await Promise.all([...files].map(async ([url, { revision, onUse }]) => {
    const old = await kept(url, earlier);
    if (old?.headers.get('x-agora-revision') === revision) return cache.put(url, old);
    // A file cached on use is fetched again only if an earlier version had it, or taken from
    // the browser's cache if this visit has used it already (the Chinese words, fetched before a
    // Chinese page draws; a room opened before the worker installed).
    if (onUse && !old) {
      const used = await checked(url, revision, 'only-if-cached').catch(() => null);
      if (used) await cache.put(url, used);
      return;
    }
    await cache.put(url, await download(url, revision, true));
  }));
})()));

self.addEventListener('activate', (event) => event.waitUntil((async () => {
  for (const name of await caches.keys()) {
    if (name.startsWith('agora-app-') && name !== CACHE) await caches.delete(name);
  }
  await self.clients.claim();
})()));

self.addEventListener('message', (event) => {
  if (event.data === 'version') event.source.postMessage({ version: PRECACHE.version });
  if (event.data !== 'take-over') return;
  // Taking over while another tab of the app is open would change the files under it.
  event.waitUntil((async () => {
    const tabs = (await self.clients.matchAll({ type: 'window', includeUncontrolled: true }))
      .filter((c) => c.frameType === 'top-level' && c.url.startsWith(scope.href));
    if (tabs.length > 1) event.source.postMessage({ others: tabs.length - 1 });
    else await self.skipWaiting();
  })());
});

/** `response` with the headers that make a page cross-origin isolated. */
function isolated(response) {
  if (response.type === 'opaque' || response.status === 0) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of ISOLATION) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

async function answer(url, file, request) {
  const cache = await caches.open(CACHE);
  let response = await cache.match(url);
  if (!response) {
    response = await download(url, file.revision).catch(() => null);
    if (response) await cache.put(url, response.clone());
    else response = await fetch(request);
  }
  return isolated(response);
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || !request.url.startsWith(scope.href)) return;
  const { origin, pathname } = new URL(request.url);
  let url = origin + pathname;
  if (url === scope.href) url += 'index.html';
  const file = files.get(url);
  if (file) event.respondWith(answer(url, file, request));
  else if (request.mode === 'navigate') event.respondWith(fetch(request).then(isolated));
});
