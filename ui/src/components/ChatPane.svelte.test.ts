import { cleanup, fireEvent, render, screen } from "@testing-library/svelte";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ChatMessage } from "../lib/chat";
import { heldEdits } from "../lib/values.fixture";
import ChatPane from "./ChatPane.svelte";

// jsdom lays nothing out, so it has no scrollIntoView; the pane calls it to keep the newest message in view.
Element.prototype.scrollIntoView = vi.fn();

afterEach(cleanup);

describe("chat pane, a year of conversation", () => {
  it("reads older lines from the store once every message held is in the page", async () => {
    // The app's messages are a deep state proxy: a line put in front re-renders the page.
    const messages: ChatMessage[] = $state(
      Array.from({ length: 30 }, (_, i): ChatMessage => ({ role: "user", text: `recent ${i}` })),
    );
    const onolder = vi.fn(async () => {
      const page = Array.from({ length: 200 }, (_, i): ChatMessage => ({ role: "assistant", text: `old ${i}` }));
      messages.unshift(...page);
      return page.length;
    });
    const props = { messages, older: true, onolder, onsend: () => {}, onstop: () => {}, ondemo: () => {},
      onheld: () => {} };
    const { rerender } = render(ChatPane, props);
    const shown = () => screen.getByTestId("chat-messages").querySelectorAll("li.message").length;
    expect(shown()).toBe(30);
    await fireEvent.click(screen.getByTestId("chat-earlier"));
    await vi.waitFor(() => expect(shown()).toBe(230));
    expect(onolder).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId("chat-message-0").textContent).toContain("old 0");
    expect(screen.getByTestId("chat-message-229").textContent).toContain("recent 29");
    // With nothing older in the store, no button is left.
    await rerender({ ...props, older: false });
    expect(screen.queryByTestId("chat-earlier")).toBeNull();
  });

  it("says what became of a held edit in its live region, until the app says something new", async () => {
    const held: NonNullable<ChatMessage["held"]> = $state({ edits: heldEdits, state: "open" });
    const messages: ChatMessage[] = [{ role: "held", text: "Held", held }];
    const onheld = vi.fn((_index: number, apply: boolean) => (held.state = apply ? "applied" : "discarded"));
    const props = { messages, announcement: "Done.", onsend: () => {}, onstop: () => {}, ondemo: () => {}, onheld };
    const { rerender } = render(ChatPane, props);
    const live = screen.getByTestId("chat-announcement");
    expect(live.textContent).toBe("Done.");
    const row = screen.getByTestId("held-edit-0");
    row.focus();
    await fireEvent.keyDown(row, { key: "a" });
    expect(onheld).toHaveBeenLastCalledWith(0, true);
    await vi.waitFor(() => expect(live.textContent).toBe("Accepted: Title."));
    await rerender({ ...props, announcement: "Saved as revision 3." });
    expect(live.textContent).toBe("Saved as revision 3.");
  });
});
