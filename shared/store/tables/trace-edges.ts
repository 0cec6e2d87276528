import { hash44, int, type RowOf, table, text } from './columns.js';

/** `trace_edges` (0018_trace_links.sql). A trace's messages between its transactions; `right_tx` is '' while the message is in flight. */
export const traceEdges = table('trace_edges', {
  msg_hash: hash44(),
  trace_id: hash44(),
  left_tx: hash44(),
  right_tx: text(),
  mc_seqno_created: int('UInt32'),
  version: int('UInt32'),
});

export type TraceEdgeRow = RowOf<typeof traceEdges.columns>;

/** Every column but the version: what the trace stage reloads of the edges of its in-flight traces. */
export const TRACE_EDGE_STATE_COLUMNS = ['msg_hash', 'trace_id', 'left_tx', 'right_tx', 'mc_seqno_created'] as const satisfies ReadonlyArray<keyof TraceEdgeRow>;

export type TraceEdgeStateRow = Pick<TraceEdgeRow, (typeof TRACE_EDGE_STATE_COLUMNS)[number]>;
