import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../shared/runtime/errors.js';
import { createRateLimiter, parseApiKeys } from './auth.js';

describe('API keys and rate limits', () => {
  it('reads keys from a JSON file (array or map) and from key:rps[:account] entries', () => {
    const keys = parseApiKeys({
      file: JSON.stringify([{ key: 'alpha', rps: 10 }, { key: 'beta', rps: 25, account: 'acme' }]),
      env: 'gamma:25:acme, delta:0',
    });
    expect(keys).toEqual([
      { key: 'alpha', rps: 10, account: 'key:alpha' },
      { key: 'beta', rps: 25, account: 'acme' },
      { key: 'gamma', rps: 25, account: 'acme' },
      { key: 'delta', rps: 0, account: 'key:delta' },
    ]);
    expect(parseApiKeys({ file: '{"k1": 5}' })).toEqual([{ key: 'k1', rps: 5, account: 'key:k1' }]);
  });

  it('reports every bad entry at once', () => {
    try {
      parseApiKeys({ file: JSON.stringify([{ key: '', rps: 1 }, { key: 'x', rps: -1 }]), env: 'y:abc,z:1,z:2' });
      throw new Error('no error');
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      expect((e as ConfigError).issues).toHaveLength(4);
    }
    expect(() => parseApiKeys({ file: 'not json' })).toThrow(ConfigError);
  });

  it('keyless: per client budget; unknown key: 401; a key: its own budget, shared by its account', () => {
    let t = 0;
    const limiter = createRateLimiter({ keys: parseApiKeys({ env: 'a:2:acme,b:2:acme,c:0' }), rpsWithoutKey: 1, now: () => t });
    expect(limiter.admit(undefined, '1.1.1.1')).toEqual({ ok: true, principal: 'ip:1.1.1.1' });
    expect(limiter.admit(undefined, '1.1.1.1')).toEqual({ ok: false, status: 429 });
    expect(limiter.admit(undefined, '2.2.2.2').ok).toBe(true);
    expect(limiter.admit('nope', '1.1.1.1')).toEqual({ ok: false, status: 401 });
    expect(limiter.admit('a', '1.1.1.1').ok).toBe(true);
    expect(limiter.admit('b', '9.9.9.9').ok).toBe(true);
    expect(limiter.admit('a', '1.1.1.1')).toEqual({ ok: false, status: 429 });
    for (let i = 0; i < 100; i++) expect(limiter.admit('c', '1.1.1.1').ok).toBe(true);
    t += 1000; // a second later the budgets are back
    expect(limiter.admit(undefined, '1.1.1.1').ok).toBe(true);
    expect(limiter.admit('b', '1.1.1.1').ok).toBe(true);
    t += 500; // half a second refills one token: two left for the account, then none
    expect(limiter.admit('a', '1.1.1.1').ok).toBe(true);
    expect(limiter.admit('b', '1.1.1.1').ok).toBe(true);
    expect(limiter.admit('a', '1.1.1.1').ok).toBe(false);
  });

  it('keys of one account with different figures share one budget, the highest; under 1 rps admits one request per 1/rps s', () => {
    let t = 0;
    const limiter = createRateLimiter({ keys: parseApiKeys({ env: 'f:1:acct,e:5:acct,h:0.5' }), rpsWithoutKey: 0, now: () => t });
    // The account's figure is 5 whichever key is used, so the low key does not cap it.
    expect(limiter.admit('f', '1.1.1.1').ok).toBe(true);
    for (let i = 0; i < 4; i++) expect(limiter.admit('e', '1.1.1.1').ok).toBe(true);
    expect(limiter.admit('e', '1.1.1.1').ok).toBe(false);
    expect(limiter.admit('h', '1.1.1.1').ok).toBe(true);
    expect(limiter.admit('h', '1.1.1.1').ok).toBe(false);
    t += 1000;
    expect(limiter.admit('h', '1.1.1.1').ok).toBe(false);
    t += 1000;
    expect(limiter.admit('h', '1.1.1.1').ok).toBe(true);
  });

  it('a key with rps 0 makes its whole account unlimited', () => {
    const limiter = createRateLimiter({ keys: parseApiKeys({ env: 'a:0:acct,b:2:acct' }), rpsWithoutKey: 0, now: () => 0 });
    for (let i = 0; i < 50; i++) expect(limiter.admit('b', '1.1.1.1').ok).toBe(true);
    for (let i = 0; i < 50; i++) expect(limiter.admit('a', '1.1.1.1').ok).toBe(true);
  });

  it('rpsWithoutKey 0 means no keyless limit', () => {
    const limiter = createRateLimiter({ keys: [], rpsWithoutKey: 0 });
    for (let i = 0; i < 1000; i++) expect(limiter.admit(undefined, '1.1.1.1').ok).toBe(true);
  });
});
