import { mount } from "svelte";
import "./app.css";
import App from "./App.svelte";
import { applyTheme, savedTheme } from "./lib/theme";

// The theme before the first paint, so a dark window never flashes light.
applyTheme(savedTheme());

const target = document.getElementById("app");
if (!target) throw new Error("index.html has no #app element");

export default mount(App, { target });
