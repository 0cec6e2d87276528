/**
 * Where raw blocks come from: a directory of block files, public liteservers, or the local devnet. A source
 * yields one group per masterchain block, in masterchain order: the shard blocks that masterchain block commits
 * (every one, walking prev links through splits and merges, oldest first) and then the masterchain block itself.
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
  /** Seqno of the masterchain block that commits this block (its own seqno for a masterchain block). */
  mcSeqno: number;
}

export interface McGroup {
  mcSeqno: number;
  /** Shard blocks first, in commit order, then the masterchain block. */
  blocks: RawBlock[];
}

export interface BlockSource {
  /** Groups from masterchain seqno `fromMcSeqno` (inclusive) on, until the signal aborts or the source ends. */
  groups(fromMcSeqno: number | null, signal: AbortSignal): AsyncIterable<McGroup>;
  close(): Promise<void>;
}
