import { hash as nodeHash } from 'node:crypto';
import { Boc } from '../../ton/boc/reader.js';
import { crc32c } from '../../ton/boc/crc32c.js';
import type { TlbBuilder } from '../../ton/tlb/builder.js';

/**
 * The devnet's cells: immutable, hashed lazily with the native SHA-256, and able to carry levels (pruned branches
 * and Merkle updates, tvm.pdf §3.1). The chain builds tens of cells per transaction (state dictionaries, the
 * Merkle update, the block's descriptors); @ton/core's `Cell` hashes each one eagerly in JavaScript, which alone
 * would cost more than the TVM run, so sealing uses these and @ton/core only where a library needs its type.
 */
export class DCell {
  /** Level mask (tvm.pdf §3.1.3): children's union, shifted down for Merkle cells, stored for pruned branches. */
  readonly levelMask: number;
  private hashes: Uint8Array[] | null = null;
  private depths: number[] = [];
  private keyCache: string | null = null;

  constructor(
    /** Data bytes as serialized: ⌈bits/8⌉ bytes, with the completion tag when `bits` is not a multiple of 8. */
    readonly data: Uint8Array,
    readonly bits: number,
    readonly refs: readonly DCell[],
    /** 0 for an ordinary cell, else the exotic type (the first data byte): 1 pruned, 2 library, 3/4 Merkle. */
    readonly type: number,
  ) {
    if (refs.length > 4 || bits > 1023) throw new RangeError(`cell overflow: ${bits} bits, ${refs.length} refs`);
    let mask = 0;
    for (const r of refs) mask |= r.levelMask;
    if (type === 1) mask = data[1]!;
    else if (type === 3 || type === 4) mask >>= 1;
    else if (type === 2) mask = 0;
    this.levelMask = mask;
  }

  get isExotic(): boolean {
    return this.type !== 0;
  }

  /** Hash at `level` (default: the representation hash). */
  hash(level = 3): Uint8Array {
    const h = this.compute();
    return h[Math.min(popcount(this.levelMask & ((1 << level) - 1)), h.length - 1)]!;
  }

  depth(level = 3): number {
    this.compute();
    return this.depths[Math.min(popcount(this.levelMask & ((1 << level) - 1)), this.depths.length - 1)]!;
  }

  /** Representation hash as a 32-character binary string: the identity of a cell for maps and sets. */
  get key(): string {
    return (this.keyCache ??= Buffer.from(this.hash()).toString('latin1'));
  }

  /** Representation hash as a 64-character hex string. */
  hashHex(): string {
    return Buffer.from(this.hash()).toString('hex');
  }

  /** Hashes and depths per significant level (crypto/vm/cells/DataCell.cpp `compute_hashes`). */
  private compute(): Uint8Array[] {
    if (this.hashes) return this.hashes;
    const mask = this.levelMask;
    const n = this.refs.length;
    const count = popcount(mask) + 1;
    const hashes: Uint8Array[] = [];
    const depths: number[] = [];
    if (this.type === 1) {
      // A pruned branch stores the hashes and depths of its lower levels; only its own is computed.
      for (let i = 0; i < count - 1; i++) {
        hashes.push(this.data.subarray(2 + i * 32, 2 + i * 32 + 32));
        const d = 2 + (count - 1) * 32 + i * 2;
        depths.push((this.data[d]! << 8) | this.data[d + 1]!);
      }
    }
    const merkle = this.type === 3 || this.type === 4;
    const d2 = (this.bits >> 3) + ((this.bits + 7) >> 3);
    for (let level = 0, hi = 0; level <= 3; level++) {
      if (level !== 0 && ((mask >> (level - 1)) & 1) === 0) continue;
      if (hi++ < hashes.length) continue;
      const first = hashes.length === 0 || this.type === 1;
      const body = first ? this.data : hashes[hashes.length - 1]!;
      const buf = new Uint8Array(2 + body.length + n * 34);
      buf[0] = n + (this.type !== 0 ? 8 : 0) + ((mask & ((1 << level) - 1)) << 5);
      buf[1] = d2;
      buf.set(body, 2);
      let q = 2 + body.length;
      const childLevel = merkle ? level + 1 : level;
      let depth = 0;
      for (const r of this.refs) {
        const d = r.depth(childLevel);
        if (d + 1 > depth) depth = d + 1;
        buf[q++] = d >> 8;
        buf[q++] = d & 0xff;
      }
      for (const r of this.refs) {
        buf.set(r.hash(childLevel), q);
        q += 32;
      }
      hashes.push(nodeHash('sha256', buf, 'buffer'));
      depths.push(depth);
    }
    this.hashes = hashes;
    this.depths = depths;
    return hashes;
  }

