// The user's resumes as the navigation lists them: read from the store when asked (the window asks when the
// resume on screen, or its title, changes, and when the documents dialog closes), the latest answer kept.
import type { DocumentRow } from "../bindings/DocumentRow";
import { errorMessage, listDocuments } from "./backend";

export class ResumeList {
  /** The rows, newest answer; null until the first one comes. */
  rows = $state.raw<DocumentRow[] | null>(null);
  /** Why the last read failed, or "". */
  problem = $state("");
  /** Which read is the latest: an older one that answers late is dropped. */
  #asked = 0;

  readonly #read: () => Promise<DocumentRow[]>;

  constructor(read: () => Promise<DocumentRow[]> = listDocuments) {
    this.#read = read;
  }

  async reload(): Promise<void> {
    const ask = ++this.#asked;
    try {
      const rows = await this.#read();
      if (ask !== this.#asked) return;
      this.rows = rows;
      this.problem = "";
    } catch (err) {
      if (ask === this.#asked) this.problem = errorMessage(err);
    }
  }
}
