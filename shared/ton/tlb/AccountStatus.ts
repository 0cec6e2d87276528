import type { Slice } from '../boc/slice.js';

/** `acc_state_uninit$00`, `acc_state_frozen$01`, `acc_state_active$10`, `acc_state_nonexist$11` (block.tlb). */
export type AccountStatus = 'uninit' | 'frozen' | 'active' | 'nonexist';

const STATUSES: readonly AccountStatus[] = ['uninit', 'frozen', 'active', 'nonexist'];

export function loadAccountStatus(s: Slice): AccountStatus {
  return STATUSES[s.loadUint(2)]!;
}
