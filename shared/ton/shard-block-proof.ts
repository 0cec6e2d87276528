import { NonRetryableError } from '../runtime/errors.js';
import { Boc } from './boc/reader.js';
import { Slice } from './boc/slice.js';
import { loadBlockInfo } from './tlb/BlockInfo.js';
import { PRUNED, keyFromInt, lookupHashmapAugEProven } from './tlb/Hashmap.js';
import { loadShardDescr } from './tlb/ShardDescr.js';
import { shardId } from './tlb/ShardIdent.js';

/**
 * Checks a liteserver's `liteServer.shardBlockProof masterchain_id links:(vector liteServer.shardBlockLink)`
 * (lite_api.tl) as tonlib's `blocks.getShardBlockProof` does (TonlibClient.cpp, GetShardBlockProof): a chain of at
 * most 8 links from the masterchain block `masterchain_id` down to the asked shard block. Link i carries the id of
 * a block and a Merkle proof (tvm.pdf §3.1.7, exotic type 3) of the block before it in the chain (link 0: of the
 * masterchain block) that names it:
 *
 * - a masterchain block names the shard block as its shard's top block: `block … extra:^BlockExtra`,
 *   `BlockExtra … custom:(Maybe ^McBlockExtra)`, `masterchain_block_extra#cca5 key_block:(## 1)
 *   shard_hashes:ShardHashes …`, `_ (HashmapE 32 ^(BinTree ShardDescr)) = ShardHashes` (block.tlb): the leaf of the
 *   link's shard must hold its seqno, root hash and file hash;
 * - a shard block names it as one of its previous blocks: `block_info#9bc7a987 … prev_ref:^(BlkPrevInfo after_merge)`.
 *
 * Every proof's virtual root must hash to the root hash of the block it proves (the previous link's id; the
 * masterchain block's for the first), and the last link's id must be the asked block, hashes included.
 */

/** A proof that does not prove what it claims: the liteserver served bad bytes. */
export class BlockProofError extends NonRetryableError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('BLOCK_PROOF_INVALID', message, options);
  }
}

export interface ProofBlockIdExt {
  workchain: number;
  /** 64-bit shard id with tag bit. */
  shard: bigint;
  seqno: number;
  rootHash: Uint8Array;
  fileHash: Uint8Array;
}

/** tonlib refuses longer chains ("chain is too long"). */
export const MAX_SHARD_PROOF_LINKS = 8;

const MERKLE_PROOF = 3;
/** The masterchain's one shard, `shard:int64` 0x8000000000000000 (ShardIdent with shard_pfx_bits 0). */
export const MC_SHARD = 1n << 63n;

/**
 * `liteServer.partialBlockProof complete:Bool from:tonNode.blockIdExt to:tonNode.blockIdExt
 * steps:(vector liteServer.BlockLink)` (lite_api.tl), each step a `blockLinkForward` or a `blockLinkBack` in the form
 * its checker reads (block-signatures.ts forward, mc-back-proof.ts backward).
 */
export interface PartialBlockProof<Forward = unknown, Backward = unknown> {
  complete: boolean;
  from: ProofBlockIdExt;
  to: ProofBlockIdExt;
  steps: ReadonlyArray<{ forward: Forward } | { backward: Backward }>;
}

