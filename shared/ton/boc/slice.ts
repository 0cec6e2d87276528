import { tlbError } from '../errors.js';
import type { Boc } from './reader.js';

const TWO32 = 4294967296;
const POW2: number[] = Array.from({ length: 54 }, (_, i) => 2 ** i);

/**
 * A read cursor over one cell of a {@link Boc}: bits are read straight from the BOC bytes, references are
 * returned as cell indices. Reading past the end throws a `TLB_UNDERFLOW` {@link DecodeError}.
 */
export class Slice {
  pos: number;
  end: number;
  refPos = 0;
  readonly refEnd: number;
  private readonly base: number;

  constructor(
    readonly boc: Boc,
    readonly cell: number,
  ) {
    this.pos = 0;
    this.end = boc.bitLen[cell]!;
    this.refEnd = boc.d1[cell]! & 7;
    this.base = boc.dataOff[cell]! * 8;
  }

  get remainingBits(): number {
    return this.end - this.pos;
  }

  get remainingRefs(): number {
    return this.refEnd - this.refPos;
  }

  private underflow(n: number, what: string): never {
    throw tlbError(
      'TLB_UNDERFLOW',
      'Cell',
      `cell ${this.cell} has ${this.end - this.pos} bits left at bit ${this.pos}, ${what} needs ${n}`,
    );
  }

  /** Reads up to 32 bits at a bit position of this cell without moving the cursor. */
  private peek(pos: number, n: number): number {
    if (n === 0) return 0;
    const bytes = this.boc.bytes;
    const abs = this.base + pos;
    let byte = abs >>> 3;
    const total = (abs & 7) + n;
    if (total <= 32) {
      // Integer path: the bits fit one 32-bit word.
      const nbytes = (total + 7) >>> 3;
      let v = 0;
      for (let k = 0; k < nbytes; k++) v = (v << 8) | bytes[byte++]!;
      v = v >>> (nbytes * 8 - total);
      return n === 32 ? v >>> 0 : v & ((1 << n) - 1);
    }
    // Up to 39 bits span five bytes: exact in double arithmetic.
    let v = 0;
    for (let k = 0; k < 5; k++) v = v * 256 + bytes[byte++]!;
    v = Math.floor(v / POW2[40 - total]!);
    return v % POW2[n]!;
  }

  loadBit(): boolean {
    if (this.pos >= this.end) this.underflow(1, 'a bit');
    const abs = this.base + this.pos++;
    return ((this.boc.bytes[abs >>> 3]! >> (7 - (abs & 7))) & 1) === 1;
  }

  preloadUint(n: number): number {
    if (this.pos + n > this.end) this.underflow(n, `uint${n}`);
    return this.peek(this.pos, n);
  }

  /** Unsigned integer of at most 32 bits. */
  loadUint(n: number): number {
    if (this.pos + n > this.end) this.underflow(n, `uint${n}`);
    const v = this.peek(this.pos, n);
    this.pos += n;
    return v;
  }

  /** Signed integer of at most 32 bits. */
  loadInt(n: number): number {
    const v = this.loadUint(n);
    return n > 0 && v >= POW2[n - 1]! ? v - POW2[n]! : v;
  }

  /** Unsigned integer of any width as bigint. */
  loadUintBig(n: number): bigint {
    if (this.pos + n > this.end) this.underflow(n, `uint${n}`);
    if (n <= 32) {
      const v = this.peek(this.pos, n);
      this.pos += n;
      return BigInt(v);
    }
    if (n <= 64) {
      const hi = this.peek(this.pos, n - 32);
      const lo = this.peek(this.pos + n - 32, 32);
      this.pos += n;
      // Values below 2^53 (every lt, and nearly every amount) take one BigInt conversion.
      return hi < 2097152 ? BigInt(hi * TWO32 + lo) : (BigInt(hi) << 32n) | BigInt(lo);
    }
    let v = 0n;
    let left = n;
    while (left > 0) {
      const k = left >= 32 ? 32 : left;
      v = (v << BigInt(k)) | BigInt(this.peek(this.pos, k));
      this.pos += k;
      left -= k;
    }
    return v;
  }

  loadIntBig(n: number): bigint {
    const v = this.loadUintBig(n);
    return n > 0 && v >= 1n << BigInt(n - 1) ? v - (1n << BigInt(n)) : v;
  }

