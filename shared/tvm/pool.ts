import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { NonRetryableError, RetryableError } from '../runtime/errors.js';
import type { GetMethodJob, GetMethodOutcome, TransactionJob, TransactionOutcome, Tvm } from './executor.js';

/**
 * TVM jobs on worker threads, so that the thread serving requests never runs a VM. Each worker holds one emulator
 * and runs one job at a time; jobs wait in one queue for the first free worker. A job that runs past its time
 * limit cannot be interrupted inside the WASM call, so its worker is terminated and replaced: gas bounds what a
 * contract may compute, the time limit bounds what that costs here.
 *
 * The configuration (over 100 KB, the same job after job) goes to a worker only when it differs from the one that
 * worker was last given: structured-cloning it into every message is work on the serving thread for each job.
 */

export interface TvmPoolOptions {
  /** Worker threads. */
  workers: number;
  /** Most milliseconds one job may run before its worker is terminated. */
  timeoutMs: number;
  /** Most jobs waiting for a worker; more are refused at once ({@link TvmBusyError}). */
  maxQueued?: number;
}

/** A {@link Tvm} on worker threads, which can tell how long its workers have been busy. */
export interface TvmPool extends Tvm {
  /**
   * Milliseconds the workers now running have spent running jobs since they started (their event loops' active
   * time; a replaced worker's time goes with it): what a job costs the workers, apart from its wait in the queue.
   */
  busyMs(): number;
}

/** A job ran past its time limit. */
export class TvmTimeoutError extends RetryableError {
  constructor(ms: number) {
    super('TVM_TIMEOUT', `TVM job did not finish within ${ms} ms`);
  }
}

/** Every worker is busy and the queue is full. */
export class TvmBusyError extends RetryableError {
  constructor(queued: number) {
    super('TVM_BUSY', `TVM pool is busy: ${queued} jobs are waiting`);
  }
}

/** The emulator itself failed on a job (not a TVM exit code: those are outcomes). */
export class TvmFailedError extends NonRetryableError {
  constructor(message: string) {
    super('TVM_FAILED', message);
  }
}

export class TvmClosedError extends NonRetryableError {
  constructor() {
    super('TVM_CLOSED', 'TVM pool is closed');
  }
}

/**
 * The compiled worker entry: beside this module when running from `dist/`; from the TypeScript sources (tests),
 * the one `npm run build` wrote under dist/.
 */
export function tvmWorkerUrl(): URL {
  const beside = new URL('./worker.js', import.meta.url);
  if (existsSync(fileURLToPath(beside))) return beside;
  const built = fileURLToPath(beside).replace(/([\\/])shared\1tvm\1worker\.js$/, '$1dist$1shared$1tvm$1worker.js');
  if (existsSync(built)) return pathToFileURL(built);
  throw new NonRetryableError('TVM_WORKER_MISSING', `TVM worker ${fileURLToPath(beside)} not found: run npm run build`);
}

type Kind = 'get' | 'tx';
interface Pending {
  kind: Kind;
  job: GetMethodJob | TransactionJob;
  resolve: (o: GetMethodOutcome | TransactionOutcome) => void;
  reject: (e: Error) => void;
}
interface Slot {
  worker: Worker;
  ready: Promise<void>;
  started: boolean;
  /** The configuration this worker holds (worker.ts keeps the last one it was sent). */
  config: string | null;
  running: { id: number; pending: Pending; timer: NodeJS.Timeout } | null;
}

