/**
 * Structured logging (house-style rule 9): pino writing one JSON object per line, so log pipelines index fields
 * instead of grepping prose. Conventions every caller follows:
 *
 * - the message is a constant (`'batch flushed'`), the variables are fields (`{rows, ms, partition}`), so one
 *   query finds every occurrence of an event;
 * - errors go under `err` (`logger.error({ err }, 'flush failed')`) and are serialized with their `code`,
 *   `retryable` flag and `cause` chain;
 * - every module logs through `logger.child({ module: 'decode' })`, created where the module is built (rule 3);
 * - addresses, hashes and seqnos are welcome as fields here; they must never become metric labels (metrics.ts).
 */
import os from 'node:os';
import { Writable } from 'node:stream';
import pino from 'pino';

/** The logger every module receives: pino's, so adapters can bridge libraries' loggers to it directly. */
export type Logger = pino.Logger;
/** `fatal` … `trace`, or `silent`. */
export type LogLevel = pino.LevelWithSilent;

/** Options of `createLogger`. */
export interface LoggerOptions {
  /** Service name, on every line as `service`. */
  service: string;
  level: LogLevel;
  /**
   * Human-readable lines instead of JSON. The composition root passes `process.stdout.isTTY`: pretty in a
   * terminal, JSON wherever a machine reads the output (fastify/demo `src/server.ts`).
   */
  pretty?: boolean;
  /** Where lines go; default stdout (synchronously, so nothing is lost when the process exits). */
  destination?: pino.DestinationStream;
}

/**
 * Keys whose values never reach a log line, wherever a config object or options bag is logged. pino's
 * `redact` paths cannot wildcard depth, so the two levels we actually log (a config, a client's options) are listed.
 */
const REDACT = [
  'password',
  'clickhousePassword',
  'authorization',
  '*.password',
  '*.clickhousePassword',
  '*.authorization',
  'apiKey',
  'api_key',
  'headers["x-api-key"]',
  '*.apiKey',
  '*.api_key',
  '*.headers["x-api-key"]',
  '*["x-api-key"]',
];

/**
 * A URL (or any text holding one) with the values of API-key query parameters masked: a client may send its key
 * as `api_key=` (auth-limits.md §1), and any request can make the gateway log its URL. Case-insensitive, as some
 * clients spell it `API_KEY`; percent-encoded spellings of the name are masked too.
 */
export function redactApiKeys(text: string): string {
  if (!/api(?:_|%5f)key|x(?:_|%5f)api(?:_|%5f)key/i.test(text)) return text;
  return text.replace(/((?:^|[?&;\s'"])(?:x(?:_|%5f))?api(?:_|%5f)key=)[^&#\s'"]*/gi, '$1[redacted]');
}

/** errWithCause, with API keys masked in the texts an error may have copied a URL into. */
function serializeError(err: unknown): unknown {
  const out = pino.stdSerializers.errWithCause(err as Error) as unknown;
  const scrub = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return redactApiKeys(v);
    if (depth > 4 || v === null || typeof v !== 'object') return v;
    for (const [k, inner] of Object.entries(v)) (v as Record<string, unknown>)[k] = scrub(inner, depth + 1);
    return v;
  };
  return scrub(out, 0);
}

/**
 * Creates the service's root logger.
 * @example
 * const logger = createLogger({ service: 'indexer', level: config.logLevel, pretty: process.stdout.isTTY });
 * const log = logger.child({ module: 'decode' });
 * log.info({ seqno, rows }, 'block decoded');
 */
export function createLogger(options: LoggerOptions): Logger {
  const target = options.destination ?? pino.destination({ dest: 1, sync: true });
  return pino(
    {
      level: options.level,
      // pid and hostname stay (in Kubernetes the hostname is the pod name); service tells stages apart when
      // several run in one process (embedded mode).
      base: { service: options.service, pid: process.pid, hostname: os.hostname() },
      timestamp: pino.stdTimeFunctions.isoTime,
      // Level names, not numbers: every log backend understands "error", none agrees on what 50 means.
      formatters: { level: (label) => ({ level: label }) },
      // errWithCause keeps the cause chain (an adapter's error wraps the library's) and copies own enumerable
      // properties, which carries our `code`, `retryable` and ConfigError `issues`.
      // `url` (the gateway's request lines) and errors pass through redactApiKeys: a key never reaches a line.
      serializers: {
        err: serializeError,
        url: (v: unknown) => (typeof v === 'string' ? redactApiKeys(v) : v),
      },
      redact: { paths: REDACT, censor: '[redacted]' },
    },
    options.pretty ? prettyStream(target) : target,
  );
}

const LEVEL_NAMES: Record<string, string> = {
  trace: 'TRACE',
  debug: 'DEBUG',
  info: 'INFO ',
  warn: 'WARN ',
  error: 'ERROR',
  fatal: 'FATAL',
};
const OMIT = new Set(['level', 'time', 'pid', 'hostname', 'service', 'module', 'msg', 'err']);

/**
 * A minimal pretty printer (`12:00:00.000 INFO  indexer/decode block decoded seqno=42`) so a terminal is
 * readable without adding pino-pretty as a dependency (house-style: dependency discipline).
 */
function prettyStream(out: pino.DestinationStream): pino.DestinationStream {
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line === '') continue;
        out.write(formatPretty(line) + '\n');
      }
      callback();
    },
  });
}

function formatPretty(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const time = typeof entry.time === 'string' ? entry.time.slice(11, 23) : '';
  const level = LEVEL_NAMES[String(entry.level)] ?? String(entry.level);
  const where = [entry.service, entry.module].filter((s) => s !== undefined).join('/');
  const fields = Object.entries(entry)
    .filter(([k]) => !OMIT.has(k))
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  let text = `${time} ${level} ${where} ${String(entry.msg ?? '')}${fields.length > 0 ? ' ' + fields.join(' ') : ''}`;
  const err = entry.err as { stack?: string; message?: string } | undefined;
  if (err !== undefined) text += '\n  ' + (err.stack ?? err.message ?? JSON.stringify(err)).replaceAll('\n', '\n  ');
  return text;
}
