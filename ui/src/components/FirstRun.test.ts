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

  it("with none running, offers the model's setup as a line, not a wall: Settings, and the demo", async () => {
    const onsettings = vi.fn();
    const ondemo = vi.fn();
    render(FirstRun, { view, onconfigured: () => {}, onsettings, ondemo });
    const card = screen.getByTestId("first-run");
    expect(card.textContent).toContain("Set up a model when you first ask — or now in Settings");
    await Promise.resolve();
    expect(screen.queryByTestId("first-run-server")).toBeNull();
    // Without their callbacks, the ways to a resume are not offered (no button that does nothing).
    expect(screen.queryByTestId("first-run-import")).toBeNull();
    await fireEvent.click(screen.getByTestId("first-run-settings"));
    await fireEvent.click(screen.getByTestId("first-run-demo"));
    expect(onsettings).toHaveBeenCalledTimes(1);
    expect(ondemo).toHaveBeenCalledTimes(1);
  });

  it("puts the user's own resume one click away: a file, LinkedIn's export, a blank page, the sample", async () => {
    const calls: string[] = [];
    const record = (name: string) => () => calls.push(name);
    render(FirstRun, {
      view,
      onconfigured: record("configured"),
      onsettings: record("settings"),
      ondemo: record("demo"),
      onimport: record("import"),
      onlinkedin: record("linkedin"),
      onblank: record("blank"),
      onsample: record("sample"),
    });
    const ids = ["first-run-import", "first-run-linkedin", "first-run-blank", "first-run-sample", "first-run-demo"];
    const buttons = screen.getAllByRole("button").filter((b) => ids.includes(b.dataset.testid ?? ""));
    // In that order, the demo last; each says what it takes.
    expect(buttons.map((b) => b.dataset.testid)).toEqual(ids);
    expect(buttons[0]!.textContent).toMatch(/Import a file.*PDF, Word, OpenDocument, JSON Resume or text.*drop it on the window/);
    expect(buttons[1]!.textContent).toContain("LinkedIn data export");
    expect(buttons[2]!.textContent).toContain("Start from scratch");
    expect(buttons[3]!.textContent).toContain("Use the sample");
    expect(buttons[4]!.textContent).toMatch(/Try the demo.*no model/);
    for (const button of buttons) await fireEvent.click(button);
    expect(calls).toEqual(["import", "linkedin", "blank", "sample", "demo"]);
  });
});
