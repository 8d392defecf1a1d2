// Builds the user guide (docs/guide, an mdBook) into the built folder's guide/, so the app and its
// manual are published together and the page can link to it. mdBook 0.5.4 is installed by
// .ci/setup; `mdbook build` needs no network.
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtFolder } from './files.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const book = join(here, '..', 'docs', 'guide');
const out = resolve(builtFolder('guide.mjs'), 'guide');
const mdbook = process.env.AGORA_MDBOOK ?? join(process.env.HOME ?? '', '.cargo', 'bin', 'mdbook');
const command = existsSync(mdbook) ? mdbook : 'mdbook';
rmSync(out, { recursive: true, force: true });
try {
  execFileSync(command, ['build', book, '--dest-dir', out], { stdio: ['ignore', 'ignore', 'inherit'] });
} catch (e) {
  console.error(`guide.mjs: the user guide could not be built with ${command} (bash .ci/setup installs mdBook 0.5.4): ${e.message}`);
  process.exit(1);
}
console.log(`guide.mjs: the user guide in ${out}`);
