import { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';
import { type CurrencyCollection, loadCurrencyCollection } from './CurrencyCollection.js';
import { type FutureSplitMerge, loadFutureSplitMerge } from './FutureSplitMerge.js';
import type { TlbBuilder } from './builder.js';
import { storeCurrencyCollection } from './CurrencyCollection.js';
import { storeFutureSplitMerge } from './FutureSplitMerge.js';

/** `shard_descr#b` and `shard_descr_new#a` (fees in a referenced cell) (block.tlb, ShardDescr). */
export interface ShardDescr {
  seqno: number;
  regMcSeqno: number;
  startLt: bigint;
  endLt: bigint;
  rootHash: Uint8Array;
  fileHash: Uint8Array;
  beforeSplit: boolean;
  beforeMerge: boolean;
  wantSplit: boolean;
  wantMerge: boolean;
  nxCcUpdated: boolean;
  flags: number;
  nextCatchainSeqno: number;
  nextValidatorShard: bigint;
  minRefMcSeqno: number;
  genUtime: number;
  splitMergeAt: FutureSplitMerge;
  feesCollected: CurrencyCollection;
  fundsCreated: CurrencyCollection;
}

export function loadShardDescr(s: Slice): ShardDescr {
  const tag = s.loadUint(4);
  if (tag !== 0xb && tag !== 0xa) throw tlbError('TLB_UNKNOWN_CONSTRUCTOR', 'ShardDescr', `tag #${tag.toString(16)}`);
  const seqno = s.loadUint(32);
  const regMcSeqno = s.loadUint(32);
  const startLt = s.loadUintBig(64);
  const endLt = s.loadUintBig(64);
  const rootHash = s.loadBytes(32);
  const fileHash = s.loadBytes(32);
  const beforeSplit = s.loadBit();
  const beforeMerge = s.loadBit();
  const wantSplit = s.loadBit();
  const wantMerge = s.loadBit();
  const nxCcUpdated = s.loadBit();
  const flags = s.loadUint(3);
  if (flags !== 0) throw tlbError('TLB_INVALID', 'ShardDescr', `flags ${flags} must be 0`);
  const nextCatchainSeqno = s.loadUint(32);
  const nextValidatorShard = s.loadUintBig(64);
  const minRefMcSeqno = s.loadUint(32);
  const genUtime = s.loadUint(32);
  const splitMergeAt = loadFutureSplitMerge(s);
  const fees = tag === 0xa ? new Slice(s.boc, s.loadRef()) : s;
  const feesCollected = loadCurrencyCollection(fees);
  const fundsCreated = loadCurrencyCollection(fees);
  return {
    seqno,
    regMcSeqno,
    startLt,
    endLt,
    rootHash,
    fileHash,
    beforeSplit,
    beforeMerge,
    wantSplit,
    wantMerge,
    nxCcUpdated,
    flags,
    nextCatchainSeqno,
    nextValidatorShard,
    minRefMcSeqno,
    genUtime,
    splitMergeAt,
    feesCollected,
    fundsCreated,
  };
}

/** Writes `shard_descr_new#a` (fees in a referenced cell), the form current collators write. */
export function storeShardDescr<C>(d: ShardDescr, b: TlbBuilder<C>): void {
  b.storeUint(0xa, 4);
  b.storeUint(d.seqno, 32);
  b.storeUint(d.regMcSeqno, 32);
  b.storeUint(d.startLt, 64);
  b.storeUint(d.endLt, 64);
  b.storeBytes(d.rootHash);
  b.storeBytes(d.fileHash);
  for (const bit of [d.beforeSplit, d.beforeMerge, d.wantSplit, d.wantMerge, d.nxCcUpdated]) b.storeBit(bit);
  b.storeUint(d.flags, 3);
  b.storeUint(d.nextCatchainSeqno, 32);
  b.storeUint(d.nextValidatorShard, 64);
  b.storeUint(d.minRefMcSeqno, 32);
  b.storeUint(d.genUtime, 32);
  storeFutureSplitMerge(d.splitMergeAt, b);
  const fees = b.child();
  storeCurrencyCollection(d.feesCollected, fees);
  storeCurrencyCollection(d.fundsCreated, fees);
  b.storeRef(fees.endCell());
}
