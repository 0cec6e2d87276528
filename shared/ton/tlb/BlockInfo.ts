import { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';
import { type BlkPrevInfo, loadBlkPrevInfo } from './BlkPrevInfo.js';
import { type ExtBlkRef, loadExtBlkRef } from './ExtBlkRef.js';
import { type GlobalVersion, loadGlobalVersion } from './GlobalVersion.js';
import { type ShardIdent, loadShardIdent } from './ShardIdent.js';

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
