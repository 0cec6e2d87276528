import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../shared/runtime/logger.js';
import { createMetrics } from '../../shared/runtime/metrics.js';
import { StoreUnavailableError } from '../../shared/store/errors.js';
import type { Store } from '../../shared/store/store.js';
import { type GatewayFixture, createGatewayFixture } from '../../test/helpers/gateway.js';
import { type GatewayAppConfig, buildApp } from './app.js';

/*
 * What any client can send must not cost the gateway a 500, an error-level line, or a leaked API key
 * (Hardening, items 3-5). The store is a real embedded ClickHouse filled from the fixture blocks; log lines are
 * captured as the JSON pino writes.
 */

interface Captured {
  lines: Record<string, unknown>[];
  text(): string;
}

function capturingLogger() {
  const captured: Captured = {
    lines: [],
    text: () => captured.lines.map((l) => JSON.stringify(l)).join('\n'),
  };
  const logger = createLogger({
    service: 'test',
    level: 'trace',
    destination: new Writable({
      write(chunk: Buffer, _e, cb) {
        for (const line of chunk.toString('utf8').split('\n')) if (line !== '') captured.lines.push(JSON.parse(line) as Record<string, unknown>);
        cb();
      },
    }),
  });
  return { logger, captured };
}

const errorLines = (c: Captured) => c.lines.filter((l) => l.level === 'error' || l.level === 'fatal' || l.level === 'warn');

let fx: GatewayFixture;

beforeAll(async () => {
  fx = await createGatewayFixture();
});
afterAll(async () => {
  await fx?.close();
});

async function appOn(store: Store, config: Partial<GatewayAppConfig> = {}) {
  const { logger, captured } = capturingLogger();
  const metrics = createMetrics({ service: 'gateway', processMetrics: false });
  const app = await buildApp({
    store,
    logger,
    metrics,
    config: { apiKeys: [], rpsWithoutKey: 0, testnet: false, validateResponses: true, responseCacheEntries: 0, ...config },
  });
  return { app, captured, metrics };
}

