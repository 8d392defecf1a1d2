// The page in Simplified Chinese: chosen from the browser's languages, switched in the header and
// kept on the device, `lang` on the page, and no English left where the page speaks Chinese
// (names, the models' words and codes aside).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  appSession, comparisonColumns, eventually, loopbackOnly, openApp, root, screenshot, startRelay, startTurn, setComparison, waitForStatus, waitForText,
} from './helpers.mjs';

const session = appSession();

// What may stay in Latin letters on a Chinese page: the cast's names in every preset, the
// presets' resources, the app's own name, a model's name, the words a handoff model writes, the
// framework a method comes from, and key names.
const scenarios = readdirSync(join(root, 'public', 'scenarios')).filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(join(root, 'public', 'scenarios', f), 'utf8')));
// The Latin words the Chinese catalogue keeps on purpose (src/i18n/zh.rs, KEPT_LATIN): names of
// things a reader types, presses or looks up.
const KEPT = readFileSync(join(root, 'src', 'i18n', 'zh.rs'), 'utf8').split('KEPT_LATIN')[1].split('];')[0]
  .match(/"[^"]+"/g).map((w) => JSON.parse(w));
const NAMES = new Set([
  ...KEPT,
  ...scenarios.flatMap((s) => [...s.agents.map((a) => a.name), s.opening?.speaker ?? ''].flatMap((n) => n.split(/[^A-Za-z]+/))),
  'Agora', 'WOOD', 'STONE', 'GOLD', 'Alice', 'Bob', 'AI', 'AutoGen', 'SelectorGroupChat', 'Transition', 'to', 'Esc', 'CSV', 'JSON',
  // Providers by their own names, and a template's placeholder as it is typed.
  'Gemini', 'OpenRouter', 'Groq', 'Together', 'Mistral', 'DeepSeek', 'name',
  'TRADE', 'ACCEPT', 'REJECT', 'END', 'Gus', 'CORS', 'Nostr', 'STUN', 'TURN', 'none', 'agora', 'relay', 'ws', 'host',
]);

/**
 * The Latin words a person reads in the parts of the page `selectors` name (shown text, and the
 * titles and labels a pointer or a screen reader finds) that are not names, codes or a model's
 * words.
 */
async function english(page, selectors) {
  const words = await page.evaluate((sel) => {
    const out = [];
    // What a model wrote or reads: a speech, a director's reflection, a reasoning, a raw reply,
    // the prompt a seat is shown and a trading player's strategy (the seed's own words, sent as
    // they are).
    // A judge's reasons and the speeches it quotes and the texts of a run's prompts are the
    // models' words too (the default rubric's dimensions are shown in the page's language).
    const said = '[data-testid=message-text], .message .text, .reflection, .reasoning, details.raw, [data-testid=seat-prompt], .prompt-text, '
      + '.reason > h3 + p, .reason q, textarea, .parse .read, .call pre, .descriptions p';
    // Codes: a room's code, its join link, a command to type; and the terminal's own lines.
    const codes = 'code, .room-code, .batch-figures pre';
    const skipped = (el) => el.closest('[lang=en]') || el.closest(said) || el.closest(codes);
    const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
    for (const root of sel.flatMap((s) => [...document.querySelectorAll(s)])) {
      if (!shown(root)) continue;
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement;
        // A select's options are read when it opens: all of them count.
        if (el && (shown(el) || el.tagName === 'OPTION') && !skipped(el)) out.push(n.textContent);
      }
      for (const el of [root, ...root.querySelectorAll('*')]) {
        if (!shown(el) || skipped(el)) continue;
        for (const a of ['title', 'aria-label', 'placeholder']) if (el.getAttribute(a)) out.push(el.getAttribute(a));
      }
    }
    return out;
  }, selectors);
  // A name as a model wrote it ("transition to proponent") is a name still.
  const named = (w) => NAMES.has(w) || NAMES.has(w[0].toUpperCase() + w.slice(1));
  return [...new Set(words.flatMap((w) => w.match(/[A-Za-z]{2,}/g) ?? []))].filter((w) => !named(w));
}

