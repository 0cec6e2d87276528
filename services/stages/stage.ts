import type { Batch, BatchContext, BatchHandler, Consumer, IncomingMessage, PendingBatch } from '../../shared/bus/bus.js';
import { isRetryable } from '../../shared/runtime/errors.js';
import type { Logger } from '../../shared/runtime/logger.js';
import { retry } from '../../shared/runtime/retry.js';
import type { Store } from '../../shared/store/store.js';
import type { EncodedRows } from '../../shared/store/tsv.js';

/**
 * The stage runner: consume → map → write → commit, for every stage that turns bus messages into rows of the store.
 * A stage supplies its consumer (its group and input topics), its mapping of one message to rows, and how rows are
 * written (usually {@link createTableWriter} over its tables, in their write order); the runner does the rest:
 * batching, the overlap of mapping and writing, pending durability across batches, a write chain per partition,
 * dead letters, checkpoints and the stage's counters.
 */

/** One table's rows of a message: row objects, or already TabSeparated (encoded by a worker against the schema). */
export type RowChunk = object[] | EncodedRows;

/** One message, mapped to rows. */
export interface MappedMessage {
  /** Rows per table. */
  rows: Record<string, RowChunk>;
  /** What the message stands for, counted (the decode stage: transactions); reported in `onBatch` and the metrics. */
  count: number;
  /** A resume point the message carries (embedded mode: the follower's checkpoint), saved once its rows are stored. */
  checkpoint: string | null;
  /**
   * False for a message that is not one of what the stage counts as its messages (the decode stage counts blocks; a
   * state snapshot message on its topic is not one): left out of `messages` in `onBatch` and the metrics.
   */
  counted?: boolean;
}

/** What mapping one message came to: its rows, or the error that refused it. */
export type MapOutcome = { ok: true; mapped: MappedMessage } | { ok: false; error: unknown };

/**
 * A stage's mapping of messages to rows. Mappings may run elsewhere (the decode stage's workers): `map` resolves
 * with the rows or rejects with the mapping's error; a non-retryable one makes the message a poison message.
 */
export interface StageMapper {
  map(msg: IncomingMessage): Promise<MappedMessage>;
  /**
   * Optional: maps consecutive messages of a batch together, for a mapping whose cost is per store statement rather
   * than per message (the action stage reads the inputs of many traces in one statement per table). When present
   * the runner calls it instead of `map`, with up to `depth` messages at a time, two calls in flight (the next
   * starts before the previous resolves, so that a mapper may read the next messages' inputs while it computes on
   * the previous ones'; calls resolve in any order, outcomes are used in message order). It resolves with one outcome per message, in order: a message's own error
   * is its outcome (non-retryable: that message alone is dead-lettered); a rejection stands for every message of
   * the call (retryable: the batch is retried).
   */
  mapMany?(msgs: readonly IncomingMessage[]): Promise<MapOutcome[]>;
  /**
   * Messages worth having in flight to keep every worker busy (1 when mapping on the stage's thread); with
   * `mapMany`, the most messages one call maps.
   */
  readonly depth: number;
  /** True when `map` runs on the calling thread (it then never yields to I/O by itself). */
  readonly inThread: boolean;
  close(): Promise<void>;
}

/** One table's rows of a chunk: row objects (mapped on the stage's thread) and TabSeparated parts (workers). */
export interface TableRowsOf {
  objects: object[];
  encoded: EncodedRows[];
}

/** Rows per table, in the order they must be inserted. */
export type TableRows = Map<string, TableRowsOf>;

/** Where a stage saves the checkpoints its messages carry (the follower's checkpoint store in embedded mode). */
export interface CheckpointSink {
  /** `from`: the message that carried the checkpoint. */
  save(checkpoint: string, from: IncomingMessage): Promise<void>;
}

/** Counters a stage advances per batch once its rows are durable (prom-client counters fit). */
export interface StageCounters {
  messages?: { inc(n: number): void };
  items?: { inc(n: number): void };
  deadLettered?: { inc(n: number): void };
}

/** What a stage reports per batch, once the batch is durable. */
export interface BatchReport {
  /** Messages mapped and stored (dead letters excluded). */
  messages: number;
  /** Sum of the messages' {@link MappedMessage.count}. */
  items: number;
  deadLettered: number;
  ms: number;
  /** The last message stored. */
  last: IncomingMessage | undefined;
}

export interface StageDeps {
  mapper: StageMapper;
  /** Writes a chunk's rows; resolves only when the store acknowledged all of them (retrying retryable errors). */
  write: (rows: TableRows, signal: AbortSignal) => Promise<void>;
  /** Sends a poison message to the stage's dead-letter topic with its error. */
  deadLetter: (msg: IncomingMessage, error: unknown) => Promise<void>;
  /** Saves the checkpoints messages carry, once everything up to them is stored. */
  checkpoints?: CheckpointSink;
  /**
   * Rows (all tables together) at which the mapped part of a batch is handed to `write` while mapping goes on;
   * default {@link DEFAULT_FLUSH_ROWS}. Only message boundaries split a batch, so a message's rows are written together.
   */
  flushRows?: number;
  counters?: StageCounters;
  onBatch?: (report: BatchReport) => void;
}