/** Checks `links` from masterchain block `mc` down to `target`. Throws {@link BlockProofError}. */
export function verifyShardBlockProof(mc: ProofBlockIdExt, links: ReadonlyArray<{ id: ProofBlockIdExt; proof: Uint8Array }>, target: ProofBlockIdExt): void {
  if (mc.workchain !== -1 || mc.shard !== MC_SHARD) throw new BlockProofError(`the proof starts at ${describe(mc)}, not a masterchain block`);
  if (links.length > MAX_SHARD_PROOF_LINKS) throw new BlockProofError(`the proof chain has ${links.length} links, more than ${MAX_SHARD_PROOF_LINKS}`);
  let cur = mc;
  links.forEach((link, i) => {
    const what = `link ${i} (${describe(link.id)}, proven by ${describe(cur)})`;
    try {
      const { boc, root } = virtualRoot(link.proof);
      if (!equal(boc.hashAt(root, 0), cur.rootHash)) throw new BlockProofError(`the proof is of block ${hex(boc.hashAt(root, 0))}, not ${hex(cur.rootHash)}`);
      const block = new Slice(boc, root);
      if (block.loadUint(32) !== 0x11ef55aa) throw new BlockProofError('the proven cell is not a block#11ef55aa');
      block.loadInt(32);
      const infoCell = notPruned(boc, block.loadRef(), 'BlockInfo');
      if (cur.workchain === -1) {
        block.loadRef();
        block.loadRef();
        const named = shardTop(boc, notPruned(boc, block.loadRef(), 'BlockExtra'), link.id);
        if (named.seqno !== link.id.seqno || !equal(named.rootHash, link.id.rootHash) || !equal(named.fileHash, link.id.fileHash)) {
          throw new BlockProofError(`the masterchain block's top block of the shard is seqno ${named.seqno} (${hex(named.rootHash)}), not ${hex(link.id.rootHash)}`);
        }
      } else {
        const info = loadBlockInfo(new Slice(boc, infoCell));
        if (info.shard.workchain !== cur.workchain || shardId(info.shard) !== cur.shard || info.seqno !== cur.seqno) {
          throw new BlockProofError(`the proven block's header names (${info.shard.workchain},${shardId(info.shard).toString(16)},${info.seqno})`);
        }
        if (!prevIds(info).some((p) => sameId(p, link.id))) throw new BlockProofError('the block is not one of the proven block\'s previous blocks');
      }
    } catch (e) {
      if (e instanceof BlockProofError) throw new BlockProofError(`${what}: ${e.message}`, { cause: e });
      throw new BlockProofError(`${what}: ${(e as Error).message}`, { cause: e });
    }
    cur = link.id;
  });
  if (!sameId(cur, target)) throw new BlockProofError(`the proof chain ends at ${describe(cur)} (${hex(cur.rootHash)}), not at ${describe(target)} (${hex(target.rootHash)})`);
}

/** The child of the single MERKLE_PROOF root of a proof BOC, every stored hash checked (a forged one fails here). */
export function virtualRoot(proof: Uint8Array): { boc: Boc; root: number } {
  let boc: Boc;
  try {
    boc = Boc.parse(proof);
    boc.hashAll();
  } catch (e) {
    throw new BlockProofError(`the proof is not a valid bag of cells: ${(e as Error).message}`, { cause: e });
  }
  if (boc.roots.length !== 1) throw new BlockProofError(`the proof has ${boc.roots.length} roots, expected 1`);
  if (boc.exoticType(boc.root) !== MERKLE_PROOF || boc.refCount(boc.root) !== 1) throw new BlockProofError('the proof is not a Merkle proof cell');
  return { boc, root: boc.ref(boc.root, 0) };
}

function notPruned(boc: Boc, cell: number, what: string): number {
  if (boc.isExotic(cell)) throw new BlockProofError(`${what} is pruned from the proof`);
  return cell;
}

/**
 * A masterchain block's McBlockExtra, read after its tag (block.tlb `block_extra#4a33f6fd in_msg_descr:^InMsgDescr
 * out_msg_descr:^OutMsgDescr account_blocks:^ShardAccountBlocks rand_seed:bits256 created_by:bits256
 * custom:(Maybe ^McBlockExtra)`, `masterchain_block_extra#cca5`), refusing a pruned one.
 */
export function mcBlockExtraOf(boc: Boc, extraCell: number): Slice {
  const extra = new Slice(boc, extraCell);
  if (extra.loadUint(32) !== 0x4a33f6fd) throw new BlockProofError('BlockExtra has another tag');
  extra.loadRef();
  extra.loadRef();
  extra.loadRef();
  extra.skip(512);
  if (!extra.loadBit()) throw new BlockProofError('the block has no McBlockExtra');
  const mcExtra = new Slice(boc, notPruned(boc, extra.loadRef(), 'McBlockExtra'));
  if (mcExtra.loadUint(16) !== 0xcca5) throw new BlockProofError('McBlockExtra has another tag');
  return mcExtra;
}

