import { bigUint, hash44, int, type RowOf, table, text, typed } from './columns.js';

/**
 * `action_accounts` (0026_action_accounts.sql). One row per (account, action), ordered as /api/v3/actions lists an
 * account's actions; a materialized view writes it from `actions`.
 */
export const actionAccounts = table('action_accounts', {
  account: text(),
  trace_end_lt: bigUint('UInt64'),
  trace_id: hash44(),
  action_end_lt: bigUint('UInt64'),
  action_id: hash44(),
  trace_end_utime: int('UInt32'),
  action_end_utime: int('UInt32'),
  type: text('LowCardinality(String)'),
  ancestor_type: typed<string[]>('Array(LowCardinality(String))'),
});

export type ActionAccountRow = RowOf<typeof actionAccounts.columns>;
