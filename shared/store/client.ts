import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, rmSync, writevSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  type ClickHouseClient,
  type ClickHouseClientConfigOptions,
  type ClickHouseSettings,
  type Logger as ChLogger,
  createClient,
  parseError,
} from '@clickhouse/client';
import { Session as ChdbSession } from 'chdb';
import { type ChdbConnection, createChdbConnection } from 'chdb/connection';
import { ConfigError, NonRetryableError } from '../runtime/errors.js';
import { translateStoreError } from './errors.js';
import type { QueryParams, Store, StoreConfig } from './store.js';
import { type EncodedRows, IDENTIFIER, encodeRows, rowShape } from './tsv.js';

/**
 * The store adapter: the only importer of @clickhouse/client and chdb (house style rule 4). Both modes drive the
 * same @clickhouse/client API for statements and inserts; embedded mode plugs chdb in through the client's
 * `connection` option, so the SQL and parameter binding are identical and only the transport differs. Embedded reads
 * skip the client and call a chdb session directly (Lane.reader): same SQL, same bound parameters, same output
 * formats, parsed here for both modes.
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
/** Embedded: chdb sessions kept for reads besides the one that writes (bench/RESULTS.md, api). */
const DEFAULT_READ_CONNECTIONS = 1;
/** The server enforces max_execution_time; the HTTP request is abandoned a little later as a last resort. */
const CLIENT_GRACE_MS = 2_000;


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
    // No Replacing merge of each inserted block on its own: every read that needs one row per key already asks for it
    // (FINAL, LIMIT 1 BY), since rows of one key land in different inserts anyway, and background merges collapse
    // them. It is a large share of the insert CPU of `messages` and `transactions` (bench/RESULTS.md, ingest).
    optimize_on_insert: 0,
    // A misspelt or unknown row field fails the insert instead of silently dropping data (chdb defaults to skip).
    input_format_skip_unknown_fields: 0,
    // The engine's own deadline: the only one that really stops work in chdb (its aborts leave the query running).
    max_execution_time: timeoutMs / 1000,
    // Results here are small (a page, a batch of keys): handing them to a formatting thread costs more than it saves.
    // (bench/RESULTS.md, api).
    output_format_parallel_formatting: 0,
  };
}

/**
 * Settings of a TabSeparated insert, on top of {@link statementSettings}. One thread parses, sorts and writes the
 * block: the inserts of a stage run while its decoding goes on, on the same cores, so threads spent splitting the
 * text into segments for parallel parsing and handing blocks between pipeline threads are CPU taken from the decoding
 * at no gain in throughput (bench/RESULTS.md, design measurements). Statement-scoped (the INSERT's SETTINGS clause),
 * so no read inherits them.
 */
const TSV_INSERT_SETTINGS: ClickHouseSettings = {
  max_threads: 1,
  input_format_parallel_parsing: 0,
};

/**
 * How a statement applies its settings: `session` statements may rely on (and leave) session state (`USE`, `SET`);
 * `statement` ones carry everything in the statement itself (an INSERT's SETTINGS clause) and are sent in full.
 */
type StatementScope = 'session' | 'statement';

/**
 * Which connection a statement may take: `write` ones (DDL, inserts, mutations) all go through one, in the order they
 * were issued; a `read` may go to any connection kept for reads.
 */
type StatementKind = 'read' | 'write';

/** Output formats reads use: JSON rows (Store.query) and raw fields (Store.queryFields). */
type ReadFormat = 'JSONEachRow' | 'TabSeparatedRaw';

/** A read's whole output: text, or the UTF-8 bytes of the text. One row per line in both formats reads use. */
export type ReadOutput = string | Uint8Array;

/** A statement as a backend runs it: with the prefix and settings it still needs, on the client it was given. */
type BackendStatement<T> = (prefix: string, settings: ClickHouseSettings, client: ClickHouseClient) => Promise<T>;

