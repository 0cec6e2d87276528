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

/** A trace's transaction and its key (account, lt), by which the transaction reads load it. */
export const TRACE_TX_KEY_COLUMNS = ['trace_id', 'tx_hash', 'tx_account', 'tx_lt'] as const satisfies ReadonlyArray<keyof TraceTransactionRow>;

export type TraceTxKeyRow = Pick<TraceTransactionRow, (typeof TRACE_TX_KEY_COLUMNS)[number]>;

/** Every column but the version: what the trace stage reloads of the transactions of its in-flight traces. */
export const TRACE_TX_STATE_COLUMNS = [...TRACE_TX_KEY_COLUMNS, 'tx_now', 'mc_seqno'] as const satisfies ReadonlyArray<keyof TraceTransactionRow>;

export type TraceTxStateRow = Pick<TraceTransactionRow, (typeof TRACE_TX_STATE_COLUMNS)[number]>;
