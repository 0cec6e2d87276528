import type { Consumer, IncomingMessage, OutgoingMessage, Producer } from '../../shared/bus/bus.js';
import { type BlockRef, type McBlockMessage, decodeMcBlock } from '../../shared/contracts/mc-block.js';
import { type CarriedRows, TRACE_ROWS_MAX_BYTES, carriedRows, encodeTrace, traceRows } from '../../shared/contracts/trace.js';
import { type DocumentRows, decodeTransactionDocument } from '../../shared/contracts/transaction-document.js';
import { UpstreamUnavailableError } from '../../shared/runtime/errors.js';
import type { Logger } from '../../shared/runtime/logger.js';
import { retry } from '../../shared/runtime/retry.js';
import type { Store } from '../../shared/store/store.js';
import { type BlockTransactionRow, blockTransactions } from '../../shared/store/tables/block-transactions.js';
import { selectList } from '../../shared/store/tables/columns.js';
import { MESSAGE_TX_COLUMNS, type MessageRow, messages } from '../../shared/store/tables/messages.js';
import { TRACE_EDGE_STATE_COLUMNS, type TraceEdgeStateRow, traceEdges } from '../../shared/store/tables/trace-edges.js';
import { TRACE_TX_STATE_COLUMNS, type TraceTxStateRow, traceTransactions } from '../../shared/store/tables/trace-transactions.js';
import { type TraceRow, traces } from '../../shared/store/tables/traces.js';
import { transactionDocuments } from '../../shared/store/tables/transaction-documents.js';
import { type Edge, type McBlockAssembly, type Trace, TraceAssembler, type TraceTx, type TraceTxRef } from '../../shared/ton/traces.js';
import { type MappedMessage, type StageCounters, type StageMapper, createTableWriter, runStage } from '../stages/stage.js';

/**
 * The trace stage, on the stage runner (stage.ts): masterchain-block messages in (mc-block.ts, one partition, in
 * masterchain order), traces out. For each masterchain block it waits until the decode stage has stored the block
 * and every shard block it commits (their `blocks` rows, which the decode stage writes after everything else of a
 * block), reads their transactions and messages, and assembles them (shared/ton/traces.ts). It writes each touched
 * trace, each transaction's trace and each edge, publishes every trace that completed to the traces topic, and
 * last records the masterchain block as done (trace_progress).
 *
 * Restarts, rebalances and replays: the in-flight state (traces with messages in flight, and those messages) is
 * loaded from the store as of the last block recorded done, taking per key the newest row not newer than that block;
 * a message at or below it is skipped; rows of a block whose write was cut short are written again, identically.
 * The stage reloads whenever a message is not the one right after the last it read (a redelivery, a rebalance).
 */

/** The stage's name in trace_progress. */
const PROGRESS_KEY = 'traces';
/** Pseudo-table of a chunk: completed traces to publish once the chunk's rows are stored. */
const PUBLISH = '@publish';
/** Tables in write order: edges and links before the traces that count them; progress last (see the writer). */
export const TRACE_TABLES = ['trace_edges', 'trace_transactions', 'traces'] as const;

export interface TraceStageDeps {
  consumer: Consumer;
  store: Store;
  producer: Producer;
  /** The traces topic (trace.ts). */
  tracesTopic: string;
  deadLetter: (msg: IncomingMessage, error: unknown) => Promise<void>;
  logger: Logger;
  /** Longest wait for the decode stage to store a masterchain block's blocks before the batch is retried (default 10 s). */
  blocksWaitMs?: number;
  /** Bound of the rows a trace message carries (trace.ts, default TRACE_ROWS_MAX_BYTES). */
  maxRowsBytes?: number;
  /**
   * Rows (all tables) at which the stage writes what it mapped while it maps on (the stage runner's flushRows, default
   * its DEFAULT_FLUSH_ROWS): at the chain's pace a bus batch is one masterchain block, written as it comes.
   */
  flushRows?: number;
  counters?: StageCounters;
  /** Called with each masterchain block once it is recorded done (its traces stored and published). */
  onProgress?: (mcSeqno: number) => void;
  onBatch?: (info: { mcBlocks: number; transactions: number; ms: number }) => void;
}

