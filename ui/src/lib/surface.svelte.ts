// The resume view's one store, and the one module that turns surface messages into store updates.
//
// The document lives in a deep `$state` proxy, and every operation mutates it in place at its path, so a
// patch to `/work/0/highlights/2` re-renders that bullet and nothing else. Highlights work the same way: a
// field asks about its own pointer (`highlight`), and marking one path re-runs only the fields at or under it.

import { untrack } from "svelte";
import type { Operation } from "../bindings/Operation";
import type { SurfaceUpdate } from "../bindings/SurfaceUpdate";
import { arrayIndex, parsePointer, PointerError } from "./pointer";
import { FADE_MS, type Highlight } from "./editing";
import type { Resume } from "./resume";

type Json = unknown;
type Container = Record<string, Json> | Json[];

/** What applying a message asks of the caller. */
export type Applied =
  | { kind: "applied" }
  | { kind: "ignored"; reason: string }
  | { kind: "resync"; reason: string };

export class SurfaceStore {
  /** The document on screen; null until the first `create`. */
  document = $state<Resume | null>(null);
  /** The revision the document is at (previews on top of it are not revisions). */
  revision = $state(0);
  /** JSON Pointers changed by previews not yet committed, for highlighting. */
  pending = $state<string[]>([]);
  /** JSON Pointers changed by the change committed last, highlighted until {@link fade} (a few seconds on,
   * or the next turn). */
  changed = $state<string[]>([]);
  /** JSON Pointers whose highlight is fading out, for {@link FADE_MS} after a {@link fade} at rest. (Plain
   * data: the fields ask about them through {@link highlight}, pointer by pointer.) */
  fading: string[] = [];
  /** What previews removed, and from where, shown struck through until the bundle is committed or rolled
   * back. */
  removed = $state<{ path: string; value: unknown }[]>([]);
  /** The surface this store follows. */
  surfaceId: string | null = null;
  private nextSeq = 0;
  /** `pending` and `changed` as the fields ask about them, pointer by pointer. */
  private pendingMarks = new PointerSet();
  private changedMarks = new PointerSet();
  private fadingMarks = new PointerSet();
  private fadingEnds: ReturnType<typeof setTimeout> | undefined;

  /** Applies one surface message. A gap in `seq` or an operation that does not fit asks for a resync. */
  apply(update: SurfaceUpdate): Applied {
    if (update.kind === "create") {
      this.surfaceId = update.surfaceId;
      this.document = update.document as Resume;
      this.revision = update.revision;
      this.setPending([]);
      this.setChanged([]);
      this.setFading([]);
      if (this.removed.length > 0) this.removed = [];
      this.nextSeq = update.seq + 1;
      return { kind: "applied" };
    }
    if (this.document === null || update.surfaceId !== this.surfaceId) {
      return { kind: "ignored", reason: `no surface ${update.surfaceId} is open` };
    }
    if (update.seq < this.nextSeq) {
      return { kind: "ignored", reason: `message ${update.seq} was already applied` };
    }
    if (update.seq > this.nextSeq) {
      return { kind: "resync", reason: `messages ${this.nextSeq}–${update.seq - 1} were missed` };
    }
    this.nextSeq = update.seq + 1;
    try {
      if (update.kind === "text") {
        appendText(this.document, update.path, update.append);
        this.mark(update.path);
        return { kind: "applied" };
      }
      for (const op of update.ops) {
        if (update.state === "preview" && op.op === "remove") {
          this.removed.push({ path: op.path, value: $state.snapshot(read(this.document as Json, op.path)) });
        }
        applyOperation(this, op);
      }
      // (Only when there is something to clear: every section and entry asks about it.)
      if (update.state !== "preview" && this.removed.length > 0) this.removed = [];
      switch (update.state) {
        case "preview":
          for (const op of update.ops) this.mark(op.path);
          break;
        case "committed": {
          this.revision = update.revision;
          const touched = [...this.pending];
          for (const op of update.ops) {
            const path = this.concrete(op.path);
            if (op.op !== "remove" && op.op !== "test" && !touched.includes(path)) touched.push(path);
          }
          this.setPending([]);
          this.setChanged(touched);
          break;
        }
        case "rolledBack":
          this.setPending([]);
          break;
      }
      return { kind: "applied" };
    } catch (err) {
      return { kind: "resync", reason: err instanceof Error ? err.message : String(err) };
    }
  }

