import { BuiltCell, type CellNode, cellHash } from './built.js';
import { crc32c } from './crc32c.js';
import type { Boc } from './reader.js';

/**
 * Serializes the tree under `root` as a one-root bag of cells without index, the form TON Center stores for
 * message bodies and init states (CRC32C on: indexing-semantics §2.1) and for account code/data (CRC off).
 *
 * Cell order follows @ton/core's `topologicalSort` (root first, children in reference order, a shared cell after
 * all of its parents), so the bytes, and therefore the base64 on the wire, equal what TON Center returns.
 */
export function serializeBoc(boc: Boc, root: CellNode, opts: { crc32: boolean }): Uint8Array {
  const single = refsOf(boc, root).length === 0;
  const order = single ? [root] : topoOrder(boc, root);
  const n = order.length;
  const pos = new Map<string, number>();
  if (!single) for (let i = 0; i < n; i++) pos.set(keyOf(boc, order[i]!), i);
  const sizeBytes = Math.max(1, Math.ceil(bitLength(n) / 8));

  let total = 0;
  for (const c of order) total += 2 + dataLen(boc, c) + refsOf(boc, c).length * sizeBytes;
  const offBytes = Math.max(1, Math.ceil(bitLength(total) / 8));
  const headerLen = 4 + 1 + 1 + 3 * sizeBytes + offBytes + sizeBytes;
  const out = new Uint8Array(headerLen + total + (opts.crc32 ? 4 : 0));
  let p = 0;
  const put = (v: number, bytes: number): void => {
    for (let k = bytes - 1; k >= 0; k--) out[p++] = Math.floor(v / 256 ** k) % 256;
  };
  put(0xb5ee9c72, 4);
  out[p++] = (opts.crc32 ? 0x40 : 0) | sizeBytes;
  out[p++] = offBytes;
  put(n, sizeBytes);
  put(1, sizeBytes);
  put(0, sizeBytes);
  put(total, offBytes);
  put(0, sizeBytes);
  for (const c of order) {
    if (typeof c === 'number') {
      const d1 = boc.d1[c]! & ~0x10;
      const d2 = boc.d2[c]!;
      out[p++] = d1;
      out[p++] = d2;
      const off = boc.dataOff[c]!;
      const len = (d2 >> 1) + (d2 & 1);
      out.set(boc.bytes.subarray(off, off + len), p);
      p += len;
    } else {
      out[p++] = c.d1;
      out[p++] = c.d2;
      const data = c.paddedData();
      out.set(data, p);
      p += data.length;
    }
    for (const r of refsOf(boc, c)) put(pos.get(keyOf(boc, r))!, sizeBytes);
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

function refsOf(boc: Boc, c: CellNode): CellNode[] {
  if (c instanceof BuiltCell) return c.refs;
  const k = boc.d1[c]! & 7;
  const refs: CellNode[] = [];
  for (let r = 0; r < k; r++) refs.push(boc.refs[c * 4 + r]!);
  return refs;
}

function dataLen(boc: Boc, c: CellNode): number {
  if (c instanceof BuiltCell) return (c.bits + 7) >> 3;
  const d2 = boc.d2[c]!;
  return (d2 >> 1) + (d2 & 1);
}

/** Cells are identified by hash, so equal subtrees are written once, as every TON serializer does. */
function keyOf(boc: Boc, c: CellNode): string {
  const h = cellHash(boc, c);
  return Buffer.from(h.buffer, h.byteOffset, 32).toString('latin1');
}

function bitLength(v: number): number {
  return v === 0 ? 0 : Math.floor(Math.log2(v)) + 1;
}

/** Reverse post-order of a DFS that visits references last-to-first: @ton/core's topological order. */
function topoOrder(boc: Boc, root: CellNode): CellNode[] {
  const post: CellNode[] = [];
  const done = new Set<string>();
  // Iterative DFS: each frame is a node and the index of the next reference to visit (counting down).
  const stack: Array<{ node: CellNode; refs: CellNode[]; next: number }> = [];
  const push = (node: CellNode): void => {
    const refs = refsOf(boc, node);
    stack.push({ node, refs, next: refs.length - 1 });
  };
  push(root);
  done.add(keyOf(boc, root));
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.next >= 0) {
      const child = top.refs[top.next--]!;
      const key = keyOf(boc, child);
      if (!done.has(key)) {
        done.add(key);
        push(child);
      }
      continue;
    }
    post.push(top.node);
    stack.pop();
  }
  return post.reverse();
}
