import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { STORE_TABLES } from '../../services/indexer/rows.js';
import type { Store } from '../../shared/store/store.js';
import { describeFixtures } from '../helpers/fixtures.js';
import { type GatewayFixture, createGatewayFixture, get } from '../helpers/gateway.js';

/*
 * Transactions are served from `transaction_records` (0006) when the store has them, and assembled from the
 * flattened tables for rows written before that table existed. Both must give the same responses: one store is
 * filled with every table, the other with every table but `transaction_records` (a store upgraded from before
 * 0006), both from the real fixture blocks, with the gateway caches off so that every request reads the store.
 */

/** Records the text of every statement a store runs. */
function recordStatements(store: Store): string[] {
  const seen: string[] = [];
  const query = store.query.bind(store);
  store.query = ((sql: string, ...rest: Parameters<Store['query']> extends [unknown, ...infer R] ? R : never) => {
    seen.push(sql);
    return query(sql, ...rest);
  }) as Store['query'];
  return seen;
}

describeFixtures('gateway: transaction records and the flattened tables agree', () => {
  const noCaches = { cacheEntries: 0, txRecordCacheEntries: 0, addressBookTtlMs: 0 };
  let withRecords: GatewayFixture;
  let upgraded: GatewayFixture;
  let statements: string[];
  // One process runs one chdb data directory: both stores live in it, each in its own database.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tonflow-gateway-records-'));

  beforeAll(async () => {
    withRecords = await createGatewayFixture(noCaches, { dataDir });
    upgraded = await createGatewayFixture(noCaches, { dataDir, tables: STORE_TABLES.filter((t) => t !== 'transaction_records') });
    statements = recordStatements(withRecords.store);
  }, 120_000);
  afterAll(async () => {
    await withRecords?.close();
    await upgraded?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('every fixture transaction by hash: same response from the record as from the flattened rows', async () => {
    const hashes = withRecords.blocks.flatMap((b) => b.decoded.transactions.map((t) => t.hash));
    expect(hashes.length).toBeGreaterThan(1000);
    for (const h of hashes) {
      const url = `/api/v3/transactions?hash=${encodeURIComponent(h)}`;
      const [a, b] = await Promise.all([get(withRecords.app, url), get(upgraded.app, url)]);
      expect(a.status).toBe(200);
      expect(a.body.transactions).toHaveLength(1);
      expect(a.body).toEqual(b.body);
    }
  }, 300_000);

  it('account pages (every account, both orders) are the same from records and from rows', async () => {
    const accounts = [...new Set(withRecords.blocks.flatMap((b) => b.decoded.transactions.map((t) => t.account)))];
    for (const account of accounts) {
      for (const sort of ['desc', 'asc']) {
        const url = `/api/v3/transactions?account=${account}&limit=1000&sort=${sort}`;
        const [a, b] = await Promise.all([get(withRecords.app, url), get(upgraded.app, url)]);
        expect(a.status).toBe(200);
        expect(a.body.transactions.length).toBeGreaterThan(0);
        expect(a.body).toEqual(b.body);
      }
    }
  }, 300_000);

  it('a transaction by hash is one statement on transaction_records (plus states it lacks and the address book)', async () => {
    const tx = withRecords.blocks.flatMap((b) => b.decoded.transactions).find((t) => t.out_msgs.length > 0)!;
    statements.length = 0;
    const res = await get(withRecords.app, `/api/v3/transactions?hash=${encodeURIComponent(tx.hash)}`);
    expect(res.status).toBe(200);
    expect(res.body.transactions[0].hash).toBe(tx.hash);
    const reads = statements.filter((s) => !/latest_account_states|FROM account_states/.test(s));
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatch(/FROM transaction_records/);
  });

  it('an unknown hash still answers an empty page', async () => {
    const res = await get(withRecords.app, `/api/v3/transactions?hash=${encodeURIComponent(Buffer.alloc(32, 7).toString('base64'))}`);
    expect(res.status).toBe(200);
    expect(res.body.transactions).toEqual([]);
  });
});
