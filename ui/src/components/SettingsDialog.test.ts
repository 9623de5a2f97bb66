import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/svelte";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ProviderSettings } from "../bindings/ProviderSettings";
import type { ProviderView } from "../bindings/ProviderView";
import type { SyncSummary } from "../bindings/SyncSummary";
import { openaiSettings } from "../lib/values.fixture";

const calls: { saved: ProviderSettings[]; keys: string[]; cleared: number; syncedTo: string[] } = {
  saved: [],
  keys: [],
  cleared: 0,
  syncedTo: [],
};
let keySet = false;

function syncSummary(url: string | null): SyncSummary {
  return {
    place: url === null ? null : { kind: "git", url },
    device: "0a1b2c3d",
    sent: 0,
    read: 0,
    accepted: 0,
    written: 0,
    bytesWritten: 0,
    skipped: [],
    broughtIn: [],
    updated: [],
    deleted: [],
    held: 0,
    notices: [],
    devices: [],
    lastSyncedAt: url === null ? null : 1_764_000_000_000,
  };
}

function view(settings: ProviderSettings): ProviderView {
  return { settings, saved: true, keySet, keyFor: `${settings.preset}@host`, keychainProblem: null, fromEnv: false };
}

const initial: ProviderSettings = openaiSettings;

let review = false;

vi.mock("../lib/backend", () => ({
  reviewMode: async () => review,
  setReviewMode: async (on: boolean) => {
    review = on;
    return review;
  },
  errorMessage: (err: unknown) => String((err as { message?: string }).message ?? err),
  providerSettings: async () => view({ ...initial }),
  saveProvider: async (settings: ProviderSettings) => {
    calls.saved.push(settings);
    return view(settings);
  },
  setKey: async (key: string) => {
    calls.keys.push(key);
    keySet = true;
    return view(calls.saved.at(-1) ?? initial);
  },
  clearKey: async () => {
    calls.cleared += 1;
    keySet = false;
    return view(initial);
  },
  testConnection: async () => ({
    baseUrl: "http://127.0.0.1:11434/v1",
    models: ["llama3.1", "qwen2.5"],
    listing: { ok: true, problem: null, kind: null },
    chat: { ok: true, problem: null, kind: null },
    patch: { ok: false, problem: "the model “nope” was not found at 127.0.0.1:11434", kind: "model_not_found" },
    patchFormat: "json_schema",
    streamsTools: false,
    callsTools: true,
  }),
  syncStatus: async () => syncSummary(null),
  syncNow: async () => syncSummary(calls.syncedTo.at(-1) ?? null),
  syncOff: async () => syncSummary(null),
  chooseSyncFolder: async () => ({
    kind: "offer",
    holds: { path: "/home/ada/Dropbox", titles: ["Backend", "Letter — Hooli"], devices: 1 },
  }),
  syncThroughFolder: async (path: string) => {
    calls.syncedTo.push(path);
    return { ...syncSummary(null), place: { kind: "folder", path }, broughtIn: ["Backend", "Letter — Hooli"] };
  },
  syncThroughGit: async (url: string) => {
    calls.syncedTo.push(url);
    return { ...syncSummary(url), sent: 2, broughtIn: ["Backend"] };
  },
}));

import SettingsDialog from "./SettingsDialog.svelte";

afterEach(() => {
  cleanup();
  calls.saved.length = 0;
  calls.keys.length = 0;
  calls.cleared = 0;
  calls.syncedTo.length = 0;
  keySet = false;
});

