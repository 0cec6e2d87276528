import { grams } from '../../ton/tlb/CurrencyCollection.js';
import { type ExtBlkRef, storeExtBlkRef } from '../../ton/tlb/ExtBlkRef.js';
import type { ShardDescr } from '../../ton/tlb/ShardDescr.js';
import { storeDepthBalanceInfo, storeMcStateExtra, storeOutMsgQueueInfo, storeShardState } from '../../ton/tlb/ShardState.js';
import { shardIdent } from '../../ton/tlb/ShardIdent.js';
import { type DCell, DBuilder, type DSlice } from './cell.js';
import { loadCurrency, readAccount, readMsgInfo } from './tlb.js';
import { PersistentTrie, type TrieSpec } from './trie.js';

/**
 * The shard states the devnet keeps (block.tlb `shard_state#9023afe2`): accounts, out-message queue and, for the
 * masterchain, McStateExtra. Each block's Merkle update goes from one of these to the next.
 */

/** One account of `ShardAccounts`: its ShardAccount cell (as the emulator returns it) and its augmentation. */
export interface AccountEntry {
  sa: DCell;
  /** The same cell as a base64 BOC, kept from the emulator so it is not serialized again for the next run. */
  b64: string | null;
  balance: bigint;
  splitDepth: number;
}

export interface DepthBalance {
  splitDepth: number;
  balance: bigint;
}

/** `_ (HashmapAugE 256 ShardAccount DepthBalanceInfo) = ShardAccounts` (crypto/block/block.cpp Aug_ShardAccounts). */
export const ACCOUNTS_SPEC: TrieSpec<AccountEntry, DepthBalance> = {
  bits: 256,
  storeValue: (v, b) => b.storeCellContent(v.sa),
  loadValue: (s) => {
    const b = new DBuilder();
    b.storeSlice(s);
    const sa = b.endCell();
    const a = readAccount(sa.refs[0]!);
    return { sa, b64: null, balance: a.balance, splitDepth: a.splitDepth };
  },
  aug: {
    leaf: (v) => ({ splitDepth: v.splitDepth, balance: v.balance }),
    fork: (l, r) => ({ splitDepth: Math.max(l.splitDepth, r.splitDepth), balance: l.balance + r.balance }),
    empty: { splitDepth: 0, balance: 0n },
    store: (y, b) => storeDepthBalanceInfo({ splitDepth: y.splitDepth, balance: grams(y.balance) }, b),
    load: (s) => ({ splitDepth: s.loadUint(5), balance: loadCurrency(s).grams }),
  },
};

export function accountEntry(sa: DCell, b64: string | null): AccountEntry {
  const a = readAccount(sa.refs[0]!);
  return { sa, b64, balance: a.balance, splitDepth: a.splitDepth };
}

/** `_ enqueued_lt:uint64 out_msg:^MsgEnvelope = EnqueuedMsg`, with the created lt of its message. */
export interface QueueEntry {
  enqueuedLt: bigint;
  envelope: DCell;
  createdLt: bigint;
}

/** `_ (HashmapAugE 352 EnqueuedMsg uint64) = OutMsgQueue`: augmented by the smallest created lt (Aug_OutMsgQueue). */
export const QUEUE_SPEC: TrieSpec<QueueEntry, bigint> = {
  bits: 352,
  storeValue: (v, b) => {
    b.storeUint(v.enqueuedLt, 64);
    b.storeRef(v.envelope);
  },
  loadValue: (s) => {
    const enqueuedLt = s.loadUintBig(64);
    const envelope = s.loadRef();
    const info = readMsgInfo(envelope.refs[0]!);
    return { enqueuedLt, envelope, createdLt: info.kind === 'ext-in' ? 0n : info.createdLt };
  },
  aug: {
    leaf: (v) => v.createdLt,
    fork: (l, r) => (l < r ? l : r),
    empty: 0n,
    store: (y, b) => b.storeUint(y, 64),
    load: (s) => s.loadUintBig(64),
  },
};

/** The queue key: next-hop workchain (int32), the first 64 bits of the destination, the message hash. */
export function queueKey(workchain: number, dest: Uint8Array, msgHash: Uint8Array): Uint8Array {
  const k = new Uint8Array(44);
  new DataView(k.buffer).setInt32(0, workchain);
  k.set(dest.subarray(0, 8), 4);
  k.set(msgHash, 12);
  return k;
}

/** `_ key:Bool blk_ref:ExtBlkRef = KeyExtBlkRef` of `OldMcBlocksInfo`. */
export interface PrevBlock {
  key: boolean;
  ref: ExtBlkRef;
}

/** `_ (HashmapAugE 32 KeyExtBlkRef KeyMaxLt) = OldMcBlocksInfo`, augmented by `key:Bool max_end_lt:uint64`. */
export const PREV_BLOCKS_SPEC: TrieSpec<PrevBlock, { key: boolean; maxEndLt: bigint }> = {
  bits: 32,
  storeValue: (v, b) => {
    b.storeBit(v.key);
    storeExtBlkRef(v.ref, b);
  },
  loadValue: (s) => ({
    key: s.loadBit(),
    ref: { endLt: s.loadUintBig(64), seqno: s.loadUint(32), rootHash: s.loadBytes(32), fileHash: s.loadBytes(32) },
  }),
  aug: {
    leaf: (v) => ({ key: v.key, maxEndLt: v.ref.endLt }),
    fork: (l, r) => ({ key: l.key || r.key, maxEndLt: l.maxEndLt > r.maxEndLt ? l.maxEndLt : r.maxEndLt }),
    empty: { key: false, maxEndLt: 0n },
    store: (y, b) => {
      b.storeBit(y.key);
      b.storeUint(y.maxEndLt, 64);
    },
    load: (s: DSlice) => ({ key: s.loadBit(), maxEndLt: s.loadUintBig(64) }),
  },
};