describe('client input never causes a 500 or an error-level line (Hardening 5)', () => {
  let app: FastifyInstance;
  let captured: Captured;
  beforeAll(async () => {
    ({ app, captured } = await appOn(fx.store, { cacheEntries: 0, txRecordCacheEntries: 0 }));
  });
  afterAll(async () => {
    await app?.close();
  });

  it('a cursor whose now is beyond 2^53 is an invalid cursor (422)', async () => {
    for (const now of [2 ** 53, 1e300, -(2 ** 60), 1.5]) {
      // A cursor the server issued, with only `now` changed: everything else matches the listing.
      const first = await app.inject({ method: 'GET', url: '/api/v3/transactions?limit=1' });
      const real = JSON.parse(Buffer.from(String(first.headers['x-next-cursor']), 'base64url').toString('utf8')) as Record<string, unknown>;
      const forged = Buffer.from(JSON.stringify({ ...real, now })).toString('base64url');
      for (const c of [forged]) {
        const r = await app.inject({ method: 'GET', url: `/api/v3/transactions?limit=1&cursor=${c}` });
        expect(r.statusCode, `now=${now}: ${r.body}`).toBe(422);
        expect(r.json()).toEqual({ error: 'invalid cursor' });
      }
    }
    expect(errorLines(captured)).toEqual([]);
  });

  it('JSON-RPC params nested 5,000 deep: 422 in the v2 envelope', async () => {
    // Written as text: JSON.stringify itself overflows on such a value.
    const params = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
    const bodies = [
      `{"jsonrpc":"2.0","id":7,"method":"getMasterchainInfo","params":${params}}`,
      `{"jsonrpc":"2.0","id":7,"method":"getBlockHeader","params":{"workchain":-1,"shard":${params},"seqno":1}}`,
      `{"jsonrpc":"2.0","id":7,"method":"getMasterchainInfo","params":${'['.repeat(5000)}${']'.repeat(5000)}}`,
    ];
    for (const payload of bodies) {
      const r = await app.inject({ method: 'POST', url: '/api/v2/jsonRPC', payload, headers: { 'content-type': 'application/json' } });
      expect(r.statusCode, r.body).toBe(422);
      expect(r.json()).toMatchObject({ ok: false, code: 422, error: expect.stringMatching(/nested/) });
    }
    // Deep nesting in a v3 POST body too.
    const r = await app.inject({ method: 'POST', url: '/api/v3/message', payload: `{"boc":${params}}`, headers: { 'content-type': 'application/json' } });
    expect(r.statusCode).toBeGreaterThanOrEqual(400);
    expect(r.statusCode).toBeLessThan(500);
    expect(r.json()).toHaveProperty('error');
    expect(errorLines(captured)).toEqual([]);
  });

  it('X-Timeout shorter than the statement: 4xx naming the deadline, logged at info', async () => {
    // Uncached heavy pages: the statement takes longer than 1 ms, so the client's deadline expires first.
    let timedOut = 0;
    for (let i = 0; i < 5 && timedOut === 0; i++) {
      for (const url of ['/api/v3/transactions?limit=1000', `/api/v3/transactions?limit=1000&offset=${i + 1}&x_timeout=1`]) {
        const r = await app.inject({ method: 'GET', url, headers: url.includes('x_timeout') ? {} : { 'x-timeout': '1' } });
        expect(r.statusCode, r.body).not.toBeGreaterThanOrEqual(500);
        if (r.statusCode !== 200) {
          expect(r.statusCode).toBe(408);
          expect(r.json()).toEqual({ error: 'timeout after 1 ms (X-Timeout)' });
          timedOut++;
        }
      }
    }
    expect(timedOut, 'a 1 ms deadline expired at least once').toBeGreaterThan(0);
    expect(errorLines(captured)).toEqual([]);
    expect(captured.lines.some((l) => l.msg === 'request deadline expired' && l.level === 'info')).toBe(true);
  });

  it('a bad percent-encoded path: 400 in the {"error"} shape, with the CORS headers of every answer', async () => {
    for (const url of ['/api/v3/%E0%A4%A', '/api/v3/transactions/%zz?limit=1', '/api/v2/%E0%A4%A']) {
      const r = await app.inject({ method: 'GET', url, headers: { origin: 'https://example.org' } });
      expect(r.statusCode, url).toBe(400);
      expect(Object.keys(r.json() as object)).toContain('error');
      expect(r.json()).not.toHaveProperty('statusCode');
      expect(r.headers['access-control-allow-origin']).toBe('*');
    }
    expect(errorLines(captured)).toEqual([]);
  });
});

describe('API keys never reach a log line (Hardening 3)', () => {
  it('store failures, not-found and bad-URL lines carry the URL without the key', async () => {
    const failing = new Proxy(fx.store, {
      get: (t, p, r) =>
        p === 'query' || p === 'queryFields' ? () => Promise.reject(new StoreUnavailableError('STORE_UNAVAILABLE', 'connection refused')) : Reflect.get(t, p, r),
    });
    const secret = 'sEcReT-kEy-0123456789';
    const { app, captured, metrics } = await appOn(failing, { apiKeys: [{ key: secret, rps: 0, account: 'a' }], cacheEntries: 0, txRecordCacheEntries: 0 });
    try {
      const r = await app.inject({ method: 'GET', url: `/api/v3/masterchainInfo?api_key=${secret}` });
      expect(r.statusCode).toBe(500);
      await app.inject({ method: 'GET', url: `/api/v3/blocks?limit=1&API_KEY=${secret}&x=1`, headers: { 'x-api-key': secret } });
      await app.inject({ method: 'GET', url: `/api/v3/%E0%A4%A?api_key=${secret}` });
      await app.inject({ method: 'GET', url: `/api/v3/transactions?api_key=${encodeURIComponent(secret)}&cursor=%%%`, headers: { 'X-API-Key': secret } });
      const failed = captured.lines.filter((l) => l.msg === 'store query failed');
      expect(failed.length).toBeGreaterThan(0);
      expect(String(failed[0]!.url)).toMatch(/^\/api\/v3\/masterchainInfo\?api_key=\[redacted\]$/);
      expect(captured.text()).not.toContain(secret);
      expect(await metrics.text()).not.toContain(secret);
    } finally {
      await app.close();
    }
  });
});
