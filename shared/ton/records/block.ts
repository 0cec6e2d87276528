import type { Block } from '../tlb/Block.js';
import type { ExtBlkRef } from '../tlb/ExtBlkRef.js';
import { shardId } from '../tlb/ShardIdent.js';
import { b64, shardHex } from './format.js';
import type { WireBlock } from './wire.js';
import type { V3BlockId } from './transaction.js';

/**
 * The v3 Block record (api-v3.md §1.2; wire.ts `Block`). `master_ref_seqno` is typed `int` (never null) there: a
 * masterchain block, which has no master_ref, prints 0.
 */
export type V3Block = WireBlock;

const MC_SHARD = 0x8000000000000000n;

/** Lowest set bit of a shard id: the tag that ends its prefix. */
function tagOf(shard: bigint): bigint {
  return shard & -shard;
}

/**
 * The shards of the previous blocks: after a merge, the two children of this shard; after a split, the parent;
 * otherwise the same shard (block.tlb BlkPrevInfo; the shard-id arithmetic of ton/ton-types.h).
 */
export function prevBlockIds(b: Block): Array<V3BlockId & { ref: ExtBlkRef }> {
  const info = b.info;
  const wc = info.shard.workchain;
  const shard = shardId(info.shard);
  const x = tagOf(shard);
  if (info.prevRef.afterMerge) {
    return [
      { workchain: wc, shard: shardHex(shard - (x >> 1n)), seqno: info.prevRef.prev1.seqno, ref: info.prevRef.prev1 },
      { workchain: wc, shard: shardHex(shard + (x >> 1n)), seqno: info.prevRef.prev2.seqno, ref: info.prevRef.prev2 },
    ];
  }
  const prevShard = info.afterSplit ? (shard & ~((x << 2n) - 1n)) | (x << 1n) : shard;
  return [{ workchain: wc, shard: shardHex(prevShard), seqno: info.prevRef.prev.seqno, ref: info.prevRef.prev }];
}

/**
 * Hashes of a block that the v2 block operations print and the v3 record leaves out: the root hash of the shard state
 * after the block (`state_update:^(MERKLE_UPDATE ShardState)`'s new_hash, block.tlb; a masterchain block's is the
 * `state_root_hash` of liteServer.masterchainInfo) and the ids of its previous blocks as BlkPrevInfo references them
 * (ExtBlkRef root_hash, file_hash), in the order of {@link prevBlockIds}. Base64, as root_hash.
 */
export interface BlockHeaderHashes {
  state_root_hash: string;
  prev_blocks: Array<{ root_hash: string; file_hash: string }>;
}

export function blockHeaderHashes(block: Block): BlockHeaderHashes {
  return {
    state_root_hash: b64(block.stateUpdate.newHash),
    prev_blocks: prevBlockIds(block).map(({ ref }) => ({ root_hash: b64(ref.rootHash), file_hash: b64(ref.fileHash) })),
  };
}

export interface BlockRecordInput {
  block: Block;
  rootHash: Uint8Array;
  fileHash: Uint8Array;
  txCount: number;
  /** Seqno of the masterchain block that commits this shard block, when known. */
  mcBlockSeqno: number | null;
}

export function blockRecord({ block, rootHash, fileHash, txCount, mcBlockSeqno }: BlockRecordInput): V3Block {
  const info = block.info;
  const shard = shardId(info.shard);
  const isMaster = info.shard.workchain === -1;
  const mcSeqno = isMaster ? info.seqno : mcBlockSeqno;
  return {
    workchain: info.shard.workchain,
    shard: shardHex(shard),
    seqno: info.seqno,
    root_hash: b64(rootHash),
    file_hash: b64(fileHash),
    global_id: block.globalId,
    version: info.version,
    after_merge: info.afterMerge,
    before_split: info.beforeSplit,
    after_split: info.afterSplit,
    want_merge: info.wantMerge,
    want_split: info.wantSplit,
    key_block: info.keyBlock,
    vert_seqno_incr: info.vertSeqnoIncr,
    flags: info.flags,
    gen_utime: String(info.genUtime),
    start_lt: info.startLt.toString(),
    end_lt: info.endLt.toString(),
    validator_list_hash_short: info.genValidatorListHashShort,
    gen_catchain_seqno: info.genCatchainSeqno,
    min_ref_mc_seqno: info.minRefMcSeqno,
    prev_key_block_seqno: info.prevKeyBlockSeqno,
    vert_seqno: info.vertSeqno,
    master_ref_seqno: info.masterRef ? info.masterRef.seqno : 0,
    rand_seed: b64(block.extra.randSeed),
    created_by: b64(block.extra.createdBy),
    tx_count: txCount,
    masterchain_block_ref: mcSeqno === null ? null : { workchain: -1, shard: shardHex(MC_SHARD), seqno: mcSeqno },
    prev_blocks: prevBlockIds(block).map(({ workchain, shard: s, seqno }) => ({ workchain, shard: s, seqno })),
  };
}
