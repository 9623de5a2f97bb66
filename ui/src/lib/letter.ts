// A cover letter as the engine keeps it (assets/letter.schema.json): to whom, the role, the date, the
// subject, the greeting, its paragraphs and the closing. The sender is the resume it belongs to.

export interface Letter {
  recipient?: { name?: string; company?: string; address?: string };
  role?: string;
  /** `YYYY-MM-DD`. */
  date?: string;
  subject?: string;
  greeting?: string;
  paragraphs?: string[];
  closing?: string;
  meta?: { language?: string };
}

/** Whether the document on screen is a letter rather than a resume: a letter has paragraphs or a recipient
 * and never a resume's `basics`. */
export function isLetter(document: unknown): document is Letter {
  if (typeof document !== "object" || document === null || "basics" in document) return false;
  return "paragraphs" in document || "recipient" in document || "greeting" in document;
}
