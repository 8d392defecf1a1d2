// What the build scripts share: the built folder a script works on, and the files in it.
import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * The built folder `script` (its name under publish/) works on: its first argument, else Trunk's
 * staging folder when Trunk runs it as a hook. Without either it says how to run it, and exits.
 */
export function builtFolder(script) {
  const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
  if (!dir) {
    console.error(`usage: node publish/${script} <built folder>`);
    process.exit(2);
  }
  return dir;
}

/** Every file under `folder`, as a path relative to it with `/` between its parts. */
export function filesIn(folder) {
  const walk = (dir) => readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
  return walk(folder).map((path) => relative(folder, path).split(sep).join('/'));
}
