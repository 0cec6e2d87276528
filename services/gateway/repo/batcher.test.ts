import { describe, expect, it } from 'vitest';
import { KeyBatcher } from './batcher.js';

/** A load whose calls the test settles by hand, recording the keys and deadline of each. */
function manualLoad() {
  const calls: Array<{ keys: string[]; timeoutMs: number; settle: (found: Map<string, string>) => void; fail: (e: unknown) => void }> = [];
  const load = (keys: string[], req: { timeoutMs: number }) =>
    new Promise<Map<string, string>>((resolve, reject) => calls.push({ keys: [...keys].sort(), timeoutMs: req.timeoutMs, settle: resolve, fail: reject }));
  return { calls, load };
}

/** Every key that is not "missing" has the value "v:key". */
const answer = (keys: readonly string[]): Map<string, string> => new Map(keys.filter((k) => !k.startsWith('missing')).map((k) => [k, `v:${k}`]));

const req = { timeoutMs: 3000 };
const flush = () => new Promise((r) => setImmediate(r));

describe('KeyBatcher', () => {
  it('starts a lone request at once, in the same tick', () => {
    const { calls, load } = manualLoad();
    const b = new KeyBatcher(load, { maxKeys: 100, inFlight: 1 });
    void b.get(['a', 'b', 'a'], req);
    expect(calls.map((c) => c.keys)).toEqual([['a', 'b']]);
  });

  it('requests that arrive while a read runs share the next read; each gets its own keys, absent ones absent', async () => {
    const { calls, load } = manualLoad();
    const b = new KeyBatcher(load, { maxKeys: 100, inFlight: 1 });
    const first = b.get(['a'], req);
    const second = b.get(['b', 'missing1'], req);
    const third = b.get(['b', 'c'], req);
    expect(calls).toHaveLength(1);
    calls[0]!.settle(answer(calls[0]!.keys));
    expect(await first).toEqual(new Map([['a', 'v:a']]));
    await flush();
    expect(calls.map((c) => c.keys)).toEqual([['a'], ['b', 'c', 'missing1']]);
    calls[1]!.settle(answer(calls[1]!.keys));
    expect(await second).toEqual(new Map([['b', 'v:b']]));
    expect(await third).toEqual(new Map([['b', 'v:b'], ['c', 'v:c']]));
  });

  it("a read's failure is every sharer's failure, and later requests read again", async () => {
    const { calls, load } = manualLoad();
    const b = new KeyBatcher(load, { maxKeys: 100, inFlight: 1 });
    const running = b.get(['a'], req);
    const x = b.get(['x'], req);
    const y = b.get(['y'], req);
    calls[0]!.settle(answer(['a']));
    await running;
    await flush();
    const boom = new Error('store down');
    calls[1]!.fail(boom);
    await expect(x).rejects.toBe(boom);
    await expect(y).rejects.toBe(boom);
    const later = b.get(['z'], req);
    expect(calls).toHaveLength(3);
    calls[2]!.settle(answer(['z']));
    expect(await later).toEqual(new Map([['z', 'v:z']]));
  });

  it('a load that throws instead of rejecting fails its requests, not the caller of get', async () => {
    const b = new KeyBatcher<string>(
      () => {
        throw new Error('bad statement');
      },
      { maxKeys: 100, inFlight: 1 },
    );
    await expect(b.get(['a'], req)).rejects.toThrow('bad statement');
    await expect(b.get(['b'], req)).rejects.toThrow('bad statement');
  });

  it('requests with different deadlines never share a read', async () => {
    const { calls, load } = manualLoad();
    const b = new KeyBatcher(load, { maxKeys: 100, inFlight: 1 });
    const slow = b.get(['a'], { timeoutMs: 3000 });
    const fast = b.get(['b'], { timeoutMs: 200 });
    expect(calls.map((c) => [c.timeoutMs, c.keys])).toEqual([
      [3000, ['a']],
      [200, ['b']],
    ]);
    for (const c of calls) c.settle(answer(c.keys));
    expect(await slow).toEqual(new Map([['a', 'v:a']]));
    expect(await fast).toEqual(new Map([['b', 'v:b']]));
  });

  it('keeps a read within maxKeys, except for one request that alone asks for more', async () => {
    const { calls, load } = manualLoad();
    const b = new KeyBatcher(load, { maxKeys: 3, inFlight: 1 });
    const p = [b.get(['r'], req), b.get(['a', 'b'], req), b.get(['b', 'c'], req), b.get(['d'], req), b.get(['e', 'f', 'g', 'h'], req)];
    for (let i = 0; i < 4; i++) {
      calls[i]!.settle(answer(calls[i]!.keys));
      await flush();
    }
    expect(calls.map((c) => c.keys)).toEqual([['r'], ['a', 'b', 'c'], ['d'], ['e', 'f', 'g', 'h']]);
    expect(await p[4]).toEqual(new Map(['e', 'f', 'g', 'h'].map((k) => [k, `v:${k}`])));
  });

  it('runs up to inFlight reads at once', async () => {
    const { calls, load } = manualLoad();
    const b = new KeyBatcher(load, { maxKeys: 100, inFlight: 2 });
    const p = [b.get(['a'], req), b.get(['b'], req), b.get(['c'], req), b.get(['d'], req)];
    expect(calls.map((c) => c.keys)).toEqual([['a'], ['b']]);
    calls[1]!.settle(answer(['b']));
    await flush();
    expect(calls.map((c) => c.keys)).toEqual([['a'], ['b'], ['c', 'd']]);
    calls[0]!.settle(answer(['a']));
    calls[2]!.settle(answer(['c', 'd']));
    expect(await Promise.all(p)).toEqual(['a', 'b', 'c', 'd'].map((k) => new Map([[k, `v:${k}`]])));
  });

  it('an empty request reads nothing', async () => {
    const { calls, load } = manualLoad();
    const b = new KeyBatcher(load, { maxKeys: 100, inFlight: 1 });
    expect(await b.get([], req)).toEqual(new Map());
    expect(calls).toHaveLength(0);
  });
});