export async function runTraceStage(deps: TraceStageDeps): Promise<void> {
  const tableWriter = createTableWriter({ store: deps.store, logger: deps.logger, tables: TRACE_TABLES });
  const onBatch = deps.onBatch;
  await runStage(deps.consumer, {
    mapper: createTraceMapper({
      store: deps.store,
      logger: deps.logger,
      ...(deps.blocksWaitMs !== undefined ? { blocksWaitMs: deps.blocksWaitMs } : {}),
      ...(deps.maxRowsBytes !== undefined ? { maxRowsBytes: deps.maxRowsBytes } : {}),
    }),
    // A chunk holds whole masterchain blocks (the runner splits a batch only between messages), and the writer stores
    // their progress rows after everything else: a block is never recorded done before all of its rows are stored.
    // Several blocks per chunk when catching up: every insert makes parts (projections and views' included) whose
    // fixed cost, not their rows, was most of what the stage cost ClickHouse (bench/RESULTS.md).
    ...(deps.flushRows !== undefined ? { flushRows: deps.flushRows } : {}),
    write: async (rows, signal) => {
      const publish = rows.get(PUBLISH);
      const progress = rows.get('trace_progress');
      rows.delete(PUBLISH);
      rows.delete('trace_progress');
      await tableWriter(rows, signal);
      // Published after the rows are stored and before the block is recorded done: a crash in between publishes
      // again on replay (at-least-once), never not at all.
      if (publish && publish.objects.length > 0) {
        const messages = publish.objects as OutgoingMessage[];
        await retry(() => deps.producer.send(deps.tracesTopic, messages), { what: 'publish traces', signal, logger: deps.logger });
      }
      if (progress) {
        await retry(() => deps.store.insert('trace_progress', progress.objects), { what: 'insert into trace_progress', signal, logger: deps.logger });
        for (const r of progress.objects) deps.onProgress?.((r as { mc_seqno: number }).mc_seqno);
      }
    },
    deadLetter: deps.deadLetter,
    ...(deps.counters ? { counters: deps.counters } : {}),
    ...(onBatch ? { onBatch: (r) => onBatch({ mcBlocks: r.messages, transactions: r.items, ms: r.ms }) } : {}),
  });
}

/** The stage's mapping: one masterchain-block message → the rows (and trace messages) of its assembly. */
export function createTraceMapper(deps: { store: Store; logger: Logger; blocksWaitMs?: number; maxRowsBytes?: number }): StageMapper {
  const { store } = deps;
  const maxRowsBytes = deps.maxRowsBytes ?? TRACE_ROWS_MAX_BYTES;
  let assembler: TraceAssembler | undefined;
  // The carried rows of the transactions of traces in flight (and of the block being assembled), by transaction hash.
  let carried = new Map<string, CarriedRows>();
  // The last masterchain block assembled in memory (its rows may still be on the way to the store), and where its
  // message was: the next message must be the one right after it, else the in-memory state is not this stream's
  // (a redelivery after a failure, or the partition was elsewhere meanwhile) and is loaded again.
  let assembled: number | null = null;
  let lastAt: { partition: number; offset: bigint } | null = null;
  const reload = async (): Promise<number | null> => {
    const progress = await loadProgress(store);
    const state = progress === null ? undefined : await loadState(store, progress);
    assembler = new TraceAssembler(state);
    carried = state === undefined ? new Map() : await readCarriedRows(store, state.traces.filter((t) => t.state !== 'broken').flatMap((t) => t.txs));
    assembled = progress;
    deps.logger.info({ progress, inFlightTraces: assembler.inFlightTraces, inFlightMessages: assembler.inFlightMessages }, 'trace state loaded');
    return progress;
  };
  return {
    depth: 1,
    inThread: true,
    close: async () => {},
    async map(msg): Promise<MappedMessage> {
      const mc = decodeMcBlock(msg);
      const seqno = mc.block.seqno;
      const at = { partition: msg.partition, offset: BigInt(msg.offset) };
      const successor = lastAt !== null && lastAt.partition === at.partition && at.offset === lastAt.offset + 1n;
      lastAt = at;
      if (assembler === undefined || !successor || (assembled !== null && seqno <= assembled)) await reload();
      if (assembled !== null && seqno <= assembled) return { rows: {}, count: 0, checkpoint: null };
      await awaitBlocksStored(store, mc, deps.blocksWaitMs ?? 10_000);
      const { txs, rows } = await readTransactions(store, [mc.block, ...mc.shardBlocks]);
      for (const [hash, r] of rows) carried.set(hash, r);
      const a = assembler!.assemble(seqno, txs);
      assembled = seqno;
      const published = a.completed.map((t) => encodeTrace(t, traceRows(t.txs.map((x) => x.hash), (h) => carried.get(h), maxRowsBytes)));
      // Rows of traces no longer in flight are not needed again (a broken trace is never published).
      for (const t of a.traces) if (t.pendingMessages === 0 || t.state === 'broken') for (const x of t.txs) carried.delete(x.hash);
      return { rows: rowsOf(a, published), count: txs.length, checkpoint: null };
    },
  };
}

