import type { Slice } from '../boc/slice.js';
import type { TlbBuilder } from './builder.js';

/** `fsm_none$0`, `fsm_split$10 split_utime interval`, `fsm_merge$11 merge_utime interval` (block.tlb). */
export type FutureSplitMerge = { type: 'none' } | { type: 'split' | 'merge'; utime: number; interval: number };

export function loadFutureSplitMerge(s: Slice): FutureSplitMerge {
  if (!s.loadBit()) return { type: 'none' };
  const type = s.loadBit() ? 'merge' : 'split';
  return { type, utime: s.loadUint(32), interval: s.loadUint(32) };
}

export function storeFutureSplitMerge<C>(f: FutureSplitMerge, b: TlbBuilder<C>): void {
  if (f.type === 'none') {
    b.storeBit(0);
    return;
  }
  b.storeUint(f.type === 'merge' ? 3 : 2, 2);
  b.storeUint(f.utime, 32);
  b.storeUint(f.interval, 32);
}
