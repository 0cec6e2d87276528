/**
 * Masterchain states for `liteServer.getBlockProof`'s backward links (`liteServer.blockLinkBack`, lite_api.tl): the
 * state after a scaffold masterchain block, whose `prev_blocks` lists the earlier blocks of the scaffold chain, and the
 * Merkle proofs a liteserver serves for a link from a block back to one of them.
 *
 * What is REAL and what is BUILT: a real masterchain block's `state_update` carries the part of the state after it
 * that the block changed (its new side: a `shard_state#9023afe2` root with McStateExtra, the rest pruned). The scaffold
 * state is that real new side of the base block (masterchain block 34974098) with two changes: its `seq_no` is the
 * scaffold block's, and `prev_blocks:OldMcBlocksInfo` (block.tlb `_ (HashmapAugE 32 KeyExtBlkRef KeyMaxLt)`) is a new
 * dictionary written here, with @ton/core and `hml_long` labels throughout, of the given blocks. The scaffold block's
 * `state_update` is a new MERKLE_UPDATE from the real old side to this state (@ton/core checks its hashes and depths).
 *
 * Everything here uses @ton/core, not tonflow's own BOC reader or dictionary code, so the liteserver's proofs are
 * independent of the code under test.
 */
import { type Builder, Cell, beginCell, convertToMerkleProof } from '@ton/core';
import { type ServedBlock, headerProof, prunedBranch } from './blocks.js';

/** `_ key:Bool blk_ref:ExtBlkRef = KeyExtBlkRef` of one earlier masterchain block. */
export interface OldMcBlock {
  seqno: number;
  key: boolean;
  endLt: bigint;
  rootHash: Buffer;
  fileHash: Buffer;
}

export function oldMcBlockOf(b: ServedBlock): OldMcBlock {
  return { seqno: b.seqno, key: b.info.keyBlock, endLt: b.info.endLt, rootHash: b.rootHash, fileHash: b.fileHash };
}

/** Bit `i` (0 = top) of a 32-bit key. */
function bit(key: number, i: number): number {
  return (key >>> (31 - i)) & 1;
}

/** `hml_long$10 {m:#} n:(#<= m) s:(n * Bit) = HmLabel ~n m`. */
function storeLabel(b: Builder, key: number, from: number, len: number, m: number): void {
  b.storeUint(2, 2).storeUint(len, 32 - Math.clz32(m));
  for (let i = 0; i < len; i++) b.storeBit(bit(key, from + i));
}

/**
 * `ahm_edge` of `HashmapAug 32 KeyExtBlkRef KeyMaxLt` for `entries` (sorted by seqno, distinct) below `from` consumed
 * key bits, `m` left: `ahmn_leaf#_ extra:Y value:X` / `ahmn_fork#_ left:^ right:^ extra:Y`, the extra
 * `_ key:Bool max_end_lt:uint64 = KeyMaxLt` (a key block below; the highest end lt below).
 */
function edge(entries: OldMcBlock[], from: number, m: number): { cell: Cell; key: boolean; maxLt: bigint } {
  const b = beginCell();
  if (entries.length === 1) {
    const e = entries[0]!;
    storeLabel(b, e.seqno, from, m, m);
    b.storeBit(e.key).storeUint(e.endLt, 64);
    b.storeBit(e.key).storeUint(e.endLt, 64).storeUint(e.seqno, 32).storeBuffer(e.rootHash, 32).storeBuffer(e.fileHash, 32);
    return { cell: b.endCell(), key: e.key, maxLt: e.endLt };
  }
  const first = entries[0]!.seqno;
  const last = entries[entries.length - 1]!.seqno;
  let l = 0;
  while (bit(first, from + l) === bit(last, from + l)) l++;
  storeLabel(b, first, from, l, m);
  const at = from + l;
  const left = edge(entries.filter((e) => bit(e.seqno, at) === 0), at + 1, m - l - 1);
  const right = edge(entries.filter((e) => bit(e.seqno, at) === 1), at + 1, m - l - 1);
  const key = left.key || right.key;
  const maxLt = left.maxLt > right.maxLt ? left.maxLt : right.maxLt;
  b.storeRef(left.cell).storeRef(right.cell).storeBit(key).storeUint(maxLt, 64);
  return { cell: b.endCell(), key, maxLt };
}

/** The real new side of `base`'s state update: the masterchain state after it, unchanged parts pruned. */
function realState(base: Buffer): Cell {
  return Cell.fromBoc(base)[0]!.refs[2]!.refs[1]!;
}

/** Which ref of McStateExtra is the `^[ flags validator_info prev_blocks … ]` cell: after shard_hashes' (if any) and config's. */
function innerIndex(mcExtra: Cell): number {
  const s = mcExtra.beginParse();
  if (s.loadUint(16) !== 0xcc26) throw new Error('not a McStateExtra');
  return s.loadBit() ? 2 : 1;
}

/** Bits of the inner cell before `prev_blocks`: `flags:(## 16)` and `validator_info$_ uint32 uint32 Bool`. */
const BEFORE_PREV_BLOCKS = 16 + 65;

/**
 * The masterchain state after scaffold block `seqno`: `base`'s real state with that `seq_no` and a `prev_blocks`
 * holding `prevBlocks` (sorted by seqno here).
 */