function rowsOf(a: McBlockAssembly, published: OutgoingMessage[]): Record<string, object[]> {
  const v = a.mcSeqno;
  return {
    trace_edges: a.edges.map((e) => ({
      msg_hash: e.msgHash,
      trace_id: e.traceId,
      left_tx: e.leftTx,
      right_tx: e.rightTx ?? '',
      mc_seqno_created: e.mcSeqnoCreated,
      version: v,
    })),
    trace_transactions: a.txTraces.map(({ tx, traceId }) => ({
      trace_id: traceId,
      tx_hash: tx.hash,
      tx_account: tx.account,
      tx_lt: tx.lt.toString(),
      tx_now: tx.now,
      mc_seqno: tx.mcSeqno,
      version: v,
    })),
    traces: a.traces.map((t) => ({
      trace_id: t.traceId,
      external_hash: t.externalHash,
      external_hash_norm: t.externalHashNorm,
      mc_seqno_start: t.mcSeqnoStart,
      mc_seqno_end: t.mcSeqnoEnd,
      start_lt: t.startLt.toString(),
      start_utime: t.startUtime,
      end_lt: t.endLt.toString(),
      end_utime: t.endUtime,
      state: t.state,
      transactions: t.transactions,
      messages: t.messages,
      pending_messages: t.pendingMessages,
      version: v,
    })),
    [PUBLISH]: published,
    trace_progress: [{ stage: PROGRESS_KEY, mc_seqno: v }],
  };
}

/** The last masterchain block whose assembly is stored, null before the first. */
export async function loadProgress(store: Store): Promise<number | null> {
  const [r] = await store.query<{ p: number | string; n: number | string }>(
    'SELECT max(mc_seqno) AS p, count() AS n FROM trace_progress WHERE stage = {stage:String}',
    { stage: PROGRESS_KEY },
  );
  return r === undefined || Number(r.n) === 0 ? null : Number(r.p);
}

/** The in-flight traces and messages as of masterchain block `progress` (rows of later blocks ignored). */
export async function loadState(store: Store, progress: number): Promise<{ traces: Trace[]; edges: Edge[] }> {
  const p = { p: progress };
  const rows = await store.query<TraceRow>(
    `SELECT ${selectList(traces.written)}
     FROM ${traces.name}
     WHERE version <= {p:UInt32} AND trace_id IN (SELECT trace_id FROM ${traces.name} WHERE version <= {p:UInt32} AND pending_messages != 0)
     ORDER BY version DESC LIMIT 1 BY trace_id`,
    p,
  );
  const live = rows.filter((r) => Number(r.pending_messages) !== 0);
  if (live.length === 0) return { traces: [], edges: [] };
  const ids = live.map((r) => r.trace_id);
  const txRows = await store.query<TraceTxStateRow>(
    `SELECT ${selectList(TRACE_TX_STATE_COLUMNS)} FROM ${traceTransactions.name}
     WHERE trace_id IN {ids:Array(String)} AND version <= {p:UInt32}
     ORDER BY mc_seqno, tx_lt, tx_account LIMIT 1 BY tx_hash`,
    { ...p, ids },
  );
  const txsOf = new Map<string, TraceTxRef[]>();
  for (const r of txRows) {
    let list = txsOf.get(r.trace_id);
    if (!list) txsOf.set(r.trace_id, (list = []));
    list.push({ hash: r.tx_hash, account: r.tx_account, lt: BigInt(r.tx_lt), now: Number(r.tx_now), mcSeqno: Number(r.mc_seqno) });
  }
  const edgeRows = await store.query<TraceEdgeStateRow>(
    `SELECT ${selectList(TRACE_EDGE_STATE_COLUMNS)} FROM ${traceEdges.name}
     WHERE trace_id IN {ids:Array(String)} AND version <= {p:UInt32}
     ORDER BY version DESC LIMIT 1 BY msg_hash`,
    { ...p, ids },
  );
  return {
    traces: live.map((r) => ({
      traceId: r.trace_id,
      externalHash: r.external_hash,
      externalHashNorm: r.external_hash_norm,
      mcSeqnoStart: Number(r.mc_seqno_start),
      mcSeqnoEnd: Number(r.mc_seqno_end),
      startLt: BigInt(r.start_lt),
      startUtime: Number(r.start_utime),
      endLt: BigInt(r.end_lt),
      endUtime: Number(r.end_utime),
      state: r.state,
      transactions: Number(r.transactions),
      messages: Number(r.messages),
      pendingMessages: Number(r.pending_messages),
      txs: txsOf.get(r.trace_id) ?? [],
    })),
    edges: edgeRows
      .filter((e) => e.right_tx === '')
      .map((e) => ({ msgHash: e.msg_hash, traceId: e.trace_id, leftTx: e.left_tx, rightTx: null, mcSeqnoCreated: Number(e.mc_seqno_created) })),
  };
}

