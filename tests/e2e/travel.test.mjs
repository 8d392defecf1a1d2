// Runs that travel (issue 50), from the page: a run or a scenario saved as a notebook, a run as
// an OpenTelemetry trace, a round robin or selector scenario as an AutoGen team, and an AutoGen
// team opened as a scenario. Each file is the one the terminal writes for the same scenario, and
// each is read by the tool its users have (nbformat, opentelemetry-proto, AutoGen).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appSession, openApp, root, runPreset, waitForText } from './helpers.mjs';

const session = appSession();
const agora = (...args) => execFileSync(join(root, 'target', 'release', 'agora'), args, { encoding: 'utf8' });
const python = (program, ...args) => execFileSync('python3', ['-c', program, ...args], { encoding: 'utf8' });
const dir = mkdtempSync(join(tmpdir(), 'agora-travel-'));

async function saved(page, id) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(id).click()]);
  return { name: file.suggestedFilename(), text: readFileSync(await file.path(), 'utf8') };
}

test('a scenario, and then its run, save as the notebook agora export writes, which nbformat validates', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await page.getByTestId('open-daily-show-director').click();
  // Before a run: the scenario in the editor.
  const before = await saved(page, 'export-notebook');
  assert.equal(before.name, 'the-daily-show-competitive-sitting.ipynb');
  assert.equal(before.text.trim(), agora('export', 'preset:daily-show-director', '--notebook').trim());
  const path = join(dir, 'show.ipynb');
  writeFileSync(path, before.text);
  assert.equal(python('import sys, nbformat; nb = nbformat.read(sys.argv[1], as_version=4); nbformat.validate(nb); print(len(nb.cells))', path).trim(), '14');
  // After one: the run's scenario, and the run's transcript in its last cell, as the terminal
  // writes it from the same run's file.
  await runPreset(page, 'rail-debate');
  const after = await saved(page, 'export-notebook');
  const run = await saved(page, 'export-json');
  const runPath = join(dir, 'rail.json');
  writeFileSync(runPath, run.text);
  assert.equal(after.text.trim(), agora('export', runPath, '--notebook').trim());
  assert.match(after.text, /def ask_for_bid\(agent\):/);
  const cells = JSON.parse(after.text).cells;
  assert.equal(cells.length, 15);
  assert.match(cells.at(-1).source.join(''), /^## The run this notebook came from[^]*> Selected: /);
  assert.deepEqual(errors, []);
});

// Reads an OTLP/JSON file with opentelemetry-proto: spans, chat spans, input tokens, bid events,
// traces and the names of every span, in order.
const READ_OTLP = `
import json, sys
from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2 as t
req = json_format.Parse(open(sys.argv[1]).read(), t.ExportTraceServiceRequest())
spans = [s for rs in req.resource_spans for ss in rs.scope_spans for s in ss.spans]
chat = [s for s in spans if any(a.key == 'gen_ai.operation.name' and a.value.string_value == 'chat' for a in s.attributes)]
tokens = sum(a.value.int_value for s in chat for a in s.attributes if a.key == 'gen_ai.usage.input_tokens')
bids = sum(1 for s in spans for e in s.events if e.name == 'agora.bid')
print(json.dumps([len(spans), len(chat), tokens, bids, len({s.trace_id for s in spans}), [s.name for s in spans]]))
`;

test('a run saves as an OpenTelemetry trace that parses as an ExportTraceServiceRequest and holds the terminal trace\'s spans', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  assert.ok(await page.getByTestId('export-trace').isDisabled(), 'no trace before a run');
  await runPreset(page, 'rail-debate');
  const trace = await saved(page, 'export-trace');
  assert.equal(trace.name, 'presidential-debate-transcontinental-high-speed-rail.otlp.json');
  const ours = join(dir, 'page.otlp.json');
  writeFileSync(ours, trace.text);
  const theirs = join(dir, 'terminal.otlp.json');
  agora('run', 'preset:rail-debate', '--otlp', theirs, '--otlp-content');
  const [page_, terminal] = [JSON.parse(python(READ_OTLP, ours)), JSON.parse(python(READ_OTLP, theirs))];
  assert.deepEqual(page_, terminal, 'the same spans, calls, tokens and bids');
  assert.ok(page_[1] > 30 && page_[3] === 30, `${page_}`);
  // What was said is in it (the run file the page saves holds it too).
  assert.match(trace.text, /gen_ai\.output\.messages/);
  assert.deepEqual(errors, []);
});

