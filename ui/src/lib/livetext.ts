// A text that grows while the model types it. Svelte sets a text node's whole value at each change, and
// WebKit then lays out and repaints every line of the paragraph; appending only what is new lets it redo the
// last line alone. Used for the long fields a turn streams into (summaries, bullets).

/** Shows `value` as the element's one text node, appending to that node when the new value extends the old. */
export function liveText(node: HTMLElement, value: string): { update: (value: string) => void } {
  const text = document.createTextNode(value);
  node.replaceChildren(text);
  return {
    update(next: string) {
      const now = text.data;
      if (next === now) return;
      if (next.length > now.length && next.startsWith(now)) text.appendData(next.slice(now.length));
      else text.data = next;
    },
  };
}
