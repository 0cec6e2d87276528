import type { Logger } from '../../shared/runtime/logger.js';
import { retry } from '../../shared/runtime/retry.js';
import type { Store } from '../../shared/store/store.js';
import type { EncodedRows } from '../../shared/store/tsv.js';
import type { TableSchema } from './decode-block-rows.js';
import type { TableRows } from './decode.js';

/**
 * The order a batch's tables are written in: contents and states before the rows that point at them, blocks
 * last, so a reader that finds a block finds everything the block carries. The point tables follow the rows they
 * copy: a key the gateway finds in `transactions` before its point row exists is read from the tables instead.
 */
export const TABLE_ORDER = [
  'message_contents',
  'message_hash_norms',
  'account_states',
  // Before the transactions they belong to: a transaction a reader can see has its BOC (API v2 `data`).
  'transaction_bocs',
  'messages',
  'transactions',
  'transaction_documents',
  'transaction_hash_points',
  'latest_account_states',
  // Before the key block's row, through which readers find it.
  'key_block_configs',
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
      for (const parts of byColumns(list.encoded)) await retry(() => deps.store.insertEncoded(table, parts), { what, signal, logger: deps.logger });
    }
  };
}

/**
 * Encoded parts grouped by column list: each group is one insert (one part in ClickHouse). The bodies are handed
 * to the store as they came from the decode workers: joining them here would allocate the batch a second time,
 * and on the stage's thread every such allocation counts toward V8's external-memory limit, whose full collections
 * cost that thread about 8 µs per transaction (bench/RESULTS.md, ingest).
 */
function byColumns(parts: EncodedRows[]): EncodedRows[][] {
  const groups = new Map<string, EncodedRows[]>();
  for (const p of parts) {
    const key = `${p.columns.join(',')} ${p.types.join(',')}`;
    const same = groups.get(key);
    if (same) same.push(p);
    else groups.set(key, [p]);
  }
  return [...groups.values()];
}

/** The column types of every table the decode stage writes, for decode workers to encode against. */
export async function tableSchema(store: Store): Promise<TableSchema> {
  const out = new Map<string, ReadonlyMap<string, string>>();
  for (const table of TABLE_ORDER) out.set(table, await store.columnTypes(table));
  return out;
}