/**
 * Default {@link StageDeps.flushRows} (the configuration's TONFLOW_BATCH_MAX_ROWS default too): some 28,000
 * corpus transactions with their messages and states, about 30 MB of TabSeparated. Large enough that ClickHouse gets
 * few big parts (each insert has a fixed cost, and every part is merged again later), small enough that decoding the
 * next chunk overlaps the insert of this one (bench/RESULTS.md, design measurements).
 */
export const DEFAULT_FLUSH_ROWS = 120_000;

/**
 * Runs a stage until its consumer stops. Each bus batch is mapped and written, and only then committed (the bus
 * commits when the handler's batch is durable), so a crash replays the batch and the idempotent tables absorb it. A
 * message that cannot be mapped is dead-lettered with its error and the batch goes on; a store failure is retried
 * with backoff and nothing is committed until it succeeds. The mapper is closed when the stage ends.
 */
export async function runStage(consumer: Consumer, deps: StageDeps): Promise<void> {
  try {
    await consumer.run(stageHandler(deps));
  } finally {
    await deps.mapper.close();
  }
}

/** The stage's handler: {@link handleBatch} with one {@link WriteChain} per partition. */
export function stageHandler(deps: StageDeps): BatchHandler {
  // Partitions are independent streams, and Kafka hands two of them to the stage at once
  // (partitionsConsumedConcurrently): their batches must not wait for, or take the place of, each other's.
  const chains = new Map<string, WriteChain>();
  return (batch, ctx) => {
    const key = `${batch.topic}\0${batch.partition}`;
    let chain = chains.get(key);
    if (!chain) chains.set(key, (chain = {}));
    return handleBatch(deps, batch, ctx, chain);
  };
}

/** The stage's writes across batches: the durability of the latest batch handed back pending, which the next follows. */
export interface WriteChain {
  last?: Promise<void>;
}

/**
 * Maps and writes one batch; resolves once its last write is started, with that write (then the checkpoint) as
 * the batch's `durable`. Its writes follow those of the batch before it on the same `chain`.
 *
 * Mapping and inserting (ClickHouse's threads) overlap: once `flushRows` rows are mapped they are written while the
 * next messages map. Across batches too: a batch is handed back to the bus pending (bus.ts `PendingBatch`) with its
 * last write in flight, and committed once that write is acknowledged, while the next batch already maps; without
 * this the decode stage idled for the length of an insert at every batch boundary (about a fifth of an embedded
 * `bench ingest` run, bench/RESULTS.md). One write is in flight at a time, so writes reach the store in message
 * order, batch after batch, and memory stays bounded by two chunks.
 */
