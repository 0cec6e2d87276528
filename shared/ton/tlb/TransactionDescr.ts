import { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';
import { type SplitMergeInfo, loadSplitMergeInfo } from './SplitMergeInfo.js';
import { type TrActionPhase, loadTrActionPhase } from './TrActionPhase.js';
import { type TrBouncePhase, loadTrBouncePhase } from './TrBouncePhase.js';
import { type TrComputePhase, loadTrComputePhase } from './TrComputePhase.js';
import { type TrCreditPhase, loadTrCreditPhase } from './TrCreditPhase.js';
import { type TrStoragePhase, loadTrStoragePhase } from './TrStoragePhase.js';

/** The seven TransactionDescr constructors (block.tlb `trans_ord$0000` … `trans_merge_install$0111`). */
export type TransactionDescrType =
  | 'ord'
  | 'storage'
  | 'tick_tock'
  | 'split_prepare'
  | 'split_install'
  | 'merge_prepare'
  | 'merge_install';

/** One shape for all constructors; a field a constructor does not have is null. */
export interface TransactionDescr {
  type: TransactionDescrType;
  creditFirst: boolean | null;
  isTock: boolean | null;
  installed: boolean | null;
  aborted: boolean | null;
  destroyed: boolean | null;
  storagePh: TrStoragePhase | null;
  creditPh: TrCreditPhase | null;
  computePh: TrComputePhase | null;
  action: TrActionPhase | null;
  bounce: TrBouncePhase | null;
  splitInfo: SplitMergeInfo | null;
  /** `prepare_transaction:^Transaction` of split_install / merge_install (cell index). */
  prepareTransaction: number | null;
}

function empty(type: TransactionDescrType): TransactionDescr {
  return {
    type,
    creditFirst: null,
    isTock: null,
    installed: null,
    aborted: null,
    destroyed: null,
    storagePh: null,
    creditPh: null,
    computePh: null,
    action: null,
    bounce: null,
    splitInfo: null,
    prepareTransaction: null,
  };
}

function loadMaybeAction(s: Slice): TrActionPhase | null {
  return s.loadBit() ? loadTrActionPhase(new Slice(s.boc, s.loadRef())) : null;
}

export function loadTransactionDescr(s: Slice): TransactionDescr {
  const t3 = s.loadUint(3);
  if (t3 === 0b001) {
    const d = empty('tick_tock');
    d.isTock = s.loadBit();
    d.storagePh = loadTrStoragePhase(s);
    d.computePh = loadTrComputePhase(s);
    d.action = loadMaybeAction(s);
    d.aborted = s.loadBit();
    d.destroyed = s.loadBit();
    return d;
  }
  if (t3 > 0b011) throw tlbError('TLB_UNKNOWN_CONSTRUCTOR', 'TransactionDescr', `tag $${t3.toString(2).padStart(3, '0')}`);
  const last = s.loadBit();
  switch (t3 * 2 + (last ? 1 : 0)) {
    case 0b0000: {
      const d = empty('ord');
      d.creditFirst = s.loadBit();
      d.storagePh = s.loadBit() ? loadTrStoragePhase(s) : null;
      d.creditPh = s.loadBit() ? loadTrCreditPhase(s) : null;
      d.computePh = loadTrComputePhase(s);
      d.action = loadMaybeAction(s);
      d.aborted = s.loadBit();
      d.bounce = s.loadBit() ? loadTrBouncePhase(s) : null;
      d.destroyed = s.loadBit();
      return d;
    }
    case 0b0001: {
      const d = empty('storage');
      d.storagePh = loadTrStoragePhase(s);
      return d;
    }
    case 0b0100: {
      const d = empty('split_prepare');
      d.splitInfo = loadSplitMergeInfo(s);
      d.storagePh = s.loadBit() ? loadTrStoragePhase(s) : null;
      d.computePh = loadTrComputePhase(s);
      d.action = loadMaybeAction(s);
      d.aborted = s.loadBit();
      d.destroyed = s.loadBit();
      return d;
    }
    case 0b0101: {
      const d = empty('split_install');
      d.splitInfo = loadSplitMergeInfo(s);
      d.prepareTransaction = s.loadRef();
      d.installed = s.loadBit();
      return d;
    }
    case 0b0110: {
      const d = empty('merge_prepare');
      d.splitInfo = loadSplitMergeInfo(s);
      d.storagePh = loadTrStoragePhase(s);
      d.aborted = s.loadBit();
      return d;
    }
    default: {
      const d = empty('merge_install');
      d.splitInfo = loadSplitMergeInfo(s);
      d.prepareTransaction = s.loadRef();
      d.storagePh = s.loadBit() ? loadTrStoragePhase(s) : null;
      d.creditPh = s.loadBit() ? loadTrCreditPhase(s) : null;
      d.computePh = loadTrComputePhase(s);
      d.action = loadMaybeAction(s);
      d.aborted = s.loadBit();
      d.destroyed = s.loadBit();
      return d;
    }
  }
}
