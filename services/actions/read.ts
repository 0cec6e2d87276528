import { type CarriedTx, TRACE_MESSAGE_FIELDS, type TraceJson, carriedMessages, carriedTransaction } from '../../shared/contracts/trace.js';
import { UpstreamUnavailableError } from '../../shared/runtime/errors.js';
import type { Store } from '../../shared/store/store.js';
import type { AccountInterfaces, InterfaceRepository } from '../../shared/ton/actions/interfaces.js';
import type { Trace, TraceMessage, TraceTransaction } from '../../shared/ton/actions/trace.js';
import { type DocumentRows, decodeTransactionDocument } from '../../shared/contracts/transaction-document.js';
import { readCellRecords } from '../../shared/store/tables/cells.js';
import { selectList } from '../../shared/store/tables/columns.js';
import { type LatestAccountStateRow, latestAccountStates } from '../../shared/store/tables/latest-account-states.js';
import { type MessageContentRow, messageContents } from '../../shared/store/tables/message-contents.js';
import { MESSAGE_TX_COLUMNS, type MessageRow, messages } from '../../shared/store/tables/messages.js';
import { transactionDocuments } from '../../shared/store/tables/transaction-documents.js';
import { TRANSACTION_KEY_COLUMNS, type TransactionRow, transactions } from '../../shared/store/tables/transactions.js';
import { type CellLookup, type CellRecord, recordBitsBoc } from '../../shared/ton/cells/cells.js';
import { withFullStates } from '../../shared/ton/cells/full-states.js';
import { type AccountEvidence, accountFacts, deploymentNeedsInit, factsNeedData, namedAccounts } from '../../shared/ton/interfaces/account-facts.js';
import { normaliseCodeHash } from '../../shared/ton/interfaces/repository.js';

/**
 * The classifier's input for completed traces: their transactions with their messages and bodies, from the rows the
 * trace message carries (trace.ts `rows`), else read from the store (the transaction documents, by key; else
 * transactions by the primary key (account, lt), messages by (tx_account, tx_lt), message_contents by hash), and per
 * trace an interface repository over the accounts' latest states (latest_account_states, by account) and what that
 * trace's messages show about them, plus the accounts their data names (a JVault stake wallet's pool and its lock
 * wallet: {@link addNamedAccounts}).
 *
 * The traces of a group are read together: one statement per table for the whole group, and the cell-store rounds
 * of every account's data rebuild merged into one statement per tree level. Embedded ClickHouse runs one statement
 * at a time, each with a fixed cost well above what a trace's few rows cost, so a read per trace would make the
 * statements, not the rows or the classifier, the stage's bound (bench/RESULTS.md, ingest with the trace and action
 * stages).
 */
export interface ClassifierInput {
  trace: Trace;
  repo: InterfaceRepository;
}

/** What a group's read gives each trace: its input, or why it has none (see {@link readClassifierInputs}). */
export type ClassifierRead = { ok: true; input: ClassifierInput } | { ok: false; error: unknown };

/**
 * Bounds of one group's statements: the keys of one `IN` list, and so the rows one statement brings. A trace is
 * never split; a trace larger than the cap is a group of its own.
 */
export const READ_LIMITS = {
  /** Transactions of the traces read in one group (their rows, messages and accounts in one statement each). */
  transactions: 4000,
  /** Cell hashes per statement of the data rebuilds. */
  cells: 5000,
} as const;

/**
 * Data BoCs rebuilt from the cell store, by data hash (base64, as the state rows hold it), kept from one read to the
 * next. A hash names one tree, and a rebuild of it always serializes the same BoC, so an entry is never stale; what
 * it spares is the cell-store rounds and the rebuild (hashing every cell) of the accounts that recur in the traces
 * of one group after another without a transaction in between (a jetton master, a pool, an NFT collection).
 */
export interface DataBocCache {
  get(dataHash: string): string | undefined;
  set(dataHash: string, boc: string): void;
}

export interface ReadOptions {
  dataCache?: DataBocCache;
}

