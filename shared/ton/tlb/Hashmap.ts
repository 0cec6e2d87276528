import type { Slice } from '../boc/slice.js';
import type { TlbBuilder } from './builder.js';
import { Slice as SliceClass } from '../boc/slice.js';
import { tlbError } from '../errors.js';

/**
 * Walks `Hashmap n X` / `HashmapAug n X Y` (block.tlb `hm_edge`, `hmn_fork`, `ahm_edge`, `ahmn_fork`) in key order
 * (left = 0 before right = 1), calling `leaf` with a slice positioned at each value. For augmented maps
 * `skipExtra` steps over the `extra:Y` that precedes a leaf's value; the extra of forks is never read.
 * `key` holds the key bits (one byte per bit, 0 or 1) while `leaf` runs.
 */
export function walkHashmap(
  root: Slice,
  n: number,
  leaf: (value: Slice, key: Uint8Array) => void,
  skipExtra?: (s: Slice) => void,
): void {
  const key = new Uint8Array(n);
  walkNode(root, n, 0, key, leaf, skipExtra);
}

/**
 * {@link walkHashmap} for callers that need the values only: the label bits are stepped over instead of copied
 * into a key, which for a 256-bit map (ShardAccountBlocks) is most of the map's bits.
 */
export function walkHashmapValues(root: Slice, n: number, leaf: (value: Slice) => void, skipExtra?: (s: Slice) => void): void {
  walkNode(root, n, 0, null, leaf, skipExtra);
}

function walkNode(
  s: Slice,
  m: number,
  keyPos: number,
  key: Uint8Array | null,
  leaf: (value: Slice, key: Uint8Array) => void,
  skipExtra: ((s: Slice) => void) | undefined,
): void {
  // HmLabel ~l m: hml_short$0 (unary length), hml_long$10 (length in ⌈log2(m+1)⌉ bits), hml_same$11 (bit, length).
  let l: number;
  if (!s.loadBit()) {
    l = 0;
    while (s.loadBit()) l++;
    if (l > m) throw labelTooLong(l, m);
    labelBits(s, l, key, keyPos);
  } else {
    const same = s.loadBit();
    const width = 32 - Math.clz32(m);
    if (!same) {
      l = s.loadUint(width);
      if (l > m) throw labelTooLong(l, m);
      labelBits(s, l, key, keyPos);
    } else {
      const v = s.loadBit() ? 1 : 0;
      l = s.loadUint(width);
      if (l > m) throw labelTooLong(l, m);
      key?.fill(v, keyPos, keyPos + l);
    }
  }
  const rest = m - l;
  if (rest === 0) {
    if (skipExtra) skipExtra(s);
    leaf(s, key!);
    return;
  }
  const left = s.loadRef();
  const right = s.loadRef();
  if (key) key[keyPos + l] = 0;
  walkNode(new SliceClass(s.boc, left), rest - 1, keyPos + l + 1, key, leaf, skipExtra);
  if (key) key[keyPos + l] = 1;
  walkNode(new SliceClass(s.boc, right), rest - 1, keyPos + l + 1, key, leaf, skipExtra);
}

/** Reads `l` label bits into `key` from `keyPos` (24 at a time), or steps over them when no key is kept. */
function labelBits(s: Slice, l: number, key: Uint8Array | null, keyPos: number): void {
  if (key === null) {
    s.skip(l);
    return;
  }
  for (let done = 0; done < l; ) {
    const k = l - done >= 24 ? 24 : l - done;
    const v = s.loadUint(k);
    for (let j = 0; j < k; j++) key[keyPos + done + j] = (v >> (k - 1 - j)) & 1;
    done += k;
  }
}

/**
 * `HashmapE n X` (hme_empty$0 / hme_root$1) read from `s`: walks the entries and leaves `s` after the map.
 */
export function walkHashmapE(
  s: Slice,
  n: number,
  leaf: (value: Slice, key: Uint8Array) => void,
  skipExtra?: (s: Slice) => void,
): void {
  if (!s.loadBit()) return;
  walkHashmap(new SliceClass(s.boc, s.loadRef()), n, leaf, skipExtra);
}

/** {@link walkHashmapE} without the keys ({@link walkHashmapValues}). */
export function walkHashmapEValues(s: Slice, n: number, leaf: (value: Slice) => void, skipExtra?: (s: Slice) => void): void {
  if (!s.loadBit()) return;
  walkHashmapValues(new SliceClass(s.boc, s.loadRef()), n, leaf, skipExtra);
}

