import { bigUint, extraCurrencies, hash44, int, materialized, nullable, type RowOf, table, text } from './columns.js';

/**
 * The columns of a stored transaction, in table order: `transactions` has them (and its version), and the
 * superseded `transaction_points` (0008) copied them between its key and its messages.
 */
export const TRANSACTION_COLUMNS = {
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
} as const;

/** `transactions` (0002_transactions.sql, 0006/0007 (description)). Transactions, one row per transaction; `description` is the JSON text of the v3 TransactionDescr. */
export const transactions = table('transactions', {
  ...TRANSACTION_COLUMNS,
  version: materialized(int('UInt8')),
});

export type TransactionRow = RowOf<typeof transactions.columns>;

/** The primary key (account, lt): what a lookup that only needs to name transactions reads. */
export const TRANSACTION_KEY_COLUMNS = ['account', 'lt'] as const satisfies ReadonlyArray<keyof TransactionRow>;

/** The key and `now`: what the gateway's page lookups read, enough to order a page and continue it (api-v3.md §1.5). */
export const TRANSACTION_PAGE_COLUMNS = ['account', 'lt', 'now'] as const satisfies ReadonlyArray<keyof TransactionRow>;
