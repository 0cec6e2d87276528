import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../services/gateway/app.js';
import { parseApiKeys } from '../../services/gateway/auth.js';
import { createMetrics } from '../../shared/runtime/metrics.js';
import type { Store } from '../../shared/store/store.js';
import { silentLogger } from '../helpers/gateway.js';

/*
 * API keys and rate limits through the real app (auth-limits.md): the key in `X-API-Key` or `api_key`, TON Center's
 * 401 and 429 bodies, a shared budget per account, the keyless limit per client, documentation never limited.
 * The requests used here never reach the store (an address book of unparsable strings), so a store that fails
 * every call proves it.
 */

const failingStore: Store = {
  database: 'none',
  pointReadSettings: 'max_threads = 1',
  command: () => Promise.reject(new Error('no store in this test')),
  insert: () => Promise.reject(new Error('no store in this test')),
  insertEncoded: () => Promise.reject(new Error('no store in this test')),
  columnTypes: () => Promise.reject(new Error('no store in this test')),
  query: () => Promise.reject(new Error('no store in this test')),
  queryFields: () => Promise.reject(new Error('no store in this test')),
  close: () => Promise.resolve(),
};

const URL = '/api/v3/addressBook?address=nothing';

describe('gateway: API keys and rate limits', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = await buildApp({
      store: failingStore,
      logger: silentLogger(),
      metrics: createMetrics({ service: 'gateway', processMetrics: false }),
      config: {
        apiKeys: parseApiKeys({ file: JSON.stringify([{ key: 'plus-1', rps: 3, account: 'acme' }, { key: 'plus-2', rps: 3, account: 'acme' }]), env: 'unlimited:0' }),
        rpsWithoutKey: 1,
        testnet: false,
      },
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  const call = (url: string, headers: Record<string, string> = {}, ip = '10.0.0.1') => app.inject({ method: 'GET', url, headers, remoteAddress: ip });

  it('without a key: one request per second per client, then 429 with the documented body', async () => {
    const first = await call(URL, {}, '10.0.0.1');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ nothing: { user_friendly: null, domain: null, interfaces: [] } });
    const second = await call(URL, {}, '10.0.0.1');
    expect(second.statusCode).toBe(429);
    expect(second.json()).toEqual({ ok: false, result: 'Ratelimit exceed', code: 429, error: 'Ratelimit exceeded' });
    // Another client has its own budget; v2 paths share the limit.
    expect((await call(URL, {}, '10.0.0.2')).statusCode).toBe(200);
    expect((await call('/api/v2/getConsensusBlock', {}, '10.0.0.2')).statusCode).toBe(429);
  });

  it('an unknown key is refused with 401, in the header or the query', async () => {
    for (const r of [await call(URL, { 'x-api-key': 'nope' }), await call(`${URL}&api_key=nope`)]) {
      expect(r.statusCode).toBe(401);
      expect(r.json()).toEqual({ ok: false, code: 401, error: 'API key does not exist' });
    }
  });

  it('keys of one account share its budget; the header wins over the query; rps 0 is unlimited', async () => {
    const ip = '10.0.0.3';
    const statuses: number[] = [];
    for (const k of ['plus-1', 'plus-2', 'plus-1', 'plus-2']) statuses.push((await call(URL, { 'X-API-Key': k }, ip)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await call(`${URL}&api_key=unlimited`, { 'x-api-key': 'plus-1' }, ip)).statusCode).toBe(429);
    for (let i = 0; i < 50; i++) expect((await call(`${URL}&api_key=unlimited`, {}, ip)).statusCode).toBe(200);
  });

  it('a percent-encoded path meets the same key check and limit as the route it reaches', async () => {
    const ip = '10.0.0.5';
    expect((await call('/%61pi/v3/masterchainInfo', { 'x-api-key': 'nope' }, ip)).statusCode).toBe(401);
    // The store fails here: the first request is answered (500) in the v2 envelope of the route it reached.
    const first = await call('/%61pi/v2/getConsensusBlock', {}, ip);
    expect({ status: first.statusCode, body: first.json() }).toMatchObject({ status: 500, body: { ok: false, code: 500 } });
    for (const u of ['/api/v2/getConsensusBlock', '/%61pi/v3/addressBook?address=nothing', '/api/v2/getConsensus%42lock']) {
      expect((await call(u, {}, ip)).statusCode, u).toBe(429);
    }
  });

  it('an empty X-API-Key header is no key: the api_key query still counts', async () => {
    const ip = '10.0.0.6';
    for (let i = 0; i < 5; i++) expect((await call(`${URL}&api_key=unlimited`, { 'x-api-key': '' }, ip)).statusCode).toBe(200);
  });

  it('documentation and the health check are never limited', async () => {
    const ip = '10.0.0.4';
    for (let i = 0; i < 5; i++) {
      expect((await call('/healthcheck', {}, ip)).statusCode).toBe(200);
      expect((await call('/api/v3/doc.json', {}, ip)).statusCode).toBe(200);
      expect((await call('/api/v3/', {}, ip)).statusCode).toBe(200);
    }
  });

  it('a store failure is a masked 500 in TON Center form', async () => {
    const r = await call('/api/v3/masterchainInfo', { 'x-api-key': 'unlimited' });
    expect(r.statusCode).toBe(500);
    expect(r.json()).toEqual({ error: 'internal server error' });
  });
});
