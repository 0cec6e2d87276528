import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createStore } from '../shared/store/client.js';
import { migrate } from '../shared/store/migrate.js';
import { cells } from '../shared/store/tables/cells.js';
import { decodeBlock } from '../shared/ton/decode-block.js';
import { keyValueTableBytes } from './store-size.js';

/**
 * Storage cost of the cell store (0025_cells.sql): decodes every block of `dir`, inserts the whole state cells the
 * decode stage writes into a fresh embedded store, and reports the bytes inserted (hash + record text, before
 * deduplication across blocks) and the table's RocksDB directory after compaction, each per transaction.
 */
export async function runFullStatesBench(dir: string): Promise<{ blocks: number; transactions: number; rows: number; distinct: number; insertedBytes: number; diskBytes: number }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tonflow-bench-cells-'));
  const store = await createStore({ mode: 'embedded', dataDir, database: `bench_cells_${process.pid}` });
  try {
    await migrate(store);
    let blocks = 0;
    let transactions = 0;
    let rows = 0;
    let insertedBytes = 0;
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.boc')).sort()) {
      const d = decodeBlock(readFileSync(path.join(dir, f)));
      blocks++;
      transactions += d.transactions.length;
      rows += d.cells.length;
      for (const c of d.cells) insertedBytes += c.hash.length + c.record.length;
      if (d.cells.length > 0) await store.insert(cells.name, d.cells);
    }
    const [n] = await store.query<{ n: string }>(`SELECT count() AS n FROM ${cells.name}`);
    const diskBytes = (await keyValueTableBytes(store)).get(cells.name) ?? 0;
    return { blocks, transactions, rows, distinct: Number(n!.n), insertedBytes, diskBytes };
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchFullStatesCommand(dir: string): Promise<number> {
  const r = await runFullStatesBench(dir);
  const perTx = (b: number): string => (r.transactions > 0 ? (b / r.transactions).toFixed(1) : '-');
  console.log(
    `full-states: ${r.blocks} blocks, ${r.transactions} transactions; cells rows ${r.rows} (${r.distinct} distinct); ` +
      `inserted ${r.insertedBytes} B (${perTx(r.insertedBytes)} B/tx); RocksDB ${r.diskBytes} B (${perTx(r.diskBytes)} B/tx)`,
  );
  return 0;
}
