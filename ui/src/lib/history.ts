// Words for the history panel and the documents list: where a revision came from, and when, in local time.

/** Where a revision came from, as the history panel labels it. */
export function sourceLabel(source: string): string {
  switch (source) {
    case "ai":
      return "AI";
    case "user":
      return "You";
    case "import":
      return "Import";
    case "undo":
      return "Undo";
    case "redo":
      return "Redo";
    case "restore":
      return "Restore";
    default:
      return source;
  }
}

/** A moment (milliseconds since the epoch) in the user's local time and language. */
export function localTime(ms: number, locale?: string): string {
  return new Date(ms).toLocaleString(locale, { dateStyle: "medium", timeStyle: "short" });
}

/** True when `event` is Undo (Ctrl/Cmd+Z), false for Redo (Shift+Ctrl/Cmd+Z, Ctrl+Y), null otherwise. A key
 * typed into a text field is the field's own (its text's undo), never the resume's. */
export function undoKey(event: KeyboardEvent): boolean | null {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return null;
  const target = event.target as HTMLElement | null;
  if (target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))) {
    return null;
  }
  const key = event.key.toLowerCase();
  if (key === "z") return !event.shiftKey;
  if (key === "y" && !event.shiftKey) return false;
  return null;
}
