import { hash as nodeHash } from 'node:crypto';
import type { Boc } from './reader.js';
import type { Slice } from './slice.js';

/**
 * A cell assembled while decoding, whose references point into a {@link Boc} (or to other built cells).
 * TON Center builds such cells for an inline message body (indexing-semantics §2.1: "a new cell is built
 * from the remaining bits and refs") and for the TEP-467 normalized external message (§2.2).
 */
export class BuiltCell {
  private cachedHash: Uint8Array | null = null;
  private cachedDepth = 0;

  constructor(
    readonly boc: Boc,
    /** Data bytes without completion tag; bits past `bits` are zero. */
    readonly data: Uint8Array,
    readonly bits: number,
    readonly refs: CellNode[],
  ) {}

  get d1(): number {
    let mask = 0;
    for (const r of this.refs) mask |= nodeLevelMask(this.boc, r);
    return this.refs.length + (mask << 5);
  }

  get d2(): number {
    return (this.bits >> 3) + ((this.bits + 7) >> 3);
  }

  /** Data bytes as serialized: with the completion tag when the bit length is not a multiple of eight. */
  paddedData(): Uint8Array {
    const len = (this.bits + 7) >> 3;
    const out = this.data.slice(0, len);
    if (this.bits & 7) out[len - 1] = (out[len - 1] ?? 0) | (0x80 >> (this.bits & 7));
    return out;
  }

  hash(): Uint8Array {
    if (this.cachedHash === null) this.compute();
    return this.cachedHash!;
  }

  depth(): number {
    if (this.cachedHash === null) this.compute();
    return this.cachedDepth;
  }

  /** Ordinary-cell hash at the level-0 view; references to higher-level cells use their level-0 hash (§3.1.5). */
  private compute(): void {
    const data = this.paddedData();
    const n = this.refs.length;
    const buf = new Uint8Array(2 + data.length + n * 34);
    buf[0] = n;
    buf[1] = this.d2;
    buf.set(data, 2);
    let q = 2 + data.length;
    let depth = 0;
    for (const r of this.refs) {
      const d = nodeDepth(this.boc, r);
      if (d + 1 > depth) depth = d + 1;
      buf[q++] = d >> 8;
      buf[q++] = d & 0xff;
    }
    for (const r of this.refs) {
      buf.set(nodeHash0(this.boc, r), q);
      q += 32;
    }
    this.cachedHash = nodeHash('sha256', buf, 'buffer');
    this.cachedDepth = depth;
  }
}

/** A cell of a BOC (its index) or a built one. */
export type CellNode = number | BuiltCell;

export function nodeHash0(boc: Boc, node: CellNode): Uint8Array {
  return typeof node === 'number' ? boc.hashAt(node, 0) : node.hash();
}

export function nodeDepth(boc: Boc, node: CellNode): number {
  return typeof node === 'number' ? boc.depthAt(node, 0) : node.depth();
}

function nodeLevelMask(boc: Boc, node: CellNode): number {
  return typeof node === 'number' ? boc.levelMask(node) : node.d1 >> 5;
}

/** Representation hash of a node. */
export function cellHash(boc: Boc, node: CellNode): Uint8Array {
  return typeof node === 'number' ? boc.hash(node) : node.hash();
}

/**
 * The rest of a slice as a cell of its own: its remaining bits and references. When nothing was read yet the
 * cell itself is returned, so its hash is the stored one.
 */
export function sliceToCell(s: Slice): CellNode {
  if (s.pos === 0 && s.refPos === 0) return s.cell;
  const bits = s.end - s.pos;
  const data = new Uint8Array((bits + 7) >> 3);
  s.copyBits(s.pos, bits, data, 0);
  const refs: CellNode[] = [];
  for (let r = s.refPos; r < s.refEnd; r++) refs.push(s.boc.ref(s.cell, r));
  return new BuiltCell(s.boc, data, bits, refs);
}

/** A small bit writer for cells that decoding has to build. */
export class BitWriter {
  private buf = new Uint8Array(128);
  bits = 0;

  writeBit(b: boolean | number): void {
    if (b) this.buf[this.bits >> 3] = (this.buf[this.bits >> 3] ?? 0) | (0x80 >> (this.bits & 7));
    this.bits++;
  }

  writeUint(v: number, n: number): void {
    for (let i = n - 1; i >= 0; i--) this.writeBit(Math.floor(v / 2 ** i) % 2);
  }

  /** Copies `n` bits of `s`'s cell starting at bit `from`. */
  writeSliceBits(s: Slice, from: number, n: number): void {
    s.copyBits(from, n, this.buf, this.bits);
    this.bits += n;
  }

  toCell(boc: Boc, refs: CellNode[]): BuiltCell {
    return new BuiltCell(boc, this.buf.slice(0, (this.bits + 7) >> 3), this.bits, refs);
  }
}

/**
 * The cell made of bits [fromBit, toBit) and references [fromRef, toRef) of `s`'s cell: what TON Center hashes
 * for an inline `StateInit` (indexing-semantics §2.1).
 */
export function subsliceToCell(s: Slice, fromBit: number, toBit: number, fromRef: number, toRef: number): CellNode {
  const bits = toBit - fromBit;
  const data = new Uint8Array((bits + 7) >> 3);
  s.copyBits(fromBit, bits, data, 0);
  const refs: CellNode[] = [];
  for (let r = fromRef; r < toRef; r++) refs.push(s.boc.ref(s.cell, r));
  return new BuiltCell(s.boc, data, bits, refs);
}
