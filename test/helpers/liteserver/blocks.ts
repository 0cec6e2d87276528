/**
 * Blocks the loopback liteserver serves: REAL fixture BOCs read from `../shared/fixtures/blocks` (never copied into
 * the repository), keyed by their real ids, and SCAFFOLD blocks built for tests from real cells.
 *
 * Everything here uses @ton/core (Cell.fromBoc, hashing, builders), not tonflow's own BOC reader, so the server's
 * idea of a block's hashes is independent of the code under test.
 *
 * Scaffold blocks exist because the fixtures are not a contiguous chain: no fixture masterchain block commits a
 * fixture shard block. A scaffold block is a NEW root cell whose BlockInfo (seqno, shard, prev refs, split/merge
 * flags) and, for a masterchain block, McBlockExtra (ShardHashes) are written by the test, while its value flow,
 * state update and message/account dictionaries are the real cells of a real fixture block. Its hashes are those of
 * the new cells, so a liteserver client verifies it like any other block.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { type Builder, Cell, Dictionary, beginCell, convertToMerkleProof } from '@ton/core';

/** A block as the server keeps it. */
export interface ServedBlock {
  workchain: number;
  /** Unsigned 64-bit shard id with tag bit. */
  shard: bigint;
  seqno: number;
  rootHash: Buffer;
  /** sha256 of `data` (for a fixture: of the file, which may differ from the on-chain file hash, see MANIFEST.md). */
  fileHash: Buffer;
  data: Buffer;
  info: HeaderInfo;
  /** `fixture:<file name>` for real bytes, `scaffold:<what>` for a block built by a test. */
  origin: string;
}

