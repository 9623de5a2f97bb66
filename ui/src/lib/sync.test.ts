import { describe, expect, it } from "vitest";
import type { SyncSummary } from "../bindings/SyncSummary";
import { remoteWithToken, syncedInWords, syncPlaceInWords } from "./sync";

const quiet: SyncSummary = {
  place: null, device: "d", sent: 0, read: 0, accepted: 0, written: 0, bytesWritten: 0, skipped: [], broughtIn: [],
  updated: [], deleted: [], held: 0, notices: [], devices: [], lastSyncedAt: null,
};

describe("sync in words", () => {
  it("says where this device syncs, or that sync is off", () => {
    expect(syncPlaceInWords(quiet)).toMatch(/Sync is off/);
    expect(syncPlaceInWords({ ...quiet, place: { kind: "folder", path: "/home/you/Dropbox" } })).toBe(
      "Syncs through the folder /home/you/Dropbox.",
    );
    expect(syncPlaceInWords({ ...quiet, place: { kind: "git", url: "git://host/r.git" } })).toMatch(/git remote git:\/\/host/);
  });

  it("says what a sync did, a line each, and what waits for a choice", () => {
    const lines = syncedInWords({
      ...quiet, sent: 1, accepted: 2, broughtIn: ["Mine"], updated: ["Other"], held: 1,
      notices: ["“Old” was deleted on device 1a2b3c4d while it was edited elsewhere; it is kept"],
      skipped: [{ file: "d/x.json", reason: "it is not complete yet (still being copied?)" }],
    });
    expect(lines[0]).toBe("1 change sent, 2 changes taken from your other devices.");
    expect(lines).toContain("New here: Mine");
    expect(lines).toContain("Changed on another device: Other");
    expect(lines.some((l) => l.startsWith("1 edit changed on another device too"))).toBe(true);
    expect(lines.some((l) => l.includes("it is kept"))).toBe(true);
    expect(lines.at(-1)).toMatch(/^Left for now: d\/x.json/);
  });
});

describe("a git remote's token", () => {
  it("goes into an HTTPS address with its user, percent-encoded, and nowhere else", () => {
    expect(remoteWithToken(" https://git.example.com/ada/cv.git ", "ada", "ghp_a/b@c")).toBe(
      "https://ada:ghp_a%2Fb%40c@git.example.com/ada/cv.git",
    );
    expect(remoteWithToken("https://ada@git.example.com/cv.git", "", "t1")).toBe("https://ada:t1@git.example.com/cv.git");
    expect(remoteWithToken("https://git.example.com/cv.git", "", "t1")).toBe("https://token:t1@git.example.com/cv.git");
    for (const plain of ["file:///tmp/cv.git", "git://example.com/cv.git", "/home/ada/cv.git", "http://example.com/cv.git"]) {
      expect(remoteWithToken(plain, "ada", "t1")).toBe(plain);
    }
    expect(remoteWithToken("https://git.example.com/cv.git", "ada", "")).toBe("https://git.example.com/cv.git");
  });
});
