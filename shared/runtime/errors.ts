/**
 * The error model of every service: a stable `code`, a `retryable` flag and the `cause`. Adapters translate
 * library errors into these exactly once, at their boundary; everything above decides by `retryable` alone:
 * retry with backoff, or (for a message) send it to the dead-letter topic and go on.
 */
export abstract class BaseError extends Error {
  abstract readonly retryable: boolean;
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A failure that may pass: a broker or store outage, a timeout, a liteserver that went away. */
export class RetryableError extends BaseError {
  readonly retryable = true;
}

/** A failure that repeating cannot fix: bad input, bad configuration, a poison message. */
export class NonRetryableError extends BaseError {
  readonly retryable = false;
}

/** Configuration that failed validation; `issues` lists every bad key at once. */
export class ConfigError extends NonRetryableError {
  constructor(readonly issues: string[]) {
    super('CONFIG_INVALID', `invalid configuration:\n  ${issues.join('\n  ')}`);
  }
}

/** A remote dependency (Kafka, ClickHouse, a liteserver) could not be reached or answered with a transient error. */
export class UpstreamUnavailableError extends RetryableError {}

/** Anything with a `retryable` flag counts (DecodeError of shared/ton has one); unknown errors are not retried. */
export function isRetryable(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { retryable?: unknown }).retryable === true;
}

export function errorCode(e: unknown): string {
  if (typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string') return (e as { code: string }).code;
  return 'INTERNAL';
}

/**
 * The reason a `Shutdown` aborts its signal with: work in progress sees it when the process is stopping. It is
 * not a failure (exit code 0), and it is non-retryable so that `retry()` and batch loops give up at once.
 */
export class ShutdownError extends NonRetryableError {
  constructor(reason: string, options?: { cause?: unknown }) {
    super('SHUTDOWN', `shutting down: ${reason}`, options);
  }
}

/** A shutdown closer that did not finish within its share of the grace period (a hung client is transient). */
export class ShutdownTimeoutError extends RetryableError {
  constructor(closer: string, ms: number) {
    super('SHUTDOWN_TIMEOUT', `closer "${closer}" did not finish within ${ms} ms`);
  }
}