/** The ShardDescr of `id`'s shard in the masterchain block's ShardHashes, following only the path to it. */
function shardTop(boc: Boc, extraCell: number, id: ProofBlockIdExt): { seqno: number; rootHash: Uint8Array; fileHash: Uint8Array } {
  const mcExtra = mcBlockExtraOf(boc, extraCell);
  mcExtra.loadBit();
  const tree = lookupHashmapAugEProven(mcExtra, 32, keyFromInt(id.workchain, 32), () => {});
  if (tree === PRUNED) throw new BlockProofError(`the path to workchain ${id.workchain} is pruned from the proof`);
  if (tree === null) throw new BlockProofError(`the masterchain block has no shards of workchain ${id.workchain}`);
  // `bt_leaf$0 leaf:X` / `bt_fork$1 left:^(BinTree X) right:^(BinTree X)`: the shard id's bits above its tag bit
  // are the path (left = 0).
  let node = new Slice(boc, notPruned(boc, tree.loadRef(), 'the shard tree'));
  let depth = 0;
  while (node.loadBit()) {
    const left = node.loadRef();
    const right = node.loadRef();
    if ((id.shard & ((1n << BigInt(64 - depth)) - 1n)) === 1n << BigInt(63 - depth)) throw new BlockProofError(`shard ${id.shard.toString(16)} is split in the masterchain block`);
    const bit = (id.shard >> BigInt(63 - depth)) & 1n;
    node = new Slice(boc, notPruned(boc, bit ? right : left, 'the shard tree'));
    depth++;
    if (depth > 60) throw new BlockProofError('the shard tree is deeper than 60 levels');
  }
  const leafShard = (id.shard & ~((1n << BigInt(64 - depth)) - 1n)) | (1n << BigInt(63 - depth));
  if (leafShard !== id.shard) throw new BlockProofError(`the masterchain block's shard there is ${leafShard.toString(16)}, not ${id.shard.toString(16)}`);
  const d = loadShardDescr(node);
  return { seqno: d.seqno, rootHash: d.rootHash, fileHash: d.fileHash };
}

/** The previous blocks a BlockInfo names, with their shards (block.tlb BlkPrevInfo; ton-types.h shard arithmetic). */
function prevIds(info: ReturnType<typeof loadBlockInfo>): ProofBlockIdExt[] {
  const wc = info.shard.workchain;
  const shard = shardId(info.shard);
  const tag = shard & -shard;
  if (info.prevRef.afterMerge) {
    const { prev1, prev2 } = info.prevRef;
    return [
      { workchain: wc, shard: shard - (tag >> 1n), seqno: prev1.seqno, rootHash: prev1.rootHash, fileHash: prev1.fileHash },
      { workchain: wc, shard: shard + (tag >> 1n), seqno: prev2.seqno, rootHash: prev2.rootHash, fileHash: prev2.fileHash },
    ];
  }
  const prevShard = info.afterSplit ? (shard & ~((tag << 2n) - 1n)) | (tag << 1n) : shard;
  const p = info.prevRef.prev;
  return [{ workchain: wc, shard: prevShard, seqno: p.seqno, rootHash: p.rootHash, fileHash: p.fileHash }];
}

export function sameId(a: ProofBlockIdExt, b: ProofBlockIdExt): boolean {
  return a.workchain === b.workchain && a.shard === b.shard && a.seqno === b.seqno && equal(a.rootHash, b.rootHash) && equal(a.fileHash, b.fileHash);
}

export function describe(id: { workchain: number; shard: bigint; seqno: number }): string {
  return `(${id.workchain},${id.shard.toString(16)},${id.seqno})`;
}

export function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export function hex(b: Uint8Array): string {
  return Buffer.from(b).toString('hex');
}