/** The key bits as an unsigned number (keys up to 53 bits). */
export function keyToNumber(key: Uint8Array, from = 0, to = key.length): number {
  let v = 0;
  for (let i = from; i < to; i++) v = v * 2 + key[i]!;
  return v;
}

/** The key bits as a signed number (two's complement, up to 32 bits). */
export function keyToInt(key: Uint8Array, from = 0, to = key.length): number {
  const v = keyToNumber(key, from, to);
  const n = to - from;
  return key[from] ? v - 2 ** n : v;
}

/**
 * Looks `key` (a 256-bit or shorter key given as bytes, most significant bit first) up in a
 * `HashmapAugE n X Y` read from `s`. Returns a slice at the value, or null when the key is absent or the path
 * runs into a pruned branch (a Merkle proof or update carries only the paths it proves).
 */
export function lookupHashmapAugE(s: Slice, n: number, key: Uint8Array, skipExtra: (s: Slice) => void): Slice | null {
  const r = lookupHashmapAugEProven(s, n, key, skipExtra);
  return r === PRUNED ? null : r;
}

/** What {@link lookupHashmapAugEProven} answers when the key's path runs into a pruned branch. */
export const PRUNED = Symbol('pruned');

/**
 * As {@link lookupHashmapAugE}, telling an absent key (null: the dictionary proves it is not there) from a path the
 * Merkle proof does not carry ({@link PRUNED}: it proves nothing about the key).
 */
export function lookupHashmapAugEProven(s: Slice, n: number, key: Uint8Array, skipExtra: (s: Slice) => void): Slice | null | typeof PRUNED {
  if (!s.loadBit()) return null;
  return lookupHashmapProven(s.boc, s.loadRef(), n, key, skipExtra);
}

/**
 * As {@link lookupHashmapAugEProven} for a `Hashmap n X` (or `HashmapAug`) whose root edge is cell `root`, as a
 * `^(Hashmap 32 ^Cell)` holds it (ConfigParams).
 */
export function lookupHashmapProven(boc: Slice['boc'], root: number, n: number, key: Uint8Array, skipExtra: (s: Slice) => void = () => {}): Slice | null | typeof PRUNED {
  const s = { boc };
  let cell = root;
  let m = n;
  let pos = 0;
  for (;;) {
    if (s.boc.isExotic(cell)) return PRUNED;
    const node = new SliceClass(s.boc, cell);
    let l: number;
    if (!node.loadBit()) {
      l = 0;
      while (node.loadBit()) l++;
      if (l > m) throw labelTooLong(l, m);
      if (!labelMatches(node, key, pos, l)) return null;
    } else if (!node.loadBit()) {
      l = node.loadUint(32 - Math.clz32(m));
      if (l > m) throw labelTooLong(l, m);
      if (!labelMatches(node, key, pos, l)) return null;
    } else {
      const v = node.loadBit() ? 1 : 0;
      l = node.loadUint(32 - Math.clz32(m));
      if (l > m) throw labelTooLong(l, m);
      if (!keyBitsAll(key, pos, l, v)) return null;
    }
    pos += l;
    m -= l;
    if (m === 0) {
      skipExtra(node);
      return node;
    }
    const left = node.loadRef();
    const right = node.loadRef();
    cell = keyBit(key, pos) ? right : left;
    pos++;
    m--;
  }
}

function labelTooLong(l: number, m: number): Error {
  return tlbError('TLB_INVALID', 'HmLabel', `label length ${l} exceeds remaining key ${m} bits`);
}

/** `k` (1..24) bits of `key` from bit `pos`, as an unsigned number; bits past the key's bytes read as 0. */
function keyBits(key: Uint8Array, pos: number, k: number): number {
  const at = pos >> 3;
  const word = ((key[at] ?? 0) << 24) | ((key[at + 1] ?? 0) << 16) | ((key[at + 2] ?? 0) << 8) | (key[at + 3] ?? 0);
  return (word << (pos & 7)) >>> (32 - k);
}

/**
 * Reads `l` label bits from `node` and tells whether they equal key bits [pos, pos + l): compared 24 bits at a time,
 * since a 256-bit dictionary's leaf label alone holds most of the key.
 */
