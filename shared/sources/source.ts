import type { SnapshotAccount, StateSnapshot } from '../ton/state-snapshot.js';
import type { TvmAccountState } from '../tvm/account.js';

/**
 * Where raw blocks come from: a directory of block files, public liteservers, or the local devnet. A source
 * yields groups in order. For liteservers and the devnet a group is one masterchain block: the shard blocks it
 * commits (every one, walking prev links through splits and merges, oldest first) and then the masterchain block.
 * A file directory may hold shard blocks whose committing masterchain block is absent; those come in groups of
 * their own with `mcSeqno: null`.
 */

export interface BlockId {
  workchain: number;
  /** Shard id as upper-case hex without padding, TON Center style (e.g. "8000000000000000"). */
  shard: string;
  seqno: number;
}

export interface RawBlock {
  id: BlockId;
  rootHash: Uint8Array;
  fileHash: Uint8Array;
  /** The block BOC as the source delivered it. */
  data: Uint8Array;
  /** Seqno of the masterchain block that commits this block (its own for a masterchain block), null if unknown. */
  mcSeqno: number | null;
}

export interface BlockGroup {
  mcSeqno: number | null;
  /** Shard blocks first, in commit order, then the masterchain block (when there is one). */
  blocks: RawBlock[];
  /**
   * Opaque resume point: passing it back to `groups()` continues right after this group. The follower stores it
   * only once the group's blocks are published.
   */
  checkpoint: string;
  /**
   * Blocks the source holds but must not publish: they failed verification against the hash the chain states for
   * their id (see verify.ts). The follower sends them to the dead-letter topic with their reason.
   */
  rejected?: RejectedBlock[];
  /**
   * Whole states of accounts at a masterchain block (shared/ton/state-snapshot.ts): the files source's snapshot
   * beside its blocks, the devnet's zerostate. Comes with the first group of a source read from its start (a resumed
   * source stored it already), and is published ahead of that group's blocks (shared/contracts/account-states.ts):
   * accounts no block touches get their state from it.
   */
  states?: StateSnapshot;
}

export interface RejectedBlock {
  block: RawBlock;
  /** Why it was rejected: an error with a stable code (`BLOCK_HASH_MISMATCH`, `BLOCK_CONFLICT`). */
  error: Error;
}

export interface BlockSource {
  /** Groups after `checkpoint` (from the configured start when null), until the signal aborts or the source ends. */
  groups(checkpoint: string | null, signal: AbortSignal): AsyncIterable<BlockGroup>;
  close(): Promise<void>;
  /**
   * Sends an inbound external message BOC to the network (a liteserver's `sendMessage`; the devnet runs it in its
   * next block). Absent where there is no network (block files).
   */
  send?(boc: Uint8Array): Promise<void>;
  /** The whole current state of an account (`wc:hex`), code and data included, from a source that holds chain state. */
  accountState?(address: string): Promise<TvmAccountState>;
  /**
   * Whole states of `addresses` (`wc:hex`) in the state after `block` (a block this source delivered), each checked
   * against that block (the liteserver source: the Merkle proofs of `liteServer.getAccountState`), in the form of a
   * state snapshot's accounts (shared/ton/state-snapshot.ts); accounts that do not exist there are absent. For
   * accounts whose code or data no block carried whole.
   */
  accountStatesAt?(block: Pick<RawBlock, 'id' | 'rootHash' | 'fileHash'>, addresses: readonly string[], signal: AbortSignal): Promise<SnapshotAccount[]>;
  /**
   * `block` (a block this source delivered) proven from the masterchain block that commits it: that block's id and
   * the links down to `block`, each a Merkle proof checked against the block before it (a liteserver's
   * `liteServer.getShardBlockProof`, shared/ton/shard-block-proof.ts). Proofs are BOCs as the source served them.
   */
  shardBlockProof?(block: Pick<RawBlock, 'id' | 'rootHash' | 'fileHash'>, signal: AbortSignal): Promise<ShardBlockProof>;
  /**
   * The validator signatures of masterchain block `block`, proven from key block `keyBlock` (at or before the key
   * block `block`'s header names): a liteserver's `liteServer.getBlockProof` forward links, each checked against the
   * validator set its key block's config gives (shared/ton/block-signatures.ts). The signatures are the last link's.
   */
  masterchainBlockSignatures?(keyBlock: FullBlockRef, block: FullBlockRef, signal: AbortSignal): Promise<MasterchainBlockSignatures>;
  /**
   * Masterchain block `to` proven from the later masterchain block `from`: a liteserver's `liteServer.getBlockProof`
   * backward links, each checked against the Merkle proofs of `from`'s header and state, whose `prev_blocks` names
   * `to` (shared/ton/mc-back-proof.ts). Proofs are BOCs as the source served them.
   */
  masterchainBackProof?(from: FullBlockRef, to: FullBlockRef, signal: AbortSignal): Promise<MasterchainBackProof>;
  /** The configuration the chain runs with (`Hashmap 32 ^Cell` of ConfigParams), base64 BOC. */
  blockchainConfig?(): Promise<string>;
}

/** A block id with both hashes, as a proof names it. */
export interface FullBlockRef extends Pick<RawBlock, 'id' | 'rootHash' | 'fileHash'> {}

export interface ShardBlockProof {
  /** The masterchain block the proof starts from. */
  mc: FullBlockRef;
  /** Link i: a block and the proof of the block before it (link 0: of `mc`) that names it; the last is the asked block. */
  links: Array<{ block: FullBlockRef; proof: Uint8Array }>;
}

export interface MasterchainBackProof {
  /** `liteServer.blockLinkBack`s from `from` down to `to`, in order. */
  links: Array<{ toKeyBlock: boolean; from: FullBlockRef; to: FullBlockRef; destProof: Uint8Array; proof: Uint8Array; stateProof: Uint8Array }>;
}

export interface MasterchainBlockSignatures {
  /** As the signature set lists them: the signer's short id (sha256 of TL `pub.ed25519`) and its ed25519 signature. */
  signatures: Array<{ nodeIdShort: Uint8Array; signature: Uint8Array }>;
}
