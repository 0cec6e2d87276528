import type { Slice } from '../boc/slice.js';
import { type CurrencyCollection, loadCurrencyCollection } from './CurrencyCollection.js';

/** `tr_phase_credit$_ due_fees_collected:(Maybe Grams) credit:CurrencyCollection = TrCreditPhase`. */
export interface TrCreditPhase {
  dueFeesCollected: bigint | null;
  credit: CurrencyCollection;
}

export function loadTrCreditPhase(s: Slice): TrCreditPhase {
  const dueFeesCollected = s.loadBit() ? s.loadCoins() : null;
  return { dueFeesCollected, credit: loadCurrencyCollection(s) };
}
