/**
 * Graceful shutdown through one object (house-style rule 8; modelled on ponder `internal/shutdown.ts` and
 * `bin/utils/exit.ts`). The composition root registers a closer as it creates each resource, so registration
 * order is dependency order and closing runs it backwards: the last thing started (intake: the consumer, the
 * HTTP listener) stops first, then in-flight batches drain, offsets commit, and the clients they needed close
 * last. Nothing gets closed while something registered after it still uses it.
 *
 * The grace period is a hard budget: each closer may use what is left of it except a reserve kept for the closers
 * after it, and one that overruns is abandoned (logged, counted as a failure) so the rest still run and the process
 * exits before Kubernetes sends SIGKILL. The reserve is small because closing is uneven: a drain that writes its
 * last batch can take seconds on a busy host, while closing a client after it takes milliseconds; an equal share
 * would time the drain out with most of the grace period unused. At-least-once delivery (rule 6) makes an abandoned drain safe: uncommitted batches are redelivered.
 */
import { isRetryable, ShutdownError, ShutdownTimeoutError } from './errors.js';
import type { Logger } from './logger.js';

/** Exit codes: 0 clean, 1 non-retryable failure, 75 retryable failure (EX_TEMPFAIL from sysexits.h). */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_TEMPFAIL = 75;
export type ExitCode = typeof EXIT_OK | typeof EXIT_FAILURE | typeof EXIT_TEMPFAIL;

/** A string (a signal name, `'done'`) is a clean stop; an Error is the failure that ends the process. */
export type ShutdownReason = string | Error;

/** The process's shutdown coordinator (one per process, created by the composition root). */
export interface Shutdown {
  /** Aborted (with a `ShutdownError`) the moment shutdown starts: loops stop taking new work. */
  readonly signal: AbortSignal;
  /**
   * Registers a closer. Closers run in reverse registration order. A closer added after shutdown started runs
   * next (it is the newest resource).
   */
  add(name: string, closer: () => Promise<void>): void;
  /** Starts shutdown (idempotent; later calls return the same promise) and resolves when every closer is done. */
  run(reason: ShutdownReason): Promise<void>;
  /** Resolves with the exit code once shutdown has finished. */
  readonly done: Promise<ExitCode>;
  readonly graceMs: number;
}

/** Options of `createShutdown`. */
export interface ShutdownOptions {
  logger: Logger;
  /** The total time closers may take (TONFLOW_SHUTDOWN_GRACE_MS). */
  graceMs: number;
}

/** The exit code a failure maps to; `undefined` (no failure) and `ShutdownError` (stopping) are clean. */
export function exitCodeFor(failure: unknown): ExitCode {
  if (failure === undefined || failure instanceof ShutdownError) return EXIT_OK;
  return isRetryable(failure) ? EXIT_TEMPFAIL : EXIT_FAILURE;
}

/**
 * Creates the process's shutdown coordinator.
 * @example
 * const shutdown = createShutdown({ logger, graceMs: config.shutdownGraceMs });
 * const store = await createStore(...);   shutdown.add('store', () => store.close());
 * const consumer = createConsumer(...);  shutdown.add('consumer', () => consumer.stop());   // stops first
 */
/**
 * A closer's budget out of `leftMs`, with `after` closers still to run once it is done: all of it but a reserve of
 * leftMs / (2 (after + 1)) for each of those (so the last closer gets everything left, and a hung one still leaves
 * the others close to half of the time between them).
 */
export function closerBudget(leftMs: number, after: number): number {
  return leftMs - (after * leftMs) / (2 * (after + 1));
}

