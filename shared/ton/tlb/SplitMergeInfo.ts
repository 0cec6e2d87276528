import type { Slice } from '../boc/slice.js';

/** `split_merge_info$_ cur_shard_pfx_len:(## 6) acc_split_depth:(## 6) this_addr:bits256 sibling_addr:bits256`. */
export interface SplitMergeInfo {
  curShardPfxLen: number;
  accSplitDepth: number;
  thisAddr: Uint8Array;
  siblingAddr: Uint8Array;
}

export function loadSplitMergeInfo(s: Slice): SplitMergeInfo {
  return { curShardPfxLen: s.loadUint(6), accSplitDepth: s.loadUint(6), thisAddr: s.loadBytes(32), siblingAddr: s.loadBytes(32) };
}
