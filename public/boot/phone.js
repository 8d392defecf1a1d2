// Starts a student's phone (phone.html): the page's own program, which sees the phone page and
// draws the room's screen from the join link's fragment (src/app.rs, `phone`). The build names
// the program's files on the script tag (publish/shell.mjs), as for the app's page.
// `agoraImport` is how the program imports the room's transport, as on the app's page.
const at = (path) => new URL(path, document.baseURI).href;
globalThis.agoraImport = (path) => import(at(path));
const t = document.querySelector('script[data-glue]');
try {
  if (!t?.dataset.glue) throw new Error('the page was built without its program');
  await (await import(at(t.dataset.glue))).default({ module_or_path: at(t.dataset.wasm) });
} catch (e) {
  const p = document.createElement('p');
  p.className = 'notice error';
  p.setAttribute('role', 'alert');
  p.dataset.testid = 'phone-error';
  p.textContent = `This room cannot be opened: ${e?.message ?? e}. Ask your teacher for the link again.`;
  document.querySelector('main').replaceChildren(p);
}
