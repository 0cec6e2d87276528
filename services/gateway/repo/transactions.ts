import { decodeTransactionDocument } from '../../../shared/contracts/transaction-document.js';
import type { QueryParams } from '../../../shared/store/store.js';
import { accountRecentTransactions } from '../../../shared/store/tables/account-recent-transactions.js';
import { accountTransactions } from '../../../shared/store/tables/account-transactions.js';
import { blocks } from '../../../shared/store/tables/blocks.js';
import { selectList } from '../../../shared/store/tables/columns.js';
import { messageHashNorms } from '../../../shared/store/tables/message-hash-norms.js';
import { messageSidePoints } from '../../../shared/store/tables/message-side-points.js';
import { messageSides } from '../../../shared/store/tables/message-sides.js';
import { MESSAGE_SIDE_COLUMNS, MESSAGE_TX_COLUMNS, messages } from '../../../shared/store/tables/messages.js';
import { type TraceTransactionRow, traceTransactions } from '../../../shared/store/tables/trace-transactions.js';
import { transactionDocuments } from '../../../shared/store/tables/transaction-documents.js';
import { transactionHashPoints } from '../../../shared/store/tables/transaction-hash-points.js';
import { TRANSACTION_KEY_COLUMNS, TRANSACTION_PAGE_COLUMNS, transactions } from '../../../shared/store/tables/transactions.js';
import { RECORDS_PER_SLICE, yieldToLoop } from '../json-page.js';
import { readBookCodeHashes } from './address-book.js';
import { type Db, type DbCore, type Req, loadContents, loadStates, query } from './db.js';
import {
  type AccountPageRow,
  type Direction,
  type MessageSide,
  type Row,
  type Sort,
  type TransactionRecord,
  type TxKey,
  type TxRead,
  compareU64,
  contentFromRow,
  groupBy,
  transactionFromRow,
  withTraceId,
} from './records.js';

export type { AccountPageRow, MessageSide, TxKey, TxRead } from './records.js';

/**
 * Transaction reads (api-v3.md §1.5–1.8) on the paths of shared/store/queries/README.md, in two steps:
 *
 * 1. a *lookup* returns the (account, lt) keys of the page, in order, from the narrowest source that holds every
 *    condition it applies: the `by_hash` projection, the table's own key for accounts, the `by_lt` projection for
 *    lt / block / masterchain / utime windows (which map to lt windows through `blocks`), the messages projections
 *    for transactionsByMessage and adjacentTransactions; keys only, deduplicated, cut to the page;
 * 2. the *records* of those keys: from the gateway's record cache, else fetched by primary key with their
 *    messages, bodies and account states (or as one document, with point reads), together with the code hashes of
 *    their address book. The lookups by transaction hash and by message hash read the records in their own batch,
 *    so that such a request waits for one batch of statements ({@link TxRead}).
 *
 * A transaction never changes once its block is stored, except for `trace_id`, which the trace stage adds later:
 * records that have one are cached until evicted, records without one for `txRecordTtlMs` (db.ts). Reading a
 * wide row costs ClickHouse a granule of each of its columns (~20 for a transaction, ~25 per message); the
 * lookups read a few narrow columns.
 *
 * Fetches collapse replayed rows with `LIMIT 1 BY <key>` after ordering by the table's ReplacingMergeTree version
 * instead of `FINAL`: the same rows FINAL returns (the highest version per key), at half the cost for point reads
 * of wide rows, which FINAL merges across every part holding the key's granule.
 */

/** The `transactions` version (0002_transactions.sql): a row with a trace_id beats one without. */
const TX_LATEST = '(trace_id IS NULL)';

/** `account, lt`, `account, lt, now`: the transaction keys and page rows the lookups read. */
const TX_KEY = selectList(TRANSACTION_KEY_COLUMNS);
const TX_PAGE = selectList(TRANSACTION_PAGE_COLUMNS);
/** `tx_account, tx_lt`: the transaction of a message row. */
const MSG_TX = selectList(MESSAGE_TX_COLUMNS);

export interface TxFilter {
  accounts?: string[];
  hash?: string;
  lt?: string;
  start_lt?: string;
  end_lt?: string;
  start_utime?: number;
  end_utime?: number;
  mc_seqno?: number;
  workchain?: number;
  shard?: string;
  seqno?: number;
}

/** Keyset position: the sort key of the last row of the previous page. */
export interface TxCursor {
  now: number;
  lt: string;
  account: string;
}

export interface TxPage {
  limit: number;
  offset: number;
  sort: Sort;
  cursor?: TxCursor;
}

/** Which of TON Center's orders a request gets (api-v3.md §1.5 "Ordering"). */
export type TxOrder = 'lt' | 'now' | 'hash' | 'exact_lt';

export function txOrder(f: TxFilter): TxOrder {
  // ton-index-go sets its ORDER BY filter by filter, each later one replacing the order before it: utime, then
  // mc_seqno, one account, hash, exact lt. So the last of those present decides.
  const byTime = f.start_utime !== undefined || f.end_utime !== undefined;
  if (f.lt !== undefined) return 'exact_lt';
  if (f.hash !== undefined) return 'hash';
  // One account: (account, now, lt) with a utime filter, else (account, lt), the same rows in the same order as
  // these (an account's now never decreases with its lt).
  if (f.accounts?.length === 1) return byTime ? 'now' : 'lt';
  if (f.mc_seqno !== undefined) return 'lt';
  return byTime ? 'now' : 'lt';
}

function orderBy(order: TxOrder, sort: Sort): string {
  const s = sort === 'asc' ? 'ASC' : 'DESC';
  switch (order) {
    case 'hash':
      return `hash ${s}, lt ${s}, account`;
    case 'now':
      return `now ${s}, lt ${s}, account`;
    case 'exact_lt':
      return `lt, account ${s}`;
    case 'lt':
      return `lt ${s}, account`;
  }
}