export async function readClassifierInput(store: Store, t: TraceJson, opts: ReadOptions = {}): Promise<ClassifierInput> {
  const [r] = await readClassifierInputs(store, [t], opts);
  if (!r!.ok) throw r!.error;
  return r!.input;
}

/**
 * The inputs of `traces`, one result per trace in order, read group by group ({@link READ_LIMITS}). A trace some of
 * whose transactions are not stored yet gets a retryable ACTIONS_TRACE_ROWS_MISSING (the trace stage publishes a
 * trace once its rows are stored, so only a store that lost or has not yet shown them can do this); a store failure
 * rejects the whole read.
 */
export async function readClassifierInputs(store: Store, traces: readonly TraceJson[], opts: ReadOptions = {}): Promise<ClassifierRead[]> {
  const out: ClassifierRead[] = [];
  for (const group of groups(traces, READ_LIMITS.transactions)) for (const r of await readGroup(store, group, opts)) out.push(r);
  return out;
}

/** Consecutive traces with at most `maxTransactions` transactions together (a larger trace alone). */
function groups(traces: readonly TraceJson[], maxTransactions: number): TraceJson[][] {
  const out: TraceJson[][] = [];
  let cur: TraceJson[] = [];
  let n = 0;
  for (const t of traces) {
    if (cur.length > 0 && n + t.transactions.length > maxTransactions) {
      out.push(cur);
      cur = [];
      n = 0;
    }
    cur.push(t);
    n += t.transactions.length;
  }
  if (cur.length > 0) out.push(cur);
  return out;
}

/** What the classifier reads of a transaction (`transactions`' columns). */
const TX_COLUMNS = ['hash', 'account', 'lt', 'now', 'mc_block_seqno', 'orig_status', 'end_status', 'total_fees', 'description'] as const satisfies ReadonlyArray<
  keyof TransactionRow
>;

/** A transaction's row; `description` JSON text from the table, the object itself from a document or a trace message. */
type TxRow = Omit<Pick<TransactionRow, (typeof TX_COLUMNS)[number]>, 'description'> & { description: unknown };

/** What the classifier reads of a message: the carried columns (trace.ts), with the message's side. */
const MSG_COLUMNS = [...MESSAGE_TX_COLUMNS, 'tx_hash', ...TRACE_MESSAGE_FIELDS] as const satisfies ReadonlyArray<keyof MessageRow>;

type MsgRow = Pick<MessageRow, (typeof MSG_COLUMNS)[number]>;

const BODY_COLUMNS = ['hash', 'boc'] as const satisfies ReadonlyArray<keyof MessageContentRow>;

/** What the interface detection reads of an account's latest state. */
const STATE_COLUMNS = ['account', 'last_trans_lt', 'code_hash', 'data_hash', 'data_boc'] as const satisfies ReadonlyArray<keyof LatestAccountStateRow>;

type StateRow = Pick<LatestAccountStateRow, (typeof STATE_COLUMNS)[number]>;

const txKey = (account: string, lt: string): string => `${account}\0${lt}`;

/*
 * No FINAL, and no DISTINCT: the rows are read by their tables' own keys and collapsed here. A replay, or the trace
 * stage's re-insert of a transaction with its trace_id, leaves several rows per key until a merge; every one of them
 * holds the same values of the columns read here (only trace_id and the version differ), so any one will do. FINAL
 * would merge every part holding the keys' granules across the table's whole key range for a group's scattered
 * accounts, and DISTINCT would sort the wide rows, for what a Map does in passing.
 */
