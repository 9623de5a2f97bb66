// The bridge to the Rust engine: Tauri commands and the surface event.

import { invoke } from "@tauri-apps/api/core";
import { listen, type UnlistenFn } from "@tauri-apps/api/event";
import type { AppInfo } from "../bindings/AppInfo";
import type { IpcError } from "../bindings/IpcError";
import type { SurfaceUpdate } from "../bindings/SurfaceUpdate";

/** The event name of surface messages after the first `create` (ipc.rs `SURFACE_EVENT`). */
export const SURFACE_EVENT = "surface";

/** A command's failure as the user should read it. */
export function errorMessage(err: unknown): string {
  if (typeof err === "object" && err !== null && "message" in err) {
    return String((err as IpcError).message);
  }
  return String(err);
}

/** The current document as a `create` message. */
export function openSurface(): Promise<SurfaceUpdate> {
  return invoke<SurfaceUpdate>("open_surface");
}

/** The app's version and data folder. */
export function appInfo(): Promise<AppInfo> {
  return invoke<AppInfo>("app_info");
}

/** Calls `handler` with every surface message the engine emits. */
export function onSurface(handler: (update: SurfaceUpdate) => void): Promise<UnlistenFn> {
  return listen<SurfaceUpdate>(SURFACE_EVENT, (event) => handler(event.payload));
}
