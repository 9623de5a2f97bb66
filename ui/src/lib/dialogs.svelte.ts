// What the window's dialogs share: the props of one that can put another resume on screen, and how one
// runs what the user asked of it.

import type { DocState } from "../bindings/DocState";
import { errorMessage } from "./backend";

/** The props of a dialog that can put another resume on screen (the documents list, tailoring). */
export interface OpensResume {
  /** Asked to close (its Close button, Escape): the owner removes it. */
  onclose: () => void;
  /** Another resume is on screen now (the view has already been sent it). */
  onopened: (state: DocState) => void;
}

/** What a dialog is doing for the user: whether it is busy (its buttons wait), and what went wrong last,
 * in words (its alert). */
export class Task {
  busy = $state(false);
  problem = $state("");

  /** Runs `action`, busy meanwhile, with the last problem cleared first; a failure becomes the problem. */
  async run(action: () => Promise<void>): Promise<void> {
    this.busy = true;
    this.problem = "";
    try {
      await action();
    } catch (err) {
      this.fail(err);
    } finally {
      this.busy = false;
    }
  }

  /** `err` becomes the problem shown. */
  fail(err: unknown): void {
    this.problem = errorMessage(err);
  }
}