export function createTvmPool(opts: TvmPoolOptions): TvmPool {
  const url = tvmWorkerUrl();
  const maxQueued = opts.maxQueued ?? 1000;
  const queue: Pending[] = [];
  const slots: Slot[] = [];
  let nextId = 1;
  let closed = false;

  const spawn = (): Slot => {
    const worker = new Worker(url);
    // A worker waiting for jobs does not keep the process alive.
    worker.unref();
    let ready!: () => void;
    const slot: Slot = { worker, ready: new Promise<void>((r) => (ready = r)), started: false, config: null, running: null };
    worker.on('message', (m: { ready?: true; id?: number; outcome?: GetMethodOutcome | TransactionOutcome; error?: string }) => {
      if (m.ready) {
        slot.started = true;
        ready();
        pump();
        return;
      }
      const run = slot.running;
      if (!run || run.id !== m.id) return;
      clearTimeout(run.timer);
      slot.running = null;
      if (m.error !== undefined) run.pending.reject(new TvmFailedError(`TVM: ${m.error}`));
      else run.pending.resolve(m.outcome!);
      pump();
    });
    const lost = (why: string): void => {
      const i = slots.indexOf(slot);
      if (i < 0) return;
      const run = slot.running;
      slot.running = null;
      if (run) {
        clearTimeout(run.timer);
        run.pending.reject(new TvmFailedError(`TVM worker ${why}`));
      }
      if (closed) {
        slots.splice(i, 1);
        return;
      }
      if (!slot.started) {
        // A worker that cannot even start (the emulator does not load) would fail the same way at once again:
        // the jobs waiting for it fail now, and the next attempt comes a second later.
        for (const p of queue.splice(0)) p.reject(new TvmFailedError(`TVM worker could not start: ${why}`));
        const retry = setTimeout(() => {
          if (!closed && slots[i] === slot) slots[i] = spawn();
        }, 1000);
        retry.unref();
        return;
      }
      slots[i] = spawn();
    };
    worker.on('error', (e) => lost(`failed: ${e.message}`));
    worker.on('exit', (code) => lost(`exited with code ${code}`));
    return slot;
  };

  const pump = (): void => {
    for (const slot of slots) {
      if (queue.length === 0) return;
      if (slot.running) continue;
      void slot.ready.then(() => {
        if (slot.running || closed) return;
        const pending = queue.shift();
        if (!pending) return;
        const id = nextId++;
        const timer = setTimeout(() => {
          if (slot.running?.id !== id) return;
          slot.running = null;
          pending.reject(new TvmTimeoutError(opts.timeoutMs));
          // The WASM call cannot be interrupted: the worker goes, and a fresh one takes its place.
          const i = slots.indexOf(slot);
          if (i >= 0) slots[i] = spawn();
          void slot.worker.terminate();
        }, opts.timeoutMs);
        slot.running = { id, pending, timer };
        const { config, ...job } = pending.job;
        const fresh = slot.config !== config;
        slot.config = config;
        slot.worker.postMessage({ id, kind: pending.kind, job, ...(fresh ? { config } : {}) });
      });
    }
  };

  for (let i = 0; i < Math.max(1, opts.workers); i++) slots.push(spawn());

  const submit = <O>(kind: Kind, job: GetMethodJob | TransactionJob): Promise<O> => {
    if (closed) return Promise.reject(new TvmClosedError());
    if (queue.length >= maxQueued) return Promise.reject(new TvmBusyError(queue.length));
    return new Promise<O>((resolve, reject) => {
      queue.push({ kind, job, resolve: resolve as Pending['resolve'], reject });
      pump();
    });
  };

  return {
    runGetMethod: (job) => submit<GetMethodOutcome>('get', job),
    runTransaction: (job) => submit<TransactionOutcome>('tx', job),
    busyMs: () => slots.reduce((ms, s) => ms + (s.started ? s.worker.performance.eventLoopUtilization().active : 0), 0),
    async close() {
      if (closed) return;
      closed = true;
      for (const p of queue.splice(0)) p.reject(new TvmClosedError());
      await Promise.all(
        slots.map(async (s) => {
          if (s.running) {
            clearTimeout(s.running.timer);
            s.running.pending.reject(new TvmClosedError());
            s.running = null;
          }
          await s.worker.terminate();
        }),
      );
    },
  };
}
