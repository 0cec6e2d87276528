import type { Logger } from '../../shared/runtime/logger.js';
import { retry } from '../../shared/runtime/retry.js';
import type { Store } from '../../shared/store/store.js';
import type { EncodedRows } from '../../shared/store/tsv.js';
import type { TableSchema } from './decode-block-rows.js';
import type { TableRows } from './decode.js';

/**
 * The order a batch's tables are written in: contents and states before the rows that point at them, blocks
 * last, so a reader that finds a block finds everything the block carries.
 */
export const TABLE_ORDER = [
  'message_contents',
  'message_hash_norms',
  'account_states',
  'messages',
  'transactions',
  'latest_account_states',
  'shard_state',
  'blocks',
] as const;

/**
 * Writes a batch's rows, table by table, retrying retryable store failures with backoff until they succeed or
 * the stage stops. Nothing is acknowledged (and so no offset committed) before every table has its rows.
 */
export function createStoreWriter(deps: { store: Store; logger: Logger }): (rows: TableRows, signal: AbortSignal) => Promise<void> {
  return async (rows, signal) => {
    const known = new Set<string>(TABLE_ORDER);
    for (const table of rows.keys()) if (!known.has(table)) throw new Error(`no write order for table ${table}`);
    for (const table of TABLE_ORDER) {
      const list = rows.get(table);
      if (!list) continue;
      const what = `insert into ${table}`;
      if (list.objects.length > 0) await retry(() => deps.store.insert(table, list.objects), { what, signal, logger: deps.logger });
      for (const part of mergeEncoded(list.encoded)) await retry(() => deps.store.insertEncoded(table, part), { what, signal, logger: deps.logger });
    }
  };
}

/** Encoded parts with the same columns as one body each (one insert, one part in ClickHouse). */
function mergeEncoded(parts: EncodedRows[]): EncodedRows[] {
  const byColumns = new Map<string, EncodedRows[]>();
  for (const p of parts) {
    const key = p.columns.join(',');
    const same = byColumns.get(key);
    if (same) same.push(p);
    else byColumns.set(key, [p]);
  }
  return [...byColumns.values()].map((same) =>
    same.length === 1
      ? same[0]!
      : { columns: same[0]!.columns, types: same[0]!.types, body: Buffer.concat(same.map((p) => p.body)), rows: same.reduce((n, p) => n + p.rows, 0) },
  );
}

/** The column types of every table the decode stage writes, for decode workers to encode against. */
export async function tableSchema(store: Store): Promise<TableSchema> {
  const out = new Map<string, ReadonlyMap<string, string>>();
  for (const table of TABLE_ORDER) out.set(table, await store.columnTypes(table));
  return out;
}
