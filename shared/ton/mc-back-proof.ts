import { Slice } from './boc/slice.js';
import type { Boc } from './boc/reader.js';
import { loadBlockInfo } from './tlb/BlockInfo.js';
import { loadMcStateExtraHead } from './tlb/McStateExtra.js';
import type { KeyExtBlkRef } from './tlb/KeyExtBlkRef.js';
import { lookupOldMcBlock } from './tlb/OldMcBlocksInfo.js';
import { PRUNED } from './tlb/Hashmap.js';
import { loadShardStateHead } from './tlb/ShardState.js';
import { shardId } from './tlb/ShardIdent.js';
import { BlockProofError, MC_SHARD, type PartialBlockProof, type ProofBlockIdExt, describe, equal, hex, sameId, virtualRoot } from './shard-block-proof.js';

/**
 * Checks backward links of a liteserver's `liteServer.partialBlockProof complete:Bool from to
 * steps:(vector liteServer.BlockLink)` (lite_api.tl), the proof that an older masterchain block belongs to the chain
 * of a newer one, as tonlib checks the `mc_proof` of `blocks.getShardBlockProof` (TonlibClient.cpp
 * GetShardBlockProof; check-proof.cpp `BlockProofChain::validate` and `BlockProofLink::validate`, the backward
 * branch). Each `liteServer.blockLinkBack to_key_block:Bool from to dest_proof proof state_proof`:
 *
 * - `proof` is a Merkle proof (tvm.pdf §3.1.7) of the `from` block keeping its header (a masterchain block of
 *   `from`'s seqno) and its `state_update:^(MERKLE_UPDATE ShardState)`, whose new side's hash is the hash of the
 *   state after `from`;
 * - `state_proof` is a Merkle proof of that state: `shard_state#9023afe2` of the masterchain at `from`'s seqno with
 *   `custom:(Maybe ^McStateExtra)`, whose `prev_blocks:OldMcBlocksInfo` holds the zero state at key 0 and, at key
 *   `to.seqno`, a `KeyExtBlkRef` naming `to` (root hash, file hash, end lt) with `key` equal to `to_key_block`;
 * - `dest_proof` is a Merkle proof of `to`'s header, whose `key_block` must be `to_key_block`.
 *
 * The links must chain from the asked `from` to the asked `to`, and the chain must be complete.
 */

/** `liteServer.blockLinkBack` in {@link ProofBlockIdExt} form. */
export interface BackLink {
  toKeyBlock: boolean;
  from: ProofBlockIdExt;
  to: ProofBlockIdExt;
  destProof: Uint8Array;
  proof: Uint8Array;
  stateProof: Uint8Array;
}

const MERKLE_UPDATE = 4;
/** `!merkle_update#04 {X:Type} old_hash:bits256 new_hash:bits256 old_depth:uint16 new_depth:uint16`: 8 + 2·256 + 2·16 bits. */
const MERKLE_UPDATE_BITS = 552;

/** Checks that `proof` proves masterchain block `to` from the later masterchain block `from`; returns its links. Throws {@link BlockProofError}. */
export function verifyMasterchainBackProof(from: ProofBlockIdExt, to: ProofBlockIdExt, proof: PartialBlockProof<unknown, BackLink>): BackLink[] {
  if (!sameId(proof.from, from)) throw new BlockProofError(`the proof starts at ${describe(proof.from)} (${hex(proof.from.rootHash)}), not at ${describe(from)}`);
  if (!sameId(proof.to, to)) throw new BlockProofError(`the proof ends at ${describe(proof.to)} (${hex(proof.to.rootHash)}), not at ${describe(to)}`);
  if (!proof.complete) throw new BlockProofError('the proof is incomplete');
  if (proof.steps.length === 0) throw new BlockProofError(`the proof has no links from ${describe(from)} to ${describe(to)}`);
  let cur = from;
  const links: BackLink[] = [];
  proof.steps.forEach((step, i) => {
    if (!('backward' in step)) throw new BlockProofError(`link ${i} is a forward link; links back to an older block are expected`);
    const link = step.backward;
    if (!sameId(link.from, cur)) throw new BlockProofError(`link ${i} starts at ${describe(link.from)} (${hex(link.from.rootHash)}), not where the chain is: ${describe(cur)}`);
    try {
      verifyBackLink(link);
    } catch (e) {
      throw new BlockProofError(`link ${i} from ${describe(link.from)} to ${describe(link.to)}: ${(e as Error).message}`, { cause: e });
    }
    links.push(link);
    cur = link.to;
  });
  if (!sameId(cur, to)) throw new BlockProofError(`the links end at ${describe(cur)} (${hex(cur.rootHash)}), not at ${describe(to)}`);
  return links;
}

