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

/** The store, counting the statements sent through `query` and keeping their SQL. */
function counting(store: Store): { store: Store; count: () => number; sql: string[] } {
  let n = 0;
  const sql: string[] = [];
  const wrapped: Store = {
    get database() {
      return store.database;
    },
    get pointReadSettings() {
      return store.pointReadSettings;
    },
    command: (...a) => store.command(...a),
    insert: (...a) => store.insert(...a),
    insertEncoded: (...a) => store.insertEncoded(...a),
    columnTypes: (...a) => store.columnTypes(...a),
    query: (...a) => {
      n++;
      sql.push(a[0]);
      return store.query(...a);
    },
    queryFields: (...a) => {
      n++;
      sql.push(a[0]);
      return store.queryFields(...a);
    },
    close: () => store.close(),
  };
  return { store: wrapped, count: () => n, sql };
}

const b64 = (hex: string): string => Buffer.from(hex, 'hex').toString('base64');

describeFixtures('gateway: concurrent point reads share statements', () => {
  let fx: GatewayFixture;
  let app: FastifyInstance;
  let statements: () => number;
  let sent: string[];
  beforeAll(async () => {
    fx = await createGatewayFixture();
    const c = counting(fx.store);
    statements = c.count;
    sent = c.sql;
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
  });
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

  it('newest pages from account_recent_transactions answer as the general listing, with unmerged parts and replays', async () => {
    // An account of 100 transactions (made from a fixture row), written in two inserts with merges stopped: a state per
    // part, the first holding 64 of its 70 rows. Then 80 of them written twice more, each state again full.
    const template = fx.blocks.flatMap((b) => b.rows.transactions)[0]!;
    const account = `0:${'AB'.repeat(32)}`;
    const row = (i: number): typeof template => ({
      ...template,
      account,
      lt: String(90_000_000_000n + BigInt(i) * 7n),
      now: 1_700_000_000 + i,
      hash: Buffer.from(`recent-${String(i).padStart(25, '0')}`).toString('base64'),
      mc_block_seqno: null,
    });
    const rows = Array.from({ length: 100 }, (_, i) => row(i));
    const pages = async (): Promise<void> => {
      for (const q of ['', '&limit=10&offset=20', '&limit=20&offset=30', '&limit=64', '&limit=30&offset=34', '&limit=5&offset=59', '&limit=10&offset=70', '&sort=asc&limit=7']) {
        const u = `/api/v3/transactions?account=${account}${q}`;
        const [page, general] = await Promise.all([app.inject({ method: 'GET', url: u }), app.inject({ method: 'GET', url: `${u}&start_lt=0` })]);
        expect(page.statusCode, page.body.slice(0, 200)).toBe(200);
        expect(page.body, u).toBe(general.body);
        expect(page.headers['x-next-cursor'], u).toBe(general.headers['x-next-cursor']);
        expect((JSON.parse(page.body) as { transactions: unknown[] }).transactions.length, u).toBeGreaterThan(0);
      }
    };
    const recentOnly = async (u: string): Promise<string[]> => {
      const from = sent.length;
      expect((await app.inject({ method: 'GET', url: u })).statusCode).toBe(200);
      return sent.slice(from).filter((q) => /\baccount_(recent_)?transactions\b/.test(q));
    };
    await fx.store.command('SYSTEM STOP MERGES account_recent_transactions');
    try {
      for (const part of [rows.slice(0, 70), rows.slice(70)]) await fx.store.insert('transactions', part);
      const states = async (): Promise<number> =>
        Number((await fx.store.query<{ n: string }>('SELECT count() AS n FROM account_recent_transactions WHERE account = {a:String}', { a: account }))[0]!.n);
      expect(await states()).toBe(2);
      await pages();
      // The newest 64 rows are known without account_transactions: such a page reads the recent states only.
      expect(await recentOnly(`/api/v3/transactions?account=${account}&limit=40&offset=24`)).toEqual([
        expect.stringContaining('account_recent_transactions'),
      ]);
      for (let copy = 0; copy < 2; copy++) await fx.store.insert('transactions', rows.slice(20));
      expect(await states()).toBe(4);
      await pages();
      expect(await recentOnly(`/api/v3/transactions?account=${account}&limit=40&offset=24`)).toEqual([
        expect.stringContaining('account_recent_transactions'),
      ]);
      // Merged into one state, the replayed lts stay in it three times over (groupArraySorted keeps repeats): the 64
      // kept lts are the newest 22 rows, so a page ending past them is read from account_transactions, where the
      // replays not merged yet make the page short and it is read again with more rows.
      await fx.store.command('SYSTEM START MERGES account_recent_transactions');
      await fx.store.command('OPTIMIZE TABLE account_recent_transactions FINAL');
      expect(await states()).toBe(1);
      await pages();
      const deep = await recentOnly(`/api/v3/transactions?account=${account}&limit=10&offset=20`);
      expect(deep[0]).toContain('account_recent_transactions');
      expect(deep.slice(1).length).toBeGreaterThan(0);
      for (const q of deep.slice(1)) expect(q).toContain('FROM account_transactions');
      expect(await recentOnly(`/api/v3/transactions?account=${account}&limit=10&offset=12`)).toEqual([
        expect.stringContaining('account_recent_transactions'),
      ]);
      // Older rows written again in a part of their own: that state is not full, so its lts are all there, but they
      // lie below the merged state's floor, where the rows the merged state dropped are missing. Only the 22 rows at
      // or above the floor may be used; the rows 10-20 of this part must not fill the page after them.
      await fx.store.command('SYSTEM STOP MERGES account_recent_transactions');
      await fx.store.insert('transactions', rows.slice(10, 21));
      expect(await states()).toBe(2);
      await pages();
      const below = await recentOnly(`/api/v3/transactions?account=${account}&limit=10&offset=20`);
      expect(below[0]).toContain('account_recent_transactions');
      expect(below.length).toBeGreaterThan(1);
    } finally {
      await fx.store.command('SYSTEM START MERGES account_recent_transactions');
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
  });

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

  it('accountStates takes each account\'s newest row whatever part holds it: an older row inserted later does not hide it', async () => {
    const latest = fx.blocks.flatMap((b) => b.rows.latest_account_states);
    // Accounts that are in one fixture block only, so the fixture holds one row each.
    const once = [...latest.reduce((m, r) => m.set(r.account, (m.get(r.account) ?? 0) + 1), new Map<string, number>())].filter(([, n]) => n === 1);
    const rows = once.slice(0, 6).map(([a]) => latest.find((r) => r.account === a)!);
    expect(rows.length).toBe(6);
    const balanceOf = async (account: string): Promise<string> => {
      const r = await app.inject({ method: 'GET', url: `/api/v3/accountStates?address=${account}` });
      expect(r.statusCode, r.body.slice(0, 200)).toBe(200);
      return (JSON.parse(r.body).accounts as Array<{ balance: string }>)[0]!.balance;
    };
    // Older states (a replayed block) arrive after the newest, each insert a part of its own; then a newer state of
    // half of the accounts.
    await fx.store.insert('latest_account_states', rows.map((r) => ({ ...r, last_trans_lt: String(BigInt(r.last_trans_lt) - 1n), balance: '1' })));
    await fx.store.insert('latest_account_states', rows.map((r) => ({ ...r, last_trans_lt: String(BigInt(r.last_trans_lt) - 2n), balance: '2' })));
    const newer = rows.slice(0, 3);
    await fx.store.insert('latest_account_states', newer.map((r) => ({ ...r, last_trans_lt: String(BigInt(r.last_trans_lt) + 1n), balance: '3' })));
    const answers = await Promise.all(rows.map((r) => balanceOf(r.account)));
    expect(answers).toEqual(rows.map((r, i) => (i < 3 ? '3' : String(r.balance))));
  });
});
