import { bigUint, int, type RowOf, table } from './columns.js';

/** `shard_state` (0001_blocks.sql). The top shard blocks a masterchain block commits (McBlockExtra shard_hashes). */
export const shardState = table('shard_state', {
  mc_seqno: int('UInt32'),
  workchain: int('Int32'),
  shard: bigUint('UInt64'),
  seqno: int('UInt32'),
});

export type ShardStateRow = RowOf<typeof shardState.columns>;
