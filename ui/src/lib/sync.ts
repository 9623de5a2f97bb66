// What a sync did and where this device syncs, in words, for the Settings' sync section.
import type { SyncSummary } from "../bindings/SyncSummary";

/** Where this device syncs, as a sentence. */
export function syncPlaceInWords(summary: SyncSummary): string {
  const place = summary.place;
  if (!place) return "Sync is off: your resumes stay on this computer.";
  return place.kind === "folder"
    ? `Syncs through the folder ${place.path}.`
    : `Syncs through the git remote ${place.url}.`;
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What one sync did, a line each: what went out and came in, what changed, what waits, what was left. */
export function syncedInWords(summary: SyncSummary): string[] {
  const lines = [
    `${count(summary.sent, "change", "changes")} sent, ${count(summary.accepted, "change", "changes")} taken from your other devices.`,
  ];
  for (const title of summary.broughtIn) lines.push(`New here: ${title}`);
  for (const title of summary.updated) lines.push(`Changed on another device: ${title}`);
  for (const title of summary.deleted) lines.push(`Deleted on another device: ${title}`);
  if (summary.held > 0) {
    lines.push(`${count(summary.held, "edit", "edits")} changed on another device too: pick in the chat's held edits.`);
  }
  lines.push(...summary.notices);
  for (const skipped of summary.skipped) lines.push(`Left for now: ${skipped.file} (${skipped.reason})`);
  return lines;
}

/**
 * The git remote's address as the engine takes it: an HTTPS address with the user name and token the user
 * typed in their own fields put into it (`https://USER:TOKEN@host/path`, each part percent-encoded). The
 * engine takes the token out again and keeps it in the OS keychain; the address is kept without it. Any
 * other address, or one without a token, is sent as it was typed.
 */
export function remoteWithToken(address: string, user: string, token: string): string {
  const trimmed = address.trim();
  if (token === "") return trimmed;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return trimmed;
  }
  if (url.protocol !== "https:") return trimmed;
  // Forges take any user name with a personal access token (GitHub, GitLab); Gitea wants its owner's.
  url.username = user.trim() || url.username || "token";
  url.password = token;
  return url.toString();
}
