import { mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  type ClickHouseClient,
  type ClickHouseClientConfigOptions,
  type ClickHouseSettings,
  type Logger as ChLogger,
  createClient,
} from '@clickhouse/client';
import { createChdbConnection } from 'chdb/connection';
import { ConfigError, NonRetryableError } from '../runtime/errors.js';
import { translateStoreError } from './errors.js';
import type { QueryParams, Store, StoreConfig } from './store.js';

/**
 * The store adapter: the only importer of @clickhouse/client and chdb (house style rule 4). Both modes drive the
 * same @clickhouse/client API; embedded mode plugs chdb in through the client's `connection` option, so the SQL,
 * parameter binding and result parsing are identical and only the transport differs.
 */

/** The subset of a pino logger the store uses. */
export interface StoreLogger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Options of {@link createStore} besides the config: dependencies and timeouts. */
export interface CreateStoreOptions {
  logger?: StoreLogger;
  /** Default deadline of `query()` when the call passes none. Default 30 s. */
  queryTimeoutMs?: number;
  /** Deadline of `command()` (DDL, OPTIMIZE, mutations). Default 10 min. */
  commandTimeoutMs?: number;
  /** Deadline of `insert()`. Default 2 min. */
  insertTimeoutMs?: number;
}

const DEFAULT_QUERY_TIMEOUT_MS = 30_000;
const DEFAULT_COMMAND_TIMEOUT_MS = 600_000;
const DEFAULT_INSERT_TIMEOUT_MS = 120_000;
/** The server enforces max_execution_time; the HTTP request is abandoned a little later as a last resort. */
const CLIENT_GRACE_MS = 2_000;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Settings sent with every statement. In embedded mode they also reset what the previous statement set, because
 * chdb applies them with `SET` on one long-lived session: a setting sent once would stick to every later query.
 */
function statementSettings(timeoutMs: number): ClickHouseSettings {
  return {
    // u64 and wider as JSON strings in both modes (chdb's default is numbers, which lose precision in JS).
    output_format_json_quote_64bit_integers: 1,
    // An acknowledged insert must mean "in a part": chdb defaults to async inserts, a server may be configured so.
    async_insert: 0,
    // A misspelt or unknown row field fails the insert instead of silently dropping data (chdb defaults to skip).
    input_format_skip_unknown_fields: 0,
    // The engine's own deadline: the only one that really stops work in chdb (its aborts leave the query running).
    max_execution_time: timeoutMs / 1000,
  };
}

/** A transport: a client plus how statements must be wrapped for it. */
interface Backend {
  readonly client: ClickHouseClient;
  /** Statement prefix selecting the database (embedded: chdb has no per-request database). */
  readonly prefix: string;
  /** Passes an AbortSignal for the client-side deadline (server only: chdb cannot cancel a running query). */
  readonly abortable: boolean;
  /** Runs one statement; embedded serialises them because `USE`/`SET` are session state. */
  run<T>(fn: () => Promise<T>): Promise<T>;
  release(): Promise<void>;
}

/**
 * Opens the store and creates its database if missing. Embedded mode keeps ClickHouse data under
 * `<dataDir>/clickhouse`; server mode talks HTTP(S) to `url`. The returned store is ready for {@link migrate}.
 */