async function readGroup(store: Store, traces: readonly TraceJson[], opts: ReadOptions): Promise<ClassifierRead[]> {
  const txByKey = new Map<string, TxRow>();
  const msgsOf = new Map<string, MsgRow[]>();
  const bodies = new Map<string, string>();
  // First what the trace messages carry: the trace stage read it for the assembly.
  for (const t of traces) {
    if (!t.rows) continue;
    t.rows.txs.forEach((c, i) => {
      if (c !== null) addCarried(t.transactions[i]!, c, txByKey, msgsOf);
    });
    for (const [h, boc] of t.rows.bodies) bodies.set(h, boc);
  }
  const keys: string[] = [];
  for (const t of traces) for (const x of t.transactions) if (!txByKey.has(txKey(x.account, x.lt))) keys.push(`${x.account}|${x.lt}`);
  // First the transaction documents (0009), where the decode stage writes them (TONFLOW_STORE_POINT_READS): the
  // transaction, its messages and their bodies under one RocksDB key each, a key lookup per transaction. A MergeTree
  // read by key costs a whole granule per key, and a group's keys are spread over every account, so each statement
  // on the three tables reads most of their granules (bench/RESULTS.md, ingest with the trace and action stages).
  if (keys.length > 0) {
    const docs = (await store.queryFields(`SELECT key, doc FROM ${transactionDocuments.name} WHERE key IN {keys:Array(String)}`, 2, { keys })) as Array<[string, string]>;
    for (const [, text] of docs) addDocument(decodeTransactionDocument(text), txByKey, msgsOf, bodies);
  }
  // The rest (documents off, or rows stored before them) from the tables.
  const txCols = selectList<TxRow>(TX_COLUMNS);
  const txKeyCols = TRANSACTION_KEY_COLUMNS.join(', ');
  const accounts: string[] = [];
  const lts: bigint[] = [];
  for (const t of traces) {
    for (const x of t.transactions) {
      if (txByKey.has(txKey(x.account, x.lt))) continue;
      accounts.push(x.account);
      lts.push(BigInt(x.lt));
    }
  }
  const txRows = accounts.length === 0
    ? []
    : await store.query<TxRow>(
        `SELECT ${txCols} FROM ${transactions.name} WHERE (${txKeyCols}) IN arrayZip({accounts:Array(String)}, {lts:Array(UInt64)})`,
        { accounts, lts },
      );
  // Messages of the stored transactions only: a trace that lacks some is retried as a whole, its messages unused.
  const storedAccounts: string[] = [];
  const storedLts: bigint[] = [];
  for (const r of txRows) {
    if (txByKey.has(txKey(r.account, r.lt))) continue;
    txByKey.set(txKey(r.account, r.lt), r);
    storedAccounts.push(r.account);
    storedLts.push(BigInt(r.lt));
  }
  const msgRows = storedAccounts.length === 0
    ? []
    : await store.query<MsgRow>(
        // A read by the table's own key: without the setting ClickHouse first weighs each of its projections against
        // every part (bench/RESULTS.md, design measurements).
        `SELECT ${selectList<MsgRow>(MSG_COLUMNS)} FROM ${messages.name} WHERE (${MESSAGE_TX_COLUMNS.join(', ')}) IN arrayZip({accounts:Array(String)}, {lts:Array(UInt64)})
         SETTINGS optimize_use_projections = 0`,
        { accounts: storedAccounts, lts: storedLts },
      );
  const seenMsg = new Set<string>();
  for (const m of msgRows) {
    const key = txKey(m.tx_account, m.tx_lt);
    const id = `${key}\0${m.direction}\0${m.msg_hash}`;
    if (seenMsg.has(id)) continue;
    seenMsg.add(id);
    let list = msgsOf.get(key);
    if (!list) msgsOf.set(key, (list = []));
    list.push(m);
  }

  const bodyHashes = [...new Set([...msgsOf.values()].flatMap((list) => list.map((m) => m.body_hash)))].filter((h) => !bodies.has(h));
  if (bodyHashes.length > 0) {
    const rows = await store.query<Pick<MessageContentRow, (typeof BODY_COLUMNS)[number]>>(
      `SELECT ${selectList<MessageContentRow>(BODY_COLUMNS)} FROM ${messageContents.name} WHERE hash IN {h:Array(String)}`,
      { h: bodyHashes },
    );
    for (const r of rows) bodies.set(r.hash, r.boc);
  }

  const assembled: Array<{ t: TraceJson; trace: Trace; evidence: Map<string, AccountEvidence>; accounts: Set<string> } | { t: TraceJson; error: unknown }> = [];
  for (const t of traces) {
    const missing = t.transactions.filter((x) => !txByKey.has(txKey(x.account, x.lt)));
    if (missing.length > 0) {
      assembled.push({ t, error: new UpstreamUnavailableError('ACTIONS_TRACE_ROWS_MISSING', `trace ${t.trace_id}: ${missing.length} of its ${t.transactions.length} transactions are not stored`) });
      continue;
    }
    assembled.push({ t, ...assembleTrace(t, txByKey, msgsOf, bodies) });
  }

  const wanted = new Set<string>();
  for (const a of assembled) if ('trace' in a) for (const acc of a.accounts) wanted.add(acc);
  const states = await readStates(store, [...wanted]);
  // Data is rebuilt once per account for the group, for the accounts whose facts some trace's evidence reads.
  const needData = new Map<string, StateRow>();
  for (const a of assembled) {
    if (!('trace' in a)) continue;
    for (const acc of a.accounts) {
      const s = states.get(acc);
      if (s && !needData.has(acc) && factsNeedData(s.code_hash, a.evidence.get(acc) ?? NO_EVIDENCE)) needData.set(acc, s);
    }
  }
  const data = await readData(store, needData, opts.dataCache);
  const facts = groupFacts();
  await addNamedAccounts(store, assembled, states, data, [...needData.keys()], opts.dataCache, facts);
  await addInitStates(store, assembled.flatMap((a) => ('trace' in a ? [a.trace] : [])), states);

  const knownOf = assembled.map((a) => {
    if (!('trace' in a)) return null;
    const known = new Map<string, AccountInterfaces>();
    for (const acc of a.accounts) {
      const s = states.get(acc);
      const ev = a.evidence.get(acc) ?? NO_EVIDENCE;
      if (!s) continue;
      const f = facts(acc, s.code_hash, data.get(acc) ?? null, ev);
      if (f) known.set(acc, f);
    }
    return known;
  });

  return assembled.map((a, i): ClassifierRead => {
    if (!('trace' in a)) return { ok: false, error: a.error };
    const known = knownOf[i]!;
    return { ok: true, input: { trace: a.trace, repo: (address) => known.get(address) } };
  });
}

