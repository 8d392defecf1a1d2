// The page's keys: each presses a button of the page (src/app/projector.rs): P, a bid's digit,
// Enter in a seat's speech and Escape everywhere; the others in the projector view.
// A button on the screen not shown (the stage, while the gallery is up) is out of reach.
const shown = (el) => el && !el.closest('[hidden]') && !(el.closest('main.layout') && document.querySelector('main.start:not([hidden])'));
const press = (id) => {
  const b = document.querySelector(`[data-testid="${id}"]`);
  if (!shown(b) || b.disabled) return false;
  b.click();
  return true;
};
addEventListener('keydown', (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
  const t = e.target, tag = t.tagName || '', k = e.key;
  const typing = /^(TEXTAREA|SELECT)$/.test(tag) || (tag === 'INPUT' && !/^(checkbox|radio|button|file)$/.test(t.type));
  let done = false;
  const asking = document.querySelector('[data-testid=seat] h2');
  const bid = shown(asking) && asking.textContent.endsWith('(bid)');
  if ((k === 'p' || k === 'P') && !typing) done = press('projector');
  // While a bid is asked, a digit typed anywhere but a field gives it (0 for 10).
  else if (bid && /^[0-9]$/.test(k) && !typing && !t.closest?.('[data-testid=seat]')) {
    const b = [...document.querySelectorAll('[data-testid=seat] [data-testid^=seat-choice-]')].find((x) => x.textContent === (k === '0' ? '10' : k));
    if (b) (b.click(), (done = true));
  }
  // Enter sends a seat's speech from its box (Shift+Enter is a new line), in every view.
  else if (k === 'Enter' && !e.shiftKey && tag === 'TEXTAREA' && t.closest('.seat')) done = press('seat-send');
  else if (!document.querySelector('main.projector')) {
    if (k === 'Escape' && !typing) done = press('drawer-close');
  } else if (k === 'Escape') done = press('projector');
  else if (typing && !(k === 'Enter' && t.closest('.seat'))) return;
  // Space and Enter press the focused button or link first, as everywhere else.
  else if ((k === ' ' || k === 'Enter') && /^(BUTTON|A|SUMMARY)$/.test(tag)) return;
  else if (k === 'ArrowRight') done = press('step');
  else if (k === 'ArrowLeft') done = press('step-back');
  // Space pauses and resumes; over a finished run it starts nothing (Run does, on purpose).
  else if (k === ' ') done = press('pause') || (!/^(Finished|Stopped)/.test(document.querySelector('[data-testid=status]')?.textContent ?? '') && press('run'));
  else if (k === 'Enter' && !e.shiftKey) done = press('seat-send');
  if (done) e.preventDefault();
});
// A digit typed into a bid's box gives the bid (src/app/seat_box.rs) and nothing else: without
// this, the speech box the answer opens next could take the keystroke's character.
addEventListener('keydown', (e) => {
  const seat = !(e.ctrlKey || e.metaKey || e.altKey) && /^[0-9]$/.test(e.key) && e.target.closest?.('[data-testid=seat]');
  if (seat && !/^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName)) e.preventDefault();
}, true);
// The projector toggle gives the focus back to the page once pressed, so that Space then plays
// instead of pressing the toggle again.
addEventListener('click', (e) => e.target.closest?.('[data-testid=projector]')?.blur());
// A question that opens takes the keys (a digit bids, Enter sends), its text box when it has one,
// unless the teacher is typing in a field elsewhere on the page. Each question is drawn afresh.
let asked = null;
new MutationObserver(() => {
  const heading = document.querySelector('[data-testid=seat] h2');
  if (!heading || heading === asked) return;
  asked = heading;
  const a = document.activeElement;
  if (a && /^(INPUT|TEXTAREA|SELECT)$/.test(a.tagName) && !a.closest('[data-testid=seat]')) return;
  (document.querySelector('[data-testid=seat-text]') || heading.closest('[data-testid=seat]')).focus();
}).observe(document.body, { childList: true, subtree: true });
// The class's seat boxes (under the run controls, each with its data-seat) are drawn again when
// one is ticked, and the box ticked is gone by the time the event gets here: the keys go to the
// box drawn in its place.
addEventListener('change', (e) => {
  const id = e.target.dataset?.seat && e.target.dataset.testid;
  if (id) requestAnimationFrame(() => document.querySelector(`[data-testid="${id}"]`)?.focus());
});
// A scorecard's turn link (drawn by the tools module) brings that speech into view and marks it.
addEventListener('click', (e) => {
  const a = e.target.closest?.('[data-goto-turn]');
  if (!a) return;
  e.preventDefault();
  const m = document.querySelector(`[data-testid=message][data-turn="${a.dataset.gotoTurn}"][data-speaker="${CSS.escape(a.dataset.speaker)}"]`);
  if (!m) return;
  document.querySelectorAll('.message.goto').forEach((x) => x.classList.remove('goto'));
  m.classList.add('goto');
  m.scrollIntoView({ block: 'center' });
});
