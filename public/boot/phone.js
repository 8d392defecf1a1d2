// Starts a student's phone (phone.html): the tools module's phone screen, joined to the room the
// link's fragment names. `agoraImport` is how the module imports the room's transport, as on the
// app's page.
globalThis.agoraImport = (path) => import(new URL(path, document.baseURI).href);
const main = document.querySelector('main');
try {
  const tools = await import('../tools/agora-tools.js');
  await tools.default();
  await tools.phone_start();
} catch (e) {
  const p = document.createElement('p');
  p.className = 'notice error';
  p.setAttribute('role', 'alert');
  p.dataset.testid = 'phone-error';
  p.textContent = `This room cannot be opened: ${e?.message ?? e}. Ask your teacher for the link again.`;
  main.replaceChildren(p);
}
