import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";
import { svelte } from "@sveltejs/vite-plugin-svelte";
import { paletteCss } from "./src/lib/palette.ts";

/** `virtual:palette.css`: the window's theme blocks, written at build time from the one table of colour
 * tokens (src/lib/palette.ts). Imported before app.css (src/main.ts, audit/audit.ts). In dev, a change to
 * the table restarts the server (it is a dependency of this file). */
export function palette(): Plugin {
  const id = "virtual:palette.css";
  const resolved = `\0${id}`;
  return {
    name: "redline-palette",
    resolveId: (source) => (source === id ? resolved : undefined),
    load: (source) => (source === resolved ? paletteCss() : undefined),
  };
}

// Tauri's dev mode loads http://localhost:1420 (tauri.conf.json `devUrl`); the port must not drift.
export default defineConfig({
  plugins: [svelte(), palette()],
  clearScreen: false,
  server: { port: 1420, strictPort: true, watch: { ignored: ["**/src-tauri/**"] } },
  build: { target: "es2022", outDir: "dist", emptyOutDir: true },
  resolve: process.env.VITEST ? { conditions: ["browser"] } : undefined,
  // A test that edits the whole view in jsdom takes 1-2 s alone; with a release build linking beside it
  // on two cores, one took over Vitest's default 5 s. A hang still fails, by name, at 30 s.
  test: { environment: "jsdom", include: ["src/**/*.test.ts"], testTimeout: 30_000 },
});
