import { BuiltCell, type CellNode, cellHash } from './built.js';
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
      for (let i = 0; i < len; i++) out[p + i] = boc.bytes[off + i]!;
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
  private readonly byShortHash = new Map<number, number>();
  private readonly byHash = new Map<string, number>();
  private readonly byIndex = new Map<number, number>();
  private allocated: CellInfo[] = [];

  constructor(private readonly boc: Boc) {}

  /** `import_cell`: children first, each distinct cell (by hash) once; returns its import index. */
  importCell(node: CellNode): number {
    if (typeof node === 'number') {
      const seen = this.byIndex.get(node);
      if (seen !== undefined) return seen;
    }
    const h = cellHash(this.boc, node);
    // Keyed by 30 bits of the hash (a small integer: no string to build and hash per cell); the full hash decides
    // when two different cells share them, and such cells are then looked up by their whole hash.
    const short = (h[0]! | (h[1]! << 8) | (h[2]! << 16) | (h[3]! << 24)) & 0x3fffffff;
    const first = this.byShortHash.get(short);
    let key: string | null = null;
    if (first !== undefined) {
      if (sameHash(cellHash(this.boc, this.cells[first]!.node), h)) return first;
      key = Buffer.from(h.buffer, h.byteOffset, 32).toString('latin1');
      const known = this.byHash.get(key);
      if (known !== undefined) return known;
    }
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
    if (key === null) this.byShortHash.set(short, idx);
    else this.byHash.set(key, idx);
    if (typeof node === 'number') this.byIndex.set(node, idx);
    return idx;
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

function sameHash(a: Uint8Array, b: Uint8Array): boolean {
  for (let k = 0; k < 32; k++) if (a[k] !== b[k]) return false;
  return true;
}

function putUint(out: Uint8Array, p: number, v: number, bytes: number): number {
  for (let k = bytes - 1; k >= 0; k--) out[p++] = Math.floor(v / 256 ** k) % 256;
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
