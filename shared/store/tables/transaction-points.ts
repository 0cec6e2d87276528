import { bigUint, extraCurrencies, hash44, int, nullable, type RowOf, table, text } from './columns.js';

/** `transaction_points` (0008_transaction_points.sql). Superseded by transaction_documents (0009): no longer written or read, kept until a migration drops it. */
export const transactionPoints = table('transaction_points', {
  key: text(),
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
  messages: text(),
});

export type TransactionPointRow = RowOf<typeof transactionPoints.columns>;
