import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../shared/runtime/metrics.js';
import type { Store } from '../../shared/store/store.js';
import { silentLogger } from '../../test/helpers/gateway.js';
import { buildApp } from './app.js';
import { goDuration, serverTiming } from './server-timing.js';

describe('Server-Timing as Go prints a time.Duration', () => {
  // Expected strings are Go's documented Duration.String outputs (pkg.go.dev/time#Duration.String examples and
  // the rules of its fmtFrac: no trailing zeros, unit by magnitude).
  it.each([
    [0, '0s'],
    [1, '1ns'],
    [999, '999ns'],
    [1_100, '1.1µs'],
    [2_200_000, '2.2ms'],
    [1_234_567, '1.234567ms'],
    [1_000_000, '1ms'],
    [3_300_000_000, '3.3s'],
    [60_000_000_000, '1m0s'],
    [(4 * 60 + 5) * 1e9 + 1, '4m5.000000001s'],
    [(5 * 3600 + 6 * 60 + 7.001) * 1e9, '5h6m7.001s'],
    [3600e9, '1h0m0s'],
  ])('%d ns → %s', (ns, text) => {
    expect(goDuration(ns)).toBe(text);
  });

  it('sends the micro sign as Go does, in UTF-8', () => {
    const header = serverTiming(0.0125);
    expect(Buffer.from(header, 'latin1').toString('utf8')).toBe('app;dur=12.5µs');
    expect(serverTiming(1.5)).toBe('app;dur=1.5ms');
  });

  it('goes over the socket as Go sends it: the micro sign as its two UTF-8 bytes, once', async () => {
    // An address book of an unparsable string answers without the store.
    const noStore = (): Promise<never> => Promise.reject(new Error('no store in this test'));
    const store: Store = { database: 'none', pointReadSettings: 'max_threads = 1', command: noStore, insert: noStore, insertEncoded: noStore, columnTypes: noStore, query: noStore, queryFields: noStore, close: () => Promise.resolve() };
    const app = await buildApp({ store, logger: silentLogger(), metrics: createMetrics({ service: 'gateway', processMetrics: false }), config: { apiKeys: [], rpsWithoutKey: 0, testnet: false, responseCacheEntries: 0 } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const port = (app.server.address() as AddressInfo).port;
      const raw = (): Promise<Buffer> =>
        new Promise((resolve, reject) => {
          const c = net.connect(port, '127.0.0.1', () => c.write('GET /api/v3/addressBook?address=nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
          const chunks: Buffer[] = [];
          c.on('data', (d: Buffer) => chunks.push(d));
          c.on('end', () => resolve(Buffer.concat(chunks)));
          c.on('error', reject);
        });
      // Until an answer took under a millisecond (printed in µs): the only unit with a byte outside ASCII.
      let micro = 0;
      for (let i = 0; i < 300 && micro === 0; i++) {
        const head = (await raw()).toString('latin1').split('\r\n\r\n')[0]!;
        expect(head).toMatch(/^HTTP\/1\.1 200 /);
        const value = /\r\nserver-timing: ([^\r]*)/i.exec(head)![1]!;
        const text = Buffer.from(value, 'latin1').toString('utf8');
        expect(text).toMatch(/^app;dur=\d+(\.\d+)?(ns|µs|ms|s)$/);
        if (text.includes('µ')) micro++;
      }
      expect(micro).toBe(1);
    } finally {
      await app.close();
    }
  });
});
