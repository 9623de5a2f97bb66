import { afterEach, describe, expect, it, vi } from "vitest";
import { PageUrls, readPages } from "./pages";

const PNG = (n: number) => new Uint8Array([0x89, 0x50, 0x4e, 0x47, n]);

/** Bytes as the engine frames them (ipc.rs `PageImages::to_bytes`). */
function frame(pages: { key: string; png?: Uint8Array }[], count = pages.length): Uint8Array {
  const header = new TextEncoder().encode(
    JSON.stringify({
      pages: pages.map((p) => ({ key: p.key, bytes: p.png?.length ?? 0 })),
      count,
      width: 595.28,
      height: 841.89,
    }),
  );
  const pngs = pages.flatMap((p) => (p.png ? [...p.png] : []));
  const out = new Uint8Array(4 + header.length + pngs.length);
  new DataView(out.buffer).setUint32(0, header.length, true);
  out.set(header, 4);
  out.set(pngs, 4 + header.length);
  return out;
}

describe("the Page view's bytes", () => {
  it("reads the header and each page sent", () => {
    const { header, sent } = readPages(frame([{ key: "a", png: PNG(1) }, { key: "b" }, { key: "c", png: PNG(3) }], 5).buffer as ArrayBuffer);
    expect(header.count).toBe(5);
    expect(header.pages.map((p) => p.key)).toEqual(["a", "b", "c"]);
    expect([...sent.keys()]).toEqual(["a", "c"]);
    expect([...sent.get("c")!]).toEqual([...PNG(3)]);
  });

  it("refuses bytes cut short or with bytes to spare, in words", () => {
    const good = frame([{ key: "a", png: PNG(1) }]);
    expect(() => readPages(good.subarray(0, 2))).toThrow(/cut short/);
    expect(() => readPages(good.subarray(0, good.length - 1))).toThrow(/cut short/);
    expect(() => readPages(new Uint8Array([...good, 0]))).toThrow(/to spare/);
    expect(() => readPages(new Uint8Array([255, 255, 255, 255]))).toThrow(/cut short/);
  });
});

describe("the pages the window holds", () => {
  let made = 0;
  const revoked: string[] = [];
  vi.stubGlobal("URL", {
    createObjectURL: () => `blob:${++made}`,
    revokeObjectURL: (url: string) => revoked.push(url),
  });
  afterEach(() => {
    made = 0;
    revoked.length = 0;
  });

  it("makes a URL once per picture, keeps the pages that did not change and lets the others go", () => {
    const urls = new PageUrls();
    const first = urls.take(frame([{ key: "a", png: PNG(1) }, { key: "b", png: PNG(2) }]));
    expect(first?.pages).toEqual(["blob:1", "blob:2"]);
    expect(urls.keys()).toEqual(["a", "b"]);
    // Page 2 changed; page 1 was not sent again.
    const second = urls.take(frame([{ key: "a" }, { key: "c", png: PNG(3) }]));
    expect(second?.pages).toEqual(["blob:1", "blob:3"]);
    expect(revoked).toEqual(["blob:2"]);
    // Down to one page.
    expect(urls.take(frame([{ key: "a" }]))?.pages).toEqual(["blob:1"]);
    expect(revoked).toEqual(["blob:2", "blob:3"]);
  });

  it("says so when a page is neither sent nor held, and keeps what it held", () => {
    const urls = new PageUrls();
    urls.take(frame([{ key: "a", png: PNG(1) }]));
    expect(urls.take(frame([{ key: "d", png: PNG(4) }, { key: "gone" }]))).toBeNull();
    expect(revoked).toEqual(["blob:2"]);
    expect(urls.keys()).toEqual(["a"]);
  });
});