/** A transport: a client plus how statements must be wrapped for it. */
interface Backend {
  /** Passes an AbortSignal for the client-side deadline (server only: chdb cannot cancel a running query). */
  readonly abortable: boolean;
  /**
   * Runs one statement; embedded runs one at a time per chdb session because `USE`/`SET` are session state. `fn`
   * gets the prefix its statement needs (embedded: `USE` when the session is elsewhere), the settings still to send
   * (embedded: only those the session does not already hold) and the client to send it with.
   */
  run<T>(settings: ClickHouseSettings, fn: BackendStatement<T>, scope: StatementScope, kind: StatementKind): Promise<T>;
  /**
   * Runs a read (SELECT) with `settings` and bound `params` and returns its whole output in `format`: as text, or as
   * its UTF-8 bytes (chdb hands over bytes; {@link eachLine} decodes a large output a slice at a time).
   */
  readText(settings: ClickHouseSettings, query: string, params: QueryParams | undefined, format: ReadFormat, signal?: AbortSignal): Promise<ReadOutput>;
  /**
   * Inserts a TabSeparated body, given as consecutive pieces, into `table` (`database.table`, plain identifiers;
   * `columns` too, `types` their ClickHouse types) with `settings` scoped to the statement. Resolves when ClickHouse
   * acknowledged the rows.
   */
  insertText(
    table: string,
    columns: readonly string[],
    types: readonly string[],
    body: readonly Buffer[],
    settings: ClickHouseSettings,
    signal?: AbortSignal,
  ): Promise<void>;
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
      ? acquireEmbedded(config.dataDir, database, config.readConnections ?? DEFAULT_READ_CONNECTIONS, logger)
      : await openServer(config, logger, Math.max(queryTimeoutMs, commandTimeoutMs, insertTimeoutMs));

  let closed = false;
  type Statement<T> = (prefix: string, settings: ClickHouseSettings, client: ClickHouseClient, signal?: AbortSignal) => Promise<T>;
  /** Runs one statement with its deadline's settings and signal: logged, and its errors translated. */
  async function guarded<T>(operation: string, timeoutMs: number, run: (settings: ClickHouseSettings, signal?: AbortSignal) => Promise<T>): Promise<T> {
    if (closed) throw new NonRetryableError('STORE_CLOSED', `${operation}: store is closed`);
    const started = Date.now();
    const signal = backend.abortable ? AbortSignal.timeout(timeoutMs + CLIENT_GRACE_MS) : undefined;
    try {
      const out = await run(statementSettings(timeoutMs), signal);
      logger?.debug({ operation, ms: Date.now() - started }, 'store statement');
      return out;
    } catch (e) {
      throw translateStoreError(e, { operation, timedOut: signal?.aborted === true });
    }
  }

  function exec<T>(operation: string, timeoutMs: number, fn: Statement<T>, scope: StatementScope = 'session', kind: StatementKind = 'write'): Promise<T> {
    return guarded(operation, timeoutMs, (settings, signal) => backend.run(settings, (prefix, delta, client) => fn(prefix, delta, client, signal), scope, kind));
  }

  function read(query: string, params: QueryParams | undefined, format: ReadFormat, timeoutMs: number): Promise<ReadOutput> {
    return guarded(`query ${summarize(query)}`, timeoutMs, (settings, signal) => backend.readText(settings, query, params, format, signal));
  }

  const qualified = (table: string): string => {
    if (!IDENTIFIER.test(table)) throw new NonRetryableError('STORE_BAD_TABLE', `insert: ${JSON.stringify(table)} is not a table name`);
    return `\`${database}\`.\`${table}\``;
  };

  /** Column name → ClickHouse type per table, for {@link encodeInsert}; emptied by every `command()`. */
  const columnTypes = new Map<string, Promise<Map<string, string>>>();
  function tableColumns(table: string): Promise<Map<string, string>> {
    let types = columnTypes.get(table);
    if (!types) {
      types = store
        .query<{ name: string; type: string }>(
          'SELECT name, type FROM system.columns WHERE database = {database:String} AND table = {table:String}',
          { database, table },
        )
        .then((rows) => new Map(rows.map((r) => [r.name, r.type])));
      // A failed lookup is not remembered: the insert falls back to JSON and the next one asks again.
      types.catch(() => columnTypes.delete(table));
      columnTypes.set(table, types);
    }
    return types;
  }

