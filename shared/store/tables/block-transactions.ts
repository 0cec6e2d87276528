import { bigUint, hash44, int, type RowOf, table, text } from './columns.js';

/** `block_transactions` (0019_block_transactions.sql). A block's transactions; filled by a materialized view from `transactions`. */
export const blockTransactions = table('block_transactions', {
  block_workchain: int('Int32'),
  block_shard: bigUint('UInt64'),
  block_seqno: int('UInt32'),
  account: text(),
  lt: bigUint('UInt64'),
  hash: hash44(),
  now: int('UInt32'),
});

export type BlockTransactionRow = RowOf<typeof blockTransactions.columns>;
