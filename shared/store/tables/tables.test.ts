import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore } from '../client.js';
import { migrate } from '../migrate.js';
import type { Store } from '../store.js';
import { TABLES } from './index.js';

/**
 * Every table module against the table the migrations create (DESCRIBE on chdb after running all of them): the same
 * columns in the same order, with the same types and the same materialized columns, and a module for every table. A
 * migration that changes a table fails here until its module follows, and a module cannot describe a column no
 * migration made.
 */

const normalize = (type: string): string => type.replace(/\(\s+/g, '(').replace(/\s+/g, ' ').trim();

describe('store table modules (shared/store/tables) equal the migrated tables', () => {
  let dir: string;
  let store: Store;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'tonflow-tables-'));
    store = await createStore({ mode: 'embedded', dataDir: dir, database: `test_tables_${process.pid}` });
    await migrate(store);
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('one module per table (views and migrate.ts\'s schema_migrations aside)', async () => {
    const rows = await store.query<{ name: string }>(
      `SELECT name FROM system.tables WHERE database = currentDatabase() AND engine NOT LIKE '%View' AND name != 'schema_migrations' ORDER BY name`,
    );
    expect(rows.map((r) => r.name)).toEqual(TABLES.map((t) => t.name).sort());
  });

  for (const t of TABLES) {
    it(`${t.name}: columns, types and materialized columns`, async () => {
      const rows = await store.query<{ name: string; type: string; default_type: string }>(`DESCRIBE TABLE ${t.name}`);
      const actual = rows.map((r) => ({ name: r.name, type: normalize(r.type), materialized: r.default_type === 'MATERIALIZED' }));
      const declared = Object.entries(t.columns).map(([name, c]) => ({ name, type: c.type, materialized: !c.written }));
      expect(declared).toEqual(actual);
    });
  }
});
