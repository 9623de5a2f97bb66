// What is wrong with the frame as drawn now: the toolbar on more than one row, its title wrapped, a control of
// the frame or of an open dialog out of the window or over another. One expression, run in the page by the audit (ui/audit/run.mjs,
// in Chromium at two sizes) and by the window test (tests/e2e.rs, in the real window): its value is
// `{ problems: string[], checked: number }`.
(() => {
  const problems = [];
  const toolbar = document.querySelector(".toolbar");
  const bar = toolbar.getBoundingClientRect();
  // One row: every part of it crosses one line across the toolbar.
  const row = [...toolbar.children].map((c) => c.getBoundingClientRect()).filter((r) => r.width > 0);
  if (Math.max(...row.map((r) => r.top)) >= Math.min(...row.map((r) => r.bottom))) {
    problems.push(`the toolbar is more than one row (${Math.round(bar.height)} px)`);
  }
  const title = toolbar.querySelector(".title");
  if (title && title.getBoundingClientRect().height > 24) problems.push("the title wraps");
  /** A dialog's row of actions when it stays in view over the dialog's scrolling content (`DialogActions`). */
  const stickyActions = (e) => {
    const actions = e.closest("dialog")?.querySelector(".actions");
    return actions && !actions.contains(e) && getComputedStyle(actions).position === "sticky" ? actions : null;
  };
  /** What of `e` shows: its box cut by every ancestor that clips, and by a dialog's actions scrolled over it. */
  const shown = (e) => {
    let r = e.getBoundingClientRect();
    let box = { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    for (let a = e.parentElement; a; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (style.overflowX === "visible" && style.overflowY === "visible") continue;
      const c = a.getBoundingClientRect();
      box = { left: Math.max(box.left, c.left), top: Math.max(box.top, c.top), right: Math.min(box.right, c.right), bottom: Math.min(box.bottom, c.bottom) };
    }
    const over = stickyActions(e)?.getBoundingClientRect();
    if (over) box.bottom = Math.max(box.top, Math.min(box.bottom, over.top));
    return box;
  };
  const name = (e) => `${e.tagName.toLowerCase()}${e.dataset.testid ? `[${e.dataset.testid}]` : ""} “${(e.getAttribute("aria-label") ?? e.textContent ?? "").trim().slice(0, 30)}”`;
  const fields = "button, select, input, textarea";
  const selector = [".app", "dialog[open]"].flatMap((place) => fields.split(", ").map((f) => `${place} ${f}`)).join(", ");
  const controls = [...document.querySelectorAll(selector)]
    .filter((e) => !e.closest(".document, .messages, .revisions, .detail"))
    .filter((e) => e.checkVisibility({ opacityProperty: true, visibilityProperty: true }))
    .map((e) => ({ e, box: shown(e) }))
    .filter(({ box }) => box.right - box.left > 2 && box.bottom - box.top > 2);
  for (const { e, box } of controls) {
    if (box.left < 0 || box.top < 0 || box.right > innerWidth + 0.5 || box.bottom > innerHeight + 0.5) problems.push(`${name(e)} leaves the window`);
  }
  for (let i = 0; i < controls.length; i++) {
    for (let j = i + 1; j < controls.length; j++) {
      const [a, b] = [controls[i], controls[j]];
      // A menu, and a dialog, lie over what is under them by design.
      if (a.e.closest("[role='menu']") !== b.e.closest("[role='menu']")) continue;
      if (a.e.closest("dialog") !== b.e.closest("dialog")) continue;
      const x = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
      const y = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
      if (x > 0.5 && y > 0.5) problems.push(`${name(a.e)} overlaps ${name(b.e)}`);
    }
  }
  return { problems, checked: controls.length };
})()
