// Fills in the static shell of a built index.html (the header, gallery and loading line the page
// paints before the wasm arrives): a card for each preset in the build's scenarios/, in the order
// the app lists them (src/presets.rs), and the wasm's size as the progress bar's end, which
// boot/start.js counts the arriving bytes against. Built from the presets on every build, the
// cards never drift from them; and names the program's files in phone.html, which runs it too.
// Trunk runs it after minify.mjs and before precache.mjs, whose list
// must see the final page (publish/after-build.mjs); by hand: `node publish/shell.mjs dist`.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtFolder } from './files.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = builtFolder('shell.mjs');

// The words a person reads for each method; the JSON keeps its keys.
const METHODS = {
  bidding: 'Bidding', director: 'Director', handoff: 'Handoff', negotiation: 'Negotiation game',
  selector: 'Selector', round_robin: 'Round robin', random: 'Random',
};

const escape = (text) => String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** The presets' ids in the app's order: src/presets.rs first, then any other file by name. */
function presetIds() {
  const files = readdirSync(join(dir, 'scenarios')).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
  const source = join(root, 'src', 'presets.rs');
  const listed = existsSync(source)
    ? [...readFileSync(source, 'utf8').matchAll(/public\/scenarios\/([^"/]+)\.json/g)].map((m) => m[1])
    : [];
  return [...new Set([...listed.filter((id) => files.includes(id)), ...files])];
}

function card(id) {
  const scenario = JSON.parse(readFileSync(join(dir, 'scenarios', `${id}.json`), 'utf8'));
  const kind = scenario.method?.kind;
  // A code name on a card is what issue 47 asked to be rid of: a new method names itself here.
  if (!METHODS[kind]) throw new Error(`publish/shell.mjs has no plain name for the method "${kind}" (${id}.json)`);
  return `<li class="preset"><button class="preset-open" type="button" disabled><span class="method-tag">${METHODS[kind]}</span>`
    + `<h3>${escape(scenario.title)}</h3><p>${escape(scenario.summary ?? '')}</p></button></li>`;
}

const page = join(dir, 'index.html');
let html = readFileSync(page, 'utf8');
const wasm = /data-wasm="[^"]*?([^"/]+)"/.exec(html)?.[1];
if (!wasm) throw new Error('index.html names no wasm (Trunk.toml, pattern_script)');
const cards = presetIds().map(card).join('');
const filled = html
  .replace(/(<ul\b[^>]*\bdata-shell-presets\b[^>]*>)[\s\S]*?(<\/ul>)/, `$1${cards}$2`)
  .replace(/<progress\b([^>]*\bdata-shell-wasm\b[^>]*?)\s*(?:max="\d+")?\s*>/, `<progress$1 max="${statSync(join(dir, wasm)).size}">`);
if (!filled.includes(cards) || !/<progress[^>]*data-shell-wasm[^>]*max="\d+"/.test(filled)) {
  throw new Error('index.html lost the shell\'s data-shell-presets list or data-shell-wasm progress bar');
}
writeFileSync(page, filled);
console.log(`index.html: the shell with ${cards.split('<li').length - 1} cards, wasm ${wasm}`);

// A student's phone (phone.html) runs the same program: its start script is told the files the
// page's start script is told, which only the build knows.
const phone = join(dir, 'phone.html');
const glue = /<script\b[^>]*\bdata-glue="([^"]+)"[^>]*\bdata-wasm="([^"]+)"/.exec(html);
if (existsSync(phone)) {
  if (!glue) throw new Error('index.html names no glue for phone.html (Trunk.toml, pattern_script)');
  const text = readFileSync(phone, 'utf8');
  const named = text.replace(/(<script\b[^>]*\bsrc="boot\/phone\.js")[^>]*>/, `$1 data-glue="${glue[1]}" data-wasm="${glue[2]}">`);
  if (!named.includes(`data-glue="${glue[1]}"`)) throw new Error('phone.html lost its boot/phone.js script');
  writeFileSync(phone, named);
}
