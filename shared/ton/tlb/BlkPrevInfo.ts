import { Slice } from '../boc/slice.js';
import { type ExtBlkRef, loadExtBlkRef } from './ExtBlkRef.js';
import type { TlbBuilder } from './builder.js';
import { storeExtBlkRef } from './ExtBlkRef.js';

/**
 * `prev_blk_info$_ prev:ExtBlkRef = BlkPrevInfo 0` and, after a merge,
 * `prev_blks_info$_ prev1:^ExtBlkRef prev2:^ExtBlkRef = BlkPrevInfo 1` (block.tlb).
 */
export type BlkPrevInfo = { afterMerge: false; prev: ExtBlkRef } | { afterMerge: true; prev1: ExtBlkRef; prev2: ExtBlkRef };

export function loadBlkPrevInfo(s: Slice, afterMerge: boolean): BlkPrevInfo {
  if (!afterMerge) return { afterMerge: false, prev: loadExtBlkRef(s) };
  const prev1 = loadExtBlkRef(new Slice(s.boc, s.loadRef()));
  const prev2 = loadExtBlkRef(new Slice(s.boc, s.loadRef()));
  return { afterMerge: true, prev1, prev2 };
}

export function storeBlkPrevInfo<C>(p: BlkPrevInfo, b: TlbBuilder<C>): void {
  if (!p.afterMerge) {
    storeExtBlkRef(p.prev, b);
    return;
  }
  for (const r of [p.prev1, p.prev2]) {
    const c = b.child();
    storeExtBlkRef(r, c);
    b.storeRef(c.endCell());
  }
}
