import { BuiltCell, type CellNode } from './built.js';
import { crc32c } from './crc32c.js';
import type { Boc } from './reader.js';

/**
 * Serializes the tree under `root` as a one-root bag of cells without index, the form TON Center stores for
 * message bodies and init states (CRC32C on: indexing-semantics §2.1) and for account code/data (CRC off).
 *
 * TON Center writes BOCs with the node's own serializer (crypto/vm/boc.cpp, `BagOfCells::import_cells` then
 * `reorder_cells`), whose cell order differs from @ton/core's for any tree more than one level deep. The real
 * bodies in TON Center responses follow the node's order, so that order is reproduced here exactly: cells are
 * imported depth-first and deduplicated by hash, weighted, then laid out by `revisit`, and written in reverse.
 */
export function serializeBoc(boc: Boc, root: CellNode, opts: { crc32: boolean }): Uint8Array {
  let order: CellInfo[];
  let rootAt: number;
  if (refCount(boc, root) === 0) {
    // Most bodies are one cell: nothing to deduplicate or order.
    order = [{ node: root, refs: [], newRefs: [], wt: 1, newIdx: 0 }];
    rootAt = 0;
  } else {
    const bag = new Bag(boc);
    const rootIdx = bag.importCell(root);
    order = bag.reorder(rootIdx);
    rootAt = bag.cells[rootIdx]!.newIdx;
  }
  const n = order.length;
  const sizeBytes = Math.max(1, Math.ceil(bitLength(n) / 8));
  let total = 0;
  for (const c of order) total += 2 + dataLen(boc, c.node) + c.refs.length * sizeBytes;
  const offBytes = Math.max(1, Math.ceil(bitLength(total) / 8));
  const headerLen = 4 + 1 + 1 + 3 * sizeBytes + offBytes + sizeBytes;
  const out = new Uint8Array(headerLen + total + (opts.crc32 ? 4 : 0));
  out[0] = 0xb5;
  out[1] = 0xee;
  out[2] = 0x9c;
  out[3] = 0x72;
  out[4] = (opts.crc32 ? 0x40 : 0) | sizeBytes;
  out[5] = offBytes;
  let p = 6;
  p = putUint(out, p, n, sizeBytes);
  p = putUint(out, p, 1, sizeBytes);
  p = putUint(out, p, 0, sizeBytes);
  p = putUint(out, p, total, offBytes);
  // The node writes cells in reverse allocation order, so the root (allocated last) comes first.
  p = putUint(out, p, n - 1 - rootAt, sizeBytes);
  for (let k = n - 1; k >= 0; k--) {
    const info = order[k]!;
    const c = info.node;
    if (typeof c === 'number') {
      const d2 = boc.d2[c]!;
      out[p++] = boc.d1[c]! & ~0x10;
      out[p++] = d2;
      const off = boc.dataOff[c]!;
      const len = (d2 >> 1) + (d2 & 1);
      const bytes = boc.bytes;
      if (len > 16) out.set(bytes.subarray(off, off + len), p);
      else for (let i = 0; i < len; i++) out[p + i] = bytes[off + i]!;
      p += len;
    } else {
      out[p++] = c.d1;
      out[p++] = c.d2;
      const data = c.paddedData();
      out.set(data, p);
      p += data.length;
    }
    for (const r of info.newRefs) p = putUint(out, p, n - 1 - r, sizeBytes);
  }
  if (opts.crc32) {
    const crc = crc32c(out, 0, p);
    out[p++] = crc & 0xff;
    out[p++] = (crc >>> 8) & 0xff;
    out[p++] = (crc >>> 16) & 0xff;
    out[p++] = (crc >>> 24) & 0xff;
  }
  if (p !== out.length) throw new Error(`serializeBoc: wrote ${p} of ${out.length} bytes`);
  return out;
}

/** boc.cpp `max_cell_whs`: the weight budget that decides which subtrees are laid out together. */
const MAX_CELL_WHS = 64;

interface CellInfo {
  node: CellNode;
  /** Import indices of the children. */
  refs: number[];
  /** Allocation indices of the children, filled by `revisit`. */
  newRefs: number[];
  wt: number;
  /** -1 new, -2 previsited, -3 visited, ≥ 0 allocated. */
  newIdx: number;
}

/** The node's BagOfCells, reduced to what ordering one root needs. */
class Bag {
  readonly cells: CellInfo[] = [];
  /**
   * Cells by hash: an open-addressing table of import index + 1 (0 = empty), keyed by the hash's first 32 bits
   * (already uniformly spread). A body of ~60 cells did two Map insertions and lookups per cell before, which was
   * most of its serialization time.
   */
  private table = new Int32Array(64);
  private allocated: CellInfo[] = [];

  constructor(private readonly boc: Boc) {}

  /** `import_cell`: children first, each distinct cell (by hash) once; returns its import index. */
  importCell(node: CellNode): number {
    const word = hashWord(this.boc, node);
    const known = this.find(node, word);
    if (known >= 0) return known;
    const refs: number[] = [];
    let sumChildWt = 1;
    const n = refCount(this.boc, node);
    for (let j = 0; j < n; j++) {
      const idx = this.importCell(refAt(this.boc, node, j));
      refs.push(idx);
      sumChildWt += this.cells[idx]!.wt;
    }
    const idx = this.cells.length;
    this.cells.push({ node, refs, newRefs: new Array<number>(n), wt: Math.min(0xff, sumChildWt), newIdx: -1 });
    if (2 * this.cells.length > this.table.length) this.grow();
    else this.insert(idx, word);
    return idx;
  }

