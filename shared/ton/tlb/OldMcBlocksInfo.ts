import type { Slice } from '../boc/slice.js';
import { type ExtBlkRef, loadExtBlkRef } from './ExtBlkRef.js';
import { PRUNED, keyFromInt, lookupHashmapAugEProven } from './Hashmap.js';

/**
 * `_ (HashmapAugE 32 KeyExtBlkRef KeyMaxLt) = OldMcBlocksInfo` (block.tlb): every earlier masterchain block of a
 * masterchain state, keyed by seqno (the zero state at key 0), each `_ key:Bool blk_ref:ExtBlkRef = KeyExtBlkRef`
 * augmented by `_ key:Bool max_end_lt:uint64 = KeyMaxLt` (a key block below, the highest end lt below).
 */

/** `_ key:Bool blk_ref:ExtBlkRef = KeyExtBlkRef`. */
export interface KeyExtBlkRef {
  key: boolean;
  blkRef: ExtBlkRef;
}

export function loadKeyExtBlkRef(s: Slice): KeyExtBlkRef {
  return { key: s.loadBit(), blkRef: loadExtBlkRef(s) };
}

/** `_ key:Bool max_end_lt:uint64 = KeyMaxLt`, the augmentation: a leaf's extra comes before its value. */
export function skipKeyMaxLt(s: Slice): void {
  s.skip(1 + 64);
}

/**
 * The entry of masterchain block `seqno` in an OldMcBlocksInfo read from `s` (at its `ahme_empty$0` /
 * `ahme_root$1` bit): null when the dictionary proves it absent, {@link PRUNED} when a Merkle proof does not carry
 * its path.
 */
export function lookupOldMcBlock(s: Slice, seqno: number): KeyExtBlkRef | null | typeof PRUNED {
  const v = lookupHashmapAugEProven(s, 32, keyFromInt(seqno, 32), skipKeyMaxLt);
  if (v === null || v === PRUNED) return v;
  return loadKeyExtBlkRef(v);
}
