import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { NonRetryableError } from './errors.js';
import { createLogger } from './logger.js';
import { createMetrics } from './metrics.js';
import { createOpsServer, type OpsServer, type OpsServerOptions } from './ops-server.js';

const logger = createLogger({ service: 'test', level: 'silent' });
const servers: OpsServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(overrides: Partial<OpsServerOptions> = {}): Promise<string> {
  const server = createOpsServer({
    port: 0,
    host: '127.0.0.1',
    metrics: createMetrics({ service: 'test' }),
    ready: () => true,
    logger,
    ...overrides,
  });
  servers.push(server);
  const port = await server.listen();
  return `http://127.0.0.1:${port}`;
}

describe('createOpsServer over real HTTP', () => {
  it('answers /health with 200 {"status":"ok"}', async () => {
    const res = await fetch(`${await start()}/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('answers /ready with 503 starting until ready() says so, then 200 ready', async () => {
    let caughtUp = false;
    const base = await start({ ready: async () => caughtUp });
    const before = await fetch(`${base}/ready`);
    expect(before.status).toBe(503);
    expect(await before.json()).toEqual({ status: 'starting' });
    caughtUp = true;
    const after = await fetch(`${base}/ready?verbose=1`);
    expect(after.status).toBe(200);
    expect(await after.json()).toEqual({ status: 'ready' });
  });

  it('counts a failing readiness check as not ready', async () => {
    const base = await start({
      ready: () => {
        throw new Error('store unreachable');
      },
    });
    const res = await fetch(`${base}/ready`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'starting' });
  });

  it('serves Prometheus text with declared and process metrics', async () => {
    const metrics = createMetrics({ service: 'follower' });
    metrics.counter({ name: 'blocks_published', unit: 'total', help: 'Blocks published' }).inc(3);
    const res = await fetch(`${await start({ metrics })}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(metrics.contentType);
    const text = await res.text();
    expect(text).toContain('ton_follower_blocks_published_total 3');
    expect(text).toContain('process_cpu_user_seconds_total');
  });

  it('answers unknown paths with 404, other methods with 405, and a failing scrape with a masked 500', async () => {
    const base = await start({
      metrics: { contentType: 'text/plain', text: () => Promise.reject(new Error('collector exploded')) },
    });
    const missing = await fetch(`${base}/status`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'NOT_FOUND' });
    const post = await fetch(`${base}/health`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    const head = await fetch(`${base}/health`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    const broken = await fetch(`${base}/metrics`);
    expect(broken.status).toBe(500);
    expect(await broken.json()).toEqual({ code: 'INTERNAL', message: 'internal error' });
  });

  it('closes promptly although a client holds a keep-alive connection', async () => {
    const server = createOpsServer({ port: 0, host: '127.0.0.1', metrics: createMetrics({ service: 'test' }), ready: () => true, logger });
    const port = await server.listen();
    const agent = new http.Agent({ keepAlive: true });
    await new Promise<void>((resolve, reject) =>
      http.get({ port, host: '127.0.0.1', path: '/health', agent }, (res) => res.resume().on('end', resolve)).on('error', reject),
    );
    const started = performance.now();
    await server.close();
    // Below Node's 5 s keep-alive timeout, which would otherwise be what ends the held connection.
    expect(performance.now() - started).toBeLessThan(4_000);
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
    agent.destroy();
    await server.close(); // closing twice is harmless
  });

  it('rejects with a NonRetryableError when the port is taken', async () => {
    const base = await start();
    const port = Number(new URL(base).port);
    const second = createOpsServer({ port, host: '127.0.0.1', metrics: createMetrics({ service: 'test' }), ready: () => true, logger });
    const err = await second.listen().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NonRetryableError);
    expect((err as NonRetryableError).code).toBe('OPS_LISTEN_FAILED');
    expect((err as Error).message).toContain('EADDRINUSE');
  });
});
