import { type RowOf, table, text, typed } from './columns.js';

/** `account_recent_transactions` (0012_account_recent_transactions.sql). The lts of each account's 64 newest transactions (groupArraySorted states of bitNot(lt)); filled by a materialized view from `transactions`. */
export const accountRecentTransactions = table('account_recent_transactions', {
  account: text(),
  newest: typed<string>('AggregateFunction(groupArraySorted(64), UInt64)'),
});

export type AccountRecentTransactionsRow = RowOf<typeof accountRecentTransactions.columns>;