  beginParse(): DSlice {
    return new DSlice(this);
  }
}

function popcount(x: number): number {
  let n = 0;
  for (; x; x >>>= 1) n += x & 1;
  return n;
}

const EMPTY_DATA = new Uint8Array(0);

/** The empty ordinary cell. */
export const EMPTY_CELL = new DCell(EMPTY_DATA, 0, [], 0);

/** A writer of one {@link DCell}; implements the TL-B serializers' {@link TlbBuilder}. */
export class DBuilder implements TlbBuilder<DCell> {
  private buf = new Uint8Array(128);
  bits = 0;
  private cells: DCell[] = [];

  get refs(): number {
    return this.cells.length;
  }

  private overflow(n: number): void {
    if (this.bits + n > 1023) throw new RangeError(`cell overflow: ${this.bits} + ${n} bits`);
  }

  storeBit(v: boolean | number): void {
    this.overflow(1);
    if (v) this.buf[this.bits >> 3]! |= 0x80 >> (this.bits & 7);
    this.bits++;
  }

  storeUint(value: number | bigint, n: number): void {
    if (n === 0) return;
    this.overflow(n);
    if (typeof value === 'number' && n <= 32) {
      if (value < 0 || value >= 2 ** n || !Number.isInteger(value)) throw new RangeError(`${value} does not fit uint${n}`);
      for (let i = n - 1; i >= 0; i--) {
        if (Math.floor(value / 2 ** i) & 1) this.buf[this.bits >> 3]! |= 0x80 >> (this.bits & 7);
        this.bits++;
      }
      return;
    }
    const v = BigInt(value);
    if (v < 0n || v >> BigInt(n) !== 0n) throw new RangeError(`${v} does not fit uint${n}`);
    this.storeBigBits(v, n);
  }

  storeInt(value: number | bigint, n: number): void {
    const v = BigInt(value);
    const lim = 1n << BigInt(n - 1);
    if (v < -lim || v >= lim) throw new RangeError(`${v} does not fit int${n}`);
    this.overflow(n);
    this.storeBigBits(BigInt.asUintN(n, v), n);
  }

  private storeBigBits(v: bigint, n: number): void {
    // Byte-aligned 8-bit chunks go straight in; the rest bit by bit.
    let i = n;
    while (i > 0) {
      if ((this.bits & 7) === 0 && i >= 8) {
        this.buf[this.bits >> 3] = Number((v >> BigInt(i - 8)) & 0xffn);
        this.bits += 8;
        i -= 8;
      } else {
        if ((v >> BigInt(i - 1)) & 1n) this.buf[this.bits >> 3]! |= 0x80 >> (this.bits & 7);
        this.bits++;
        i--;
      }
    }
  }

  storeBytes(src: Uint8Array): void {
    this.overflow(src.length * 8);
    if ((this.bits & 7) === 0) {
      this.buf.set(src, this.bits >> 3);
      this.bits += src.length * 8;
      return;
    }
    this.storeBitsFrom(src, 0, src.length * 8);
  }

  storeBitsFrom(src: Uint8Array, from: number, len: number): void {
    this.overflow(len);
    if ((from & 7) === 0 && (this.bits & 7) === 0 && (len & 7) === 0) {
      this.buf.set(src.subarray(from >> 3, (from + len) >> 3), this.bits >> 3);
      this.bits += len;
      return;
    }
    for (let i = 0; i < len; i++) {
      const p = from + i;
      if ((src[p >> 3]! >> (7 - (p & 7))) & 1) this.buf[this.bits >> 3]! |= 0x80 >> (this.bits & 7);
      this.bits++;
    }
  }

  storeVarUint(value: bigint, lenBits: number): void {
    if (value < 0n) throw new RangeError(`VarUInteger ${value} < 0`);
    let len = 0;
    for (let v = value; v > 0n; v >>= 8n) len++;
    if (len >= 1 << lenBits) throw new RangeError(`VarUInteger ${value} does not fit ${lenBits}-bit length`);
    this.storeUint(len, lenBits);
    this.storeUint(value, len * 8);
  }

  storeCoins(amount: bigint): void {
    this.storeVarUint(amount, 4);
  }

  storeRef(cell: DCell): void {
    if (this.cells.length >= 4) throw new RangeError('cell overflow: more than 4 references');
    this.cells.push(cell);
  }