/** The app in a browser whose languages are `locale`'s (Chinese unless said). */
const chinesePage = ({ locale = 'zh-CN', size = { width: 1280, height: 720 } } = {}) => openApp(session.browser, session.server.url, size, 'preset-list', { locale });

/** Chooses `code` in the header's switch; the page loads again in it. */
async function switchTo(page, code) {
  await Promise.all([page.waitForEvent('load'), page.getByTestId('language').selectOption(code)]);
  await page.getByTestId('language').waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), code);
}

const START = ['header.top', 'main.start'];
const STAGE = ['header.topbar', '.controls', '[data-testid=transcript]'];

test('a browser that asks for Chinese gets the start screen and the stage in Chinese, lang=zh-Hans', async () => {
  const { page, context, errors } = await chinesePage();
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-Hans');
  await eventually(async () => assert.equal(await page.getByRole('heading', { level: 2 }).first().textContent(), '选择一个场景'));
  // The switch comes with the rest of the app: once it is there, the whole start screen is.
  await page.getByTestId('language').waitFor();
  assert.equal(await page.getByTestId('language').inputValue(), 'zh-Hans');
  assert.deepEqual(await english(page, START), [], 'English on the Chinese start screen');
  assert.match(await page.getByTestId('open-rail-debate').textContent(), /竞价发言.*总统辩论/);
  await screenshot(page, 'zh-start-1280');

  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('run').waitFor();
  assert.equal(await page.getByTestId('run').textContent(), '运行');
  assert.equal(await page.getByTestId('status').textContent(), '就绪');
  assert.equal(await page.getByTestId('stage-title').textContent(), '总统辩论：横贯美国的高速铁路');
  assert.deepEqual(await english(page, STAGE), [], 'English on the Chinese stage before a run');
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForStatus(page, '第 10 轮后结束：已到轮数上限');
  await screenshot(page, 'zh-stage-1280');
  // The speeches are the demo model's (English, as the scenario asks): the controls, the bar,
  // the status and the bid board are walked here.
  assert.deepEqual(await english(page, ['header.topbar', '.controls', '.decisions']), [], 'English on the Chinese stage after a run');
  assert.match(await page.getByTestId('bid-turn').first().locator('h3').textContent(), /^第 \d+ 轮 · .+ 发言$/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("the director's show in Chinese: its odds, draws and choices read as Chinese sentences", async () => {
  const { page, context, errors } = await chinesePage();
  await page.getByTestId('open-daily-show-director').click();
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForStatus(page, '第 ');
  await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent.includes('结束'), null, { timeout: 60000 });
  assert.match(await page.getByTestId('stop-draw').first().textContent(), /^每轮有 1\/\d+ 的机会结束节目：抽到 0\.\d{3}（低于 0\.\d{2} 才结束），节目(继续|结束)$/);
  assert.match(await page.getByTestId('director-choice').first().locator('strong').textContent(), / 请 .+ 接着发言$/);
  // The director's reply and how it was read, in words: the number it gave on its list.
  assert.match(await page.getByTestId('director-choice').first().locator('span.muted').textContent(), /^（导演回复“.+”，即名单上编号为 \d+ 的那位）/);
  assert.deepEqual(await english(page, ['header.topbar', '.controls', '.decisions']), [], 'English on the Chinese director show');
  await screenshot(page, 'zh-director-1280');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a seat, an interjection and the floor in Chinese: the question, its form and the rows under the stage', async () => {
  const { page, context, errors } = await chinesePage();
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('seat-0').check();
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  // Seed 000's opening asks the seat for its own description first.
  await waitForText(page.locator('[data-testid=seat] h2'), '轮到你了：Donald Trump（角色介绍）');
  await waitForStatus(page, '等你作答 · 第 ');
  await page.getByTestId('interject-text').fill('What about freight?');
  await page.getByTestId('interject').click();
  await page.getByTestId('seat-send').click();
  await waitForText(page.getByTestId('seat-problem'), '没有发送：回答是空的。');
  // The transcript too: the interjection waits there, tagged, below the turn under way.
  assert.deepEqual(await english(page, ['.controls', '.decisions', '.class-row', '.transcript-panel']), [], 'English around a question to the class');
  await screenshot(page, 'zh-seat-1280');
  await page.getByTestId('seat-text').fill('A builder who never takes no for an answer.');
  await page.getByTestId('seat-send').click();
  await waitForText(page.locator('[data-testid=seat] h2'), '轮到你了：Donald Trump（出价）');
  assert.deepEqual(await english(page, ['.controls', '.decisions', '.class-row']), [], 'English around a bid asked of the class');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the header switches to English and back, kept on the device across a reload', async () => {
  const { page, context, errors } = await chinesePage();
  await switchTo(page, 'en');
  assert.equal(await page.getByRole('heading', { level: 2 }).first().textContent(), 'Pick a scenario');
  assert.equal(await page.getByTestId('language').inputValue(), 'en');
  // Kept: a reload of a browser that asks for Chinese stays in English.
  await page.reload();
  await page.getByTestId('language').waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  assert.equal(await page.getByTestId('open-rail-debate').locator('h3').textContent(), 'Presidential debate: transcontinental high-speed rail');
  await switchTo(page, 'zh-Hans');
  assert.equal(await page.getByRole('heading', { level: 2 }).first().textContent(), '选择一个场景');
  assert.deepEqual(errors, []);
  await context.close();
});

test("while the wasm arrives, a Chinese visit shows the shell's shapes and progress bar, not its English words", async () => {
  const visits = [['zh-CN', null, true], ['en-US', null, false], ['en-US', 'zh-Hans', true], ['zh-CN', 'en', false], ['zh-TW', null, false]];
  for (const [locale, kept, quiet] of visits) {
    const context = await session.browser.newContext({ locale, viewport: { width: 1280, height: 720 } });
    if (kept) await context.addInitScript((k) => localStorage.setItem('agora.lang', k), kept);
    const page = await context.newPage();
    // The page's wasm held back: what shows meanwhile is the static shell.
    let release;
    const held = new Promise((ok) => { release = ok; });
    await page.route(/_bg\.wasm$/, async (route) => { await held; await route.continue(); });
    // (The page's load waits for the wasm: only the response is awaited.)
    await page.goto(session.server.url, { waitUntil: 'commit' });
    await page.locator('#shell progress').waitFor();
    const what = `${locale}, kept ${kept}`;
    await eventually(async () => assert.equal(await page.evaluate(() => document.documentElement.lang), quiet ? 'zh-Hans' : 'en', what));
    // (By selector: the suite's test ids bring the app's controls into reach, and there is no app yet.)
    const shown = await page.locator('#shell').evaluate((el) => el.innerText.trim());
    if (quiet) assert.doesNotMatch(shown, /[A-Za-z]/, `${what}: ${shown}`);
    else assert.match(shown, /Pick a scenario/, what);
    assert.ok(await page.locator('[data-shell-wasm]').isVisible(), `${what}: the progress bar shows`);
    release();
    await page.getByTestId('preset-list').waitFor();
    assert.equal(await page.getByRole('heading', { level: 2 }).first().textContent(), quiet ? '选择一个场景' : 'Pick a scenario', what);
    await context.close();
  }
});

test('a browser that asks for traditional Chinese or English gets English; a run under way survives a switch', async () => {
  for (const locale of ['zh-TW', 'en-GB']) {
    const { page, context } = await chinesePage({ locale });
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en', locale);
    assert.equal(await page.getByRole('heading', { level: 2 }).first().textContent(), 'Pick a scenario', locale);
    await context.close();
  }
  const { page, context, errors } = await chinesePage({ locale: 'en-US' });
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished');
  const said = await page.getByTestId('message').count();
  await page.getByTestId('to-gallery').click();
  await switchTo(page, 'zh-Hans');
  await waitForStatus(page, '第 10 轮后结束');
  assert.equal(await page.getByTestId('message').count(), said, 'the run on screen is the one played before the switch');
  await screenshot(page, 'zh-after-switch');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the other methods in Chinese: handoffs, the selector, random draws, round robin and the trading game', async () => {
  const { page, context, errors } = await chinesePage();
  const runs = [
    ['ai-morality-handoff', '[data-testid=handoff]', /^第 \d+ 轮 · .+ (在发言中点名，把发言权交给|通过工具调用，把发言权交给|用 JSON 回复，把发言权交给) .+|.+ 的.+没有.+随机抽中 .+ 发言/],
    ['town-hall-selector', '[data-testid=selection]', /^第 \d+ 轮 · (点名模型|只有 ).+/],
    ['rail-debate-random', '[data-testid=draw]', /^第 \d+ 轮 · .+/],
    ['trading-game', '[data-testid=action]', /^第 \d+ 轮 · .+ (提出用 \d+ 个 [A-Z]+ 换 \d+ 个 [A-Z]+|接受|拒绝|提出结束游戏)/],
  ];
  for (const [preset, row, sentence] of runs) {
    await page.getByTestId(`open-${preset}`).click();
    await page.getByTestId('run').waitFor();
    assert.deepEqual(await english(page, ['.decisions']), [], `English in ${preset}'s panel before a run`);
    await page.getByTestId('speed').selectOption('0');
    await page.getByTestId('run').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent.includes('结束'), null, { timeout: 60000 });
    await eventually(async () => assert.match((await page.locator(row).first().textContent()).trim(), sentence, preset));
    assert.deepEqual(await english(page, ['header.topbar', '.controls', '.decisions']), [], `English in ${preset}'s panel after a run`);
    await screenshot(page, `zh-${preset}-1280`);
    await page.getByTestId('to-gallery').click();
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test("a class room in Chinese: the teacher's panel, and a phone whose browser reads Chinese", async () => {
  const relay = await startRelay();
  const turn = await startTurn();
  const contexts = [];
  /** A page in a Chinese browser, its WebRTC on loopback and the room meeting at the local relay. */
  const open = async (url, options) => {
    const context = await session.browser.newContext({ locale: 'zh-CN', ...options });
    contexts.push(context);
    await context.addInitScript(loopbackOnly);
    await context.addInitScript((s) => localStorage.setItem('agora.room', s), JSON.stringify({ relay: relay.url, ice: turn.ice }));
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(url);
    return { page, errors };
  };
  try {
    const teacher = await open(session.server.url, { viewport: { width: 1280, height: 720 } });
    const t = teacher.page;
    await t.getByTestId('open-rail-debate').click();
    assert.equal(await t.getByTestId('room-open').textContent(), '开启手机互动（学生扫码加入）');
    await t.getByTestId('room-open').click();
    const link = await t.getByTestId('room-link').getAttribute('href');
    const phone = await open(link, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const p = phone.page;
    await waitForText(p.getByTestId('phone-join'), '加入');
    assert.equal(await p.evaluate(() => document.documentElement.lang), 'zh-Hans');
    assert.deepEqual(await english(p, ['main']), [], 'English on the phone before joining');
    await p.getByTestId('phone-join').click();
    await waitForText(p.getByTestId('phone-note'), '请先输入你的名字。');
    await p.getByTestId('phone-name').fill('Gus');
    await p.getByTestId('phone-join').click();
    await waitForText(p.getByTestId('phone-who'), 'Gus，你是观众。', 30000);
    assert.deepEqual(await english(p, ['main']), [], 'English on the phone in the room');
    await screenshot(p, 'zh-phone');
    await eventually(async () => assert.match(await t.getByTestId('room-students').textContent(), /Gus/), { timeout: 20000 });
    assert.match(await t.locator('.room-manage h4').first().textContent(), /^已加入（1）$/);
    assert.deepEqual(await english(t, ['[data-testid=room]']), [], "English in the teacher's room panel");
    await screenshot(t, 'zh-room-1280');
    assert.deepEqual([...teacher.errors, ...phone.errors], []);
  } finally {
    for (const c of contexts) await c.close();
    relay.close();
    turn.close();
  }
});

test('every tab of the drawer in Chinese, before a run and after one, with the verdict and the calls', async () => {
  const { page, context, errors } = await chinesePage();
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('run').waitFor();
  const tabs = ['scenario', 'class', 'files', 'stats', 'judge', 'batch', 'compare', 'inspector'];
  /** Opens each tab in turn and walks the drawer: no English in any (every tab's said at once). */
  const walk = async (when) => {
    const found = {};
    for (const tab of tabs) {
      await page.getByTestId(`tab-${tab}`).click();
      const pane = page.getByTestId(`pane-${tab}`);
      await pane.waitFor();
      // A tab's content comes with the drawer's chunk: something in it is drawn before it is read.
      await eventually(async () => assert.ok((await pane.locator('button, h2, label, table, p').count()) > 0, `${tab} drawn`));
      const words = await english(page, ['#drawer']);
      if (words.length) found[tab] = words;
    }
    assert.deepEqual(found, {}, `English in the drawer's tabs ${when}`);
  };
  await walk('before a run');
  await page.getByTestId('tab-scenario').click();
  await screenshot(page, 'zh-tab-scenario-1280');
  // The editor's advanced lists: every prompt template's name and the judge's settings.
  const lists = page.locator('[data-testid=pane-scenario] details.templates:visible');
  assert.ok((await lists.count()) >= 2, 'the method and the judge have template lists');
  for (const list of await lists.all()) {
    await list.locator('summary').click();
    await list.locator('textarea, [data-testid=judge-settings]').first().waitFor();
  }
  await page.getByTestId('judge-settings').waitFor();
  assert.deepEqual(await english(page, ['#drawer']), [], "English in the editor's template lists");
  assert.match(await page.getByTestId('judge-settings').locator('h4').first().textContent(), /^为每位智能体打分$/);
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForStatus(page, '第 10 轮后结束');
  // The demo judge's verdict, and the inspector open on its calls.
  await page.getByTestId('tab-judge').click();
  await page.getByTestId('judge-run').click();
  await page.getByTestId('scorecard').waitFor({ timeout: 60000 });
  assert.equal(await page.getByTestId('judge-run').textContent(), '重新评判');
  await page.getByTestId('tab-inspector').click();
  await page.getByTestId('inspector').locator('summary').first().click();
  await page.getByTestId('call').first().waitFor();
  assert.match(await page.getByTestId('call').first().locator('summary').textContent(), /^第 \d+ 轮 · .+ · 第 1 次尝试 · \d+ 毫秒/);
  await walk('after a run');
  await page.getByTestId('tab-stats').click();
  assert.equal(await page.locator('[data-testid=stats-agent][data-agent=Total]').textContent(), '合计');
  await screenshot(page, 'zh-tab-stats-1280');
  await page.getByTestId('tab-judge').click();
  await screenshot(page, 'zh-tab-judge-1280');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a comparison in Chinese: its controls, strip, columns and side-by-side judging', async () => {
  const { page, context, errors } = await chinesePage();
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('field-max_turns').fill('4');
  await page.getByTestId('tab-compare').click();
  await setComparison(page, 'method', 'bidding, round_robin');
  await page.getByTestId('compare-open').click();
  const frame = await comparisonColumns(page, 2);
  // The columns are named by the methods' Chinese words, what varies by its own.
  assert.deepEqual(await frame.locator('[data-testid=compare-column] h3').allTextContents(), ['方法：竞价发言', '方法：轮流发言']);
  assert.match(await frame.locator('h2').first().textContent(), /：按方法对比$/);
  // What a column's strip and panels say: the scenario's judging dimensions in the strip's rows
  // are the scenario's own words.
  const walk = async (when) => {
    const found = await english(page, ['[data-testid=compare-frame]']);
    assert.deepEqual(found, [], `English on the Chinese comparison ${when}`);
  };
  await walk('before it plays');
  await frame.getByTestId('compare-play').click();
  await eventually(async () => assert.equal(await frame.getByTestId('column-finished').count(), 2), { timeout: 30000 });
  assert.match(await frame.getByTestId('column-finished').first().textContent(), /^已结束：/);
  await frame.getByTestId('compare-judge').click();
  await eventually(async () => assert.ok(await frame.locator('[data-testid=compare-strip] td[data-figure^="judge:"]').count() > 0), { timeout: 30000 });
  await frame.getByTestId('compare-side-by-side').click();
  await frame.getByTestId('pair').first().waitFor({ timeout: 30000 });
  assert.match(await frame.getByTestId('side-by-side').textContent(), /由演示评委（文本统计，不用模型）评判/);
  for (const o of await frame.getByTestId('pair-outcome').allTextContents()) assert.match(o, /^(A：方法：.+|B：方法：.+|平局.*)$/);
  await walk('after it played and was judged');
  await screenshot(page, 'zh-comparison-1280');
  assert.deepEqual(errors, []);
  await context.close();
});

test("a key that looks wrong is said in Chinese: a space inside it, another provider's start, Zhipu's two parts", async () => {
  const { page, context, errors } = await chinesePage();
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('tab-scenario').click();
  const problem = page.getByTestId('key-problem');
  // (The start a provider's keys have is a code, quoted as it is typed.)
  for (const [provider, key, said, code = []] of [
    ['openai', 'sk-abc def', /^密钥中间有空格或换行/],
    ['anthropic', 'sk-proj-abc', /的密钥以“sk-ant-”开头：/, ['sk', 'ant']],
    ['zhipu', 'abcdef', /的密钥是用点连接的两部分（编号\.密文）/],
  ]) {
    await page.getByTestId('field-model.provider').selectOption(provider);
    await page.getByTestId('api-key').fill(key);
    await eventually(async () => assert.match(await problem.textContent(), said));
    assert.deepEqual(await english(page, ['[data-testid=key-problem]']), code, `${provider}'s key problem`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test("a scenario's field that is wrong says why in Chinese, under the field", async () => {
  const { page, context, errors } = await chinesePage();
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('tab-scenario').click();
  await page.getByTestId('field-title').fill('');
  await page.getByTestId('field-max_turns').fill('0');
  await page.getByTestId('field-word_limit').fill('0');
  assert.equal(await page.getByTestId('error-title').textContent(), '需要填写标题');
  assert.equal(await page.getByTestId('error-max_turns').textContent(), '必须在 1 到 10000 之间');
  assert.equal(await page.getByTestId('error-word_limit').textContent(), '至少为 1');
  assert.deepEqual(await english(page, ['#drawer']), [], 'English in the editor with its errors');
  await page.getByTestId('field-max_turns').fill('五十');
  assert.equal(await page.getByTestId('error-max_turns').textContent(), '“五十”不是有效的数字');
  assert.deepEqual(await english(page, ['#drawer']), [], 'English in the editor with its errors');
  assert.deepEqual(errors, []);
  await context.close();
});

test("a batch's summary and charts in Chinese: its sentences, each run's ending, the charts' captions and axes", async () => {
  const { page, context, errors } = await chinesePage();
  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('field-max_turns').fill('4');
  await page.getByTestId('tab-batch').click();
  await page.getByTestId('batch-seeds').fill('1..3');
  await page.getByTestId('batch-run').click();
  await eventually(async () => assert.equal(await page.getByTestId('batch-progress').getAttribute('data-done'), '3'), { timeout: 60000 });
  await page.getByTestId('batch-summary').waitFor();
  const said = await page.getByTestId('batch-summary').locator('li').allTextContents();
  assert.equal(said[0], '全部 3 次运行都到达了轮数上限。');
  assert.ok(said.some((s) => /^Donald Trump 在 \d+% 的轮次中发言/.test(s)), said.join('\n'));
  assert.ok((await page.getByTestId('batch-chart').count()) >= 3);
  assert.deepEqual(await english(page, ['#drawer']), [], 'English in a finished batch');
  await screenshot(page, 'zh-batch-1280');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a Chinese page offers an English scenario Chinese, and the demo debate then speaks it', async () => {
  const { page, context, errors } = await chinesePage();
  await page.getByTestId('open-rail-debate').click();
  const offer = page.getByTestId('language-offer');
  await offer.waitFor();
  assert.deepEqual(await english(page, ['[data-testid=language-offer]']), [], 'English in the offer');
  await page.getByTestId('speak-chinese').click();
  await offer.waitFor({ state: 'detached' });
  // The click says what it did, until the run starts: the preset, as shipped, takes its Chinese
  // topic, opening and cast introductions too.
  await waitForText(page.getByTestId('language-chosen'), /^好的：智能体将用简体中文发言，场景的标题、话题和角色介绍等文字也换成了中文/);
  await page.getByTestId('tab-scenario').click();
  assert.equal(await page.getByTestId('field-language').inputValue(), '简体中文');
  assert.equal(await page.getByTestId('field-topic').inputValue(), '横贯美国的高速铁路');
  assert.equal(await page.getByTestId('field-title').inputValue(), '总统辩论：横贯美国的高速铁路');
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForStatus(page, '第 10 轮后结束');
  // Each agent's speech is the demo model's Chinese (the moderator's opening is the preset's).
  const speeches = await page.locator('[data-testid=message]:not([data-kind=injected]) [data-testid=message-text]').allTextContents();
  assert.equal(speeches.length, 10, speeches.join('\n'));
  for (const speech of speeches) assert.ok((speech.match(/[\u4e00-\u9fff]/g) ?? []).length >= 20, speech);
  // Every line of the transcript, the moderator's and the introductions too, is Chinese but for
  // the candidates' names.
  const lines = [
    ...await page.locator('[data-testid=message] [data-testid=message-text]').allTextContents(),
    ...await page.getByTestId('description').allTextContents(),
  ];
  assert.ok(lines.length >= 14, lines.join('\n'));
  for (const line of lines) {
    const rest = ['Donald Trump', 'Kanye West', 'Elizabeth Warren'].reduce((t, n) => t.replaceAll(n, ''), line);
    assert.doesNotMatch(rest, /[A-Za-z]/, line);
  }
  // The run is over: the scenario speaks Chinese, so nothing is offered again.
  assert.equal(await offer.count(), 0);
  assert.equal(await page.getByTestId('language-chosen').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a refused trade and a handoff that named no one say why in Chinese, from the log's codes", async () => {
  const { page, context, errors } = await chinesePage();
  const runs = [
    ['trading-game', '[data-testid=action][data-valid=false] [data-testid=action-line]', /— 无效：.*[\u4e00-\u9fff]/],
    ['ai-morality-handoff', '[data-testid=handoff][data-fallback=true] .fallback', /原因：.*[\u4e00-\u9fff]/],
  ];
  for (const [preset, row, why] of runs) {
    await page.getByTestId(`open-${preset}`).click();
    await page.getByTestId('run').waitFor();
    // The demo model writes a malformed reply this often: refusals and fallbacks to read.
    await page.getByTestId('field-model.demo.malformed_rate').fill('0.6');
    await page.getByTestId('speed').selectOption('0');
    await page.getByTestId('run').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent.includes('结束'), null, { timeout: 60000 });
    const lines = await page.locator(row).allTextContents();
    assert.ok(lines.length > 0, `${preset} refused nothing`);
    for (const line of lines) assert.match(line, why, `${preset}: ${line}`);
    assert.deepEqual(await english(page, ['.decisions']), [], `English in ${preset}'s reasons`);
    await page.getByTestId('to-gallery').click();
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test("a tournament's leaderboard in Chinese: how to read it, the methods by name, each dimension", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agora-e2e-zh-tournament-'));
  const csv = join(dir, 't.csv');
  execFileSync(join(root, 'target', 'release', 'agora'), ['tournament', 'preset:rail-debate', '--methods', 'bidding,round_robin', '--seeds', '1..2', '--turns', '3', '--out', csv], { stdio: 'ignore' });
  const { page, context, errors } = await chinesePage();
  await page.getByTestId('import').setInputFiles(csv);
  const board = page.getByTestId('leaderboard');
  await board.waitFor();
  // The judge is named as the file names it; the rest of the sentence is the page's.
  await waitForText(page.getByTestId('leaderboard-by'), /^评委：.+；随机种子 1\.\.2。评分是 Bradley–Terry 强度/);
  await waitForText(page.getByTestId('leaderboard-agreement'), /^两种提问顺序在 \d+ 次评判中有 [\d.]+% 结论一致/);
  const methods = await page.getByTestId('leaderboard-table').locator('tbody th').allTextContents();
  assert.equal(methods.length, 2);
  for (const m of methods) assert.match(m, /^[\u4e00-\u9fff]+$/);
  await page.getByTestId('leaderboard-dimensions').locator('summary').click();
  assert.deepEqual(await english(page, ['[data-testid=leaderboard-table]', '[data-testid=leaderboard-agreement]', '[data-testid=leaderboard-dimensions]']), []);
  assert.match(await page.getByTestId('leaderboard-table').locator('tbody td').nth(2).textContent(), / 到 /);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the Chinese page on a projector at 1024x768 and on a 390x844 phone: the stage, a tab, nothing in English', async () => {
  {
    const { page, context, errors } = await chinesePage({ size: { width: 1024, height: 768 } });
    await page.getByTestId('open-daily-show-director').click();
    await page.getByTestId('speed').selectOption('0');
    await page.getByTestId('run').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent.includes('结束'), null, { timeout: 60000 });
    await page.getByTestId('projector').click();
    await page.locator('main.projector').waitFor();
    assert.deepEqual(await english(page, ['header.topbar', '.controls', '.decisions']), [], 'English on the Chinese projector');
    // The offer of Chinese is the teacher's, off the projector.
    assert.equal(await page.getByTestId('language-offer').isVisible(), false);
    await screenshot(page, 'zh-projector-1024');
    assert.deepEqual(errors, []);
    await context.close();
  }
  {
    const { page, context, errors } = await chinesePage({ size: { width: 390, height: 844 } });
    assert.deepEqual(await english(page, START), [], 'English on the Chinese start screen, phone');
    await page.getByTestId('open-rail-debate').click();
    await page.getByTestId('run').waitFor();
    await page.getByTestId('speed').selectOption('0');
    await page.getByTestId('run').click();
    await waitForStatus(page, '第 10 轮后结束');
    assert.deepEqual(await english(page, ['header.topbar', '.controls', '.decisions']), [], 'English on the Chinese stage, phone');
    await screenshot(page, 'zh-phone-stage-390');
    await page.getByTestId('tab-stats').click();
    await page.getByTestId('pane-stats').waitFor();
    assert.deepEqual(await english(page, ['#drawer']), [], 'English in a tab, phone');
    await screenshot(page, 'zh-phone-tab-390');
    assert.deepEqual(errors, []);
    await context.close();
  }
});
