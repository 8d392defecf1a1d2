// Minifies the JavaScript wasm-bindgen writes beside each WebAssembly file of a build (the page's
// glue, the tools module's, the comparison page's, the in-tab grammar builder's) and the pages'
// start scripts (boot/), and writes the new digest into any `integrity` attribute that names a
// file it changed. Trunk runs it first after every build on its staging folder, before the service
// worker's list (publish/after-build.mjs); by hand: `node publish/minify.mjs dist`. Trunk's own
// `minify` cannot read the glue.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { builtFolder, filesIn } from './files.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = builtFolder('minify.mjs');
// A debug build keeps its scripts as written, to be read in the browser's tools.
if (!process.argv[2] && process.env.TRUNK_PROFILE === 'debug') process.exit(0);
const esbuild = createRequire(join(root, 'tests', 'package.json'))('esbuild');

const all = filesIn(dir);
const glue = (p) => p.endsWith('.js') && existsSync(join(dir, p.replace(/\.js$/, '_bg.wasm')));
// The splitter's loader, which fetches the page's chunks (publish/split.mjs).
const loader = (p) => p.endsWith('.split.js');
const boot = (p) => p.endsWith('.js') && p.startsWith('boot/');
const changed = new Map();
for (const path of all.filter((p) => glue(p) || loader(p) || boot(p))) {
  const source = readFileSync(join(dir, path), 'utf8');
  const { code } = await esbuild.transform(source, { minify: true, format: 'esm', legalComments: 'none' });
  if (code.length < source.length) {
    writeFileSync(join(dir, path), code);
    changed.set(path, createHash('sha384').update(code).digest('base64'));
  }
}
// Trunk preloads the page's glue with its digest: the digest of the minified file replaces it.
// The href starts with Trunk's --public-url, whatever it is (`./`, `/agora/`, a full address).
const minified = (href) => [...changed].find(([path]) => href === path || href.endsWith(`/${path}`))?.[1];
for (const page of all.filter((p) => p.endsWith('.html')).map((p) => join(dir, p))) {
  const html = readFileSync(page, 'utf8');
  const updated = html.replace(/<link\b[^>]*>/g, (tag) => {
    const href = /href="([^"?#]+)/.exec(tag)?.[1];
    const digest = href && minified(href);
    return digest ? tag.replace(/integrity="sha384-[^"]*"/, `integrity="sha384-${digest}"`) : tag;
  });
  if (updated !== html) writeFileSync(page, updated);
}
