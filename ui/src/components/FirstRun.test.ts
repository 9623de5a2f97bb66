import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/svelte";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { LocalServer } from "../bindings/LocalServer";
import type { ProviderSettings } from "../bindings/ProviderSettings";
import type { ProviderView } from "../bindings/ProviderView";
import { openaiSettings } from "../lib/values.fixture";

let found: LocalServer[] = [];
const saved: ProviderSettings[] = [];

vi.mock("../lib/backend", () => ({
  errorMessage: (err: unknown) => String(err),
  findLocalServers: async () => found,
  saveProvider: async (settings: ProviderSettings) => {
    saved.push(settings);
    return { ...view, settings, saved: true };
  },
}));

import FirstRun from "./FirstRun.svelte";

const view: ProviderView = {
  settings: openaiSettings,
  saved: false,
  keySet: false,
  keyFor: "openai@api.openai.com",
  keychainProblem: null,
  fromEnv: false,
};

afterEach(() => {
  cleanup();
  found = [];
  saved.length = 0;
});

describe("first run", () => {
  it("offers a model server found on this computer, and uses the model chosen", async () => {
    found = [{ preset: "ollama", baseUrl: "http://127.0.0.1:11434/v1", models: ["llama3.1", "qwen2.5"] }];
    const onconfigured = vi.fn();
    render(FirstRun, { view, onconfigured, onsettings: () => {}, ondemo: () => {} });
    const server = await screen.findByTestId("first-run-server");
    expect(server.textContent).toContain("Ollama");
    await fireEvent.change(server.querySelector("select")!, { target: { value: "qwen2.5" } });
    await fireEvent.click(screen.getByTestId("first-run-use"));
    await waitFor(() => expect(onconfigured).toHaveBeenCalled());
    expect(saved[0]).toMatchObject({
      preset: "ollama",
      baseUrl: "http://127.0.0.1:11434/v1",
      chatModel: "qwen2.5",
      patchModel: "qwen2.5",
    });
    expect(onconfigured.mock.calls[0]![0]).toContain("qwen2.5 on Ollama");
  });

  it("with none running, says so and still offers the settings and the demo", async () => {
    const onsettings = vi.fn();
    const ondemo = vi.fn();
    render(FirstRun, { view, onconfigured: () => {}, onsettings, ondemo });
    expect((await screen.findByText(/None is running/)).textContent).toContain("Settings");
    await fireEvent.click(screen.getByTestId("first-run-settings"));
    await fireEvent.click(screen.getByTestId("first-run-demo"));
    expect(onsettings).toHaveBeenCalledTimes(1);
    expect(ondemo).toHaveBeenCalledTimes(1);
  });
});