/** Bound parameters selecting a list of blocks (index-friendly IN lists, made exact by the zipped tuples). */
function blockFilter(blocks: readonly BlockRef[], prefix: string): { where: string; params: Record<string, unknown> } {
  const wcs = blocks.map((b) => b.workchain);
  const shards = blocks.map((b) => BigInt(`0x${b.shard}`).toString());
  const seqnos = blocks.map((b) => b.seqno);
  // Shards travel as decimal text: an Array(UInt64) parameter does not take the client's quoted 64-bit values.
  const shardList = 'arrayMap(x -> toUInt64(x), {shards:Array(String)})';
  return {
    where:
      `${prefix}workchain IN {wcs:Array(Int32)} AND ${prefix}shard IN (SELECT arrayJoin(${shardList})) AND ${prefix}seqno IN {seqnos:Array(UInt32)} ` +
      `AND has(arrayZip({wcs:Array(Int32)}, ${shardList}, {seqnos:Array(UInt32)}), (${prefix}workchain, ${prefix}shard, ${prefix}seqno))`,
    params: { wcs, shards, seqnos },
  };
}

/**
 * Waits until the decode stage stored every block of the message; after `waitMs` gives up with a retryable error
 * (the batch is retried with backoff, and the bus's session stays alive meanwhile).
 */
