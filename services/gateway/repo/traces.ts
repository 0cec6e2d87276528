import { selectList } from '../../../shared/store/tables/columns.js';
import { messageSidePoints } from '../../../shared/store/tables/message-side-points.js';
import { messageSides } from '../../../shared/store/tables/message-sides.js';
import { traceEdges } from '../../../shared/store/tables/trace-edges.js';
import { type TraceEndRow, traceEnds } from '../../../shared/store/tables/trace-ends.js';
import { TRACE_TX_KEY_COLUMNS, type TraceTxKeyRow, traceTransactions } from '../../../shared/store/tables/trace-transactions.js';
import { type TraceRow, traces } from '../../../shared/store/tables/traces.js';
import { TRANSACTION_KEY_COLUMNS, transactions } from '../../../shared/store/tables/transactions.js';
import { type Db, type DbCore, type Req, query } from './db.js';
import { type Sort, type TransactionRecord, type TxKey, compareU64 } from './records.js';

/**
 * /api/v3/traces (api-v3.md §3.2) over what the trace stage writes (services/traces/stage.ts): `traces` (one row per
 * trace and version, 0017), `trace_transactions` (0018; by trace, `by_tx` by transaction hash, `by_account` by
 * account, 0024).
 *
 * 1. a *lookup* returns the page's trace rows: the traces a filter names, found on a primary key or projection
 *    (trace ids: `traces`' key; transaction hashes: `by_tx`; message hashes: `trace_edges`' key for messages between
 *    transactions, `message_sides` / `message_side_points` for the others; an account: `by_account`), the newest
 *    version of each, then the time, lt and masterchain conditions, TON Center's order and the page;
 * 2. the *transactions* of those traces by `trace_transactions`' key, whose records the transaction reads load
 *    ({@link TxKey}, repo/transactions.ts), with the trace tree built from their messages.
 */

/** What a trace read returns: the newest row of each trace, every column (shared/store/tables/traces.ts). */
const TRACE_COLUMNS = selectList(traces.written);

/** TON Center's `-max-trace-txs`: a larger trace is answered without its transactions (`is_incomplete`). */
export const MAX_TRACE_TXS = 4000;

export interface TraceFilter {
  account?: string;
  traceIds?: string[];
  txHashes?: string[];
  msgHashes?: string[];
  mcSeqno?: number;
  start_utime?: number;
  end_utime?: number;
  start_lt?: string;
  end_lt?: string;
}

