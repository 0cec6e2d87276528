import { bigUint, hash44, int, type RowOf, table, text } from './columns.js';

/** `trace_transactions` (0018_trace_links.sql). A trace's transactions (the trace stage writes them). */
export const traceTransactions = table('trace_transactions', {
  trace_id: hash44(),
  tx_hash: hash44(),
  tx_account: text(),
  tx_lt: bigUint('UInt64'),
  tx_now: int('UInt32'),
  mc_seqno: int('UInt32'),
  version: int('UInt32'),
});

export type TraceTransactionRow = RowOf<typeof traceTransactions.columns>;