  /** `VarUInteger n`: a length in ⌈log2 n⌉ bits, then that many bytes (block.tlb `var_uint$_`). */
  loadVarUint(n: number): bigint {
    const lenBits = 32 - Math.clz32(n - 1);
    const len = this.loadUint(lenBits);
    return len === 0 ? 0n : this.loadUintBig(len * 8);
  }

  /** `Grams` / `Coins` = VarUInteger 16. */
  loadCoins(): bigint {
    return this.loadVarUint(16);
  }

  skip(n: number): void {
    if (this.pos + n > this.end) this.underflow(n, 'skip');
    this.pos += n;
  }

  /** `n` whole bytes; a view into the BOC when the cursor is byte-aligned, a copy otherwise. */
  loadBytes(n: number): Uint8Array {
    if (this.pos + n * 8 > this.end) this.underflow(n * 8, `bytes${n}`);
    const abs = this.base + this.pos;
    this.pos += n * 8;
    if ((abs & 7) === 0) return this.boc.bytes.subarray(abs >>> 3, (abs >>> 3) + n);
    // Unaligned (an address after a 2-bit tag, say): each byte straddles two bytes of the BOC. The byte after the
    // last one read is still inside the bag (a cell's data is followed by its references or the next cell) or, at
    // the very end, reads as 0 and is shifted out anyway.
    const out = new Uint8Array(n);
    const bytes = this.boc.bytes;
    const shift = abs & 7;
    let at = abs >>> 3;
    // Four bytes per step from a 40-bit window (exact in doubles), while five source bytes remain.
    let k = 0;
    for (; k + 4 <= n && at + 4 < bytes.length; k += 4, at += 4) {
      const hi = (bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!;
      const w = (hi << shift) | (bytes[at + 4]! >>> (8 - shift));
      out[k] = w >>> 24;
      out[k + 1] = (w >>> 16) & 0xff;
      out[k + 2] = (w >>> 8) & 0xff;
      out[k + 3] = w & 0xff;
    }
    let cur = bytes[at]!;
    for (; k < n; k++) {
      const nextByte = bytes[++at] ?? 0;
      out[k] = ((cur << shift) | (nextByte >>> (8 - shift))) & 0xff;
      cur = nextByte;
    }
    return out;
  }

  /** Index of the next referenced cell. */
  loadRef(): number {
    if (this.refPos >= this.refEnd) {
      throw tlbError('TLB_UNDERFLOW', 'Cell', `cell ${this.cell} has no reference #${this.refPos}`);
    }
    return this.boc.refs[this.cell * 4 + this.refPos++]!;
  }

  /** `Maybe ^X`: the referenced cell index, or -1 for `nothing$0`. */
  loadMaybeRef(): number {
    return this.loadBit() ? this.loadRef() : -1;
  }

  /** A fresh slice over the same cell at the current position (for look-ahead without moving this one). */
  clone(): Slice {
    const s = new Slice(this.boc, this.cell);
    s.pos = this.pos;
    s.end = this.end;
    s.refPos = this.refPos;
    return s;
  }

  /** Copies bits [from, from+n) of this cell into `out` starting at bit `outPos` (`out` must be zeroed there). */
  copyBits(from: number, n: number, out: Uint8Array, outPos: number): void {
    let done = 0;
    if ((outPos & 7) === 0) {
      // Whole output bytes, three at a time (an inline body, the common case, starts a new cell at bit 0).
      let o = outPos >>> 3;
      for (; done + 24 <= n; done += 24, o += 3) {
        const v = this.peek(from + done, 24);
        out[o] = v >>> 16;
        out[o + 1] = (v >>> 8) & 0xff;
        out[o + 2] = v & 0xff;
      }
      for (; done + 8 <= n; done += 8, o++) out[o] = this.peek(from + done, 8);
    }
    while (done < n) {
      const k = n - done >= 24 ? 24 : n - done;
      const v = this.peek(from + done, k);
      for (let b = 0; b < k; b++) {
        if ((v >> (k - 1 - b)) & 1) {
          const o = outPos + done + b;
          out[o >>> 3] = (out[o >>> 3] ?? 0) | (0x80 >> (o & 7));
        }
      }
      done += k;
    }
  }

  /** Throws unless every bit and reference has been read (for types that must fill their cell). */
  expectEnd(type: string): void {
    if (this.pos !== this.end || this.refPos !== this.refEnd) {
      throw tlbError('TLB_INVALID', type, `${this.end - this.pos} bits and ${this.refEnd - this.refPos} refs left over in cell ${this.cell}`);
    }
  }
}

