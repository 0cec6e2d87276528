import { type BaseError, NonRetryableError, UpstreamUnavailableError } from '../runtime/errors.js';

/**
 * The one place where store failures become tonflow errors. `client.ts` calls {@link translateStoreError} on
 * everything @clickhouse/client or chdb throws; callers above the store only look at `retryable` and `code`.
 *
 * String matching on library messages is allowed here and nowhere else (house style, "Error pattern"). This
 * file deliberately does not import @clickhouse/client: a ClickHouse server error is recognised by its shape
 * (`code` is the numeric ClickHouse error code as a string, `type` its name), which chdb reproduces exactly.
 */

/** The store could not answer now: network failure, timeout, overload, a replica that is catching up. */
export class StoreUnavailableError extends UpstreamUnavailableError {}

/** ClickHouse rejected the statement itself (syntax, types, unknown table, bad data): repeating cannot help. */
export class StoreQueryError extends NonRetryableError {
  constructor(
    code: string,
    message: string,
    /** ClickHouse's numeric error code, when the failure came from ClickHouse. */
    readonly clickhouseCode: number | null,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

/**
 * ClickHouse error names that describe a transient condition. Everything else ClickHouse reports is a property
 * of the statement or the data and is not retried. Names from ClickHouse `src/Common/ErrorCodes.cpp`.
 */
const TRANSIENT_TYPES = new Set([
  'TIMEOUT_EXCEEDED',
  'SOCKET_TIMEOUT',
  'NETWORK_ERROR',
  'ALL_CONNECTION_TRIES_FAILED',
  'ALL_REPLICAS_ARE_STALE',
  'NO_AVAILABLE_REPLICA',
  'TABLE_IS_READ_ONLY',
  'READONLY_SETTING_CHANGED_ON_REPLICA',
  'KEEPER_EXCEPTION',
  'UNKNOWN_STATUS_OF_INSERT',
  'MEMORY_LIMIT_EXCEEDED',
  'QUERY_WAS_CANCELLED',
  'ABORTED',
  'CANNOT_SCHEDULE_TASK',
  'NO_FREE_CONNECTION',
  'NOT_ENOUGH_SPACE',
  'SERVER_OVERLOADED',
]);

/** Admission control: the server refuses work until load drops (TOO_MANY_PARTS, TOO_MANY_SIMULTANEOUS_QUERIES, ...). */
function isOverload(type: string): boolean {
  return type.startsWith('TOO_MANY_');
}

/** Node socket errors (`err.code`) that mean "could not reach or lost the server". */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
]);

interface ClickHouseShape {
  code: string;
  type?: string;
  message: string;
}

/** A ClickHouse server error as @clickhouse/client (and chdb's connection) report it: numeric `code` and `type`. */
function clickHouseShape(e: unknown): ClickHouseShape | null {
  if (!(e instanceof Error)) return null;
  const { code, type } = e as { code?: unknown; type?: unknown };
  if (typeof code !== 'string' || !/^\d+$/.test(code)) return null;
  return { code, type: typeof type === 'string' ? type : undefined, message: e.message };
}

/** Any cause in the chain carrying a Node network error code. */
function networkCode(e: unknown): string | null {
  for (let cur: unknown = e, depth = 0; cur instanceof Error && depth < 5; cur = cur.cause, depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return code;
  }
  return null;
}

/** @clickhouse/client's own socket timeout, and the error of an aborted request or chdb query. */
function isClientTimeoutOrAbort(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  if (e.name === 'AbortError' || e.name === 'TimeoutError') return true;
  return /^Timeout error\.|user aborted a request|Query (aborted|timed out)|socket hang up/i.test(e.message);
}

/** What {@link translateStoreError} needs to know besides the error. */
export interface TranslateContext {
  /** What was being done, e.g. `insert into transactions`: prefixes the message. */
  operation: string;
  /** True when our own per-query deadline fired: the failure is a timeout whatever the library says. */
  timedOut?: boolean;
}

/**
 * Maps anything the ClickHouse client or chdb threw to a {@link StoreUnavailableError} (retryable: network,
 * timeouts, `TOO_MANY_*`, replica trouble) or a {@link StoreQueryError} (non-retryable: syntax and type errors,
 * unknown tables, unparsable rows), keeping the original as `cause`. Already translated errors pass through.
 */
export function translateStoreError(e: unknown, ctx: TranslateContext): BaseError {
  if (e instanceof StoreUnavailableError || e instanceof StoreQueryError) return e;
  const what = ctx.operation;
  const ch = clickHouseShape(e);
  if (ch) {
    const type = ch.type ?? `CODE_${ch.code}`;
    const text = `${what}: ${firstLine(ch.message)}`;
    // TOO_SLOW: the server predicted the statement would overrun max_execution_time and stopped it early.
    if (ch.type === 'TIMEOUT_EXCEEDED' || ch.type === 'SOCKET_TIMEOUT' || ch.type === 'TOO_SLOW') {
      return new StoreUnavailableError('STORE_TIMEOUT', text, { cause: e });
    }
    if (ch.type && isOverload(ch.type)) return new StoreUnavailableError('STORE_OVERLOADED', text, { cause: e });
    if (ch.type && TRANSIENT_TYPES.has(ch.type)) return new StoreUnavailableError('STORE_UNAVAILABLE', text, { cause: e });
    return new StoreQueryError(`STORE_${type}`, text, Number(ch.code), { cause: e });
  }
  const message = e instanceof Error ? e.message : String(e);
  if (ctx.timedOut || isClientTimeoutOrAbort(e)) {
    return new StoreUnavailableError('STORE_TIMEOUT', `${what}: timed out (${firstLine(message)})`, { cause: e });
  }
  const net = networkCode(e);
  if (net) return new StoreUnavailableError('STORE_UNAVAILABLE', `${what}: ${net} (${firstLine(message)})`, { cause: e });
  // An HTTP status without a ClickHouse body: a proxy or load balancer in front of the server.
  if (/\b(502|503|504)\b/.test(message) && /gateway|unavailable|timeout/i.test(message)) {
    return new StoreUnavailableError('STORE_UNAVAILABLE', `${what}: ${firstLine(message)}`, { cause: e });
  }
  return new StoreQueryError('STORE_FAILED', `${what}: ${firstLine(message)}`, null, { cause: e });
}

function firstLine(s: string): string {
  const i = s.indexOf('\n');
  return (i < 0 ? s : s.slice(0, i)).trim();
}
