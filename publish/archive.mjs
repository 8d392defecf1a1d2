// Packs a built folder as agora-web-<version>.tar.gz for any static host: the files as built, each
// text and wasm file also precompressed (.br at brotli's highest quality, .gz at gzip -9) for hosts
// that serve such files (nginx's gzip_static and brotli_static, Caddy's `precompressed`), and a
// `_headers` file that Netlify and Cloudflare Pages read. Usage:
//   node publish/archive.mjs <built folder> <output folder> <version>
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { filesIn } from './files.mjs';

const [dist, out, version] = process.argv.slice(2);
if (!dist || !out || !version) {
  console.error('usage: node publish/archive.mjs <built folder> <output folder> <version>');
  process.exit(2);
}
const name = `agora-web-${version}`;
const folder = join(out, name);
rmSync(folder, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
cpSync(dist, folder, { recursive: true });

const files = filesIn(folder).sort();
const compressible = /\.(html|js|mjs|css|json|wasm|svg|webmanifest|txt)$/;
for (const path of files.filter((p) => compressible.test(p))) {
  const body = readFileSync(join(folder, path));
  writeFileSync(join(folder, `${path}.br`), brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  }));
  writeFileSync(join(folder, `${path}.gz`), gzipSync(body, { level: 9 }));
}

// Trunk names the files it builds with a hash of their content (agora-<hash>_bg.wasm, the hash
// written without its leading zeros, so 16 hex digits or a few fewer), and the split names its
// loader and chunks after them (agora-<hash>.split.js, agora-<hash>.<chunk>.wasm): those can be
// cached for a year. The pages and the service worker are checked with the host at each load, so a
// new deploy is seen at once; other files keep the host's default (Netlify and Cloudflare Pages
// revalidate them). No two rules set one header, so the hosts' different ways of merging them
// cannot matter.
const hashed = files.filter((p) => /-[0-9a-f]{12,16}(_bg|\.[\w-]+)?\.[a-z]+$/.test(p));
const rules = [
  '/*',
  '  Cross-Origin-Opener-Policy: same-origin',
  '  Cross-Origin-Embedder-Policy: require-corp',
  '  X-Content-Type-Options: nosniff',
  '/*.wasm',
  '  Content-Type: application/wasm',
  '/*.webmanifest',
  '  Content-Type: application/manifest+json',
  ...['/', '/index.html', '/compare.html', '/sw.js'].flatMap((p) => [p, '  Cache-Control: no-cache']),
  ...hashed.flatMap((p) => [`/${p}`, '  Cache-Control: public, max-age=31536000, immutable']),
];
writeFileSync(join(folder, '_headers'), `${rules.join('\n')}\n`);

const archive = join(out, `${name}.tar.gz`);
execFileSync('tar', ['-czf', archive, '-C', out, name]);
console.log(`${archive}: ${files.length} files, ${hashed.length} with hashed names`);
