// Links in the resume: the same rule as the HTML export (crates/resume/src/outline.rs, `safe_href`).

/** `target` if it is a web or e-mail link (`https:`, `http:`, `mailto:`), else null: nothing that could run
 * code or reach the app's own pages is ever a link. The backend checks it again before opening anything. */
export function safeHref(target: string | null | undefined): string | null {
  if (!target) return null;
  const trimmed = target.trim();
  const lower = trimmed.toLowerCase();
  return lower.startsWith("https://") || lower.startsWith("http://") || lower.startsWith("mailto:")
    ? trimmed
    : null;
}
