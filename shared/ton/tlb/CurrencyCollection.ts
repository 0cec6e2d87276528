import type { Slice } from '../boc/slice.js';
import { keyToNumber, walkHashmapE } from './Hashmap.js';

/**
 * `currencies$_ grams:Grams other:ExtraCurrencyCollection` with
 * `extra_currencies$_ dict:(HashmapE 32 (VarUInteger 32))` (block.tlb).
 */
export interface CurrencyCollection {
  grams: bigint;
  /** Extra currency id → amount, in key order; empty when the dictionary is absent. */
  other: Array<[number, bigint]>;
}

export function loadCurrencyCollection(s: Slice): CurrencyCollection {
  const grams = s.loadCoins();
  const other: Array<[number, bigint]> = [];
  walkHashmapE(s, 32, (v, key) => other.push([keyToNumber(key), v.loadVarUint(32)]));
  return { grams, other };
}

/** Steps over a CurrencyCollection without reading the extra-currency dictionary. */
export function skipCurrencyCollection(s: Slice): void {
  s.loadCoins();
  if (s.loadBit()) s.loadRef();
}
