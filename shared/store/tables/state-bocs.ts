import type { Store } from '../store.js';
import { hash44, type RowOf, table, text } from './columns.js';

/**
 * `state_bocs` (0028_state_bocs.sql). Code or data cell hash (base64, as `code_hash`/`data_hash`) → its BoC, key →
 * value (EmbeddedRocksDB), filled by materialized views from `account_states` and `latest_account_states`.
 */
export const stateBocs = table('state_bocs', {
  hash: hash44(),
  boc: text(),
});

export type StateBocRow = RowOf<typeof stateBocs.columns>;

/**
 * The read others may use: the BoCs stored under `hashes` (base64 cell hashes), keyed by hash; hashes the table lacks
 * are absent. One key lookup on the RocksDB table (never a scan), whatever the number of hashes.
 */
export async function readStateBocs(store: Pick<Store, 'query'>, hashes: readonly string[], opts: { timeoutMs?: number } = {}): Promise<Map<string, string>> {
  if (hashes.length === 0) return new Map();
  const rows = await store.query<{ hash: string; boc: string }>(`SELECT hash, boc FROM ${stateBocs.name} WHERE hash IN {hashes:Array(String)}`, { hashes }, opts);
  return new Map(rows.map((r) => [String(r.hash), String(r.boc)]));
}
