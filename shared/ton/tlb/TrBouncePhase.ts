import type { Slice } from '../boc/slice.js';
import { type StorageUsed, loadStorageUsed } from './StorageUsed.js';

/** `tr_phase_bounce_negfunds$00`, `tr_phase_bounce_nofunds$01`, `tr_phase_bounce_ok$1` (block.tlb). */
export type TrBouncePhase =
  | { type: 'negfunds' }
  | { type: 'nofunds'; msgSize: StorageUsed; reqFwdFees: bigint }
  | { type: 'ok'; msgSize: StorageUsed; msgFees: bigint; fwdFees: bigint };

export function loadTrBouncePhase(s: Slice): TrBouncePhase {
  if (s.loadBit()) return { type: 'ok', msgSize: loadStorageUsed(s), msgFees: s.loadCoins(), fwdFees: s.loadCoins() };
  if (!s.loadBit()) return { type: 'negfunds' };
  return { type: 'nofunds', msgSize: loadStorageUsed(s), reqFwdFees: s.loadCoins() };
}
