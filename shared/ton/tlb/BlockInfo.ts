import { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';
import { type BlkPrevInfo, loadBlkPrevInfo } from './BlkPrevInfo.js';
import { type ExtBlkRef, loadExtBlkRef } from './ExtBlkRef.js';
import { type GlobalVersion, loadGlobalVersion } from './GlobalVersion.js';
import { type ShardIdent, loadShardIdent } from './ShardIdent.js';
import type { TlbBuilder } from './builder.js';
import { storeBlkPrevInfo } from './BlkPrevInfo.js';
import { storeExtBlkRef } from './ExtBlkRef.js';
import { storeGlobalVersion } from './GlobalVersion.js';
import { storeShardIdent } from './ShardIdent.js';

/** `block_info#9bc7a987 ... = BlockInfo` (block.tlb, BlockInfo). */
export interface BlockInfo {
  version: number;
  notMaster: boolean;
  afterMerge: boolean;
  beforeSplit: boolean;
  afterSplit: boolean;
  wantSplit: boolean;
  wantMerge: boolean;
  keyBlock: boolean;
  vertSeqnoIncr: boolean;
  flags: number;
  seqno: number;
  vertSeqno: number;
  shard: ShardIdent;
  genUtime: number;
  startLt: bigint;
  endLt: bigint;
  genValidatorListHashShort: number;
  genCatchainSeqno: number;
  minRefMcSeqno: number;
  prevKeyBlockSeqno: number;
  genSoftware: GlobalVersion | null;
  /** `master_ref:not_master?^BlkMasterInfo` (`master_info$_ master:ExtBlkRef`). */
  masterRef: ExtBlkRef | null;
  prevRef: BlkPrevInfo;
  prevVertRef: BlkPrevInfo | null;
}

export function loadBlockInfo(s: Slice): BlockInfo {
  const tag = s.loadUint(32);
  if (tag !== 0x9bc7a987) throw tlbError('TLB_UNKNOWN_CONSTRUCTOR', 'BlockInfo', `tag #${tag.toString(16).padStart(8, '0')}`);
  const version = s.loadUint(32);
  const notMaster = s.loadBit();
  const afterMerge = s.loadBit();
  const beforeSplit = s.loadBit();
  const afterSplit = s.loadBit();
  const wantSplit = s.loadBit();
  const wantMerge = s.loadBit();
  const keyBlock = s.loadBit();
  const vertSeqnoIncr = s.loadBit();
  const flags = s.loadUint(8);
  if (flags > 1) throw tlbError('TLB_INVALID', 'BlockInfo', `flags ${flags} > 1`);
  const seqno = s.loadUint(32);
  const vertSeqno = s.loadUint(32);
  if (vertSeqno < (vertSeqnoIncr ? 1 : 0)) throw tlbError('TLB_INVALID', 'BlockInfo', 'vert_seq_no < vert_seqno_incr');
  if (seqno < 1) throw tlbError('TLB_INVALID', 'BlockInfo', 'seq_no must be >= 1 (prev_seq_no + 1)');
  const shard = loadShardIdent(s);
  const genUtime = s.loadUint(32);
  const startLt = s.loadUintBig(64);
  const endLt = s.loadUintBig(64);
  const genValidatorListHashShort = s.loadUint(32);
  const genCatchainSeqno = s.loadUint(32);
  const minRefMcSeqno = s.loadUint(32);
  const prevKeyBlockSeqno = s.loadUint(32);
  const genSoftware = flags & 1 ? loadGlobalVersion(s) : null;
  const masterRef = notMaster ? loadExtBlkRef(new Slice(s.boc, s.loadRef())) : null;
  const prevRef = loadBlkPrevInfo(new Slice(s.boc, s.loadRef()), afterMerge);
  const prevVertRef = vertSeqnoIncr ? loadBlkPrevInfo(new Slice(s.boc, s.loadRef()), false) : null;
  return {
    version,
    notMaster,
    afterMerge,
    beforeSplit,
    afterSplit,
    wantSplit,
    wantMerge,
    keyBlock,
    vertSeqnoIncr,
    flags,
    seqno,
    vertSeqno,
    shard,
    genUtime,
    startLt,
    endLt,
    genValidatorListHashShort,
    genCatchainSeqno,
    minRefMcSeqno,
    prevKeyBlockSeqno,
    genSoftware,
    masterRef,
    prevRef,
    prevVertRef,
  };
}

/** Writes `block_info#9bc7a987`; `flags & 1` must agree with `genSoftware`, `notMaster` with `masterRef`. */
export function storeBlockInfo<C>(info: BlockInfo, b: TlbBuilder<C>): void {
  if ((info.flags & 1) !== (info.genSoftware ? 1 : 0)) throw new RangeError('BlockInfo: flags bit 0 must match gen_software');
  if (info.notMaster !== (info.masterRef !== null)) throw new RangeError('BlockInfo: master_ref is present exactly when not_master');
  if (info.vertSeqnoIncr !== (info.prevVertRef !== null)) throw new RangeError('BlockInfo: prev_vert_ref is present exactly when vert_seqno_incr');
  if (info.prevRef.afterMerge !== info.afterMerge) throw new RangeError('BlockInfo: prev_ref shape must match after_merge');
  b.storeUint(0x9bc7a987, 32);
  b.storeUint(info.version, 32);
  for (const bit of [info.notMaster, info.afterMerge, info.beforeSplit, info.afterSplit, info.wantSplit, info.wantMerge, info.keyBlock, info.vertSeqnoIncr]) {
    b.storeBit(bit);
  }
  b.storeUint(info.flags, 8);
  b.storeUint(info.seqno, 32);
  b.storeUint(info.vertSeqno, 32);
  storeShardIdent(info.shard, b);
  b.storeUint(info.genUtime, 32);
  b.storeUint(info.startLt, 64);
  b.storeUint(info.endLt, 64);
  b.storeUint(info.genValidatorListHashShort, 32);
  b.storeUint(info.genCatchainSeqno, 32);
  b.storeUint(info.minRefMcSeqno, 32);
  b.storeUint(info.prevKeyBlockSeqno, 32);
  if (info.genSoftware) storeGlobalVersion(info.genSoftware, b);
  if (info.masterRef) {
    const m = b.child();
    storeExtBlkRef(info.masterRef, m);
    b.storeRef(m.endCell());
  }
  const p = b.child();
  storeBlkPrevInfo(info.prevRef, p);
  b.storeRef(p.endCell());
  if (info.prevVertRef) {
    const v = b.child();
    storeBlkPrevInfo(info.prevVertRef, v);
    b.storeRef(v.endCell());
  }
}
