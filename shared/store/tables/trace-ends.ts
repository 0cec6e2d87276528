import { bigUint, hash44, int, type RowOf, table } from './columns.js';

/**
 * `trace_ends` (0027_trace_ends.sql). Every row of `traces` (each version of a trace) by (end_lt, trace_id), for
 * /api/v3/traces without an id filter; a materialized view writes it from `traces`.
 */
export const traceEnds = table('trace_ends', {
  end_lt: bigUint('UInt64'),
  trace_id: hash44(),
  version: int('UInt32'),
  end_utime: int('UInt32'),
  mc_seqno_end: int('UInt32'),
});

export type TraceEndRow = RowOf<typeof traceEnds.columns>;
