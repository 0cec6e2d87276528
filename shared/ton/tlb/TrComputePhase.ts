import { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';

/** `cskip_no_state$00`, `cskip_bad_state$01`, `cskip_no_gas$10`, `cskip_suspended$110`. */
export type ComputeSkipReason = 'no_state' | 'bad_state' | 'no_gas' | 'suspended';

/** `tr_phase_compute_skipped$0` / `tr_phase_compute_vm$1` (block.tlb, TrComputePhase). */
export type TrComputePhase =
  | { type: 'skipped'; reason: ComputeSkipReason }
  | {
      type: 'vm';
      success: boolean;
      msgStateUsed: boolean;
      accountActivated: boolean;
      gasFees: bigint;
      gasUsed: bigint;
      gasLimit: bigint;
      gasCredit: bigint | null;
      mode: number;
      exitCode: number;
      exitArg: number | null;
      vmSteps: number;
      vmInitStateHash: Uint8Array;
      vmFinalStateHash: Uint8Array;
    };

export function loadTrComputePhase(s: Slice): TrComputePhase {
  if (!s.loadBit()) {
    const r = s.loadUint(2);
    if (r === 0) return { type: 'skipped', reason: 'no_state' };
    if (r === 1) return { type: 'skipped', reason: 'bad_state' };
    if (r === 2) return { type: 'skipped', reason: 'no_gas' };
    if (!s.loadBit()) return { type: 'skipped', reason: 'suspended' };
    throw tlbError('TLB_UNKNOWN_CONSTRUCTOR', 'ComputeSkipReason', 'tag $111');
  }
  const success = s.loadBit();
  const msgStateUsed = s.loadBit();
  const accountActivated = s.loadBit();
  const gasFees = s.loadCoins();
  const d = new Slice(s.boc, s.loadRef());
  const gasUsed = d.loadVarUint(7);
  const gasLimit = d.loadVarUint(7);
  const gasCredit = d.loadBit() ? d.loadVarUint(3) : null;
  const mode = d.loadInt(8);
  const exitCode = d.loadInt(32);
  const exitArg = d.loadBit() ? d.loadInt(32) : null;
  const vmSteps = d.loadUint(32);
  const vmInitStateHash = d.loadBytes(32);
  const vmFinalStateHash = d.loadBytes(32);
  return {
    type: 'vm',
    success,
    msgStateUsed,
    accountActivated,
    gasFees,
    gasUsed,
    gasLimit,
    gasCredit,
    mode,
    exitCode,
    exitArg,
    vmSteps,
    vmInitStateHash,
    vmFinalStateHash,
  };
}