  storeMaybeRef(cell: DCell | null): void {
    this.storeBit(cell !== null);
    if (cell) this.storeRef(cell);
  }

  /** Appends every bit and reference of `cell` (a value stored inline, e.g. a ShardAccount in its dictionary leaf). */
  storeCellContent(cell: DCell): void {
    this.storeBitsFrom(cell.data, 0, cell.bits);
    for (const r of cell.refs) this.storeRef(r);
  }

  /** Appends the unread rest of a slice. */
  storeSlice(s: DSlice): void {
    this.storeBitsFrom(s.cell.data, s.pos, s.cell.bits - s.pos);
    for (let i = s.refPos; i < s.cell.refs.length; i++) this.storeRef(s.cell.refs[i]!);
  }

  /** `addr_std$10 anycast:nothing workchain_id:int8 address:bits256`. */
  storeAddress(addr: { workchain: number; hash: Uint8Array } | null): void {
    if (!addr) {
      this.storeUint(0, 2);
      return;
    }
    this.storeUint(0b100, 3);
    this.storeInt(addr.workchain, 8);
    this.storeBytes(addr.hash);
  }

  child(): DBuilder {
    return new DBuilder();
  }

  endCell(opts?: { exotic?: boolean }): DCell {
    const len = (this.bits + 7) >> 3;
    const data = this.buf.slice(0, len);
    if (this.bits & 7) data[len - 1]! |= 0x80 >> (this.bits & 7);
    const type = opts?.exotic ? data[0]! : 0;
    return new DCell(len === 0 ? EMPTY_DATA : data, this.bits, this.cells, type);
  }
}

export function beginCell(): DBuilder {
  return new DBuilder();
}

/** A read cursor over a {@link DCell}. */
export class DSlice {
  pos = 0;
  refPos = 0;

  constructor(readonly cell: DCell) {}

  get remainingBits(): number {
    return this.cell.bits - this.pos;
  }

  get remainingRefs(): number {
    return this.cell.refs.length - this.refPos;
  }

  private need(n: number): void {
    if (this.pos + n > this.cell.bits) throw new RangeError(`cell underflow: ${this.cell.bits - this.pos} bits left, ${n} needed`);
  }

  loadBit(): boolean {
    this.need(1);
    const p = this.pos++;
    return ((this.cell.data[p >> 3]! >> (7 - (p & 7))) & 1) === 1;
  }

  /** Up to 48 bits as a number. */
  loadUint(n: number): number {
    this.need(n);
    let v = 0;
    for (let i = 0; i < n; i++) {
      const p = this.pos++;
      v = v * 2 + ((this.cell.data[p >> 3]! >> (7 - (p & 7))) & 1);
    }
    return v;
  }

  loadUintBig(n: number): bigint {
    this.need(n);
    let v = 0n;
    let i = 0;
    for (; i + 8 <= n && (this.pos & 7) === 0; i += 8) {
      v = (v << 8n) | BigInt(this.cell.data[this.pos >> 3]!);
      this.pos += 8;
    }
    for (; i < n; i++) {
      const p = this.pos++;
      v = (v << 1n) | BigInt((this.cell.data[p >> 3]! >> (7 - (p & 7))) & 1);
    }
    return v;
  }

  loadInt(n: number): number {
    return Number(BigInt.asIntN(n, this.loadUintBig(n)));
  }

  loadBytes(len: number): Uint8Array {
    this.need(len * 8);
    if ((this.pos & 7) === 0) {
      const out = this.cell.data.slice(this.pos >> 3, (this.pos >> 3) + len);
      this.pos += len * 8;
      return out;
    }
    const out = new Uint8Array(len);
    for (let i = 0; i < len; i++) out[i] = this.loadUint(8);
    return out;
  }

  skip(n: number): void {
    this.need(n);
    this.pos += n;
  }

  loadRef(): DCell {
    const r = this.cell.refs[this.refPos];
    if (!r) throw new RangeError('cell underflow: no reference left');
    this.refPos++;
    return r;
  }

  loadMaybeRef(): DCell | null {
    return this.loadBit() ? this.loadRef() : null;
  }

  loadVarUint(lenBits: number): bigint {
    const len = this.loadUint(lenBits);
    return len === 0 ? 0n : this.loadUintBig(len * 8);
  }

  loadCoins(): bigint {
    return this.loadVarUint(4);
  }

