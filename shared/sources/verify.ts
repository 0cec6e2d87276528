import { NonRetryableError } from '../runtime/errors.js';
import type { BlockId } from './source.js';

/**
 * Verifying blocks against the hashes the chain states for them, before anything is published.
 *
 * A block id (workchain, shard, seqno) does not identify a block: two different BOCs can claim the same id. What
 * identifies one is its root hash (the representation hash of the `Block` cell), and the chain states it for
 * every block but the newest:
 * - a masterchain block's `prev_ref` (block.tlb `BlkPrevInfo`, an `ExtBlkRef`) states the previous masterchain
 *   block's root and file hash;
 * - a masterchain block's `ShardHashes` (`McBlockExtra.shard_hashes`, one `ShardDescr` per shard) state the root and
 *   file hash of each shard's newest committed block;
 * - a shard block's `prev_ref` (`prev_blk_info`, or `prev_blks_info` after a merge) states its predecessors'.
 * Only statements made by blocks that were themselves accepted count, so trust flows backwards from the newest
 * masterchain block a caller holds. That block has no successor to vouch for it: it is accepted as it is
 * (the anchor; a liteserver source anchors on its first masterchain block the same way) unless there are two
 * different blocks for its id, which nothing can decide between.
 *
 * Root hashes decide. File hashes are not compared: block files are often re-serialized (other BOC flags, an index,
 * no CRC) without changing a cell, which changes the file's sha256 but not the block.
 */

/** A stated (root hash, file hash) pair and who stated it, for error messages. */
export interface StatedHash {
  rootHash: Uint8Array;
  fileHash: Uint8Array;
  /** e.g. "prev_ref of -1:8000000000000000:5" or "ShardDescr in masterchain block 5". */
  by: string;
}

/** What verification needs of a block: its id, its root hash, and the hashes it states for other blocks. */
export interface BlockCandidate {
  id: BlockId;
  rootHash: Uint8Array;
  fileHash: Uint8Array;
  /** The blocks its `prev_ref` names (one, or two after a merge). */
  prev: Array<{ id: BlockId; rootHash: Uint8Array; fileHash: Uint8Array }>;
  /** For a masterchain block: the shard tips its ShardHashes name (empty otherwise). */
  shardTips: Array<{ id: BlockId; rootHash: Uint8Array; fileHash: Uint8Array }>;
}

/** A block that must not be published, with the reason; `code` says which rule it broke. */
export class BlockVerificationError extends NonRetryableError {
  constructor(
    code: 'BLOCK_HASH_MISMATCH' | 'BLOCK_CONFLICT',
    message: string,
    readonly id: BlockId,
  ) {
    super(code, message);
  }
}

export interface Verdict<T extends BlockCandidate> {
  /** One block per id: verified against a stated hash (`stated` set), or accepted unverified (`stated` null). */
  accepted: Map<string, { block: T; stated: StatedHash | null }>;
  /** Blocks that failed: a root hash other than the stated one, or one of several blocks for an undecidable id. */
  rejected: Array<{ block: T; error: BlockVerificationError }>;
  /** Further copies of an accepted block (same root hash, other bytes): the same block, not a conflict. */
  duplicates: Array<{ block: T; of: T }>;
}

export const blockKey = (id: BlockId): string => `${id.workchain}:${id.shard}:${id.seqno}`;

export function hexHash(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Picks, for each block id among `candidates`, the block the chain states (see the module comment), rejecting the
 * others. Candidates are processed newest first, masterchain before shards, since a block's hash is stated only by
 * later blocks (a successor's seqno is always higher: +1, or max+1 after a merge), and shard tips by the masterchain.
 */
export function verifyCandidates<T extends BlockCandidate>(candidates: readonly T[]): Verdict<T> {
  const byId = new Map<string, T[]>();
  for (const c of candidates) {
    const k = blockKey(c.id);
    const list = byId.get(k);
    if (list) list.push(c);
    else byId.set(k, [c]);
  }
  const verdict: Verdict<T> = { accepted: new Map(), rejected: [], duplicates: [] };
  const stated = new Map<string, StatedHash>();
  const state = (id: BlockId, rootHash: Uint8Array, fileHash: Uint8Array, by: string): void => {
    const k = blockKey(id);
    // The first statement comes from the newest block; an older one cannot overrule it.
    if (!stated.has(k)) stated.set(k, { rootHash, fileHash, by });
  };

  const order = [...byId.entries()].sort(([, [a]], [, [b]]) => {
    const am = a!.id.workchain === -1 ? 0 : 1;
    const bm = b!.id.workchain === -1 ? 0 : 1;
    return am - bm || b!.id.seqno - a!.id.seqno;
  });
  for (const [key, list] of order) {
    const expect = stated.get(key) ?? null;
    let chosen: T | null = null;
    if (expect) {
      const matching = list.filter((c) => sameBytes(c.rootHash, expect.rootHash));
      // Of several copies of the stated block, prefer the one whose bytes are the original file.
      chosen = matching.find((c) => sameBytes(c.fileHash, expect.fileHash)) ?? matching[0] ?? null;
      for (const c of list) {
        if (matching.includes(c)) continue;
        verdict.rejected.push({
          block: c,
          error: new BlockVerificationError(
            'BLOCK_HASH_MISMATCH',
            `block ${key}: root hash ${hexHash(c.rootHash)} differs from ${hexHash(expect.rootHash)} stated by ${expect.by}`,
            c.id,
          ),
        });
      }
    } else {
      const roots = new Set(list.map((c) => hexHash(c.rootHash)));
      if (roots.size === 1) chosen = list[0]!;
      else {
        for (const c of list) {
          verdict.rejected.push({
            block: c,
            error: new BlockVerificationError(
              'BLOCK_CONFLICT',
              `block ${key}: ${roots.size} different blocks (root hashes ${[...roots].sort().join(', ')}) and no accepted block states which one is real`,
              c.id,
            ),
          });
        }
      }
    }
    if (!chosen) continue;
    verdict.accepted.set(key, { block: chosen, stated: expect });
    for (const c of list) if (c !== chosen && sameBytes(c.rootHash, chosen.rootHash)) verdict.duplicates.push({ block: c, of: chosen });
    for (const p of chosen.prev) state(p.id, p.rootHash, p.fileHash, `prev_ref of ${key}`);
    for (const t of chosen.shardTips) state(t.id, t.rootHash, t.fileHash, `ShardDescr in masterchain block ${chosen.id.seqno}`);
  }
  return verdict;
}
