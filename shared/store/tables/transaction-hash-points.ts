import { bigUint, hash44, type RowOf, table, text } from './columns.js';

/** `transaction_hash_points` (0008_transaction_points.sql). Transaction hash → its key, key → value (EmbeddedRocksDB). */
export const transactionHashPoints = table('transaction_hash_points', {
  hash: hash44(),
  account: text(),
  lt: bigUint('UInt64'),
});

export type TransactionHashPointRow = RowOf<typeof transactionHashPoints.columns>;
