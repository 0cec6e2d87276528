import { describe, expect, it } from 'vitest';
import { Lru } from './lru.js';

describe('Lru', () => {
  it('keeps at most `max` entries, the least recently used going first', () => {
    const lru = new Lru<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1);
    lru.set('c', 3);
    expect([lru.get('a'), lru.get('b'), lru.get('c')]).toEqual([1, undefined, 3]);
  });

  it('with a weight bound, evicts by weight as well as by count, and keeps nothing heavier than the bound', () => {
    const lru = new Lru<string, string>(100, 0, Date.now, (v) => v.length, 10);
    lru.set('a', 'xxxx');
    lru.set('b', 'xxxx');
    expect(lru.totalWeight).toBe(8);
    lru.get('a');
    lru.set('c', 'xxxx');
    // 12 > 10: the least recently used (b) goes, a was just read.
    expect([lru.get('a'), lru.get('b'), lru.get('c')]).toEqual(['xxxx', undefined, 'xxxx']);
    expect(lru.totalWeight).toBe(8);
    lru.set('big', 'x'.repeat(11));
    expect(lru.get('big')).toBeUndefined();
    expect([lru.size, lru.totalWeight]).toEqual([2, 8]);
    // Replacing a key counts its new weight only.
    lru.set('a', 'xx');
    expect([lru.size, lru.totalWeight]).toEqual([2, 6]);
    // A replacement too heavy to keep drops the old value as well: the key never serves a stale one.
    lru.set('a', 'x'.repeat(11));
    expect([lru.get('a'), lru.size, lru.totalWeight]).toEqual([undefined, 1, 4]);
  });

  it('expires entries after their TTL', () => {
    let now = 1000;
    const lru = new Lru<string, number>(10, 100, () => now);
    lru.set('a', 1);
    lru.set('b', 2, 0);
    now = 1101;
    expect([lru.get('a'), lru.get('b'), lru.size]).toEqual([undefined, 2, 1]);
  });
});