  /**
   * The cheapest body ClickHouse can parse for these rows: TabSeparated when every row has the same keys (as a row
   * mapper makes them) and every column's type has a text encoder here; else JSONCompactEachRow for same-shaped rows;
   * else JSONEachRow, where a missing key means the column's default. TabSeparated parses much faster than
   * JSONEachRow for the wide transactions table (bench/RESULTS.md, ingest); the JSON forms are the fallbacks that
   * keep every input ClickHouse accepts accepted, and every error its own.
   */
  async function encodeInsert(table: string, rows: readonly object[]): Promise<InsertBody> {
    const types = await tableColumns(table).catch(() => new Map<string, string>());
    const encoded = encodeRows(rows, types);
    if (encoded) return { format: 'TabSeparated', encoded };
    const columns = rowShape(rows);
    if (!columns) return { format: 'JSONEachRow' };
    return {
      format: 'JSONCompactEachRow',
      columns: columns.map((c) => `\`${c}\``) as [string, ...string[]],
      values: rows.map((r) => columns.map((c) => (r as Record<string, unknown>)[c])),
    };
  }

  /** TabSeparated bodies with the same columns as one INSERT statement (table and columns already checked). */
  function insertTsv(table: string, parts: readonly EncodedRows[]): Promise<void> {
    const { columns, types } = parts[0]!;
    const body = parts.map((p) => asBuffer(p.body));
    return exec(`insert into ${table}`, insertTimeoutMs, (_prefix, clickhouse_settings, _client, abort_signal) =>
      backend.insertText(`${database}.${table}`, columns, types, body, { ...clickhouse_settings, ...TSV_INSERT_SETTINGS }, abort_signal),
    'statement');
  }

  const store: { -readonly [K in keyof Store]: Store[K] } = {
    database,
    pointReadSettings: POINT_READ_SETTINGS,
    async command(query: string, params?: QueryParams, copts?: { timeoutMs?: number }): Promise<void> {
      // Any statement may be DDL: the column types cached for insert encoding are looked up again.
      columnTypes.clear();
      await exec(`command ${summarize(query)}`, copts?.timeoutMs ?? commandTimeoutMs, (prefix, clickhouse_settings, client, abort_signal) =>
        client.command({ query: prefix + query, query_params: params, clickhouse_settings, abort_signal }),
      );
    },
    async insert(table: string, rows: readonly object[]): Promise<void> {
      if (rows.length === 0) return;
      const target = qualified(table);
      const body = await encodeInsert(table, rows);
      if (body.format === 'TabSeparated') return insertTsv(table, [body.encoded]);
      await exec(`insert into ${table}`, insertTimeoutMs, async (_prefix, clickhouse_settings, client, abort_signal) => {
        await client.insert({
          table: target,
          ...(body.format === 'JSONEachRow' ? { values: rows as object[] } : { values: body.values, columns: body.columns }),
          format: body.format,
          clickhouse_settings,
          abort_signal,
        });
      }, 'statement');
    },
    async insertEncoded(table: string, rows: EncodedRows | readonly EncodedRows[]): Promise<void> {
      const parts = (Array.isArray(rows) ? rows : [rows]).filter((p: EncodedRows) => p.rows > 0) as EncodedRows[];
      if (parts.length === 0) return;
      qualified(table);
      const { columns, types } = parts[0]!;
      const bad = columns.filter((c) => !IDENTIFIER.test(c));
      if (bad.length > 0 || columns.length !== types.length) {
        throw new NonRetryableError('STORE_BAD_COLUMNS', `insert into ${table}: bad column list ${JSON.stringify(columns)}`);
      }
      const key = (p: EncodedRows): string => `${p.columns.join(',')} ${p.types.join(',')}`;
      if (parts.some((p) => key(p) !== key(parts[0]!))) {
        throw new NonRetryableError('STORE_BAD_COLUMNS', `insert into ${table}: encoded parts of one insert have different columns`);
      }
      await insertTsv(table, parts);
    },
    columnTypes(table: string): Promise<ReadonlyMap<string, string>> {
      return tableColumns(table);
    },
    async query<T = Record<string, unknown>>(query: string, params?: QueryParams, qopts?: { timeoutMs?: number }): Promise<T[]> {
      return parseJsonRows<T>(await read(query, params, 'JSONEachRow', qopts?.timeoutMs ?? queryTimeoutMs));
    },
    async queryFields(query: string, columns: number, params?: QueryParams, qopts?: { timeoutMs?: number }): Promise<string[][]> {
      return splitFields(await read(query, params, 'TabSeparatedRaw', qopts?.timeoutMs ?? queryTimeoutMs), columns, query);
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
      await backend.run({}, (_prefix, _settings, client) => ensureDatabase(client, database, commandTimeoutMs), 'statement', 'write');
    } catch (e) {
      await store.close();
      throw translateStoreError(e, { operation: `create database ${database}` });
    }
  }
  // Whether the engine still runs the previous analyzer (Store.pointReadSettings), by its version: asking with a
  // statement that sets it off would have ClickHouse 26.9 and later refuse it, and the client log that as an error.
  try {
    const [row] = await store.query<{ v: string }>('SELECT version() AS v');
    if (row && hasLegacyAnalyzer(row.v)) store.pointReadSettings = LEGACY_ANALYZER_POINT_READ_SETTINGS;
  } catch (e) {
    logger?.warn({ err: e }, 'store: engine version unknown; point reads plan with the current analyzer');
  }
  logger?.info({ mode: config.mode, database, target: describeTarget(config), pointReadSettings: store.pointReadSettings }, 'store open');
  return store;
}

