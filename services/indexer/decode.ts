import type { Batch, BatchContext, BatchHandler, Consumer, IncomingMessage, PendingBatch } from '../../shared/bus/bus.js';
import { isRetryable } from '../../shared/runtime/errors.js';
import type { CheckpointStore } from '../follower/follow.js';
import type { EncodedRows } from '../../shared/store/tsv.js';
import { type DecodedMessage, type TableSchema, type ToRows, chunkRows } from './decode-block-rows.js';
import { type BlockDecoder, createInlineDecoder, createWorkerDecoder, decodeWorkersAvailable, defaultDecodeWorkers } from './decode-pool.js';
import { blockToRows } from './to-rows.js';

/** One table's rows of a chunk: row objects (decoded on the stage's thread) and TabSeparated parts (decode workers). */
export interface TableRowsOf {
  objects: object[];
  encoded: EncodedRows[];
}

/** Rows per table, in the order they must be inserted. */
export type TableRows = Map<string, TableRowsOf>;

export interface DecodeStageDeps {
  consumer: Consumer;
  /** Decoded block → rows of the store's tables. */
  toRows: ToRows;
  /** Writes a batch's rows; resolves only when the store acknowledged all of them (retrying retryable errors). */
  write: (rows: TableRows, signal: AbortSignal) => Promise<void>;
  /** Sends a poison message to the dead-letter topic with its error. */
  deadLetter: (msg: IncomingMessage, error: unknown) => Promise<void>;
  /** Embedded mode: the follower's checkpoint, saved once the group's last block is stored. */
  checkpoints?: CheckpointStore;
  /**
   * Rows (all tables together) at which the decoded part of a batch is handed to `write` while decoding goes on;
   * default {@link DEFAULT_FLUSH_ROWS}. Only block boundaries split a batch, so a block's rows are written together.
   */
  flushRows?: number;
  /**
   * Worker threads that decode blocks beside the stage's thread. Default: {@link defaultDecodeWorkers} when `toRows`
   * is `blockToRows` (the workers run that mapping) and the compiled worker entry exists (running from `dist/`), else
   * 0: decoding on the stage's thread, as tests running the TypeScript sources do.
   */
  decodeWorkers?: number;
  /**
   * Column types of the store's tables (Store.columnTypes): decode workers then encode rows as TabSeparated
   * themselves. Without it they hand over row objects and the store encodes them.
   */
  schema?: TableSchema;
  /** Fill the point tables too (TONFLOW_STORE_POINT_READS, on by default; 0009_transaction_documents.sql). Absent: false. */
  points?: boolean;
  onBatch?: (info: { blocks: number; transactions: number; deadLettered: number; ms: number }) => void;
}

/**
 * Default {@link DecodeStageDeps.flushRows} (the configuration's TONFLOW_BATCH_MAX_ROWS default too): some 28,000
 * corpus transactions with their messages and states, about 30 MB of TabSeparated. Large enough that ClickHouse gets
 * few big parts (each insert has a fixed cost, and every part is merged again later), small enough that decoding the
 * next chunk overlaps the insert of this one. Against 50,000 in alternating embedded `bench ingest` replays: 7% less
 * CPU per transaction, 0-5% more throughput (bench/RESULTS.md, ingest).
 */
export const DEFAULT_FLUSH_ROWS = 120_000;

/**
 * The decode stage: raw blocks in, rows out. Each bus batch is decoded and written, and only then committed (the bus
 * commits when the handler resolves), so a crash replays the batch and the idempotent tables absorb it. A block that
 * cannot be decoded is dead-lettered with its error and the batch goes on; a store failure is retried with backoff
 * and nothing is committed until it succeeds.
 *
 * Decoding and inserting (ClickHouse's threads) overlap: once `flushRows` rows are decoded they are written while
 * the next blocks decode. Across batches too: a batch is handed back to the bus pending (bus.ts `PendingBatch`) with
 * its last write in flight, and committed once that write is acknowledged, while the next batch already decodes;
 * without this the decoder idled for the length of an insert at every batch boundary (about a fifth of an
 * embedded `bench ingest` run, bench/RESULTS.md). One write is in flight at a time, so writes reach the store in
 * block order, batch after batch, and memory stays bounded by two chunks. Blocks are decoded in worker threads when
 * available (`decodeWorkers`), which leaves this thread free to start each insert the moment the previous one is
 * acknowledged.
 */
