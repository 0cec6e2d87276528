import type { Slice } from '../boc/slice.js';
import { type ExtBlkRef, loadExtBlkRef } from './ExtBlkRef.js';

/** `_ key:Bool blk_ref:ExtBlkRef = KeyExtBlkRef` (block.tlb): an earlier masterchain block and whether it is a key block. */
export interface KeyExtBlkRef {
  key: boolean;
  blkRef: ExtBlkRef;
}

export function loadKeyExtBlkRef(s: Slice): KeyExtBlkRef {
  return { key: s.loadBit(), blkRef: loadExtBlkRef(s) };
}
