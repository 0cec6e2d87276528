/**
 * The store every stage and the gateway talk to: ClickHouse, either in-process (chdb plugged into
 * @clickhouse/client through its `connection` option) or a server over HTTP. `client.ts` is the only importer of
 * @clickhouse/client and chdb. It knows nothing of TON.
 *
 * 64-bit integers come back as strings in both modes (`output_format_json_quote_64bit_integers=1`), because
 * chdb's default differs from the server's.
 */

import type { EncodedRows } from './tsv.js';

export type QueryParams = Record<string, unknown>;

export interface Store {
  /**
   * DDL or any statement without a result. `{name:Type}` placeholders are bound from `params`, never spliced.
   * `opts.timeoutMs` replaces the store's command deadline for this statement (a migration's mutation runs as long
   * as its table is large).
   */
  command(query: string, params?: QueryParams, opts?: { timeoutMs?: number }): Promise<void>;
  /** Inserts rows (JSONEachRow) into `table`; resolves when ClickHouse acknowledged them. */
  insert(table: string, rows: readonly object[]): Promise<void>;
  /**
   * Inserts rows already encoded as TabSeparated (tsv.ts `encodeRows`, against {@link columnTypes}); resolves when
   * ClickHouse acknowledged them. What a decode worker produces: no row objects cross threads. Several encodings
   * with the same columns go as one INSERT (one part), their bodies handed over as they are, never concatenated.
   */
  insertEncoded(table: string, rows: EncodedRows | readonly EncodedRows[]): Promise<void>;
  /** Column name → ClickHouse type of `table` (looked up once, again after any `command`). */
  columnTypes(table: string): Promise<ReadonlyMap<string, string>>;
  /** Runs a SELECT with bound parameters and returns the rows. */
  query<T = Record<string, unknown>>(query: string, params?: QueryParams, opts?: { timeoutMs?: number }): Promise<T[]>;
  /**
   * Runs a SELECT of `columns` text columns whose values hold no tab and no line break (keys, JSON from
   * JSON.stringify) and returns each row's fields as they are stored: TabSeparatedRaw, so nothing is escaped by the
   * engine or unescaped here. A JSON document read through {@link Store.query} is escaped into a JSON string and
   * parsed twice; this way the engine writes it as is and the gateway parses it once (bench/RESULTS.md, api). A row with another number of fields (a value that broke the rule) is an error.
   */
  queryFields(query: string, columns: number, params?: QueryParams, opts?: { timeoutMs?: number }): Promise<string[][]>;
  /** The database this store works in. */
  readonly database: string;
  /**
   * The SETTINGS of a one-table point read by primary key: one thread (it reads a granule or two), and, where the
   * engine still has it, the previous query analyzer, whose planning of such a statement costs a quarter less CPU
   * (bench/RESULTS.md, design measurements). ClickHouse 26.9 removed that analyzer (chdb 3.4 is 26.7): the store asks
   * the engine when it opens.
   */
  readonly pointReadSettings: string;
  close(): Promise<void>;
}

export type StoreConfig =
  | {
      mode: 'embedded';
      dataDir: string;
      database: string;
      /**
       * chdb sessions for reads besides the one that runs writes (default 1); 0 runs everything on one. Stores of one
       * process share the engine and its sessions: writes of all of them go through one, in order.
       */
      readConnections?: number;
    }
  | { mode: 'server'; url: string; database: string; username?: string; password?: string };
