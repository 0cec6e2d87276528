import type { QueryParams, Store } from '../../../shared/store/store.js';
import { STATE_RECORD_COLUMNS, accountStates } from '../../../shared/store/tables/account-states.js';
import type { BlockRow } from '../../../shared/store/tables/blocks.js';
import { selectList } from '../../../shared/store/tables/columns.js';
import type { LatestAccountStateRow } from '../../../shared/store/tables/latest-account-states.js';
import { CONTENT_COLUMNS, messageContents } from '../../../shared/store/tables/message-contents.js';
import { Lru } from '../../../shared/runtime/lru.js';
import { RECORDS_PER_SLICE, yieldToLoop } from '../json-page.js';
import {
  type AccountPageRow,
  type ContentRecord,
  type Contents,
  type MessageSide,
  type Row,
  type States,
  type TransactionRecord,
  type TxKey,
  type TxRead,
  contentFromRow,
  contentWeight,
  recordWeight,
} from './records.js';

/**
 * What every repository function receives: the store, the per-request deadline (X-Timeout) and the gateway's
 * caches. SQL always binds `{name:Type}` parameters (Store.query); nothing a client sent is spliced into the text.
 */
export interface DbCore {
  readonly store: Store;
  readonly caches: Caches;
  /** Print user-friendly addresses with the testnet flag (instances that index testnet). */
  readonly testnet: boolean;
  /**
   * Read transaction records and hashes from the key → value tables first (0009_transaction_documents.sql,
   * 0008_transaction_points.sql), which the decode stage fills unless TONFLOW_STORE_POINT_READS=false; keys they lack
   * are read from the MergeTree tables.
   */
  readonly pointReads: boolean;
}

/** {@link DbCore} plus the point reads that concurrent requests share (batches.ts). */
export interface Db extends DbCore {
  readonly batches: Batches;
}

/** Per-request options. */
export interface Req {
  /** Deadline of each statement, ms (X-Timeout, capped at 3000). */
  timeoutMs: number;
}

/** A point read that concurrent requests share (batcher.ts KeyBatcher): values by key, absent keys left out. */
export interface PointRead<V> {
  get(keys: Iterable<string>, req: Req): Promise<Map<string, V>>;
}

/**
 * The point reads that concurrent requests share, one batcher per kind of read (batches.ts creates them). Declared
 * here, by what the readers need, so that the readers' module and the batches' (which reads through the readers)
 * do not import each other.
 */
export interface Batches {
  /** Latest account state rows by raw address (accountStates, walletStates, /account, /wallet). */
  latestStates: PointRead<LatestAccountStateRow>;
  /** Code hashes by raw address (every address book). */
  codeHashes: PointRead<string | null>;
  /** Complete transaction records by `account|lt`, with their address book code hashes (every transactions response). */
  txRecords: PointRead<TxRead>;
  /** Transaction keys by transaction hash (transactions?hash=). */
  txKeysByHash: PointRead<TxKey[]>;
  /** The sides of a message by its hash or normalized hash (transactionsByMessage?msg_hash=). */
  txKeysByMessage: PointRead<MessageSide[]>;
  /** One account's page of transactions by `sort|offset|limit|account`, with their records (transactions?account=). */
  accountPages: PointRead<AccountPageRow[]>;
  /** Block rows by seqno (blocks?seqno=). */
  blocksBySeqno: PointRead<BlockRow[]>;
  /** Cell records by hex hash (`cells`, 0025): every full-state rebuild, one statement per tree level for all requests. */
  cells: PointRead<Uint8Array>;
}

export interface CacheOptions {
  /** Entries of each content-addressed cache (bodies, states, tx keys); 0 disables them. */
  entries: number;
  /** Transaction records kept; 0 disables the record cache. */
  txRecords: number;
  /** What the records kept may weigh together ({@link recordWeight}, about their JSON's bytes). Default unbounded. */
  txRecordBytes?: number | undefined;
  /** What the message bodies and init states kept may weigh together (their base64 and decoded text). Default unbounded. */
  contentBytes?: number | undefined;
  /** How long a record without trace_id may be reused (the trace stage adds it later), ms. */
  txRecordTtlMs: number;
  /** TTL of address book entries (code hash per account), ms; 0 disables that cache. */
  addressBookTtlMs: number;
}

/**
 * Content-addressed entries never go stale: a body or init state is named by its cell hash, an account state by its
 * state hash, a transaction's (account, lt) by its hash. Address book entries (an account's code hash) change when
 * a contract is deployed or upgraded, so they expire.
 */
