import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { busContract, collect, waitFor } from '../../test/helpers/bus-contract.js';
import { NonRetryableError, RetryableError } from '../runtime/errors.js';
import type { Bus } from './bus.js';
import { createMemoryBus, murmur2, partitionForKey, type MemoryBusOptions } from './memory.js';

let n = 0;
const unique = (p: string): string => `${p}-${++n}`;

function bus(opts?: MemoryBusOptions): Bus {
  const b = createMemoryBus(opts);
  onTestFinished(() => b.close());
  return b;
}

const text = (b: Buffer): string => b.toString();
const tick = (ms = 20): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Whether a promise has settled, without waiting for it. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  await tick(5);
  return done;
}

describe('memory bus', () => {
  busContract({
    createBus: () => createMemoryBus({ retry: { initialMs: 5, maxMs: 50 } }),
    uniqueName: unique,
    deliveryTimeoutMs: 5000,
  });

  describe('partitioner', () => {
    it('computes murmur2 as Kafka’s Java client does (Utils.murmur2 test vectors)', () => {
      // From apache/kafka clients/src/test/java/org/apache/kafka/common/utils/UtilsTest.java (testMurmur2).
      const cases: [string, number][] = [
        ['21', -973932308],
        ['foobar', -790332482],
        ['a-little-bit-long-string', -985981536],
        ['a-little-bit-longer-string', -1486304829],
        ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
        ['abc', 479470107],
      ];
      for (const [input, expected] of cases) expect(murmur2(Buffer.from(input)), input).toBe(expected);
    });

    it('maps a key to toPositive(murmur2) % partitions', () => {
      expect(partitionForKey('foobar', 1)).toBe(0);
      expect(partitionForKey('foobar', 10)).toBe((-790332482 & 0x7fffffff) % 10);
    });

    it('spreads keyless messages round-robin', async () => {
      const b = bus();
      await b.ensureTopics([{ name: 't', partitions: 3 }]);
      const p = await b.producer();
      await p.send('t', Array.from({ length: 9 }, (_, i) => ({ key: null, value: Buffer.from(String(i)) })));
      const c = collect(b, { groupId: 'g', topics: ['t'] });
      await waitFor(() => c.received.length === 9, 1000, '9 messages');
      const counts = [0, 1, 2].map((p) => c.received.filter((m) => m.partition === p).length);
      expect(counts).toEqual([3, 3, 3]);
    });
  });

  describe('topics', () => {
    it('creates a missing topic with partitionsDefault on send, and leaves existing topics as they are', async () => {
      const b = bus({ partitionsDefault: 4 });
      const p = await b.producer();
      await p.send('auto', Array.from({ length: 40 }, (_, i) => ({ key: `k${i}`, value: Buffer.from('x') })));
      await b.ensureTopics([{ name: 'auto', partitions: 1 }]);
      const c = collect(b, { groupId: 'g', topics: ['auto'] });
      await waitFor(() => c.received.length === 40, 1000, '40 messages');
      expect(new Set(c.received.map((m) => m.partition))).toEqual(new Set([0, 1, 2, 3]));
    });

    it('copies the value on send: a reused producer buffer does not change what was sent', async () => {
      const b = bus();
      const p = await b.producer();
      const buf = Buffer.from('before');
      await p.send('t', [{ key: null, value: buf }]);
      buf.write('after!');
      const c = collect(b, { groupId: 'g', topics: ['t'] });
      await waitFor(() => c.received.length === 1, 1000, 'the message');
      expect(text(c.received[0]!.value)).toBe('before');
    });
  });

  describe('groups', () => {
    it('shares partitions among the members of a group, and hands them over when one leaves', async () => {
      const b = bus();
      await b.ensureTopics([{ name: 't', partitions: 4 }]);
      const a = collect(b, { groupId: 'g', topics: ['t'] });
      const c = collect(b, { groupId: 'g', topics: ['t'] });
      const p = await b.producer();
      const keys = Array.from({ length: 40 }, (_, i) => `key-${i}`);
      await p.send('t', keys.map((k) => ({ key: k, value: Buffer.from(k) })));
      await waitFor(() => a.received.length + c.received.length === 40, 1000, '40 messages');
      const partsA = new Set(a.received.map((m) => m.partition));
      const partsC = new Set(c.received.map((m) => m.partition));
      expect(partsA.size).toBe(2);
      expect(partsC.size).toBe(2);
      expect([...partsA].some((x) => partsC.has(x))).toBe(false);

      await a.consumer.stop();
      const before = c.received.length;
      await p.send('t', keys.map((k) => ({ key: k, value: Buffer.from(`${k}-2`) })));
      await waitFor(() => c.received.length === before + 40, 1000, 'the second round, all on the remaining member');
      expect(new Set(c.received.slice(before).map((m) => m.partition)).size).toBe(4);
    });

    it('never runs one partition in two handlers of a group at once, even across a rebalance', async () => {
      const b = bus();
      await b.ensureTopics([{ name: 't', partitions: 1 }]);
      const p = await b.producer();
      await p.send('t', Array.from({ length: 20 }, (_, i) => ({ key: 'k', value: Buffer.from(String(i)) })));
      let inFlight = 0;
      let maxInFlight = 0;
      const handle = async (): Promise<void> => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await tick(5);
        inFlight--;
      };
      const a = collect(b, { groupId: 'g', topics: ['t'], maxBatchMessages: 2 }, handle);
      await waitFor(() => a.received.length >= 2, 1000, 'a first batch');
      const c = collect(b, { groupId: 'g', topics: ['t'], maxBatchMessages: 2 }, handle);
      await a.consumer.stop();
      await waitFor(() => a.received.length + c.received.length >= 20, 1000, 'all messages');
      expect(maxInFlight).toBe(1);
      expect([...a.received, ...c.received].map((m) => Number(text(m.value)))).toEqual([...Array(20).keys()]);
    });
  });

  describe('retries', () => {
    it('backs off exponentially between retries of a batch', async () => {
      const b = bus({ retry: { initialMs: 40, maxMs: 10_000 } });
      const p = await b.producer();
      await p.send('t', [{ key: null, value: Buffer.from('x') }]);
      const times: number[] = [];
      const c = collect(b, { groupId: 'g', topics: ['t'] }, async () => {
        times.push(performance.now());
        if (times.length <= 3) throw new RetryableError('TRANSIENT', 'again');
      });
      await waitFor(() => c.received.length === 1, 5000, 'success after 3 failures');
      const gaps = times.slice(1).map((t, i) => t - times[i]!);
      // Jitter is ±20%: the k-th gap is at least 0.8 × 40 × 2^k (timers never fire early; 1 ms for rounding).
      gaps.forEach((g, k) => expect(g).toBeGreaterThanOrEqual(0.8 * 40 * 2 ** k - 1));
      expect(gaps[2]!).toBeGreaterThan(gaps[0]!);
    });

    it('retries a pause that ends between two readings of the clock', async () => {
      // A scripted clock, 0.6 ms per reading, and a backoff of exactly 2 ms: the pause ends between the fourth and
      // fifth readings after the failure. The consumer once read the clock twice per look (is the partition paused?
      // when is the next retry due?), and a pause ending between the two got neither a delivery nor a timer.
      let t = 0;
      const b = bus({ retry: { initialMs: 2, maxMs: 2 }, clock: () => (t += 0.6) });
      const p = await b.producer();
      await p.send('t', [{ key: null, value: Buffer.from('x') }]);
      let calls = 0;
      const c = collect(b, { groupId: 'g', topics: ['t'] }, async () => {
        if (++calls === 1) throw new RetryableError('TRANSIENT', 'again');
      });
      await waitFor(() => c.received.length === 1, 2000, 'the retry');
      expect(calls).toBe(2);
    });

    it('hands a partition paused for a retry to a new owner, which tries it at once', async () => {
      const b = bus({ retry: { initialMs: 60_000, maxMs: 60_000 } });
      await b.ensureTopics([{ name: 't', partitions: 2 }]);
      const p = await b.producer();
      const failKey = ['x0', 'x1', 'x2', 'x3'].find((k) => partitionForKey(k, 2) === 1)!;
      await p.send('t', [{ key: failKey, value: Buffer.from('x') }]);
      let calls = 0;
      const first = collect(b, { groupId: 'g', topics: ['t'] }, async () => {
        calls++;
        throw new RetryableError('TRANSIENT', 'again');
      });
      await waitFor(() => calls === 1, 1000, 'the failure');
      // Round-robin gives partition 1 to the second member; its pause (60 s) stays with the first.
      const second = collect(b, { groupId: 'g', topics: ['t'] });
      await waitFor(() => second.received.length === 1, 1000, 'the new owner');
      await tick(50);
      expect(calls).toBe(1);
      await first.consumer.stop();
    });

    it('treats errors without retryable: true (plain Error, TypeError) as non-retryable', async () => {
      const b = bus();
      const p = await b.producer();
      await p.send('t', [{ key: null, value: Buffer.from('x') }]);
      const c = collect(b, { groupId: 'g', topics: ['t'] }, async () => {
        throw new TypeError('bug');
      });
      await expect(c.done).rejects.toBeInstanceOf(TypeError);
    });
  });

  describe('pending batches', () => {
    it('hands over the next batch while the one before it is pending, and commits only what became durable', async () => {
      const b = bus();
      const topic = unique('pipe');
      const groupId = unique('g');
      const producer = await b.producer();
      await producer.send(topic, [0, 1, 2, 3].map((i) => ({ key: 'k', value: Buffer.from(`m${i}`) })));
      const finish: Array<() => void> = [];
      const handed: string[] = [];
      const consumer = b.consumer({ groupId, topics: [topic], maxBatchMessages: 2 });
      const done = consumer.run(async (batch, ctx) => {
        handed.push(batch.messages.map((m) => text(m.value)).join(','));
        // As the stage's last write of a batch: acknowledged, or given up when the consumer stops.
        const durable = new Promise<void>((resolve, reject) => {
          finish.push(resolve);
          ctx.signal.addEventListener('abort', () => reject(new Error('write given up')), { once: true });
        });
        return { durable };
      });
      // Both batches are in hand before either is durable: the second did not wait for the first one's write.
      await waitFor(() => handed.length === 2, 2000, 'the second batch');
      expect(handed).toEqual(['m0,m1', 'm2,m3']);
      // The first becomes durable (committed); the second never does before the stop.
      finish[0]!();
      await tick();
      await consumer.stop();
      await done;
      const next = collect(b, { groupId, topics: [topic] });
      await waitFor(() => next.received.length >= 2, 2000, 'the redelivered batch');
      expect(next.received.map((m) => text(m.value))).toEqual(['m2', 'm3']);
    });

    it('does not let a partition that always has more starve the member’s other partitions', async () => {
      const b = createMemoryBus({ partitionsDefault: 2 });
      onTestFinished(() => b.close());
      const topic = unique('fair');
      const busyKey = ['a0', 'a1', 'a2', 'a3'].find((k) => partitionForKey(k, 2) === 0)!;
      const otherKey = ['b0', 'b1', 'b2', 'b3'].find((k) => partitionForKey(k, 2) === 1)!;
      const producer = await b.producer();
      await producer.send(topic, Array.from({ length: 10 }, (_, i) => ({ key: busyKey, value: Buffer.from(`busy${i}`) })));
      await producer.send(topic, [{ key: otherKey, value: Buffer.from('other') }]);
      const handled: string[] = [];
      const c = b.consumer({ groupId: unique('g'), topics: [topic], maxBatchMessages: 1 });
      const done = c.run(async (batch) => {
        handled.push(text(batch.messages[0]!.value));
        return { durable: tick(5) };
      });
      await waitFor(() => handled.length === 11, 2000, 'all eleven');
      await c.stop();
      await done;
      // Round-robin as without pending batches: the other partition's message is among the first two handled.
      expect(handled.indexOf('other')).toBeLessThanOrEqual(1);
    });
  });

  describe('backpressure', () => {
    it('makes send wait while the slowest group lags by more than maxUnconsumedBytes', async () => {
      const b = bus({ maxUnconsumedBytes: 1000 });
      await b.ensureTopics([{ name: 't', partitions: 2 }]);
      const p = await b.producer();
      // No group yet: everything held counts.
      await p.send('t', [{ key: 'a', value: Buffer.alloc(600) }]);
      const blocked = p.send('t', [{ key: 'b', value: Buffer.alloc(600) }]);
      expect(await settled(blocked)).toBe(false);

      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const fast = collect(b, { groupId: 'fast', topics: ['t'] });
      const slow = collect(b, { groupId: 'slow', topics: ['t'] }, () => gate);
      await waitFor(() => fast.received.length === 1, 1000, 'fast group');
      // The fast group has consumed everything, the slow one has not: still blocked.
      expect(await settled(blocked)).toBe(false);
      release();
      await blocked;
      await waitFor(() => fast.received.length === 2 && slow.received.length === 2, 1000, 'both messages in both groups');
    });

    it('lets a single send larger than the budget through once the topic is consumed', async () => {
      const b = bus({ maxUnconsumedBytes: 100 });
      const p = await b.producer();
      await p.send('t', [{ key: null, value: Buffer.alloc(50) }]);
      const big = p.send('t', [{ key: null, value: Buffer.alloc(500) }]);
      expect(await settled(big)).toBe(false);
      const c = collect(b, { groupId: 'g', topics: ['t'] });
      await big;
      await waitFor(() => c.received.length === 2, 1000, 'both');
    });

    it('counts a stopped group that keeps its offsets (as a Kafka group lagging behind)', async () => {
      const b = bus({ maxUnconsumedBytes: 1000 });
      const p = await b.producer();
      const idle = collect(b, { groupId: 'idle', topics: ['t'] });
      await idle.consumer.stop();
      await p.send('t', [{ key: null, value: Buffer.alloc(900) }]);
      const blocked = p.send('t', [{ key: null, value: Buffer.alloc(200) }]);
      expect(await settled(blocked)).toBe(false);
      const resumed = collect(b, { groupId: 'idle', topics: ['t'] });
      await blocked;
      await waitFor(() => resumed.received.length === 2, 1000, 'both');
    });

    it('rejects blocked sends when the bus closes', async () => {
      const b = createMemoryBus({ maxUnconsumedBytes: 10 });
      const p = await b.producer();
      await p.send('t', [{ key: null, value: Buffer.alloc(10) }]);
      const blocked = p.send('t', [{ key: null, value: Buffer.alloc(10) }]);
      expect(await settled(blocked)).toBe(false);
      await b.close();
      await expect(blocked).rejects.toMatchObject({ code: 'BUS_CLOSED', retryable: false });
    });
  });

  describe('retention', () => {
    it('drops what every group committed; a late group starts at the earliest message held', async () => {
      const b = bus();
      const p = await b.producer();
      const early = collect(b, { groupId: 'early', topics: ['t'] });
      await p.send('t', [0, 1, 2].map((i) => ({ key: null, value: Buffer.from(`m${i}`) })));
      await waitFor(() => early.received.length === 3, 1000, 'early group');
      await early.consumer.stop();
      await p.send('t', [{ key: null, value: Buffer.from('m3') }]);
      const late = collect(b, { groupId: 'late', topics: ['t'] });
      await waitFor(() => late.received.length === 1, 1000, 'late group');
      expect(late.received.map((m) => [m.offset, text(m.value)])).toEqual([['3', 'm3']]);
    });
  });

  describe('stop and close', () => {
    it('resolves stop() before run() and then run() at once', async () => {
      const b = bus();
      const c = b.consumer({ groupId: 'g', topics: ['t'] });
      await c.stop();
      await expect(c.run(async () => {})).resolves.toBeUndefined();
    });

    it('rejects a second run()', async () => {
      const b = bus();
      const c = b.consumer({ groupId: 'g', topics: ['t'] });
      const first = c.run(async () => {});
      await expect(c.run(async () => {})).rejects.toThrow(/twice/);
      await c.stop();
      await first;
    });

    it('does not deliver after a non-retryable error, and leaves the group', async () => {
      const b = bus();
      await b.ensureTopics([{ name: 't', partitions: 2 }]);
      const p = await b.producer();
      await p.send('t', [
        { key: 'a', value: Buffer.from('x') },
        { key: 'b', value: Buffer.from('y') },
      ]);
      let calls = 0;
      const c = collect(b, { groupId: 'g', topics: ['t'] }, async () => {
        calls++;
        throw new NonRetryableError('BAD', 'bad');
      });
      await expect(c.done).rejects.toMatchObject({ code: 'BAD' });
      await tick();
      expect(calls).toBe(1);
      // Its partitions went back to the group: a new member gets both messages.
      const next = collect(b, { groupId: 'g', topics: ['t'] });
      await waitFor(() => next.received.length === 2, 1000, 'both messages');
    });

    it('leaves no timer behind: close() during a retry backoff ends at once', async () => {
      // The bus's own timers, not the process's: a timer of the test runner's that ends meanwhile would change a
      // process-wide count. Long ones only (the backoff is 60 s): none of those fires within the test.
      const realSet = globalThis.setTimeout;
      const realClear = globalThis.clearTimeout;
      const pending = new Set<unknown>();
      vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms?: number, ...args: unknown[]) => {
        const t = (realSet as (...a: unknown[]) => NodeJS.Timeout)(fn, ms, ...args);
        if ((ms ?? 0) >= 30_000) pending.add(t);
        return t;
      }));
      vi.spyOn(globalThis, 'clearTimeout').mockImplementation(((t?: NodeJS.Timeout) => {
        pending.delete(t);
        realClear(t);
      }) as typeof clearTimeout);
      onTestFinished(() => void vi.restoreAllMocks());
      const timers = (): number => pending.size;
      const before = timers();
      const b = createMemoryBus({ retry: { initialMs: 60_000, maxMs: 60_000 } });
      const p = await b.producer();
      await p.send('t', [{ key: null, value: Buffer.from('x') }]);
      let calls = 0;
      const c = collect(b, { groupId: 'g', topics: ['t'] }, async () => {
        calls++;
        throw new RetryableError('TRANSIENT', 'again');
      });
      await waitFor(() => calls === 1, 1000, 'first failure');
      await tick(5);
      expect(timers()).toBe(before + 1);
      const t0 = performance.now();
      await b.close();
      // Far below the 60 s backoff it must not wait for, and far above what closing takes on a slow machine.
      expect(performance.now() - t0).toBeLessThan(10_000);
      await expect(c.done).resolves.toBeUndefined();
      expect(timers()).toBe(before);
    });
  });
});
