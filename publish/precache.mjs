// Writes the service worker into a build: publish/sw.js with the list of the build's files, each
// with a revision (the start of its SHA-256), and a version made of the crate's version and a hash
// of that list, so the worker's bytes change exactly when a file does and browsers then offer the
// new version. Trunk runs it last after every build on its staging folder
// (publish/after-build.mjs); by hand on a built folder: `node publish/precache.mjs dist`.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtFolder, filesIn } from './files.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const dir = builtFolder('precache.mjs');

// Files the worker itself, a host or the release archive add, and none of the app's.
const skipped = (path) => path === 'sw.js' || path === '_headers' || /\.(br|gz|map)$/.test(path);
// The in-tab engine's runtime (about 9 MB) is cached when a scenario first runs in the tab, not on
// every first visit: most visitors never use it, and on a phone it would cost minutes. The page's
// `intab` chunk (the engine's settings and each call's grammar) comes with it, cached on use too.
// The `room` chunk (the teacher's room panel, a student's phone's screen) and the room's
// transport (room/net.js) are cached when a room first opens or a phone opens its join link: a
// room meets over the network. The `zh` chunk (the page's Chinese words) is cached by a visit in
// Chinese, which fetches it before it draws: an English visit never needs it. The user guide
// (guide/) is cached page by page as it is read.
const onUse = (path) => path.startsWith('intab/wllama/') || path === 'room/net.js' || path.startsWith('guide/')
  || /\.split_(intab|room|zh)\.wasm$/.test(path);

const sha = (data) => createHash('sha256').update(data).digest('hex');
const files = filesIn(dir)
  .filter((path) => !skipped(path))
  .sort()
  .map((path) => {
    const entry = [path, sha(readFileSync(join(dir, path))).slice(0, 16)];
    if (onUse(path)) entry.push(1);
    return entry;
  });
const crate = readFileSync(join(here, '..', 'Cargo.toml'), 'utf8').match(/^version\s*=\s*"([^"]+)"/m)[1];
const version = `${crate}-${sha(JSON.stringify(files)).slice(0, 10)}`;
const template = readFileSync(join(here, 'sw.js'), 'utf8');
const marker = "{ version: 'unbuilt', files: [] }";
if (!template.includes(marker)) throw new Error('publish/sw.js lost its PRECACHE marker');
writeFileSync(join(dir, 'sw.js'), template.replace(marker, JSON.stringify({ version, files })));
console.log(`sw.js: version ${version}, ${files.length} files`);
