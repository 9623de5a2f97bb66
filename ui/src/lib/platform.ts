/** What the window needs to know about the engine drawing it.
 *
 * WebKitGTK (Linux) draws GTK's overlay scrollbars, and repaints a scrolled pane's whole edge 20-60 times a
 * second while the pointer rests over the pane, whether or not anything changes (measured: 46 repaints of a
 * 21 × 795 px strip in two seconds of a still pointer). As WebKit sends each frame to the window as one
 * rectangle, a frame with that edge and a streamed word in it repaints everything between the two. Scrollbars
 * the page draws itself (`::-webkit-scrollbar`, app.css) repaint only when they move: none at rest. macOS and
 * Windows keep their own. */
export function drawsOwnScrollbars(userAgent: string): boolean {
  return /\bLinux\b/.test(userAgent) && !/\bAndroid\b/.test(userAgent);
}

/** Marks <html> for the rules in app.css that depend on the platform. */
export function applyPlatform(root: HTMLElement, userAgent: string): void {
  if (drawsOwnScrollbars(userAgent)) root.dataset.scrollbars = "page";
  else delete root.dataset.scrollbars;
}
