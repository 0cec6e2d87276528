import { Boc } from '../boc/reader.js';
import { Slice } from '../boc/slice.js';
import { BuiltCell, type CellNode, cellHash, sliceToCell } from '../boc/built.js';
import { crc32c } from '../boc/crc32c.js';
import { loadMsgAddress } from '../tlb/MsgAddress.js';
import { rawAddress, b64 } from '../records/format.js';

/**
 * Helpers shared by the message-body loaders: a body arrives as a base64 BOC (how TON Center stores message
 * contents), loaders read it with the project's cell reader, and payload cells are written back as base64 BOCs in
 * the layout TON Center's classifier uses (pytoniq: pre-order depth-first, a repeated cell after its last parent).
 */

/** A body BOC's root slice. Throws a DecodeError on a malformed BOC. */
export function bodySlice(bocBase64: string): Slice {
  const boc = Boc.parse(Buffer.from(bocBase64, 'base64'));
  return new Slice(boc, boc.root);
}

/**
 * `MsgAddress` as TON Center's classifier writes it in an action: raw upper-case for addr_std, null otherwise.
 * Unlike a message's own addresses (indexing-semantics §3.1), an anycast prefix is skipped, not applied: the
 * classifier reads body addresses with pytoniq, which ignores anycast.
 */
export function loadAddr(s: Slice): string | null {
  const tag = s.preloadUint(2);
  if (tag === 2) {
    s.skip(2);
    if (s.loadBit()) s.skip(s.loadUint(5));
    const wc = s.loadInt(8);
    return rawAddress(wc, s.loadBytes(32));
  }
  const a = loadMsgAddress(s);
  return a.type === 'std' ? rawAddress(a.workchain, a.hash) : null;
}

/** A slice over a referenced cell. */
export function refSlice(s: Slice, cell: number): Slice {
  return new Slice(s.boc, cell);
}

/** `Maybe ^Cell` as a slice, or null. */
export function loadMaybeRefSlice(s: Slice): Slice | null {
  const c = s.loadMaybeRef();
  return c < 0 ? null : new Slice(s.boc, c);
}

/** `Either Cell ^Cell` (forward payloads): the payload slice, or null when absent/empty. */
export function loadEitherSlice(s: Slice): Slice | null {
  if (s.remainingBits === 0) return null;
  if (s.loadBit()) return new Slice(s.boc, s.loadRef());
  return s.clone();
}

/**
 * Bytes of a snake-format string (the data of this cell, then of its first reference, and so on). `strict` reads
 * them the way TON Center's classifier does (pytoniq `load_snake_bytes`): every cell of the chain must hold whole
 * bytes and at most one reference, else the text is rejected (throws) rather than cut.
 */
export function loadSnakeBytes(s: Slice, opts: { strict?: boolean } = {}): Uint8Array {
  const parts: Uint8Array[] = [];
  let cur: Slice | null = s;
  let total = 0;
  for (let guard = 0; cur !== null; guard++) {
    if (guard >= 1024) {
      if (opts.strict) throw new Error('snake string too long');
      break;
    }
    if (opts.strict && cur.remainingBits % 8 !== 0) throw new Error(`snake cell of ${cur.remainingBits} bits`);
    if (opts.strict && cur.remainingRefs > 1) throw new Error(`snake cell with ${cur.remainingRefs} references`);
    const bytes = cur.loadBytes(cur.remainingBits >> 3).slice();
    parts.push(bytes);
    total += bytes.length;
    cur = cur.remainingRefs > 0 ? new Slice(cur.boc, cur.loadRef()) : null;
  }
  const out = new Uint8Array(total);
  let p = 0;
  for (const b of parts) {
    out.set(b, p);
    p += b.length;
  }
  return out;
}

/** {@link loadSnakeBytes}, strict. */
export const loadStrictSnakeBytes = (s: Slice): Uint8Array => loadSnakeBytes(s, { strict: true });

/** Text as TON Center stores a comment: invalid UTF-8 bytes as `\xNN`, NUL characters removed. */
export function decodeComment(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i]!;
    let len = 0;
    let cp = 0;
    if (b < 0x80) {
      len = 1;
      cp = b;
    } else if (b >= 0xc2 && b <= 0xdf) {
      len = 2;
      cp = b & 0x1f;
    } else if (b >= 0xe0 && b <= 0xef) {
      len = 3;
      cp = b & 0x0f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      len = 4;
      cp = b & 0x07;
    }
    let ok = len > 0 && i + len <= n;
    for (let k = 1; ok && k < len; k++) {
      const c = bytes[i + k]!;
      if ((c & 0xc0) !== 0x80) ok = false;
      else cp = (cp << 6) | (c & 0x3f);
    }
    if (ok && len === 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ok = false;
    if (ok && len === 4 && (cp < 0x10000 || cp > 0x10ffff)) ok = false;
    if (!ok) {
      out += `\\x${b.toString(16).padStart(2, '0')}`;
      i++;
      continue;
    }
    if (cp !== 0) out += String.fromCodePoint(cp);
    i += len;
  }
  return out;
}

