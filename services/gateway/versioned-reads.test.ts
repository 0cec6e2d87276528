import { describe, expect, it } from 'vitest';
import { createVersionedReads } from './versioned-reads.js';

/** Reads shared while the store version holds, and only reads started after a request when it is unknown. */

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('versioned reads', () => {
  it('shares one read per key while the version holds, and reads again once it moves', async () => {
    let version: number | null = 1;
    let reads = 0;
    const r = createVersionedReads<number>(() => version, { entries: 10 });
    const load = async () => ++reads;
    expect(await Promise.all([r.get('a', load), r.get('a', load)])).toEqual([1, 1]);
    expect(await r.get('a', load)).toBe(1);
    expect(await r.get('b', load)).toBe(2);
    version = 2;
    expect(await r.get('a', load)).toBe(3);
    expect(reads).toBe(3);
  });

  it('does not keep a value whose read ran while the version moved', async () => {
    let version: number | null = 1;
    let reads = 0;
    const r = createVersionedReads<number>(() => version, { entries: 10 });
    const gate = deferred<void>();
    const first = r.get('a', async () => {
      await gate.promise;
      return ++reads;
    });
    version = 2;
    gate.resolve();
    expect(await first).toBe(1);
    version = 1;
    // Back at version 1 after 2: the generation moved, so nothing read before counts.
    expect(await r.get('a', async () => ++reads)).toBe(2);
  });

  it('without a version, a request joins only a read that starts after it arrived', async () => {
    const r = createVersionedReads<number>(() => null, { entries: 10 });
    let reads = 0;
    const gates: Array<ReturnType<typeof deferred<void>>> = [];
    const load = async () => {
      const g = deferred<void>();
      gates.push(g);
      const n = ++reads;
      await g.promise;
      return n;
    };
    const a = r.get('k', load);
    const b = r.get('k', load);
    const c = r.get('k', load);
    // One read under way; b and c wait for one read of their own after it.
    expect(reads).toBe(1);
    gates[0]!.resolve();
    expect(await a).toBe(1);
    await new Promise((res) => setImmediate(res));
    expect(reads).toBe(2);
    gates[1]!.resolve();
    expect(await Promise.all([b, c])).toEqual([2, 2]);
    // Nothing is kept without a version.
    const d = r.get('k', load);
    gates[2]!.resolve();
    expect(await d).toBe(3);
  });

  it('a failed read is not kept', async () => {
    const r = createVersionedReads<number>(() => 1, { entries: 10 });
    await expect(r.get('a', () => Promise.reject(new Error('store down')))).rejects.toThrow('store down');
    expect(await r.get('a', async () => 5)).toBe(5);
  });
});
