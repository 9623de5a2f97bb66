// The writing checks of the resume on screen, as the window keeps them: read from the engine at each revision
// (a late answer for an older one is dropped), underlined in the view, and acted on from the panel — a fix
// (a revision of its own, source "check"), a rule turned off, a word added to the user's dictionary.
import { tick } from "svelte";
import type { DocState } from "../bindings/DocState";
import type { Finding } from "../bindings/Finding";
import { addWord, errorMessage, fixFinding, lintDocument, setRuleEnabled } from "./backend";
import { reveal, underline } from "./checks";

/** The engine's side of the checks (the backend's, or a test's). */
export interface ChecksSource {
  lint: typeof lintDocument;
  fix: typeof fixFinding;
  rule: typeof setRuleEnabled;
  word: typeof addWord;
}

const BACKEND: ChecksSource = { lint: lintDocument, fix: fixFinding, rule: setRuleEnabled, word: addWord };

export class WritingChecks {
  /** The findings of the revision last checked; null until the first answer. */
  findings = $state.raw<Finding[] | null>(null);
  /** Why the last check or action failed, or "". */
  problem = $state("");
  /** A fix, a rule or a word is being saved. */
  busy = $state(false);
  /** The revision the findings are of. */
  #revision = -1;
  #asked = 0;
  readonly #root: () => ParentNode | null;
  readonly #source: ChecksSource;

  /** `root`: where the resume view is drawn (its fields carry `data-path`). */
  constructor(root: () => ParentNode | null, source: ChecksSource = BACKEND) {
    this.#root = root;
    this.#source = source;
  }

  /** What the toolbar's button says under its name. */
  get summary(): string | undefined {
    const n = this.findings?.length;
    if (n === undefined) return undefined;
    return n === 0 ? "Nothing found" : n === 1 ? "One finding" : `${n} findings`;
  }

  /** Checks revision `revision` (again, when `force`), and underlines what was found. */
  async refresh(revision: number, force = false): Promise<void> {
    if (revision === this.#revision && !force) return;
    this.#revision = revision;
    const ask = ++this.#asked;
    try {
      const findings = await this.#source.lint();
      if (ask !== this.#asked) return;
      this.findings = findings;
      this.problem = "";
      await this.draw();
    } catch (err) {
      if (ask === this.#asked) this.problem = errorMessage(err);
    }
  }

  /** Underlines the findings in the view as it is drawn now; how many were placed. */
  async draw(): Promise<number> {
    await tick();
    const root = this.#root();
    return root ? underline(root, this.findings ?? []) : 0;
  }

  /** Brings a finding's field into view. */
  go(finding: Finding): void {
    const root = this.#root();
    if (root) reveal(root, finding);
  }

  /** Applies a finding's fix on revision `base`: a revision of its own. */
  async fix(base: number, finding: Finding): Promise<DocState> {
    return this.#saving(() => this.#source.fix(base, finding));
  }

  /** Turns rule `rule` off (Settings can turn it on again), and checks again. */
  async ignoreRule(rule: string): Promise<void> {
    await this.#saving(() => this.#source.rule(rule, false)).catch(() => {});
    await this.refresh(this.#revision, true);
  }

  /** Adds `word` to the user's dictionary (kept in the data folder, not in the resume), and checks again. */
  async addWord(word: string): Promise<void> {
    await this.#saving(() => this.#source.word(word)).catch(() => {});
    await this.refresh(this.#revision, true);
  }

  async #saving<T>(act: () => Promise<T>): Promise<T> {
    this.busy = true;
    try {
      const done = await act();
      this.problem = "";
      return done;
    } catch (err) {
      this.problem = errorMessage(err);
      throw err;
    } finally {
      this.busy = false;
    }
  }
}
