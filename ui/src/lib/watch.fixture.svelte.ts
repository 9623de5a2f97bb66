// For tests: runs `read` in an effect and keeps what it returned each time it ran.

/** Runs `read` now and again each time what it read changes (after `flushSync`); `stop` ends it. */
export function watch<T>(read: () => T): { seen: T[]; stop: () => void } {
  const seen: T[] = [];
  const stop = $effect.root(() => {
    $effect(() => {
      seen.push(read());
    });
  });
  return { seen, stop };
}