async function awaitBlocksStored(store: Store, mc: McBlockMessage, waitMs: number): Promise<void> {
  const blocks = [mc.block, ...mc.shardBlocks];
  const f = blockFilter(blocks, '');
  const deadline = performance.now() + waitMs;
  let delay = 20;
  for (;;) {
    const [r] = await store.query<{ n: number | string }>(`SELECT count() AS n FROM (SELECT DISTINCT workchain, shard, seqno FROM blocks WHERE ${f.where})`, f.params);
    if (Number(r?.n ?? 0) >= blocks.length) return;
    if (performance.now() >= deadline) {
      throw new UpstreamUnavailableError('TRACE_BLOCKS_NOT_STORED', `masterchain block ${mc.block.seqno}: ${Number(r?.n ?? 0)} of its ${blocks.length} blocks are stored so far`);
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(500, delay * 2);
  }
}

/**
 * The transactions of `blocks`, with their in- and out-messages as the assembler needs them, and the carried rows
 * (trace.ts) of those that have a transaction document, by transaction hash.
 */
export async function readTransactions(store: Store, blocks: readonly BlockRef[]): Promise<{ txs: TraceTx[]; rows: Map<string, CarriedRows> }> {
  const f = blockFilter(blocks, 'block_');
  const txRows = await store.query<TxKeyRow>(
    `SELECT DISTINCT account, toString(lt) AS lt, hash, now FROM ${blockTransactions.name} WHERE ${f.where}`,
    f.params,
  );
  const rows = new Map<string, CarriedRows>();
  if (txRows.length === 0) return { txs: [], rows };
  const byTx = new Map<string, TraceTx>();
  const txs: TraceTx[] = txRows.map((r) => {
    const tx: TraceTx = { hash: r.hash, account: r.account, lt: BigInt(r.lt), now: Number(r.now), inMsg: null, outMsgs: [] };
    byTx.set(`${r.account}|${r.lt}`, tx);
    return tx;
  });
  const msgRows: TraceMsgRow[] = [];
  for (const [key, { doc, rows: carriedOfTx }] of await readDocuments(store, [...byTx.keys()])) {
    const tx = byTx.get(key)!;
    for (const m of doc.messages) {
      msgRows.push({
        tx_account: tx.account,
        tx_lt: tx.lt.toString(),
        direction: m['direction'] as 'in' | 'out',
        msg_hash: String(m['msg_hash']),
        hash_norm: (m['hash_norm'] ?? null) as string | null,
        source: String(m['source']),
        destination: String(m['destination']),
      });
    }
    rows.set(tx.hash, carriedOfTx);
  }
  // The transactions without a document: their messages from the table, by its key.
  const rest = txRows.filter((r) => !rows.has(r.hash));
  if (rest.length > 0) {
    for (const m of await store.query<TraceMsgRow>(
      `SELECT DISTINCT tx_account, toString(tx_lt) AS tx_lt, toString(direction) AS direction, msg_hash, hash_norm, source, destination FROM ${messages.name}
       WHERE (${MESSAGE_TX_COLUMNS.join(', ')}) IN arrayZip({accounts:Array(String)}, {lts:Array(UInt64)})
       SETTINGS optimize_use_projections = 0`,
      { accounts: rest.map((r) => r.account), lts: rest.map((r) => BigInt(r.lt)) },
    )) msgRows.push(m);
  }
  // Out-messages in a stable order (their hash): the assembler's result must not depend on the store's row order.
  msgRows.sort((a, b) => (a.msg_hash < b.msg_hash ? -1 : a.msg_hash > b.msg_hash ? 1 : 0));
  for (const m of msgRows) {
    const tx = byTx.get(`${m.tx_account}|${m.tx_lt}`);
    if (!tx) continue;
    if (m.direction === 'in') tx.inMsg = { hash: m.msg_hash, source: m.source === '' ? null : m.source, hashNorm: m.hash_norm };
    else tx.outMsgs.push({ hash: m.msg_hash, hasDestination: m.destination !== '' });
  }
  return { txs, rows };
}

type TxKeyRow = Pick<BlockTransactionRow, 'account' | 'lt' | 'hash' | 'now'>;
type TraceMsgRow = Pick<MessageRow, 'tx_account' | 'tx_lt' | 'direction' | 'msg_hash' | 'hash_norm' | 'source' | 'destination'>;

/**
 * The transaction documents of `keys` (`account|lt`, the table's key) with their carried rows, by key; a key without
 * one is absent.
 */
async function readDocuments(store: Store, keys: readonly string[]): Promise<Map<string, { doc: DocumentRows; rows: CarriedRows }>> {
  const out = new Map<string, { doc: DocumentRows; rows: CarriedRows }>();
  if (keys.length === 0) return out;
  const found = (await store.queryFields(`SELECT key, doc FROM ${transactionDocuments.name} WHERE key IN {keys:Array(String)}`, 2, { keys })) as Array<[string, string]>;
  for (const [key, text] of found) {
    // A document this reader cannot take counts as none: the transaction is then read from the tables.
    try {
      const doc = decodeTransactionDocument(text);
      out.set(key, { doc, rows: carriedRows(doc) });
    } catch {
      continue;
    }
  }
  return out;
}

/** The carried rows of the transactions `txs` (of the traces in flight, on a reload), by transaction hash. */
async function readCarriedRows(store: Store, txs: readonly TraceTxRef[]): Promise<Map<string, CarriedRows>> {
  const hashOf = new Map(txs.map((x) => [`${x.account}|${x.lt}`, x.hash]));
  const out = new Map<string, CarriedRows>();
  for (const [key, d] of await readDocuments(store, [...hashOf.keys()])) out.set(hashOf.get(key)!, d.rows);
  return out;
}

/**
 * The trace stage's progress as the rest of the process waits on it (embedded mode: the follower's checkpoint passes a
 * masterchain block only once its traces are stored, {@link GatedCheckpoints}).
 */
export interface ProgressGate {
  reached(mcSeqno: number): void;
  /** Whether `mcSeqno` is done (a closed gate passes waits, not blocks). */
  passed(mcSeqno: number): boolean;
  /** Resolves once `mcSeqno` is done (or the gate is closed, or `signal` aborts). */
  wait(mcSeqno: number, signal?: AbortSignal): Promise<void>;
  close(): void;
}

export function createProgressGate(initial: number | null): ProgressGate {
  let done = initial ?? -1;
  let closed = false;
  const waiters = new Set<{ mc: number; resolve: () => void }>();
  const settle = (): void => {
    for (const w of waiters) {
      if (closed || w.mc <= done) {
        waiters.delete(w);
        w.resolve();
      }
    }
  };
  return {
    reached(mc) {
      if (mc > done) done = mc;
      settle();
    },
    passed: (mc) => mc <= done,
    wait(mc, signal) {
      if (closed || mc <= done || signal?.aborted) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const w = { mc, resolve };
        waiters.add(w);
        signal?.addEventListener(
          'abort',
          () => {
            waiters.delete(w);
            resolve();
          },
          { once: true },
        );
      });
    },
    close() {
      closed = true;
      settle();
    },
  };
}

