import type { Slice } from '../boc/slice.js';
import { type AccStatusChange, loadAccStatusChange } from './AccStatusChange.js';

/** `tr_phase_storage$_ storage_fees_collected:Grams storage_fees_due:(Maybe Grams) status_change:AccStatusChange`. */
export interface TrStoragePhase {
  storageFeesCollected: bigint;
  storageFeesDue: bigint | null;
  statusChange: AccStatusChange;
}

export function loadTrStoragePhase(s: Slice): TrStoragePhase {
  const storageFeesCollected = s.loadCoins();
  const storageFeesDue = s.loadBit() ? s.loadCoins() : null;
  return { storageFeesCollected, storageFeesDue, statusChange: loadAccStatusChange(s) };
}