export interface Caches {
  contents: Lru<string, ContentRecord>;
  states: Lru<string, Row>;
  /**
   * State hashes the store has no row for (most transactions carry only hashes: a block holds the states before
   * and after an account's first and last transaction only). Remembered for a while so that every page of an
   * account's history does not ask again.
   */
  missingStates: Lru<string, true>;
  txKeys: Lru<string, { account: string; lt: string }>;
  /** Complete transaction records by `account|lt` (repo/transactions.ts). */
  txRecords: Lru<string, TransactionRecord>;
  txRecordTtlMs: number;
  codeHashes: Lru<string, string | null>;
  /** Code BoCs rebuilt from the cell store by code hash (repo/full-states.ts), bounded by total size. */
  codeBocs: Lru<string, string>;
}

/** Most bytes of rebuilt code BoCs kept (base64 text): a few hundred distinct contracts' code. */
const CODE_BOC_CACHE_BYTES = 16 << 20;

export function createCaches(opts: CacheOptions): Caches {
  return {
    contents: new Lru<string, ContentRecord>(opts.entries, 0, Date.now, contentWeight, opts.contentBytes),
    states: new Lru(opts.entries),
    missingStates: new Lru(opts.entries, 60_000),
    txKeys: new Lru(opts.entries),
    txRecords: new Lru(opts.txRecords, 0, Date.now, recordWeight, opts.txRecordBytes),
    txRecordTtlMs: opts.txRecordTtlMs,
    codeHashes: new Lru(opts.addressBookTtlMs > 0 ? opts.entries : 0, opts.addressBookTtlMs),
    codeBocs: new Lru<string, string>(opts.entries, 0, Date.now, (boc) => boc.length, CODE_BOC_CACHE_BYTES),
  };
}

/**
 * A fingerprint of the database's active parts: it changes with every insert, merge and mutation, i.e. whenever
 * what a read returns may have changed (response-cache.ts). Part names are unique per table, so their hashes'
 * XOR tells one set of parts from another.
 */
export async function storeVersion(db: DbCore): Promise<string> {
  const [row] = await db.store.query<{ v: string }>(
    // Names only: a part's name changes with whatever changes its rows (an insert makes a part, a merge or a mutation
    // renames what it rewrites), and asking for `rows` as well makes the statement dearer (bench/RESULTS.md, bench tvm).
    `SELECT concat(toString(count()), ':', toString(groupBitXor(cityHash64(table, name)))) AS v
     FROM system.parts WHERE database = currentDatabase() AND active`,
    {},
    { timeoutMs: 5_000 },
  );
  return row?.v ?? '';
}

export function query<T = Row>(db: DbCore, req: Req, sql: string, params?: QueryParams): Promise<T[]> {
  return db.store.query<T>(sql, params, { timeoutMs: req.timeoutMs });
}

/** Bodies and init states by cell hash, from the cache or `message_contents`. */
export async function loadContents(db: DbCore, req: Req, hashes: Iterable<string>): Promise<Contents> {
  const out = new Map<string, ContentRecord>();
  const missing: string[] = [];
  for (const h of new Set(hashes)) {
    const c = db.caches.contents.get(h);
    if (c) out.set(h, c);
    else missing.push(h);
  }
  if (missing.length > 0) {
    const rows = await query(db, req, `SELECT ${selectList(CONTENT_COLUMNS)} FROM ${messageContents.name} WHERE hash IN {hashes:Array(String)} LIMIT 1 BY hash`, {
      hashes: missing,
    });
    for (const [i, r] of rows.entries()) {
      // A page's bodies and init states are thousands of rows, each with its decoded JSON to parse (json-page.ts).
      if (i > 0 && i % RECORDS_PER_SLICE === 0) await yieldToLoop();
      const c = contentFromRow(r);
      out.set(c.hash, c);
      db.caches.contents.set(c.hash, c);
    }
  }
  return out;
}

/** Account states by state hash, from the cache or `account_states`. */
export async function loadStates(db: DbCore, req: Req, hashes: Iterable<string>): Promise<States> {
  const out = new Map<string, Row>();
  const missing: string[] = [];
  for (const h of new Set(hashes)) {
    const s = db.caches.states.get(h);
    if (s) out.set(h, s);
    else if (!db.caches.missingStates.get(h)) missing.push(h);
  }
  if (missing.length > 0) {
    const rows = await query(
      db,
      req,
      // Version: a row with BoCs beats one without (0004_account_states.sql); LIMIT 1 BY keeps the FINAL row.
      `SELECT ${selectList(STATE_RECORD_COLUMNS)} FROM ${accountStates.name}
       WHERE hash IN {hashes:Array(String)} ORDER BY (data_boc IS NULL AND code_boc IS NULL) LIMIT 1 BY hash`,
      { hashes: missing },
    );
    for (const r of rows) {
      out.set(String(r.hash), r);
      db.caches.states.set(String(r.hash), r);
    }
    for (const h of missing) if (!out.has(h)) db.caches.missingStates.set(h, true);
  }
  return out;
}
