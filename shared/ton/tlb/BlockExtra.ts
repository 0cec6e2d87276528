import { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';
import { type CurrencyCollection, loadCurrencyCollection } from './CurrencyCollection.js';
import { walkHashmapE } from './Hashmap.js';
import { type InMsg, loadInMsg } from './InMsg.js';
import { type McBlockExtra, loadMcBlockExtra } from './McBlockExtra.js';
import { type OutMsg, loadOutMsg } from './OutMsg.js';
import type { TlbBuilder } from './builder.js';
import { addCurrencyCollections, grams, storeCurrencyCollection } from './CurrencyCollection.js';
import { type HashmapEntry, storeHashmapAugE } from './Hashmap.js';
import { type InMsgInput, storeInMsg } from './InMsg.js';
import { type OutMsgInput, storeOutMsg } from './OutMsg.js';

/**
 * `block_extra in_msg_descr:^InMsgDescr out_msg_descr:^OutMsgDescr account_blocks:^ShardAccountBlocks
 * rand_seed:bits256 created_by:bits256 custom:(Maybe ^McBlockExtra) = BlockExtra` (block.tlb). The constructor
 * has no explicit tag, so it carries the CRC32 of its declaration: #4a33f6fd.
 *
 * The three dictionaries are kept as cell indices and walked on demand.
 */
export interface BlockExtra {
  inMsgDescr: number;
  outMsgDescr: number;
  accountBlocks: number;
  randSeed: Uint8Array;
  createdBy: Uint8Array;
  custom: McBlockExtra | null;
}

export function loadBlockExtra(s: Slice): BlockExtra {
  const tag = s.loadUint(32);
  if (tag !== 0x4a33f6fd) throw tlbError('TLB_UNKNOWN_CONSTRUCTOR', 'BlockExtra', `tag #${tag.toString(16).padStart(8, '0')}`);
  const inMsgDescr = s.loadRef();
  const outMsgDescr = s.loadRef();
  const accountBlocks = s.loadRef();
  const randSeed = s.loadBytes(32);
  const createdBy = s.loadBytes(32);
  const customRef = s.loadBit() ? s.loadRef() : -1;
  const custom = customRef >= 0 ? loadMcBlockExtra(new Slice(s.boc, customRef)) : null;
  return { inMsgDescr, outMsgDescr, accountBlocks, randSeed, createdBy, custom };
}

/** `import_fees$_ fees_collected:Grams value_imported:CurrencyCollection = ImportFees`. */
export interface ImportFees {
  feesCollected: bigint;
  valueImported: CurrencyCollection;
}

export function loadImportFees(s: Slice): ImportFees {
  return { feesCollected: s.loadCoins(), valueImported: loadCurrencyCollection(s) };
}

/**
 * Walks `_ (HashmapAugE 256 InMsg ImportFees) = InMsgDescr` in key (message hash) order, with each entry's
 * augmentation. Returns the map's total augmentation (`extra` of the root, present even when it is empty).
 */
export function walkInMsgDescr(s: Slice, each: (msg: InMsg, fees: ImportFees, key: Uint8Array) => void): ImportFees {
  let fees: ImportFees | null = null;
  walkHashmapE(
    s,
    256,
    (v, key) => each(loadInMsg(v), fees!, key),
    (v) => {
      fees = loadImportFees(v);
    },
  );
  return loadImportFees(s);
}

/**
 * Walks `_ (HashmapAugE 256 OutMsg CurrencyCollection) = OutMsgDescr` in key (message hash) order, with each
 * entry's augmentation (the value it exports). Returns the map's total augmentation.
 */
export function walkOutMsgDescr(s: Slice, each: (msg: OutMsg, exported: CurrencyCollection, key: Uint8Array) => void): CurrencyCollection {
  let value: CurrencyCollection | null = null;
  walkHashmapE(
    s,
    256,
    (v, key) => each(loadOutMsg(v), value!, key),
    (v) => {
      value = loadCurrencyCollection(v);
    },
  );
  return loadCurrencyCollection(s);
}

/** `block_extra` with its dictionaries (and McBlockExtra) given as finished cells. */
export interface BlockExtraInput<C> {
  inMsgDescr: C;
  outMsgDescr: C;
  accountBlocks: C;
  randSeed: Uint8Array;
  createdBy: Uint8Array;
  custom: C | null;
}

export function storeBlockExtra<C>(e: BlockExtraInput<C>, b: TlbBuilder<C>): void {
  b.storeUint(0x4a33f6fd, 32);
  b.storeRef(e.inMsgDescr);
  b.storeRef(e.outMsgDescr);
  b.storeRef(e.accountBlocks);
  b.storeBytes(e.randSeed);
  b.storeBytes(e.createdBy);
  b.storeBit(e.custom !== null);
  if (e.custom !== null) b.storeRef(e.custom);
}

export function storeImportFees<C>(f: ImportFees, b: TlbBuilder<C>): void {
  b.storeCoins(f.feesCollected);
  storeCurrencyCollection(f.valueImported, b);
}

/** An InMsgDescr entry: keyed by the message hash, augmented by what importing it collects and brings in. */
export interface InMsgDescrEntry<C> {
  key: Uint8Array;
  value: { msg: InMsgInput<C>; fees: ImportFees };
}

/** Writes `_ (HashmapAugE 256 InMsg ImportFees) = InMsgDescr` (entries sorted by key); returns the total. */
export function storeInMsgDescr<C>(entries: ReadonlyArray<InMsgDescrEntry<C>>, b: TlbBuilder<C>): ImportFees {
  return storeHashmapAugE(b, entries as ReadonlyArray<HashmapEntry<InMsgDescrEntry<C>['value']>>, 256, (v, vb) => storeInMsg(v.msg, vb), {
    leaf: (v) => v.fees,
    fork: (l, r) => ({ feesCollected: l.feesCollected + r.feesCollected, valueImported: addCurrencyCollections(l.valueImported, r.valueImported) }),
    empty: { feesCollected: 0n, valueImported: grams(0n) },
    store: storeImportFees,
  });
}

/** An OutMsgDescr entry: keyed by the message hash, augmented by the value it exports. */
export interface OutMsgDescrEntry<C> {
  key: Uint8Array;
  value: { msg: OutMsgInput<C>; exported: CurrencyCollection };
}

/** Writes `_ (HashmapAugE 256 OutMsg CurrencyCollection) = OutMsgDescr` (entries sorted by key); returns the total. */
export function storeOutMsgDescr<C>(entries: ReadonlyArray<OutMsgDescrEntry<C>>, b: TlbBuilder<C>): CurrencyCollection {
  return storeHashmapAugE(b, entries as ReadonlyArray<HashmapEntry<OutMsgDescrEntry<C>['value']>>, 256, (v, vb) => storeOutMsg(v.msg, vb), {
    leaf: (v) => v.exported,
    fork: addCurrencyCollections,
    empty: grams(0n),
    store: (cc, vb) => storeCurrencyCollection(cc, vb),
  });
}