export async function createStore(config: StoreConfig, opts: CreateStoreOptions = {}): Promise<Store> {
  if (!IDENTIFIER.test(config.database)) {
    throw new ConfigError([`store.database: ${JSON.stringify(config.database)} is not a plain identifier ([A-Za-z_][A-Za-z0-9_]*)`]);
  }
  const database = config.database;
  const logger = opts.logger;
  const queryTimeoutMs = opts.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
  const commandTimeoutMs = opts.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  const insertTimeoutMs = opts.insertTimeoutMs ?? DEFAULT_INSERT_TIMEOUT_MS;

  const backend =
    config.mode === 'embedded'
      ? acquireEmbedded(config.dataDir, database, logger)
      : await openServer(config, logger, Math.max(queryTimeoutMs, commandTimeoutMs, insertTimeoutMs));

  let closed = false;
  type Statement<T> = (settings: ClickHouseSettings, signal?: AbortSignal) => Promise<T>;
  async function exec<T>(operation: string, timeoutMs: number, fn: Statement<T>): Promise<T> {
    if (closed) throw new NonRetryableError('STORE_CLOSED', `${operation}: store is closed`);
    const started = Date.now();
    const signal = backend.abortable ? AbortSignal.timeout(timeoutMs + CLIENT_GRACE_MS) : undefined;
    try {
      const out = await backend.run(() => fn(statementSettings(timeoutMs), signal));
      logger?.debug({ operation, ms: Date.now() - started }, 'store statement');
      return out;
    } catch (e) {
      throw translateStoreError(e, { operation, timedOut: signal?.aborted === true });
    }
  }

  const qualified = (table: string): string => {
    if (!IDENTIFIER.test(table)) throw new NonRetryableError('STORE_BAD_TABLE', `insert: ${JSON.stringify(table)} is not a table name`);
    return `\`${database}\`.\`${table}\``;
  };

  const store: Store = {
    database,
    async command(query: string, params?: QueryParams): Promise<void> {
      await exec(`command ${summarize(query)}`, commandTimeoutMs, (clickhouse_settings, abort_signal) =>
        backend.client.command({ query: backend.prefix + query, query_params: params, clickhouse_settings, abort_signal }),
      );
    },
    async insert(table: string, rows: readonly object[]): Promise<void> {
      if (rows.length === 0) return;
      const target = qualified(table);
      await exec(`insert into ${table}`, insertTimeoutMs, (clickhouse_settings, abort_signal) =>
        backend.client.insert({ table: target, values: rows as object[], format: 'JSONEachRow', clickhouse_settings, abort_signal }),
      );
    },
    async query<T = Record<string, unknown>>(query: string, params?: QueryParams, qopts?: { timeoutMs?: number }): Promise<T[]> {
      return exec(`query ${summarize(query)}`, qopts?.timeoutMs ?? queryTimeoutMs, async (clickhouse_settings, abort_signal) => {
        const rs = await backend.client.query({
          query: backend.prefix + query,
          query_params: params,
          format: 'JSONEachRow',
          clickhouse_settings,
          abort_signal,
        });
        return rs.json<T>();
      });
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await backend.release();
    },
  };

  // Everything else runs inside the database, so it must exist first: issued without the `USE` prefix here, through
  // a client without a database in openServer.
  if (config.mode === 'embedded') {
    try {
      await backend.run(() => ensureDatabase(backend.client, database, commandTimeoutMs));
    } catch (e) {
      await store.close();
      throw translateStoreError(e, { operation: `create database ${database}` });
    }
  }
  logger?.info({ mode: config.mode, database, target: describeTarget(config) }, 'store open');
  return store;
}

/**
 * Creates the database unless it exists. Looked up first: a read-only user (the gateway's) may not run
 * CREATE DATABASE at all, even with IF NOT EXISTS, and must still be able to open an existing store.
 */
async function ensureDatabase(client: ClickHouseClient, database: string, timeoutMs: number): Promise<void> {
  const clickhouse_settings = statementSettings(timeoutMs);
  const rs = await client.query({
    query: 'SELECT count() AS n FROM system.databases WHERE name = {database:String}',
    query_params: { database },
    format: 'JSONEachRow',
    clickhouse_settings,
  });
  const [row] = await rs.json<{ n: string }>();
  if (row?.n !== '0') return;
  await client.command({ query: `CREATE DATABASE IF NOT EXISTS \`${database}\``, clickhouse_settings });
}

