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
        // Flattening and rebuilding the control flow, then shrinking twice more, takes about
        // 0.7 % more off each module than -Oz alone (docs/size.md).
        run(bin('wasm-opt'), [...features, '-Oz', '--flatten', '--rereloop', '-Oz', '-Oz', from, '-o', to]);
      } else {
        renameSync(from, to);
      }
    }

    const packs = loader ? pack(dir, base) : [];

    const after = { js: digest(join(dir, glue)), wasm: digest(join(dir, `${base}_bg.wasm`)) };
    for (const page of readdirSync(stage).filter((f) => f.endsWith('.html'))) {
      const path = join(stage, page);
      const html = readFileSync(path, 'utf8');
      // The start script begins the packs' downloads the moment the start screen's wasm is in
      // (boot/start.js), before the loader that knows them has arrived.
      const named = html.replace(/(<script type="module" src="[^"]*boot\/start\.js")/,
        `$1 data-packs="${packs.map((f) => `./${f}`).join(' ')}"`);
      writeFileSync(path, named.replaceAll(before.js, after.js).replaceAll(before.wasm, after.wasm));
    }
    console.log(`split.mjs: ${program} in ${chunks.length} chunks (${chunks.join(', ')}), ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Puts the files the stage needs (the workspace's chunk, and the chunks it and the demo model
 * share with the rest) into two packs, `<base>.pack-shared.wasm` (what the room's chunk needs too)
 * and `<base>.pack-stage.wasm`, each fetched once by the loader and handed out part by part. The stage's path is some forty files, many of a few hundred bytes: over
 * HTTP/1.1's six connections and a slow network's round trips, fetching them one by one left
 * the line idle between them. The demo model's own chunk stays a file of its own (a page whose
 * demo model cannot be fetched says so, and a test blocks it by name). Chunks nothing on the
 * stage's path needs stay files of their own, fetched when first used.
 */
function pack(dir, base) {
  const path = join(dir, `${base}.split.js`);
  let loader = readFileSync(path, 'utf8');
  const file = (name) => `${base}.${name}.wasm`;
  // Each load in the loader: its file and the chunks it waits for.
  const loads = new Map();
  const load = /(?:const (__chunk_\d+)|export const __wasm_split_load_(\w+)) = (?:wrapAsyncCb\()?makeLoad\(\(\) => \{\s*const src = fetch\(new URL\("\.\/([^"]+)", import\.meta\.url\)\);[\s\S]*?\n, \[([^\]]*)\]\)/g;
  for (const m of loader.matchAll(load)) {
    loads.set(m[1] ?? `entry:${m[2]}`, { file: m[3], deps: m[4].split(',').map((d) => d.trim()).filter(Boolean) });
  }
  const path_of = (key, seen = new Set()) => {
    if (seen.has(key) || !loads.has(key)) return seen;
    seen.add(key);
    for (const dep of loads.get(key).deps) path_of(dep, seen);
    return seen;
  };
  if (!loads.has('entry:workspace') || !loads.has('entry:demo')) throw new Error('split.mjs: the loader has no workspace or demo entry to pack');
  const keys = new Set([...path_of('entry:workspace'), ...path_of('entry:demo')]);
  keys.delete('entry:demo');
  // Two packs: what a student's phone needs too (the room's chunk shares it), and the rest, so
  // a phone joining a room does not download the stage.
  const room = loads.has('entry:room') ? path_of('entry:room') : new Set();
  const packs = [
    { name: 'pack-shared', keys: [...keys].filter((k) => room.has(k)) },
    { name: 'pack-stage', keys: [...keys].filter((k) => !room.has(k)) },
  ].filter((p) => p.keys.length);
  const described = [];
  for (const [i, p] of packs.entries()) {
    // The largest first: each part is compiled as soon as its bytes are in, while the rest arrive.
    const files = p.keys.map((key) => loads.get(key).file)
      .map((name) => ({ name, bytes: readFileSync(join(dir, name)) }))
      .sort((x, y) => y.bytes.length - x.bytes.length);
    const parts = {};
    let at = 0;
    for (const { name, bytes } of files) {
      const short = name.slice(base.length + 1, -'.wasm'.length);
      parts[short] = [at, at + bytes.length];
      at += bytes.length;
      const fetched = new RegExp(`fetch\\(new URL\\("\\./${name.replace(/\./g, '\\.')}", import\\.meta\\.url\\)\\);\\s*src\\.catch\\(\\(\\) => \\{\\}\\);\\s*return async \\(imports\\) => \\(WebAssembly\\.instantiateStreaming\\(src, imports\\)\\);`);
      if (!fetched.test(loader)) throw new Error(`split.mjs: the loader does not fetch ${name} as expected`);
      loader = loader.replace(fetched, `__packed(${i}, "${short}");\n    return async (imports) => (WebAssembly.instantiate(await src, imports));`);
      rmSync(join(dir, name));
    }
    writeFileSync(join(dir, file(p.name)), Buffer.concat(files.map((f) => f.bytes)));
    described.push(`{ url: new URL("./${file(p.name)}", import.meta.url), parts: ${JSON.stringify(parts)}, size: ${at}, got: undefined }`);
    console.log(`split.mjs: ${files.length} files in ${file(p.name)} (${at} bytes)`);
  }
  // Each pack is one download, read as it arrives: each part's compiling starts when its last
  // byte is in. A failed download fails every part still waiting, and the next load asks for the
  // file again, as the loader does for a chunk of its own.
  const helper = `const __packs = [${described.join(', ')}];
function __packStart(pack) {
    const got = new Map();
    for (const name of Object.keys(pack.parts)) {
        const part = {};
        part.module = new Promise((ok, fail) => Object.assign(part, { ok, fail }));
        part.module.catch(() => {});
        got.set(name, part);
    }
    const order = [...got.keys()].sort((a, b) => pack.parts[a][0] - pack.parts[b][0]);
    (async () => {
        // The start script may have asked for it already (boot/start.js, data-packs).
        // Marked as taken, so it does not ask again; a retry fetches anew.
        const early = globalThis.agoraPacks?.get(pack.url.href);
        globalThis.agoraPacks?.set(pack.url.href, null);
        const response = await (early ?? fetch(pack.url));
        if (!response.ok) throw new Error(\`\${pack.url} answered \${response.status}\`);
        const bytes = new Uint8Array(pack.size);
        const reader = response.body.getReader();
        let at = 0, next = 0;
        for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            if (at + value.length > bytes.length) throw new Error(\`\${pack.url} is longer than this version's\`);
            bytes.set(value, at);
            at += value.length;
            while (next < order.length && pack.parts[order[next]][1] <= at) {
                const [start, end] = pack.parts[order[next]];
                got.get(order[next++]).ok(WebAssembly.compile(bytes.subarray(start, end)));
            }
        }
        if (next < order.length) throw new Error(\`\${pack.url} is shorter than this version's\`);
    })().catch((e) => {
        for (const part of got.values()) part.fail(e);
        if (pack.got === got) pack.got = undefined;
    });
    return got;
}
function __packGot(pack) {
    if (pack.got === undefined) pack.got = __packStart(pack);
    return pack.got;
}
function __packed(i, name) {
    return __packGot(__packs[i]).get(name).module;
}
export function __wasm_split_prefetch() {
    __packs.forEach(__packGot);
}
`;
  loader = loader.replace(/\nlet sharedImports/, `\n${helper}let sharedImports`);
  if (!loader.includes('function __packed')) throw new Error('split.mjs: no place for the pack in the loader');
  writeFileSync(path, loader);
  return packs.map((p) => file(p.name));
}
