/**
 * Strings indexed by their first `width` characters, all found in a text in one pass (redaction and the
 * secret scan: a worker learns thousands of secrets, and every exchange's text is searched for all of them).
 *
 * The pass keeps a rolling hash of the `width` characters at each place and looks the place's prefix up
 * only when the hash is one of an indexed prefix (a bit set of 2^20 bits): the same places as a lookup of
 * `text.slice(at, at + width)` at every place, without a string made and hashed per character of the text
 * (that was most of the redaction's time, about a tenth of a worker's CPU in a run against the reference).
 */

const BASE = 31;
/** Fibonacci hashing: spreads the rolling hash over the bit set's index. */
const MIX = 0x9e3779b1 | 0;
const INDEX_BITS = 20;

export class PrefixIndex {
  private readonly byPrefix = new Map<string, string[]>();
  private readonly bits = new Uint32Array(1 << (INDEX_BITS - 5));
  /** BASE^(width-1) mod 2^32: the weight of the character that leaves the window. */
  private readonly high: number;

  constructor(readonly width: number) {
    let high = 1;
    for (let i = 1; i < width; i++) high = Math.imul(high, BASE);
    this.high = high;
  }

  get size(): number {
    return this.byPrefix.size;
  }

  /** The values indexed under `prefix` (`width` characters), in the order they were added. */
  get(prefix: string): string[] | undefined {
    return this.byPrefix.get(prefix);
  }

  /** Indexes `value` (at least `width` characters) under its prefix; the caller keeps out duplicates it does not want. */
  add(value: string): void {
    const prefix = value.slice(0, this.width);
    const values = this.byPrefix.get(prefix);
    if (values) values.push(value);
    else this.byPrefix.set(prefix, [value]);
    const index = Math.imul(this.hash(prefix), MIX) >>> (32 - INDEX_BITS);
    this.bits[index >>> 5]! |= 1 << (index & 31);
  }

  private hash(text: string): number {
    let h = 0;
    for (let i = 0; i < this.width; i++) h = (Math.imul(h, BASE) + text.charCodeAt(i)) | 0;
    return h;
  }

  /**
   * Calls `visit` at each place `at` of `text` (in order, `at + reach <= text.length`, reach at least `width`) where
   * an indexed prefix stands, with the values indexed under it; `visit` returning true ends the pass.
   */
  scan(text: string, visit: (at: number, candidates: string[]) => boolean | void, reach: number = this.width): void {
    const width = this.width;
    if (this.byPrefix.size === 0 || text.length < reach) return;
    const last = text.length - reach;
    let h = this.hash(text);
    for (let at = 0; ; at++) {
      const index = Math.imul(h, MIX) >>> (32 - INDEX_BITS);
      if ((this.bits[index >>> 5]! & (1 << (index & 31))) !== 0) {
        const candidates = this.byPrefix.get(text.slice(at, at + width));
        if (candidates && visit(at, candidates) === true) return;
      }
      if (at >= last) return;
      h = (Math.imul(h - Math.imul(text.charCodeAt(at), this.high), BASE) + text.charCodeAt(at + width)) | 0;
    }
  }
}