export async function runDecodeStage(deps: DecodeStageDeps): Promise<void> {
  if ((deps.decodeWorkers ?? 0) > 0 && deps.toRows !== blockToRows) {
    throw new Error('decode workers map blocks with blockToRows; a stage with another toRows must decode in its own thread (decodeWorkers: 0)');
  }
  const workers = deps.decodeWorkers ?? (deps.toRows === blockToRows && decodeWorkersAvailable() ? defaultDecodeWorkers() : 0);
  const rowsOptions = { points: deps.points ?? false };
  const decoder = workers > 0 ? createWorkerDecoder(workers, deps.schema, rowsOptions) : createInlineDecoder(deps.toRows, rowsOptions);
  try {
    await deps.consumer.run(batchHandler(deps, decoder));
  } finally {
    await decoder.close();
  }
}

/** The stage's handler: {@link handleBatch} with one {@link WriteChain} per partition. */
export function batchHandler(deps: DecodeStageDeps, decoder: BlockDecoder): BatchHandler {
  // Partitions are independent streams, and Kafka hands two of them to the stage at once
  // (partitionsConsumedConcurrently): their batches must not wait for, or take the place of, each other's.
  const chains = new Map<string, WriteChain>();
  return (batch, ctx) => {
    const key = `${batch.topic}\0${batch.partition}`;
    let chain = chains.get(key);
    if (!chain) chains.set(key, (chain = {}));
    return handleBatch(deps, batch, ctx, decoder, chain);
  };
}

/** The stage's writes across batches: the durability of the latest batch handed back pending, which the next follows. */
export interface WriteChain {
  last?: Promise<void>;
}

/**
 * Decodes and writes one batch; resolves once its last write is started, with that write (then the checkpoint) as
 * the batch's `durable`. Its writes follow those of the batch before it on the same `chain`.
 */
export async function handleBatch(
  deps: DecodeStageDeps,
  batch: Batch,
  ctx: BatchContext,
  decoder: BlockDecoder = createInlineDecoder(deps.toRows, { points: deps.points ?? false }),
  chain: WriteChain = {},
): Promise<PendingBatch> {
  const started = performance.now();
  const flushRows = deps.flushRows ?? DEFAULT_FLUSH_ROWS;
  const firstFlushRows = Math.max(1, Math.floor(flushRows / 4));
  const messages = batch.messages;
  let rows: TableRows = new Map();
  let rowCount = 0;
  let transactions = 0;
  let deadLettered = 0;
  let checkpoint: string | null = null;
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
  // Decodes run ahead of their use, up to the decoder's depth, and are used in message order.
  type Outcome = { ok: true; decoded: DecodedMessage } | { ok: false; error: unknown };
  const ahead: Array<Promise<Outcome>> = [];
  let submitted = 0;
  const submit = (): void => {
    while (submitted < messages.length && ahead.length < decoder.depth) {
      ahead.push(
        decoder.decode(messages[submitted++]!).then(
          (decoded): Outcome => ({ ok: true, decoded }),
          (error: unknown): Outcome => ({ ok: false, error }),
        ),
      );
    }
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
      const decoded = outcome.decoded;
      if (decoded.checkpoint !== null) checkpoint = decoded.checkpoint;
      transactions += decoded.transactions;
      for (const [table, chunk] of Object.entries(decoded.rows)) {
        const n = chunkRows(chunk);
        if (n === 0) continue;
        let list = rows.get(table);
        if (!list) rows.set(table, (list = { objects: [], encoded: [] }));
        if (Array.isArray(chunk)) for (const r of chunk) list.objects.push(r);
        else list.encoded.push(chunk);
        rowCount += n;
      }
      if (rowCount >= (storeBusy() ? flushRows : firstFlushRows)) await flush();
      await ctx.heartbeat();
      // Decoding on this thread never waits on I/O by itself; while a write is in flight, let its statements'
      // completions run between blocks, so the next table's insert starts now rather than after the whole chunk.
      // (Decode workers leave this thread waiting on their answers, which runs the completions anyway.)
      if (storeBusy() && decoder.inThread) await yieldToIo();
    }
    if (rowCount > 0) await flush();
  } catch (e) {
    // Nothing of this batch is committed; still, let the write in flight and the decodes settle so that a
    // redelivery never overlaps them.
    await inflight?.catch(() => {});
    await Promise.all(ahead);
    throw e;
  }
  const lastWrite = inflight;
  const durable = (async () => {
    if (lastWrite) await lastWrite;
    if (checkpoint !== null && deps.checkpoints) await deps.checkpoints.save(checkpoint);
    deps.onBatch?.({ blocks: messages.length - deadLettered, transactions, deadLettered, ms: performance.now() - started });
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
