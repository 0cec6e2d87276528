import type { Slice } from '../boc/slice.js';
import { type AccStatusChange, loadAccStatusChange } from './AccStatusChange.js';
import { type StorageUsed, loadStorageUsed } from './StorageUsed.js';

/** `tr_phase_action$_ ... = TrActionPhase` (block.tlb). */
export interface TrActionPhase {
  success: boolean;
  valid: boolean;
  noFunds: boolean;
  statusChange: AccStatusChange;
  totalFwdFees: bigint | null;
  totalActionFees: bigint | null;
  resultCode: number;
  resultArg: number | null;
  totActions: number;
  specActions: number;
  skippedActions: number;
  msgsCreated: number;
  actionListHash: Uint8Array;
  totMsgSize: StorageUsed;
}

export function loadTrActionPhase(s: Slice): TrActionPhase {
  const success = s.loadBit();
  const valid = s.loadBit();
  const noFunds = s.loadBit();
  const statusChange = loadAccStatusChange(s);
  const totalFwdFees = s.loadBit() ? s.loadCoins() : null;
  const totalActionFees = s.loadBit() ? s.loadCoins() : null;
  const resultCode = s.loadInt(32);
  const resultArg = s.loadBit() ? s.loadInt(32) : null;
  return {
    success,
    valid,
    noFunds,
    statusChange,
    totalFwdFees,
    totalActionFees,
    resultCode,
    resultArg,
    totActions: s.loadUint(16),
    specActions: s.loadUint(16),
    skippedActions: s.loadUint(16),
    msgsCreated: s.loadUint(16),
    actionListHash: s.loadBytes(32),
    totMsgSize: loadStorageUsed(s),
  };
}