type FactsOf = (account: string, codeHash: string | null, dataBoc: string | null, evidence: AccountEvidence) => AccountInterfaces | undefined;

/**
 * `accountFacts` for a group's traces, each distinct input worked out once: an account (a jetton master, a pool, a
 * popular wallet) is in many traces of a group, mostly with the same evidence, and every call parses its data BoC
 * again. accountFacts is a function of its arguments, and of the evidence only its opcodes, roles and logs.
 */
function groupFacts(): FactsOf {
  const memo = new Map<string, { codeHash: string | null; dataBoc: string | null; facts: AccountInterfaces | undefined }>();
  return (account, codeHash, dataBoc, evidence) => {
    const key = `${account}|${[...evidence.inOps].join(',')}|${[...evidence.outOps].join(',')}|${[...(evidence.roles ?? [])].join(',')}|${(evidence.logs ?? []).join(',')}`;
    const e = memo.get(key);
    if (e !== undefined && e.codeHash === codeHash && e.dataBoc === dataBoc) return e.facts;
    const facts = accountFacts(account, { codeHash, dataBoc }, evidence);
    memo.set(key, { codeHash, dataBoc, facts });
    return facts;
  };
}

/** Links of the chains of accounts named by data ({@link addNamedAccounts}): stake wallet → pool → lock wallet. */
const NAMED_ACCOUNT_ROUNDS = 2;

/**
 * Accounts that the data just read names (account-facts.ts `namedAccounts`: a JVault stake wallet's pool, that
 * pool's lock wallet, the NFT item a getgems auction holds), added to the traces whose accounts named them, with the
 * role the naming gives them, and their states and data read, a round per link of the chain as TON Center chains its
 * `data_boc` requests (address_selectors.py). Each round is one state statement and the data rebuild's statements
 * for the whole group, and only a group with a JVault unstake or an auction has one: the statement count per group
 * stays bounded whatever its size.
 */
