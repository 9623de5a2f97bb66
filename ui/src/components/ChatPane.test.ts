import { cleanup, fireEvent, render, screen } from "@testing-library/svelte";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { TidySource } from "../bindings/TidySource";
import type { ChatMessage } from "../lib/chat";
import { heldEdits } from "../lib/values.fixture";
import ChatPane from "./ChatPane.svelte";

// jsdom lays nothing out, so it has no scrollIntoView; the pane calls it to keep the newest message in view.
Element.prototype.scrollIntoView = vi.fn();

afterEach(cleanup);

const edits = heldEdits;

function pane(messages: ChatMessage[], running = false) {
  const onheld = vi.fn();
  const onsend = vi.fn();
  render(ChatPane, { messages, running, onsend, onstop: () => {}, ondemo: () => {}, onheld });
  return { onheld, onsend };
}

describe("chat pane", () => {
  it("shows held edits in words and asks the user to apply or discard them", async () => {
    const { onheld } = pane([
      { role: "user", text: "Add Python" },
      { role: "held", text: "Also proposed…", held: { edits, state: "open" } },
    ]);
    expect(document.body.textContent).toContain("Change your title to “Pythonista”");
    await fireEvent.click(screen.getByTestId("held-apply"));
    expect(onheld).toHaveBeenLastCalledWith(1, true);
    await fireEvent.click(screen.getByTestId("held-discard"));
    expect(onheld).toHaveBeenLastCalledWith(1, false);
  });

  it("offers no choice once held edits are decided, and shows why applying failed", () => {
    pane([
      { role: "held", text: "a", held: { edits, state: "applied" } },
      { role: "held", text: "b", held: { edits, state: "open", error: "The resume changed since." } },
    ]);
    expect(document.body.textContent).toContain("Accepted.");
    expect(screen.getAllByTestId("held-apply")).toHaveLength(1);
    expect(screen.getByRole("alert").textContent).toBe("The resume changed since.");
  });

  it("several held edits are accepted or rejected one by one, or all at once", async () => {
    const two = {
      ...edits,
      ops: [...edits.ops, { op: "add" as const, path: "/skills/0/keywords/-", value: "Rust" }],
      descriptions: [...edits.descriptions, "Add “Rust” to the keywords of your skill “Web Development”"],
    };
    const { onheld } = pane([{ role: "held", text: "a", held: { edits: two, state: "open" } }]);
    expect(screen.getByTestId("held-apply").textContent?.trim()).toBe("Accept all");
    expect(screen.getByTestId("held-discard").textContent?.trim()).toBe("Reject all");
    const accept = screen.getAllByRole("button", { name: "Accept" });
    const reject = screen.getAllByRole("button", { name: "Reject" });
    expect([accept.length, reject.length]).toEqual([2, 2]);
    await fireEvent.click(reject[0]!);
    expect(onheld).toHaveBeenLastCalledWith(0, false, 0);
    await fireEvent.click(accept[1]!);
    expect(onheld).toHaveBeenLastCalledWith(0, true, 1);
  });

  it("shows a held edit's field in words and its change as a before and after, from the resume on screen", () => {
    const resume = { basics: { label: "Programmer" } };
    const valueAt = vi.fn((pointer: string) => (pointer === "/basics/label" ? resume.basics.label : undefined));
    render(ChatPane, { messages: [{ role: "held", text: "Held for you to confirm", held: { edits, state: "open" } }],
      valueAt, onsend: () => {}, onstop: () => {}, ondemo: () => {}, onheld: () => {} });
    expect(valueAt).toHaveBeenCalledWith("/basics/label");
    const row = screen.getByTestId("held-edit-0");
    expect(row.querySelector("del")?.textContent).toBe("Programmer");
    expect(row.querySelector("ins")?.textContent).toBe("Pythonista");
    expect(row.textContent).toContain("You › Title");
    // Its Accept and Reject are the card's.
    expect(row.querySelector("[data-testid='held-apply']")).not.toBeNull();
    expect(row.querySelector("[data-testid='held-discard']")).not.toBeNull();
  });

  it("does not apply held edits while a turn runs", () => {
    pane([{ role: "held", text: "a", held: { edits, state: "open" } }], true);
    expect((screen.getByTestId("held-apply") as HTMLButtonElement).disabled).toBe(true);
  });

  it("writes each message, and the message being typed, in its own direction", () => {
    // An Arabic message reads right to left, its "?" at its end, in a window whose words are English.
    pane([{ role: "user", text: "هل يمكنك إضافة بايثون؟" }, { role: "assistant", text: "Done." }]);
    expect(screen.getByTestId("chat-message-0").dir).toBe("auto");
    expect(screen.getByTestId("chat-message-1").dir).toBe("auto");
    expect(screen.getByTestId("chat-input").dir).toBe("auto");
  });

  it("sends on Enter and keeps Shift+Enter for a new line", async () => {
    const { onsend } = pane([]);
    const input = screen.getByTestId("chat-input");
    await fireEvent.input(input, { target: { value: "Tighten my summary" } });
    await fireEvent.keyDown(input, { key: "Enter", shiftKey: true });
    expect(onsend).not.toHaveBeenCalled();
    await fireEvent.keyDown(input, { key: "Enter" });
    expect(onsend).toHaveBeenCalledWith("Tighten my summary");
  });
});

