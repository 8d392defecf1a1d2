// Bundles the room's transport (public/room/net.mjs with trystero's Nostr strategy, from
// tests/node_modules) into one module, room/net.js, in a build: the teacher's page and the phones
// import it when a room opens. Trunk runs it after every build on its staging folder
// (publish/after-build.mjs); by hand: `node publish/room.mjs dist`.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { builtFolder } from './files.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = builtFolder('room.mjs');
const require = createRequire(join(root, 'tests', 'package.json'));
const esbuild = require('esbuild');
mkdirSync(join(dir, 'room'), { recursive: true });
await esbuild.build({
  entryPoints: [join(root, 'public', 'room', 'net.mjs')],
  nodePaths: [join(root, 'tests', 'node_modules')],
  bundle: true,
  format: 'esm',
  minify: true,
  legalComments: 'eof',
  target: 'es2020',
  outfile: join(dir, 'room', 'net.js'),
  logLevel: 'warning',
});
