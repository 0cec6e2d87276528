import { bigUint, hash44, int, type RowOf, table, text, typed } from './columns.js';

/**
 * `action_listing` (0026_action_accounts.sql). Every action in /api/v3/actions' order without an id filter
 * (trace_end_lt, trace_id, end_lt, action_id); a materialized view writes it from `actions`.
 */
export const actionListing = table('action_listing', {
  trace_end_lt: bigUint('UInt64'),
  trace_id: hash44(),
  end_lt: bigUint('UInt64'),
  action_id: hash44(),
  trace_end_utime: int('UInt32'),
  end_utime: int('UInt32'),
  type: text('LowCardinality(String)'),
  ancestor_type: typed<string[]>('Array(LowCardinality(String))'),
});

export type ActionListingRow = RowOf<typeof actionListing.columns>;
