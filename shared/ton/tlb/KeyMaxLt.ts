import type { Slice } from '../boc/slice.js';

/** `_ key:Bool max_end_lt:uint64 = KeyMaxLt` (block.tlb): a key block below, the highest end lt below. */
export function skipKeyMaxLt(s: Slice): void {
  s.skip(1 + 64);
}
