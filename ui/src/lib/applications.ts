// Applications as the window shows them: on a board by stage and in a table, with what is due and how many
// answered. Pure functions over the engine's rows (components/applications/*), tested on their own.
import type { Application } from "../bindings/Application";
import type { ApplicationFields } from "../bindings/ApplicationFields";
import type { Stage } from "../bindings/Stage";

/** The stages, in the order an application moves through them, and what the board calls each. */
export const STAGES: { stage: Stage; label: string }[] = [
  { stage: "saved", label: "Saved" },
  { stage: "applied", label: "Applied" },
  { stage: "interviewing", label: "Interviewing" },
  { stage: "offer", label: "Offer" },
  { stage: "rejected", label: "Rejected" },
  { stage: "withdrawn", label: "Withdrawn" },
];

export const stageLabel = (stage: Stage): string => STAGES.find((s) => s.stage === stage)?.label ?? stage;

/** The applications of each stage, in the board's order; within one, the most recently changed first. */
export function byStage(applications: readonly Application[]): Map<Stage, Application[]> {
  const board = new Map<Stage, Application[]>(STAGES.map(({ stage }) => [stage, []]));
  for (const a of applications) board.get(a.stage)?.push(a);
  for (const list of board.values()) list.sort((a, b) => b.updatedAt - a.updatedAt || b.id - a.id);
  return board;
}

/** The stage `steps` away from `stage` on the board (the left and right arrow keys), or null past either end. */
export function stageBeside(stage: Stage, steps: number): Stage | null {
  const i = STAGES.findIndex((s) => s.stage === stage) + steps;
  return STAGES[i]?.stage ?? null;
}

/** A follow-up's state on `today` (`YYYY-MM-DD`): due (today or past) for an application still open, else
 * upcoming, or none. A closed one (an offer, a no, withdrawn) has nothing due. */
export function followUp(application: Application, today: string): "due" | "upcoming" | null {
  const date = application.followUp;
  if (!date || ["offer", "rejected", "withdrawn"].includes(application.stage)) return null;
  return date <= today ? "due" : "upcoming";
}

/** How many were sent (every stage past "saved" but a withdrawal before an answer counts as sent) and how
 * many of those had an answer (interviews, an offer or a no): the response rate the chart shows. */
export function responses(applications: readonly Application[]): { sent: number; answered: number; rate: number | null } {
  const sent = applications.filter((a) => a.stage !== "saved" && a.timeline.some((c) => c.stage === "applied"));
  const answered = sent.filter((a) => a.timeline.some((c) => ["interviewing", "offer", "rejected"].includes(c.stage)));
  return { sent: sent.length, answered: answered.length, rate: sent.length === 0 ? null : answered.length / sent.length };
}

/** Today in the user's own time zone, `YYYY-MM-DD`. */
export function localToday(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** A new application's form, empty: saved today, nothing pinned (the engine pins what the window asks). */
export function blankFields(): ApplicationFields {
  return {
    company: "", role: "", posting: "", source: "", url: "", stage: null, contacts: "", notes: "", salary: "",
    followUp: null, tags: [], resume: null, letter: null, timeline: [], date: null,
  };
}
