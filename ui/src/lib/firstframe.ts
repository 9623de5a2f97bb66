// Whether the window has painted its first frame (App.svelte). Until then, the parts of the window that no
// one can see yet (a toolbar button's tooltip) are not built, so that the resume is on screen sooner
// (docs/benchmarks.md, "First paint back to where it was before the frame").
import { getContext, setContext } from "svelte";

const PAINTED = Symbol("painted");

/** Gives the window's parts the answer to "has the first frame been painted?". */
export function providePainted(painted: () => boolean): void {
  setContext(PAINTED, painted);
}

/** Whether the window's first frame has been painted; always yes for a part drawn outside the window. */
export function usePainted(): () => boolean {
  return getContext<(() => boolean) | undefined>(PAINTED) ?? (() => true);
}