  /** What a preview removed from the list or object at `parent`, with the index (or key) each had: shown
   * struck through. */
  removedFrom(parent: string): { index: number; key: string; value: unknown }[] {
    return this.removed
      .filter((r) => r.path.slice(0, r.path.lastIndexOf("/")) === parent)
      .map((r) => {
        const key = r.path.slice(r.path.lastIndexOf("/") + 1);
        return { index: Number(key), key, value: r.value };
      });
  }

  /** Ends the highlight of the change committed last: at once, or `slowly` (it fades out, `fading`, for
   * {@link FADE_MS}) when the view is at rest. Only the fields fading take on a transition: a turn starting
   * or ending changes no other field's style. */
  fade(slowly = false): void {
    const was = this.changed;
    this.setChanged([]);
    clearTimeout(this.fadingEnds);
    this.setFading(slowly ? was : []);
    if (slowly && was.length > 0) this.fadingEnds = setTimeout(() => this.setFading([]), FADE_MS);
  }

  /** How the field at `path` is highlighted: `pending` while a preview changes it (or something that holds
   * it), `changed` once that change is committed, until it fades; null otherwise. */
  highlight(path: string): Highlight {
    if (this.pendingMarks.covers(path)) return "pending";
    if (this.changedMarks.covers(path)) return "changed";
    if (this.fadingMarks.covers(path)) return "fading";
    return null;
  }

  private mark(path: string): void {
    const concrete = this.concrete(path);
    if (this.pendingMarks.add(concrete)) this.pending.push(concrete);
  }

  private setPending(paths: string[]): void {
    if (paths.length === 0 && this.pending.length === 0) return;
    this.pending = paths;
    this.pendingMarks.set(paths);
  }

  private setChanged(paths: string[]): void {
    if (paths.length === 0 && this.changed.length === 0) return;
    this.changed = paths;
    this.changedMarks.set(paths);
  }

  private setFading(paths: string[]): void {
    if (paths.length === 0 && this.fading.length === 0) return;
    this.fading = paths;
    this.fadingMarks.set(paths);
  }

  /** `path` with a final `-` (the end of a list) as the index of the list's last item, once applied. */
  private concrete(path: string): string {
    if (!path.endsWith("/-") || this.document === null) return path;
    const list = path.slice(0, -2);
    try {
      const node = read(this.document as Json, list);
      return Array.isArray(node) ? `${list}/${Math.max(node.length - 1, 0)}` : path;
    } catch {
      return path;
    }
  }
}

/** A reactive counter: reading it makes the reader depend on it; bumping it re-runs the readers. */
class Version {
  value = $state(0);
}

/** A set of JSON Pointers that fields ask about one at a time — is my pointer, or one that holds it, in the
 * set? Membership is plain data; what a reader depends on is the bucket (one of {@link BUCKETS} counters)
 * of each pointer it asked about, and a change bumps only the buckets of the pointers that came or went. So
 * marking one path re-runs the fields at or under it (and, rarely, a few that share a bucket), not every
 * field of a large resume. (The counters are made up front: one made while a field reads would not be
 * tracked by it.) */
export class PointerSet {
  private members = new Set<string>();
  private buckets = Array.from({ length: BUCKETS }, () => new Version());

  /** Makes the set `paths`. (Safe inside an effect: bumping a counter does not make the caller depend on it.) */
  set(paths: readonly string[]): void {
    const next = new Set(paths);
    untrack(() => {
      for (const path of this.members) if (!next.has(path)) this.bucket(path).value++;
      for (const path of next) if (!this.members.has(path)) this.bucket(path).value++;
    });
    this.members = next;
  }