async function addNamedAccounts(
  store: Store,
  assembled: ReadonlyArray<{ evidence: Map<string, AccountEvidence>; accounts: Set<string> } | { error: unknown }>,
  states: Map<string, StateRow>,
  data: Map<string, string>,
  fresh: string[],
  dataCache: DataBocCache | undefined,
  factsOf: FactsOf,
): Promise<void> {
  let justRead = new Set(fresh);
  for (let round = 0; round < NAMED_ACCOUNT_ROUNDS && justRead.size > 0; round++) {
    const named = new Set<string>();
    for (const a of assembled) {
      if (!('evidence' in a)) continue;
      for (const acc of [...a.accounts]) {
        const s = states.get(acc);
        if (!justRead.has(acc) || !s) continue;
        const facts = factsOf(acc, s.code_hash, data.get(acc) ?? null, a.evidence.get(acc) ?? NO_EVIDENCE);
        for (const [address, role] of namedAccounts(facts)) {
          const ev = a.evidence.get(address) ?? NO_EVIDENCE;
          a.evidence.set(address, { ...ev, roles: new Set([...(ev.roles ?? []), role]) });
          a.accounts.add(address);
          named.add(address);
        }
      }
    }
    if (named.size === 0) return;
    for (const [account, row] of await readStates(store, [...named].filter((x) => !states.has(x)))) states.set(account, row);
    const needData = new Map<string, StateRow>();
    for (const a of assembled) {
      if (!('evidence' in a)) continue;
      for (const acc of named) {
        const s = states.get(acc);
        if (s && !data.has(acc) && !needData.has(acc) && a.accounts.has(acc) && factsNeedData(s.code_hash, a.evidence.get(acc) ?? NO_EVIDENCE)) needData.set(acc, s);
      }
    }
    for (const [account, boc] of await readData(store, needData, dataCache)) data.set(account, boc);
    justRead = new Set([...named].filter((x) => data.has(x)));
  }
}

/**
 * The StateInit of the messages that deployed accounts whose deployment a matcher reads (a getgems sale's listing:
 * account-facts.ts `deploymentNeedsInit`), onto those inbound messages: their `init_state_hash` from `messages`,
 * the BoC from `message_contents`. Neither the trace message nor the documents' reader carries init states, and a
 * trace rarely deploys such an account: no statement at all for a group without one.
 */
async function addInitStates(store: Store, traces: readonly Trace[], states: ReadonlyMap<string, StateRow>): Promise<void> {
  const wanted = new Map<string, TraceMessage>();
  for (const t of traces) {
    for (const x of t.transactions) {
      if (x.orig_status === 'active' || x.end_status !== 'active' || !deploymentNeedsInit(states.get(x.account)?.code_hash ?? null)) continue;
      const inbound = x.messages.find((m) => m.direction === 'in');
      if (inbound) wanted.set(txKey(x.account, x.lt), inbound);
    }
  }
  if (wanted.size === 0) return;
  const accounts: string[] = [];
  const lts: bigint[] = [];
  for (const k of wanted.keys()) {
    const [account, lt] = k.split('\0') as [string, string];
    accounts.push(account);
    lts.push(BigInt(lt));
  }
  const rows = await store.query<Pick<MessageRow, 'tx_account' | 'tx_lt' | 'init_state_hash'>>(
    `SELECT tx_account, tx_lt, init_state_hash FROM ${messages.name}
     WHERE (${MESSAGE_TX_COLUMNS.join(', ')}) IN arrayZip({accounts:Array(String)}, {lts:Array(UInt64)}) AND direction = 'in' AND init_state_hash IS NOT NULL
     SETTINGS optimize_use_projections = 0`,
    { accounts, lts },
  );
  const hashOf = new Map(rows.map((r) => [txKey(r.tx_account, String(r.tx_lt)), r.init_state_hash!] as const));
  if (hashOf.size === 0) return;
  const contents = await store.query<Pick<MessageContentRow, (typeof BODY_COLUMNS)[number]>>(
    `SELECT ${selectList<MessageContentRow>(BODY_COLUMNS)} FROM ${messageContents.name} WHERE hash IN {h:Array(String)}`,
    { h: [...new Set(hashOf.values())] },
  );
  const bocs = new Map(contents.map((c) => [c.hash, c.boc] as const));
  for (const [k, m] of wanted) {
    const h = hashOf.get(k);
    const boc = h === undefined ? undefined : bocs.get(h);
    if (boc !== undefined) m.init_state = boc;
  }
}