export function scaffoldMcState(base: Buffer, o: { seqno: number; prevBlocks: OldMcBlock[] }): Cell {
  const state = realState(base);
  const mcExtra = state.refs[3]!;
  const at = innerIndex(mcExtra);
  const inner = mcExtra.refs[at]!;
  const s = inner.beginParse();
  s.skip(BEFORE_PREV_BLOCKS);
  const hadDict = s.loadBit();
  const dict = edge([...o.prevBlocks].sort((a, b) => a.seqno - b.seqno), 0, 32);
  const newInner = beginCell()
    .storeBits(inner.bits.substring(0, BEFORE_PREV_BLOCKS))
    .storeBit(true)
    .storeRef(dict.cell)
    .storeBit(dict.key)
    .storeUint(dict.maxLt, 64)
    .storeBits(inner.bits.substring(BEFORE_PREV_BLOCKS + 1 + 65, inner.bits.length - (BEFORE_PREV_BLOCKS + 1 + 65)));
  inner.refs.slice(hadDict ? 1 : 0).forEach((r) => newInner.storeRef(r));
  const newExtra = beginCell().storeBits(mcExtra.bits);
  mcExtra.refs.forEach((r, i) => newExtra.storeRef(i === at ? newInner.endCell() : r));
  // `shard_state#9023afe2 global_id:int32 shard_id:ShardIdent (104 bits) seq_no:uint32 …`
  const SEQNO_AT = 32 + 32 + 104;
  const root = beginCell()
    .storeBits(state.bits.substring(0, SEQNO_AT))
    .storeUint(o.seqno, 32)
    .storeBits(state.bits.substring(SEQNO_AT + 32, state.bits.length - SEQNO_AT - 32));
  state.refs.forEach((r, i) => root.storeRef(i === 3 ? newExtra.endCell() : r));
  return root.endCell();
}

/** `!merkle_update#04 old_hash new_hash old_depth new_depth old:^X new:^X` from `base`'s real old state to `state`. */
export function stateUpdateTo(base: Buffer, state: Cell): Cell {
  const old = Cell.fromBoc(base)[0]!.refs[2]!.refs[0]!;
  return beginCell()
    .storeUint(4, 8)
    .storeBuffer(old.hash(0), 32)
    .storeBuffer(state.hash(0), 32)
    .storeUint(old.depth(0), 16)
    .storeUint(state.depth(0), 16)
    .storeRef(old)
    .storeRef(state)
    .endCell({ exotic: true });
}

/** The state after masterchain block `b`: the new side of its state update. */
export function stateOf(b: ServedBlock): Cell {
  return Cell.fromBoc(b.data)[0]!.refs[2]!.refs[1]!;
}

/**
 * A pruned branch of a child of a Merkle update inside a Merkle proof: one Merkle level deeper than a plain pruned
 * branch (level mask bit 1 set, plus the cell's own), keeping the cell's hashes and depths below that level, so the
 * update cell above it keeps its hash (tvm.pdf §3.1.4–3.1.6).
 */
function prunedUnderUpdate(c: Cell): Cell {
  const own = c.mask.value & 1;
  const b = beginCell().storeUint(1, 8).storeUint(own | 2, 8);
  b.storeBuffer(c.hash(0), 32);
  if (own) b.storeBuffer(c.hash(1), 32);
  b.storeUint(c.depth(0), 16);
  if (own) b.storeUint(c.depth(1), 16);
  return b.endCell({ exotic: true });
}

/**
 * A backward link's `proof`: MERKLE_PROOF over block `b` keeping BlockInfo and the `state_update` cell (its two
 * sides pruned), value flow and extra pruned: what names the state after `b`.
 */
export function stateRootProof(b: ServedBlock): Buffer {
  const root = Cell.fromBoc(b.data)[0]!;
  const update = root.refs[2]!;
  const keptUpdate = beginCell().storeBits(update.bits).storeRef(prunedUnderUpdate(update.refs[0]!)).storeRef(prunedUnderUpdate(update.refs[1]!)).endCell({ exotic: true });
  const proven = beginCell().storeBits(root.bits).storeRef(root.refs[0]!).storeRef(prunedBranch(root.refs[1]!)).storeRef(keptUpdate).storeRef(prunedBranch(root.refs[3]!)).endCell();
  return convertToMerkleProof(proven).toBoc({ idx: false, crc32: true });
}

function prune(c: Cell): Cell {
  return c.isExotic ? c : prunedBranch(c);
}

/**
 * A backward link's `state_proof`: MERKLE_PROOF over `state` keeping its root, McStateExtra, the inner cell and the
 * whole `prev_blocks` dictionary; every other reference pruned.
 */
export function prevBlocksProof(state: Cell): Buffer {
  const mcExtra = state.refs[3]!;
  const at = innerIndex(mcExtra);
  const inner = mcExtra.refs[at]!;
  const hasDict = inner.beginParse().skip(BEFORE_PREV_BLOCKS).loadBit();
  const keptInner = beginCell().storeBits(inner.bits);
  inner.refs.forEach((r, i) => keptInner.storeRef(hasDict && i === 0 ? r : prune(r)));
  const keptExtra = beginCell().storeBits(mcExtra.bits);
  mcExtra.refs.forEach((r, i) => keptExtra.storeRef(i === at ? keptInner.endCell() : prune(r)));
  const root = beginCell().storeBits(state.bits);
  state.refs.forEach((r, i) => root.storeRef(i === 3 ? keptExtra.endCell() : prune(r)));
  return convertToMerkleProof(root.endCell()).toBoc({ idx: false, crc32: true });
}

/** One `liteServer.blockLinkBack` as a liteserver serves it. */
export interface BackLinkSpec {
  toKeyBlock: boolean;
  from: ServedBlock;
  to: ServedBlock;
  destProof: Buffer;
  proof: Buffer;
  stateProof: Buffer;
}

/** The link from masterchain block `from` back to `to`, which `from`'s state lists (liteserver.cpp `construct_proof_link_back`). */
export function backLink(from: ServedBlock, to: ServedBlock): BackLinkSpec {
  return { toKeyBlock: to.info.keyBlock, from, to, destProof: headerProof(to), proof: stateRootProof(from), stateProof: prevBlocksProof(stateOf(from)) };
}
