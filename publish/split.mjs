// Splits the page's WebAssembly at its split functions (Leptos's `#[lazy]` and the `wasm_split`
// it expands to; docs/architecture.md): the first step Trunk runs after each build
// (publish/after-build.mjs), before the scripts are minified and the service worker's list is
// written.
//
// Trunk builds, runs wasm-bindgen and stages `agora-<hash>.js` and `agora-<hash>_bg.wasm`, but the
// splitter needs rustc's module from before wasm-bindgen (with the relocations build.rs keeps),
// and the wasm-bindgen run after it needs `--keep-lld-exports`, which Trunk cannot pass. So this
// step takes rustc's wasm from the target folder, splits it (`wasm-split-cli`, crate
// wasm_split_cli_support), runs wasm-bindgen and wasm-opt itself, and puts the result in place of
// Trunk's two files under the same names (the start script and the preloads name them), with the
// loader `agora-<hash>.split.js` and the chunks `agora-<hash>.<chunk>.wasm` beside them: every
// file of the split is a function of rustc's wasm, which Trunk's hash already names, so the names
// are safe to cache for a year. Trunk's `integrity` digests in the pages are rewritten to match.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stage = process.env.TRUNK_STAGING_DIR;
const profile = process.env.TRUNK_PROFILE;
// Only a Trunk build has rustc's wasm beside the staged files; by hand there is nothing to do.
if (stage && profile) {
  split('agora', '', (f) => /^agora-[0-9a-f]+\.js$/.test(f));
}

function split(program, folder, isGlue) {
  const started = Date.now();
  const dir = join(stage, folder);
  const raw = join(process.env.CARGO_TARGET_DIR ?? join(process.env.TRUNK_SOURCE_DIR ?? root, 'target'),
    'wasm32-unknown-unknown', profile, `${program}.wasm`);
  const glue = existsSync(dir) ? readdirSync(dir).find(isGlue) : undefined;
  if (!glue || !existsSync(raw)) throw new Error(`split.mjs: no build of ${program} to split (${glue ?? 'no glue'}, ${raw})`);
  const base = glue.slice(0, -3);
  const bin = (name) => process.env[`AGORA_${name.toUpperCase().replace(/-/g, '_')}`] ?? name;
  const run = (cmd, args) => execFileSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  const digest = (file) => `sha384-${createHash('sha384').update(readFileSync(file)).digest('base64')}`;
  const before = { js: digest(join(dir, glue)), wasm: digest(join(dir, `${base}_bg.wasm`)) };

  const work = mkdtempSync(join(tmpdir(), 'agora-split-'));
  try {
    const parts = join(work, 'split');
    const bound = join(work, 'bound');
    run(bin('wasm-split-cli'), [raw, parts, '--target', 'web', '--out-name', base]);
    run(bin('wasm-bindgen'), ['--target', 'web', '--keep-lld-exports', '--no-demangle', '--no-typescript',
      '--out-dir', bound, '--out-name', base, join(parts, `${base}.wasm`)]);
    rmSync(join(parts, `${base}.wasm`));

    // The chunks and the loader that fetches them, named after the build.
    const chunks = readdirSync(parts).filter((f) => f.endsWith('.wasm'));
    let loader = existsSync(join(parts, '__wasm_split.js')) ? readFileSync(join(parts, '__wasm_split.js'), 'utf8') : '';
    for (const chunk of chunks) {
      if (!loader.includes(`"./${chunk}"`)) throw new Error(`split.mjs: the loader does not name ${chunk}`);
      loader = loader.replaceAll(`"./${chunk}"`, `"./${base}.${chunk}"`);
    }
    if (loader) writeFileSync(join(dir, `${base}.split.js`), loader);
    // The glue imports the loader by the name the splitter gave it; the import object's keys stay
    // the module name baked into the wasm.
    const imports = /from\s*["']\.\/__wasm_split\.js["']/g;
    let js = readFileSync(join(bound, `${base}.js`), 'utf8');
    if (chunks.length && !imports.test(js)) throw new Error(`split.mjs: the glue of ${program} does not import the loader`);
    js = js.replace(imports, `from "./${base}.split.js"`);
    writeFileSync(join(dir, glue), js);
    if (existsSync(join(bound, 'snippets'))) {
      rmSync(join(dir, 'snippets'), { recursive: true, force: true });
      cpSync(join(bound, 'snippets'), join(dir, 'snippets'), { recursive: true });
    }

    // wasm-opt on the main module and on every chunk (Trunk's would have seen only the file this
    // step replaces, so index.html turns it off for the page): release builds only.
    const features = ['--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext',
      '--enable-reference-types', '--enable-multivalue', '--enable-mutable-globals'];
    const files = [[join(bound, `${base}_bg.wasm`), join(dir, `${base}_bg.wasm`)],
      ...chunks.map((c) => [join(parts, c), join(dir, `${base}.${c}`)])];
    for (const [from, to] of files) {
      if (profile === 'release') {
        // The page's main module is what a first visit waits for: flattening and rebuilding its
        // control flow, then shrinking twice more, takes about 2 KB more off it (docs/size.md).
        const main = from.endsWith('_bg.wasm');
        run(bin('wasm-opt'), [...features, ...(main ? ['-Oz', '--flatten', '--rereloop', '-Oz', '-Oz'] : ['-Oz']), from, '-o', to]);
      } else {
        renameSync(from, to);
      }
    }

    const after = { js: digest(join(dir, glue)), wasm: digest(join(dir, `${base}_bg.wasm`)) };
    for (const page of readdirSync(stage).filter((f) => f.endsWith('.html'))) {
      const path = join(stage, page);
      const html = readFileSync(path, 'utf8');
      writeFileSync(path, html.replaceAll(before.js, after.js).replaceAll(before.wasm, after.wasm));
    }
    console.log(`split.mjs: ${program} in ${chunks.length} chunks (${chunks.join(', ')}), ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
