import { type RowOf, table, text } from './columns.js';
import { TRANSACTION_COLUMNS } from './transactions.js';

/** `transaction_points` (0008_transaction_points.sql). Superseded by transaction_documents (0009): no longer written or read, kept until a migration drops it. */
export const transactionPoints = table('transaction_points', {
  key: text(),
  ...TRANSACTION_COLUMNS,
  messages: text(),
});

export type TransactionPointRow = RowOf<typeof transactionPoints.columns>;