/**
 * The follower's checkpoints as the decode stage saves them in embedded mode, held back until the trace stage is done
 * with their masterchain block (the in-process bus keeps no message across a restart, so the checkpoint is what a
 * restart replays from). Saving returns at once: the decode stage goes on decoding while the trace stage catches up,
 * instead of waiting for it at every batch (and the trace stage may write many masterchain blocks at once, which it
 * could not while the decode stage waited on the block it was writing). Checkpoints are saved in the order given, each
 * once its block is done, the newest of those due at a time; on close, those not due are dropped, and a restart
 * replays from the last one saved. A checkpoint without a masterchain block (`mc` null) waits only for those before it.
 */
export interface GatedCheckpoints {
  save(checkpoint: string, mc: number | null): void;
  /** Saves what is due and ends the loop (after the trace stage's closer, which passes its last blocks). */
  close(): Promise<void>;
}

export function createGatedCheckpoints(deps: { gate: ProgressGate; save: (checkpoint: string) => Promise<void>; logger: Logger; signal: AbortSignal }): GatedCheckpoints {
  const queue: Array<{ checkpoint: string; mc: number | null }> = [];
  let running: Promise<void> | null = null;
  let closed = false;
  const due = (e: { mc: number | null }): boolean => e.mc === null || deps.gate.passed(e.mc);
  const loop = async (): Promise<void> => {
    while (queue.length > 0 && !deps.signal.aborted) {
      const head = queue[0]!;
      if (!due(head)) {
        if (closed) return;
        await deps.gate.wait(head.mc!, deps.signal);
        // A closed gate or a stop lets the wait go without the block being done: nothing more is saved then.
        if (!due(head)) return;
      }
      let last = head;
      let n = 0;
      while (n < queue.length && due(queue[n]!)) last = queue[n++]!;
      try {
        await retry(() => deps.save(last.checkpoint), { what: 'save the follower checkpoint', signal: deps.signal, logger: deps.logger });
      } catch (err) {
        // Not retryable, or stopped: the checkpoint stays where it was, and a later one is tried with the next block.
        if (deps.signal.aborted) return;
        deps.logger.error({ err }, 'follower checkpoint not saved');
      }
      queue.splice(0, n);
    }
  };
  const settled = async (): Promise<void> => {
    while (running) await running;
  };
  const kick = (): void => {
    if (running) return;
    running = loop().finally(() => {
      running = null;
      if (queue.length > 0 && !closed && !deps.signal.aborted && due(queue[0]!)) kick();
    });
  };
  return {
    save(checkpoint, mc) {
      if (closed) return;
      queue.push({ checkpoint, mc });
      kick();
    },
    async close() {
      closed = true;
      // Once closed the loop stops at the first checkpoint not due: run it until nothing due is left.
      do {
        kick();
        await settled();
      } while (queue.length > 0 && due(queue[0]!) && !deps.signal.aborted);
    },
  };
}
