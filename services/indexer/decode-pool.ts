import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { IncomingMessage } from '../../shared/bus/bus.js';
import { NonRetryableError, RetryableError } from '../../shared/runtime/errors.js';
import { type DecodedMessage, type RowsMapOptions, type TableSchema, type ToRows, decodeMessage } from './decode-block-rows.js';

/**
 * Where the decode stage's blocks are decoded. Inline: on the stage's own thread. Pooled: in worker threads, so
 * decoding runs in parallel with everything the stage's thread does meanwhile (encoding rows for ClickHouse, starting
 * the next insert the moment the previous one is acknowledged, talking to the bus); ARCHITECTURE.md: "decoding runs
 * in parallel". Either way `decode` resolves with the rows or rejects with the decoder's error (code and retryable
 * flag kept, so a poison message is still dead-lettered and nothing else is).
 */
export interface BlockDecoder {
  decode(msg: IncomingMessage): Promise<DecodedMessage>;
  /** Requests worth keeping in flight to keep every worker busy (1 inline). */
  readonly depth: number;
  /** True when `decode` runs on the calling thread (it then never yields to I/O by itself). */
  readonly inThread: boolean;
  close(): Promise<void>;
}

/** A request to a decode worker. */
export interface DecodeRequest {
  id: number;
  headers: Record<string, string>;
  value: Uint8Array;
}

/** A decode worker's answer. */
export type DecodeReply =
  | { id: number; ok: true; decoded: DecodedMessage }
  | { id: number; ok: false; error: { name: string; code: string; message: string; retryable: boolean } };

/** Decodes on the calling thread with `toRows` (tests, and machines with one core). */
export function createInlineDecoder(toRows: ToRows, opts: RowsMapOptions = {}): BlockDecoder {
  return {
    depth: 1,
    inThread: true,
    decode: async (msg) => decodeMessage(msg, toRows, undefined, opts),
    close: async () => {},
  };
}

/** The compiled worker entry beside this module; absent when running from TypeScript sources (vitest). */
const WORKER_URL = new URL('./decode-worker.js', import.meta.url);

/** True when worker threads can be started: the compiled entry exists (running from `dist/`). */
export function decodeWorkersAvailable(): boolean {
  return WORKER_URL.protocol === 'file:' && existsSync(fileURLToPath(WORKER_URL));
}

/** Workers for this machine: every core but the one the stage's thread and ClickHouse need, at least one. */
export function defaultDecodeWorkers(): number {
  return Math.max(1, Math.min(4, os.availableParallelism() - 1));
}

/** Young generation of a decode worker's heap (see `start` below). */
const WORKER_YOUNG_GENERATION_MB = 192;

/** A worker failed as a thread (crash, exit): the request may succeed on a fresh one. */
class DecodeWorkerLostError extends RetryableError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('DECODE_WORKER_LOST', message, options);
  }
}

interface Pending {
  resolve: (d: DecodedMessage) => void;
  reject: (e: unknown) => void;
}

interface Slot {
  worker: Worker | null;
  pending: Map<number, Pending>;
}

/**
 * Decodes in `workers` worker threads running `blockToRows` (decode-worker.ts), round robin. With a `schema` the
 * workers also encode each table's rows as TabSeparated and hand the bytes over: cloning row objects across threads
 * costs more than encoding them (bench/RESULTS.md, ingest). A worker that dies fails its requests with a retryable
 * error (the batch is redelivered) and is replaced on the next request.
 */
export function createWorkerDecoder(workers: number = defaultDecodeWorkers(), schema?: TableSchema, opts: RowsMapOptions = {}): BlockDecoder {
  if (!decodeWorkersAvailable()) {
    throw new NonRetryableError('DECODE_WORKERS_UNAVAILABLE', `decode workers need the compiled ${fileURLToPath(WORKER_URL)} (run from dist/)`);
  }
  const slots: Slot[] = Array.from({ length: Math.max(1, workers) }, () => ({ worker: null, pending: new Map() }));
  let nextId = 0;
  let turn = 0;
  let closed = false;

  const fail = (slot: Slot, err: Error): void => {
    slot.worker = null;
    for (const p of slot.pending.values()) p.reject(err);
    slot.pending.clear();
  };

  const start = (slot: Slot): Worker => {
    // A young generation of 192 MiB (V8's default is 16-64): decoding allocates short-lived records by the megabyte,
    // and with the default each scavenge copies and promotes much of them (bench/RESULTS.md, design measurements).
    const w = new Worker(WORKER_URL, { workerData: { schema, rows: opts }, resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB } });
    // Idle workers must not keep the process alive; close() ends them.
    w.unref();
    w.on('message', (reply: DecodeReply) => {
      const p = slot.pending.get(reply.id);
      if (!p) return;
      slot.pending.delete(reply.id);
      if (reply.ok) p.resolve(reply.decoded);
      else {
        const { name, code, message, retryable } = reply.error;
        const e = retryable ? new RetryableError(code, message) : new NonRetryableError(code, message);
        e.name = name;
        p.reject(e);
      }
    });
    w.on('error', (err) => {
      if (slot.worker === w) fail(slot, new DecodeWorkerLostError(`decode worker failed: ${err.message}`, { cause: err }));
    });
    w.on('exit', (code) => {
      if (slot.worker === w) fail(slot, new DecodeWorkerLostError(`decode worker exited with code ${code}`));
    });
    slot.worker = w;
    return w;
  };

  return {
    depth: slots.length * 4,
    inThread: false,
    decode(msg) {
      if (closed) return Promise.reject(new DecodeWorkerLostError('decoder is closed'));
      const slot = slots[turn++ % slots.length]!;
      const w = slot.worker ?? start(slot);
      const id = nextId++;
      return new Promise<DecodedMessage>((resolve, reject) => {
        slot.pending.set(id, { resolve, reject });
        const v = msg.value;
        if (v.byteOffset === 0 && v.byteLength === v.buffer.byteLength) {
          // Cloned by postMessage straight into the worker's heap: no block-sized allocation on this thread, where
          // each one counts toward V8's external-memory limit and its full collections (bench/RESULTS.md, ingest).
          w.postMessage({ id, headers: msg.headers, value: v } satisfies DecodeRequest);
        } else {
          // A view into a larger buffer that other messages share (a Kafka fetch): cloning it would copy all of that
          // buffer, so the block is copied out and its copy moved.
          const req: DecodeRequest = { id, headers: msg.headers, value: new Uint8Array(v) };
          w.postMessage(req, [req.value.buffer as ArrayBuffer]);
        }
      });
    },
    async close() {
      closed = true;
      await Promise.all(
        slots.map(async (slot) => {
          const w = slot.worker;
          if (!w) return;
          fail(slot, new DecodeWorkerLostError('decoder is closed'));
          await w.terminate();
        }),
      );
    },
  };
}