/** First words of a statement, for error messages and logs (never the bound values: they are not in the text). */
function summarize(query: string): string {
  const s = query.replace(/\s+/g, ' ').trim();
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

/** Where a store points, safe to log: the data path, or the server URL without credentials. */
export function describeTarget(config: StoreConfig): string {
  if (config.mode === 'embedded') return embeddedPath(config.dataDir);
  try {
    const u = new URL(config.url);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return '<invalid url>';
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Embedded: chdb in-process
// ---------------------------------------------------------------------------------------------------------------

/** The ClickHouse data directory of an embedded store. */
export function embeddedPath(dataDir: string): string {
  return path.resolve(dataDir, 'clickhouse');
}

/**
 * libchdb binds one data directory per process, and a chdb session carries `USE` and `SET` state, so the process
 * holds exactly one engine: every embedded store shares it (reference-counted) and its statements run one at a time,
 * each prefixed with its own `USE`. This is the one piece of module state in the store, forced by chdb itself.
 */
interface EmbeddedEngine {
  path: string;
  client: ClickHouseClient;
  refs: number;
  tail: Promise<unknown>;
}

let engine: EmbeddedEngine | null = null;

function acquireEmbedded(dataDir: string, database: string, logger: StoreLogger | undefined): Backend {
  const dir = embeddedPath(dataDir);
  if (engine && engine.path !== dir) {
    throw new NonRetryableError(
      'STORE_EMBEDDED_PATH_IN_USE',
      `embedded store: this process already runs ClickHouse on ${engine.path}; ` +
        `chdb allows one data directory per process (asked for ${dir})`,
    );
  }
  if (!engine) {
    mkdirSync(dir, { recursive: true });
    // chdb types its connection against @clickhouse/client-common, which @clickhouse/client 1.23 inlines as its own
    // copy: the two `Connection` types are the same contract but not the same declarations.
    const connection = createChdbConnection({ path: dir }) as unknown as ClickHouseClientConfigOptions['connection'];
    engine = { path: dir, client: createClient({ connection, log: clientLog(logger) }), refs: 0, tail: Promise.resolve() };
  }
  const e = engine;
  e.refs++;
  let released = false;
  return {
    client: e.client,
    prefix: `USE \`${database}\`; `,
    abortable: false,
    run<T>(fn: () => Promise<T>): Promise<T> {
      const result = e.tail.then(fn);
      e.tail = result.then(
        () => undefined,
        () => undefined,
      );
      return result;
    },
    async release(): Promise<void> {
      if (released) return;
      released = true;
      if (--e.refs > 0) return;
      // Let queued statements finish before the session goes away, unless another store took it meanwhile.
      await e.tail;
      if (e.refs > 0) return;
      if (engine === e) engine = null;
      await e.client.close();
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Server: ClickHouse over HTTP(S)
// ---------------------------------------------------------------------------------------------------------------

/** The @clickhouse/client options of a server store, derived from (and validated against) its config. */
export interface ServerClientOptions {
  /** Origin only (`http[s]://host:port`): credentials and database travel separately. */
  url: string;
  username: string;
  password: string;
  database: string;
}

/**
 * Validates a server config and splits its URL: credentials in the URL (`http://user:pass@host:8123`) are used
 * when `username`/`password` are not given, and removed from the URL either way so that it can be logged. The URL
 * must be a bare origin: a path would be read by @clickhouse/client as a database name, which belongs in
 * `database`. Throws {@link ConfigError} listing every problem.
 */
export function serverClientOptions(config: Extract<StoreConfig, { mode: 'server' }>): ServerClientOptions {
  const issues: string[] = [];
  let url: URL | null = null;
  try {
    url = new URL(config.url);
  } catch {
    issues.push(`store.url: ${JSON.stringify(redact(config.url))} is not a URL`);
  }
  if (url) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') issues.push(`store.url: protocol ${url.protocol} is not http: or https:`);
    if (url.pathname !== '/' && url.pathname !== '') {
      issues.push(`store.url: path ${url.pathname} is not allowed (set store.database instead)`);
    }
    if (url.search !== '' || url.hash !== '') issues.push('store.url: query strings and fragments are not allowed');
  }
  if (!IDENTIFIER.test(config.database)) issues.push(`store.database: ${JSON.stringify(config.database)} is not a plain identifier`);
  if (issues.length > 0 || !url) throw new ConfigError(issues);
  const username = config.username ?? (url.username !== '' ? decodeURIComponent(url.username) : 'default');
  const password = config.password ?? (url.password !== '' ? decodeURIComponent(url.password) : '');
  return { url: url.origin, username, password, database: config.database };
}

function redact(s: string): string {
  return s.replace(/\/\/[^@/]*@/, '//***@');
}

async function openServer(
  config: Extract<StoreConfig, { mode: 'server' }>,
  logger: StoreLogger | undefined,
  longestMs: number,
): Promise<Backend> {
  const o = serverClientOptions(config);
  const common = {
    url: o.url,
    username: o.username,
    password: o.password,
    // The server enforces each statement's max_execution_time and each call aborts after its own deadline; this
    // only bounds a hung socket.
    request_timeout: longestMs + CLIENT_GRACE_MS,
    compression: { response: true, request: false },
    log: clientLog(logger),
    application: 'tonflow',
  };
  // The HTTP interface rejects every request naming a database that does not exist yet, CREATE DATABASE
  // included, so the database is created through a client without one.
  const bootstrap = createClient(common);
  try {
    await ensureDatabase(bootstrap, o.database, DEFAULT_COMMAND_TIMEOUT_MS);
  } catch (e) {
    throw translateStoreError(e, { operation: `create database ${o.database}` });
  } finally {
    await bootstrap.close();
  }
  const client = createClient({ ...common, database: o.database });
  return {
    client,
    prefix: '',
    abortable: true,
    run: (fn) => fn(),
    release: () => client.close(),
  };
}

/** Routes @clickhouse/client's own log lines (warnings about sockets, retries) into our logger. */
function clientLog(logger: StoreLogger | undefined): { LoggerClass: new () => ChLogger } | undefined {
  if (!logger) return undefined;
  const l = logger;
  return {
    LoggerClass: class implements ChLogger {
      trace(): void {}
      debug({ module, message, args }: { module: string; message: string; args?: Record<string, unknown> }): void {
        l.debug({ module, ...args }, message);
      }
      info({ module, message, args }: { module: string; message: string; args?: Record<string, unknown> }): void {
        l.info({ module, ...args }, message);
      }
      warn({ module, message, args, err }: { module: string; message: string; args?: Record<string, unknown>; err?: Error }): void {
        l.warn({ module, ...args, err }, message);
      }
      error({ module, message, args, err }: { module: string; message: string; args?: Record<string, unknown>; err: Error }): void {
        l.error({ module, ...args, err }, message);
      }
    },
  };
}
