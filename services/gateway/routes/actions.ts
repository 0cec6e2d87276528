import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { type ActionWire, type StoredAction, actionAddresses, actionWire } from '../../../shared/ton/actions/api.js';
import { expandActionTypes } from '../../../shared/ton/actions/versioning.js';
import { notFound } from '../errors.js';
import { type ActionFilter, actionTransactionKeys, findActionKeys, readActions } from '../repo/actions.js';
import { hasMasterchainBlock } from '../repo/blocks.js';
import type { TransactionRecord, TxKey } from '../repo/records.js';
import { loadTransactions } from '../repo/transactions.js';
import { ActionsQuery, ActionsResponse } from '../schemas/actions.js';
import { IndexError } from '../schemas/records.js';
import { type App, type RouteDeps, book, emptyMetadata, zod } from './context.js';

const tags = ['Actions and traces'];
const errors = { 404: IndexError, 422: IndexError, 500: IndexError };

/**
 * The action types a request's client understands (api-v3.md §0.2, §3.1): the header `X-Actions-Version` replaces
 * `supported_action_types` (a comma-separated list); default `latest`; expanded through the version shortcuts.
 */
export function supportedTypes(req: FastifyRequest, param: readonly string[] | undefined): string[] {
  const header = req.headers['x-actions-version'];
  const fromHeader = (Array.isArray(header) ? header : header === undefined ? [] : [header])
    .flatMap((h) => h.split(','))
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const requested = fromHeader.length > 0 ? fromHeader : param && param.length > 0 ? param : ['latest'];
  return [...expandActionTypes(requested)];
}

/** The hashes of the transactions that sent or received the messages `hashes` (raw or normalized). */
async function messageTransactions(deps: RouteDeps, req: FastifyRequest, hashes: readonly string[]): Promise<string[]> {
  const sides = await deps.db.batches.txKeysByMessage.get(hashes, req.tf);
  const keys: TxKey[] = [...sides.values()].flat();
  const { transactions } = await loadTransactions(deps.db, req.tf, keys);
  return [...new Set(transactions.map((t) => t.hash))];
}

/** api-v3.md §3.1: `/api/v3/actions`. */
export function actionRoutes(app: App, deps: RouteDeps): void {
  const r = zod(app);

  async function actions(req: FastifyRequest, q: z.output<typeof ActionsQuery>) {
    if (q.mc_seqno !== undefined && !(await hasMasterchainBlock(deps.db, req.tf, q.mc_seqno))) {
      throw notFound(`masterchain block ${q.mc_seqno} not found`);
    }
    let txHashes = q.tx_hash;
    if (q.msg_hash !== undefined) {
      const ofMessages = await messageTransactions(deps, req, q.msg_hash);
      txHashes = txHashes === undefined ? ofMessages : txHashes.filter((h) => ofMessages.includes(h));
    }
    const filter: ActionFilter = {
      supported: supportedTypes(req, q.supported_action_types),
      ...(q.account !== undefined ? { account: q.account } : {}),
      ...(txHashes !== undefined ? { txHashes } : {}),
      ...(q.action_id !== undefined ? { actionIds: q.action_id } : {}),
      ...(q.trace_id !== undefined ? { traceIds: q.trace_id } : {}),
      ...(q.mc_seqno !== undefined ? { mcSeqno: q.mc_seqno } : {}),
      ...(q.start_utime !== undefined ? { start_utime: q.start_utime } : {}),
      ...(q.end_utime !== undefined ? { end_utime: q.end_utime } : {}),
      ...(q.start_lt !== undefined ? { start_lt: q.start_lt } : {}),
      ...(q.end_lt !== undefined ? { end_lt: q.end_lt } : {}),
      ...(q.action_type !== undefined ? { types: q.action_type } : {}),
      ...(q.exclude_action_type !== undefined ? { excludeTypes: q.exclude_action_type } : {}),
    };
    // A message no stored transaction sent or received: nothing to find.
    if (txHashes !== undefined && txHashes.length === 0) return { actions: [], address_book: {}, metadata: emptyMetadata() };
    const keys = await findActionKeys(deps.db, req.tf, filter, { limit: q.limit, offset: q.offset, sort: q.sort });
    const rows = await readActions(deps.db, req.tf, keys);
    const out: Array<ActionWire & { transactions_full?: TransactionRecord[] }> = rows.map((row) => actionWire(row, { includeAccounts: q.include_accounts }));
    let codes: ReadonlyMap<string, string | null> | undefined;
    if (q.include_transactions) {
      const full = await actionTransactions(deps, req, rows);
      codes = full.codes;
      rows.forEach((row, i) => {
        const txs = row.tx_hashes.flatMap((h) => full.byHash.get(h) ?? []);
        if (txs.length > 0) out[i]!.transactions_full = txs;
      });
    }
    return { actions: out, address_book: await book(deps, req, rows.flatMap(actionAddresses), codes), metadata: emptyMetadata() };
  }

  r.get(
    '/api/v3/actions',
    {
      schema: {
        tags,
        operationId: 'api_v3_get_actions',
        summary: 'Get actions',
        description:
          'Classified actions (transfers, swaps, mints, …) by account, transaction, message, action id, trace or masterchain ' +
          'block; ordered by the end lt (end utime with a utime window) of their trace.',
        querystring: ActionsQuery,
        response: { 200: ActionsResponse, ...errors },
      },
    },
    (req) => actions(req, req.query),
  );
}

/** The transaction records of `rows`' actions, by hash (their keys from trace_transactions, by trace). */
async function actionTransactions(deps: RouteDeps, req: FastifyRequest, rows: readonly StoredAction[]) {
  const hashes = [...new Set(rows.flatMap((r) => r.tx_hashes))];
  const keyOf = await actionTransactionKeys(deps.db, req.tf, [...new Set(rows.map((r) => r.trace_id))], hashes);
  const { transactions, codes } = await loadTransactions(deps.db, req.tf, [...keyOf.values()]);
  const byHash = new Map<string, TransactionRecord>(transactions.map((t) => [t.hash, t]));
  return { byHash, codes };
}
