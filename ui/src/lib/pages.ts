// The Page view's pages as the engine sends them (ipc.rs `PageImages::to_bytes`): the header's JSON length
// (a little-endian u32), the header, then the PNG of each page the window did not already have. Each page
// is kept as an object URL by its key, so that a page that did not change is neither sent nor decoded again.

import type { PageImages } from "../bindings/PageImages";

/** What the Page view shows: each page as a URL its <img> can load, the page count and the paper size. */
export interface PagesShown {
  pages: string[];
  count: number;
  width: number;
  height: number;
}

/** The header and each sent page's PNG bytes, by key; throws in words when the bytes are not that. */
export function readPages(bytes: ArrayBuffer | Uint8Array | number[]): {
  header: PageImages;
  sent: Map<string, Uint8Array>;
} {
  const all = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  if (all.length < 4) throw new Error("the pages arrived cut short");
  const length = new DataView(all.buffer, all.byteOffset, all.byteLength).getUint32(0, true);
  if (4 + length > all.length) throw new Error("the pages arrived cut short");
  const header = JSON.parse(new TextDecoder().decode(all.subarray(4, 4 + length))) as PageImages;
  const sent = new Map<string, Uint8Array>();
  let at = 4 + length;
  for (const page of header.pages) {
    if (page.bytes === 0) continue;
    if (at + page.bytes > all.length) throw new Error("the pages arrived cut short");
    sent.set(page.key, all.subarray(at, at + page.bytes));
    at += page.bytes;
  }
  if (at !== all.length) throw new Error("the pages arrived with bytes to spare");
  return { header, sent };
}

/** The pages the window holds, by key, as object URLs. */
export class PageUrls {
  private urls = new Map<string, string>();

  /** The keys of the pages held: the engine need not send them again. */
  keys(): string[] {
    return [...this.urls.keys()];
  }

  /**
   * The pages `bytes` describes, as URLs: new ones made from the bytes, the others as held. Pages no longer
   * shown are let go. Returns null when a page is neither sent nor held (then ask again with nothing held).
   */
  take(bytes: ArrayBuffer | Uint8Array | number[]): PagesShown | null {
    const { header, sent } = readPages(bytes);
    const urls = new Map<string, string>();
    const made: string[] = [];
    for (const page of header.pages) {
      let url = this.urls.get(page.key);
      const png = sent.get(page.key);
      if (!url && png) {
        url = URL.createObjectURL(new Blob([png.slice()], { type: "image/png" }));
        made.push(url);
      }
      if (!url) {
        made.forEach((u) => URL.revokeObjectURL(u));
        return null;
      }
      urls.set(page.key, url);
    }
    for (const [key, url] of this.urls) if (!urls.has(key)) URL.revokeObjectURL(url);
    this.urls = urls;
    return {
      pages: header.pages.map((p) => urls.get(p.key) ?? ""),
      count: header.count,
      width: header.width,
      height: header.height,
    };
  }

  /** Lets every page go. */
  clear(): void {
    for (const url of this.urls.values()) URL.revokeObjectURL(url);
    this.urls.clear();
  }
}