  /** Adds `path`; false when it was there already. */
  add(path: string): boolean {
    if (this.members.has(path)) return false;
    this.members.add(path);
    untrack(() => this.bucket(path).value++);
    return true;
  }

  /** True when `path` or one of its ancestors (the document, `""`, included) is in the set. */
  covers(path: string): boolean {
    if (this.has("")) return true;
    for (let slash = path.indexOf("/", 1); slash !== -1; slash = path.indexOf("/", slash + 1)) {
      if (this.has(path.slice(0, slash))) return true;
    }
    return path !== "" && this.has(path);
  }

  private has(path: string): boolean {
    void this.bucket(path).value;
    return this.members.has(path);
  }

  private bucket(path: string): Version {
    // FNV-1a.
    let hash = 0x811c9dc5;
    for (let i = 0; i < path.length; i++) hash = Math.imul(hash ^ path.charCodeAt(i), 0x01000193);
    return this.buckets[(hash >>> 0) % BUCKETS] as Version;
  }
}

/** How many counters a {@link PointerSet} spreads its pointers over. */
const BUCKETS = 1024;

/** Applies one RFC 6902 operation to the store's document, in place. */
function applyOperation(store: SurfaceStore, op: Operation): void {
  if (op.path === "" && (op.op === "add" || op.op === "replace")) {
    store.document = structuredClone(op.value) as Resume;
    return;
  }
  const doc = store.document as Json;
  switch (op.op) {
    case "add":
      insert(doc, op.path, structuredClone(op.value));
      break;
    case "remove":
      take(doc, op.path);
      break;
    case "replace":
      take(doc, op.path);
      insert(doc, op.path, structuredClone(op.value));
      break;
    case "move":
      insert(doc, op.path, take(doc, op.from));
      break;
    case "copy":
      insert(doc, op.path, structuredClone($state.snapshot(read(doc, op.from))));
      break;
    case "test":
      if (JSON.stringify($state.snapshot(read(doc, op.path))) !== JSON.stringify(op.value)) {
        throw new PointerError(`test failed at ${op.path}`);
      }
      break;
  }
}

function read(doc: Json, pointer: string): Json {
  let node = doc;
  for (const token of parsePointer(pointer)) {
    node = child(node, token, pointer);
  }
  return node;
}

function child(node: Json, token: string, pointer: string): Json {
  if (Array.isArray(node)) return node[arrayIndex(token, node.length, false)];
  if (isObject(node) && Object.hasOwn(node, token)) return node[token];
  throw new PointerError(`${pointer} does not exist`);
}

function parentOf(doc: Json, pointer: string): { parent: Container; token: string } {
  const tokens = parsePointer(pointer);
  const token = tokens.pop();
  if (token === undefined) throw new PointerError("the whole document has no parent");
  let parent = doc;
  for (const t of tokens) parent = child(parent, t, pointer);
  if (!Array.isArray(parent) && !isObject(parent)) throw new PointerError(`${pointer} has no container`);
  return { parent, token };
}

function insert(doc: Json, pointer: string, value: Json): void {
  const { parent, token } = parentOf(doc, pointer);
  if (Array.isArray(parent)) parent.splice(arrayIndex(token, parent.length, true), 0, value);
  else parent[token] = value;
}

function take(doc: Json, pointer: string): Json {
  const { parent, token } = parentOf(doc, pointer);
  if (Array.isArray(parent)) return parent.splice(arrayIndex(token, parent.length, false), 1)[0];
  if (!Object.hasOwn(parent, token)) throw new PointerError(`${pointer} does not exist`);
  const value = parent[token];
  delete parent[token];
  return value;
}

function appendText(doc: Json, pointer: string, append: string): void {
  const { parent, token } = parentOf(doc, pointer);
  const index = Array.isArray(parent) ? arrayIndex(token, parent.length, false) : token;
  const current = (parent as Record<string | number, Json>)[index];
  if (typeof current !== "string") throw new PointerError(`${pointer} is not a string`);
  (parent as Record<string | number, Json>)[index] = current + append;
}

function isObject(value: Json): value is Record<string, Json> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The app's one surface store. */
export const surface = new SurfaceStore();
