import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runLoadHere, serverMs } from '../bench/load-generator.js';
import { serverTiming } from '../services/gateway/server-timing.js';

/** A local server whose handler holds the event loop for `blockMs` per request (0: answers at once). */
async function server(blockMs: number, status = 200, timing?: string): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const s = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    const until = Date.now() + blockMs;
    while (Date.now() < until);
    res.writeHead(status, { 'content-type': 'application/json', ...(timing ? { 'server-timing': timing } : {}) });
    res.end('{"ok":true}');
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  onTestFinished(() => new Promise<void>((r) => s.close(() => r())));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, seen };
}

describe('bench/load-generator.ts (the api benchmark\'s open-loop load)', () => {
  it('sends rate × seconds requests over the given paths, evenly spaced, and reports their latencies', async () => {
    const { url, seen } = await server(0);
    const out = await runLoadHere({ url, paths: ['/a', '/b?x=1'], rate: 200, seconds: 1, connections: 8 });
    expect(out.requests).toBe(200);
    expect(seen).toHaveLength(200);
    expect(new Set(seen)).toEqual(new Set(['/a', '/b?x=1']));
    expect(out.non2xx + out.errors + out.timeouts).toBe(0);
    expect(out.p50).toBeLessThanOrEqual(out.p99);
    expect(out.p99).toBeLessThanOrEqual(out.max);
    // Never faster than the rate. (How close to it a run gets depends on how busy the machine is: rps counts answers
    // over the time until the last one, so a loaded machine answering late lowers it.)
    expect(out.rps).toBeGreaterThan(0);
    expect(out.rps).toBeLessThanOrEqual(201);
  });

  it('a server slower than the rate: latency counts from the due time, and what is unanswered at the end is cut off', async () => {
    // 25 ms per request on one event loop: at most 40 answers a second against 200 due.
    const { url } = await server(25);
    const out = await runLoadHere({ url, paths: ['/slow'], rate: 200, seconds: 1, connections: 8 });
    expect(out.requests).toBeLessThan(200);
    expect(out.timeouts).toBe(200 - out.requests);
    // The last requests were due ~1 s before the cut-off (1 s run + 2 s grace): their wait is in the distribution.
    expect(out.max).toBeGreaterThan(1500);
    expect(out.p99).toBeGreaterThan(1000);
    // The server shares the generator's event loop here, so the generator's own lateness shows each 25 ms hold.
    expect(out.loop_delay_max_ms).toBeGreaterThanOrEqual(20);
  });

  it('counts answers outside 2xx', async () => {
    const { url } = await server(0, 503);
    const out = await runLoadHere({ url, paths: ['/'], rate: 100, seconds: 0.5, connections: 4 });
    expect(out.requests).toBe(50);
    expect(out.non2xx).toBe(50);
  });

  it("reads the server's own time from the gateway's Server-Timing header, as it arrives over a socket", async () => {
    // serverTiming writes Go's Duration text with the micro sign as UTF-8 bytes; Node reads header bytes as latin1.
    const { url } = await server(0, 200, serverTiming(0.5));
    const out = await runLoadHere({ url, paths: ['/'], rate: 100, seconds: 0.3, connections: 4 });
    expect(out.server_p99).toBe(0.5);
    const slow = await server(0, 200, serverTiming(12.5));
    expect((await runLoadHere({ url: slow.url, paths: ['/'], rate: 100, seconds: 0.3, connections: 4 })).server_p99).toBe(12.5);
    expect(serverMs(Buffer.from(serverTiming(0.0125), 'latin1').toString('latin1'))).toBeCloseTo(0.0125, 6);
    expect(serverMs(serverTiming(2500))).toBe(2500);
    expect(serverMs(serverTiming(0.00085))).toBeCloseTo(0.00085, 8);
    expect(serverMs(undefined)).toBeNull();
  });
});