describe("settings", () => {
  it("a preset brings its address, and Save keeps the settings", async () => {
    render(SettingsDialog, { onclose: () => {} });
    const preset = (await screen.findByTestId("settings-preset")) as HTMLSelectElement;
    await fireEvent.change(preset, { target: { value: "ollama" } });
    expect((screen.getByTestId("settings-base-url") as HTMLInputElement).value).toBe("http://127.0.0.1:11434/v1");
    await fireEvent.input(screen.getByTestId("settings-chat-model"), { target: { value: "llama3.1" } });
    await fireEvent.click(screen.getByTestId("settings-save"));
    await waitFor(() => expect(calls.saved.length).toBe(1));
    expect(calls.saved[0]).toMatchObject({ preset: "ollama", baseUrl: "http://127.0.0.1:11434/v1", chatModel: "llama3.1" });
  });

  it("review mode is off by default and saved when toggled", async () => {
    render(SettingsDialog, { onclose: () => {} });
    const box = (await screen.findByTestId("settings-review")) as HTMLInputElement;
    expect(box.checked).toBe(false);
    await fireEvent.click(box);
    await waitFor(() => expect(review).toBe(true));
    expect(box.checked).toBe(true);
  });

  it("the timeouts are shown and saved as numbers", async () => {
    render(SettingsDialog, { onclose: () => {} });
    const first = (await screen.findByTestId("settings-first-token-timeout")) as HTMLInputElement;
    expect(first.value).toBe("60");
    expect((screen.getByTestId("settings-idle-timeout") as HTMLInputElement).value).toBe("30");
    await fireEvent.input(first, { target: { value: "240" } });
    await fireEvent.click(screen.getByTestId("settings-save"));
    await waitFor(() => expect(calls.saved.length).toBe(1));
    expect(calls.saved[0]).toMatchObject({ firstTokenTimeoutSecs: 240, idleTimeoutSecs: 30 });
  });

  it("the key goes to the keychain and the window only learns that it is set", async () => {
    render(SettingsDialog, { onclose: () => {} });
    expect((await screen.findByTestId("settings-key-state")).textContent).toContain("not set");
    const input = screen.getByTestId("settings-key") as HTMLInputElement;
    expect(input.type).toBe("password");
    await fireEvent.input(input, { target: { value: "sk-test-123" } });
    await fireEvent.click(screen.getByTestId("settings-save-key"));
    await waitFor(() => expect(screen.getByTestId("settings-key-state").textContent).toContain("set"));
    expect(calls.keys).toEqual(["sk-test-123"]);
    expect(input.value).toBe("");
    expect(screen.getByTestId("settings-save-key").textContent?.trim()).toBe("Replace key");
    await fireEvent.click(screen.getByTestId("settings-remove-key"));
    await waitFor(() => expect(calls.cleared).toBe(1));
    expect(screen.getByTestId("settings-key-state").textContent).toContain("not set");
  });

  it("Test connection says in words what works and what does not, and offers the server's models", async () => {
    render(SettingsDialog, { onclose: () => {} });
    await fireEvent.click(await screen.findByTestId("settings-test"));
    const report = await screen.findByTestId("settings-report");
    expect(report.textContent).toContain("answers, 2 model(s)");
    expect(report.textContent).toContain("without streaming");
    expect(report.textContent).toContain("the model “nope” was not found");
    await waitFor(() =>
      expect(screen.getByTestId("settings-status").textContent).toContain("Something does not work"),
    );
    const options = Array.from(document.querySelectorAll("#settings-models option")).map((o) => o.getAttribute("value"));
    expect(options).toEqual(["llama3.1", "qwen2.5"]);
  });

  it("sync starts off, and a git remote syncs and says what it did", async () => {
    render(SettingsDialog, { onclose: () => {} });
    expect((await screen.findByTestId("sync-place")).textContent).toContain("Sync is off");
    expect(screen.queryByTestId("sync-now")).toBeNull();
    const sync = screen.getByTestId("sync-git") as HTMLButtonElement;
    expect(sync.disabled).toBe(true);
    await fireEvent.input(screen.getByTestId("sync-git-url"), { target: { value: "file:///tmp/resumes.git" } });
    await fireEvent.click(sync);
    await waitFor(() => expect(calls.syncedTo).toEqual(["file:///tmp/resumes.git"]));
    expect((await screen.findByTestId("sync-place")).textContent).toContain("git remote file:///tmp/resumes.git");
    const report = (await screen.findByTestId("sync-report")).textContent ?? "";
    expect(report).toContain("2 changes sent");
    expect(report).toContain("New here: Backend");
    expect(screen.getByTestId("sync-now")).toBeTruthy();
  });

  it("an HTTPS remote asks for a user name and a token, sends them in its address once, and forgets the token", async () => {
    render(SettingsDialog, { onclose: () => {} });
    await screen.findByTestId("sync-place");
    expect(screen.queryByTestId("sync-git-credentials")).toBeNull();
    await fireEvent.input(screen.getByTestId("sync-git-url"), { target: { value: "https://git.example.com/ada/cv.git" } });
    const token = (await screen.findByTestId("sync-git-token")) as HTMLInputElement;
    expect(token.type).toBe("password");
    await fireEvent.input(screen.getByTestId("sync-git-user"), { target: { value: "ada" } });
    await fireEvent.input(token, { target: { value: "ghp_1" } });
    await fireEvent.click(screen.getByTestId("sync-git"));
    await waitFor(() => expect(calls.syncedTo).toEqual(["https://ada:ghp_1@git.example.com/ada/cv.git"]));
    await waitFor(() => expect((screen.getByTestId("sync-git-token") as HTMLInputElement).value).toBe(""));
  });

  it("a folder that holds resumes from another device is offered first, and brought in only when asked", async () => {
    render(SettingsDialog, { onclose: () => {} });
    await fireEvent.click(await screen.findByTestId("sync-choose-folder"));
    const offer = await screen.findByTestId("sync-offer");
    const said = (offer.textContent ?? "").replace(/\s+/g, " ");
    expect(said).toContain("/home/ada/Dropbox holds 2 resumes and letters from another device");
    expect(screen.getByTestId("sync-offer-titles").textContent).toContain("Letter — Hooli");
    expect(calls.syncedTo).toEqual([]);
    await fireEvent.click(screen.getByTestId("sync-offer-cancel"));
    expect(screen.queryByTestId("sync-offer")).toBeNull();
    expect(calls.syncedTo).toEqual([]);
    await fireEvent.click(screen.getByTestId("sync-choose-folder"));
    await fireEvent.click(await screen.findByTestId("sync-offer-accept"));
    await waitFor(() => expect(calls.syncedTo).toEqual(["/home/ada/Dropbox"]));
    expect((await screen.findByTestId("sync-place")).textContent).toContain("folder /home/ada/Dropbox");
    expect((await screen.findByTestId("sync-report")).textContent).toContain("New here: Backend");
  });
});
