import { cleanup, fireEvent, render, screen } from "@testing-library/svelte";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ChatMessage } from "../lib/chat";
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
});
