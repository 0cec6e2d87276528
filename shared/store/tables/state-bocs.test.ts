import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beginCell } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore } from '../client.js';
import { defaultMigrationsDir, loadMigrations, migrate } from '../migrate.js';
import type { Store } from '../store.js';
import type { AccountStateRow } from './account-states.js';
import type { LatestAccountStateRow } from './latest-account-states.js';
import { readStateBocs, stateBocs } from './state-bocs.js';

/**
 * `state_bocs` (0028) on chdb: the BoCs of rows stored before the migration are copied once, those inserted after
 * arrive through the materialized views of both state tables, and a state without a BoC writes nothing. Keys and
 * values are independent of the store: @ton/core serializes each cell and computes its hash.
 */

/** A cell's BoC as the state tables hold it (no index, no CRC) and its representation hash, base64. */
function cell(tag: number): { boc: string; hash: string } {
  const c = beginCell().storeUint(0xc0de, 16).storeUint(tag, 32).endCell();
  return { boc: c.toBoc({ idx: false, crc32: false }).toString('base64'), hash: c.hash().toString('base64') };
}

const stateHash = (i: number): string => Buffer.alloc(32, i).toString('base64');

function stateRow(i: number, code: { boc: string; hash: string } | null, data: { boc: string; hash: string } | null, withBocs: boolean): Omit<AccountStateRow, 'version'> {
  return {
    hash: stateHash(i),
    account: `0:${i.toString(16).padStart(64, '0')}`,
    last_trans_lt: String(1000 + i),
    balance: '1',
    extra_currencies: {},
    status: 'active',
    frozen_hash: null,
    code_hash: code?.hash ?? null,
    data_hash: data?.hash ?? null,
    code_boc: withBocs ? (code?.boc ?? null) : null,
    data_boc: withBocs ? (data?.boc ?? null) : null,
  };
}

function latestRow(i: number, code: { boc: string; hash: string }, data: { boc: string; hash: string }): LatestAccountStateRow {
  const s = stateRow(i, code, data, true);
  return {
    account: s.account,
    account_state_hash: s.hash,
    last_trans_lt: s.last_trans_lt,
    last_trans_hash: stateHash(200 + i),
    last_trans_now: 1,
    balance: s.balance,
    extra_currencies: {},
    status: s.status,
    frozen_hash: null,
    code_hash: s.code_hash,
    data_hash: s.data_hash,
    code_boc: s.code_boc,
    data_boc: s.data_boc,
  };
}

describe('state_bocs (0028_state_bocs.sql): code and data BoCs by cell hash', () => {
  let dir: string;
  let store: Store;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'tonflow-state-bocs-'));
    store = await createStore({ mode: 'embedded', dataDir: path.join(dir, 'data'), database: `test_state_bocs_${process.pid}` });
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies the BoCs stored before the migration, then takes every later insert of either state table', async () => {
    const before = path.join(dir, 'before');
    const all = loadMigrations();
    cpSync(defaultMigrationsDir(), before, { recursive: true, filter: (src) => !all.some((m) => m.version >= 28 && src.endsWith(m.file)) });
    await migrate(store, { dir: before });

    const [c1, d1, d2, c3, d3, c4, d4] = [1, 2, 3, 4, 5, 6, 7].map(cell) as Array<{ boc: string; hash: string }>;
    // Before: one state with both BoCs, one whose data was pruned (hash only), one latest row with both.
    await store.insert('account_states', [stateRow(1, c1!, d1!, true), stateRow(2, c1!, d2!, false)]);
    await store.insert('latest_account_states', [latestRow(3, c3!, d3!)]);
    expect((await migrate(store)).applied).toContain('0028_state_bocs.sql');
    // After: through the views.
    await store.insert('account_states', [stateRow(4, c4!, null, true)]);
    await store.insert('latest_account_states', [latestRow(5, c1!, d4!)]);

    const found = await readStateBocs(store, [c1, d1, d2, c3, d3, c4, d4].map((c) => c!.hash));
    expect(Object.fromEntries(found)).toEqual({
      [c1!.hash]: c1!.boc,
      [d1!.hash]: d1!.boc,
      [c3!.hash]: c3!.boc,
      [d3!.hash]: d3!.boc,
      [c4!.hash]: c4!.boc,
      [d4!.hash]: d4!.boc,
    });
    // Nothing for the pruned data and nothing else: one row per distinct hash.
    const [n] = await store.query<{ n: string }>(`SELECT count() AS n FROM ${stateBocs.name}`);
    expect(Number(n?.n)).toBe(6);
  }, 120_000);
});
