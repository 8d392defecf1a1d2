// A class's own topic on a preset that names another (the director's show on competitive
// sitting): the opening line and the cast's descriptions that named the old topic are written
// afresh for the new one, the editor says so, the title follows, and no speech of the run names
// the old topic, in English and after "让他们说中文" in Chinese.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appSession, openApp, screenshot, waitForStatus, waitForText } from './helpers.mjs';

const session = appSession();
// The Chinese status of a finished run starts so (src/i18n/zh.rs, StatusFinished).
const FINISHED_ZH = '第 ';

/** Every text of the run on the stage: the opening, the descriptions and each speech. */
async function said(page) {
  return [
    ...await page.locator('[data-testid=message] [data-testid=message-text]').allTextContents(),
    ...await page.getByTestId('description').allTextContents(),
  ];
}

/** Plays the scenario to its end at full speed: the status says it finished. */
async function playToEnd(page, finished) {
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForStatus(page, finished);
}

test("a new topic on the director's show: the opening and the cast follow it, and no speech names the old one", async () => {
  const { page, context, errors } = await openApp(session.browser, session.server.url, { width: 1280, height: 720 });
  await page.getByTestId('open-daily-show-director').click();
  await page.getByTestId('tab-scenario').click();
  const topic = 'Should schools replace homework with project days that parents can attend?';
  await page.getByTestId('field-topic').fill(topic);
  await waitForText(page.getByTestId('topic-follow'), /^The opening line and \d of the cast's descriptions named the old topic: the run writes them afresh for this topic/);
  assert.equal(await page.getByTestId('field-opening.text').inputValue(), '', 'the old opening line is gone');
  // The show is renamed for it (a long topic cut at a word in the title).
  assert.match(await page.getByTestId('field-title').inputValue(), /^The Daily Show: Should schools replace homework with project days/);
  await screenshot(page, 'topic/en-follow');
  await playToEnd(page, 'Finished after turn');
  const lines = await said(page);
  assert.ok(lines.length >= 3, lines.join('\n'));
  for (const line of lines) assert.doesNotMatch(line, /sitting|couch|fitness craze/i, line);
  // The class's topic is named, whole, as typed.
  assert.ok(lines.some((l) => l.includes(`“${topic}”`)), lines.join('\n'));
  assert.deepEqual(errors, []);
  await context.close();
});

test('after "让他们说中文", a Chinese topic of the class\'s own: the Chinese opening and cast follow it too', async () => {
  const { page, context, errors } = await openApp(session.browser, session.server.url, { width: 1280, height: 720 }, 'preset-list', { locale: 'zh-CN' });
  await page.getByTestId('open-daily-show-director').click();
  await page.getByTestId('speak-chinese').click();
  await page.getByTestId('tab-scenario').click();
  const before = await page.getByTestId('field-title').inputValue();
  assert.match(before, /竞技静坐/);
  const topic = '高中生是否应该被允许在校园里使用人工智能写作业？';
  await page.getByTestId('field-topic').fill(topic);
  await waitForText(page.getByTestId('topic-follow'), /^开场白和 \d 个角色描述说的是旧话题：运行时会按新话题重新写/);
  const title = await page.getByTestId('field-title').inputValue();
  assert.ok(title.endsWith(`：${topic}`) && !/[A-Za-z]/.test(title), title);
  await screenshot(page, 'topic/zh-follow');
  await playToEnd(page, FINISHED_ZH);
  const lines = await said(page);
  assert.ok(lines.length >= 3, lines.join('\n'));
  for (const line of lines) {
    assert.doesNotMatch(line, /竞技静坐|静坐|sitting/i, line);
    // No English role word in a Chinese speech: the page's words for them.
    assert.doesNotMatch(line, /Audience member|Debate Moderator|Moderator/, line);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

for (const [lang, size] of [['en', { width: 1280, height: 720 }], ['en', { width: 1024, height: 768 }], ['en', { width: 390, height: 844 }], ['zh', { width: 1280, height: 720 }], ['zh', { width: 1024, height: 768 }], ['zh', { width: 390, height: 844 }]]) {
  test(`at ${size.width}x${size.height} in ${lang}, where a topic is typed the demo says what it is and where real speech is`, async () => {
    const options = lang === 'zh' ? { locale: 'zh-CN' } : {};
    const { page, context, errors } = await openApp(session.browser, session.server.url, size, 'preset-list', options);
    await page.getByTestId('open-rail-debate').click();
    await page.getByTestId('tab-scenario').click();
    const says = page.getByTestId('demo-says');
    await says.waitFor();
    const words = await says.textContent();
    if (lang === 'zh') {
      assert.match(words, /演示模型按固定的句式写发言.*它并不理解你的话题/);
      assert.match(words, /智谱 GLM-4-Flash/);
    } else {
      assert.match(words, /The demo model writes from patterns to show how speakers are chosen: it cannot reason about your topic/);
      assert.match(words, /Google AI Studio's Gemini, Groq, OpenRouter's free models/);
    }
    await screenshot(page, `topic/demo-says-${lang}-${size.width}`);
    // The model in the tab says its pace here once it has loaded here; this browser never did.
    await waitForText(page.getByTestId('real-intab-pace'), lang === 'zh'
      ? /^在这里加载过一次之后，这里会显示它在这台设备上的速度。$/
      : /^Once it has loaded here, its pace on this device shows here\.$/);
    // Each way leads to its model, whose settings then say what this device allows.
    await page.getByTestId('real-intab').click();
    assert.equal(await page.getByTestId('field-model.provider').inputValue(), 'browser');
    await says.waitFor({ state: 'detached' });
    await page.getByTestId('field-model.provider').selectOption('demo');
    await says.waitFor();
    await page.getByTestId('real-key').click();
    assert.equal(await page.getByTestId('field-model.provider').inputValue(), lang === 'zh' ? 'zhipu' : 'gemini');
    assert.ok(await page.getByTestId('field-model.provider').evaluate((el) => el === document.activeElement), 'the list has the focus');
    // Where to get a key, right under the list.
    const keyPage = page.getByTestId('key-page');
    await waitForText(keyPage, lang === 'zh' ? /^在这里获取密钥：open\.bigmodel\.cn，然后粘贴到下面的密钥框里。$/ : /^Get a key at aistudio\.google\.com\/apikey, then paste it into the key field below\.$/);
    assert.equal(await keyPage.locator('a').getAttribute('href'), lang === 'zh' ? 'https://open.bigmodel.cn/' : 'https://aistudio.google.com/apikey');
    await screenshot(page, `topic/key-page-${lang}-${size.width}`);
    // This Chromium has no model behind the Prompt API: the built-in model is not offered.
    await page.getByTestId('field-model.provider').selectOption('demo');
    await waitForText(page.getByTestId('real-builtin-none'), lang === 'zh' ? /没有自带的模型/ : /no built-in model/);
    assert.equal(await page.getByTestId('real-builtin').count(), 0);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('where the browser says it has a built-in model (a stand-in), the demo offers it, and it leads to its settings', async () => {
  const { page, context, errors } = await openApp(session.browser, session.server.url, { width: 1280, height: 720 });
  await context.addInitScript(() => {
    globalThis.LanguageModel = class {
      static async availability() { return 'available'; }
      static async create() { throw new DOMException('not asked in this test', 'NotSupportedError'); }
    };
  });
  await page.reload();
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('tab-scenario').click();
  // Offered with its languages, Chinese not among them.
  assert.match(await page.getByTestId('real-builtin').textContent(), /English, Spanish, Japanese, German and French, not Chinese/);
  await page.getByTestId('real-builtin').click();
  assert.equal(await page.getByTestId('field-model.provider').inputValue(), 'builtin');
  await page.getByTestId('builtin-settings').waitFor();
  assert.equal(await page.getByTestId('demo-says').count(), 0);
  // The badge names the model, never an empty pill.
  assert.match(await page.getByTestId('model-badge').first().textContent(), /built-in model/i);
  assert.deepEqual(errors, []);
  await context.close();
});

for (const lang of ['en', 'zh']) {
  test(`in ${lang}, a new topic keeps the preset's title as the page says it, and the negotiation game says it does not read the topic`, async () => {
    const options = lang === 'zh' ? { locale: 'zh-CN' } : {};
    const { page, context, errors } = await openApp(session.browser, session.server.url, { width: 1280, height: 720 }, 'preset-list', options);
    await page.getByTestId('open-daily-show-director').click();
    await page.getByTestId('tab-scenario').click();
    const topic = lang === 'zh' ? '学校是否应该取消期末考试？' : 'Should our school ban mobile phones during lessons?';
    await page.getByTestId('field-topic').fill(topic);
    const title = await page.getByTestId('field-title').inputValue();
    assert.equal(title, lang === 'zh' ? `《每日秀》：${topic}` : `The Daily Show: ${topic}`);
    assert.deepEqual(errors, []);
    await context.close();
    // The game's topic only names its runs: the editor says so and offers no way to real speech.
    const game = await openApp(session.browser, session.server.url, { width: 1280, height: 720 }, 'preset-list', options);
    await game.page.getByTestId('open-trading-game').click();
    await game.page.getByTestId('tab-scenario').click();
    await waitForText(game.page.getByTestId('topic-unread'), lang === 'zh'
      ? /^谈判游戏不会读取话题：玩家只按游戏规则交易，话题只用来给这次运行命名。$/
      : /^The negotiation game does not read the topic: its players trade by the game's rules alone/);
    assert.equal(await game.page.getByTestId('demo-says').count(), 0);
    await screenshot(game.page, `topic/unread-${lang}`);
    assert.deepEqual(game.errors, []);
    await game.context.close();
  });
}
