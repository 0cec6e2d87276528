import { bigUint, bool, hash44, int, nullable, type RowOf, table, text, typed } from './columns.js';

/** `actions` (0023_actions.sql). Classified actions, one row per (trace_id, action_id); `details` is the row's JSON. */
export const actions = table('actions', {
  trace_id: hash44(),
  action_id: hash44(),
  type: text('LowCardinality(String)'),
  success: bool(),
  start_lt: bigUint('UInt64'),
  end_lt: bigUint('UInt64'),
  start_utime: int('UInt32'),
  end_utime: int('UInt32'),
  mc_seqno_end: nullable(int('UInt32')),
  trace_end_lt: bigUint('UInt64'),
  trace_end_utime: int('UInt32'),
  trace_mc_seqno_end: nullable(int('UInt32')),
  trace_external_hash: nullable(hash44()),
  trace_external_hash_norm: nullable(hash44()),
  parent_action_id: nullable(hash44()),
  ancestor_type: typed<string[]>('Array(LowCardinality(String))'),
  tx_hashes: typed<string[]>('Array(FixedString(44))'),
  accounts: typed<string[]>('Array(String)'),
  details: text(),
});

export type ActionTableRow = RowOf<typeof actions.columns>;