describe("chat errors", () => {
  it("offer the action that fixes them", async () => {
    const onsettings = vi.fn();
    render(ChatPane, {
      messages: [
        { role: "error", text: "The API key was refused by api.openai.com (401)", action: "replace-key" },
        { role: "error", text: "No API key for api.openai.com", action: "settings" },
        { role: "error", text: "The disk is full" },
      ],
      onsend: () => {},
      onstop: () => {},
      ondemo: () => {},
      onheld: () => {},
      onsettings,
    });
    const buttons = screen.getAllByTestId("chat-action");
    expect(buttons.map((b) => b.textContent?.trim())).toEqual(["Replace key", "Open settings"]);
    await fireEvent.click(buttons[0]!);
    expect(onsettings).toHaveBeenCalledTimes(1);
  });

  it("offers to tidy an import with the model, and asks for it", async () => {
    const ontidy = vi.fn();
    const source: TidySource = { name: "ada.pdf", format: "pdf", lines: ["Ada Lovelace"], unplaced: [] };
    render(ChatPane, {
      messages: [
        { role: "notice", text: "Imported “Ada” (PDF).", tidy: source },
        { role: "notice", text: "Saved as revision 2." },
      ],
      onsend: () => {}, onstop: () => {}, ondemo: () => {}, onheld: () => {}, ontidy,
    });
    const buttons = screen.getAllByTestId("chat-tidy");
    expect(buttons).toHaveLength(1);
    await fireEvent.click(buttons[0]!);
    expect(ontidy).toHaveBeenCalledWith(0);
    cleanup();
    // Not while a turn runs.
    render(ChatPane, { messages: [{ role: "notice", text: "Imported", tidy: source }], running: true,
      onsend: () => {}, onstop: () => {}, ondemo: () => {}, onheld: () => {}, ontidy });
    expect((screen.getByTestId("chat-tidy") as HTMLButtonElement).disabled).toBe(true);
  });

  it("says it is thinking from Send until the model's first word", () => {
    render(ChatPane, { messages: [{ role: "user", text: "Add Python" }], running: true, thinking: true,
      onsend: () => {}, onstop: () => {}, ondemo: () => {}, onheld: () => {} });
    expect(screen.getByRole("status").textContent).toBe("Thinking…");
    cleanup();
    render(ChatPane, { messages: [{ role: "user", text: "Add Python" }, { role: "assistant", text: "On it." }], running: true,
      thinking: false, onsend: () => {}, onstop: () => {}, ondemo: () => {}, onheld: () => {} });
    expect(screen.queryByTestId("chat-thinking")).toBeNull();
  });

  it("shows what the next message is about, and clears it", async () => {
    const onclearselection = vi.fn();
    render(ChatPane, { messages: [], selection: "summary", onclearselection,
      onsend: () => {}, onstop: () => {}, ondemo: () => {}, onheld: () => {} });
    expect(screen.getByTestId("chat-selection").textContent).toContain("About the selected summary");
    await fireEvent.click(screen.getByRole("button", { name: "Clear the selection" }));
    expect(onclearselection).toHaveBeenCalledTimes(1);
  });

  it("reads a reply out once, when it is complete: the conversation itself is not a live region", () => {
    render(ChatPane, { messages: [{ role: "assistant", text: "Half a repl" }], running: true, announcement: "",
      onsend: () => {}, onstop: () => {}, ondemo: () => {}, onheld: () => {} });
    expect(screen.getByTestId("chat-messages").getAttribute("aria-live")).toBeNull();
    const live = screen.getByTestId("chat-announcement");
    expect(live.getAttribute("aria-live")).toBe("polite");
    expect(live.textContent).toBe("");
    cleanup();
    render(ChatPane, { messages: [{ role: "assistant", text: "Half a reply, now whole." }], announcement: "Half a reply, now whole.",
      onsend: () => {}, onstop: () => {}, ondemo: () => {}, onheld: () => {} });
    expect(screen.getByTestId("chat-announcement").textContent).toBe("Half a reply, now whole.");
  });

  it("holds the newest hundred messages in the page and brings older ones in on demand", async () => {
    const messages: ChatMessage[] = Array.from({ length: 250 }, (_, i) => ({
      role: i % 2 === 0 ? "user" : "assistant",
      text: `message ${i}`,
    }));
    pane(messages);
    const shown = () => screen.getByTestId("chat-messages").querySelectorAll("li.message").length;
    expect(shown()).toBe(100);
    expect(screen.getByTestId("chat-message-249").textContent).toContain("message 249");
    expect(screen.queryByTestId("chat-message-149")).toBeNull();
    await fireEvent.click(screen.getByTestId("chat-earlier"));
    expect(shown()).toBe(200);
    // Each message keeps its place in the conversation: its number is its index, wherever the page starts.
    expect(screen.getByTestId("chat-message-50").textContent).toContain("message 50");
    await fireEvent.click(screen.getByTestId("chat-earlier"));
    expect(shown()).toBe(250);
    expect(screen.queryByTestId("chat-earlier")).toBeNull();
  });
});