/** One trace's classifier input from the group's rows, with what its messages show about its accounts. */
function assembleTrace(
  t: TraceJson,
  txByKey: ReadonlyMap<string, TxRow>,
  msgsOf: ReadonlyMap<string, MsgRow[]>,
  bodies: ReadonlyMap<string, string>,
): { trace: Trace; evidence: Map<string, AccountEvidence>; accounts: Set<string> } {
  const evidence = new Map<string, { inOps: Set<number>; outOps: Set<number>; logs: string[] }>();
  const evidenceOf = (a: string): { inOps: Set<number>; outOps: Set<number>; logs: string[] } => {
    let e = evidence.get(a);
    if (!e) evidence.set(a, (e = { inOps: new Set(), outOps: new Set(), logs: [] }));
    return e;
  };
  const accounts = new Set<string>();
  const transactions: TraceTransaction[] = t.transactions.map((x) => {
    const key = txKey(x.account, x.lt);
    const r = txByKey.get(key)!;
    accounts.add(r.account);
    const messages: TraceMessage[] = [];
    for (const m of msgsOf.get(key) ?? []) {
      if (m.source !== '') accounts.add(m.source);
      if (m.destination !== '') accounts.add(m.destination);
      const external = m.source === '';
      const body = bodies.get(m.body_hash) ?? null;
      if (m.direction === 'out' && m.destination === '' && body !== null) evidenceOf(m.tx_account).logs.push(body);
      messages.push({
        msg_hash: m.msg_hash,
        tx_hash: m.tx_hash,
        direction: m.direction,
        source: m.source === '' ? null : m.source,
        destination: m.destination === '' ? null : m.destination,
        value: m.value,
        fwd_fee: m.fwd_fee,
        // An external-in message has no created_lt / created_at (stored as 0 sentinels).
        created_lt: external && m.direction === 'in' ? null : m.created_lt,
        created_at: external && m.direction === 'in' ? null : Number(m.created_at),
        opcode: m.opcode === null ? null : Number(m.opcode),
        bounce: m.bounce,
        bounced: m.bounced,
        value_extra_currencies: m.value_extra_currencies,
        body,
      });
      if (m.opcode !== null) {
        const op = Number(m.opcode) >>> 0;
        if (m.direction === 'in') evidenceOf(m.tx_account).inOps.add(op);
        else evidenceOf(m.tx_account).outOps.add(op);
      }
    }
    // The store hands rows in no particular order: the inbound message first, then the outbound ones in the order
    // the transaction created them, whatever group the trace was read in.
    messages.sort(byPosition);
    // The v3 TransactionDescr JSON (shared/ton/records/transaction.ts): `type`, `aborted`, `compute_ph`.
    const d = (typeof r.description === 'string' ? JSON.parse(r.description) : r.description) as { type: string; aborted?: boolean; compute_ph?: { skipped?: boolean; reason?: string; exit_code?: number } };
    return {
      hash: r.hash,
      account: r.account,
      lt: r.lt,
      now: Number(r.now),
      mc_block_seqno: r.mc_block_seqno === null ? null : Number(r.mc_block_seqno),
      orig_status: r.orig_status,
      end_status: r.end_status,
      total_fees: r.total_fees,
      descr: d.type,
      aborted: d.aborted === true,
      compute_exit_code: d.compute_ph?.exit_code ?? null,
      skipped_reason: d.compute_ph?.skipped ? (d.compute_ph.reason ?? null) : null,
      messages,
    };
  });
  return {
    trace: {
      trace: {
        trace_id: t.trace_id,
        external_hash: t.external_hash,
        external_hash_norm: t.external_hash_norm,
        mc_seqno_end: t.mc_seqno_end,
        start_lt: t.start_lt,
        start_utime: t.start_utime,
        end_lt: t.end_lt,
        end_utime: t.end_utime,
      },
      transactions,
    },
    evidence,
    accounts,
  };
}

