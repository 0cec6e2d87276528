import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../services/gateway/app.js';
import { createMetrics } from '../../shared/runtime/metrics.js';
import type { Store } from '../../shared/store/store.js';
import { describeFixtures } from '../helpers/fixtures.js';
import { type GatewayFixture, createGatewayFixture, silentLogger } from '../helpers/gateway.js';

/*
 * Point reads shared by concurrent requests (services/gateway/repo/batcher.ts): over the store filled from every
 * fixture block, with every gateway cache off, a burst of concurrent requests must get byte for byte the bodies
 * the same requests get one at a time, while the store sees fewer statements than requests.
 */

/** The store, counting the statements sent through `query`. */
function counting(store: Store): { store: Store; count: () => number } {
  let n = 0;
  const wrapped: Store = {
    get database() {
      return store.database;
    },
    command: (...a) => store.command(...a),
    insert: (...a) => store.insert(...a),
    insertEncoded: (...a) => store.insertEncoded(...a),
    columnTypes: (...a) => store.columnTypes(...a),
    query: (...a) => {
      n++;
      return store.query(...a);
    },
    close: () => store.close(),
  };
  return { store: wrapped, count: () => n };
}

const b64 = (hex: string): string => Buffer.from(hex, 'hex').toString('base64');

describeFixtures('gateway: concurrent point reads share statements', () => {
  let fx: GatewayFixture;
  let app: FastifyInstance;
  let statements: () => number;
  beforeAll(async () => {
    fx = await createGatewayFixture();
    const c = counting(fx.store);
    statements = c.count;
    app = await buildApp({
      store: c.store,
      logger: silentLogger(),
      metrics: createMetrics({ service: 'gateway', processMetrics: false }),
      config: {
        apiKeys: [],
        rpsWithoutKey: 0,
        testnet: false,
        validateResponses: true,
        cacheEntries: 0,
        txRecordCacheEntries: 0,
        addressBookTtlMs: 0,
        responseCacheEntries: 0,
      },
    });
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await fx?.close();
  });

  /** The bodies of `urls` requested all at once and one at a time, and the statements each way took. */
  async function both(urls: string[]): Promise<{ together: string[]; alone: string[]; sharedStatements: number; aloneStatements: number }> {
    const send = async (url: string): Promise<string> => {
      const r = await app.inject({ method: 'GET', url });
      expect(r.statusCode, `${url}: ${r.body.slice(0, 200)}`).toBe(200);
      return r.body;
    };
    const s0 = statements();
    const together = await Promise.all(urls.map(send));
    const s1 = statements();
    const alone: string[] = [];
    for (const u of urls) alone.push(await send(u));
    return { together, alone, sharedStatements: s1 - s0, aloneStatements: statements() - s1 };
  }

  it('blocks by seqno (alone, with workchain and shard, each sort order, paged) answer as one at a time', async () => {
    const blocks = fx.blocks.map((b) => b.decoded.block);
    const urls = blocks.flatMap((b) => [
      `/api/v3/blocks?seqno=${b.seqno}`,
      `/api/v3/blocks?seqno=${b.seqno}&sort=asc`,
      `/api/v3/blocks?workchain=${b.workchain}&shard=${b.shard}&seqno=${b.seqno}`,
      `/api/v3/blocks?workchain=${b.workchain === 0 ? -1 : 0}&seqno=${b.seqno}`,
      `/api/v3/blocks?seqno=${b.seqno}&limit=1&offset=1`,
    ]);
    const r = await both(urls);
    expect(r.together).toEqual(r.alone);
    // Each seqno names its fixture block (the MANIFEST ids), so the lookups found what they should.
    for (const [i, b] of blocks.entries()) {
      const got = JSON.parse(r.alone[i * 5]!).blocks as Array<{ workchain: number; shard: string; seqno: number }>;
      expect(got.map((x) => [x.workchain, x.shard, x.seqno])).toContainEqual([b.workchain, b.shard, b.seqno]);
    }
    expect(r.sharedStatements).toBeLessThan(r.aloneStatements / 2);
  });

  it('the seqno path orders and pages several blocks of one seqno as the general statement does', async () => {
    // A seqno that several blocks share: copies of a fixture block in other shards, with other gen_utimes.
    const src = fx.blocks.find((b) => b.decoded.block.workchain === 0)!;
    const row = src.rows.blocks[0]!;
    const seqno = 2_000_000_007;
    const copies = [
      { shard: '2305843009213693952', utime: 100 },
      { shard: '16140901064495857664', utime: 100 },
      { shard: '6917529027641081856', utime: 300 },
      { shard: '11529215046068469760', utime: 200 },
    ].map((c) => ({ ...row, seqno, shard: c.shard, gen_utime: c.utime }));
    await fx.store.insert('blocks', copies);
    for (const q of ['', '&sort=asc', '&limit=2', '&limit=2&offset=1&sort=asc', '&workchain=0', '&workchain=-1', '&shard=6917529027641081856']) {
      const point = await app.inject({ method: 'GET', url: `/api/v3/blocks?seqno=${seqno}${q}` });
      // start_lt >= 0 holds for every block: the same question, answered by the general statement.
      const general = await app.inject({ method: 'GET', url: `/api/v3/blocks?seqno=${seqno}${q}&start_lt=0` });
      expect(point.statusCode).toBe(200);
      expect(point.body, q).toBe(general.body);
    }
    const all = JSON.parse((await app.inject({ method: 'GET', url: `/api/v3/blocks?seqno=${seqno}` })).body).blocks as Array<{ shard: string; gen_utime: string }>;
    expect(all.map((b) => [b.gen_utime, b.shard])).toEqual([
      ['300', '6000000000000000'],
      ['200', 'A000000000000000'],
      ['100', '2000000000000000'],
      ['100', 'E000000000000000'],
    ]);
  });

  it('one account\'s transaction pages: concurrent ones share a statement and answer as one at a time and as the general statement', async () => {
    const counts = fx.blocks
      .flatMap((b) => b.rows.transactions)
      .reduce((m, t) => m.set(t.account, (m.get(t.account) ?? 0) + 1), new Map<string, number>());
    const accounts = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([a]) => a);
    expect(counts.get(accounts[0]!)).toBeGreaterThan(10);
    const urls = accounts.flatMap((a) => [
      `/api/v3/transactions?account=${a}`,
      `/api/v3/transactions?account=${a}&limit=3&offset=2`,
      `/api/v3/transactions?account=${a}&limit=4&sort=asc`,
    ]);
    const r = await both(urls);
    expect(r.together).toEqual(r.alone);
    expect(r.sharedStatements).toBeLessThan(r.aloneStatements / 2);
    for (const [i, u] of urls.entries()) {
      // start_lt=0 holds for every transaction: the same question, answered by the general listing of `transactions`.
      const [page, general] = await Promise.all([app.inject({ method: 'GET', url: u }), app.inject({ method: 'GET', url: `${u}&start_lt=0` })]);
      expect(general.body, u).toBe(r.alone[i]);
      expect(page.headers['x-next-cursor'], u).toBe(general.headers['x-next-cursor']);
      expect((JSON.parse(page.body) as { transactions: unknown[] }).transactions.length, u).toBeGreaterThan(0);
    }
  });

  it('transactionsByMessage by message hash (raw or normalized) orders and pages as the general statement does', async () => {
    const txs = fx.blocks.flatMap((b) => b.decoded.transactions);
    const all = txs.flatMap((t) => [...(t.in_msg ? [t.in_msg] : []), ...t.out_msgs]);
    // ~20 messages spread over every block (each case is 12 requests one after the other).
    const msgs = all.filter((_, i) => i % Math.ceil(all.length / 20) === 0);
    const externals = txs.flatMap((t) => (t.in_msg && t.in_msg.source === null && t.in_msg.hash_norm ? [t.in_msg] : [])).slice(0, 4);
    expect(msgs.length).toBeGreaterThanOrEqual(15);
    expect(externals.length).toBeGreaterThan(0);
    const cases = [
      ...msgs.map((m) => ({ hash: m.hash, body: m.message_content.hash })),
      ...externals.map((m) => ({ hash: m.hash_norm!, body: m.message_content.hash })),
    ];
    // Through the fixture's own app, its record caches on: this is about which keys in which order, not about sharing.
    let found = 0;
    for (const c of cases) {
      for (const q of ['', '&sort=asc', '&direction=in', '&direction=out', '&limit=1', '&limit=1&offset=1&sort=asc']) {
        const url = `/api/v3/transactionsByMessage?msg_hash=${encodeURIComponent(c.hash)}${q}`;
        const point = await fx.app.inject({ method: 'GET', url });
        // Every row of one message has its body hash: the same question, answered by the general statement.
        const general = await fx.app.inject({ method: 'GET', url: `${url}&body_hash=${encodeURIComponent(c.body)}` });
        expect(point.statusCode).toBe(200);
        expect(point.body, url).toBe(general.body);
        if (q === '') found += (JSON.parse(point.body).transactions as unknown[]).length;
      }
    }
    expect(found).toBeGreaterThan(cases.length);
  }, 120_000);

  it('transactions by hash and by account, transactionsByMessage and accountStates answer as one at a time', async () => {
    const txs = fx.blocks.flatMap((b) => b.decoded.transactions);
    const sample = txs.filter((_, i) => i % 23 === 0);
    expect(sample.length).toBeGreaterThan(40);
    const urls = [
      ...sample.map((t) => `/api/v3/transactions?hash=${encodeURIComponent(t.hash)}`),
      ...sample.slice(0, 20).map((t) => `/api/v3/transactions?account=${t.account}&limit=5`),
      ...sample.filter((t) => t.in_msg).slice(0, 20).map((t) => `/api/v3/transactionsByMessage?msg_hash=${encodeURIComponent(t.in_msg!.hash)}`),
      ...sample.slice(0, 30).map((t) => `/api/v3/accountStates?address=${t.account}`),
      `/api/v3/transactions?hash=${encodeURIComponent(b64('00'.repeat(32)))}`,
    ];
    const r = await both(urls);
    expect(r.together).toEqual(r.alone);
    for (const [i, t] of sample.entries()) {
      const got = JSON.parse(r.alone[i]!).transactions as Array<{ hash: string; lt: string; account: string }>;
      expect(got.map((x) => [x.hash, x.lt, x.account])).toEqual([[t.hash, t.lt, t.account]]);
    }
    expect(JSON.parse(r.alone[r.alone.length - 1]!).transactions).toEqual([]);
    expect(r.sharedStatements).toBeLessThan(r.aloneStatements / 2);
  });
});
