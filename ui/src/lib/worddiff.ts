// A change to a field's text, word by word: what stays, what goes (struck) and what comes (marked), as the
// review card shows an edit the model proposed. The longest common subsequence over words and the runs of
// space between them; bounded, so that a huge value cannot hold up the window.

/** A stretch of the text: kept as it was, removed from the old text, or added in the new one. */
export interface Piece {
  kind: "same" | "removed" | "added";
  text: string;
}

/** The most tokens (words and runs of space) the two texts may differ in before the diff gives up on words
 * and shows the whole old text struck and the whole new one added: the table it fills is this many squared
 * over four at most (a million cells, a few milliseconds). */
export const MOST_TOKENS = 2000;

/** `text` as words, runs of space and single marks: "Led a team, of 5." is
 * ["Led", " ", "a", " ", "team", ",", " ", "of", " ", "5", "."]. A word keeps its inner apostrophes and
 * hyphens ("don't", "full-time"). Joined, the tokens are the text. */
export function tokens(text: string): string[] {
  return text.match(/\s+|[\p{L}\p{M}\p{N}_]+(?:['’-][\p{L}\p{M}\p{N}_]+)*|[^\s]/gu) ?? [];
}

/** How `before` became `after`, word by word: pieces in reading order, each run of changes its removed text
 * before its added text. Past `most` tokens of difference (after the words both begin and end with), the
 * differing middle is one removed piece and one added piece. */
export function wordDiff(before: string, after: string, most = MOST_TOKENS): Piece[] {
  if (before === after) return before === "" ? [] : [{ kind: "same", text: before }];
  const a = tokens(before);
  const b = tokens(after);
  // The words both begin with, and those both end with, need no table.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const oldMiddle = a.slice(head, a.length - tail);
  const newMiddle = b.slice(head, b.length - tail);

  const pieces: Piece[] = [];
  push(pieces, "same", a.slice(0, head).join(""));
  if (oldMiddle.length + newMiddle.length > most) {
    push(pieces, "removed", oldMiddle.join(""));
    push(pieces, "added", newMiddle.join(""));
  } else {
    for (const piece of common(oldMiddle, newMiddle)) push(pieces, piece.kind, piece.text);
  }
  push(pieces, "same", a.slice(a.length - tail).join(""));
  return tidy(pieces);
}

/** The diff of two lists of tokens, by the longest common subsequence (a table of the LCS of every pair of
 * suffixes, then one walk from the start). */
function common(a: readonly string[], b: readonly string[]): Piece[] {
  const n = a.length;
  const m = b.length;
  const width = m + 1;
  // lcs[i * width + j]: the longest common subsequence of a[i..] and b[j..] (at most 2,000: fits 16 bits).
  const lcs = new Uint16Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * width + j] =
        a[i] === b[j]
          ? (lcs[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(lcs[(i + 1) * width + j] ?? 0, lcs[i * width + j + 1] ?? 0);
    }
  }
  const out: Piece[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      push(out, "same", a[i] ?? "");
      i++;
      j++;
    } else if ((lcs[(i + 1) * width + j] ?? 0) >= (lcs[i * width + j + 1] ?? 0)) {
      push(out, "removed", a[i++] ?? "");
    } else {
      push(out, "added", b[j++] ?? "");
    }
  }
  while (i < n) push(out, "removed", a[i++] ?? "");
  while (j < m) push(out, "added", b[j++] ?? "");
  return out;
}

/** Appends `text` as a piece of `kind`, joined to the last piece when that is of the same kind. */
function push(pieces: Piece[], kind: Piece["kind"], text: string): void {
  if (text === "") return;
  const last = pieces[pieces.length - 1];
  if (last?.kind === kind) last.text += text;
  else pieces.push({ kind, text });
}

/** Reads as a person would: a space alone kept between two changes joins them ("~~a b~~ __x y__", not
 * "~~a~~ __x__ ~~b~~ __y__"), and each run of changes says what goes before what comes. */
function tidy(pieces: readonly Piece[]): Piece[] {
  const out: Piece[] = [];
  let removed = "";
  let added = "";
  const flush = (): void => {
    push(out, "removed", removed);
    push(out, "added", added);
    removed = "";
    added = "";
  };
  pieces.forEach((piece, k) => {
    if (piece.kind === "removed") removed += piece.text;
    else if (piece.kind === "added") added += piece.text;
    else if (/^\s+$/.test(piece.text) && (removed !== "" || added !== "") && k + 1 < pieces.length) {
      // Between two changes (the next piece is a change: pieces of one kind are joined).
      removed += piece.text;
      added += piece.text;
    } else {
      flush();
      push(out, "same", piece.text);
    }
  });
  flush();
  return out;
}
