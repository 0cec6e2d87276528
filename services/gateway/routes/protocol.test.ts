import { describe, expect, it } from 'vitest';
import { describeGatewaySuites } from '../../../test/helpers/gateway.js';

/*
 * The gateway's protocol: headers, CORS, healthcheck, docs, 404, X-Timeout (app.ts, routes/context.ts), over a store
 * filled from every real fixture block (test/helpers/gateway.ts describeGatewaySuites: the expected values and where
 * they come from).
 */

describeGatewaySuites('protocol', (s) => {
  const api = s.api;

  // -----------------------------------------------------------------------------------------------------------
  describe('protocol', () => {
    it('headers: X-API-Version, Server-Timing, CORS; healthcheck; docs; 404', async () => {
      const r = await s.fx.app.inject({ method: 'GET', url: '/api/v3/masterchainInfo', headers: { origin: 'https://example.org' } });
      expect(r.headers['x-api-version']).toBe('1.2.6');
      // A Go duration string, as ton-index-go's Timer middleware prints it (µ arrives as its UTF-8 bytes).
      expect(Buffer.from(String(r.headers['server-timing']), 'latin1').toString('utf8')).toMatch(/^app;dur=\d+(\.\d+)?(ns|µs|ms|s)$/);
      expect(r.headers['access-control-allow-origin']).toBe('*');
      expect(String(r.headers['access-control-expose-headers'])).toContain('x-next-cursor');
      const pre = await s.fx.app.inject({ method: 'OPTIONS', url: '/api/v3/transactions', headers: { origin: 'https://x.org', 'access-control-request-method': 'GET' } });
      expect(pre.statusCode).toBe(204);
      const v2 = await s.fx.app.inject({ method: 'GET', url: '/api/v2/getConsensusBlock' });
      expect(v2.headers['x-api-version']).toBe('2.1.1');
      const v2pre = await s.fx.app.inject({ method: 'OPTIONS', url: '/api/v2/jsonRPC', headers: { origin: 'https://x.org', 'access-control-request-method': 'POST' } });
      expect(v2pre.headers['x-api-version']).toBe('2.1.1');
      const h = await s.fx.app.inject({ method: 'GET', url: '/healthcheck' });
      expect({ status: h.statusCode, body: h.body }).toEqual({ status: 200, body: 'OK' });
      const root = await s.fx.app.inject({ method: 'GET', url: '/' });
      expect({ status: root.statusCode, location: root.headers.location }).toEqual({ status: 301, location: '/api/v3/index.html' });
      const ui = await s.fx.app.inject({ method: 'GET', url: '/api/v3/' });
      expect(ui.statusCode).toBe(200);
      expect(ui.body).toContain('swagger');
      const doc = await api('/api/v3/doc.json');
      expect(doc.body.openapi).toMatch(/^3\./);
      expect(await api('/api/v3/nothingHere')).toMatchObject({ status: 404, body: { error: expect.any(String) } });
      expect(await api('/api/v2/nothingHere')).toMatchObject({ status: 404, body: { ok: false, code: 404 } });
      // Unknown query keys are ignored.
      expect((await api('/api/v3/blocks?limit=1&whatever=1')).status).toBe(200);
    });

    it('X-Timeout (header or x_timeout): a deadline the store enforces, capped at 3000 ms', async () => {
      // The first read of a fresh store loads its parts' marks; the 100 ms deadline is for the statement itself.
      expect((await api('/api/v3/transactions?limit=1')).status).toBe(200);
      expect((await api('/api/v3/transactions?limit=1', { 'x-timeout': '100' })).status).toBe(200);
      expect((await api('/api/v3/transactions?limit=1&x_timeout=50000')).status).toBe(200);
    });
  });
});
