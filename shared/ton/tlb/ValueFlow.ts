import { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';
import { type CurrencyCollection, loadCurrencyCollection } from './CurrencyCollection.js';

/** `value_flow#b8e48dfb` and `value_flow_v2#3ebf98b7` (adds `burned`) (block.tlb, ValueFlow). */
export interface ValueFlow {
  version: 1 | 2;
  fromPrevBlk: CurrencyCollection;
  toNextBlk: CurrencyCollection;
  imported: CurrencyCollection;
  exported: CurrencyCollection;
  feesCollected: CurrencyCollection;
  /** Only in value_flow_v2. */
  burned: CurrencyCollection | null;
  feesImported: CurrencyCollection;
  recovered: CurrencyCollection;
  created: CurrencyCollection;
  minted: CurrencyCollection;
}

export function loadValueFlow(s: Slice): ValueFlow {
  const tag = s.loadUint(32);
  if (tag !== 0xb8e48dfb && tag !== 0x3ebf98b7) {
    throw tlbError('TLB_UNKNOWN_CONSTRUCTOR', 'ValueFlow', `tag #${tag.toString(16).padStart(8, '0')}`);
  }
  const a = new Slice(s.boc, s.loadRef());
  const fromPrevBlk = loadCurrencyCollection(a);
  const toNextBlk = loadCurrencyCollection(a);
  const imported = loadCurrencyCollection(a);
  const exported = loadCurrencyCollection(a);
  const feesCollected = loadCurrencyCollection(s);
  const burned = tag === 0x3ebf98b7 ? loadCurrencyCollection(s) : null;
  const b = new Slice(s.boc, s.loadRef());
  return {
    version: tag === 0x3ebf98b7 ? 2 : 1,
    fromPrevBlk,
    toNextBlk,
    imported,
    exported,
    feesCollected,
    burned,
    feesImported: loadCurrencyCollection(b),
    recovered: loadCurrencyCollection(b),
    created: loadCurrencyCollection(b),
    minted: loadCurrencyCollection(b),
  };
}
