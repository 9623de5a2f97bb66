// Values more than one test starts from.
import type { ProviderSettings } from "../bindings/ProviderSettings";

/** One edit held for the user, outside what was asked: a new title. */
export const heldEdits = {
  documentId: 1,
  base: 2,
  ops: [{ op: "replace" as const, path: "/basics/label", value: "Pythonista" }],
  descriptions: ["Change your title to “Pythonista”"],
  proposal: false,
  why: ["outside" as const],
};

/** The provider settings of a fresh install: OpenAI's service, its small model for both parts. */
export const openaiSettings: ProviderSettings = {
  preset: "openai",
  baseUrl: "https://api.openai.com/v1",
  chatModel: "gpt-4.1-mini",
  patchModel: "gpt-4.1-mini",
  firstTokenTimeoutSecs: 60,
  idleTimeoutSecs: 30,
};
