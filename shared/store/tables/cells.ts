import type { Store } from '../store.js';
import { type RowOf, table, text } from './columns.js';

/** `cells` (0025_cells.sql). Level-0 cell hash (hex) → the cell record (base64) of shared/ton/cells/cells.ts, key → value (EmbeddedRocksDB). */
export const cells = table('cells', {
  hash: text(),
  record: text(),
});

export type CellRow = RowOf<typeof cells.columns>;

/**
 * The read others may use: the records stored under `hashes` (hex), decoded from base64, keyed by hash; hashes the
 * table lacks are absent. One key lookup on the RocksDB table (never a scan), whatever the number of hashes.
 */
export async function readCellRecords(store: Pick<Store, 'query'>, hashes: readonly string[], opts: { timeoutMs?: number } = {}): Promise<Map<string, Uint8Array>> {
  if (hashes.length === 0) return new Map();
  const rows = await store.query<{ hash: string; record: string }>(`SELECT hash, record FROM ${cells.name} WHERE hash IN {hashes:Array(String)}`, { hashes }, opts);
  return new Map(rows.map((r) => [r.hash, new Uint8Array(Buffer.from(r.record, 'base64'))]));
}