test('a selector scenario saves as the AutoGen team agora export writes; a bidding one says why it cannot', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await page.getByTestId('open-town-hall-selector').click();
  const team = await saved(page, 'export-autogen');
  assert.equal(team.name, 'town-hall-a-four-day-school.team.json');
  assert.equal(team.text.trim(), agora('export', 'preset:town-hall-selector', '--autogen').trim());
  assert.equal(JSON.parse(team.text).provider, 'autogen_agentchat.teams.SelectorGroupChat');

  await page.getByTestId('open-rail-debate').click();
  await page.getByTestId('export-autogen').click();
  await waitForText(page.getByTestId('files-message'), /^only round robin and selector scenarios become AutoGen teams, not Bidding/);
  assert.deepEqual(errors, []);
});

// Teams built and dumped by AutoGen itself.
const DUMP = `
import sys
from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.teams import RoundRobinGroupChat, SelectorGroupChat
from autogen_agentchat.conditions import MaxMessageTermination, TextMentionTermination
from autogen_ext.models.openai import OpenAIChatCompletionClient
from autogen_core.tools import FunctionTool
client = OpenAIChatCompletionClient(model="gpt-4o-mini", api_key="sk-never-exported", base_url="http://127.0.0.1:9/v1")
def weather(city: str) -> str:
    return "sunny"
def agents(tools=()):
    return [AssistantAgent("planner", model_client=client, description="Plans the trip.", system_message="You plan school trips.", tools=list(tools)),
            AssistantAgent("critic", model_client=client, description="Finds the flaws.", system_message="You find what can go wrong.")]
open(sys.argv[1] + "/plain.json", "w").write(RoundRobinGroupChat(agents(), termination_condition=MaxMessageTermination(7)).dump_component().model_dump_json())
sel = SelectorGroupChat(agents(), model_client=client, termination_condition=MaxMessageTermination(5), allow_repeated_speaker=True, max_selector_attempts=2, selector_prompt="Pick from {participants}.\\n{roles}\\n{history}")
open(sys.argv[1] + "/selector.json", "w").write(sel.dump_component().model_dump_json())
odd = RoundRobinGroupChat(agents([FunctionTool(weather, description="The weather.")]), termination_condition=MaxMessageTermination(4) | TextMentionTermination("APPROVED"))
open(sys.argv[1] + "/odd.json", "w").write(odd.dump_component().model_dump_json())
`;

test('a notebook or a trace opened here says where it opens instead', async () => {
  const { page, errors } = await openApp(session.browser, session.server.url);
  await runPreset(page, 'rail-debate');
  for (const [id, said] of [['export-notebook', /a notebook: it opens in Jupyter or Colab, not here$/], ['export-trace', /a trace: it opens in a trace viewer such as Phoenix or Jaeger, not here$/]]) {
    const file = await saved(page, id);
    await page.getByTestId('import').setInputFiles({ name: file.name, mimeType: 'application/json', buffer: Buffer.from(file.text) });
    await waitForText(page.getByTestId('files-message'), said);
  }
  assert.deepEqual(errors, []);
});

test('an AutoGen team opens as the scenario agora import makes, and what does not map is said once', async () => {
  // From a file: FunctionTool reads its function's source.
  writeFileSync(join(dir, 'dump.py'), DUMP);
  execFileSync('python3', [join(dir, 'dump.py'), dir]);
  const { page, errors } = await openApp(session.browser, session.server.url);
  // The task is AutoGen's at run time: the topic is left to set, and said so.
  for (const [file, said] of [['plain.json', /^Not carried over: no task/], ['selector.json', /^Not carried over: no task/], ['odd.json', /tools.*TextMentionTermination|TextMentionTermination.*tools/]]) {
    await page.getByTestId('open-file').setInputFiles(join(dir, file));
    await waitForText(page.getByTestId('stage-title'), file === 'selector.json' ? /^SelectorGroupChat: planner, critic$/ : /^RoundRobinGroupChat: planner, critic$/);
    await waitForText(page.getByTestId('run-notice'), said);
    // The one message the terminal gives for the same team, and which model the scenario runs on.
    const terminal = spawnSync(join(root, 'target', 'release', 'agora'), ['import', join(dir, file)], { encoding: 'utf8' });
    assert.equal(`agora: ${await page.getByTestId('run-notice').textContent()}\n`, terminal.stderr.replace(/\n$/, " It runs on the team's model, gpt-4o-mini at http://127.0.0.1:9/v1; the file holds no key: give one, or choose another model, under Model.\n"));
    // The whole scenario, as the notebook writes every value of it: the terminal's import.
    const scenario = join(dir, `${file}.scenario.json`);
    agora('import', join(dir, file), '--out', scenario);
    const notebook = await saved(page, 'export-notebook');
    assert.equal(notebook.text.trim(), agora('export', scenario, '--notebook').trim(), file);
    await page.getByTestId('to-gallery').click();
  }
  assert.deepEqual(errors, []);
});
