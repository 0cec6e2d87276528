import { popcount } from './levels.js';
import type { Boc } from './reader.js';
import { MAX_BLOCKS, Sha256Lanes } from './sha256-multi.js';
import { paddedLength, sha256Into } from './sha256.js';
import type { Slice } from './slice.js';

/**
 * A cell assembled while decoding, whose references point into a {@link Boc} (or to other built cells).
 * TON Center builds such cells for an inline message body (indexing-semantics §2.1: "a new cell is built
 * from the remaining bits and refs") and for the TEP-467 normalized external message (§2.2).
 */
export class BuiltCell {
  /** Hashes and depths per significant level, lowest first; the last is the representation hash. */
  private levelHashes: Uint8Array[] | null = null;
  private levelDepths: number[] = [];

  constructor(
    readonly boc: Boc,
    /** Data bytes without completion tag; bits past `bits` are zero. */
    readonly data: Uint8Array,
    readonly bits: number,
    readonly refs: CellNode[],
  ) {}

  /** Level mask: the union of the children's (an ordinary cell). */
  get levelMask(): number {
    let mask = 0;
    for (const r of this.refs) mask |= nodeLevelMask(this.boc, r);
    return mask;
  }

  get d1(): number {
    return this.refs.length + (this.levelMask << 5);
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
    const h = this.compute();
    return h[h.length - 1]!;
  }

  depth(): number {
    this.compute();
    return this.levelDepths[this.levelDepths.length - 1]!;
  }

  /** Hash as seen at `level` (tvm.pdf §3.1.6): the stored hash for the highest significant level not above it. */
  hashAt(level: number): Uint8Array {
    const h = this.compute();
    return h[Math.min(popcount(this.levelMask & ((1 << level) - 1)), h.length - 1)]!;
  }

  depthAt(level: number): number {
    this.compute();
    return this.levelDepths[Math.min(popcount(this.levelMask & ((1 << level) - 1)), this.levelDepths.length - 1)]!;
  }

  /** Whether {@link hashBuiltCells} can hash this cell: level 0, every child a hashed cell of the bag. */
  batchable(): boolean {
    if (this.levelHashes) return false;
    for (const r of this.refs) if (typeof r !== 'number' || this.boc.levelMask(r) !== 0) return false;
    return true;
  }

  /** Sets the hash and depth {@link hashBuiltCells} computed for a {@link batchable} cell. */
  setHash(hash: Uint8Array, depth: number): void {
    this.levelHashes = [hash];
    this.levelDepths = [depth];
  }

  /** Ordinary-cell hashes, one per significant level, as for any cell of a BOC. */
  private compute(): Uint8Array[] {
    if (this.levelHashes) return this.levelHashes;
    const mask = this.levelMask;
    const hashes: Uint8Array[] = [];
    for (let level = 0; level <= 3; level++) {
      if (level !== 0 && ((mask >> (level - 1)) & 1) === 0) continue;
      const prev = hashes.length === 0 ? null : hashes[hashes.length - 1]!;
      const len = this.inputLength(prev === null);
      const buf = new Uint8Array(paddedLength(len));
      this.levelDepths.push(this.writeInput(buf, 0, level, prev));
      const digest = new Uint8Array(32);
      sha256Into(buf, len, digest, 0, schedule);
      hashes.push(digest);
    }
    this.levelHashes = hashes;
    return hashes;
  }

  /** Length of a hash input: the data for the first hash, the previous hash for the others (tvm.pdf §3.1.5). */
  inputLength(first: boolean): number {
    return 2 + (first ? (this.bits + 7) >> 3 : 32) + this.refs.length * 34;
  }

  /**
   * Writes the hash input at `level` to `out` at `at`: the descriptor as seen at that level, the data (or `prev`,
   * the hash below), the children's depths and hashes at that level. Returns the cell's depth at that level.
   */
  writeInput(out: Uint8Array, at: number, level: number, prev: Uint8Array | null): number {
    out[at] = this.refs.length + ((this.levelMask & ((1 << level) - 1)) << 5);
    out[at + 1] = this.d2;
    const head = prev ?? this.paddedData();
    out.set(head, at + 2);
    let q = at + 2 + head.length;
    let depth = 0;
    for (const r of this.refs) {
      const d = nodeDepthAt(this.boc, r, level);
      if (d + 1 > depth) depth = d + 1;
      out[q++] = d >> 8;
      out[q++] = d & 0xff;
    }
    for (const r of this.refs) {
      out.set(nodeHashAt(this.boc, r, level), q);
      q += 32;
    }
    return depth;
  }
}

/**
 * Message schedule scratch for {@link sha256Into}, shared by every built cell: hashing is synchronous, so no two
 * uses overlap. (node:crypto costs about a microsecond per call on these short inputs, several times more.)
 */
const schedule = new Int32Array(64);

/**
 * Hashes the level-0 built cells among `nodes` whose children are cells of the bag, in one SIMD batch
 * (sha256-multi.ts): a block builds one cell per inline message body, and hashing each on its own with the scalar
 * sha256.ts costs about three times as much. Children are hashed first (by the bag, in one batch of their own if
 * need be). Cells it cannot take, and every cell when SIMD is unavailable, keep hashing on first use.
 */
export function hashBuiltCells(nodes: Iterable<CellNode>): void {
  const unique = new Set<BuiltCell>();
  for (const n of nodes) if (typeof n !== 'number' && n.batchable()) unique.add(n);
  if (unique.size === 0) return;
  const cells = [...unique];
  const lanes = Sha256Lanes.acquire();
  if (lanes === null) return;
  try {
    const depths = new Int32Array(cells.length);
    lanes.done = (tag, at) => cells[tag]!.setHash(lanes.mem.slice(at, at + 32), depths[tag]!);
    for (let i = 0; i < cells.length; i++) {
      const c = cells[i]!;
      const len = c.inputLength(true);
      if (len > 64 * MAX_BLOCKS - 9) continue;
      depths[i] = c.writeInput(lanes.mem, lanes.push(len, i), 0, null);
    }
    lanes.flush();
  } finally {
    lanes.release();
  }
}

function nodeHashAt(boc: Boc, node: CellNode, level: number): Uint8Array {
  return typeof node === 'number' ? boc.hashAt(node, level) : node.hashAt(level);
}

function nodeDepthAt(boc: Boc, node: CellNode, level: number): number {
  return typeof node === 'number' ? boc.depthAt(node, level) : node.depthAt(level);
}

/** A cell of a BOC (its index) or a built one. */
export type CellNode = number | BuiltCell;

function nodeLevelMask(boc: Boc, node: CellNode): number {
  return typeof node === 'number' ? boc.levelMask(node) : node.levelMask;
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
