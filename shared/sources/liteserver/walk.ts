/** The shard walk: which shard blocks a masterchain block commits, through splits and merges, oldest first. */
import { type Block } from '../../ton/tlb/Block.js';
import { BlockIntegrityError, type FullBlockId } from './types.js';
import { type VerifiedBlock, describeId, equalBytes, hex } from './verify.js';

/** The ShardHashes leaves of a masterchain block: the newest block of every shard that it commits. */
export function shardTips(mc: Block): FullBlockId[] {
  const hashes = mc.extra.custom?.shardHashes ?? [];
  return hashes.map((h) => ({ workchain: h.workchain, shard: h.shard, seqno: h.descr.seqno, rootHash: h.descr.rootHash, fileHash: h.descr.fileHash }));
}

/** Order of blocks within a group: by start_lt, then workchain and shard. */
export function olderFirst(a: VerifiedBlock, b: VerifiedBlock): number {
  const lt = a.block.info.startLt - b.block.info.startLt;
  if (lt !== 0n) return lt < 0n ? -1 : 1;
  if (a.id.workchain !== b.id.workchain) return a.id.workchain - b.id.workchain;
  return a.id.shard < b.id.shard ? -1 : a.id.shard > b.id.shard ? 1 : 0;
}

/** The account-prefix interval [lo, hi) a shard covers: the tag bit's position sets its width. */
function shardRange(shard: bigint): [bigint, bigint] {
  const tag = shard & -shard;
  return [shard - tag, shard + tag];
}

function overlaps(a: bigint, b: bigint): boolean {
  const [aLo, aHi] = shardRange(a);
  const [bLo, bHi] = shardRange(b);
  return aLo < bHi && bLo < aHi;
}

/**
 * Whether the previous masterchain block already committed `ref`. Every point of a workchain's account space is
 * covered by one linear chain of blocks (splits and merges fork or join those chains, and a block's seqno is above
 * all its parents'), so a block overlapping a committed tip with a seqno not above the tip's is that tip or one of
 * its ancestors. The hashes must then agree, or the chain forked under us.
 */
export function alreadyCommitted(ref: FullBlockId, committed: FullBlockId[]): boolean {
  for (const tip of committed) {
    if (tip.workchain !== ref.workchain || !overlaps(tip.shard, ref.shard) || ref.seqno > tip.seqno) continue;
    if (tip.shard === ref.shard && tip.seqno === ref.seqno && !equalBytes(tip.rootHash, ref.rootHash)) {
      throw new BlockIntegrityError(`${describeId(ref)}: root hash ${hex(ref.rootHash)} differs from the committed ${hex(tip.rootHash)}`);
    }
    return true;
  }
  return false;
}
