import type { Slice } from '../boc/slice.js';

/** `storage_used$_ cells:(VarUInteger 7) bits:(VarUInteger 7) = StorageUsed` (block.tlb). */
export interface StorageUsed {
  cells: bigint;
  bits: bigint;
}

export function loadStorageUsed(s: Slice): StorageUsed {
  return { cells: s.loadVarUint(7), bits: s.loadVarUint(7) };
}
