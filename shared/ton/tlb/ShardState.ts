import { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';
import { skipCurrencyCollection } from './CurrencyCollection.js';
import { lookupHashmapAugE } from './Hashmap.js';
import { type ShardAccount, loadShardAccount } from './ShardAccount.js';
import type { TlbBuilder } from './builder.js';
import { type CurrencyCollection, storeCurrencyCollection } from './CurrencyCollection.js';
import { type ExtBlkRef, storeExtBlkRef } from './ExtBlkRef.js';
import { type ShardIdent, loadShardIdent, storeShardIdent } from './ShardIdent.js';
import { type ShardHash } from './ShardHashes.js';
import { storeShardHashes } from './ShardHashes.js';

/**
 * The accounts dictionary of one side of a block's state update: `shard_state#9023afe2 ... accounts:^ShardAccounts`
 * (block.tlb ShardStateUnsplit), or both halves of `split_state#5f327da5 left:^ShardStateUnsplit right:^...`.
 * Only the accounts a block touched are present; everything else is a pruned branch.
 */
export interface ShardStateAccounts {
  /** Cells holding `_ (HashmapAugE 256 ShardAccount DepthBalanceInfo) = ShardAccounts`, one per unsplit state. */
  roots: number[];
}

export function loadShardStateAccounts(s: Slice): ShardStateAccounts | null {
  // A pruned side, or a reduced BOC whose update does not hold a state at all, has no accounts to offer.
  if (s.boc.isExotic(s.cell) || s.remainingBits < 32) return null;
  const tag = s.loadUint(32);
  if (tag === 0x5f327da5) {
    const left = loadShardStateAccounts(new Slice(s.boc, s.loadRef()));
    const right = loadShardStateAccounts(new Slice(s.boc, s.loadRef()));
    return { roots: [...(left?.roots ?? []), ...(right?.roots ?? [])] };
  }
  if (tag !== 0x9023afe2) throw tlbError('TLB_UNKNOWN_CONSTRUCTOR', 'ShardState', `tag #${tag.toString(16).padStart(8, '0')}`);
  s.loadRef();
  return { roots: [s.loadRef()] };
}

/** The fields of a `shard_state#9023afe2` (ShardStateUnsplit) before its first reference. */
export interface ShardStateInfo {
  globalId: number;
  shard: ShardIdent;
  seqno: number;
  vertSeqno: number;
  genUtime: number;
  genLt: bigint;
  minRefMcSeqno: number;
}

/** {@link ShardStateInfo} of a read state, and its `custom` cell. */
export interface ShardStateHead extends ShardStateInfo {
  /** The `custom:(Maybe ^McStateExtra)` cell (a masterchain state's), or null. */
  custom: number | null;
}

export function loadShardStateHead(s: Slice): ShardStateHead {
  const tag = s.loadUint(32);
  if (tag !== 0x9023afe2) throw tlbError('TLB_UNKNOWN_CONSTRUCTOR', 'ShardStateUnsplit', `tag #${tag.toString(16).padStart(8, '0')}`);
  const globalId = s.loadInt(32);
  const shard = loadShardIdent(s);
  const seqno = s.loadUint(32);
  const vertSeqno = s.loadUint(32);
  const genUtime = s.loadUint(32);
  const genLt = s.loadUintBig(64);
  const minRefMcSeqno = s.loadUint(32);
  s.loadRef(); // out_msg_queue_info
  s.skip(1); // before_split
  s.loadRef(); // accounts
  s.loadRef(); // ^[ overload_history underload_history total_balance total_validator_fees libraries master_ref ]
  const custom = s.loadBit() ? s.loadRef() : null;
  return { globalId, shard, seqno, vertSeqno, genUtime, genLt, minRefMcSeqno, custom };
}

/** `depth_balance$_ split_depth:(#<= 30) balance:CurrencyCollection = DepthBalanceInfo`. */
function skipDepthBalanceInfo(s: Slice): void {
  s.skip(5);
  skipCurrencyCollection(s);
}

/** The ShardAccount of `address`, or null when it is absent or pruned away on this side of the update. */
export function findShardAccount(state: ShardStateAccounts, boc: Slice['boc'], address: Uint8Array): ShardAccount | null {
  for (const root of state.roots) {
    if (boc.isExotic(root)) continue;
    const v = lookupHashmapAugE(new Slice(boc, root), 256, address, skipDepthBalanceInfo);
    if (v && !boc.isExotic(boc.ref(v.cell, v.refPos))) return loadShardAccount(v);
  }
  return null;
}

/** `depth_balance$_ split_depth:(#<= 30) balance:CurrencyCollection = DepthBalanceInfo` (ShardAccounts' augmentation). */
export interface DepthBalanceInfo {
  splitDepth: number;
  balance: CurrencyCollection;
}

export function storeDepthBalanceInfo<C>(d: DepthBalanceInfo, b: TlbBuilder<C>): void {
  b.storeUint(d.splitDepth, 5);
  storeCurrencyCollection(d.balance, b);
}

/**
 * A `shard_state#9023afe2` (ShardStateUnsplit) to write. The out-message queue info, the accounts dictionary and
 * the masterchain extra are finished cells; libraries are always empty here.
 */
export interface ShardStateInput<C> extends ShardStateInfo {
  outMsgQueueInfo: C;
  beforeSplit: boolean;
  /** A cell holding `ShardAccounts` (HashmapAugE 256 ShardAccount DepthBalanceInfo). */
  accounts: C;
  overloadHistory: bigint;
  underloadHistory: bigint;
  totalBalance: CurrencyCollection;
  totalValidatorFees: CurrencyCollection;
  masterRef: ExtBlkRef | null;
  /** The McStateExtra cell of a masterchain state. */
  custom: C | null;
}

export function storeShardState<C>(st: ShardStateInput<C>, b: TlbBuilder<C>): void {
  b.storeUint(0x9023afe2, 32);
  b.storeInt(st.globalId, 32);
  storeShardIdent(st.shard, b);
  b.storeUint(st.seqno, 32);
  b.storeUint(st.vertSeqno, 32);
  b.storeUint(st.genUtime, 32);
  b.storeUint(st.genLt, 64);
  b.storeUint(st.minRefMcSeqno, 32);
  b.storeRef(st.outMsgQueueInfo);
  b.storeBit(st.beforeSplit);
  b.storeRef(st.accounts);
  const r = b.child();
  r.storeUint(st.overloadHistory, 64);
  r.storeUint(st.underloadHistory, 64);
  storeCurrencyCollection(st.totalBalance, r);
  storeCurrencyCollection(st.totalValidatorFees, r);
  r.storeBit(0); // libraries:(HashmapE 256 LibDescr), empty
  r.storeBit(st.masterRef !== null);
  if (st.masterRef) storeExtBlkRef(st.masterRef, r);
  b.storeRef(r.endCell());
  b.storeBit(st.custom !== null);
  if (st.custom) b.storeRef(st.custom);
}

/**
 * `_ out_queue:OutMsgQueue proc_info:ProcessedInfo extra:(Maybe OutMsgQueueExtra) = OutMsgQueueInfo` with the
 * queue given as its already written `HashmapAugE 352 EnqueuedMsg uint64` root (null when empty), no processed-upto
 * records and no dispatch queue.
 */
export function storeOutMsgQueueInfo<C>(queue: { root: C; minLt: bigint } | null, b: TlbBuilder<C>): void {
  if (queue) {
    b.storeBit(1);
    b.storeRef(queue.root);
    b.storeUint(queue.minLt, 64);
  } else {
    b.storeBit(0);
    b.storeUint(0, 64);
  }
  b.storeBit(0); // proc_info:(HashmapE 96 ProcessedUpto)
  b.storeBit(0); // extra:(Maybe OutMsgQueueExtra)
}

/** `masterchain_state_extra#cc26` of a chain without key blocks after its zerostate and no block statistics. */
export interface McStateExtraInput<C> {
  shardHashes: ReadonlyArray<ShardHash>;
  configAddr: Uint8Array;
  /** Root of the parameter dictionary (`Hashmap 32 ^Cell`). */
  config: C;
  validatorListHashShort: number;
  catchainSeqno: number;
  /** `prev_blocks:OldMcBlocksInfo` as its already written HashmapAugE 32 (a bit, a reference, the extra). */
  storePrevBlocks: (b: TlbBuilder<C>) => void;
  lastKeyBlock: ExtBlkRef | null;
  globalBalance: CurrencyCollection;
}

export function storeMcStateExtra<C>(e: McStateExtraInput<C>, b: TlbBuilder<C>): void {
  b.storeUint(0xcc26, 16);
  storeShardHashes(e.shardHashes, b);
  b.storeBytes(e.configAddr);
  b.storeRef(e.config);
  const r = b.child();
  r.storeUint(0, 16); // flags: no block_create_stats
  r.storeUint(e.validatorListHashShort, 32);
  r.storeUint(e.catchainSeqno, 32);
  r.storeBit(0); // nx_cc_updated
  e.storePrevBlocks(r);
  r.storeBit(0); // after_key_block
  r.storeBit(e.lastKeyBlock !== null);
  if (e.lastKeyBlock) storeExtBlkRef(e.lastKeyBlock, r);
  b.storeRef(r.endCell());
  storeCurrencyCollection(e.globalBalance, b);
}