/** Store.pointReadSettings on an engine without the previous analyzer. */
const POINT_READ_SETTINGS = 'max_threads = 1';
/** Store.pointReadSettings where the engine still has it. */
const LEGACY_ANALYZER_POINT_READ_SETTINGS = 'max_threads = 1, enable_analyzer = 0';

/**
 * Whether ClickHouse `version` (e.g. `26.7.2.1`) takes `enable_analyzer = 0`: the setting is named so since 24.3
 * (`allow_experimental_analyzer` before), and 26.9 refuses to turn the analyzer off.
 */
export function hasLegacyAnalyzer(version: string): boolean {
  const [major, minor] = version.split('.').map(Number);
  if (major === undefined || minor === undefined || !Number.isInteger(major) || !Number.isInteger(minor)) return false;
  const v = major * 100 + minor;
  return v >= 2403 && v < 2609;
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

// ---------------------------------------------------------------------------------------------------------------
// Insert encoding
// ---------------------------------------------------------------------------------------------------------------

type InsertBody =
  | { format: 'JSONEachRow' }
  | { format: 'JSONCompactEachRow'; columns: [string, ...string[]]; values: unknown[][] }
  | { format: 'TabSeparated'; encoded: EncodedRows };

/**
 * Writes `pieces` to a new file, exclusively created and owner-only (a shared temporary directory must not let
 * anyone else's file stand in), with gathered writes instead of first joining them into one buffer.
 */
function writeAll(file: string, pieces: readonly Buffer[]): void {
  const fd = openSync(file, 'wx', 0o600);
  try {
    let pending = pieces.filter((b) => b.length > 0);
    while (pending.length > 0) {
      // At most IOV_MAX (1024 on Linux) pieces per call.
      const batch = pending.slice(0, 1024);
      let n = writevSync(fd, batch);
      let k = 0;
      while (k < batch.length && n >= batch[k]!.length) n -= batch[k++]!.length;
      // A short write resumes at the first byte not written.
      pending = k < batch.length ? [batch[k]!.subarray(n), ...pending.slice(k + 1)] : pending.slice(k);
    }
  } finally {
    closeSync(fd);
  }
}

/** A Buffer over the same bytes (no copy). */
function asBuffer(b: Uint8Array): Buffer {
  return Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
}

/** The rows of a statement's text output: one per line, the last line's break optional. */
function* outputLines(text: string): Generator<string> {
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    yield text.slice(start, end);
    start = end + 1;
  }
}

/**
 * Bytes of output parsed between two turns of the event loop; an output up to this size is decoded and parsed in one
 * go. A page of 1,000 transactions is 3-4 MB of JSON: parsed at once it holds the thread for tens of ms on an idle
 * core and far longer on a loaded one, and every other request (masterchainInfo) waits behind it. A slice of this
 * size parses in about a millisecond, and a point read's answer (well under it) pays nothing for the slicing.
 */