/** A comment body after its 32-bit tag: text when it is whole bytes with at most one reference, else null. */
export function loadCommentText(s: Slice): Uint8Array | null {
  if (s.remainingBits >= 8 && s.remainingBits % 8 === 0 && s.remainingRefs <= 1) {
    try {
      return loadSnakeBytes(s);
    } catch {
      return null;
    }
  }
  return null;
}

function nodeRefs(boc: Boc, node: CellNode): CellNode[] {
  if (typeof node !== 'number') return node.refs;
  const n = boc.refCount(node);
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(boc.ref(node, i));
  return out;
}

function nodeData(boc: Boc, node: CellNode): { d1: number; d2: number; data: Uint8Array } {
  if (typeof node !== 'number') return { d1: node.d1, d2: node.d2, data: node.paddedData() };
  const d1 = boc.d1[node]!;
  const d2 = boc.d2[node]!;
  const off = boc.dataOff[node]!;
  return { d1, d2, data: boc.bytes.subarray(off, off + ((d2 + 1) >> 1)) };
}

/**
 * Serializes a cell tree as a one-root BOC without index, cells in pytoniq's order (pre-order depth-first, a cell
 * met again moved after its latest parent), as TON Center's classifier writes payload BOCs.
 */
export function cellToBoc(boc: Boc, root: CellNode, crc: boolean): Uint8Array {
  const order: string[] = [];
  const byKey = new Map<string, CellNode>();
  const visit = (node: CellNode, depth: number): void => {
    if (depth > 1024) throw new Error('cell tree too deep');
    const key = b64(cellHash(boc, node));
    const at = order.indexOf(key);
    if (at >= 0) order.splice(at, 1);
    order.push(key);
    byKey.set(key, node);
    for (const r of nodeRefs(boc, node)) visit(r, depth + 1);
  };
  visit(root, 0);
  const index = new Map<string, number>();
  order.forEach((k, i) => index.set(k, i));
  const n = order.length;
  const sizeBytes = Math.max(1, Math.ceil(Math.log2(n + 1) / 8));
  const cells = order.map((k) => {
    const node = byKey.get(k)!;
    return { ...nodeData(boc, node), refs: nodeRefs(boc, node).map((r) => index.get(b64(cellHash(boc, r)))!) };
  });
  let total = 0;
  for (const c of cells) total += 2 + c.data.length + c.refs.length * sizeBytes;
  const offBytes = Math.max(1, Math.ceil(Math.log2(total + 1) / 8));
  const out = new Uint8Array(6 + 3 * sizeBytes + offBytes + sizeBytes + total + (crc ? 4 : 0));
  out.set([0xb5, 0xee, 0x9c, 0x72, (crc ? 0x40 : 0) | sizeBytes, offBytes]);
  let p = 6;
  const put = (v: number, bytes: number): void => {
    for (let i = bytes - 1; i >= 0; i--) out[p++] = Math.floor(v / 256 ** i) % 256;
  };
  put(n, sizeBytes);
  put(1, sizeBytes);
  put(0, sizeBytes);
  put(total, offBytes);
  put(0, sizeBytes);
  for (const c of cells) {
    out[p++] = c.d1;
    out[p++] = c.d2;
    out.set(c.data, p);
    p += c.data.length;
    for (const r of c.refs) put(r, sizeBytes);
  }
  if (crc) {
    const v = crc32c(out, 0, p);
    out[p++] = v & 0xff;
    out[p++] = (v >>> 8) & 0xff;
    out[p++] = (v >>> 16) & 0xff;
    out[p++] = (v >>> 24) & 0xff;
  }
  return out;
}

/** {@link cellToBoc} in standard base64. */
export function cellToBocBase64(boc: Boc, root: CellNode, crc: boolean): string {
  return Buffer.from(cellToBoc(boc, root, crc)).toString('base64');
}

/** The rest of a slice as a base64 BOC (with CRC32C, as TON Center writes jetton/NFT payloads). */
export function sliceToBocBase64(s: Slice, crc = true): string {
  return cellToBocBase64(s.boc, sliceToCell(s), crc);
}

export { BuiltCell };
