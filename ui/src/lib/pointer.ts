// RFC 6901 JSON Pointers, as the surface protocol uses them.

export class PointerError extends Error {}

/** The reference tokens of `pointer`: "" is the whole document, "/a~1b/0" is ["a/b", "0"]. */
export function parsePointer(pointer: string): string[] {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) {
    throw new PointerError(`"${pointer}" is not a JSON Pointer: it must start with "/"`);
  }
  return pointer
    .slice(1)
    .split("/")
    .map((token) => {
      if (/~[^01]|~$/.test(token)) {
        throw new PointerError(`"${pointer}" has an invalid escape (only ~0 and ~1 are allowed)`);
      }
      return token.replace(/~1/g, "/").replace(/~0/g, "~");
    });
}

/** The array index `token` names in an array of `length` items; `-` (only where allowed) is the end. */
export function arrayIndex(token: string, length: number, allowEnd: boolean): number {
  if (token === "-" && allowEnd) return length;
  if (!/^(0|[1-9]\d*)$/.test(token)) {
    throw new PointerError(`"${token}" is not an array index`);
  }
  const index = Number(token);
  const limit = allowEnd ? length : length - 1;
  if (index > limit) throw new PointerError(`index ${index} is out of range (${length} items)`);
  return index;
}
