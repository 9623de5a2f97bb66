// Links in the resume: the same rule as the HTML export (crates/resume/src/outline.rs, `safe_href`).

/** The longest target made a link, in bytes of UTF-8 (`MAX_HREF`): longer is shown as text. */
const MAX_HREF = 2000;

/** `target` if it is a web or e-mail link (`https:`, `http:`, `mailto:`) of at most {@link MAX_HREF} bytes,
 * else null: nothing that could run code or reach the app's own pages is ever a link. The backend checks it
 * again before opening anything. */
export function safeHref(target: string | null | undefined): string | null {
  if (!target) return null;
  const trimmed = target.trim();
  const lower = trimmed.toLowerCase();
  const safe = lower.startsWith("https://") || lower.startsWith("http://") || lower.startsWith("mailto:");
  return safe && new TextEncoder().encode(trimmed).length <= MAX_HREF ? trimmed : null;
}
