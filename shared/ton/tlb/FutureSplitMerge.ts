import type { Slice } from '../boc/slice.js';

/** `fsm_none$0`, `fsm_split$10 split_utime interval`, `fsm_merge$11 merge_utime interval` (block.tlb). */
export type FutureSplitMerge = { type: 'none' } | { type: 'split' | 'merge'; utime: number; interval: number };

export function loadFutureSplitMerge(s: Slice): FutureSplitMerge {
  if (!s.loadBit()) return { type: 'none' };
  const type = s.loadBit() ? 'merge' : 'split';
  return { type, utime: s.loadUint(32), interval: s.loadUint(32) };
}
