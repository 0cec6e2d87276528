/**
 * Retrying with exponential backoff and full jitter (delay = random(0, min(maxMs, baseMs * 2^(attempt-1)))):
 * full jitter spreads the reconnect storm of many consumers after a broker or ClickHouse outage better than a
 * fixed or "equal" jitter (AWS Architecture Blog, "Exponential Backoff And Jitter"; kafkajs `src/retry/`).
 *
 * Only errors that say they are retryable are retried (house-style rule 5: adapters translate library errors
 * once, and everything above decides by `retryable` alone). Anything else is rethrown at once: repeating a
 * bad request or a poison message cannot fix it. The shutdown signal stops the wait immediately (rule 8).
 */
import { isRetryable, ShutdownError } from './errors.js';
import type { Logger } from './logger.js';

/** Options of `retry`. */
export interface RetryOptions {
  /** What is being attempted, for the log line: `'insert batch'`, `'connect to liteserver'`. */
  what: string;
  signal?: AbortSignal;
  logger?: Logger;
  /** Delay cap of the first retry (ms); default 100. */
  baseMs?: number;
  /** Largest delay (ms); default 10 000. */
  maxMs?: number;
  /** Calls in total, the first included; default Infinity. The last error is rethrown when they are used up. */
  maxAttempts?: number;
  /** Source of randomness in [0, 1); default Math.random (tests pin it). */
  random?: () => number;
}

/**
 * Calls `fn` until it resolves, waiting with backoff between failures that are retryable.
 *
 * @param fn receives the attempt number (1 for the first call).
 * @throws the first non-retryable error; the last retryable one once `maxAttempts` is reached; the signal's
 *   reason (a `ShutdownError` from `Shutdown`) when `signal` aborts before or between attempts.
 * @example
 * await retry(() => store.insert(rows), { what: 'insert transactions', signal, logger });
 */
export async function retry<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const { what, signal, logger, baseMs = 100, maxMs = 10_000, maxAttempts = Infinity, random = Math.random } = options;
  for (let attempt = 1; ; attempt++) {
    throwIfAborted(signal);
    try {
      return await fn(attempt);
    } catch (err) {
      // Once stopping, even a retryable failure is final: the caller is unwinding, not waiting for recovery.
      if (!isRetryable(err) || attempt >= maxAttempts || signal?.aborted) throw err;
      const delayMs = Math.round(random() * Math.min(maxMs, baseMs * 2 ** (attempt - 1)));
      logger?.warn({ err, what, attempt, delayMs }, 'retrying after failure');
      await sleep(delayMs, signal);
    }
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason instanceof Error ? signal.reason : new ShutdownError(String(signal.reason ?? 'aborted'));
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortReason(signal);
}

/** Waits `ms`, or rejects with the abort reason as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