/** The keyset condition that continues after `c` in the given order (rows strictly after the cursor). */
function cursorCondition(order: TxOrder, sort: Sort, c: TxCursor, params: QueryParams): string[] {
  params.c_now = c.now;
  params.c_lt = c.lt;
  params.c_account = c.account;
  const lt = sort === 'asc' ? '>' : '<';
  const ltBound = sort === 'asc' ? 'lt >= {c_lt:UInt64}' : 'lt <= {c_lt:UInt64}';
  switch (order) {
    case 'lt':
      return [ltBound, `(lt ${lt} {c_lt:UInt64} OR (lt = {c_lt:UInt64} AND account > {c_account:String}))`];
    case 'now':
      return [
        sort === 'asc' ? 'now >= {c_now:UInt32}' : 'now <= {c_now:UInt32}',
        `(now ${lt} {c_now:UInt32} OR (now = {c_now:UInt32} AND (lt ${lt} {c_lt:UInt64} OR (lt = {c_lt:UInt64} AND account > {c_account:String}))))`,
      ];
    case 'exact_lt':
      return [`account ${lt} {c_account:String}`];
    case 'hash':
      return [];
  }
}

const UINT32_MAX = 4294967295;

interface Plan {
  /** Conditions on columns of the `by_lt` projection / the table (everything but hash). */
  where: string[];
  params: QueryParams;
}

/** Conditions of a filter other than `hash` and `accounts`; null when it can match nothing. */
function conditions(f: TxFilter): Plan | null {
  const where: string[] = [];
  const params: QueryParams = {};
  const u32 = (v: number): boolean => v >= 0 && v <= UINT32_MAX;
  if (f.lt !== undefined) {
    where.push('lt = {lt:UInt64}');
    params.lt = f.lt;
  }
  if (f.start_lt !== undefined) {
    where.push('lt >= {start_lt:UInt64}');
    params.start_lt = f.start_lt;
  }
  if (f.end_lt !== undefined) {
    where.push('lt <= {end_lt:UInt64}');
    params.end_lt = f.end_lt;
  }
  if (f.start_utime !== undefined) {
    where.push('now >= {start_utime:UInt32}');
    params.start_utime = f.start_utime;
  }
  if (f.end_utime !== undefined) {
    where.push('now <= {end_utime:UInt32}');
    params.end_utime = f.end_utime;
  }
  if (f.mc_seqno !== undefined) {
    if (!u32(f.mc_seqno)) return null;
    where.push('mc_block_seqno = {mc_seqno:UInt32}');
    params.mc_seqno = f.mc_seqno;
  }
  if (f.workchain !== undefined) {
    where.push('block_workchain = {workchain:Int32}');
    params.workchain = f.workchain;
  }
  if (f.shard !== undefined) {
    where.push('block_shard = {shard:UInt64}');
    params.shard = f.shard;
  }
  if (f.seqno !== undefined) {
    if (!u32(f.seqno)) return null;
    where.push('block_seqno = {seqno:UInt32}');
    params.seqno = f.seqno;
  }
  return { where, params };
}

/**
 * lt windows implied by the block-level filters, through `blocks` (scalar subqueries, evaluated before index
 * analysis): a masterchain block's blocks' lt span, a block's [start_lt, end_lt], the blocks generated in a utime
 * window. They let the `by_lt` projection's key narrow the lookup (README: tx.by_mc_seqno, tx.by_block, tx.by_utime).
 */
function ltWindows(f: TxFilter): string[] {
  const out: string[] = [];
  if (f.mc_seqno !== undefined) {
    out.push(`lt >= (SELECT min(start_lt) FROM ${blocks.name} WHERE mc_block_seqno = {mc_seqno:UInt32})`);
    out.push(`lt <= (SELECT max(end_lt) FROM ${blocks.name} WHERE mc_block_seqno = {mc_seqno:UInt32})`);
  }
  if (f.workchain !== undefined && f.shard !== undefined && f.seqno !== undefined) {
    const id = 'workchain = {workchain:Int32} AND shard = {shard:UInt64} AND seqno = {seqno:UInt32}';
    out.push(`lt >= (SELECT min(start_lt) FROM ${blocks.name} WHERE ${id})`);
    out.push(`lt <= (SELECT max(end_lt) FROM ${blocks.name} WHERE ${id})`);
  }
  if (f.start_utime !== undefined || f.end_utime !== undefined) {
    const w = [
      f.start_utime !== undefined ? 'gen_utime >= {start_utime:UInt32}' : null,
      f.end_utime !== undefined ? 'gen_utime <= {end_utime:UInt32}' : null,
    ]
      .filter((x) => x !== null)
      .join(' AND ');
    out.push(`lt >= (SELECT min(start_lt) FROM ${blocks.name} WHERE ${w})`);
    out.push(`lt <= (SELECT max(end_lt) FROM ${blocks.name} WHERE ${w})`);
  }
  return out;
}

export interface TxResult {
  keys: TxKey[];
  /** The cursor after the last row when the page is full (more may follow), else null. */
  next: TxCursor | null;
}