  private find(node: CellNode, word: number): number {
    const { table } = this;
    const mask = table.length - 1;
    for (let slot = word & mask; ; slot = (slot + 1) & mask) {
      const e = table[slot]!;
      if (e === 0) return -1;
      if (sameNodeHash(this.boc, this.cells[e - 1]!.node, node)) return e - 1;
    }
  }

  private insert(idx: number, word: number): void {
    const { table } = this;
    const mask = table.length - 1;
    let slot = word & mask;
    while (table[slot] !== 0) slot = (slot + 1) & mask;
    table[slot] = idx + 1;
  }

  private grow(): void {
    this.table = new Int32Array(this.table.length * 2);
    for (let i = 0; i < this.cells.length; i++) this.insert(i, hashWord(this.boc, this.cells[i]!.node));
  }

  /** `reorder_cells`: returns the cells in allocation order. */
  reorder(root: number): CellInfo[] {
    const cells = this.cells;
    for (let i = cells.length - 1; i >= 0; i--) {
      const d = cells[i]!;
      const s = d.refs.length;
      let c = s;
      let sum = MAX_CELL_WHS - 1;
      let mask = 0;
      for (let j = 0; j < s; j++) {
        const dj = cells[d.refs[j]!]!;
        const limit = Math.floor((MAX_CELL_WHS - 1 + j) / s);
        if (dj.wt <= limit) {
          sum -= dj.wt;
          c--;
          mask |= 1 << j;
        }
      }
      if (c) {
        for (let j = 0; j < s; j++) {
          if (mask & (1 << j)) continue;
          const dj = cells[d.refs[j]!]!;
          const limit = Math.floor(sum++ / c);
          if (dj.wt > limit) dj.wt = limit;
        }
      }
    }
    for (const d of cells) {
      let sum = 1;
      for (const r of d.refs) sum += cells[r]!.wt;
      d.wt = sum <= d.wt ? sum : 0;
    }
    this.allocated = [];
    this.revisit(root, 0);
    this.revisit(root, 1);
    this.revisit(root, 2);
    return this.allocated;
  }

  /** `BagOfCells::revisit`: force 0 previsits, 1 visits (children before parent), 2 allocates. */
  private revisit(idx: number, force: number): number {
    const d = this.cells[idx]!;
    if (d.newIdx >= 0) return d.newIdx;
    const n = d.refs.length;
    if (force === 0) {
      if (d.newIdx !== -1) return d.newIdx;
      for (let j = n - 1; j >= 0; j--) {
        const child = d.refs[j]!;
        this.revisit(child, this.cells[child]!.wt === 0 ? 1 : 0);
      }
      return (d.newIdx = -2);
    }
    if (force > 1) {
      d.newIdx = this.allocated.length;
      this.allocated.push(d);
      return d.newIdx;
    }
    if (d.newIdx === -3) return -3;
    // A cell of weight 0 is "special" in boc.cpp: it is previsited before its children are visited.
    if (d.wt === 0) this.revisit(idx, 0);
    for (let j = n - 1; j >= 0; j--) this.revisit(d.refs[j]!, 1);
    for (let j = n - 1; j >= 0; j--) d.newRefs[j] = this.revisit(d.refs[j]!, 2);
    return (d.newIdx = -3);
  }
}

function hashWord(boc: Boc, node: CellNode): number {
  if (typeof node === 'number') return boc.hashWord(node);
  const h = node.hash();
  return h[0]! | (h[1]! << 8) | (h[2]! << 16) | (h[3]! << 24);
}

function sameNodeHash(boc: Boc, a: CellNode, b: CellNode): boolean {
  if (typeof a === 'number') {
    if (typeof b === 'number') return a === b || boc.sameHash(a, b);
    return boc.hashEquals(a, b.hash());
  }
  if (typeof b === 'number') return boc.hashEquals(b, a.hash());
  const x = a.hash();
  const y = b.hash();
  for (let k = 0; k < 32; k++) if (x[k] !== y[k]) return false;
  return true;
}

/** Big-endian in `bytes` bytes (at most 4: a bag's cell count and size are below 2^32). */
function putUint(out: Uint8Array, p: number, v: number, bytes: number): number {
  for (let k = bytes - 1; k >= 0; k--) out[p++] = (v >>> (8 * k)) & 0xff;
  return p;
}

function refCount(boc: Boc, c: CellNode): number {
  return typeof c === 'number' ? boc.d1[c]! & 7 : c.refs.length;
}

function refAt(boc: Boc, c: CellNode, r: number): CellNode {
  return typeof c === 'number' ? boc.refs[c * 4 + r]! : c.refs[r]!;
}

function dataLen(boc: Boc, c: CellNode): number {
  if (c instanceof BuiltCell) return (c.bits + 7) >> 3;
  const d2 = boc.d2[c]!;
  return (d2 >> 1) + (d2 & 1);
}

function bitLength(v: number): number {
  return v === 0 ? 0 : Math.floor(Math.log2(v)) + 1;
}
