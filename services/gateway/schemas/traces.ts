import { z } from 'zod';
import { Transaction, hash, u64 } from '../../../shared/ton/records/wire.js';
import { Action, supportedActionTypes } from './actions.js';
import { P, query } from './common.js';
import { AddressBook, Metadata } from './records.js';

/** /api/v3/traces and /api/v3/events (api-v3.md §3.2): parameters as TON Center's published spec names them. */
export const TracesQuery = query({
  account: P.address('List traces where this account took part (any form).'),
  trace_id: P.hashes('Trace id(s): the hash of the trace\'s root transaction (hex, base64 or base64url).'),
  tx_hash: P.hashes('Hash(es) of a transaction in the trace.'),
  msg_hash: P.hashes('Hash(es) of a message in the trace (raw or normalized for external messages).'),
  mc_seqno: P.int32('Complete traces whose last transaction the masterchain block with this seqno commits.'),
  start_utime: P.utime('Traces whose `end_utime` is at or after this timestamp (orders by `end_utime`).'),
  end_utime: P.utime('Traces whose `end_utime` is at or before this timestamp (orders by `end_utime`).'),
  start_lt: P.lt('Traces whose `end_lt` is at or above this value.'),
  end_lt: P.lt('Traces whose `end_lt` is at or below this value.'),
  include_actions: P.boolDefault('Include the trace\'s classified actions.', false),
  supported_action_types: supportedActionTypes(),
  limit: P.limit(),
  offset: P.offset(),
  sort: P.sort('Sort traces by `end_lt` (`end_utime` with a utime window).'),
}).superRefine((q, ctx) => {
  const given = [q.account, q.trace_id, q.tx_hash, q.msg_hash].filter((v) => v !== undefined).length;
  if (given > 1) {
    ctx.addIssue({ code: 'custom', message: 'only one of account, trace_id, tx_hash, msg_hash should be specified', params: { status: 422 } });
  }
});

export const TraceMeta = z
  .object({
    trace_state: z.enum(['complete', 'pending', 'broken']),
    messages: z.number().int(),
    transactions: z.number().int(),
    pending_messages: z.number().int(),
    classification_state: z.enum(['unclassified', 'failed', 'ok', 'broken']),
  })
  .meta({ id: 'TraceMeta' });

export interface TraceNodeWire {
  tx_hash: string;
  in_msg_hash: string | null;
  children: TraceNodeWire[];
}

export const TraceNode: z.ZodType<TraceNodeWire> = z
  .object({
    tx_hash: hash,
    in_msg_hash: hash.nullable(),
    get children(): z.ZodArray<z.ZodType<TraceNodeWire>> {
      return z.array(TraceNode);
    },
  })
  .meta({ id: 'TraceNode' });

export const Trace = z
  .object({
    trace_id: hash,
    external_hash: hash.nullable(),
    mc_seqno_start: u64(),
    mc_seqno_end: u64(),
    start_lt: u64(),
    start_utime: z.number().int(),
    end_lt: u64(),
    end_utime: z.number().int(),
    trace_info: TraceMeta,
    is_incomplete: z.boolean(),
    warning: z.string().optional(),
    // The classified actions (include_actions).
    actions: z.array(Action).optional(),
    trace: TraceNode.optional(),
    transactions_order: z.array(hash),
    transactions: z.record(z.string(), Transaction),
  })
  .meta({ id: 'Trace' });

export const TracesResponse = z
  .object({ traces: z.array(Trace), address_book: AddressBook, metadata: Metadata })
  .meta({ id: 'TracesResponse' });

/** /api/v3/events names the array `events` (a deprecated alias, api-v3.md §3.2). */
export const EventsResponse = z
  .object({ events: z.array(Trace), address_book: AddressBook, metadata: Metadata })
  .meta({ id: 'EventsResponse' });
