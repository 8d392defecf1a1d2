// Seed 000's opening steps and the prompt templates in the editor: the bidding presets open with
// a specified topic and generated descriptions, an edited template is what the model is sent,
// and "Back to the seed's text" puts the seed's bytes back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { appSession, eventually, ofType, openApp, waitForStatus, waitForText } from './helpers.mjs';

const session = appSession();

async function eventsOf(page) {
  const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
  return JSON.parse(readFileSync(await json.path(), 'utf8')).events;
}

test('the bidding presets open as seeds 000 and 002 do, and the opening shows in the transcript and the inspector', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  for (const preset of ['rail-debate', 'arms-debate']) {
    await page.getByTestId('reset').click();
    await page.getByTestId(`open-${preset}`).click();
    assert.ok(await page.getByTestId('field-opening.specify_topic').isChecked(), `${preset}: the topic specifier is on`);
    assert.ok(await page.getByTestId('field-opening.describe_characters').isChecked(), `${preset}: the descriptions are on`);
    await page.getByTestId('field-max_turns').fill('2');
    await page.getByTestId('speed').selectOption('0');
    await page.getByTestId('run').click();
    await waitForStatus(page, 'Finished');
    const events = await eventsOf(page);
    const [specified] = ofType(events, 'topic_specified');
    const described = ofType(events, 'character_described');
    assert.equal(described.length, 3, preset);
    // The transcript: the moderator puts the specified topic; the descriptions above it.
    const first = page.getByTestId('message').first();
    assert.equal(await first.getAttribute('data-speaker'), 'Debate Moderator');
    assert.equal(await first.getByTestId('message-text').textContent(), specified.specified);
    assert.notEqual(specified.specified, specified.original);
    const shown = await page.getByTestId('description').allTextContents();
    assert.deepEqual(shown, described.map((d) => `${d.agent}: ${d.description}`).sort());
    // The inspector: the calls that wrote them, with what they answered.
    await page.getByTestId('inspector').locator('summary').first().click();
    const topicCall = page.locator('[data-testid=call][data-purpose=topic_specifier]');
    await waitForText(topicCall.getByTestId('call-raw'), specified.specified);
    for (const d of described) {
      const call = page.locator(`[data-testid=call][data-purpose=character_description][data-agent="${d.agent}"]`);
      await waitForText(call.getByTestId('call-raw'), d.description);
    }
    await page.getByTestId('inspector').locator('summary').first().click();
  }
  assert.deepEqual(errors, []);
});

test('an opening step turned on shows its prompts, an edited template reaches the request, and back to the seed restores its bytes', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await page.getByTestId('open-town-hall-selector').click();
  assert.equal(await page.getByTestId('field-opening.specify_topic').isChecked(), false);
  assert.ok(await page.getByTestId('templates-specifier').isHidden(), 'its prompts show only while it is on');
  await page.getByTestId('field-opening.specify_topic').check();
  await page.getByTestId('templates-specifier').locator('summary').click();
  await page.getByTestId('field-opening.specifier_prompt').waitFor();
  await page.getByTestId('field-opening.describe_characters').check();
  await page.getByTestId('templates-describer').locator('summary').click();
  await page.getByTestId('field-opening.describer_prompt').waitFor();
  // The box holds the seed's bytes, the notebook's indents included.
  assert.match(await page.getByTestId('field-opening.specifier_prompt').inputValue(), /^\{description_of_conversation\}\n\n {8}You are the debate moderator\.\n {8}Please/);

  // Edit the selector's prompt in the advanced templates, typing key by key (the box keeps its
  // caret between keys), and run.
  await page.getByTestId('templates-method').locator('summary').click();
  const box = page.getByTestId('field-method.prompt');
  const seed = await box.inputValue();
  const back = page.getByTestId('seed-method.prompt');
  assert.ok(await back.isDisabled(), 'nothing to put back yet');
  await box.press('ControlOrMeta+End');
  await box.pressSequentially('\nThe class asks: keep it short.', { delay: 5 });
  await eventually(async () => assert.equal(await box.inputValue(), `${seed}\nThe class asks: keep it short.`));
  assert.ok(await back.isEnabled());
  await page.getByTestId('field-max_turns').fill('2');
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished');
  const events = await eventsOf(page);
  const calls = events.filter((e) => e.type === 'model_call');
  const selector = calls.find((c) => c.purpose === 'selector');
  const said = (call) => (Array.isArray(call.request) ? call.request : call.request.messages.map((m) => ({ content: m.append })));
  assert.ok(said(selector).some((m) => m.content.includes('The class asks: keep it short.')), 'the edit is what the selector was sent');
  assert.ok(calls.some((c) => c.purpose === 'topic_specifier') && calls.some((c) => c.purpose === 'character_description'));
  assert.equal(ofType(events, 'character_described').length, 4);

  // Back to the seed's text: the seed's bytes, and nothing left to put back.
  await page.getByTestId('reset').click();
  await back.click();
  await waitForText(page.getByTestId('status'), /^Ready/);
  assert.equal(await box.inputValue(), seed);
  assert.ok(await back.isDisabled());
  assert.deepEqual(errors, []);
});

