import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Store } from '../shared/store/store.js';

/**
 * Bytes on disk of the database's key → value tables (EmbeddedRocksDB, 0008_transaction_points.sql), which
 * `system.parts` does not list: the files under each table's data path, after a compaction (OPTIMIZE) so that
 * write-ahead logs and overlapping levels do not count. Embedded mode only: the path must be on this machine.
 */
export async function keyValueTableBytes(store: Store): Promise<Map<string, number>> {
  const tables = await store.query<{ name: string; data_paths: string[] }>(
    "SELECT name, data_paths FROM system.tables WHERE database = currentDatabase() AND engine = 'EmbeddedRocksDB' ORDER BY name",
  );
  const out = new Map<string, number>();
  for (const t of tables) {
    await store.command(`OPTIMIZE TABLE ${t.name}`);
    out.set(t.name, t.data_paths.reduce((n, p) => n + directoryBytes(p), 0));
  }
  return out;
}

function directoryBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    n += e.isDirectory() ? directoryBytes(p) : statSync(p).size;
  }
  return n;
}
