import type { Logger } from '../../shared/runtime/logger.js';
import type { Store } from '../../shared/store/store.js';
import { WRITE_ORDER } from '../../shared/store/tables/index.js';
import type { TableSchema } from './decode-block-rows.js';
import { type TableRows, createTableWriter } from '../stages/stage.js';

/** The order a batch's tables are written in (shared/store/tables/index.ts WRITE_ORDER says why). */
export const TABLE_ORDER = WRITE_ORDER;

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
