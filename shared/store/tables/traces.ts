import { bigUint, hash44, int, nullable, type RowOf, table, typed } from './columns.js';

/** `traces` (0017_traces.sql). Traces, one row per trace, newest version wins (the trace stage writes them). */
export const traces = table('traces', {
  trace_id: hash44(),
  external_hash: nullable(hash44()),
  external_hash_norm: nullable(hash44()),
  mc_seqno_start: int('UInt32'),
  mc_seqno_end: int('UInt32'),
  start_lt: bigUint('UInt64'),
  start_utime: int('UInt32'),
  end_lt: bigUint('UInt64'),
  end_utime: int('UInt32'),
  state: typed<'complete' | 'pending' | 'broken'>("Enum8('complete' = 1, 'pending' = 2, 'broken' = 3)"),
  transactions: int('UInt32'),
  messages: int('UInt32'),
  pending_messages: int('Int32'),
  version: int('UInt32'),
});

export type TraceRow = RowOf<typeof traces.columns>;