function labelMatches(node: Slice, key: Uint8Array, pos: number, l: number): boolean {
  for (let done = 0; done < l; ) {
    const k = l - done >= 24 ? 24 : l - done;
    if (node.loadUint(k) !== keyBits(key, pos + done, k)) return false;
    done += k;
  }
  return true;
}

/** Whether key bits [pos, pos + l) all equal `v` (an `hml_same` label). */
function keyBitsAll(key: Uint8Array, pos: number, l: number, v: number): boolean {
  for (let done = 0; done < l; ) {
    const k = l - done >= 24 ? 24 : l - done;
    if (keyBits(key, pos + done, k) !== (v ? 2 ** k - 1 : 0)) return false;
    done += k;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------------------------
// Serialization
// ---------------------------------------------------------------------------------------------------------------

/** Bit `i` of `key` (bit 0 = the top bit of byte 0). */
export function keyBit(key: Uint8Array, i: number): number {
  return (key[i >> 3]! >> (7 - (i & 7))) & 1;
}

/** An unsigned (or two's complement, for negative `value`) big-endian key of `bits` bits, as bytes. */
export function keyFromInt(value: number | bigint, bits: number): Uint8Array {
  const out = new Uint8Array((bits + 7) >> 3);
  let v = BigInt.asUintN(bits, BigInt(value)) << BigInt(out.length * 8 - bits);
  for (let i = out.length - 1; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** Concatenates bit strings (each `[bytes, bits]`) into one key. */
export function keyConcat(parts: Array<[Uint8Array, number]>): Uint8Array {
  const total = parts.reduce((n, [, bits]) => n + bits, 0);
  const out = new Uint8Array((total + 7) >> 3);
  let pos = 0;
  for (const [src, bits] of parts) {
    for (let i = 0; i < bits; i++, pos++) if (keyBit(src, i)) out[pos >> 3]! |= 0x80 >> (pos & 7);
  }
  return out;
}

/**
 * Writes `HmLabel ~len maxLen` for the key bits [from, from + len), choosing the constructor exactly as the node
 * does (crypto/vm/dict.cpp `append_dict_label` / `append_dict_label_same`): `hml_same$11` when every bit is equal
 * and it is shorter, otherwise `hml_long$10` when ⌈log2(maxLen + 1)⌉ < len, otherwise `hml_short$0`.
 */
export function storeHmLabel<C>(b: TlbBuilder<C>, key: Uint8Array, from: number, len: number, maxLen: number): void {
  const k = 32 - Math.clz32(maxLen);
  if (len > 1 && k < 2 * len - 1) {
    const first = keyBit(key, from);
    let same = true;
    for (let i = 1; i < len && same; i++) same = keyBit(key, from + i) === first;
    if (same) {
      b.storeUint(6 + first, 3);
      b.storeUint(len, k);
      return;
    }
  }
  if (k < len) {
    b.storeUint(2, 2);
    b.storeUint(len, k);
  } else {
    b.storeBit(0);
    for (let i = 0; i < len; i++) b.storeBit(1);
    b.storeBit(0);
  }
  b.storeBitsFrom(key, from, len);
}

/** One entry of a dictionary to serialize: the key as bytes (its first `n` bits count) and the value. */
export interface HashmapEntry<V> {
  key: Uint8Array;
  value: V;
}

/** How a `HashmapAug n X Y` computes and stores its `extra:Y` (leaf from the value, fork from both children). */
export interface Augmentation<V, Y, C> {
  leaf(value: V): Y;
  fork(left: Y, right: Y): Y;
  /** The extra of an empty `HashmapAugE`. */
  empty: Y;
  store(extra: Y, b: TlbBuilder<C>): void;
}

/** Value serializer of a dictionary: writes `value:X` (inline, as TL-B lays it out in the leaf). */
export type StoreValue<V, C> = (value: V, b: TlbBuilder<C>) => void;

/**
 * Writes the edge `hm_edge` / `ahm_edge` for `entries[lo, hi)` (sorted by key, distinct) whose first `from` key
 * bits are already consumed, `m` bits remaining; returns the edge's augmentation (undefined for plain maps).
 */
function storeEdge<V, Y, C>(
  b: TlbBuilder<C>,
  entries: ReadonlyArray<HashmapEntry<V>>,
  lo: number,
  hi: number,
  from: number,
  m: number,
  value: StoreValue<V, C>,
  aug: Augmentation<V, Y, C> | undefined,
): Y | undefined {
  const first = entries[lo]!.key;
  if (hi - lo === 1) {
    storeHmLabel(b, first, from, m, m);
    let extra: Y | undefined;
    if (aug) {
      extra = aug.leaf(entries[lo]!.value);
      aug.store(extra, b);
    }
    value(entries[lo]!.value, b);
    return extra;
  }
  // Sorted keys: the common prefix of the whole range is that of its first and last key.
  const last = entries[hi - 1]!.key;
  let l = 0;
  while (l < m && keyBit(first, from + l) === keyBit(last, from + l)) l++;
  if (l === m) throw new RangeError(`Hashmap: duplicate key among ${hi - lo} entries`);
  storeHmLabel(b, first, from, l, m);
  const at = from + l;
  let mid = lo;
  while (keyBit(entries[mid]!.key, at) === 0) mid++;
  const left = b.child();
  const le = storeEdge(left, entries, lo, mid, at + 1, m - l - 1, value, aug);
  const right = b.child();
  const re = storeEdge(right, entries, mid, hi, at + 1, m - l - 1, value, aug);
  b.storeRef(left.endCell());
  b.storeRef(right.endCell());
  if (!aug) return undefined;
  const extra = aug.fork(le!, re!);
  aug.store(extra, b);
  return extra;
}

function checkSorted<V>(entries: ReadonlyArray<HashmapEntry<V>>, n: number): void {
  for (let i = 1; i < entries.length; i++) {
    const a = entries[i - 1]!.key;
    const c = entries[i]!.key;
    let d = 0;
    for (let k = 0; k < n && d === 0; k++) d = keyBit(c, k) - keyBit(a, k);
    if (d <= 0) throw new RangeError('Hashmap: entries must be sorted by key and distinct');
  }
}

/** The root cell of a non-empty `Hashmap n X` (or `HashmapAug n X Y`) and its total augmentation. */
export function hashmapRoot<V, Y, C>(
  parent: TlbBuilder<C>,
  entries: ReadonlyArray<HashmapEntry<V>>,
  n: number,
  value: StoreValue<V, C>,
  aug?: Augmentation<V, Y, C>,
): { cell: C; extra: Y | undefined } {
  checkSorted(entries, n);
  const b = parent.child();
  const extra = storeEdge(b, entries, 0, entries.length, 0, n, value, aug);
  return { cell: b.endCell(), extra };
}

/** `hme_empty$0` / `hme_root$1 root:^(Hashmap n X)` (block.tlb HashmapE); `entries` sorted by key. */
export function storeHashmapE<V, C>(b: TlbBuilder<C>, entries: ReadonlyArray<HashmapEntry<V>>, n: number, value: StoreValue<V, C>): void {
  if (entries.length === 0) {
    b.storeBit(0);
    return;
  }
  b.storeBit(1);
  b.storeRef(hashmapRoot(b, entries, n, value).cell);
}

/**
 * `ahme_empty$0 extra:Y` / `ahme_root$1 root:^(HashmapAug n X Y) extra:Y` (block.tlb HashmapAugE); returns the
 * total augmentation it wrote.
 */
export function storeHashmapAugE<V, Y, C>(
  b: TlbBuilder<C>,
  entries: ReadonlyArray<HashmapEntry<V>>,
  n: number,
  value: StoreValue<V, C>,
  aug: Augmentation<V, Y, C>,
): Y {
  if (entries.length === 0) {
    b.storeBit(0);
    aug.store(aug.empty, b);
    return aug.empty;
  }
  const root = hashmapRoot(b, entries, n, value, aug);
  b.storeBit(1);
  b.storeRef(root.cell);
  aug.store(root.extra!, b);
  return root.extra!;
}

/**
 * A non-empty `HashmapAug n X Y` written inline (its root edge in `b` itself, as `acc_trans` holds its
 * transactions); returns the total augmentation.
 */
export function storeHashmapAug<V, Y, C>(
  b: TlbBuilder<C>,
  entries: ReadonlyArray<HashmapEntry<V>>,
  n: number,
  value: StoreValue<V, C>,
  aug: Augmentation<V, Y, C>,
): Y {
  if (entries.length === 0) throw new RangeError('HashmapAug: a non-empty map needs at least one entry');
  checkSorted(entries, n);
  return storeEdge(b, entries, 0, entries.length, 0, n, value, aug)!;
}
