// The in-tab model as a judge with real weights (issue 39): a debate played on SmolLM2-135M
// Instruct (Q4_1, see smollm2.mjs) in headless Chromium, then "Judge this run" on the same model.
// Prints how long the verdict took, whether its reply was read (the grammar from the verdict's
// schema holds it), and the scores. Not part of the test command (98 MB, minutes).
//
//   node tests/bench/judge-intab.mjs             # rail-debate, 3 turns
//   BENCH_TURNS=6 node tests/bench/judge-intab.mjs
import { readFileSync } from 'node:fs';
import { launch } from '../e2e/helpers.mjs';
import { onSmollm2, serveBench, smollm2 } from './smollm2.mjs';

const TURNS = Number(process.env.BENCH_TURNS ?? 3);
const model = smollm2();
const site = await serveBench((req, res, path) => {
  if (path !== '/models/smollm2.gguf') return path;
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': model.length }).end(model);
  return true;
});
const browser = await launch();
const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
page.setDefaultTimeout(20 * 60 * 1000);
await page.goto(site.url);
await page.getByTestId('open-rail-debate').click();
await onSmollm2(page, TURNS);
await page.getByTestId('intab-download').click();
await page.getByTestId('intab-download-confirm').click();
await page.getByTestId('intab-ready').waitFor();
await page.getByTestId('run').click();
await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent.startsWith('Finished'));
const started = Date.now();
await page.getByTestId('judge-run').click();
await page.getByTestId('judge-by').waitFor();
const seconds = (Date.now() - started) / 1000;
const notJudged = await page.getByTestId('not-judged').count() ? await page.getByTestId('not-judged').textContent() : '';
const rows = notJudged ? [] : await page.getByTestId('scorecard').locator('tbody tr').evaluateAll((trs) =>
  trs.map((r) => `${r.dataset.agent}: ${[...r.querySelectorAll('td[data-dimension]')].map((td) => `${td.dataset.dimension} ${td.textContent}`).join(', ')}`));
const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
const calls = JSON.parse(readFileSync(await json.path(), 'utf8')).events.filter((e) => e.type === 'model_call' && e.purpose === 'judge');
console.log(`SmolLM2-135M judged a ${TURNS}-turn rail debate in ${seconds.toFixed(1)} s: ${calls.length} call(s), read at attempt ${calls.findIndex((c) => c.parse.ok) + 1 || 'none'}; prompt ${calls[0]?.usage?.prompt_tokens ?? '?'} tokens, reply ${calls.map((c) => c.usage?.completion_tokens ?? '?').join('/')} tokens`);
console.log(notJudged || rows.join('\n'));
console.log(`reasons (first agent): ${(await page.getByTestId('reasons').first().textContent().catch(() => '')).slice(0, 300)}`);
await browser.close();
await site.close();
