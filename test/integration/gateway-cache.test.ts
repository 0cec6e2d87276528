import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeFixtures } from '../helpers/fixtures.js';
import { type GatewayFixture, createGatewayFixture, get } from '../helpers/gateway.js';
import { patience } from '../helpers/patience.js';

/*
 * The whole-response cache (services/gateway/response-cache.ts) on the real app and store: a repeated read is
 * answered from it, a change of the store (a new part) empties it within its check interval, and it never
 * answers a request the rate limit refuses.
 */

describeFixtures('gateway: whole-response cache over a changing store', () => {
  let fx: GatewayFixture;
  beforeAll(async () => {
    fx = await createGatewayFixture({ responseCacheEntries: 1000, responseCacheCheckMs: 50 });
  });
  afterAll(async () => fx?.close());

  it('answers a repeated read from the cache, and reads the store again once a new block is stored', async () => {
    const b = fx.blocks.find((x) => x.decoded.block.workchain === 0 && x.decoded.transactions.length > 0)!.rows.blocks[0]!;
    const url = `/api/v3/blocks?seqno=${b.seqno}`;
    const first = await get(fx.app, url);
    expect(first.status).toBe(200);
    expect(first.headers['x-cache']).toBeUndefined();
    const n = first.body.blocks.length;
    expect(n).toBeGreaterThan(0);

    const second = await get(fx.app, url);
    expect(second.headers['x-cache']).toBe('hit');
    expect(second.body).toEqual(first.body);

    // Another shard's block with the same seqno: the answer must grow once the cache saw the new part.
    await fx.store.insert('blocks', [{ ...b, shard: '2305843009213693952', root_hash: Buffer.alloc(32, 1).toString('base64') }]);
    let after = await get(fx.app, url);
    // The cache checks the store version every 500 ms (responseCacheCheckMs).
    for (const end = Date.now() + patience(1_000); after.body.blocks.length === n && Date.now() < end; ) {
      await new Promise((r) => setTimeout(r, 25));
      after = await get(fx.app, url);
    }
    expect(after.body.blocks.length).toBe(n + 1);
    expect(after.headers['x-cache']).toBeUndefined();
  });

  it('keys by parameters: another seqno is not a hit, and the API key does not matter', async () => {
    const seqno = fx.blocks[0]!.decoded.block.seqno;
    await get(fx.app, `/api/v3/blocks?seqno=${seqno}`);
    const again = await get(fx.app, `/api/v3/blocks?seqno=${seqno}&api_key=whatever`);
    // An unknown key is refused by the limiter before the cache is consulted.
    expect(again.status).toBe(401);
    const other = await get(fx.app, `/api/v3/blocks?seqno=${seqno + 1}`);
    expect(other.headers['x-cache']).toBeUndefined();
  });

  it('does not keep answers to very long request lines (they would crowd out the cache)', async () => {
    const seqno = fx.blocks[0]!.decoded.block.seqno;
    const long = `/api/v3/blocks?seqno=${seqno}&pad=${'x'.repeat(20_000)}`;
    expect((await get(fx.app, long)).status).toBe(200);
    expect((await get(fx.app, long)).headers['x-cache']).toBeUndefined();
    const short = `/api/v3/blocks?seqno=${seqno}&pad=x`;
    await get(fx.app, short);
    expect((await get(fx.app, short)).headers['x-cache']).toBe('hit');
  });

  it('does not cache errors', async () => {
    const bad = await get(fx.app, '/api/v3/transactions?account=not-an-address');
    expect(bad.status).toBe(422);
    const again = await get(fx.app, '/api/v3/transactions?account=not-an-address');
    expect(again.status).toBe(422);
    expect(again.headers['x-cache']).toBeUndefined();
  });
});