/** `ext_blk_ref$_ end_lt:uint64 seq_no:uint32 root_hash:bits256 file_hash:bits256 = ExtBlkRef`. */
export interface ExtRef {
  endLt: bigint;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

/** BlockInfo (block.tlb `block_info#9bc7a987`), every field, so that a scaffold can rewrite some and keep the rest. */
export interface HeaderInfo {
  version: number;
  notMaster: boolean;
  afterMerge: boolean;
  beforeSplit: boolean;
  afterSplit: boolean;
  wantSplit: boolean;
  wantMerge: boolean;
  keyBlock: boolean;
  flags: number;
  seqno: number;
  vertSeqno: number;
  workchain: number;
  shard: bigint;
  genUtime: number;
  startLt: bigint;
  endLt: bigint;
  genValidatorListHashShort: number;
  genCatchainSeqno: number;
  minRefMcSeqno: number;
  prevKeyBlockSeqno: number;
  genSoftware: { version: number; capabilities: bigint } | null;
  masterRef: ExtRef | null;
  /** One ref, or two after a merge (prev1 = left child, prev2 = right child). */
  prev: ExtRef[];
}

export const MC_SHARD = 0x8000000000000000n;

export function blockKey(b: { workchain: number; shard: bigint; seqno: number }): string {
  return `${b.workchain}:${b.shard.toString(16).toUpperCase()}:${b.seqno}`;
}

function loadExtRef(c: Cell): ExtRef {
  const s = c.beginParse();
  return { endLt: s.loadUintBig(64), seqno: s.loadUint(32), rootHash: s.loadBuffer(32), fileHash: s.loadBuffer(32) };
}

function storeExtRef(r: ExtRef): Cell {
  return beginCell().storeUint(r.endLt, 64).storeUint(r.seqno, 32).storeBuffer(r.rootHash, 32).storeBuffer(r.fileHash, 32).endCell();
}

/** Reads BlockInfo from a block root (ref 0). vert_seqno_incr blocks are not supported (none are needed). */
export function readHeader(root: Cell): HeaderInfo {
  const s = root.refs[0]!.beginParse();
  if (s.loadUint(32) !== 0x9bc7a987) throw new Error('not a BlockInfo');
  const version = s.loadUint(32);
  const notMaster = s.loadBit();
  const afterMerge = s.loadBit();
  const beforeSplit = s.loadBit();
  const afterSplit = s.loadBit();
  const wantSplit = s.loadBit();
  const wantMerge = s.loadBit();
  const keyBlock = s.loadBit();
  const vertSeqnoIncr = s.loadBit();
  if (vertSeqnoIncr) throw new Error('vert_seqno_incr blocks are not supported by the scaffold');
  const flags = s.loadUint(8);
  const seqno = s.loadUint(32);
  const vertSeqno = s.loadUint(32);
  s.loadUint(2);
  const pfxBits = s.loadUint(6);
  const workchain = s.loadInt(32);
  const prefix = s.loadUintBig(64);
  const tag = 1n << BigInt(63 - pfxBits);
  const shard = (prefix & ~(tag * 2n - 1n) & 0xffffffffffffffffn) | tag;
  const genUtime = s.loadUint(32);
  const startLt = s.loadUintBig(64);
  const endLt = s.loadUintBig(64);
  const genValidatorListHashShort = s.loadUint(32);
  const genCatchainSeqno = s.loadUint(32);
  const minRefMcSeqno = s.loadUint(32);
  const prevKeyBlockSeqno = s.loadUint(32);
  let genSoftware: HeaderInfo['genSoftware'] = null;
  if (flags & 1) {
    if (s.loadUint(8) !== 0xc4) throw new Error('bad GlobalVersion');
    genSoftware = { version: s.loadUint(32), capabilities: s.loadUintBig(64) };
  }
  const masterRef = notMaster ? loadExtRef(s.loadRef()) : null;
  const prevCell = s.loadRef();
  const prev = afterMerge ? [loadExtRef(prevCell.refs[0]!), loadExtRef(prevCell.refs[1]!)] : [loadExtRef(prevCell)];
  return {
    version,
    notMaster,
    afterMerge,
    beforeSplit,
    afterSplit,
    wantSplit,
    wantMerge,
    keyBlock,
    flags,
    seqno,
    vertSeqno,
    workchain,
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
    prev,
  };
}

export function writeHeader(h: HeaderInfo): Cell {
  const tag = h.shard & -h.shard;
  let pfxBits = 63;
  while (1n << BigInt(63 - pfxBits) !== tag) pfxBits--;
  const b = beginCell()
    .storeUint(0x9bc7a987, 32)
    .storeUint(h.version, 32)
    .storeBit(h.notMaster)
    .storeBit(h.afterMerge)
    .storeBit(h.beforeSplit)
    .storeBit(h.afterSplit)
    .storeBit(h.wantSplit)
    .storeBit(h.wantMerge)
    .storeBit(h.keyBlock)
    .storeBit(false)
    .storeUint(h.flags, 8)
    .storeUint(h.seqno, 32)
    .storeUint(h.vertSeqno, 32)
    .storeUint(0, 2)
    .storeUint(pfxBits, 6)
    .storeInt(h.workchain, 32)
    .storeUint(h.shard ^ tag, 64)
    .storeUint(h.genUtime, 32)
    .storeUint(h.startLt, 64)
    .storeUint(h.endLt, 64)
    .storeUint(h.genValidatorListHashShort, 32)
    .storeUint(h.genCatchainSeqno, 32)
    .storeUint(h.minRefMcSeqno, 32)
    .storeUint(h.prevKeyBlockSeqno, 32);
  if (h.flags & 1) b.storeUint(0xc4, 8).storeUint(h.genSoftware!.version, 32).storeUint(h.genSoftware!.capabilities, 64);
  if (h.notMaster) b.storeRef(storeExtRef(h.masterRef!));
  const afterMerge = h.prev.length === 2;
  if (afterMerge !== h.afterMerge) throw new Error('after_merge needs exactly two prev refs');
  b.storeRef(afterMerge ? beginCell().storeRef(storeExtRef(h.prev[0]!)).storeRef(storeExtRef(h.prev[1]!)).endCell() : storeExtRef(h.prev[0]!));
  return b.endCell();
}

/** A served block from BOC bytes: ids from the bytes themselves (root hash of the root cell, sha256 of the bytes). */
export function servedBlock(data: Buffer, origin: string): ServedBlock {
  const root = Cell.fromBoc(data)[0]!;
  const info = readHeader(root);
  return {
    workchain: info.workchain,
    shard: info.shard,
    seqno: info.seqno,
    rootHash: root.hash(),
    fileHash: createHash('sha256').update(data).digest(),
    data,
    info,
    origin,
  };
}

/** Every `*.boc` of a fixture block directory, as real served blocks. */
export function loadFixtureBlocks(dir: string): ServedBlock[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.boc'))
    .sort()
    .map((f) => servedBlock(readFileSync(path.join(dir, f)), `fixture:${f}`));
}

export function extRefOf(b: ServedBlock): ExtRef {
  return { endLt: b.info.endLt, seqno: b.seqno, rootHash: b.rootHash, fileHash: b.fileHash };
}

/** What a masterchain block says about one shard's newest block (the ShardDescr fields a client reads). */
export interface ShardTipSpec {
  workchain: number;
  shard: bigint;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
  startLt?: bigint;
  endLt?: bigint;
  genUtime?: number;
}

export function tipOf(b: ServedBlock): ShardTipSpec {
  return { workchain: b.workchain, shard: b.shard, seqno: b.seqno, rootHash: b.rootHash, fileHash: b.fileHash, startLt: b.info.startLt, endLt: b.info.endLt, genUtime: b.info.genUtime };
}

/** `shard_descr#b` (fees inline) as a `bt_leaf$0` of the ShardHashes BinTree. */
function storeLeaf(b: Builder, t: ShardTipSpec, mcSeqno: number): void {
  b.storeBit(false)
    .storeUint(0xb, 4)
    .storeUint(t.seqno, 32)
    .storeUint(mcSeqno, 32)
    .storeUint(t.startLt ?? 0n, 64)
    .storeUint(t.endLt ?? 0n, 64)
    .storeBuffer(t.rootHash, 32)
    .storeBuffer(t.fileHash, 32)
    .storeUint(0, 5) // before_split before_merge want_split want_merge nx_cc_updated
    .storeUint(0, 3) // flags
    .storeUint(0, 32) // next_catchain_seqno
    .storeUint(t.shard, 64) // next_validator_shard
    .storeUint(0, 32) // min_ref_mc_seqno
    .storeUint(t.genUtime ?? 0, 32)
    .storeBit(false) // fsm_none$0
    .storeCoins(0n)
    .storeBit(false) // fees_collected
    .storeCoins(0n)
    .storeBit(false); // funds_created
}

/** The BinTree of one workchain: `bt_leaf$0 leaf:X` / `bt_fork$1 left:^(BinTree X) right:^(BinTree X)`. */
function binTree(tips: ShardTipSpec[], node: bigint, mcSeqno: number): Cell {
  const leaf = tips.find((t) => t.shard === node);
  if (leaf) {
    const b = beginCell();
    storeLeaf(b, leaf, mcSeqno);
    return b.endCell();
  }
  const tag = node & -node;
  if (tag === 1n || !tips.some((t) => t.shard !== node && (t.shard & -t.shard) < tag && t.shard >= node - tag && t.shard < node + tag)) {
    throw new Error(`shard set does not cover ${node.toString(16)}`);
  }
  const half = tag >> 1n;
  return beginCell()
    .storeBit(true)
    .storeRef(binTree(tips, node - half, mcSeqno))
    .storeRef(binTree(tips, node + half, mcSeqno))
    .endCell();
}

function reserialize(root: Cell, origin: string): ServedBlock {
  return servedBlock(root.toBoc({ idx: false, crc32: true }), origin);
}

export interface ScaffoldMcOptions {
  seqno: number;
  /** The previous masterchain block (for the first of a chain: an id that is never served). */
  prev: ExtRef;
  /** The shard tips this block commits: one partition of each workchain's shard space. */
  shards: ShardTipSpec[];
  genUtime: number;
  startLt: bigint;
  endLt: bigint;
  label: string;
  /** The block's `state_update` (a MERKLE_UPDATE cell, mc-state.ts); default: `base`'s real one. */
  stateUpdate?: Cell;
}

/**
 * A scaffold masterchain block: a new Block root, BlockInfo and McBlockExtra (non-key, the given ShardHashes, empty
 * ShardFees and signatures) over the real value flow, state update (unless `stateUpdate` replaces it) and
 * message/account dictionaries of `base`, a real masterchain block.
 */
export function scaffoldMcBlock(base: Buffer, o: ScaffoldMcOptions): ServedBlock {
  const root = Cell.fromBoc(base)[0]!;
  const h = readHeader(root);
  if (h.workchain !== -1) throw new Error('scaffoldMcBlock needs a masterchain base block');
  const info = writeHeader({ ...h, seqno: o.seqno, keyBlock: false, afterMerge: false, beforeSplit: false, afterSplit: false, prev: [o.prev], genUtime: o.genUtime, startLt: o.startLt, endLt: o.endLt, minRefMcSeqno: o.seqno - 1 });
  const hashes = Dictionary.empty(Dictionary.Keys.Int(32), Dictionary.Values.Cell());
  for (const wc of [...new Set(o.shards.map((t) => t.workchain))]) {
    hashes.set(wc, binTree(o.shards.filter((t) => t.workchain === wc), MC_SHARD, o.seqno));
  }
  const mcExtra = beginCell()
    .storeUint(0xcca5, 16)
    .storeBit(false) // key_block
    .storeDict(hashes)
    .storeBit(false) // ShardFees: ahme_empty$0, then its extra (ShardFeeCreated: two zero CurrencyCollections)
    .storeCoins(0n)
    .storeBit(false)
    .storeCoins(0n)
    .storeBit(false)
    .storeRef(beginCell().storeBit(false).storeBit(false).storeBit(false)) // no signatures, recover or mint msg
    .endCell();
  const extra = root.refs[3]!.beginParse();
  if (extra.loadUint(32) !== 0x4a33f6fd) throw new Error('not a BlockExtra');
  const newExtra = beginCell()
    .storeUint(0x4a33f6fd, 32)
    .storeRef(extra.loadRef())
    .storeRef(extra.loadRef())
    .storeRef(extra.loadRef())
    .storeBuffer(extra.loadBuffer(32), 32)
    .storeBuffer(extra.loadBuffer(32), 32)
    .storeMaybeRef(mcExtra)
    .endCell();
  const s = root.beginParse();
  const newRoot = beginCell()
    .storeUint(s.loadUint(32), 32)
    .storeInt(s.loadInt(32), 32)
    .storeRef(info)
    .storeRef(root.refs[1]!)
    .storeRef(o.stateUpdate ?? root.refs[2]!)
    .storeRef(newExtra)
    .endCell();
  return reserialize(newRoot, `scaffold:${o.label}`);
}

export interface ScaffoldShardOptions {
  workchain: number;
  shard: bigint;
  seqno: number;
  /** One prev ref, or two for a merge (left child's block first). */
  prev: ExtRef[];
  afterSplit?: boolean;
  beforeSplit?: boolean;
  masterRef: ExtRef;
  genUtime: number;
  startLt: bigint;
  endLt: bigint;
  label: string;
}

/** A scaffold shard block: new root and BlockInfo over the real value flow, state update and extra of `base`. */
export function scaffoldShardBlock(base: Buffer, o: ScaffoldShardOptions): ServedBlock {
  const root = Cell.fromBoc(base)[0]!;
  const h = readHeader(root);
  if (h.workchain === -1) throw new Error('scaffoldShardBlock needs a shard base block');
  const info = writeHeader({
    ...h,
    workchain: o.workchain,
    shard: o.shard,
    seqno: o.seqno,
    afterMerge: o.prev.length === 2,
    afterSplit: o.afterSplit ?? false,
    beforeSplit: o.beforeSplit ?? false,
    wantMerge: false,
    wantSplit: false,
    prev: o.prev,
    masterRef: o.masterRef,
    genUtime: o.genUtime,
    startLt: o.startLt,
    endLt: o.endLt,
  });
  const s = root.beginParse();
  const newRoot = beginCell()
    .storeUint(s.loadUint(32), 32)
    .storeInt(s.loadInt(32), 32)
    .storeRef(info)
    .storeRef(root.refs[1]!)
    .storeRef(root.refs[2]!)
    .storeRef(root.refs[3]!)
    .endCell();
  return reserialize(newRoot, `scaffold:${o.label}`);
}

/** The ShardHashes of a masterchain block as `getAllShardsInfo` returns them: a cell holding the HashmapE. */
export function shardHashesCell(b: ServedBlock): Cell {
  const root = Cell.fromBoc(b.data)[0]!;
  const extra = root.refs[3]!.beginParse();
  extra.loadUint(32);
  extra.loadRef();
  extra.loadRef();
  extra.loadRef();
  extra.skip(512);
  const mc = extra.loadMaybeRef();
  if (!mc) throw new Error('not a masterchain block');
  const s = mc.beginParse();
  s.skip(17);
  return beginCell().storeMaybeRef(s.loadMaybeRef()).endCell();
}

/** Hash of the state after the block: `new_hash` of the MERKLE_UPDATE in `state_update` (tvm.pdf §3.1). */
export function stateRootHash(b: ServedBlock): Buffer {
  const update = Cell.fromBoc(b.data)[0]!.refs[2]!;
  const s = update.beginParse(true);
  s.skip(8 + 256);
  return s.loadBuffer(32);
}

export function prunedBranch(c: Cell): Cell {
  return beginCell().storeUint(1, 8).storeUint(1, 8).storeBuffer(c.hash(0), 32).storeUint(c.depth(0), 16).endCell({ exotic: true });
}

/** A header proof: MERKLE_PROOF over the block with BlockInfo kept and the other three refs pruned. */
export function headerProof(b: ServedBlock): Buffer {
  const root = Cell.fromBoc(b.data)[0]!;
  const proven = beginCell()
    .storeBits(root.bits)
    .storeRef(root.refs[0]!)
    .storeRef(prunedBranch(root.refs[1]!))
    .storeRef(prunedBranch(root.refs[2]!))
    .storeRef(prunedBranch(root.refs[3]!))
    .endCell();
  return convertToMerkleProof(proven).toBoc({ idx: false, crc32: true });
}

/** `_ (HashmapE 32 ^(BinTree ShardDescr)) = ShardHashes` of a masterchain block: every top block it names. */
export function shardTops(mc: ServedBlock): Array<{ workchain: number; shard: bigint; seqno: number; rootHash: Buffer; fileHash: Buffer }> {
  const dict = shardHashesCell(mc).beginParse().loadMaybeRef();
  if (!dict) return [];
  const out: Array<{ workchain: number; shard: bigint; seqno: number; rootHash: Buffer; fileHash: Buffer }> = [];
  const byWc = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), dict.beginParse());
  for (const [workchain, tree] of byWc) {
    const walk = (c: Cell, prefix: bigint, depth: number): void => {
      const sl = c.beginParse();
      if (sl.loadBit()) {
        walk(sl.loadRef(), prefix, depth + 1);
        walk(sl.loadRef(), prefix | (1n << BigInt(63 - depth)), depth + 1);
        return;
      }
      // `shard_descr#b`/`#a seq_no:uint32 reg_mc_seqno:uint32 start_lt:uint64 end_lt:uint64 root_hash:bits256 file_hash:bits256 …`
      sl.skip(4);
      const seqno = sl.loadUint(32);
      sl.skip(32 + 64 + 64);
      out.push({ workchain, shard: prefix | (1n << BigInt(63 - depth)), seqno, rootHash: sl.loadBuffer(32), fileHash: sl.loadBuffer(32) });
    };
    walk(tree, 0n, 0);
  }
  return out;
}

