import { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';
import { type CurrencyCollection, loadCurrencyCollection } from './CurrencyCollection.js';
import { type FutureSplitMerge, loadFutureSplitMerge } from './FutureSplitMerge.js';

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