/** The traces of `f`, newest row of each, in TON Center's order (`end_lt S, trace_id S`, or `end_utime S, trace_id S` with a utime window). */
export async function findTraces(db: DbCore, req: Req, f: TraceFilter, page: { limit: number; offset: number; sort: Sort }): Promise<TraceRow[]> {
  const params: Record<string, unknown> = { limit: page.limit, offset: page.offset };
  let ids: string;
  if (f.traceIds !== undefined) {
    params.ids = f.traceIds;
    ids = 'trace_id IN {ids:Array(String)}';
  } else if (f.txHashes !== undefined) {
    params.hashes = f.txHashes;
    ids = `trace_id IN (SELECT trace_id FROM ${traceTransactions.name} WHERE tx_hash IN {hashes:Array(String)})`;
  } else if (f.msgHashes !== undefined) {
    params.hashes = f.msgHashes;
    params.sideKeys = f.msgHashes.flatMap((h) => [`${h}|in`, `${h}|out`]);
    // A message between two transactions of a trace is an edge of it; an external-in message (raw or normalized
    // hash) starts the trace of the transaction it went to (message_sides); an external-out one belongs to its
    // sender's trace, an internal one still to deliver or bounced to nowhere too (message_side_points).
    ids = `trace_id IN (
      SELECT trace_id FROM ${traceEdges.name} WHERE msg_hash IN {hashes:Array(String)}
      UNION ALL
      SELECT trace_id FROM ${traceTransactions.name} WHERE tx_hash IN (
        SELECT hash FROM ${transactions.name} WHERE (${selectList(TRANSACTION_KEY_COLUMNS)}) IN (
          SELECT tx_account, tx_lt FROM ${messageSides.name} WHERE lookup_hash IN {hashes:Array(String)}
          UNION ALL
          SELECT splitByChar('|', tx)[1], toUInt64(splitByChar('|', tx)[2]) FROM ${messageSidePoints.name}
          WHERE key IN {sideKeys:Array(String)})))`;
  } else if (f.account !== undefined) {
    params.account = f.account;
    ids = `trace_id IN (SELECT trace_id FROM ${traceTransactions.name} WHERE tx_account = {account:String})`;
  } else if (f.mcSeqno !== undefined) {
    // The traces that ended in the block, on 0027's trace_ends.by_mc_seqno_end (an older row of a trace may name
    // another block: the newest row's is checked below).
    ids = `trace_id IN (SELECT trace_id FROM ${traceEnds.name} WHERE mc_seqno_end = {mc:UInt32})`;
  } else {
    return listTraces(db, req, f, page);
  }
  const where = windowConditions(f, params);
  if (f.mcSeqno !== undefined) {
    params.mc = f.mcSeqno;
    where.push("state = 'complete'", 'mc_seqno_end = {mc:UInt32}');
  }
  const dir = page.sort === 'asc' ? 'ASC' : 'DESC';
  const byUtime = f.start_utime !== undefined || f.end_utime !== undefined;
  const order = `${byUtime ? 'end_utime' : 'end_lt'} ${dir}, trace_id ${dir}`;
  return readNewest(db, req, ids, where, `ORDER BY ${order} LIMIT {limit:UInt32} OFFSET {offset:UInt32}`, params);
}

/** The lt and utime window of `f` as conditions on a trace row (binding their parameters into `params`). */
function windowConditions(f: TraceFilter, params: Record<string, unknown>): string[] {
  const where: string[] = [];
  if (f.start_utime !== undefined) (params.su = f.start_utime), where.push('end_utime >= {su:UInt32}');
  if (f.end_utime !== undefined) (params.eu = f.end_utime), where.push('end_utime <= {eu:UInt32}');
  if (f.start_lt !== undefined) (params.sl = f.start_lt), where.push('end_lt >= {sl:UInt64}');
  if (f.end_lt !== undefined) (params.el = f.end_lt), where.push('end_lt <= {el:UInt64}');
  return where;
}

/** The newest row of each trace `ids` selects, kept if it meets `where`, then `tail` (order and page). */
async function readNewest(db: DbCore, req: Req, ids: string, where: readonly string[], tail: string, params: Record<string, unknown>): Promise<TraceRow[]> {
  return query<TraceRow>(
    db,
    req,
    `SELECT ${TRACE_COLUMNS}
     FROM (SELECT ${TRACE_COLUMNS} FROM ${traces.name} WHERE ${ids} ORDER BY version DESC LIMIT 1 BY trace_id)
     ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
     ${tail}`,
    params,
  );
}

/**
 * Traces without an id filter, newest (or oldest) first: candidate rows in TON Center's order from 0027's
 * `trace_ends` (its key, or by_end_utime with a utime window), read in order and cut by LIMIT, then the newest row of
 * each candidate trace by `traces`' key. A candidate that is not its trace's newest row (a pending trace written again
 * at a later masterchain block, until the merge drops the old row) is skipped: the trace is listed where its newest
 * row sorts. The page is filled chunk by chunk, so memory stays bounded by the chunk whatever the offset.
 */
