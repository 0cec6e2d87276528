import { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';
import { type CurrencyCollection, loadCurrencyCollection } from './CurrencyCollection.js';
import type { TlbBuilder } from './builder.js';
import { storeCurrencyCollection } from './CurrencyCollection.js';

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

/** Writes `value_flow#b8e48dfb`, or `value_flow_v2#3ebf98b7` when `version` is 2 (then `burned` is required). */
export function storeValueFlow<C>(vf: ValueFlow, b: TlbBuilder<C>): void {
  if (vf.version === 2 && !vf.burned) throw new RangeError('ValueFlow v2 needs burned');
  b.storeUint(vf.version === 2 ? 0x3ebf98b7 : 0xb8e48dfb, 32);
  const a = b.child();
  for (const cc of [vf.fromPrevBlk, vf.toNextBlk, vf.imported, vf.exported]) storeCurrencyCollection(cc, a);
  b.storeRef(a.endCell());
  storeCurrencyCollection(vf.feesCollected, b);
  if (vf.version === 2) storeCurrencyCollection(vf.burned!, b);
  const c = b.child();
  for (const cc of [vf.feesImported, vf.recovered, vf.created, vf.minted]) storeCurrencyCollection(cc, c);
  b.storeRef(c.endCell());
}
