// The chunk-to-pixel benchmark's probe (tests/e2e.rs `bench_chunk_to_pixel_…`, run by
// scripts/bench-budgets.sh). The benchmark installs `window.__redlineProbe` in the page; when it is there,
// each surface message of a stream is handed to it once the view's store has applied it. The page never
// installs one itself: without it, this does nothing.

import type { SurfaceUpdate } from "../bindings/SurfaceUpdate";

interface Probe {
  applied(update: SurfaceUpdate): void;
  /** A batch of a turn's stream was handled, from `start` (`performance.now()`) to now. */
  handled?(start: number): void;
}

const probe = () => (globalThis as { __redlineProbe?: Probe }).__redlineProbe;

/** Tells the benchmark's probe, if the page has one, that `update` was applied. */
export function probeApplied(update: SurfaceUpdate): void {
  probe()?.applied(update);
}

/** Tells the benchmark's probe, if the page has one, that a batch of a turn's stream whose handling began at
 * `start` (`performance.now()`) was handled: the task's time, which the benchmark tells apart from a frame's. */
export function probeHandled(start: number): void {
  probe()?.handled?.(start);
}
