import type { Slice } from '../boc/slice.js';
import { keyToNumber, walkHashmapE } from './Hashmap.js';
import type { TlbBuilder } from './builder.js';
import { keyFromInt, storeHashmapE } from './Hashmap.js';

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

/** Writes a CurrencyCollection; extra currencies must be in key order (as {@link loadCurrencyCollection} returns them). */
export function storeCurrencyCollection<C>(cc: CurrencyCollection, b: TlbBuilder<C>): void {
  b.storeCoins(cc.grams);
  storeHashmapE(
    b,
    cc.other.map(([id, amount]) => ({ key: keyFromInt(id, 32), value: amount })),
    32,
    (v, vb) => vb.storeVarUint(v, 5),
  );
}

/** A CurrencyCollection of Toncoin only. */
export function grams(amount: bigint): CurrencyCollection {
  return { grams: amount, other: [] };
}

/** Sum of two CurrencyCollections (extra currencies merged by id, kept in key order). */
export function addCurrencyCollections(a: CurrencyCollection, b: CurrencyCollection): CurrencyCollection {
  if (a.other.length === 0 && b.other.length === 0) return { grams: a.grams + b.grams, other: [] };
  const m = new Map<number, bigint>(a.other);
  for (const [id, v] of b.other) m.set(id, (m.get(id) ?? 0n) + v);
  return { grams: a.grams + b.grams, other: [...m.entries()].filter(([, v]) => v !== 0n).sort((x, y) => x[0] - y[0]) };
}
