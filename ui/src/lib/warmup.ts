// Draws, once and out of sight, the typographic characters the app's own messages (and most models' replies)
// use, so that the engine finds and loads their font while the window is at rest, not in the middle of a turn.
//
// Measured in the real window (WebKitGTK, `bench_chunk_to_pixel_…`): the first fact-check warning of a
// session ("“Nucleus” appears nowhere in your resume…") lands in the frame that commits the turn's change, and
// the first curly quotes drawn cost that frame enough to miss a refresh in 8 runs of 20 (23–30 ms). With the
// same characters drawn once beforehand, the frame kept the beat in all 12 runs; a warning line without them
// drawn beforehand did not help, and neither did the characters laid out but clipped away (not painted).
//
// Each line is a list item, so that its marker is drawn too: a marker's text has a font of its own (tabular
// figures), and WebKit looks that font up in fontconfig the first time a list item of a size is laid out,
// hidden marker or not. The first "Saved as revision 2." (a chat line, a list item of 13 px) did that in the
// frame that commits the first turn: the two families of the font list resolved again, ~4 ms, and the one
// text-size lookup left in a turn (found by logging every fontconfig call with the time it was made).

/** What the app's own words use beyond ASCII: curly quotes, dashes, the ellipsis, separators, arrows, marks. */
export const WARM_CHARACTERS = "“”‘’—–…·•‹›×©→↑↓✎✓✕✗⇧";

/** The text sizes of the chat's lines and of the resume view, in px, with `true` for bold. */
export const WARM_STYLES: readonly (readonly [number, boolean])[] = [
  [12, false],
  [13, false],
  [14, false],
  [15, false],
  [16, true],
  [17, false],
];

/** Adds the characters at each of {@link WARM_STYLES}, each line a list item with its marker, nearly
 * transparent and hidden from assistive technology, and removes them once a frame has been painted with them
 * (the callback of the frame after next runs once the next has been painted). */
export function warmFonts(doc: Document = document, frame: (run: () => void) => unknown = requestAnimationFrame): void {
  const box = doc.createElement("ul");
  box.className = "font-warmup";
  box.setAttribute("aria-hidden", "true");
  for (const [size, bold] of WARM_STYLES) {
    const line = doc.createElement("li");
    line.style.fontSize = `${size}px`;
    if (bold) line.style.fontWeight = "bold";
    line.textContent = WARM_CHARACTERS;
    box.append(line);
  }
  doc.body.append(box);
  frame(() => frame(() => box.remove()));
}
