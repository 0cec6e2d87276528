import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetrics } from '../../shared/runtime/metrics.js';
import { type GatewayFixture, createGatewayFixture, silentLogger } from '../../test/helpers/gateway.js';
import { type GatewayAppConfig, buildApp } from './app.js';

/*
 * Hardening 2: heavy reads are admitted a few at a time, a bounded number wait, the rest get 503 with Retry-After
 * in TON Center's error shape; light requests never wait behind them. A real embedded store filled from the fixture
 * blocks, every cache off so that each page is read and built.
 */

let fx: GatewayFixture;
beforeAll(async () => {
  fx = await createGatewayFixture();
});
afterAll(async () => {
  await fx?.close();
});

const HEAVY = (i: number) => `/api/v3/transactions?limit=1000&offset=${i}`;

async function appWith(config: Partial<GatewayAppConfig>) {
  const metrics = createMetrics({ service: 'gateway', processMetrics: false });
  const app = await buildApp({
    store: fx.store,
    logger: silentLogger(),
    metrics,
    config: {
      apiKeys: [], rpsWithoutKey: 0, testnet: false, validateResponses: false,
      responseCacheEntries: 0, cacheEntries: 0, txRecordCacheEntries: 0, addressBookTtlMs: 0,
      ...config,
    },
  });
  return { app, metrics };
}

describe('load shedding of heavy reads', () => {
  let app: FastifyInstance;
  let metrics: ReturnType<typeof createMetrics>;
  beforeAll(async () => {
    ({ app, metrics } = await appWith({ heavyInFlight: 1, heavyQueue: 2, heavyRows: 100 }));
  });
  afterAll(async () => {
    await app?.close();
  });

  it('serves one heavy page at a time, queues two, refuses the rest with 503 + Retry-After', async () => {
    const order: string[] = [];
    const heavy = Array.from({ length: 6 }, (_, i) =>
      app.inject({ method: 'GET', url: HEAVY(i) }).then((r) => {
        order.push(`heavy ${r.statusCode}`);
        return r;
      }),
    );
    const light = app.inject({ method: 'GET', url: '/api/v3/masterchainInfo' }).then((r) => {
      order.push(`light ${r.statusCode}`);
      return r;
    });
    const results = await Promise.all(heavy);
    expect((await light).statusCode).toBe(200);
    const ok = results.filter((r) => r.statusCode === 200);
    const refused = results.filter((r) => r.statusCode === 503);
    expect(ok).toHaveLength(3);
    expect(refused).toHaveLength(3);
    for (const r of refused) {
      expect(r.headers['retry-after']).toBe('1');
      expect(r.json()).toEqual({ error: expect.stringMatching(/busy/) });
      expect(r.headers['access-control-allow-origin']).toBe('*');
    }
    // The light request did not wait for the queued heavy ones: it finished before the last heavy page.
    const lastHeavy = order.lastIndexOf('heavy 200');
    expect(order.indexOf('light 200')).toBeLessThan(lastHeavy);
    expect(await metrics.text()).toMatch(/shed_requests_total\{[^}]*reason="queue_full"[^}]*\} 3/);
    // A page within the heavy threshold never queues.
    expect((await app.inject({ method: 'GET', url: '/api/v3/transactions?limit=100' })).statusCode).toBe(200);
  });
});

describe('response bytes in flight', () => {
  it('refuses heavy requests while responses to slow readers hold more than the cap', async () => {
    const { app } = await appWith({ heavyInFlight: 8, heavyQueue: 8, responseBytesInFlight: 64 * 1024 });
    // A Unix socket: its kernel buffers hold a few hundred KB, where loopback TCP's autotuned ones swallow a whole
    // 4 MB answer; what a slow reader leaves unread then stays in the gateway, as over a real network.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tonflow-shed-'));
    const sock = path.join(dir, 'gw.sock');
    await app.listen({ path: sock });
    const stalled: net.Socket[] = [];
    try {
      // Clients that send a heavy request and stop reading once the answer starts: its bytes stay in flight.
      for (let i = 0; i < 4; i++) {
        const s = net.connect(sock);
        stalled.push(s);
        await new Promise<void>((resolve) => {
          s.once('data', () => {
            s.pause();
            resolve();
          });
          s.write(`GET ${HEAVY(i)} HTTP/1.1\r\nHost: x\r\n\r\n`);
        });
      }
      const r = await app.inject({ method: 'GET', url: HEAVY(10) });
      expect(r.statusCode).toBe(503);
      expect(r.headers['retry-after']).toBe('1');
      expect((await app.inject({ method: 'GET', url: '/api/v3/masterchainInfo' })).statusCode).toBe(200);
    } finally {
      for (const s of stalled) s.destroy();
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
