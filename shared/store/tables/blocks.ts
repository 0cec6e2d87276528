import { bigUint, bool, hash44, int, nullable, type RowOf, table, text, typed } from './columns.js';

/** `blocks` (0001_blocks.sql, 0014_blocks_header_hashes.sql). Blocks, one row per block (the v3 Block record plus the hashes only v2 prints). */
export const blocks = table('blocks', {
  workchain: int('Int32'),
  shard: bigUint('UInt64'),
  seqno: int('UInt32'),
  root_hash: hash44(),
  file_hash: hash44(),
  mc_block_seqno: nullable(int('UInt32')),
  global_id: int('Int32'),
  version: int('UInt32'),
  after_merge: bool(),
  before_split: bool(),
  after_split: bool(),
  want_merge: bool(),
  want_split: bool(),
  key_block: bool(),
  vert_seqno_incr: bool(),
  flags: int('UInt8'),
  gen_utime: int('UInt32'),
  start_lt: bigUint('UInt64'),
  end_lt: bigUint('UInt64'),
  validator_list_hash_short: int('UInt32'),
  gen_catchain_seqno: int('UInt32'),
  min_ref_mc_seqno: int('UInt32'),
  prev_key_block_seqno: int('UInt32'),
  vert_seqno: int('UInt32'),
  master_ref_seqno: nullable(int('UInt32')),
  rand_seed: hash44(),
  created_by: hash44(),
  tx_count: int('UInt32'),
  prev_blocks: typed<Array<{ workchain: number; shard: string; seqno: number }>>('Array(Tuple(workchain Int32, shard UInt64, seqno UInt32))'),
  state_root_hash: text(),
  prev_block_hashes: typed<Array<{ root_hash: string; file_hash: string }>>('Array(Tuple(root_hash String, file_hash String))'),
});

export type BlockRow = RowOf<typeof blocks.columns>;