export function createShutdown(options: ShutdownOptions): Shutdown {
  const { logger, graceMs } = options;
  const controller = new AbortController();
  const closers: { name: string; closer: () => Promise<void> }[] = [];
  let running: Promise<void> | undefined;
  let finished = false;
  // The first failure decides the exit code: a fatal error during a clean stop still makes it a failed run.
  let failure: Error | undefined;
  let resolveDone!: (code: ExitCode) => void;
  const done = new Promise<ExitCode>((resolve) => (resolveDone = resolve));

  const fail = (e: Error): void => {
    if (failure === undefined && !(e instanceof ShutdownError)) failure = e;
  };

  async function closeOne(name: string, closer: () => Promise<void>, budgetMs: number): Promise<void> {
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(resolve, budgetMs, 'timeout')));
    try {
      // Promise.resolve().then(): a closer that throws synchronously is a failed closer, not a crashed shutdown.
      const outcome = await Promise.race([Promise.resolve().then(closer), timeout]);
      if (outcome === 'timeout') {
        const err = new ShutdownTimeoutError(name, Math.round(budgetMs));
        fail(err);
        logger.error({ err, closer: name, budgetMs: Math.round(budgetMs) }, 'closer timed out');
      } else {
        logger.info({ closer: name, ms: Math.round(performance.now() - started) }, 'closer done');
      }
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      fail(err);
      logger.error({ err, closer: name }, 'closer failed');
    } finally {
      clearTimeout(timer);
    }
  }

  async function closeAll(deadline: number): Promise<void> {
    // pop() rather than iterating a reversed copy: closers registered while we run are picked up next.
    for (let next = closers.pop(); next !== undefined; next = closers.pop()) {
      const budgetMs = closerBudget(Math.max(0, deadline - performance.now()), closers.length);
      await closeOne(next.name, next.closer, budgetMs);
    }
    // Set in the same tick as the last pop(), so an add() cannot slip between the loop and `finished`.
    finished = true;
  }

  function run(reason: ShutdownReason): Promise<void> {
    if (reason instanceof Error) fail(reason);
    if (running !== undefined) {
      logger.warn(reason instanceof Error ? { err: reason } : { reason }, 'shutdown already running');
      return running;
    }
    const why = reason instanceof Error ? reason.message : reason;
    if (reason instanceof Error) logger.error({ err: reason }, 'shutting down after failure');
    else logger.info({ reason, graceMs }, 'shutting down');
    controller.abort(new ShutdownError(why, reason instanceof Error ? { cause: reason } : undefined));

    const deadline = performance.now() + graceMs;
    running = closeAll(deadline).then(() => {
      const code = exitCodeFor(failure);
      logger.info({ code }, 'shutdown complete');
      resolveDone(code);
    });
    return running;
  }

  function add(name: string, closer: () => Promise<void>): void {
    closers.push({ name, closer });
    // After the run finished nobody will pop it: close it right away (a resource created during shutdown).
    if (finished) void closeAll(performance.now() + graceMs);
  }

  return { signal: controller.signal, add, run, done, graceMs };
}

/** The parts of `process` the handlers use, so tests can pass an EventEmitter. */
export type ProcessLike = Pick<NodeJS.EventEmitter, 'on' | 'off'>;

/** Options of `installProcessHandlers`. */
export interface ProcessHandlersOptions {
  shutdown: Shutdown;
  logger: Logger;
  /** Default: the real `process`. */
  process?: ProcessLike;
  /** Default: `process.exit`. */
  exit?: (code: number) => void;
}

/**
 * Wires SIGTERM/SIGINT (clean stop), unhandled rejections and uncaught exceptions (failure) to `shutdown.run`,
 * and exits with `shutdown.done`'s code. A second signal, or the grace period plus a second without
 * `done`, exits at once with code 1: an operator pressing Ctrl-C twice means it. Returns an uninstaller.
 */
export function installProcessHandlers(options: ProcessHandlersOptions): () => void {
  const { shutdown, logger } = options;
  const proc: ProcessLike = options.process ?? process;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let signals = 0;
  let hardTimer: NodeJS.Timeout | undefined;

  const start = (reason: ShutdownReason): void => {
    if (hardTimer === undefined) {
      // Closers are individually bounded; this covers a closer that blocks the event loop's promise chain.
      hardTimer = setTimeout(() => {
        logger.fatal({ graceMs: shutdown.graceMs }, 'shutdown overran the grace period, exiting');
        exit(EXIT_FAILURE);
      }, shutdown.graceMs + 1000);
      hardTimer.unref();
    }
    void shutdown.run(reason);
  };
  const onSignal = (signal: string): void => {
    signals += 1;
    if (signals > 1) {
      logger.warn({ signal }, 'second signal, exiting without waiting for closers');
      exit(EXIT_FAILURE);
      return;
    }
    start(signal);
  };
  const onRejection = (reason: unknown): void => {
    const err = reason instanceof Error ? reason : new Error(`unhandled rejection: ${String(reason)}`);
    logger.fatal({ err }, 'unhandled rejection');
    start(err);
  };
  const onException = (err: Error): void => {
    logger.fatal({ err }, 'uncaught exception');
    start(err);
  };

  proc.on('SIGTERM', onSignal);
  proc.on('SIGINT', onSignal);
  proc.on('unhandledRejection', onRejection);
  proc.on('uncaughtException', onException);
  let installed = true;
  void shutdown.done.then((code) => {
    clearTimeout(hardTimer);
    if (installed) exit(code);
  });

  return () => {
    installed = false;
    clearTimeout(hardTimer);
    proc.off('SIGTERM', onSignal);
    proc.off('SIGINT', onSignal);
    proc.off('unhandledRejection', onRejection);
    proc.off('uncaughtException', onException);
  };
}
