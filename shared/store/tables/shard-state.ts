import { bigUint, int, type RowOf, table, text } from './columns.js';

/** `shard_state` (0001_blocks.sql). The top shard blocks a masterchain block commits (McBlockExtra shard_hashes). */
export const shardState = table('shard_state', {
  mc_seqno: int('UInt32'),
  workchain: int('Int32'),
  shard: bigUint('UInt64'),
  seqno: int('UInt32'),
  // 0022_shard_state_hashes.sql: the tip's hashes as the ShardDescr names them; '' for rows written before.
  root_hash: text(),
  file_hash: text(),
});

export type ShardStateRow = RowOf<typeof shardState.columns>;
