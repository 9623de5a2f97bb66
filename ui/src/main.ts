import { mount } from "svelte";
import "virtual:palette.css";
import "./app.css";
import App from "./App.svelte";
import { applyPlatform } from "./lib/platform";
import { applyTheme, savedTheme } from "./lib/theme";

// The theme before the first paint, so a dark window never flashes light.
applyTheme(savedTheme());
// On Linux the page draws its scrollbars (lib/platform.ts says why).
applyPlatform(document.documentElement, navigator.userAgent);

const target = document.getElementById("app");
if (!target) throw new Error("index.html has no #app element");

export default mount(App, { target });
