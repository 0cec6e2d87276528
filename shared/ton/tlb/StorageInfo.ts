import type { Slice } from '../boc/slice.js';
import { type StorageUsed, loadStorageUsed } from './StorageUsed.js';

/**
 * `storage_info$_ used:StorageUsed storage_extra:StorageExtraInfo last_paid:uint32 due_payment:(Maybe Grams)`
 * with `storage_extra_none$000` / `storage_extra_info$001 dict_hash:uint256` (block.tlb).
 *
 * Before storage_extra existed the same three bits were the length of `public_cells:(VarUInteger 7)`, almost
 * always zero; a non-zero length other than 1 is read as that legacy field so older states still load.
 */
export interface StorageInfo {
  used: StorageUsed;
  storageExtraDictHash: bigint | null;
  lastPaid: number;
  duePayment: bigint | null;
}

export function loadStorageInfo(s: Slice): StorageInfo {
  const used = loadStorageUsed(s);
  const extra = s.loadUint(3);
  let storageExtraDictHash: bigint | null = null;
  if (extra === 1) storageExtraDictHash = s.loadUintBig(256);
  else if (extra > 1) s.skip(extra * 8);
  const lastPaid = s.loadUint(32);
  const duePayment = s.loadBit() ? s.loadCoins() : null;
  return { used, storageExtraDictHash, lastPaid, duePayment };
}
