import { defineConfig } from "vitest/config";
import { svelte } from "@sveltejs/vite-plugin-svelte";

// Tauri's dev mode loads http://localhost:1420 (tauri.conf.json `devUrl`); the port must not drift.
export default defineConfig({
  plugins: [svelte()],
  clearScreen: false,
  server: { port: 1420, strictPort: true, watch: { ignored: ["**/src-tauri/**"] } },
  build: { target: "es2022", outDir: "dist", emptyOutDir: true },
  resolve: process.env.VITEST ? { conditions: ["browser"] } : undefined,
  // A test that edits the whole view in jsdom takes 1-2 s alone; with a release build linking beside it
  // on two cores, one took over Vitest's default 5 s. A hang still fails, by name, at 30 s.
  test: { environment: "jsdom", include: ["src/**/*.test.ts"], testTimeout: 30_000 },
});
