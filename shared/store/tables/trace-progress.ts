import { int, type RowOf, table, text } from './columns.js';

/** `trace_progress` (0018_trace_links.sql). The last masterchain block each trace stage finished. */
export const traceProgress = table('trace_progress', {
  stage: text('LowCardinality(String)'),
  mc_seqno: int('UInt32'),
});

export type TraceProgressRow = RowOf<typeof traceProgress.columns>;
