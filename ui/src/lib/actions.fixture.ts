// The window's actions as App.svelte gives them, for the tests of the parts that show them (the toolbar, its
// More menu, the command palette, the shortcuts).
import type { WindowAction } from "./actions";

/** Makes actions whose runs are recorded, by id, in `ran`. */
export function actionMaker(ran: string[] = []) {
  return (id: string, label: string, group: string, shortcut?: string, enabled?: () => boolean): WindowAction => ({
    id,
    label,
    group,
    shortcut,
    enabled,
    run: () => void ran.push(id),
  });
}