export const PARSE_SLICE_BYTES = 128 * 1024;

/** Lets timers, I/O and other requests run before a long parse goes on. */
const yieldToLoop = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

const NEWLINE = 0x0a;

/**
 * Calls `fn` with each line of `out` (the lines {@link outputLines} gives of its text), a slice of
 * {@link PARSE_SLICE_BYTES} at a time with a turn of the event loop between slices; a slice ends at a line break.
 * Bytes are decoded slice by slice with one streaming decoder, which gives the text a one-shot decode gives (a line
 * break is never inside a UTF-8 sequence, and only the start of the whole output is checked for a BOM).
 */
async function eachLine(out: ReadOutput, fn: (line: string) => void): Promise<void> {
  if (out.length <= PARSE_SLICE_BYTES) {
    for (const line of outputLines(typeof out === 'string' ? out : UTF8.decode(out))) fn(line);
    return;
  }
  const bytes = typeof out === 'string' ? null : Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  const decoder = new TextDecoder('utf-8');
  let start = 0;
  while (start < out.length) {
    if (start > 0) await yieldToLoop();
    const nl = bytes ? bytes.indexOf(NEWLINE, start + PARSE_SLICE_BYTES) : (out as string).indexOf('\n', start + PARSE_SLICE_BYTES);
    const end = nl < 0 ? out.length : nl + 1;
    const text = bytes ? decoder.decode(bytes.subarray(start, end), { stream: end < out.length }) : (out as string).slice(start, end);
    for (const line of outputLines(text)) fn(line);
    start = end;
  }
}

const UTF8 = new TextDecoder('utf-8');

/** JSONEachRow output → rows, one JSON object per line (as @clickhouse/client's ResultSet.json reads it). */
export async function parseJsonRows<T>(out: ReadOutput): Promise<T[]> {
  const rows: T[] = [];
  await eachLine(out, (line) => {
    if (line.length > 0) rows.push(JSON.parse(line) as T);
  });
  return rows;
}