/** /transactions (and transactionsByMasterchainBlock): the keys of the page, in order. */
export async function findTransactionKeys(db: Db, req: Req, f: TxFilter, page: TxPage): Promise<TxResult> {
  const plan = conditions(f);
  if (!plan) return { keys: [], next: null };
  const order = txOrder(f);
  const params: QueryParams = { ...plan.params, limit: page.limit, offset: page.cursor ? 0 : page.offset };
  const keyset = page.cursor && order !== 'hash' ? cursorCondition(order, page.sort, page.cursor, params) : [];
  const ob = orderBy(order, page.sort);

  let rows: Array<{ account: string; lt: string; now: number }>;
  if (f.hash !== undefined) {
    params.hash = f.hash;
    const cached = db.caches.txKeys.get(f.hash);
    const extra = [...plan.where];
    if (f.accounts && f.accounts.length > 0) {
      extra.push('account IN {accounts:Array(String)}');
      params.accounts = f.accounts;
    }
    if (extra.length === 0) {
      // A hash names one transaction (by_hash projection); a known hash needs no statement at all. With point reads
      // the lookup returns the transaction's record as well (readTxKeysByHash).
      const found = cached ? [cached] : ((await db.batches.txKeysByHash.get([f.hash], req)).get(f.hash) ?? []);
      const keys = found.slice(page.offset, page.offset + page.limit);
      if (!cached) for (const k of keys) db.caches.txKeys.set(f.hash, { account: k.account, lt: k.lt });
      return { keys, next: null };
    }
    // Other filters apply to the transaction the hash names: checked on its row, by primary key.
    rows = await query(
      db,
      req,
      `SELECT DISTINCT ${TX_PAGE} FROM ${transactions.name}
       WHERE (${TX_KEY}) IN (SELECT ${TX_KEY} FROM ${transactions.name} WHERE hash = {hash:String}) AND ${extra.join(' AND ')}
       ORDER BY ${ob} LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
      params,
    );
    if (!cached) for (const r of rows) db.caches.txKeys.set(f.hash, { account: String(r.account), lt: String(r.lt) });
  } else if (f.accounts?.length === 1 && plan.where.length === 0 && !page.cursor && order === 'lt' && page.offset + page.limit <= JS_PAGE_ROWS) {
    // One account's page, as wallets ask for it: shared with concurrent requests (accountPage).
    return accountPage(db, req, f.accounts[0]!, page);
  } else {
    let where: string[];
    if (f.accounts && f.accounts.length > 0) {
      // The table's own key (account, lt); idx_now / idx_mc_block_seqno narrow further inside an account.
      params.accounts = f.accounts;
      where = ['account IN {accounts:Array(String)}', ...plan.where, ...keyset];
    } else {
      // The by_lt projection (lt → account, now, mc_block_seqno, block id): every remaining filter is one of its
      // columns, and the block-level ones also bound lt through `blocks`.
      where = [...plan.where, ...ltWindows(f), ...keyset];
    }
    rows = await distinctPage(db, req, `SELECT ${TX_PAGE} FROM ${transactions.name} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${ob}`, params);
  }
  const keys = rows.map((r) => ({ account: String(r.account), lt: String(r.lt) }));
  const last = rows[rows.length - 1];
  // A hash names its transactions outright: no cursor continues it (its branch applies none).
  const next = f.hash === undefined && rows.length === page.limit && last ? { now: Number(last.now), lt: String(last.lt), account: String(last.account) } : null;
  return { keys, next };
}

/**
 * Rows a page may bring into the gateway to skip its offset and drop replayed duplicates ({@link distinctPage}); a
 * deeper page is cut by ClickHouse itself.
 */
const JS_PAGE_ROWS = 4000;

/**
 * The page `params.offset`, `params.limit` of the distinct rows of `ordered` (a `SELECT …` ending in its ORDER BY, whose
 * replayed rows are equal and hence adjacent). Not `SELECT DISTINCT`: DISTINCT keeps ClickHouse from stopping at the
 * LIMIT, so it read every row of the condition (all of an account's transactions; bench/RESULTS.md, design
 * measurements). The rows are read
 * up to the page's end and deduplicated here; while replays not yet merged leave the page short, the read is repeated
 * with twice the rows. A page that would need more than {@link JS_PAGE_ROWS} rows (a deep offset, or many duplicates)
 * takes the DISTINCT statement, so that a client cannot make the gateway hold a large part of a table.
 */
async function distinctPage(
  db: DbCore,
  req: Req,
  ordered: string,
  params: QueryParams,
): Promise<Array<{ account: string; lt: string; now: number }>> {
  const offset = Number(params.offset);
  const end = offset + Number(params.limit);
  for (let n = end; n <= JS_PAGE_ROWS; n *= 2) {
    const rows = await query<{ account: string; lt: string; now: number }>(db, req, `${ordered} LIMIT {n:UInt64}`, { ...params, n });
    const page = dropRepeats(rows);
    if (page.length >= end || rows.length < n) return page.slice(offset, end);
  }
  const distinct = ordered.replace(/^SELECT /, 'SELECT DISTINCT ');
  return query(db, req, `${distinct} LIMIT {limit:UInt32} OFFSET {offset:UInt32}`, params);
}

/** `rows` without the rows equal in key to the one before (replays of a row, adjacent in key order). */
function dropRepeats<T extends { account: unknown; lt: unknown }>(rows: readonly T[]): T[] {
  return rows.filter((r, i) => i === 0 || keyOf(r) !== keyOf(rows[i - 1]!));
}

/** `k` with the record and code hashes its batch read for it, if any. */
function withRead<T extends TxKey>(k: T, reads: ReadonlyMap<string, TxRead>): T {
  const read = reads.get(keyOf(k));
  return read ? { ...k, read } : k;
}

/**
 * transactions?account=A with nothing but limit, offset and sort: the page from the batch of such requests
 * (batches.ts, {@link readAccountPages}), with its records. The next cursor as the general listing gives it.
 */
async function accountPage(db: Db, req: Req, account: string, page: TxPage): Promise<TxResult> {
  const key = [page.sort, page.offset, page.limit, account].join('|');
  const rows = (await db.batches.accountPages.get([key], req)).get(key) ?? [];
  const last = rows[rows.length - 1];
  return { keys: rows, next: rows.length === page.limit && last ? { now: last.now, lt: last.lt, account: last.account } : null };
}

/**
 * Rows `account_recent_transactions` keeps per account (0012_account_recent_transactions.sql): newest pages that end
 * within them are read from there.
 */
const RECENT_ROWS = 64;

/**
 * The pages of a batch of `sort|offset|limit|account` keys, then the records of every page with their address book
 * ({@link TxRead}): a request waits for one batch. Newest-first pages that end within the {@link RECENT_ROWS} newest
 * rows come from `account_recent_transactions`, every account of the batch in one `IN` list ({@link readRecent});
 * the others, and those the kept rows cannot answer exactly, from `account_transactions` (0011), one UNION ALL branch
 * each that reads its account's newest (or oldest) rows in key order and stops at the page's end. Rows written twice
 * and not merged yet are skipped; a page they leave short is read again on its own ({@link distinctPage}).
 */
export async function readAccountPages(db: DbCore, req: Req, keys: readonly string[]): Promise<Map<string, AccountPageRow[]>> {
  const pages = keys.map((key) => {
    // A raw address has no '|'.
    const [sort, offset, limit, account] = key.split('|') as [string, string, string, string];
    return { key, account, sort: sort === 'asc' ? ('ASC' as const) : ('DESC' as const), offset: Number(offset), limit: Number(limit) };
  });
  const out = new Map<string, Array<{ account: string; lt: string; now?: number }>>();
  const fromRecent = pages.filter((p) => p.sort === 'DESC' && p.offset + p.limit <= RECENT_ROWS);
  const recent = fromRecent.length > 0 ? await readRecent(db, req, [...new Set(fromRecent.map((p) => p.account))]) : new Map<string, Recent>();
  const rest: typeof pages = [];
  for (const p of pages) {
    const r = p.sort === 'DESC' ? recent.get(p.account) : undefined;
    if (r && (r.complete || r.rows.length >= p.offset + p.limit)) out.set(p.key, r.rows.slice(p.offset, p.offset + p.limit));
    else rest.push(p);
  }
  if (rest.length > 0) {
    const params: QueryParams = {};
    const branches = rest.map((p, i) => {
      params[`q${i}`] = i;
      params[`a${i}`] = p.account;
      params[`n${i}`] = p.offset + p.limit;
      return `(SELECT {q${i}:UInt32} AS q, ${selectList(accountTransactions.written)} FROM ${accountTransactions.name} WHERE account = {a${i}:String} ORDER BY lt ${p.sort} LIMIT {n${i}:UInt64})`;
    });
    const rows = await query<{ q: number; account: string; lt: string; now: number }>(db, req, branches.join(' UNION ALL '), params);
    const byPage = groupBy(rows, (r) => String(r.q));
    for (let i = 0; i < rest.length; i++) {
      const p = rest[i]!;
      const got = byPage.get(String(i)) ?? [];
      const end = p.offset + p.limit;
      const distinct = dropRepeats(got);
      const page =
        distinct.length < end && got.length === end
          ? await distinctPage(db, req, `SELECT ${selectList(accountTransactions.written)} FROM ${accountTransactions.name} WHERE account = {account:String} ORDER BY lt ${p.sort}`, {
              account: p.account,
              offset: p.offset,
              limit: p.limit,
            })
          : distinct.slice(p.offset, end);
      out.set(p.key, page);
    }
  }
  const reads = await readTxReads(db, req, [...new Set([...out.values()].flat().map(keyOf))]);
  const result = new Map<string, AccountPageRow[]>();
  for (const [key, page] of out) {
    result.set(
      key,
      // account_recent_transactions keeps lts only; the record has the row's `now`. An account page's cursor
      // continues in lt order, which does not compare `now`.
      page.map((r) =>
        withRead<AccountPageRow>({ account: String(r.account), lt: String(r.lt), now: r.now !== undefined ? Number(r.now) : (reads.get(keyOf(r))?.record.now ?? 0) }, reads),
      ),
    );
  }
  return result;
}

/** An account's newest rows as `account_recent_transactions` knows them. */
interface Recent {
  /** Distinct rows, newest first: every row of the account down to the last one (none missing in between). */
  rows: Array<{ account: string; lt: string }>;
  /** The account has no rows besides these. */
  complete: boolean;
}

/**
 * The newest rows of each of `accounts`, one `IN` list. An account has a state per part not merged yet, each the
 * {@link RECENT_ROWS} highest lts of that part's rows, replays included. A full state may have dropped any lt below
 * the lowest it kept, so only the distinct lts at or above the highest such floor are certain to be all of the
 * account's rows there; without a full state, they are all of its rows. An account without transactions has no row.
 */
async function readRecent(db: DbCore, req: Req, accounts: readonly string[]): Promise<Map<string, Recent>> {
  const rows = await query<{ account: string; r: string[] }>(
    db,
    req,
    // The states keep bitNot(lt); it is undone here rather than by an arrayMap, which costs the statement a tenth more.
    `SELECT account, finalizeAggregation(newest) AS r FROM ${accountRecentTransactions.name} WHERE account IN {accounts:Array(String)} SETTINGS max_threads = 1`,
    { accounts },
  );
  const out = new Map<string, Recent>(accounts.map((a) => [a, { rows: [], complete: true }]));
  for (const [account, states] of groupBy(rows, (r) => String(r.account), (r) => r.r.map(unNot))) {
    let floor: string | null = null;
    for (const s of states) {
      if (s.length < RECENT_ROWS) continue;
      const low = s[s.length - 1]!;
      if (floor === null || compareU64(low, floor) > 0) floor = low;
    }
    const all = states.flat().sort((a, b) => compareU64(b, a));
    const kept: Recent['rows'] = [];
    for (const lt of all) {
      if (floor !== null && compareU64(lt, floor) < 0) break;
      if (kept.length === 0 || kept[kept.length - 1]!.lt !== lt) kept.push({ account, lt });
    }
    out.set(account, { rows: kept, complete: floor === null });
  }
  return out;
}

const U64_MAX = (1n << 64n) - 1n;

/** An lt from the `bitNot(lt)` that account_recent_transactions sorts by. */
function unNot(x: string | number): string {
  return (U64_MAX - BigInt(x)).toString();
}

/** transactionsByMessage's filter (api-v3.md §1.7): at least one of the three. */
export interface ByMessageFilter {
  msg_hash?: string;
  body_hash?: string;
  opcode?: number;
  direction?: Direction;
}

/**
 * Transactions that sent or received a message (README tx.by_message): the message lookup runs on the projection
 * of its first filter (by_hash, raw or normalized hash; by_body_hash; by_opcode), any further message filter on
 * the messages table by its primary key; the keys are ordered as TON Center orders the transactions.
 */
export async function transactionKeysByMessage(
  db: Db,
  req: Req,
  f: ByMessageFilter,
  page: { limit: number; offset: number; sort: Sort },
): Promise<TxKey[]> {
  const params: QueryParams = { limit: page.limit, offset: page.offset, n: page.offset + page.limit };
  const s = page.sort === 'asc' ? 'ASC' : 'DESC';
  // An opcode filter means the receiving side (api-v3.md §1.7, "implies direction `in`"), whatever else is asked:
  // TON Center adds `direction = 'in'` to its condition, so with `direction=out` nothing matches.
  if (f.direction === 'unmatched' || (f.opcode !== undefined && f.direction === 'out')) return [];
  const direction = f.opcode !== undefined ? 'in' : f.direction;
  if (f.msg_hash !== undefined && f.body_hash === undefined && f.opcode === undefined) {
    return byMessageHash(db, req, f.msg_hash, direction, page);
  }
  if (direction) params.direction = direction;
  if (f.msg_hash !== undefined) params.msg_hash = f.msg_hash;
  if (f.body_hash !== undefined) params.body_hash = f.body_hash;
  if (f.opcode !== undefined) params.opcode = f.opcode;

  const hashSet = `msg_hash IN (SELECT {msg_hash:String} UNION ALL SELECT msg_hash FROM ${messageHashNorms.name} WHERE hash_norm = {msg_hash:String})`;
  const side = selectList(MESSAGE_SIDE_COLUMNS);
  const dirCond = direction ? [`direction = {direction:String}`] : [];
  let inner: string;
  const rest: string[] = [];
  if (f.msg_hash !== undefined) {
    inner = `SELECT ${side} FROM ${messages.name} WHERE ${[hashSet, ...dirCond].join(' AND ')}`;
    if (f.body_hash !== undefined) rest.push('body_hash = {body_hash:String}');
    if (f.opcode !== undefined) rest.push('opcode = {opcode:Int32}');
  } else if (f.body_hash !== undefined) {
    inner = `SELECT ${side} FROM ${messages.name} WHERE ${['body_hash = {body_hash:String}', ...dirCond].join(' AND ')}`;
    if (f.opcode !== undefined) rest.push('opcode = {opcode:Int32}');
  } else {
    // Ordered by the receiving transaction's key, so the page is exactly TON Center's (lt, account) order.
    inner = `SELECT DISTINCT ${side} FROM ${messages.name} WHERE ${['opcode = {opcode:Int32}', ...dirCond].join(' AND ')}
             ORDER BY tx_lt ${s}, tx_account LIMIT {n:UInt32}`;
  }
  const keys = rest.length
    ? `SELECT ${MSG_TX} FROM ${messages.name} WHERE (${side}) IN (${inner}) AND ${rest.join(' AND ')}`
    : `SELECT ${MSG_TX} FROM (${inner})`;
  return query<TxKey>(
    db,
    req,
    `SELECT DISTINCT tx_account AS account, tx_lt AS lt FROM (${keys})
     ORDER BY lt ${s}, account LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
    params,
  );
}

/**
 * {@link transactionKeysByMessage} for a message hash alone (with or without direction): the transactions that
 * sent or received it come from statements shared with concurrent lookups (batches.ts), then get the order and page
 * the general statement gives them.
 */
async function byMessageHash(
  db: Db,
  req: Req,
  msgHash: string,
  direction: 'in' | 'out' | undefined,
  page: { limit: number; offset: number; sort: Sort },
): Promise<TxKey[]> {
  const sides = (await db.batches.txKeysByMessage.get([msgHash], req)).get(msgHash) ?? [];
  const seen = new Set<string>();
  const keys: TxKey[] = [];
  for (const m of sides) {
    if (direction && m.direction !== direction) continue;
    const k = keyOf(m);
    if (seen.has(k)) continue;
    seen.add(k);
    const { direction: _d, ...key } = m;
    keys.push(key);
  }
  const dir = page.sort === 'asc' ? 1 : -1;
  keys.sort((a, b) => dir * compareU64(a.lt, b.lt) || (a.account < b.account ? -1 : a.account > b.account ? 1 : 0));
  return keys.slice(page.offset, page.offset + page.limit);
}

/** Sides of one message hash whose records its lookup reads: an internal message has two. */
const MAX_SIDES_READ = 8;

/**
 * The sides of each message hash of a batch (batches.ts), the hash taken as a message hash or as an external
 * message's normalized hash (TEP-467), as the general statement takes it, with the records of those transactions and
 * their address book code hashes ({@link TxRead}).
 *
 * First `message_side_points` (0015_message_side_points.sql), the keys `hash|in` and `hash|out`: it holds every side of
 * every internal and external-out message stored, so a hash found there has all its sides there. With point reads, the
 * same statement joins each side's `transaction_documents` row by key. The hashes it lacks (external-in messages, whose
 * hash may repeat, normalized hashes, unknown hashes) are read from `message_sides` (0010_message_sides.sql).
 */
export async function readTxKeysByMessage(db: DbCore, req: Req, hashes: readonly string[]): Promise<Map<string, MessageSide[]>> {
  const keys = hashes.flatMap((h) => [`${h}|in`, `${h}|out`]);
  // Fields as stored: base64 hashes, raw addresses, numbers and JSON.stringify's output hold no tab or line break
  // (Store.queryFields). A side without a document (stored before 0009, or without the option) gets '' from the
  // LEFT JOIN: a document is never empty.
  const fields = db.pointReads
    ? await db.store.queryFields(
        `SELECT s.key, s.tx, d.doc FROM ${messageSidePoints.name} AS s LEFT JOIN ${transactionDocuments.name} AS d ON d.key = s.tx
         WHERE s.key IN {keys:Array(String)} SETTINGS join_algorithm = 'direct', max_threads = 1`,
        3,
        { keys },
        { timeoutMs: req.timeoutMs },
      )
    : await db.store.queryFields(
        `SELECT ${selectList(messageSidePoints.written)} FROM ${messageSidePoints.name} WHERE key IN {keys:Array(String)} SETTINGS max_threads = 1`,
        2,
        { keys },
        { timeoutMs: req.timeoutMs },
      );
  const sides: Array<{ hash: string; direction: string; tx: string }> = [];
  const docs = new Map<string, string>();
  for (const [key, tx, doc] of fields) {
    const [hash, direction] = splitKey(key!);
    sides.push({ hash, direction, tx: tx! });
    if (doc) docs.set(tx!, doc);
  }
  const reads = await readsWithDocuments(db, req, [...new Set(sides.map((s) => s.tx))], docs);
  const out = groupBy(
    sides,
    (s) => s.hash,
    (s) => {
      const [account, lt] = splitKey(s.tx);
      return withRead<MessageSide>({ account, lt, direction: s.direction }, reads);
    },
  );
  const rest = out.size === hashes.length ? [] : hashes.filter((h) => !out.has(h));
  if (rest.length > 0) for (const [h, list] of await readMessageSides(db, req, rest)) out.set(h, list);
  return out;
}

/**
 * {@link readTxKeysByMessage} for hashes `message_side_points` lacks: one read of `message_sides` by its key, then
 * the records of those transactions with their address book code hashes.
 */
async function readMessageSides(db: DbCore, req: Req, hashes: readonly string[]): Promise<Map<string, MessageSide[]>> {
  // Not DISTINCT: rows a replay wrote twice (until merged) are dropped here, at no cost to the store (DISTINCT costs
  // the store more; bench/RESULTS.md, design measurements). Fields as stored: base64 hashes, the direction's
  // name, raw addresses and numbers hold no tab or line break (Store.queryFields).
  const fields = await db.store.queryFields(
    `SELECT ${selectList(messageSides.written)} FROM ${messageSides.name} WHERE lookup_hash IN {hashes:Array(String)} SETTINGS max_threads = 1`,
    4,
    { hashes },
    { timeoutMs: req.timeoutMs },
  );
  const all = fields.map(([lookup_hash, direction, account, lt]) => ({ lookup_hash: lookup_hash!, direction: direction!, account: account!, lt: lt! }));
  const seen = new Set<string>();
  const rows = all.filter((r) => {
    const k = `${r.lookup_hash}|${r.direction}|${r.account}|${r.lt}`;
    return seen.has(k) ? false : (seen.add(k), true);
  });
  // The records of the sides, in this batch too: the request then waits for one batch (TxRead). A hash with many
  // sides (an external message repeated, or a normalized hash many share) gets only its page's, by loadTransactions.
  const count = new Map<string, number>();
  for (const r of rows) count.set(r.lookup_hash, (count.get(r.lookup_hash) ?? 0) + 1);
  const reads = await readTxReads(db, req, [...new Set(rows.filter((r) => count.get(r.lookup_hash)! <= MAX_SIDES_READ).map(keyOf))]);
  return groupBy(
    rows,
    (r) => r.lookup_hash,
    (r) => withRead<MessageSide>({ account: String(r.account), lt: String(r.lt), direction: r.direction }, reads),
  );
}

/**
 * adjacentTransactions (README tx.adjacent.parents / .children): `in` = the transaction that sent our in message,
 * `out` = the transactions that received our out messages, none = both; ordered by lt ascending, no limit.
 */
export async function adjacentTransactionKeys(db: Db, req: Req, hash: string, direction?: 'in' | 'out'): Promise<TxKey[]> {
  const ofTx = `(${MSG_TX}) IN (SELECT ${TX_KEY} FROM ${transactions.name} WHERE hash = {hash:String})`;
  const parents = `SELECT ${MSG_TX} FROM ${messages.name} WHERE direction = 'out' AND msg_hash IN (
      SELECT msg_hash FROM ${messages.name} WHERE direction = 'in' AND ${ofTx})`;
  const children = `SELECT ${MSG_TX} FROM ${messages.name} WHERE direction = 'in' AND msg_hash IN (
      SELECT msg_hash FROM ${messages.name} WHERE direction = 'out' AND ${ofTx})`;
  const keys = direction === 'in' ? parents : direction === 'out' ? children : `${parents} UNION ALL ${children}`;
  return query<TxKey>(db, req, `SELECT DISTINCT tx_account AS account, tx_lt AS lt FROM (${keys}) ORDER BY lt, account`, { hash });
}

const keyOf = (k: { account: unknown; lt: unknown }): string => `${String(k.account)}|${String(k.lt)}`;

/** The two parts of a stored `a|b` key (`account|lt`, `hash|direction`): the last '|' separates them. */
function splitKey(key: string): [string, string] {
  const bar = key.lastIndexOf('|');
  return [key.slice(0, bar), key.slice(bar + 1)];
}

/** The records of a page with the code hashes their lookups already read for the address book. */
export interface LoadedTransactions {
  transactions: TransactionRecord[];
  codes: Map<string, string | null>;
}

/**
 * The records of `keys`, in their order: read with the key by its lookup, else from the record cache, else fetched
 * by primary key (latest version of each row) with their messages (README tx.messages), bodies, init states and
 * account states. Keys the store does not hold (a lookup racing a replay) are skipped.
 */
export async function loadTransactions(db: Db, req: Req, keys: readonly TxKey[]): Promise<LoadedTransactions> {
  const codes = new Map<string, string | null>();
  if (keys.length === 0) return { transactions: [], codes };
  const found = new Map<string, TransactionRecord>();
  // The keys of one batch share its code hash map: each map is copied once.
  const merged = new Set<ReadonlyMap<string, string | null>>();
  const addCodes = (m: ReadonlyMap<string, string | null>): void => {
    if (merged.has(m)) return;
    merged.add(m);
    for (const [a, h] of m) codes.set(a, h);
  };
  const missing: TxKey[] = [];
  for (const k of keys) {
    if (k.read) {
      found.set(keyOf(k), k.read.record);
      addCodes(k.read.codes);
      continue;
    }
    const rec = db.caches.txRecords.get(keyOf(k));
    if (rec) found.set(keyOf(k), rec);
    else missing.push(k);
  }
  if (missing.length > 0) {
    for (const [k, read] of await db.batches.txRecords.get(missing.map(keyOf), req)) {
      found.set(k, read.record);
      addCodes(read.codes);
    }
  }
  const transactions: TransactionRecord[] = [];
  for (const k of keys) {
    const rec = found.get(keyOf(k));
    if (rec) transactions.push(rec);
  }
  return { transactions, codes };
}

/** {@link loadTransactions}' statements, for every `account|lt` key of a batch (batches.ts). */
export async function readTxReads(db: DbCore, req: Req, keys: readonly string[]): Promise<Map<string, TxRead>> {
  const early: EarlyCodes = { codes: null };
  const records = await readRecords(db, req, keys, early);
  return withCodes(db, req, records, early.codes);
}

/**
 * {@link readTxReads} for `keys` of which a statement already brought some documents (`docs`, key → document): those
 * are parsed, the others read as usual.
 */
async function readsWithDocuments(db: DbCore, req: Req, keys: readonly string[], docs: ReadonlyMap<string, string>): Promise<Map<string, TxRead>> {
  if (docs.size === 0) return readTxReads(db, req, keys);
  const have: Array<[string, string]> = [];
  for (const k of keys) {
    const doc = docs.get(k);
    if (doc !== undefined) have.push([k, doc]);
  }
  const early: EarlyCodes = { codes: null };
  const records = await documentRecords(db, req, have, early);
  const missing = records.size === keys.length ? [] : keys.filter((k) => !records.has(k));
  if (missing.length > 0) for (const [k, rec] of await readRecords(db, req, missing)) records.set(k, rec);
  return withCodes(db, req, records, early.codes);
}

/**
 * The address book's code hashes, when their read could start before the records were built: from the addresses
 * in the documents' text ({@link documentAddresses}).
 */
interface EarlyCodes {
  codes: Promise<Map<string, string | null>> | null;
}

/** Records from the record cache, else {@link readTransactions} (which then caches them). */
async function readRecords(db: DbCore, req: Req, keys: readonly string[], early?: EarlyCodes): Promise<Map<string, TransactionRecord>> {
  const out = new Map<string, TransactionRecord>();
  const missing: string[] = [];
  for (const k of keys) {
    const rec = db.caches.txRecords.get(k);
    if (rec) out.set(k, rec);
    else missing.push(k);
  }
  if (missing.length > 0) {
    for (const [k, rec] of await readTransactions(db, req, missing, early)) {
      out.set(k, rec);
      cacheRecord(db, k, rec);
    }
  }
  return out;
}

/** Records that have a trace_id are final; those without are reused for `txRecordTtlMs` (the trace stage adds it). */
function cacheRecord(db: DbCore, key: string, rec: TransactionRecord): void {
  db.caches.txRecords.set(key, rec, rec.trace_id === undefined ? db.caches.txRecordTtlMs : 0);
}

/**
 * The records with the code hashes of every address they name, in one more statement (or none, when cached). With
 * `early` (a read already under way for the addresses their documents name), only addresses it lacks are read.
 */
async function withCodes(
  db: DbCore,
  req: Req,
  records: ReadonlyMap<string, TransactionRecord>,
  early: Promise<Map<string, string | null>> | null = null,
): Promise<Map<string, TxRead>> {
  if (records.size === 0) return new Map();
  const addresses = transactionAddresses([...records.values()]);
  let codes: Map<string, string | null>;
  if (early) {
    codes = await early;
    const rest = addresses.filter((a) => a !== null && !codes.has(a));
    if (rest.length > 0) for (const [a, h] of await readBookCodeHashes(db, req, rest)) codes.set(a, h);
  } else {
    codes = await readBookCodeHashes(db, req, addresses);
  }
  return new Map([...records].map(([k, record]) => [k, { record, codes }]));
}

/**
 * The records of `account|lt` keys from the store: the `transaction_documents` rows (a transaction with its messages,
 * their contents and its states: one key lookup each, nothing else), then, for keys stored without one,
 * `transactions` and `messages` by primary key with their contents and states (0009_transaction_documents.sql).
 */
async function readTransactions(db: DbCore, req: Req, keys: readonly string[], early?: EarlyCodes): Promise<Map<string, TransactionRecord>> {
  const docs = db.pointReads
    ? await queryDocuments(db, req, `SELECT ${selectList(transactionDocuments.written)} FROM ${transactionDocuments.name} WHERE key IN {keys:Array(String)} SETTINGS max_threads = 1`, { keys })
    : [];
  if (early && docs.length > 0) await startCodes(db, req, docs, early);
  const out = new Map<string, TransactionRecord>();
  for (const [i, [key, doc]] of docs.entries()) {
    if (i > 0 && i % RECORDS_PER_SLICE === 0) await yieldToLoop();
    out.set(key, documentRecord(doc));
  }
  const rest = out.size === keys.length ? [] : keys.filter((k) => !out.has(k));
  if (rest.length > 0) for (const rec of await toRecords(db, req, await readTransactionTables(db, req, rest))) out.set(keyOf(rec), rec);
  await addTraceIds(db, req, out);
  return out;
}

/**
 * Gives the records of `records` that lack one the `trace_id` the trace stage assigned (`trace_transactions`, its
 * `by_tx` projection: one statement for the whole batch). The stage writes trace_transactions, not `transactions`, so
 * this is where a record gets its trace; a record the stage has not reached yet stays without (cached for
 * `txRecordTtlMs` only, {@link cacheRecord}).
 */
async function addTraceIds(db: DbCore, req: Req, records: Map<string, TransactionRecord>): Promise<void> {
  const hashes: string[] = [];
  for (const r of records.values()) if (r.trace_id === undefined) hashes.push(r.hash);
  if (hashes.length === 0) return;
  const rows = await query<{ tx_hash: string; trace_id: string }>(
    db,
    req,
    // A transaction is in one trace; replayed rows repeat it.
    `SELECT ${selectList<TraceTransactionRow>(['tx_hash', 'trace_id'])} FROM ${traceTransactions.name} WHERE tx_hash IN {hashes:Array(String)} LIMIT 1 BY tx_hash SETTINGS max_threads = 1`,
    { hashes },
  );
  if (rows.length === 0) return;
  const traceOf = new Map(rows.map((r) => [String(r.tx_hash), String(r.trace_id)]));
  for (const [k, r] of records) {
    const t = r.trace_id === undefined ? traceOf.get(r.hash) : undefined;
    if (t !== undefined) records.set(k, withTraceId(r, t));
  }
}

/**
 * `[key, doc]` pairs of `transaction_documents` rows. The documents are JSON.stringify's output (services/indexer/
 * rows.ts), which has no raw tab or line break, so they come as stored (Store.queryFields).
 */
async function queryDocuments(db: DbCore, req: Req, sql: string, params: QueryParams): Promise<Array<[key: string, doc: string]>> {
  // queryFields checked that every row has its two fields.
  return (await db.store.queryFields(sql, 2, params, { timeoutMs: req.timeoutMs })) as Array<[string, string]>;
}

/**
 * Starts the address book's code hash read for the addresses `docs` name, and returns once the engine has it, so that
 * the documents are parsed while it runs rather than before: the statement does not wait for the parsing (1-2 ms for
 * a batch of pages), and every later request of the batch waits that much less. Whatever the text scan misses is read
 * afterwards ({@link withCodes}), so the address book stays exact.
 */
async function startCodes(db: DbCore, req: Req, docs: ReadonlyArray<readonly [string, string]>, early: EarlyCodes): Promise<void> {
  const addresses = new Set<string>();
  for (const [, doc] of docs) for (const a of documentAddresses(doc)) addresses.add(a);
  early.codes = readBookCodeHashes(db, req, addresses);
  // The read reaches chdb through a few promise steps: let them run before the parsing takes the thread.
  await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * The raw addresses a document names as the transaction's account and its messages' source and destination: its
 * strings that are a whole raw address. No other field of either document version holds one (the description has
 * none), and an address inside a nested JSON text (a decoded body) is written `\"0:…\"`, which does not match.
 */
export function documentAddresses(doc: string): string[] {
  const out: string[] = [];
  for (const m of doc.matchAll(DOC_ADDRESS)) out.push(m[1]!);
  return out;
}

const DOC_ADDRESS = /"(-?\d+:[0-9A-F]{64})"/g;

/**
 * The records of `[key, doc]` pairs of `transaction_documents`, each kept in the record cache, with the address book's
 * code hash read started first ({@link startCodes}).
 */
async function documentRecords(db: DbCore, req: Req, docs: ReadonlyArray<readonly [string, string]>, early: EarlyCodes): Promise<Map<string, TransactionRecord>> {
  if (docs.length > 0) await startCodes(db, req, docs, early);
  const records = new Map<string, TransactionRecord>();
  for (const [i, [key, doc]] of docs.entries()) {
    // A batch of pages is thousands of documents: other requests get the thread between slices (json-page.ts).
    if (i > 0 && i % RECORDS_PER_SLICE === 0) await yieldToLoop();
    records.set(key, documentRecord(doc));
  }
  await addTraceIds(db, req, records);
  for (const [key, rec] of records) cacheRecord(db, key, rec);
  return records;
}

/** The text of a `transaction_documents` row (shared/contracts/transaction-document.ts) → its record. */
function documentRecord(doc: string): TransactionRecord {
  const d = decodeTransactionDocument(doc);
  const contents = new Map(d.contents.map((r) => [String(r.hash), contentFromRow(r)]));
  const states = new Map(d.states.map((r) => [String(r.hash), r]));
  return transactionFromRow(d.tx, d.messages, contents, states);
}

/** A transaction row with its message rows. */
interface StoredTransaction {
  row: Row;
  messages: readonly Row[];
}

/** The transactions of `keys` from `transactions` (latest version of each row) and their `messages`, by primary key. */
async function readTransactionTables(db: DbCore, req: Req, keys: readonly string[]): Promise<StoredTransaction[]> {
  const accounts: string[] = [];
  const lts: bigint[] = [];
  for (const k of keys) {
    const [account, lt] = splitKey(k);
    accounts.push(account);
    lts.push(BigInt(lt));
  }
  const rows = await query(
    db,
    req,
    `SELECT ${selectList(transactions.written)} FROM ${transactions.name} WHERE (${TX_KEY}) IN arrayZip({accounts:Array(String)}, {lts:Array(UInt64)})
     ORDER BY ${TX_LATEST} LIMIT 1 BY account, lt`,
    { accounts, lts },
  );
  if (rows.length === 0) return [];
  const msgRows = await query(
    db,
    req,
    // Replayed message rows are identical: one per (transaction, direction, message). A read by the table's own key:
    // without the setting ClickHouse first weighs each of the six projections against every part (bench/RESULTS.md,
    // design measurements).
    `SELECT ${selectList(messages.written)} FROM ${messages.name} WHERE (${MSG_TX}) IN arrayZip({accounts:Array(String)}, {lts:Array(UInt64)})
     LIMIT 1 BY tx_account, tx_lt, direction, msg_hash SETTINGS optimize_use_projections = 0`,
    { accounts: rows.map((r) => String(r.account)), lts: rows.map((r) => BigInt(String(r.lt))) },
  );
  const byTx = groupBy(msgRows, (m) => `${String(m.tx_account)}|${String(m.tx_lt)}`);
  return rows.map((row) => ({ row, messages: byTx.get(`${String(row.account)}|${String(row.lt)}`) ?? [] }));
}

/**
 * The keys of each transaction hash of a batch (batches.ts) that the store holds, with their records and address
 * book code hashes ({@link TxRead}), so that transactions?hash= waits for one batch. With point reads, the
 * `transaction_documents` rows of the keys `transaction_hash_points` names come in one statement (both key lookups);
 * hashes not found there (stored before those tables, or unknown) are looked up in the `transactions` by_hash
 * projection and their records read as {@link loadTransactions} reads them.
 */
export async function readTxKeysByHash(db: DbCore, req: Req, hashes: readonly string[]): Promise<Map<string, TxKey[]>> {
  const docs = db.pointReads
    ? await queryDocuments(
        db,
        req,
        `SELECT ${selectList(transactionDocuments.written)} FROM ${transactionDocuments.name}
         WHERE key IN (SELECT concat(account, '|', toString(lt)) FROM ${transactionHashPoints.name} WHERE hash IN {hashes:Array(String)})
         SETTINGS max_threads = 1`,
        { hashes },
      )
    : [];
  const early: EarlyCodes = { codes: null };
  const records = await documentRecords(db, req, docs, early);
  const keys = [...records.values()].map((r) => ({ hash: r.hash, account: r.account, lt: r.lt }));
  const found = new Set(keys.map((k) => k.hash));
  const rest = found.size === hashes.length ? [] : hashes.filter((h) => !found.has(h));
  if (rest.length > 0) {
    const more = await query<{ hash: string; account: string; lt: string }>(
      db,
      req,
      `SELECT DISTINCT hash, ${TX_KEY} FROM ${transactions.name} WHERE hash IN {hashes:Array(String)}`,
      { hashes: rest },
    );
    keys.push(...more.map((r) => ({ hash: r.hash, account: String(r.account), lt: String(r.lt) })));
    for (const [k, rec] of await readRecords(db, req, more.map(keyOf))) records.set(k, rec);
  }
  const reads = await withCodes(db, req, records, early.codes);
  return groupBy(
    keys,
    (k) => k.hash,
    (k) => withRead<TxKey>({ account: k.account, lt: k.lt }, reads),
  );
}

/** Transactions with their message rows → records: one read of their bodies and init states, one of the account states before/after. */
async function toRecords(db: DbCore, req: Req, txs: readonly StoredTransaction[]): Promise<TransactionRecord[]> {
  if (txs.length === 0) return [];
  const contentHashes: string[] = [];
  for (const { messages } of txs) {
    for (const m of messages) {
      contentHashes.push(String(m.body_hash));
      if (m.init_state_hash !== null && m.init_state_hash !== undefined) contentHashes.push(String(m.init_state_hash));
    }
  }
  const stateHashes = txs.flatMap(({ row }) => [String(row.account_state_hash_before), String(row.account_state_hash_after)]);
  const [contents, states] = await Promise.all([loadContents(db, req, contentHashes), loadStates(db, req, stateHashes)]);
  const out: TransactionRecord[] = [];
  for (const [i, { row, messages }] of txs.entries()) {
    if (i > 0 && i % RECORDS_PER_SLICE === 0) await yieldToLoop();
    out.push(transactionFromRow(row, messages, contents, states));
  }
  return out;
}

/** The addresses of a transactions response's address book: accounts, in_msg sources, out_msg destinations. */
export function transactionAddresses(txs: readonly TransactionRecord[]): Array<string | null> {
  const out: Array<string | null> = [];
  for (const t of txs) {
    out.push(t.account);
    if (t.in_msg) out.push(t.in_msg.source);
    for (const m of t.out_msgs) out.push(m.destination);
  }
  return out;
}