/** A transaction document's rows into the group's maps (the shapes the tables' reads give). */
function addDocument(doc: DocumentRows, txByKey: Map<string, TxRow>, msgsOf: Map<string, MsgRow[]>, bodies: Map<string, string>): void {
  const tx = doc.tx;
  const account = String(tx['account']);
  const lt = String(tx['lt']);
  const key = txKey(account, lt);
  if (txByKey.has(key)) return;
  const hash = String(tx['hash']);
  txByKey.set(key, {
    hash,
    account,
    lt,
    now: Number(tx['now']),
    mc_block_seqno: tx['mc_block_seqno'] === null || tx['mc_block_seqno'] === undefined ? null : Number(tx['mc_block_seqno']),
    orig_status: String(tx['orig_status']),
    end_status: String(tx['end_status']),
    total_fees: String(tx['total_fees']),
    description: tx['description'],
  });
  const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
  msgsOf.set(
    key,
    doc.messages.map((m) => ({
      tx_account: account,
      tx_lt: lt,
      tx_hash: hash,
      direction: m['direction'] as 'in' | 'out',
      msg_hash: String(m['msg_hash']),
      source: String(m['source']),
      destination: String(m['destination']),
      value: str(m['value']),
      value_extra_currencies: (m['value_extra_currencies'] ?? {}) as Record<string, string>,
      fwd_fee: str(m['fwd_fee']),
      created_lt: String(m['created_lt']),
      created_at: Number(m['created_at']),
      opcode: m['opcode'] === null || m['opcode'] === undefined ? null : Number(m['opcode']),
      bounce: (m['bounce'] ?? null) as boolean | null,
      bounced: (m['bounced'] ?? null) as boolean | null,
      body_hash: String(m['body_hash']),
    })),
  );
  for (const c of doc.contents) bodies.set(String(c['hash']), String(c['boc']));
}

/** A transaction's rows carried by its trace message (trace.ts) into the group's maps. */
function addCarried(x: TraceJson['transactions'][number], c: CarriedTx, txByKey: Map<string, TxRow>, msgsOf: Map<string, MsgRow[]>): void {
  const key = txKey(x.account, x.lt);
  if (txByKey.has(key)) return;
  const tx = carriedTransaction(c);
  txByKey.set(key, {
    hash: x.hash,
    account: x.account,
    lt: x.lt,
    now: Number(x.now),
    mc_block_seqno: tx.mc_block_seqno === null ? null : Number(tx.mc_block_seqno),
    orig_status: String(tx.orig_status),
    end_status: String(tx.end_status),
    total_fees: String(tx.total_fees),
    description: c[1],
  });
  msgsOf.set(key, carriedMessages(c, { tx_account: x.account, tx_lt: x.lt, tx_hash: x.hash }));
}

function byPosition(a: TraceMessage, b: TraceMessage): number {
  if (a.direction !== b.direction) return a.direction === 'in' ? -1 : 1;
  const la = BigInt(a.created_lt ?? 0);
  const lb = BigInt(b.created_lt ?? 0);
  if (la !== lb) return la < lb ? -1 : 1;
  return a.msg_hash < b.msg_hash ? -1 : a.msg_hash > b.msg_hash ? 1 : 0;
}

const NO_EVIDENCE: AccountEvidence = { inOps: new Set(), outOps: new Set() };

/**
 * The latest state rows of `accounts`: the state after the trace (or later), as TON Center's repository detects
 * interfaces on the state after an account's last transaction (indexing-semantics §5.1). The fields the classifier
 * needs (a jetton wallet's owner and master, an NFT item's collection and owner) do not change over a wallet's or
 * item's life, so a later state gives the same answer; a getgems sale's price and fees can (a later price update),
 * its NFT, marketplace and owner, once set, cannot. Without FINAL (see above): per account, the row of the
 * highest `last_trans_lt`, the table's ReplacingMergeTree version, which is the row FINAL keeps.
 */
