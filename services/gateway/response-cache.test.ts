import { describe, expect, it } from 'vitest';
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
    await new Promise((r) => setTimeout(r, 80));
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
    await new Promise((r) => setTimeout(r, 80));
    expect(errors.length).toBeGreaterThan(0);
    expect(cache.version()).toBeNull();
    expect(cache.get('k')).toBeUndefined();
    fail = false;
    await new Promise((r) => setTimeout(r, 80));
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

  it('keeps bodies within its byte budget, dropping the least recently used first', async () => {
    const cache = createResponseCache({ entries: 100, maxBytes: 10, checkMs: 1000, readVersion: async () => 'a' });
    await cache.start();
    const v = cache.version()!;
    cache.set('a', answer('1234'), v);
    cache.set('b', answer('1234'), v);
    expect(cache.get('a')?.body.toString()).toBe('1234'); // a is now the most recently used
    cache.set('c', answer('1234'), v); // 12 bytes > 10: b goes
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    cache.set('big', answer('12345678901'), v); // larger than the whole budget: never kept
    expect(cache.get('big')).toBeUndefined();
    expect(cache.get('c')).toBeDefined();
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