/** TabSeparatedRaw output → rows of `columns` fields (Store.queryFields). */
export async function splitFields(out: ReadOutput, columns: number, query: string): Promise<string[][]> {
  const rows: string[][] = [];
  await eachLine(out, (line) => {
    const fields = line.split('\t');
    if (fields.length !== columns) {
      throw new NonRetryableError('STORE_BAD_FIELDS', `query ${summarize(query)}: a row has ${fields.length} fields, not ${columns} (a value holds a tab or line break)`);
    }
    rows.push(fields);
  });
  return rows;
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
 * libchdb binds one data directory per process, so the process holds exactly one engine: every embedded store shares
 * it (reference-counted). The engine runs statements on several chdb sessions of that one server at once, each
 * session one statement at a time because it carries `USE` and `SET` state: lane 0 takes every write (DDL, inserts,
 * mutations) in the order they were issued, the others take reads, so a reader never waits behind an insert
 * (bench/RESULTS.md, api: reads while the writer inserts) and several read sessions run reads in parallel. This is the
 * one piece of module state in the store, forced by chdb itself.
 */
interface EmbeddedEngine {
  path: string;
  /** Lane 0 writes (and reads when it is the only one); lanes 1… read. */
  lanes: Lane[];
  /** Whether inserts hand their data over as files in {@link STAGING_ROOT}; off once the engine refused one. */
  stageInserts: boolean;
  staged: number;
  refs: number;
}

/** One chdb session and the statements queued on it. */
interface Lane {
  client: ClickHouseClient;
  connection: ChdbConnection;
  tail: Promise<unknown>;
  /** Statements queued or running: reads go to the lane with the fewest. */
  pending: number;
  /**
   * What the session is known to hold: its current database and the settings last SET. chdb runs the `SET`s and
   * the `USE` of every statement as statements of their own (~0.3 ms each, as long as a point read); sending only
   * what changed makes a typical read one statement. Unknown (emptied) after anything that may have changed them.
   */
  session: SessionState;
  /**
   * A second chdb session of the lane for reads, opened on the first, with what it holds: reads call chdb directly
   * instead of through @clickhouse/client's connection, whose result streams, query ids and parameter formatting
   * cost a point read as much again on the event loop (bench/RESULTS.md, api). It takes its turn in the lane's queue like any
   * statement of the lane.
   */
  reader: { session: ChdbSession; state: SessionState } | null;
}

interface SessionState {
  database: string | null;
  settings: Map<string, string>;
}

const unknownSession = (): SessionState => ({ database: null, settings: new Map() });

let engine: EmbeddedEngine | null = null;

function openLane(dir: string, logger: StoreLogger | undefined): Lane {
  // Each connection is a session of its own on the process's one embedded server (chdb shares the server between
  // sessions of the same path). chdb types its connection against @clickhouse/client-common, which
  // @clickhouse/client 1.23 inlines as its own copy: the two `Connection` types are the same contract but not the
  // same declarations.
  const connection = createChdbConnection({ path: dir });
  const client = createClient({
    connection: connection as unknown as ClickHouseClientConfigOptions['connection'],
    log: clientLog(logger),
  });
  return { client, connection, tail: Promise.resolve(), pending: 0, session: unknownSession(), reader: null };
}

/**
 * The lane a statement goes to: writes to lane 0, reads to whichever of the store's `readLanes` read lanes (1…) has
 * the least queued, or lane 0 when the store has none.
 */
function pickLane(e: EmbeddedEngine, kind: StatementKind, readLanes: number): Lane {
  if (kind === 'write' || readLanes === 0) return e.lanes[0]!;
  let best = e.lanes[1]!;
  for (let i = 2; i <= readLanes; i++) if (e.lanes[i]!.pending < best.pending) best = e.lanes[i]!;
  return best;
}

/** Runs `fn` after everything queued on `lane`, with the `USE`/`SET`s its session lacks. */
/** Runs `fn` after everything queued on `lane`, counted in its `pending` meanwhile. */
function enqueue<T>(lane: Lane, fn: () => Promise<T>): Promise<T> {
  lane.pending++;
  const result = lane.tail.then(fn);
  const settled = (): void => {
    lane.pending--;
  };
  lane.tail = result.then(settled, settled);
  return result;
}

/** The settings among `settings` that a session holding `state` does not hold yet. */
function settingsDelta(state: SessionState, settings: ClickHouseSettings): Array<[string, unknown]> {
  return Object.entries(settings).filter(([k, v]) => v !== undefined && state.settings.get(k) !== String(v));
}

function runOnLane<T>(
  lane: Lane,
  database: string,
  settings: ClickHouseSettings,
  fn: BackendStatement<T>,
  scope: StatementScope,
): Promise<T> {
  return enqueue(lane, async () => {
    if (scope === 'statement') {
      try {
        return await fn('', settings, lane.client);
      } finally {
        // A JSON insert goes through the client, which SETs its settings on the session.
        lane.session = unknownSession();
      }
    }
    const prefix = lane.session.database === database ? '' : `USE \`${database}\`; `;
    const delta = settingsDelta(lane.session, settings);
    try {
      const out = await fn(prefix, Object.fromEntries(delta) as ClickHouseSettings, lane.client);
      lane.session.database = database;
      for (const [k, v] of delta) lane.session.settings.set(k, String(v));
      return out;
    } catch (err) {
      // Part of the prefix may have run before the statement failed.
      lane.session = unknownSession();
      throw err;
    }
  });
}

/** Runs a read on `lane`'s reader session after everything queued on the lane, with the `USE`/`SET`s it lacks. */
function readOnLane(lane: Lane, dir: string, database: string, settings: ClickHouseSettings, query: string, params: QueryParams | undefined, format: ReadFormat): Promise<ReadOutput> {
  return enqueue(lane, async () => {
    lane.reader ??= { session: new ChdbSession(dir), state: unknownSession() };
    const { session, state } = lane.reader;
    const statements: string[] = [];
    if (state.database !== database) statements.push(`USE \`${database}\``);
    const delta = settingsDelta(state, settings);
    if (delta.length > 0) statements.push(`SET ${settingsClause(Object.fromEntries(delta) as ClickHouseSettings)}`);
    const sql = statements.length > 0 ? `${statements.join('; ')}; ${query}` : query;
    try {
      // Without parameters chdb runs the statement outside its process-wide queue of bound statements.
      const out = params && Object.keys(params).length > 0 ? await session.queryBindAsync(sql, params, { format }) : await session.queryAsync(sql, { format });
      state.database = database;
      for (const [k, v] of delta) state.settings.set(k, String(v));
      // The bytes, not text(): a large output is decoded as it is parsed, a slice at a time (eachLine).
      return out.bytes();
    } catch (err) {
      // Part of the prefix may have run before the statement failed.
      lane.reader = { session, state: unknownSession() };
      throw asClickHouseError(err);
    }
  });
}

function acquireEmbedded(dataDir: string, database: string, readConnections: number, logger: StoreLogger | undefined): Backend {
  const dir = embeddedPath(dataDir);
  if (!Number.isInteger(readConnections) || readConnections < 0) {
    throw new ConfigError([`store.readConnections: ${readConnections} is not a whole number of connections (0 or more)`]);
  }
  if (engine && engine.path !== dir) {
    throw new NonRetryableError(
      'STORE_EMBEDDED_PATH_IN_USE',
      `embedded store: this process already runs ClickHouse on ${engine.path}; ` +
        `chdb allows one data directory per process (asked for ${dir})`,
    );
  }
  if (!engine) {
    mkdirSync(dir, { recursive: true });
    engine = { path: dir, lanes: [openLane(dir, logger)], stageInserts: true, staged: 0, refs: 0 };
  }
  const e = engine;
  // Stores sharing the engine share its lanes: each reads on as many as it asked for, the first ones.
  while (e.lanes.length < 1 + readConnections) e.lanes.push(openLane(dir, logger));
  e.refs++;
  let released = false;
  const writer = e.lanes[0]!;
  return {
    abortable: false,
    run: <T>(settings: ClickHouseSettings, fn: BackendStatement<T>, scope: StatementScope, kind: StatementKind): Promise<T> =>
      runOnLane(pickLane(e, kind, readConnections), database, settings, fn, scope),
    readText: (settings, query, params, format) => readOnLane(pickLane(e, 'read', readConnections), dir, database, settings, query, params, format),
    async insertText(table, columns, types, body, settings): Promise<void> {
      // Called inside a `write` statement: the writer lane is this insert's own until it returns.
      if (e.stageInserts) {
        // chdb spends time on inline INSERT data outside the query itself, about as long as ClickHouse then takes to
        // parse and write it; handing it the same bytes as a file on tmpfs skips that (bench/RESULTS.md,
        // ingest). The file lives for the statement only.
        const file = path.join(STAGING_ROOT, `tonflow-insert-${process.pid}-${++e.staged}-${randomBytes(6).toString('hex')}.tsv`);
        // Exclusive create, owner-only: a shared temporary directory must not let anyone else's file stand in.
        writeAll(file, body);
        try {
          await writer.connection.chdb.queryAsync(
            `INSERT INTO ${table} (${columns.map((c) => `\`${c}\``).join(', ')}) SELECT * FROM file(${sqlString(file)}, 'TabSeparated', ` +
              `${sqlString(columns.map((c, i) => `\`${c}\` ${types[i]}`).join(', '))}) SETTINGS ${settingsClause(settings)}`,
          );
          return;
        } catch (err) {
          const mapped = asClickHouseError(err);
          // An engine that may not read local files (a build or a configuration that forbids it) gets the data inline
          // from now on; any other error is the statement's own.
          if (!STAGING_REFUSED.has((mapped as { type?: string }).type ?? '')) throw mapped;
          e.stageInserts = false;
        } finally {
          rmSync(file, { force: true });
        }
      }
      // chdb's raw insert hands the Buffer to the engine as it is: no round trip through JS strings and no SET
      // statements (the settings go in the INSERT's own SETTINGS clause), which @clickhouse/client's insert over
      // the chdb connection would add.
      try {
        const values = body.length === 1 ? body[0]! : Buffer.concat(body);
        await writer.connection.chdb.rawInsert({ table, columns: [...columns], values, format: 'TabSeparated', settings: plainSettings(settings) });
      } catch (err) {
        // The same shape the chdb connection gives every other statement's error (ClickHouse code and type).
        throw asClickHouseError(err);
      }
    },
    async release(): Promise<void> {
      if (released) return;
      released = true;
      if (--e.refs > 0) return;
      // Let queued statements finish before the sessions go away, unless another store took the engine meanwhile.
      await Promise.all(e.lanes.map((l) => l.tail));
      if (e.refs > 0) return;
      if (engine === e) engine = null;
      // Readers first: the server lives as long as any session of it, and the writer's holds it to the end.
      for (const l of e.lanes.slice().reverse()) l.reader?.session.close();
      for (const l of e.lanes.slice(1).reverse()) await l.client.close();
      await writer.client.close();
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
    abortable: true,
    run: (settings, fn) => fn('', settings, client),
    async readText(clickhouse_settings, query, query_params, format, abort_signal): Promise<ReadOutput> {
      const rs = await client.query({ query, query_params, format, clickhouse_settings, ...(abort_signal ? { abort_signal } : {}) });
      return rs.text();
    },
    async insertText(table, columns, _types, body, clickhouse_settings, abort_signal): Promise<void> {
      await client.insert({
        table: quoteQualified(table),
        columns: columns.map((c) => `\`${c}\``) as [string, ...string[]],
        values: Readable.from(body, { objectMode: false }),
        format: 'TabSeparated',
        clickhouse_settings,
        ...(abort_signal ? { abort_signal } : {}),
      });
    },
    release: () => client.close(),
  };
}

