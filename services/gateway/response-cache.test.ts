import { describe, expect, it } from 'vitest';
import { waitFor } from '../../test/helpers/bus-contract.js';
import { type CachedResponse, createResponseCache, responseCacheKey } from './response-cache.js';

const answer = (body: string): CachedResponse => ({ body: Buffer.from(body), contentType: 'application/json; charset=utf-8', headers: {} });

describe('response cache', () => {
  it('keeps answers while the store version holds and drops them when it moves', async () => {
    let version = 'a';
    const cache = createResponseCache({ entries: 10, checkMs: 20, readVersion: async () => version });
    await cache.start();
    const v = cache.version()!;
    cache.set('k', answer('1'), v);
    expect(cache.get('k')?.body.toString()).toBe('1');
    version = 'b';
    // The next check (every 20 ms) sees the move.
    await waitFor(() => cache.version() !== v, 80, 'the version move seen');
    expect(cache.get('k')).toBeUndefined();
    // An answer computed before the move is not kept after it.
    cache.set('k', answer('old'), v);
    expect(cache.get('k')).toBeUndefined();
    await cache.stop();
  });

  it('serves nothing and keeps nothing while the version cannot be read', async () => {
    let fail = false;
    const errors: unknown[] = [];
    const cache = createResponseCache({
      entries: 10,
      checkMs: 20,
      readVersion: async () => {
        if (fail) throw new Error('store down');
        return 'x';
      },
      onError: (e) => errors.push(e),
    });
    await cache.start();
    cache.set('k', answer('1'), cache.version()!);
    fail = true;
    await waitFor(() => cache.version() === null, 80, 'the failed read seen');
    expect(errors.length).toBeGreaterThan(0);
    expect(cache.version()).toBeNull();
    expect(cache.get('k')).toBeUndefined();
    fail = false;
    await waitFor(() => cache.version() !== null, 80, 'the version readable again');
    // Back: the old answer is gone (the store may have changed meanwhile), new ones are kept.
    expect(cache.get('k')).toBeUndefined();
    cache.set('k', answer('2'), cache.version()!);
    expect(cache.get('k')?.body.toString()).toBe('2');
    await cache.stop();
  });

  it('is off with 0 entries, and never keeps bodies over the size bound', async () => {
    const off = createResponseCache({ entries: 0, checkMs: 20, readVersion: async () => 'a' });
    await off.start();
    expect(off.version()).toBeNull();
    await off.stop();
    const small = createResponseCache({ entries: 10, checkMs: 1000, maxBodyBytes: 4, readVersion: async () => 'a' });
    await small.start();
    small.set('k', answer('12345'), small.version()!);
    expect(small.get('k')).toBeUndefined();
    await small.stop();
  });

  it('keeps entries within its byte budget (body and key), dropping the least recently used first', async () => {
    // Each entry below weighs its 4-byte body and 2 bytes of one-character key: 6.
    const cache = createResponseCache({ entries: 100, maxBytes: 14, checkMs: 1000, readVersion: async () => 'a' });
    await cache.start();
    const v = cache.version()!;
    cache.set('a', answer('1234'), v);
    cache.set('b', answer('1234'), v);
    expect(cache.get('a')?.body.toString()).toBe('1234'); // a is now the most recently used
    cache.set('c', answer('1234'), v); // 18 bytes > 14: b goes
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    cache.set('big', answer('123456789012345'), v); // a body larger than the whole budget: never kept
    expect(cache.get('big')).toBeUndefined();
    expect(cache.get('c')).toBeDefined();
    await cache.stop();
  });

  it('counts keys in the budget: long URLs with small answers cannot pile up', async () => {
    const cache = createResponseCache({ entries: 1000, maxBytes: 10_000, checkMs: 1000, readVersion: async () => 'a' });
    await cache.start();
    const v = cache.version()!;
    for (let i = 0; i < 100; i++) cache.set(`${i}:${'x'.repeat(1000)}`, answer('{}'), v);
    const kept = Array.from({ length: 100 }, (_, i) => cache.get(`${i}:${'x'.repeat(1000)}`)).filter(Boolean).length;
    // About 2 KB each: at most 4 fit in 10,000 bytes, the newest.
    expect(kept).toBeLessThanOrEqual(4);
    expect(cache.get(`99:${'x'.repeat(1000)}`)).toBeDefined();
    await cache.stop();
  });

  it('keys ignore the API key but not the parameters or the content headers', () => {
    const a = responseCacheKey('GET', '/api/v3/blocks?seqno=1&api_key=secret', false, false);
    expect(a).toBe(responseCacheKey('GET', '/api/v3/blocks?seqno=1', false, false));
    expect(a).not.toContain('secret');
    expect(a).not.toBe(responseCacheKey('GET', '/api/v3/blocks?seqno=2', false, false));
    expect(a).not.toBe(responseCacheKey('GET', '/api/v3/blocks?seqno=1', true, false));
  });
});
