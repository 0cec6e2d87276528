import type { Slice } from '../boc/slice.js';
import { PRUNED, keyFromInt, lookupHashmapAugEProven } from './Hashmap.js';
import { type KeyExtBlkRef, loadKeyExtBlkRef } from './KeyExtBlkRef.js';
import { skipKeyMaxLt } from './KeyMaxLt.js';

/**
 * `_ (HashmapAugE 32 KeyExtBlkRef KeyMaxLt) = OldMcBlocksInfo` (block.tlb): every earlier masterchain block of a
 * masterchain state, keyed by seqno (the zero state at key 0), augmented by KeyMaxLt (a leaf's extra comes before its
 * value).
 *
 * The entry of masterchain block `seqno` in an OldMcBlocksInfo read from `s` (at its `ahme_empty$0` / `ahme_root$1`
 * bit): null when the dictionary proves it absent, {@link PRUNED} when a Merkle proof does not carry its path.
 */
export function lookupOldMcBlock(s: Slice, seqno: number): KeyExtBlkRef | null | typeof PRUNED {
  const v = lookupHashmapAugEProven(s, 32, keyFromInt(seqno, 32), skipKeyMaxLt);
  if (v === null || v === PRUNED) return v;
  return loadKeyExtBlkRef(v);
}
