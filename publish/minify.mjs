// Minifies the JavaScript wasm-bindgen writes beside each WebAssembly file of a build (the page's
// glue, the tools module's, the comparison page's, the in-tab grammar builder's) and the pages'
// start scripts (boot/), and writes the new digest into any `integrity` attribute that names a file it
// changed. Trunk runs it after every build on its staging folder, before the service worker's list
// (Trunk.toml); by hand: `node publish/minify.mjs dist`. Trunk's own `minify` cannot read the glue.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('usage: node publish/minify.mjs <built folder>');
  process.exit(2);
}
// A debug build keeps its scripts as written, to be read in the browser's tools.
if (!process.argv[2] && process.env.TRUNK_PROFILE === 'debug') process.exit(0);
const esbuild = createRequire(join(root, 'tests', 'package.json'))('esbuild');

function walk(folder) {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

const all = walk(dir);
const glue = all.filter((p) => p.endsWith('.js') && existsSync(p.replace(/\.js$/, '_bg.wasm')));
const boot = all.filter((p) => p.endsWith('.js') && relative(dir, p).startsWith(`boot${sep}`));
const changed = new Map();
for (const path of [...new Set([...glue, ...boot])]) {
  const source = readFileSync(path, 'utf8');
  const { code } = await esbuild.transform(source, { minify: true, format: 'esm', legalComments: 'none' });
  if (code.length < source.length) {
    writeFileSync(path, code);
    changed.set(relative(dir, path).split(sep).join('/'), createHash('sha384').update(code).digest('base64'));
  }
}
// Trunk preloads the page's glue with its digest: the digest of the minified file replaces it.
for (const page of all.filter((p) => p.endsWith('.html'))) {
  const html = readFileSync(page, 'utf8');
  const updated = html.replace(/<link\b[^>]*>/g, (tag) => {
    const href = /href="(?:\.\/)?([^"]+)"/.exec(tag)?.[1];
    const digest = href && changed.get(href);
    return digest ? tag.replace(/integrity="sha384-[^"]*"/, `integrity="sha384-${digest}"`) : tag;
  });
  if (updated !== html) writeFileSync(page, updated);
}