  /** Any MsgAddress: `std` with workchain and hash, `none`, or the other forms (skipped). */
  loadAddress(): { type: 'std'; workchain: number; hash: Uint8Array } | { type: 'none' | 'extern' | 'var' } {
    const tag = this.loadUint(2);
    if (tag === 0) return { type: 'none' };
    if (tag === 1) {
      this.skip(this.loadUint(9));
      return { type: 'extern' };
    }
    if (this.loadBit()) this.skip(this.loadUint(5));
    if (tag === 2) return { type: 'std', workchain: this.loadInt(8), hash: this.loadBytes(32) };
    const len = this.loadUint(9);
    this.skip(32 + len);
    return { type: 'var' };
  }
}

/** Parses a BOC (validated by the lazy reader: header, CRC, descriptors) into cells; returns its roots. */
export function parseBoc(bytes: Uint8Array): DCell[] {
  const { boc, cells } = parseBocIndexed(bytes);
  return boc.roots.map((r) => cells[r]!);
}

/** The lazy reader's view of a BOC together with a {@link DCell} for each of its cell indices. */
export function parseBocIndexed(bytes: Uint8Array): { boc: Boc; cells: DCell[] } {
  const boc = Boc.parse(bytes);
  const cells = new Array<DCell>(boc.count);
  for (let i = boc.count - 1; i >= 0; i--) {
    const n = boc.refCount(i);
    const refs: DCell[] = [];
    for (let r = 0; r < n; r++) refs.push(cells[boc.ref(i, r)]!);
    const d2 = boc.d2[i]!;
    const off = boc.dataOff[i]!;
    const data = boc.bytes.subarray(off, off + (d2 >> 1) + (d2 & 1));
    cells[i] = new DCell(data, boc.bitLen[i]!, refs, boc.isExotic(i) ? data[0]! : 0);
  }
  return { boc, cells };
}

export function parseBocRoot(bytes: Uint8Array): DCell {
  return parseBoc(bytes)[0]!;
}

/**
 * Serializes a tree as a one-root BOC without index (`serialized_boc#b5ee9c72`), cells deduplicated by hash and
 * ordered parents first, so every reference points forward (what the lazy reader requires).
 */
export function serializeBoc(root: DCell, opts: { crc32: boolean } = { crc32: true }): Uint8Array {
  const index = new Map<string, number>();
  const post: DCell[] = [];
  // Iterative post-order over distinct cells: children are finished before their parent.
  const stack: Array<{ cell: DCell; next: number }> = [{ cell: root, next: 0 }];
  const keyOf = (c: DCell): string => c.key;
  const entered = new Set<string>([keyOf(root)]);
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.next < top.cell.refs.length) {
      const child = top.cell.refs[top.next++]!;
      const k = keyOf(child);
      if (!entered.has(k)) {
        entered.add(k);
        stack.push({ cell: child, next: 0 });
      }
      continue;
    }
    stack.pop();
    post.push(top.cell);
  }
  const order = post.reverse();
  order.forEach((c, i) => index.set(keyOf(c), i));
  const n = order.length;
  const sizeBytes = Math.max(1, Math.ceil(bitLength(n) / 8));
  let total = 0;
  for (const c of order) total += 2 + c.data.length + c.refs.length * sizeBytes;
  const offBytes = Math.max(1, Math.ceil(bitLength(total) / 8));
  const headerLen = 4 + 1 + 1 + 3 * sizeBytes + offBytes + sizeBytes;
  const out = new Uint8Array(headerLen + total + (opts.crc32 ? 4 : 0));
  out.set([0xb5, 0xee, 0x9c, 0x72], 0);
  out[4] = (opts.crc32 ? 0x40 : 0) | sizeBytes;
  out[5] = offBytes;
  let p = 6;
  p = putUint(out, p, n, sizeBytes);
  p = putUint(out, p, 1, sizeBytes);
  p = putUint(out, p, 0, sizeBytes);
  p = putUint(out, p, total, offBytes);
  p = putUint(out, p, 0, sizeBytes);
  for (const c of order) {
    out[p++] = c.refs.length + (c.type !== 0 ? 8 : 0) + (c.levelMask << 5);
    out[p++] = (c.bits >> 3) + ((c.bits + 7) >> 3);
    out.set(c.data, p);
    p += c.data.length;
    for (const r of c.refs) p = putUint(out, p, index.get(keyOf(r))!, sizeBytes);
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

function bitLength(v: number): number {
  return v === 0 ? 0 : Math.floor(Math.log2(v)) + 1;
}

export function fromBase64(b64: string): DCell {
  return parseBocRoot(Buffer.from(b64, 'base64'));
}
