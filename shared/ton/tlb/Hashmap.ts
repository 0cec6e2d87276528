import type { Slice } from '../boc/slice.js';
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

function walkNode(
  s: Slice,
  m: number,
  keyPos: number,
  key: Uint8Array,
  leaf: (value: Slice, key: Uint8Array) => void,
  skipExtra: ((s: Slice) => void) | undefined,
): void {
  // HmLabel ~l m: hml_short$0 (unary length), hml_long$10 (length in ⌈log2(m+1)⌉ bits), hml_same$11 (bit, length).
  let l: number;
  if (!s.loadBit()) {
    l = 0;
    while (s.loadBit()) l++;
    if (l > m) throw tlbError('TLB_INVALID', 'HmLabel', `label length ${l} exceeds remaining key ${m} bits`);
    for (let k = 0; k < l; k++) key[keyPos + k] = s.loadBit() ? 1 : 0;
  } else {
    const same = s.loadBit();
    const width = 32 - Math.clz32(m);
    if (!same) {
      l = s.loadUint(width);
      if (l > m) throw tlbError('TLB_INVALID', 'HmLabel', `label length ${l} exceeds remaining key ${m} bits`);
      for (let k = 0; k < l; k++) key[keyPos + k] = s.loadBit() ? 1 : 0;
    } else {
      const v = s.loadBit() ? 1 : 0;
      l = s.loadUint(width);
      if (l > m) throw tlbError('TLB_INVALID', 'HmLabel', `label length ${l} exceeds remaining key ${m} bits`);
      key.fill(v, keyPos, keyPos + l);
    }
  }
  const rest = m - l;
  if (rest === 0) {
    if (skipExtra) skipExtra(s);
    leaf(s, key);
    return;
  }
  const left = s.loadRef();
  const right = s.loadRef();
  key[keyPos + l] = 0;
  walkNode(new SliceClass(s.boc, left), rest - 1, keyPos + l + 1, key, leaf, skipExtra);
  key[keyPos + l] = 1;
  walkNode(new SliceClass(s.boc, right), rest - 1, keyPos + l + 1, key, leaf, skipExtra);
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
  if (!s.loadBit()) return null;
  let cell = s.loadRef();
  let m = n;
  let pos = 0;
  const bit = (i: number): number => (key[i >> 3]! >> (7 - (i & 7))) & 1;
  for (;;) {
    if (s.boc.isExotic(cell)) return null;
    const node = new SliceClass(s.boc, cell);
    let l: number;
    if (!node.loadBit()) {
      l = 0;
      while (node.loadBit()) l++;
      for (let k = 0; k < l; k++) if ((node.loadBit() ? 1 : 0) !== bit(pos + k)) return null;
    } else if (!node.loadBit()) {
      l = node.loadUint(32 - Math.clz32(m));
      for (let k = 0; k < l; k++) if ((node.loadBit() ? 1 : 0) !== bit(pos + k)) return null;
    } else {
      const v = node.loadBit() ? 1 : 0;
      l = node.loadUint(32 - Math.clz32(m));
      for (let k = 0; k < l; k++) if (v !== bit(pos + k)) return null;
    }
    if (l > m) throw tlbError('TLB_INVALID', 'HmLabel', `label length ${l} exceeds remaining key ${m} bits`);
    pos += l;
    m -= l;
    if (m === 0) {
      skipExtra(node);
      return node;
    }
    const left = node.loadRef();
    const right = node.loadRef();
    cell = bit(pos) ? right : left;
    pos++;
    m--;
  }
}
