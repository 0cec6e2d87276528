import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { notFound } from '../errors.js';
import { hasMasterchainBlock } from '../repo/blocks.js';
import { type StoredAction, actionAddresses, actionWire } from '../../../shared/ton/actions/api.js';
import { readTraceActions } from '../repo/actions.js';
import type { TraceRow } from '../../../shared/store/tables/traces.js';
import { MAX_TRACE_TXS, type TraceFilter, findTraces, traceTransactionKeys, traceTree } from '../repo/traces.js';
import { loadTransactions, transactionAddresses } from '../repo/transactions.js';
import type { TransactionRecord } from '../repo/records.js';
import { IndexError } from '../schemas/records.js';
import { EventsResponse, TracesQuery, TracesResponse } from '../schemas/traces.js';
import { supportedTypes } from './actions.js';
import { type App, type RouteDeps, book, emptyMetadata, zod } from './context.js';

const tags = ['Actions and traces'];
const errors = { 404: IndexError, 422: IndexError, 500: IndexError };

/** api-v3.md §3.2: `/api/v3/traces` and its deprecated alias `/api/v3/events` (actions always, array named `events`). */
export function traceRoutes(app: App, deps: RouteDeps): void {
  const r = zod(app);

  async function traces(req: FastifyRequest, q: z.output<typeof TracesQuery>, includeActions: boolean) {
    const filter: TraceFilter = {
      ...(q.account !== undefined ? { account: q.account } : {}),
      ...(q.trace_id !== undefined ? { traceIds: q.trace_id } : {}),
      ...(q.tx_hash !== undefined ? { txHashes: q.tx_hash } : {}),
      ...(q.msg_hash !== undefined ? { msgHashes: q.msg_hash } : {}),
      ...(q.mc_seqno !== undefined ? { mcSeqno: q.mc_seqno } : {}),
      ...(q.start_utime !== undefined ? { start_utime: q.start_utime } : {}),
      ...(q.end_utime !== undefined ? { end_utime: q.end_utime } : {}),
      ...(q.start_lt !== undefined ? { start_lt: q.start_lt } : {}),
      ...(q.end_lt !== undefined ? { end_lt: q.end_lt } : {}),
    };
    if (q.mc_seqno !== undefined && !(await hasMasterchainBlock(deps.db, req.tf, q.mc_seqno))) {
      throw notFound(`masterchain block ${q.mc_seqno} not found`);
    }
    const rows = await findTraces(deps.db, req.tf, filter, { limit: q.limit, offset: q.offset, sort: q.sort });
    const loadable = rows.filter((t) => t.transactions <= MAX_TRACE_TXS).map((t) => t.trace_id);
    const keysOf = await traceTransactionKeys(deps.db, req.tf, loadable);
    // Every trace's transactions in one read (the transaction reads batch their statements).
    const { transactions, codes } = await loadTransactions(deps.db, req.tf, [...keysOf.values()].flat());
    const byHash = new Map(transactions.map((t) => [t.hash, t]));
    // The actions of the traces whose transactions are loaded (ton-index-go reads the others' neither), shown by the
    // client's supported types.
    const actions = includeActions ? await readTraceActions(deps.db, req.tf, loadable, supportedTypes(req, q.supported_action_types)) : new Map<string, StoredAction[]>();
    const out = rows.map((row) =>
      traceWire(
        row,
        (keysOf.get(row.trace_id) ?? []).flatMap((k) => byHash.get(k.hash) ?? []),
        includeActions ? (actions.get(row.trace_id) ?? []) : null,
      ),
    );
    const addresses = [...transactionAddresses(transactions), ...[...actions.values()].flat().flatMap(actionAddresses)];
    return { traces: out, address_book: await book(deps, req, addresses, codes), metadata: emptyMetadata() };
  }

  r.get(
    '/api/v3/traces',
    {
      schema: {
        tags,
        operationId: 'api_v3_get_traces',
        summary: 'Get traces',
        description:
          'Traces (a transaction and every transaction its messages caused) by account, trace id, transaction or message hash, ' +
          'or masterchain block; ordered by `end_lt` (`end_utime` with a utime window).',
        querystring: TracesQuery,
        response: { 200: TracesResponse, ...errors },
      },
    },
    (req) => traces(req, req.query, req.query.include_actions),
  );

  r.get(
    '/api/v3/events',
    {
      schema: {
        tags,
        operationId: 'api_v3_get_events',
        summary: 'Get events (deprecated: use traces)',
        description: '`/api/v3/traces` with `include_actions=true`, the array named `events`.',
        querystring: TracesQuery,
        response: { 200: EventsResponse, ...errors },
      },
    },
    async (req) => {
      const { traces: events, address_book, metadata } = await traces(req, req.query, true);
      return { events, address_book, metadata };
    },
  );
}

/**
 * A trace as TON Center prints it (api-v3.md §3.2), its transactions in lt order; `actions`: the trace's actions
 * (include_actions), or null to leave them out.
 */
function traceWire(row: TraceRow, txs: readonly TransactionRecord[], actions: StoredAction[] | null) {
  const incomplete = row.transactions > MAX_TRACE_TXS;
  const { tree, missing } = incomplete || txs.length === 0 ? { tree: null, missing: false } : traceTree(row.trace_id, txs);
  const warning = incomplete ? 'trace is too large' : missing ? 'missing node in trace found' : undefined;
  return {
    trace_id: row.trace_id,
    external_hash: row.external_hash,
    mc_seqno_start: String(row.mc_seqno_start),
    mc_seqno_end: String(row.mc_seqno_end),
    start_lt: row.start_lt,
    start_utime: row.start_utime,
    end_lt: row.end_lt,
    end_utime: row.end_utime,
    trace_info: {
      trace_state: row.state,
      messages: row.messages,
      transactions: row.transactions,
      pending_messages: row.pending_messages,
      // TON Center's classifier no longer sets it (since its "Atomic classification", 2025-02): a stored trace keeps
      // the column's default, classified or not, with or without actions (indexing-semantics.md §1.2).
      classification_state: 'unclassified' as const,
    },
    is_incomplete: incomplete,
    ...(warning !== undefined ? { warning } : {}),
    ...(actions !== null ? { actions: actions.map((a) => actionWire(a, { includeAccounts: false })) } : {}),
    ...(tree ? { trace: tree } : {}),
    transactions_order: txs.map((t) => t.hash),
    transactions: Object.fromEntries(txs.map((t) => [t.hash, t])),
  };
}
