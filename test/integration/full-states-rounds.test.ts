import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Cell, beginCell } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore } from '../../shared/store/client.js';
import { migrate } from '../../shared/store/migrate.js';
import type { Store } from '../../shared/store/store.js';
import { readCellRecords } from '../../shared/store/tables/cells.js';
import { Boc } from '../../shared/ton/boc/reader.js';
import { collectWholeCells } from '../../shared/ton/cells/cells.js';
import { withFullStates } from '../../shared/ton/cells/full-states.js';
import { describeClickHouse } from '../helpers/clickhouse.js';
import { readFixture } from '../helpers/fixtures.js';

/**
 * A state whose code and data were both pruned, rebuilt from the `cells` table (0025) on the real engine: code and
 * data are read side by side, one statement per level of the deeper tree for both, and come back whole (their
 * hashes are those @ton/core computes for the fixture code and the data built here).
 */

const runId = `${process.pid}_${Date.now().toString(36)}`;
const depth = (c: Cell): number => 1 + Math.max(0, ...c.refs.map(depth));

function suite(open: (database: string) => Promise<Store>): void {
  let store: Store;
  const code = Cell.fromBoc(readFixture('contracts/jetton_wallet_tonweb_standard.code.boc'))[0]!;
  // Data as deep as the code, in cells of its own.
  let data = beginCell().storeUint(1, 8).endCell();
  while (depth(data) < depth(code)) data = beginCell().storeUint(depth(data), 16).storeRef(data).endCell();

  beforeAll(async () => {
    store = await open(`test_full_states_rounds_${runId}`);
    await migrate(store);
    const rows: Array<{ hash: string; record: string }> = [];
    for (const root of [code, data]) {
      const boc = Boc.parse(root.toBoc());
      collectWholeCells(boc, boc.roots, (hash, record) => rows.push({ hash, record: Buffer.from(record).toString('base64') }));
    }
    await store.insert('cells', rows);
  }, 120_000);

  afterAll(async () => {
    await store?.command(`DROP DATABASE IF EXISTS test_full_states_rounds_${runId}`);
    await store?.close();
  });

  it('rebuilds pruned code and data in as many statements as the deeper tree has levels', async () => {
    let statements = 0;
    const lookup = (hashes: string[]) => {
      statements++;
      return readCellRecords(store, hashes);
    };
    const row = { code_hash: code.hash().toString('base64'), data_hash: data.hash().toString('base64'), code_boc: null as string | null, data_boc: null as string | null };
    const out = (await withFullStates(new Map([['a', row]]), lookup)).get('a')!;
    expect(Cell.fromBase64(out.code_boc!).hash().equals(code.hash())).toBe(true);
    expect(Cell.fromBase64(out.data_boc!).hash().equals(data.hash())).toBe(true);
    expect(statements).toBe(depth(code));
  });
}

describe('full states from the cell store, rounds (chdb)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tonflow-rounds-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  suite((database) => createStore({ mode: 'embedded', dataDir: dir, database }));
});

describeClickHouse('full states from the cell store, rounds (server)', (url) => {
  suite((database) => createStore({ mode: 'server', url, database }));
});
