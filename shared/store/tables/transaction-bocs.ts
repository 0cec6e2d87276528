import { bigUint, type RowOf, table, text } from './columns.js';

/** `transaction_bocs` (0020_transaction_bocs.sql). Each transaction's cell as a base64 bag of cells: API v2's `data`. */
export const transactionBocs = table('transaction_bocs', {
  account: text(),
  lt: bigUint('UInt64'),
  boc: text(),
});

export type TransactionBocRow = RowOf<typeof transactionBocs.columns>;
