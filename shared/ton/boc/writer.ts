import { BuiltCell, type CellNode, cellHash } from './built.js';
import { crc32c } from './crc32c.js';
import type { Boc } from './reader.js';

/**
 * Serializes the tree under `root` as a one-root bag of cells without index, the form TON Center stores for
 * message bodies and init states (CRC32C on: indexing-semantics §2.1) and for account code/data (CRC off).
 *
 * Cell order follows @ton/core's `topologicalSort` (root first, children in reference order, a shared cell after
 * all of its parents), and equal cells are written once, so the bytes, and therefore the base64 on the wire,
 * equal what TON Center returns.
 */
export function serializeBoc(boc: Boc, root: CellNode, opts: { crc32: boolean }): Uint8Array {
  const order = refCount(boc, root) === 0 ? [root] : topoOrder(boc, root);
  const n = order.length;
  const pos = n > SMALL ? new Map(order.map((c, i) => [c, i])) : null;
  const sizeBytes = n < 256 ? 1 : Math.max(1, Math.ceil(bitLength(n) / 8));
  let total = 0;
  for (let i = 0; i < n; i++) total += 2 + dataLen(boc, order[i]!) + refCount(boc, order[i]!) * sizeBytes;
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
  p = putUint(out, p, 0, sizeBytes);
  for (let i = 0; i < n; i++) {
    const c = order[i]!;
    if (typeof c === 'number') {
      const d2 = boc.d2[c]!;
      out[p++] = boc.d1[c]! & ~0x10;
      out[p++] = d2;
      const off = boc.dataOff[c]!;
      const len = (d2 >> 1) + (d2 & 1);
      for (let k = 0; k < len; k++) out[p + k] = boc.bytes[off + k]!;
      p += len;
      const refs = c * 4;
      for (let r = 0; r < (boc.d1[c]! & 7); r++) p = putUint(out, p, indexOf(boc, order, pos, boc.refs[refs + r]!), sizeBytes);
    } else {
      out[p++] = c.d1;
      out[p++] = c.d2;
      const data = c.paddedData();
      out.set(data, p);
      p += data.length;
      for (const r of c.refs) p = putUint(out, p, indexOf(boc, order, pos, r), sizeBytes);
    }
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

function sameHash(a: Uint8Array, b: Uint8Array): boolean {
  for (let k = 0; k < 32; k++) if (a[k] !== b[k]) return false;
  return true;
}

/** Position in `order` of the cell equal to `c` (same node, or same hash). Bodies are a handful of cells. */
function indexOf(boc: Boc, order: CellNode[], pos: Map<CellNode, number> | null, c: CellNode): number {
  const direct = pos ? (pos.get(c) ?? -1) : order.indexOf(c);
  if (direct >= 0) return direct;
  const h = cellHash(boc, c);
  for (let i = 0; i < order.length; i++) if (sameHash(cellHash(boc, order[i]!), h)) return i;
  throw new Error('serializeBoc: reference outside the ordered cells');
}

/** Above this many cells, lookups go through maps instead of linear scans. */
const SMALL = 32;

function hashKey(h: Uint8Array): string {
  return Buffer.from(h.buffer, h.byteOffset, 32).toString('latin1');
}

/**
 * Reverse post-order of a DFS that visits references last-to-first: @ton/core's topological order. A cell whose
 * hash equals one already met is the same cell and is not visited again.
 */
function topoOrder(boc: Boc, root: CellNode): CellNode[] {
  const post: CellNode[] = [];
  const seenHashes: Uint8Array[] = [cellHash(boc, root)];
  let bigSeen: Set<string> | null = null;
  const stack: Array<{ node: CellNode; next: number }> = [{ node: root, next: refCount(boc, root) - 1 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.next >= 0) {
      const child = refAt(boc, top.node, top.next--);
      const h = cellHash(boc, child);
      if (bigSeen) {
        const key = hashKey(h);
        if (bigSeen.has(key)) continue;
        bigSeen.add(key);
      } else {
        let dup = false;
        for (const s of seenHashes) {
          if (sameHash(s, h)) {
            dup = true;
            break;
          }
        }
        if (dup) continue;
        seenHashes.push(h);
        if (seenHashes.length > SMALL) bigSeen = new Set(seenHashes.map(hashKey));
      }
      stack.push({ node: child, next: refCount(boc, child) - 1 });
      continue;
    }
    post.push(top.node);
    stack.pop();
  }
  return post.reverse();
}
