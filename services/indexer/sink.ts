import type { Logger } from '../../shared/runtime/logger.js';
import type { Store } from '../../shared/store/store.js';
import type { TableSchema } from './decode-block-rows.js';
import { type TableRows, createTableWriter } from '../stages/stage.js';

/**
 * The order a batch's tables are written in: contents and states before the rows that point at them, blocks
 * last, so a reader that finds a block finds everything the block carries. The point tables follow the rows they
 * copy: a key the gateway finds in `transactions` before its point row exists is read from the tables instead.
 */
export const TABLE_ORDER = [
  'message_contents',
  'message_hash_norms',
  'account_states',
  'messages',
  'transactions',
  'transaction_bocs',
  'transaction_documents',
  'transaction_hash_points',
  'latest_account_states',
  'shard_state',
  'key_block_configs',
  'blocks',
] as const;

/** Writes a batch's rows in {@link TABLE_ORDER} (the runner's table writer, stage.ts). */
export function createStoreWriter(deps: { store: Store; logger: Logger }): (rows: TableRows, signal: AbortSignal) => Promise<void> {
  return createTableWriter({ ...deps, tables: TABLE_ORDER });
}

/** The column types of every table the decode stage writes, for decode workers to encode against. */
export async function tableSchema(store: Store): Promise<TableSchema> {
  const out = new Map<string, ReadonlyMap<string, string>>();
  for (const table of TABLE_ORDER) out.set(table, await store.columnTypes(table));
  return out;
}
