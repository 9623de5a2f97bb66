import { defineConfig, type Plugin } from "vite";
import { svelte } from "@sveltejs/vite-plugin-svelte";
import { palette } from "./vite.config.ts";

/** The app's own page (index.html), its script swapped for the audit's (audit/audit.ts): the page the
 * audit checks is the one the window loads, its head and all. */
function auditScript(): Plugin {
  const app = 'src="/src/main.ts"';
  return {
    name: "redline-audit-script",
    transformIndexHtml: {
      order: "pre",
      handler(html) {
        if (!html.includes(app)) throw new Error(`index.html no longer loads the app with ${app}`);
        return html.replace(app, 'src="/audit/audit.ts"');
      },
    },
  };
}

// The accessibility audit's build (audit/run.mjs): the app with mocked IPC, in its own folder.
export default defineConfig({
  base: "./",
  plugins: [svelte(), palette(), auditScript()],
  build: { target: "es2022", outDir: "dist-audit", emptyOutDir: true },
});
