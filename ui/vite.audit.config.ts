import { defineConfig } from "vite";
import { svelte } from "@sveltejs/vite-plugin-svelte";
import { palette } from "./vite.config.ts";

// The accessibility audit's build (scripts/audit.mjs): the app with mocked IPC, in its own folder.
export default defineConfig({
  root: "audit",
  base: "./",
  plugins: [svelte(), palette()],
  build: { target: "es2022", outDir: "../dist-audit", emptyOutDir: true },
});