/** Everything of a shard state that is not a dictionary, plus the dictionaries themselves. */
export interface ShardStateParts {
  globalId: number;
  workchain: number;
  seqno: number;
  genUtime: number;
  genLt: bigint;
  minRefMcSeqno: number;
  accounts: PersistentTrie<AccountEntry, DepthBalance>;
  queue: PersistentTrie<QueueEntry, bigint>;
  totalValidatorFees: bigint;
  masterRef: ExtBlkRef | null;
  /** Masterchain only. */
  mc: McStateParts | null;
}

export interface McStateParts {
  shardHashes: Array<{ workchain: number; shard: bigint; descr: ShardDescr }>;
  configAddr: Uint8Array;
  config: DCell;
  prevBlocks: PersistentTrie<PrevBlock, { key: boolean; maxEndLt: bigint }>;
  lastKeyBlock: ExtBlkRef | null;
  globalBalance: bigint;
}

export const SHARD_ALL = 0x8000000000000000n;

/** Serializes a state (only changed dictionary paths are rebuilt: the tries cache their cells). */
export function buildShardState(p: ShardStateParts): DCell {
  const queueInfo = new DBuilder();
  const qRoot = p.queue.rootCell();
  storeOutMsgQueueInfo(qRoot ? { root: qRoot, minLt: p.queue.extra } : null, queueInfo);
  const accounts = new DBuilder();
  p.accounts.storeE(accounts);
  let custom: DCell | null = null;
  if (p.mc) {
    const mc = p.mc;
    const b = new DBuilder();
    storeMcStateExtra(
      {
        shardHashes: mc.shardHashes,
        configAddr: mc.configAddr,
        config: mc.config,
        validatorListHashShort: 0,
        catchainSeqno: 0,
        storePrevBlocks: (r) => mc.prevBlocks.storeE(r as DBuilder),
        lastKeyBlock: mc.lastKeyBlock,
        globalBalance: grams(mc.globalBalance),
      },
      b,
    );
    custom = b.endCell();
  }
  const b = new DBuilder();
  storeShardState(
    {
      globalId: p.globalId,
      shard: shardIdent(p.workchain, SHARD_ALL),
      seqno: p.seqno,
      vertSeqno: 0,
      genUtime: p.genUtime,
      genLt: p.genLt,
      minRefMcSeqno: p.minRefMcSeqno,
      outMsgQueueInfo: queueInfo.endCell(),
      beforeSplit: false,
      accounts: accounts.endCell(),
      overloadHistory: 0n,
      underloadHistory: 0n,
      totalBalance: grams(p.accounts.extra.balance),
      totalValidatorFees: grams(p.totalValidatorFees),
      masterRef: p.masterRef,
      custom,
    },
    b,
  );
  return b.endCell();
}

/**
 * Reads the dictionaries and totals back from a state cell (on restart): the tries reuse the stored cells, so the
 * next block rebuilds only what it changes.
 */
export function loadShardStateParts(root: DCell, globalId: number, workchain: number): ShardStateParts {
  const s = root.beginParse();
  if (s.loadUint(32) !== 0x9023afe2) throw new Error('not a shard_state');
  s.skip(32 + 104);
  const seqno = s.loadUint(32);
  s.skip(32);
  const genUtime = s.loadUint(32);
  const genLt = s.loadUintBig(64);
  const minRefMcSeqno = s.loadUint(32);
  const queueInfo = s.loadRef().beginParse();
  const queue = PersistentTrie.load(QUEUE_SPEC, queueInfo);
  s.skip(1);
  const accounts = PersistentTrie.load(ACCOUNTS_SPEC, s.loadRef().beginParse());
  const r = s.loadRef().beginParse();
  r.skip(128);
  loadCurrency(r);
  const totalValidatorFees = loadCurrency(r).grams;
  r.skip(1);
  const masterRef = r.loadBit() ? { endLt: r.loadUintBig(64), seqno: r.loadUint(32), rootHash: r.loadBytes(32), fileHash: r.loadBytes(32) } : null;
  const customCell = s.loadMaybeRef();
  let mc: McStateParts | null = null;
  if (customCell) {
    const c = customCell.beginParse();
    c.skip(16);
    c.loadMaybeRef(); // shard_hashes: the chain keeps the tip descriptors in its metadata
    const configAddr = c.loadBytes(32);
    const config = c.loadRef();
    const x = c.loadRef().beginParse();
    x.skip(16 + 65);
    const prevBlocks = PersistentTrie.load(PREV_BLOCKS_SPEC, x);
    x.skip(1);
    const lastKeyBlock = x.loadBit() ? { endLt: x.loadUintBig(64), seqno: x.loadUint(32), rootHash: x.loadBytes(32), fileHash: x.loadBytes(32) } : null;
    const globalBalance = loadCurrency(c).grams;
    mc = { shardHashes: [], configAddr, config, prevBlocks, lastKeyBlock, globalBalance };
  }
  return { globalId, workchain, seqno, genUtime, genLt, minRefMcSeqno, accounts, queue, totalValidatorFees, masterRef, mc };
}