/**
 * A masterchain block proof for `liteServer.getShardBlockProof`'s first link: MERKLE_PROOF over the block with
 * BlockInfo and McBlockExtra (its ShardHashes) kept, value flow, state update and the extra's dictionaries pruned.
 */
export function mcShardsProof(b: ServedBlock): Buffer {
  const root = Cell.fromBoc(b.data)[0]!;
  const extra = root.refs[3]!;
  const keptExtra = beginCell()
    .storeBits(extra.bits)
    .storeRef(prunedBranch(extra.refs[0]!))
    .storeRef(prunedBranch(extra.refs[1]!))
    .storeRef(prunedBranch(extra.refs[2]!))
    .storeRef(extra.refs[3]!)
    .endCell();
  const proven = beginCell()
    .storeBits(root.bits)
    .storeRef(root.refs[0]!)
    .storeRef(prunedBranch(root.refs[1]!))
    .storeRef(prunedBranch(root.refs[2]!))
    .storeRef(keptExtra)
    .endCell();
  return convertToMerkleProof(proven).toBoc({ idx: false, crc32: true });
}

/** The ids of a block's previous blocks with their shards (block.tlb BlkPrevInfo; after a merge, left then right). */
export function prevIds(b: ServedBlock): Array<{ workchain: number; shard: bigint; seqno: number; rootHash: Buffer; fileHash: Buffer }> {
  const tag = b.shard & -b.shard;
  const shards = b.info.afterMerge ? [b.shard - (tag >> 1n), b.shard + (tag >> 1n)] : [b.info.afterSplit ? (b.shard & ~((tag << 2n) - 1n)) | (tag << 1n) : b.shard];
  return b.info.prev.map((p, i) => ({ workchain: b.workchain, shard: shards[i]!, seqno: p.seqno, rootHash: p.rootHash, fileHash: p.fileHash }));
}
