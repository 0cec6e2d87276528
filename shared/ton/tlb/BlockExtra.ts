import { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';
import { type CurrencyCollection, loadCurrencyCollection } from './CurrencyCollection.js';
import { walkHashmapE } from './Hashmap.js';
import { type InMsg, loadInMsg } from './InMsg.js';
import { type McBlockExtra, loadMcBlockExtra } from './McBlockExtra.js';
import { type OutMsg, loadOutMsg } from './OutMsg.js';

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