export async function handleBatch(deps: StageDeps, batch: Batch, ctx: BatchContext, chain: WriteChain = {}): Promise<PendingBatch> {
  const started = performance.now();
  const mapper = deps.mapper;
  const flushRows = deps.flushRows ?? DEFAULT_FLUSH_ROWS;
  const firstFlushRows = Math.max(1, Math.floor(flushRows / 4));
  const messages = batch.messages;
  let rows: TableRows = new Map();
  let rowCount = 0;
  let items = 0;
  let deadLettered = 0;
  let uncounted = 0;
  let last: IncomingMessage | undefined;
  let checkpoint: { value: string; from: IncomingMessage } | null = null;
  // The write in flight, if any; it rejects only with what `write` gave up on (a non-retryable error, a stop). At
  // first, the previous batch's durability: the first write of this batch waits for it.
  let inflight: Promise<void> | undefined = chain.last;
  chain.last = undefined;
  // Whether the store may be idle: no write of this batch yet, and the predecessor's done. Only then is the first
  // chunk made small, so that the store gets work soon; behind a write in flight a full chunk is what it needs next.
  let wrote = false;
  let predecessorDone = inflight === undefined;
  inflight?.then(
    () => (predecessorDone = true),
    () => (predecessorDone = true),
  );
  const storeBusy = (): boolean => wrote || !predecessorDone;
  const flush = async (): Promise<void> => {
    const chunk = rows;
    rows = new Map();
    rowCount = 0;
    if (inflight) await inflight;
    const w = deps.write(chunk, ctx.signal);
    // Observed at once (the next flush or the end awaits it): a failure must not count as unhandled meanwhile.
    w.catch(() => {});
    inflight = w;
    wrote = true;
  };
  // Mappings run ahead of their use, up to the mapper's depth, and are used in message order.
  const ahead: Array<Promise<MapOutcome>> = [];
  let submitted = 0;
  const submit = (): void => {
    const many = mapper.mapMany?.bind(mapper);
    if (many) {
      // One call per `depth` messages, two calls in flight: the next is under way while this one's are used.
      while (submitted < messages.length && ahead.length <= mapper.depth) submitWindow(many);
      return;
    }
    while (submitted < messages.length && ahead.length < mapper.depth) {
      ahead.push(
        mapper.map(messages[submitted++]!).then(
          (mapped): MapOutcome => ({ ok: true, mapped }),
          (error: unknown): MapOutcome => ({ ok: false, error }),
        ),
      );
    }
  };
  const submitWindow = (many: NonNullable<StageMapper['mapMany']>): void => {
    const window = messages.slice(submitted, Math.min(messages.length, submitted + Math.max(1, mapper.depth)));
    submitted += window.length;
    const outcomes = many(window).then(
      (list) => {
        if (list.length !== window.length) throw new Error(`mapMany gave ${list.length} outcomes for ${window.length} messages`);
        return list;
      },
      (error: unknown) => window.map((): MapOutcome => ({ ok: false, error })),
    );
    for (let i = 0; i < window.length; i++) ahead.push(outcomes.then((list) => list[i]!));
  };
  try {
    for (const msg of messages) {
      submit();
      const outcome = await ahead.shift()!;
      if (!outcome.ok) {
        if (isRetryable(outcome.error)) throw outcome.error;
        await deps.deadLetter(msg, outcome.error);
        deadLettered++;
        continue;
      }
      const mapped = outcome.mapped;
      if (mapped.counted === false) uncounted++;
      last = msg;
      if (mapped.checkpoint !== null) checkpoint = { value: mapped.checkpoint, from: msg };
      items += mapped.count;
      for (const [table, chunk] of Object.entries(mapped.rows)) {
        const n = Array.isArray(chunk) ? chunk.length : chunk.rows;
        if (n === 0) continue;
        let list = rows.get(table);
        if (!list) rows.set(table, (list = { objects: [], encoded: [] }));
        if (Array.isArray(chunk)) for (const r of chunk) list.objects.push(r);
        else list.encoded.push(chunk);
        rowCount += n;
      }
      if (rowCount >= (storeBusy() ? flushRows : firstFlushRows)) await flush();
      await ctx.heartbeat();
      // Mapping on this thread never waits on I/O by itself; while a write is in flight, let its statements'
      // completions run between messages, so the next table's insert starts now rather than after the whole chunk.
      // (Workers leave this thread waiting on their answers, which runs the completions anyway.)
      if (storeBusy() && mapper.inThread) await yieldToIo();
    }
    if (rowCount > 0) await flush();
  } catch (e) {
    // Nothing of this batch is committed; still, let the write in flight and the mappings settle so that a
    // redelivery never overlaps them.
    await inflight?.catch(() => {});
    await Promise.all(ahead);
    throw e;
  }
  const lastWrite = inflight;
  const durable = (async () => {
    if (lastWrite) await lastWrite;
    if (checkpoint !== null && deps.checkpoints) await deps.checkpoints.save(checkpoint.value, checkpoint.from);
    const stored = messages.length - deadLettered - uncounted;
    deps.counters?.messages?.inc(stored);
    deps.counters?.items?.inc(items);
    deps.counters?.deadLettered?.inc(deadLettered);
    deps.onBatch?.({ messages: stored, items, deadLettered, ms: performance.now() - started, last });
  })();
  // Observed at once (the bus and the next batch's first write await it): a failure must not count as unhandled.
  // A failed batch is redelivered (or the consumer stops): whatever comes next on this partition is that redelivery,
  // which must not fail again on the old error.
  durable.catch(() => {
    if (chain.last === durable) chain.last = undefined;
  });
  chain.last = durable;
  return { durable };
}

/** Resolves after the event loop has run pending I/O callbacks (setImmediate runs right after the poll phase). */
function yieldToIo(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Writes a chunk's rows table by table in `tables` order, retrying retryable store failures with backoff until they
 * succeed or the stage stops. Nothing is acknowledged (and so no offset committed) before every table has its rows.
 * A table outside `tables` is a programming error: the order is what keeps readers consistent.
 */
export function createTableWriter(deps: { store: Store; logger: Logger; tables: readonly string[] }): (rows: TableRows, signal: AbortSignal) => Promise<void> {
  const known = new Set<string>(deps.tables);
  return async (rows, signal) => {
    for (const table of rows.keys()) if (!known.has(table)) throw new Error(`no write order for table ${table}`);
    for (const table of deps.tables) {
      const list = rows.get(table);
      if (!list) continue;
      const what = `insert into ${table}`;
      if (list.objects.length > 0) await retry(() => deps.store.insert(table, list.objects), { what, signal, logger: deps.logger });
      for (const parts of byColumns(list.encoded)) await retry(() => deps.store.insertEncoded(table, parts), { what, signal, logger: deps.logger });
    }
  };
}

/**
 * Encoded parts grouped by column list: each group is one insert (one part in ClickHouse). The bodies are handed
 * to the store as they came from the workers: joining them here would allocate the batch a second time, and on the
 * stage's thread every such allocation counts toward V8's external-memory limit, whose full collections cost that
 * thread CPU on every transaction (bench/RESULTS.md, design measurements).
 */
function byColumns(parts: EncodedRows[]): EncodedRows[][] {
  const groups = new Map<string, EncodedRows[]>();
  for (const p of parts) {
    const key = `${p.columns.join(',')} ${p.types.join(',')}`;
    const same = groups.get(key);
    if (same) same.push(p);
    else groups.set(key, [p]);
  }
  return [...groups.values()];
}