test('a language typed in the editor ends every call with its line, which the templates list offers, and a run sends it', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await page.getByTestId('open-ai-morality-handoff').click();
  await page.getByTestId('templates-method').locator('summary').click();
  await page.locator('[data-testid^="field-method."]').first().waitFor();
  assert.equal(await page.getByTestId('field-prompts.language').count(), 0, 'no language, no line');
  await page.getByTestId('field-language').fill('Chinese (简体中文)');
  const line = page.getByTestId('field-prompts.language');
  await line.waitFor();
  assert.equal(await line.inputValue(), 'Write every reply in {language}. Keep names, numbers and any format you are asked for exactly as asked.');
  await page.getByTestId('field-max_turns').fill('2');
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('run').click();
  await waitForStatus(page, 'Finished');
  const calls = (await eventsOf(page)).filter((e) => e.type === 'model_call');
  assert.ok(calls.length >= 2);
  const sent = 'Write every reply in Chinese (简体中文). Keep names, numbers and any format you are asked for exactly as asked.';
  // A call's request is its messages, or (after the first of its kind) what each appends.
  const text = (call) => (Array.isArray(call.request) ? call.request : call.request.messages.map((m) => ({ content: m.append ?? '' }))).map((m) => m.content).join('\n');
  assert.ok(calls.filter((c) => Array.isArray(c.request)).every((c) => text(c).includes(sent)), 'every call sent whole says it');
  assert.ok(calls.some((c) => Array.isArray(c.request)));
  // Cleared, the line goes from the list and from the scenario's file.
  await page.getByTestId('reset').click();
  await page.getByTestId('field-language').fill('');
  await eventually(async () => assert.equal(await page.getByTestId('field-prompts.language').count(), 0));
  assert.deepEqual(errors, []);
});

test('a template that starts with a newline keeps it after a reload, and the templates load only when opened', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await page.getByTestId('open-rail-debate').click();
  const tools = () => page.evaluate(() => performance.getEntriesByType('resource').filter((r) => /\.split_tools\.wasm$/.test(r.name)).length);
  assert.equal(await tools(), 0, 'the tools module is not fetched before a list of templates opens');
  await page.getByTestId('templates-method').locator('summary').click();
  const box = page.getByTestId('field-method.template');
  await box.waitFor();
  assert.ok(await tools() > 0);
  await box.fill('\nLeading line kept. {message_history}');
  await eventually(async () => assert.ok(await page.getByTestId('seed-method.template').isEnabled()));
  await page.reload();
  await page.getByTestId('templates-method').locator('summary').click();
  await eventually(async () => assert.equal(await page.getByTestId('field-method.template').inputValue(), '\nLeading line kept. {message_history}'));
  // Back to the seed's text, and the scenario saved again has the seed's bytes.
  await page.getByTestId('seed-method.template').click();
  await eventually(async () => assert.ok(await page.getByTestId('seed-method.template').isDisabled()));
  const saved = await page.evaluate(() => JSON.parse(localStorage.getItem(Object.keys(localStorage).find((k) => k.endsWith('scenario')))));
  assert.ok(!saved.method.template.startsWith('\n'));
  assert.match(saved.method.template, /\{message_history\}/);
  assert.deepEqual(errors, []);
});