/** One backward link (check-proof.cpp `BlockProofLink::validate`, `!is_fwd`). Throws {@link BlockProofError}. */
export function verifyBackLink(link: BackLink): void {
  const { from, to } = link;
  if (!isMasterchain(from) || !isMasterchain(to)) throw new BlockProofError('both ends must be masterchain blocks');
  if (from.seqno <= to.seqno) throw new BlockProofError('a backward link must go to an older block');
  if (to.seqno === 0) throw new BlockProofError('links back to the zero state are not checked');
  try {
    const src = virtualRoot(link.proof);
    const { stateHash } = header(src.boc, src.root, from, true);

    const dst = virtualRoot(link.destProof);
    const dest = header(dst.boc, dst.root, to, false);
    if (dest.keyBlock !== link.toKeyBlock) throw new BlockProofError(`to_key_block is ${link.toKeyBlock}, the header of ${describe(to)} says ${dest.keyBlock}`);

    const state = virtualRoot(link.stateProof);
    if (!equal(state.boc.hashAt(state.root, 0), stateHash!)) {
      throw new BlockProofError(`the state proof is of state ${hex(state.boc.hashAt(state.root, 0))}, the header of ${describe(from)} names ${hex(stateHash!)}`);
    }
    const entry = previousBlock(state.boc, state.root, from, to.seqno);
    const ref = entry.blkRef;
    if (ref.seqno !== to.seqno || !equal(ref.rootHash, to.rootHash) || !equal(ref.fileHash, to.fileHash)) {
      throw new BlockProofError(`the state's prev_blocks names seqno ${ref.seqno} (${hex(ref.rootHash)}, file ${hex(ref.fileHash)}), not ${describe(to)} (${hex(to.rootHash)})`);
    }
    if (entry.key !== link.toKeyBlock) throw new BlockProofError(`to_key_block is ${link.toKeyBlock}, the state's prev_blocks says ${entry.key}`);
    if (ref.endLt !== dest.endLt) throw new BlockProofError(`the state's prev_blocks names end lt ${ref.endLt}, the header of ${describe(to)} says ${dest.endLt}`);
  } catch (e) {
    if (e instanceof BlockProofError) throw e;
    throw new BlockProofError((e as Error).message, { cause: e });
  }
}

function isMasterchain(id: ProofBlockIdExt): boolean {
  return id.workchain === -1 && id.shard === MC_SHARD;
}

/**
 * The header of a proven `block#11ef55aa global_id:int32 info:^BlockInfo value_flow:^ValueFlow
 * state_update:^(MERKLE_UPDATE ShardState) extra:^BlockExtra` whose root must hash to `id`'s root hash
 * (check-proof.cpp `check_block_header_proof`), with the hash of the state after it when `withState`.
 */
function header(boc: Boc, root: number, id: ProofBlockIdExt, withState: boolean): { keyBlock: boolean; endLt: bigint; stateHash: Uint8Array | null } {
  if (!equal(boc.hashAt(root, 0), id.rootHash)) throw new BlockProofError(`the proof is of block ${hex(boc.hashAt(root, 0))}, not ${hex(id.rootHash)}`);
  const block = new Slice(boc, root);
  if (block.loadUint(32) !== 0x11ef55aa) throw new BlockProofError('the proven cell is not a block#11ef55aa');
  block.loadInt(32);
  const infoCell = block.loadRef();
  if (boc.isExotic(infoCell)) throw new BlockProofError(`the header of ${describe(id)} is pruned from the proof`);
  const info = loadBlockInfo(new Slice(boc, infoCell));
  if (info.notMaster || info.shard.workchain !== -1 || shardId(info.shard) !== MC_SHARD || info.seqno !== id.seqno) {
    throw new BlockProofError(`the proven header names (${info.shard.workchain},${shardId(info.shard).toString(16)},${info.seqno}), not ${describe(id)}`);
  }
  let stateHash: Uint8Array | null = null;
  if (withState) {
    block.loadRef();
    const update = block.loadRef();
    if (!boc.isExotic(update) || boc.exoticType(update) !== MERKLE_UPDATE || boc.refCount(update) !== 2 || boc.bitLen[update] !== MERKLE_UPDATE_BITS) {
      throw new BlockProofError(`the state_update of ${describe(id)} is not a Merkle update in the proof`);
    }
    stateHash = boc.hashAt(boc.ref(update, 1), 0);
  }
  return { keyBlock: info.keyBlock, endLt: info.endLt, stateHash };
}

/**
 * The `prev_blocks` entry of `seqno` in a proven masterchain state after block `from` (mc-config.cpp
 * `ConfigInfo::unpack` with `needPrevBlocks`, block.cpp `check_old_mc_block_id`), after checking the state is that
 * of `from`'s seqno and lists the zero state.
 */
function previousBlock(boc: Boc, root: number, from: ProofBlockIdExt, seqno: number): KeyExtBlkRef {
  const st = loadShardStateHead(new Slice(boc, root));
  if (st.globalId === 0) throw new BlockProofError('the proven state has global_id 0');
  if (st.shard.workchain !== -1 || shardId(st.shard) !== MC_SHARD || st.seqno !== from.seqno) {
    throw new BlockProofError(`the proven state is of (${st.shard.workchain},${shardId(st.shard).toString(16)},${st.seqno}), not ${describe(from)}`);
  }
  if (st.custom === null) throw new BlockProofError('the proven state has no McStateExtra');
  if (boc.isExotic(st.custom)) throw new BlockProofError('McStateExtra is pruned from the state proof');
  const extra = loadMcStateExtraHead(new Slice(boc, st.custom));
  const zero = lookupOldMcBlock(extra.prevBlocks.clone(), 0);
  if (zero === PRUNED) throw new BlockProofError('the zero state\'s entry of prev_blocks is pruned from the state proof');
  if (zero === null || zero.blkRef.seqno !== 0) throw new BlockProofError('the state\'s prev_blocks does not list the zero state');
  const entry = lookupOldMcBlock(extra.prevBlocks, seqno);
  if (entry === PRUNED) throw new BlockProofError(`the path to seqno ${seqno} in prev_blocks is pruned from the state proof`);
  if (entry === null) throw new BlockProofError(`the state's prev_blocks has no block of seqno ${seqno}`);
  return entry;
}
