import Fastify from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RECORDS_PER_SLICE, createJsonPages } from './json-page.js';

// A page shaped as the gateway's: a list with a sibling after it, 64-bit numbers as strings, nulls, nested objects,
// and a text needing JSON escapes.
const Item = z.object({ lt: z.string(), n: z.number(), in_msg: z.object({ hash: z.string(), body: z.string() }).nullable(), tags: z.array(z.string()) });
const Page = z.object({ transactions: z.array(Item), address_book: z.record(z.string(), z.object({ user_friendly: z.string().nullable() })) });

function page(n: number) {
  return {
    transactions: Array.from({ length: n }, (_, i) => ({
      lt: String(2n ** 63n - BigInt(i)),
      n: i,
      in_msg: i % 3 === 0 ? null : { hash: `h${i}`, body: `"quoted" \\ é \u0001 ${i}` },
      tags: i % 2 ? [] : ['a', 'b'],
    })),
    address_book: { '0:AB': { user_friendly: 'EQ…' }, '-1:CD': { user_friendly: null } },
  };
}

async function serve(validate: boolean, body: ReturnType<typeof page>) {
  const app = Fastify();
  const pages = createJsonPages({ validate });
  if (validate) app.setSerializerCompiler(serializerCompiler);
  else app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  let turns = 0;
  app.get('/p', { schema: { response: { 200: Page } } }, async (_req, reply) => {
    // Counts the event loop turns other work gets while the page is built.
    let building = true;
    const tick = (): void => {
      if (!building) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const out = await pages.send(reply, Page, body, 'transactions');
    building = false;
    return out;
  });
  const res = await app.inject('/p');
  await app.close();
  return { res, turns };
}

describe('sliced JSON pages', () => {
  it.each([false, true])('sends the bytes JSON.stringify (validate=%s: the zod serializer) would, with Content-Length', async (validate) => {
    const body = page(RECORDS_PER_SLICE * 3 + 7);
    const { res, turns } = await serve(validate, body);
    expect(res.statusCode).toBe(200);
    const expected = validate ? JSON.stringify(z.encode(Page, body)) : JSON.stringify(body);
    expect(res.body).toBe(expected);
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(expected)));
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    // Four slices: the loop ran between them.
    expect(turns).toBeGreaterThanOrEqual(3);
  });

  it('leaves a short list to the route serializer', async () => {
    const body = page(RECORDS_PER_SLICE);
    const { res } = await serve(false, body);
    expect(res.body).toBe(JSON.stringify(body));
  });

  it('refuses a record its schema does not accept, before anything is sent', async () => {
    const body = page(RECORDS_PER_SLICE * 2);
    (body.transactions[150] as { n: unknown }).n = 'not a number';
    const { res } = await serve(true, body);
    expect(res.statusCode).toBe(500);
  });

  // A v2 envelope: the list inside `result`, and the same answer over JSON-RPC, whose schema types `result` as unknown
  // (the route's serializer sends it as it is) and whose `id` is the client's.
  const Envelope = z.object({ ok: z.literal(true), result: z.object({ '@type': z.literal('blocks.transactionsExt'), transactions: z.array(Item), '@extra': z.string() }) });
  const Rpc = z.object({ ok: z.boolean(), result: z.unknown().optional(), jsonrpc: z.literal('2.0'), id: z.unknown() });

  async function serveNested(validate: boolean, schema: z.ZodObject, body: Record<string, unknown>, key: readonly [string, ...string[]]) {
    const app = Fastify();
    app.setSerializerCompiler(validate ? serializerCompiler : () => (data) => JSON.stringify(data));
    const pages = createJsonPages({ validate });
    app.get('/p', { schema: { response: { 200: schema } } }, async (_req, reply) => pages.send(reply, schema, body, key));
    const res = await app.inject('/p');
    await app.close();
    return res;
  }

  it.each([false, true])('a list inside nested objects (validate=%s), in a schema typed through and as unknown', async (validate) => {
    const result = { '@type': 'blocks.transactionsExt' as const, transactions: page(RECORDS_PER_SLICE * 2 + 1).transactions, '@extra': '1.5:0:0.25' };
    const v2 = { ok: true as const, result };
    const a = await serveNested(validate, Envelope, v2, ['result', 'transactions']);
    expect(a.body).toBe(validate ? JSON.stringify(z.encode(Envelope, v2)) : JSON.stringify(v2));
    expect(a.headers['content-length']).toBe(String(Buffer.byteLength(a.body)));
    // A client's id shaped like a placeholder is sent as the id, nothing else.
    for (const id of ['\u0000tonflow-list\u0000', { x: '"]' }]) {
      const rpc = { ...v2, jsonrpc: '2.0' as const, id };
      const b = await serveNested(validate, Rpc, rpc, ['result', 'transactions']);
      expect(b.body).toBe(JSON.stringify(rpc));
      const top = { ok: true, result: result.transactions, jsonrpc: '2.0' as const, id };
      expect((await serveNested(validate, Rpc, top, ['result'])).body).toBe(JSON.stringify(top));
    }
  });
});