async function readStates(store: Store, accounts: string[]): Promise<Map<string, StateRow>> {
  const out = new Map<string, StateRow>();
  if (accounts.length === 0) return out;
  const rows = await store.query<StateRow>(
    `SELECT ${selectList<StateRow>(STATE_COLUMNS)} FROM ${latestAccountStates.name} WHERE account IN {a:Array(String)}`,
    { a: accounts },
  );
  for (const r of rows) {
    const had = out.get(r.account);
    if (!had || BigInt(r.last_trans_lt) >= BigInt(had.last_trans_lt)) out.set(r.account, r);
  }
  // Code hashes as hex, once per account: the interface readers (account-facts.ts) take any encoding, and would
  // decode the stored base64 again at every question about the account.
  for (const r of out.values()) if (r.code_hash !== null) r.code_hash = normaliseCodeHash(r.code_hash) ?? r.code_hash;
  return out;
}

/**
 * The data (BoC) of `rows`' accounts, or their data root's own bits, by account; absent when neither is known.
 *
 * A state row rarely holds its data (a block's state update prunes the cells it did not change): it is rebuilt from
 * the cell store (shared/ton/cells/full-states.ts), as the gateway rebuilds it for its readers. Code is not
 * rebuilt: the code hash settles the interface. When some cell below the data root was never seen whole (an NFT
 * item's content, a wallet's code reference, both unchanged since a genesis or a block before the index start), the
 * root's own bits still hold those fields: they are read from the root's record, which the rebuild fetched first.
 * An account without even that, or whose data is in a layout its code does not have, yields no facts and its
 * transfers stay basic blocks.
 */
async function readData(store: Store, all: ReadonlyMap<string, StateRow>, cache?: DataBocCache): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  // Rows without data of their own whose data hash was rebuilt before: that BoC ({@link DataBocCache}).
  const rows = new Map<string, StateRow>();
  for (const [account, r] of all) {
    const hit = cache !== undefined && r.data_boc === null && r.data_hash !== null ? cache.get(r.data_hash) : undefined;
    if (hit !== undefined) out.set(account, hit);
    else rows.set(account, r);
  }
  if (rows.size === 0) return out;
  // Every record the rebuilds read, for the roots of data that could not be rebuilt whole (bounded by the rebuilds' own limit).
  const fetched = new Map<string, CellRecord>();
  const lookup = mergedLookup(async (hashes) => {
    const found = new Map<string, CellRecord>();
    for (let i = 0; i < hashes.length; i += READ_LIMITS.cells) {
      for (const [h, r] of await readCellRecords(store, hashes.slice(i, i + READ_LIMITS.cells))) {
        found.set(h, r);
        fetched.set(h, r);
      }
    }
    return found;
  });
  const full = await withFullStates(rows, lookup, { code: false });
  for (const [account, r] of full) {
    let dataBoc = r.data_boc;
    // Only a whole rebuild is kept: the root's bits alone may give way to the whole tree once its cells are seen.
    if (cache !== undefined && dataBoc !== null && rows.get(account)!.data_boc === null && r.data_hash !== null) cache.set(r.data_hash, dataBoc);
    if (dataBoc === null && r.data_hash !== null) {
      const root = fetched.get(Buffer.from(r.data_hash, 'base64').toString('hex'));
      if (root) dataBoc = recordBitsBoc(root);
    }
    if (dataBoc !== null) out.set(account, dataBoc);
  }
  return out;
}

/**
 * A lookup that merges the calls made in the same turn of the event loop into one call of `read`: the rebuilds of
 * all accounts run at once (withFullStates), each asking for its next tree level as soon as the previous one came,
 * so each level of every tree is one statement rather than one per account. Every caller gets the whole answer;
 * a failed read fails every caller of that turn.
 */
function mergedLookup(read: (hashes: string[]) => Promise<Map<string, CellRecord>>): CellLookup {
  let pending: { hashes: Set<string>; answer: Promise<Map<string, CellRecord>> } | null = null;
  return (hashes) => {
    if (!pending) {
      const p: { hashes: Set<string>; answer: Promise<Map<string, CellRecord>> } = { hashes: new Set(), answer: Promise.resolve(new Map()) };
      p.answer = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        pending = null;
        return read([...p.hashes]);
      });
      pending = p;
    }
    for (const h of hashes) pending.hashes.add(h);
    return pending.answer;
  };
}