/** `db.table` (plain identifiers) → `` `db`.`table` ``. */
function quoteQualified(table: string): string {
  return table
    .split('.')
    .map((p) => `\`${p}\``)
    .join('.');
}

/** Settings as the plain scalars an INSERT's SETTINGS clause takes. */
function plainSettings(settings: ClickHouseSettings): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(settings)) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[k] = v;
  }
  return out;
}

/** ClickHouse error types that mean "this engine will not read the staged file" (not a problem of the data). */
const STAGING_REFUSED = new Set(['PATH_ACCESS_DENIED', 'DATABASE_ACCESS_DENIED', 'ACCESS_DENIED', 'FILE_DOESNT_EXIST', 'CANNOT_OPEN_FILE', 'UNKNOWN_FUNCTION']);

/**
 * Where an embedded insert stages its data for the statement's duration: tmpfs (`/dev/shm`) where there is one, so
 * the bytes never reach a disk. Each file is removed when its statement ends; only a process killed in the middle of
 * an insert leaves one behind.
 */
const STAGING_ROOT = existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();

/** A ClickHouse string literal. */
function sqlString(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** `k=v, …` for a statement's SETTINGS clause (names are ClickHouse identifiers, values numbers or literals). */
function settingsClause(settings: ClickHouseSettings): string {
  return Object.entries(plainSettings(settings))
    .map(([k, v]) => {
      if (!IDENTIFIER.test(k)) throw new NonRetryableError('STORE_BAD_SETTING', `setting name ${JSON.stringify(k)} is not an identifier`);
      return `${k} = ${typeof v === 'number' ? String(v) : typeof v === 'boolean' ? (v ? '1' : '0') : sqlString(v)}`;
    })
    .join(', ');
}

/** A chdb error as the ClickHouse error it reports (`Code: N. DB::Exception: … (TYPE)`), cause kept. */
function asClickHouseError(err: unknown): Error {
  const message = err instanceof Error ? err.message : String(err);
  const mapped = parseError(message);
  if (mapped !== err && mapped.cause === undefined) Object.defineProperty(mapped, 'cause', { value: err, enumerable: false, configurable: true, writable: true });
  return mapped;
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
        // The client suggests progress headers for long request timeouts (load balancers that cut idle sockets).
        // They are off on purpose: once headers are sent the status is 200, and a statement failing later reports
        // its error only inside the body, which `command()` does not read. Deadlines are enforced per statement.
        if (message.startsWith('request_timeout is set to')) return l.debug({ module, ...args }, message);
        l.warn({ module, ...args, err }, message);
      }
      error({ module, message, args, err }: { module: string; message: string; args?: Record<string, unknown>; err: Error }): void {
        // Every failed request surfaces as a translated error at the store boundary, which its caller logs (or
        // retries with a warning); logging it here as well would report each outage twice.
        l.debug({ module, ...args, err }, message);
      }
    },
  };
}
