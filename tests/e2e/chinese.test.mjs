// What a Chinese teacher met in English on a Chinese page (issue 71): the browser tab's title, the
// director's "(first agent)" choice and the run's estimate. Each is said in the page's language,
// and in English on an English page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appSession, eventually, openApp, screenshot, waitForText } from './helpers.mjs';

const session = appSession();

for (const [lang, words] of [
  ['en', { title: 'Agora: multi-agent dialogue simulations', first: '(first agent)', estimate: /^Estimate: about \d+ calls, [\d K]+ tokens(, \$[\d.]+)? for \d+ turns\.$/ }],
  ['zh', { title: 'Agora：多智能体对话模拟', first: '（第一个角色）', estimate: /^估算：\d+ 轮大约要调用 \d+ 次模型，用 [\d K]+ 个 token(，约 \$[\d.]+)?。$/ }],
]) {
  test(`${lang}: the tab's title, the director's first-agent choice and the estimate are in the page's language`, async () => {
    const options = lang === 'zh' ? { locale: 'zh-CN' } : {};
    const { page, errors } = await openApp(session.browser, session.server.url, { width: 1280, height: 720 }, 'preset-list', options);
    await eventually(async () => assert.equal(await page.title(), words.title));
    await page.getByTestId('open-daily-show-director').click();
    await page.getByTestId('tab-scenario').click();
    const first = page.locator('[data-testid="field-method.director"] option[value=""]');
    assert.equal((await first.textContent()).trim(), words.first);
    // On a provider's model, the estimate before a run.
    await page.getByTestId('field-model.provider').selectOption('openai');
    await page.getByTestId('field-model.name').fill('gpt-4o-mini');
    await waitForText(page.getByTestId('estimate'), words.estimate, 15000);
    await screenshot(page, `chinese/${lang}-estimate`);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('zh: a provider\'s help says what to do in plain words, and the labels are the ones a Chinese teacher uses', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url, { width: 1280, height: 720 }, 'preset-list', { locale: 'zh-CN' });
  // The gallery names the past runs as a teacher would.
  await waitForText(page.getByTestId('past-runs').locator('h2'), /^历史记录$/);
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('tab-scenario').click();
  for (const provider of ['zhipu', 'zai', 'qwen-cn', 'moonshot-cn', 'siliconflow-cn', 'gemini']) {
    await page.getByTestId('field-model.provider').selectOption(provider);
    const note = await page.getByTestId('browser-note').textContent();
    for (const jargon of ['CORS', '预检', 'agora run', '终端', 'OpenAI SDK']) {
      assert.ok(!note.includes(jargon), `${provider}: "${jargon}" in ${note}`);
    }
  }
  // Where a provider may refuse the page, the note names one that works.
  await page.getByTestId('field-model.provider').selectOption('moonshot-cn');
  assert.match(await page.getByTestId('browser-note').textContent(), /智谱 GLM/);
  assert.match(await page.locator('[data-testid=editor]').textContent(), /接口地址/);
  assert.deepEqual(errors, []);
  await page.close();
});

