import { bigUint, int, type RowOf, table, text } from './columns.js';

/** `account_transactions` (0011_account_transactions.sql). An account's transactions in lt order, narrow; filled by a materialized view from `transactions`. */
export const accountTransactions = table('account_transactions', {
  account: text(),
  lt: bigUint('UInt64'),
  now: int('UInt32'),
});

export type AccountTransactionRow = RowOf<typeof accountTransactions.columns>;
