import { BaseError, NonRetryableError, UpstreamUnavailableError } from '../runtime/errors.js';

/**
 * The bus's errors, and the one place where kafkajs errors become ours (house style rule 5). This file does not
 * import kafkajs: it recognises its errors by shape (`name` starting with `KafkaJS`, a boolean `retriable`), so
 * that `kafka.ts` stays the only importer and these predicates can be used (and tested) without a broker.
 */

/** A send or a consumer on a bus that was closed: repeating cannot help, the process is shutting down. */
export class BusClosedError extends NonRetryableError {
  constructor(what: string) {
    super('BUS_CLOSED', `${what}: the bus is closed`);
  }
}

/** A message larger than its topic accepts (`TopicSpec.maxMessageBytes`; Kafka's `max.message.bytes`). */
export class MessageTooLargeError extends NonRetryableError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('MESSAGE_TOO_LARGE', message, options);
  }
}

/** The subset of a kafkajs error this module reads. */
interface KafkaJsErrorShape {
  name: string;
  message: string;
  retriable: boolean;
  /** Protocol errors carry the broker's error name, e.g. `MESSAGE_TOO_LARGE`. */
  type?: string;
  cause?: unknown;
}

/** True for errors thrown by kafkajs (every class in its `src/errors.js` extends `KafkaJSError`). */
export function isKafkaJsError(e: unknown): e is KafkaJsErrorShape {
  if (!(e instanceof Error) || !e.name.startsWith('KafkaJS')) return false;
  return typeof (e as { retriable?: unknown }).retriable === 'boolean';
}

/** Broker error names that mean "this message can never fit", whatever the retry. */
const TOO_LARGE_TYPES = new Set(['MESSAGE_TOO_LARGE', 'RECORD_LIST_TOO_LARGE', 'MESSAGE_SIZE_TOO_LARGE']);

/**
 * Whether a kafkajs failure is transient. Mirrors kafkajs's own restart decision (`src/consumer/index.js`,
 * `onCrash`): `KafkaJSNumberOfRetriesExceeded` wraps a retriable failure that outlasted the client's retries (the
 * broker is down for longer), and wrappers are judged by their innermost cause.
 */
function kafkaRetriable(e: KafkaJsErrorShape): boolean {
  if (e.name === 'KafkaJSNumberOfRetriesExceeded') return true;
  // Thrown when no broker answered the coordinator lookup (`src/cluster/index.js`): during a broker restart, that
  // is an outage to ride out, not a configuration error, although kafkajs files it as non-retriable.
  if (e.name === 'KafkaJSGroupCoordinatorNotFound') return true;
  let inner: KafkaJsErrorShape = e;
  for (let i = 0; i < 10 && isKafkaJsError(inner.cause); i++) inner = inner.cause;
  return inner.retriable;
}

function protocolType(e: KafkaJsErrorShape): string | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 10 && isKafkaJsError(cur); i++) {
    if (typeof cur.type === 'string') return cur.type;
    cur = cur.cause;
  }
  return undefined;
}

/**
 * Translates anything a kafkajs call threw into our error model, exactly once (callers above the bus decide by
 * `retryable` alone):
 * - ours already (a `BaseError`): returned unchanged;
 * - a kafkajs error the client marks `retriable` (connection refused, leader moving, rebalance, request
 *   timeout, retries exhausted on such an error): {@link UpstreamUnavailableError} `KAFKA_UNAVAILABLE`;
 * - a message too large for its topic: {@link MessageTooLargeError};
 * - any other kafkajs error: {@link NonRetryableError} `KAFKA_<BROKER_ERROR>` (or `KAFKA_ERROR`);
 * - anything else (a bug in the client or in our glue): {@link NonRetryableError} `KAFKA_CLIENT_ERROR`.
 *
 * @param what what was being done, for the message (e.g. `send to raw-blocks`).
 */
export function translateKafkaError(e: unknown, what: string): BaseError {
  if (e instanceof BaseError) return e;
  if (isKafkaJsError(e)) {
    const type = protocolType(e);
    const message = `${what}: ${e.message}`;
    if (type !== undefined && TOO_LARGE_TYPES.has(type)) return new MessageTooLargeError(message, { cause: e });
    if (kafkaRetriable(e)) return new UpstreamUnavailableError('KAFKA_UNAVAILABLE', message, { cause: e });
    return new NonRetryableError(type !== undefined ? `KAFKA_${type}` : 'KAFKA_ERROR', message, { cause: e });
  }
  const detail = e instanceof Error ? e.message : String(e);
  return new NonRetryableError('KAFKA_CLIENT_ERROR', `${what}: ${detail}`, { cause: e });
}

/**
 * How a consumer retries a batch whose handler threw a retryable error, and how the Kafka consumer restarts after
 * a retryable crash: exponential backoff from `initialMs`, doubling up to `maxMs`, with ±20% jitter (kafkajs's
 * `factor` 0.2) so that the members of a group do not retry in lockstep. Retries never stop by themselves: a
 * retryable error means the batch can succeed later, and skipping it would lose data.
 */
export interface RetryPolicy {
  /** First delay; default 100 ms. */
  initialMs?: number;
  /** Largest delay; default 30 s (kafkajs's `maxRetryTime`). */
  maxMs?: number;
}

/** The delay before retry number `attempt` (0 for the first retry) under `policy`. */
export function retryDelayMs(policy: RetryPolicy | undefined, attempt: number): number {
  const initial = policy?.initialMs ?? 100;
  const max = policy?.maxMs ?? 30_000;
  const base = Math.min(max, initial * 2 ** Math.min(attempt, 30));
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

/** Resolves after `ms`, or at once when `signal` aborts; leaves no timer or listener behind either way. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
