import { bigUint, extraCurrencies, hash44, int, materialized, nullable, type RowOf, table, text } from './columns.js';

/** `transactions` (0002_transactions.sql, 0006/0007 (description)). Transactions, one row per transaction; `description` is the JSON text of the v3 TransactionDescr. */
export const transactions = table('transactions', {
  account: text(),
  lt: bigUint('UInt64'),
  hash: hash44(),
  now: int('UInt32'),
  mc_block_seqno: nullable(int('UInt32')),
  block_workchain: int('Int32'),
  block_shard: bigUint('UInt64'),
  block_seqno: int('UInt32'),
  trace_id: nullable(hash44()),
  prev_trans_hash: hash44(),
  prev_trans_lt: bigUint('UInt64'),
  orig_status: text('LowCardinality(String)'),
  end_status: text('LowCardinality(String)'),
  total_fees: bigUint('UInt128'),
  total_fees_extra_currencies: extraCurrencies(),
  account_state_hash_before: hash44(),
  account_state_hash_after: hash44(),
  description: text(),
  version: materialized(int('UInt8')),
});

export type TransactionRow = RowOf<typeof transactions.columns>;