async function listTraces(db: DbCore, req: Req, f: TraceFilter, page: { limit: number; offset: number; sort: Sort }): Promise<TraceRow[]> {
  const dir = page.sort === 'asc' ? 'ASC' : 'DESC';
  const byUtime = f.start_utime !== undefined || f.end_utime !== undefined;
  const key = byUtime ? 'end_utime' : 'end_lt';
  // The first chunk is the page itself: a replaced row is rare. Each further chunk doubles (up to a bound).
  let chunk = Math.min(page.offset + page.limit, 10_000);
  const out: TraceRow[] = [];
  const seen = new Set<string>();
  let toSkip = page.offset;
  for (let from = 0; out.length < page.limit; from += chunk, chunk = Math.min(2 * chunk, 10_000)) {
    const params: Record<string, unknown> = { chunk, from };
    const where = windowConditions(f, params);
    const candidates = await query<Pick<TraceEndRow, 'trace_id' | 'version'>>(
      db,
      req,
      `SELECT ${selectList<TraceEndRow>(['trace_id', 'version'])} FROM ${traceEnds.name} ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY ${key} ${dir}, trace_id ${dir} LIMIT {chunk:UInt32} OFFSET {from:UInt64}`,
      params,
    );
    if (candidates.length === 0) break;
    const ids = [...new Set(candidates.map((c) => c.trace_id))].filter((id) => !seen.has(id));
    const newest = new Map(
      (ids.length === 0 ? [] : await readNewest(db, req, 'trace_id IN {ids:Array(String)}', [], '', { ids })).map((t) => [t.trace_id, t]),
    );
    for (const c of candidates) {
      const t = newest.get(c.trace_id);
      if (!t || t.version !== c.version || seen.has(t.trace_id)) continue;
      seen.add(t.trace_id);
      if (toSkip > 0) {
        toSkip--;
        continue;
      }
      out.push(t);
      if (out.length === page.limit) break;
    }
    if (candidates.length < chunk) break;
  }
  return out;
}

/** A transaction of a trace: its hash and its key for the transaction reads. */
export interface TraceTxKey extends TxKey {
  hash: string;
}

/** The transactions of `traceIds` (by `trace_transactions`' key), per trace, in lt order. */
export async function traceTransactionKeys(db: Db, req: Req, traceIds: readonly string[]): Promise<Map<string, TraceTxKey[]>> {
  const out = new Map<string, TraceTxKey[]>();
  if (traceIds.length === 0) return out;
  const rows = await query<TraceTxKeyRow>(
    db,
    req,
    // Replayed rows repeat a transaction (same key).
    `SELECT ${selectList(TRACE_TX_KEY_COLUMNS)} FROM ${traceTransactions.name} WHERE trace_id IN {ids:Array(String)}
     LIMIT 1 BY trace_id, tx_lt, tx_hash`,
    { ids: traceIds },
  );
  for (const r of rows) {
    let list = out.get(r.trace_id);
    if (!list) out.set(r.trace_id, (list = []));
    list.push({ hash: r.tx_hash, account: r.tx_account, lt: r.tx_lt });
  }
  for (const list of out.values()) list.sort((a, b) => compareU64(a.lt, b.lt) || (a.account < b.account ? -1 : a.account > b.account ? 1 : 0));
  return out;
}

/** A node of a trace tree as TON Center prints it: leaves have `children: []`. */
export interface TraceNode {
  tx_hash: string;
  in_msg_hash: string | null;
  children: TraceNode[];
}

/**
 * The tree of a trace's transactions (in lt order, the root first): each transaction hangs under the one whose out
 * message is its in message, children in lt order. `missing` when a transaction other than the root has no parent
 * among them (TON Center's "missing node in trace found").
 */
export function traceTree(rootHash: string, txs: readonly TransactionRecord[]): { tree: TraceNode | null; missing: boolean } {
  const nodes = new Map<string, TraceNode>();
  const senderOf = new Map<string, string>();
  for (const t of txs) {
    nodes.set(t.hash, { tx_hash: t.hash, in_msg_hash: t.in_msg?.hash ?? null, children: [] });
    for (const m of t.out_msgs) senderOf.set(m.hash, t.hash);
  }
  let missing = false;
  for (const t of txs) {
    if (t.hash === rootHash) continue;
    const parent = t.in_msg ? senderOf.get(t.in_msg.hash) : undefined;
    const node = parent !== undefined ? nodes.get(parent) : undefined;
    if (node) node.children.push(nodes.get(t.hash)!);
    else missing = true;
  }
  return { tree: nodes.get(rootHash) ?? null, missing: missing || !nodes.has(rootHash) };
}
